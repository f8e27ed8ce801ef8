/* AMX bf16x3 matrix product over packed right-hand sides (see gemm_amx.h).
 *
 * Tiles: 0-3 accumulate a 32 x 32 block of C (rows 0-15 / 16-31 x columns
 * 0-15 / 16-31), 4-5 hold 16-row tiles of A, 6-7 16-column tiles of B. Per
 * chunk of 32 k: A.hi x B.hi, A.lo x B.hi, A.hi x B.lo, four tile products
 * each, ten tile loads. The block's sums go through a 4 KB buffer to the
 * epilogue (alpha, accumulate, bias, ReLU, row maxima; masked at N's end). */
#include "model/gemm_amx.h"

#include "model/gemm.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t sl_gemm_amx_packed_size(int N, int K)
{
    return sl_gemm_packed_size(N, (K + 31) & ~31);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__linux__)
#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SL_AMX __attribute__((target("avx512f,avx512bw,amx-tile,amx-bf16")))

enum { KC = 512 }; /* k per block: the stack buffer of A holds 32 rows x KC, split */

static int amx_ok;
static pthread_once_t amx_once = PTHREAD_ONCE_INIT;

static void amx_init(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return;
    if (!(d & (1u << 22)) || !(d & (1u << 24))) /* AMX-BF16, AMX-TILE */
        return;
    /* ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA: without it the first tile
     * instruction faults */
    if (syscall(SYS_arch_prctl, 0x1023, 18) != 0)
        return;
    amx_ok = 1;
}

int sl_gemm_amx_available(void)
{
    const char *off = getenv("SL_NO_AMX");
    if ((off && *off && strcmp(off, "0")) || !sl_gemm_avx512())
        return 0;
    pthread_once(&amx_once, amx_init);
    return amx_ok;
}

typedef struct {
    uint8_t palette, start_row, reserved[14];
    uint16_t colsb[16];
    uint8_t rows[16];
} __attribute__((aligned(64))) tile_config;

/* bf16 bits (round to nearest even) of x in the low half of each 32-bit lane,
 * for hi = bf16(x) and lo = bf16(x - hi). */
static inline __attribute__((always_inline)) SL_AMX void split32(__m512 x, __m512i *hi,
                                                                  __m512i *lo)
{
    const __m512i one = _mm512_set1_epi32(1), bias = _mm512_set1_epi32(0x7fff);
    __m512i u = _mm512_castps_si512(x);
    u = _mm512_add_epi32(u, _mm512_add_epi32(bias, _mm512_and_si512(_mm512_srli_epi32(u, 16), one)));
    u = _mm512_srli_epi32(u, 16);
    *hi = u;
    __m512 r = _mm512_sub_ps(x, _mm512_castsi512_ps(_mm512_slli_epi32(u, 16)));
    __m512i v = _mm512_castps_si512(r);
    v = _mm512_add_epi32(v, _mm512_add_epi32(bias, _mm512_and_si512(_mm512_srli_epi32(v, 16), one)));
    *lo = _mm512_srli_epi32(v, 16);
}

static inline __attribute__((always_inline)) SL_AMX void split16(__m512 x, __m256i *hi,
                                                                  __m256i *lo)
{
    __m512i h, l;
    split32(x, &h, &l);
    *hi = _mm512_cvtepi32_epi16(h);
    *lo = _mm512_cvtepi32_epi16(l);
}

static inline __mmask16 first(int n)
{
    return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1);
}

/* B = w^T (w: N x K, rows ldw apart). For each column n of B, its 32 k of a
 * chunk are contiguous in w: split them and scatter the 16 k pairs down the
 * tile's rows (64 bytes apart). */
SL_AMX void sl_gemm_amx_pack_nt(float *dst, const float *w, int ldw, int N, int K)
{
    const int Kp = (K + 31) & ~31, np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    const __m512i rows = _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                                             5, 4, 3, 2, 1, 0),
                                            _mm512_set1_epi32(16));
    uint32_t *d = (uint32_t *)dst;
    for (int p = 0; p < np; p++)
        for (int t = 0; t < Kp / 32; t++) {
            uint32_t *chunk = d + (size_t)p * 32 * Kp + (size_t)t * 1024;
            const int k0 = 32 * t;
            for (int c = 0; c < 32; c++) {
                const int n = 32 * p + c;
                __m512 x0 = _mm512_setzero_ps(), x1 = x0;
                if (n < N) {
                    const float *row = w + (size_t)n * ldw + k0;
                    x0 = _mm512_maskz_loadu_ps(first(K - k0), row);
                    x1 = _mm512_maskz_loadu_ps(first(K - k0 - 16), row + 16);
                }
                __m256i h0, l0, h1, l1;
                split16(x0, &h0, &l0);
                split16(x1, &h1, &l1);
                uint32_t *col = chunk + (size_t)(c / 16) * 256 + (c % 16);
                _mm512_i32scatter_epi32(col, rows,
                                        _mm512_inserti64x4(_mm512_castsi256_si512(h0), h1, 1), 4);
                _mm512_i32scatter_epi32(col + 512, rows,
                                        _mm512_inserti64x4(_mm512_castsi256_si512(l0), l1, 1), 4);
            }
        }
}

/* B = b (K x N, rows ldb apart): a tile row is rows 2r and 2r+1 of b,
 * interleaved in 32-bit lanes. */
SL_AMX void sl_gemm_amx_pack_nn(float *dst, const float *b, int ldb, int K, int N)
{
    const int Kp = (K + 31) & ~31, np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    uint32_t *d = (uint32_t *)dst;
    for (int p = 0; p < np; p++) {
        const int n0 = 32 * p;
        const __mmask16 m[2] = {first(N - n0), first(N - n0 - 16)};
        for (int t = 0; t < Kp / 32; t++) {
            uint32_t *chunk = d + (size_t)p * 32 * Kp + (size_t)t * 1024;
            for (int r = 0; r < 16; r++) {
                const int k = 32 * t + 2 * r;
                for (int h = 0; h < 2; h++) {
                    __m512 x0 = _mm512_setzero_ps(), x1 = x0;
                    if (k < K)
                        x0 = _mm512_maskz_loadu_ps(m[h], b + (size_t)k * ldb + n0 + 16 * h);
                    if (k + 1 < K)
                        x1 = _mm512_maskz_loadu_ps(m[h], b + (size_t)(k + 1) * ldb + n0 + 16 * h);
                    __m512i h0, l0, h1, l1;
                    split32(x0, &h0, &l0);
                    split32(x1, &h1, &l1);
                    uint32_t *row = chunk + (size_t)h * 256 + (size_t)r * 16;
                    _mm512_storeu_si512(row, _mm512_or_si512(h0, _mm512_slli_epi32(h1, 16)));
                    _mm512_storeu_si512(row + 512, _mm512_or_si512(l0, _mm512_slli_epi32(l1, 16)));
                }
            }
        }
    }
}

/* Rows [0, mr) of A (k from 0 to kc) into buf: per chunk of 32 k, tiles hi
 * rows 0-15, hi 16-31, lo 0-15, lo 16-31 (the second pair only if mr > 16);
 * zeros beyond kc and mr. */
static inline SL_AMX void pack_a(uint16_t *buf, const float *A, int lda, int mr, int kc)
{
    const int rows = mr > 16 ? 32 : 16, nt = (kc + 31) / 32;
    for (int i = 0; i < rows; i++) {
        uint16_t *row = buf + (size_t)(i / 16) * 512 + (size_t)(i % 16) * 32;
        const float *a = A + (size_t)i * lda;
        for (int t = 0; t < nt; t++) {
            __m256i h0, l0, h1, l1;
            if (i < mr) {
                const int k0 = 32 * t, left = kc - k0;
                const __mmask16 m0 = left >= 16 ? 0xffff : (__mmask16)((1u << left) - 1);
                const __mmask16 m1 = left >= 32   ? 0xffff
                                     : left > 16 ? (__mmask16)((1u << (left - 16)) - 1)
                                                 : 0;
                split16(_mm512_maskz_loadu_ps(m0, a + k0), &h0, &l0);
                split16(_mm512_maskz_loadu_ps(m1, a + k0 + 16), &h1, &l1);
            } else {
                h0 = l0 = h1 = l1 = _mm256_setzero_si256();
            }
            uint16_t *r = row + (size_t)t * 2048;
            _mm256_storeu_si256((__m256i *)r, h0);
            _mm256_storeu_si256((__m256i *)(r + 16), h1);
            _mm256_storeu_si256((__m256i *)(r + 1024), l0);
            _mm256_storeu_si256((__m256i *)(r + 1024 + 16), l1);
        }
    }
}

/* One row of the block's sums (32 columns, in s) into C. */
static inline __attribute__((always_inline)) SL_AMX void
epilogue_row(float *c, const float *s, float alpha, int accumulate, const float *bias, int relu,
             __mmask16 m0, __mmask16 m1, float *rmax)
{
    const __m512 va = _mm512_set1_ps(alpha);
    __m512 r0 = _mm512_loadu_ps(s), r1 = _mm512_loadu_ps(s + 16);
    if (alpha != 1.0f) {
        r0 = _mm512_mul_ps(r0, va);
        r1 = _mm512_mul_ps(r1, va);
    }
    if (bias) {
        r0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, bias), r0);
        r1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, bias + 16), r1);
    }
    if (accumulate) {
        r0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c), r0);
        r1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 16), r1);
    }
    if (relu) {
        r0 = _mm512_max_ps(r0, _mm512_setzero_ps());
        r1 = _mm512_max_ps(r1, _mm512_setzero_ps());
    }
    _mm512_mask_storeu_ps(c, m0, r0);
    _mm512_mask_storeu_ps(c + 16, m1, r1);
    if (rmax) {
        __m512 mx = _mm512_loadu_ps(rmax);
        mx = _mm512_mask_max_ps(mx, m0, mx, r0);
        mx = _mm512_mask_max_ps(mx, m1, mx, r1);
        _mm512_storeu_ps(rmax, mx);
    }
}

static SL_AMX void gemm(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                        int K, float alpha, int accumulate, const float *bias, int relu,
                        float *rowmax)
{
    tile_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int t = 0; t < 8; t++) {
        cfg.rows[t] = 16;
        cfg.colsb[t] = 64;
    }
    _tile_loadconfig(&cfg);

    uint16_t abuf[32 * 2 * KC] __attribute__((aligned(64)));
    float sums[32 * 32] __attribute__((aligned(64)));
    const int Kp = (K + 31) & ~31, np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    const uint16_t *B = (const uint16_t *)Bp;
    if (rowmax)
        for (size_t i = 0; i < (size_t)M * 16; i++)
            rowmax[i] = -INFINITY;
    /* bias with alpha 1 only, added on the first k block */
    for (int kb = 0; kb < K; kb += KC) {
        const int kc = K - kb < KC ? K - kb : KC, nt = (kc + 31) / 32;
        const int acc = accumulate || kb > 0, last = kb + KC >= K;
        for (int m0 = 0; m0 < M; m0 += 32) {
            const int mr = M - m0 < 32 ? M - m0 : 32;
            pack_a(abuf, A + (size_t)m0 * lda + kb, lda, mr, kc);
            for (int p = 0; p < np; p++) {
                const int n0 = p * SL_GEMM_PANEL;
                const int nn = N - n0 < SL_GEMM_PANEL ? N - n0 : SL_GEMM_PANEL;
                const __mmask16 mk0 = first(nn), mk1 = first(nn - 16);
                const uint16_t *b = B + (size_t)p * 64 * Kp + (size_t)(kb / 32) * 2048;
                _tile_zero(0);
                _tile_zero(1);
                if (mr > 16) {
                    _tile_zero(2);
                    _tile_zero(3);
                    for (int t = 0; t < nt; t++) {
                        const uint16_t *a = abuf + (size_t)t * 2048, *bt = b + (size_t)t * 2048;
                        _tile_loadd(4, a, 64);
                        _tile_loadd(5, a + 512, 64);
                        _tile_loadd(6, bt, 64);
                        _tile_loadd(7, bt + 512, 64);
                        _tile_dpbf16ps(0, 4, 6);
                        _tile_dpbf16ps(1, 4, 7);
                        _tile_dpbf16ps(2, 5, 6);
                        _tile_dpbf16ps(3, 5, 7);
                        _tile_loadd(4, a + 1024, 64);
                        _tile_loadd(5, a + 1536, 64);
                        _tile_dpbf16ps(0, 4, 6);
                        _tile_dpbf16ps(1, 4, 7);
                        _tile_dpbf16ps(2, 5, 6);
                        _tile_dpbf16ps(3, 5, 7);
                        _tile_loadd(4, a, 64);
                        _tile_loadd(5, a + 512, 64);
                        _tile_loadd(6, bt + 1024, 64);
                        _tile_loadd(7, bt + 1536, 64);
                        _tile_dpbf16ps(0, 4, 6);
                        _tile_dpbf16ps(1, 4, 7);
                        _tile_dpbf16ps(2, 5, 6);
                        _tile_dpbf16ps(3, 5, 7);
                    }
                    _tile_stored(2, sums + 16 * 32, 128);
                    _tile_stored(3, sums + 16 * 32 + 16, 128);
                } else {
                    for (int t = 0; t < nt; t++) {
                        const uint16_t *a = abuf + (size_t)t * 2048, *bt = b + (size_t)t * 2048;
                        _tile_loadd(4, a, 64);
                        _tile_loadd(6, bt, 64);
                        _tile_loadd(7, bt + 512, 64);
                        _tile_dpbf16ps(0, 4, 6);
                        _tile_dpbf16ps(1, 4, 7);
                        _tile_loadd(4, a + 1024, 64);
                        _tile_dpbf16ps(0, 4, 6);
                        _tile_dpbf16ps(1, 4, 7);
                        _tile_loadd(4, a, 64);
                        _tile_loadd(6, bt + 1024, 64);
                        _tile_loadd(7, bt + 1536, 64);
                        _tile_dpbf16ps(0, 4, 6);
                        _tile_dpbf16ps(1, 4, 7);
                    }
                }
                _tile_stored(0, sums, 128);
                _tile_stored(1, sums + 16, 128);
                const float *bb = bias && kb == 0 ? bias + n0 : NULL;
                const int rl = relu && last;
                for (int i = 0; i < mr; i++)
                    epilogue_row(C + (size_t)(m0 + i) * ldc + n0, sums + 32 * i, alpha, acc, bb,
                                 rl, mk0, mk1,
                                 rowmax && last ? rowmax + (size_t)(m0 + i) * 16 : NULL);
            }
        }
    }
    _tile_release();
}

SL_AMX void sl_gemm_amx(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                        int K, float alpha, int accumulate, const float *bias, int relu)
{
    gemm(C, ldc, A, lda, Bp, M, N, K, alpha, accumulate, bias, relu, NULL);
}

SL_AMX void sl_gemm_amx_rowmax(float *C, int ldc, const float *A, int lda, const float *Bp, int M,
                               int N, int K, float alpha, float *rowmax)
{
    gemm(C, ldc, A, lda, Bp, M, N, K, alpha, 0, NULL, 0, rowmax);
}

#else

int sl_gemm_amx_available(void) { return 0; }

void sl_gemm_amx_pack_nt(float *dst, const float *w, int ldw, int N, int K)
{
    (void)dst, (void)w, (void)ldw, (void)N, (void)K;
}

void sl_gemm_amx_pack_nn(float *dst, const float *b, int ldb, int K, int N)
{
    (void)dst, (void)b, (void)ldb, (void)K, (void)N;
}

void sl_gemm_amx(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N, int K,
                 float alpha, int accumulate, const float *bias, int relu)
{
    (void)C, (void)ldc, (void)A, (void)lda, (void)Bp, (void)M, (void)N, (void)K, (void)alpha;
    (void)accumulate, (void)bias, (void)relu;
}

void sl_gemm_amx_rowmax(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                        int K, float alpha, float *rowmax)
{
    (void)C, (void)ldc, (void)A, (void)lda, (void)Bp, (void)M, (void)N, (void)K, (void)alpha;
    (void)rowmax;
}

#endif
