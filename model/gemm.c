/* AVX-512 matrix product over packed right-hand sides (see gemm.h).
 *
 * Register tile: up to 8 rows of A x 32 columns (two 16-float vectors), 16
 * accumulators; per k two vector loads of the packed panel, one broadcast per
 * row, two FMAs per row. Tails: fewer rows by instantiating the tile for 1..8
 * rows, fewer columns by masked stores. */
#include "model/gemm.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t sl_gemm_packed_size(int N, int K)
{
    return (size_t)((N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL) * SL_GEMM_PANEL * (size_t)K;
}

void sl_gemm_pack_nt(float *dst, const float *w, int ldw, int N, int K)
{
    const int np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    for (int p = 0; p < np; p++) {
        float *d = dst + (size_t)p * SL_GEMM_PANEL * K;
        for (int c = 0; c < SL_GEMM_PANEL; c++) {
            int j = p * SL_GEMM_PANEL + c;
            if (j < N) {
                const float *row = w + (size_t)j * ldw;
                for (int k = 0; k < K; k++)
                    d[(size_t)k * SL_GEMM_PANEL + c] = row[k];
            } else {
                for (int k = 0; k < K; k++)
                    d[(size_t)k * SL_GEMM_PANEL + c] = 0.0f;
            }
        }
    }
}

void sl_gemm_pack_nn(float *dst, const float *b, int ldb, int K, int N)
{
    const int np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    for (int p = 0; p < np; p++) {
        float *d = dst + (size_t)p * SL_GEMM_PANEL * K;
        int n0 = p * SL_GEMM_PANEL, nn = N - n0 < SL_GEMM_PANEL ? N - n0 : SL_GEMM_PANEL;
        for (int k = 0; k < K; k++) {
            memcpy(d + (size_t)k * SL_GEMM_PANEL, b + (size_t)k * ldb + n0, sizeof(float) * (size_t)nn);
            for (int c = nn; c < SL_GEMM_PANEL; c++)
                d[(size_t)k * SL_GEMM_PANEL + c] = 0.0f;
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define SL_AVX512 __attribute__((target("avx512f")))
#define SL_AVX2 __attribute__((target("avx2,fma")))

static int env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0");
}

enum { KIND_NONE, KIND_AVX2, KIND_AVX512 };

int sl_vector_level(void)
{
    static int level = -1;
    int l = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (l >= 0)
        return l;
    __builtin_cpu_init();
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    l = __builtin_cpu_supports("avx512f") && !env_set("SL_GEMM_AVX2") ? 2 : avx2 ? 1 : 0;
    __atomic_store_n(&level, l, __ATOMIC_RELAXED);
    return l;
}

/* The kernels this process runs, decided once: AVX-512's where the CPU has
 * it, else AVX2's (with FMA), else none (cblas). SL_NO_AVX512=1 forces cblas,
 * SL_GEMM_AVX2=1 the AVX2 kernels (the tests run every path). */
static int gemm_kind(void)
{
    static int kind = -1;
    int k = __atomic_load_n(&kind, __ATOMIC_RELAXED);
    if (k >= 0)
        return k;
    const int level = sl_vector_level();
    k = env_set("SL_NO_AVX512") ? KIND_NONE
        : level == 2 ? KIND_AVX512
        : level == 1 ? KIND_AVX2 : KIND_NONE;
    __atomic_store_n(&kind, k, __ATOMIC_RELAXED);
    return k;
}

int sl_gemm_available(void) { return gemm_kind() != KIND_NONE; }
int sl_gemm_avx512(void) { return gemm_kind() == KIND_AVX512; }

/* MR rows x (16 NV) columns; MR and NV are constants after inlining, so the
 * accumulator arrays live in registers. */
static inline __attribute__((always_inline)) SL_AVX512 void
tile(const int MR, const int NV, int K, const float *A, int lda, const float *P, float *C, int ldc,
     float alpha, int accumulate, const float *bias, int relu, __mmask16 m0, __mmask16 m1,
     float *rmax)
{
    __m512 c0[8], c1[8];
    const __m512 b0 = bias ? _mm512_maskz_loadu_ps(m0, bias) : _mm512_setzero_ps();
    const __m512 b1 = bias && NV == 2 ? _mm512_maskz_loadu_ps(m1, bias + 16) : _mm512_setzero_ps();
    for (int i = 0; i < MR; i++) {
        c0[i] = b0;
        c1[i] = b1;
    }
    for (int k = 0; k < K; k++) {
        const float *pk = P + (size_t)k * SL_GEMM_PANEL;
        __m512 b0 = _mm512_loadu_ps(pk);
        __m512 b1 = NV == 2 ? _mm512_loadu_ps(pk + 16) : b0;
        for (int i = 0; i < MR; i++) {
            __m512 a = _mm512_set1_ps(A[(size_t)i * lda + k]);
            c0[i] = _mm512_fmadd_ps(a, b0, c0[i]);
            if (NV == 2)
                c1[i] = _mm512_fmadd_ps(a, b1, c1[i]);
        }
    }
    const __m512 va = _mm512_set1_ps(alpha);
    for (int i = 0; i < MR; i++) {
        float *c = C + (size_t)i * ldc;
        __m512 r0 = alpha == 1.0f ? c0[i] : _mm512_mul_ps(c0[i], va);
        if (accumulate)
            r0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c), r0);
        if (relu)
            r0 = _mm512_max_ps(r0, _mm512_setzero_ps());
        _mm512_mask_storeu_ps(c, m0, r0);
        __m512 mx = rmax ? _mm512_mask_max_ps(_mm512_loadu_ps(rmax + 16 * i), m0,
                                              _mm512_loadu_ps(rmax + 16 * i), r0)
                         : r0;
        if (NV == 2) {
            __m512 r1 = alpha == 1.0f ? c1[i] : _mm512_mul_ps(c1[i], va);
            if (accumulate)
                r1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 16), r1);
            if (relu)
                r1 = _mm512_max_ps(r1, _mm512_setzero_ps());
            _mm512_mask_storeu_ps(c + 16, m1, r1);
            if (rmax)
                mx = _mm512_mask_max_ps(mx, m1, mx, r1);
        }
        if (rmax)
            _mm512_storeu_ps(rmax + 16 * i, mx);
    }
}

#define TILE_ROWS(NV, KK, ACC, BIAS, RELU, RMAX)                                                      \
    switch (mr) {                                                                        \
    case 8: tile(8, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    case 7: tile(7, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    case 6: tile(6, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    case 5: tile(5, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    case 4: tile(4, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    case 3: tile(3, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    case 2: tile(2, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;               \
    default: tile(1, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;              \
    }

/* sl_gemm_packed, and with rowmax != NULL (16 floats per row, set to -inf
 * here) also each row's maximum per lane after the last k block. */
static SL_AVX512 void gemm(float *C, int ldc, const float *A, int lda, const float *Bp, int M,
                           int N, int K, float alpha, int accumulate, const float *bias,
                           int relu, float *rowmax)
{
    /* Panels outer, rows inner: each panel is read from memory once per call and
     * stays in L1 while every row block passes over it. K in blocks of KC keeps a
     * panel's block (KC x 32 floats) in L1 when K is large (d_ff). A model's
     * weights outgrow L2 from d_model 128 up (d 256, 4 layers: 12 MB), and
     * waiting for each panel's lines from L3 cost ~8% of the products' time; so
     * the next panel is prefetched into L2 meanwhile, spread over the row tiles. */
    enum { KC = 256 };
    const int np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    if (rowmax)
        for (size_t i = 0; i < (size_t)M * 16; i++)
            rowmax[i] = -INFINITY;
    for (int kb = 0; kb < K; kb += KC) {
        const int kc = K - kb < KC ? K - kb : KC;
        const int acc = accumulate || kb > 0;
        const int last = kb + KC >= K;
        for (int p = 0; p < np; p++) {
            const int n0 = p * SL_GEMM_PANEL;
            const int nn = N - n0 < SL_GEMM_PANEL ? N - n0 : SL_GEMM_PANEL;
            const __mmask16 m0 = nn >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << nn) - 1);
            const __mmask16 m1 = nn >= 32   ? (__mmask16)0xffff
                                 : nn > 16 ? (__mmask16)((1u << (nn - 16)) - 1)
                                           : (__mmask16)0;
            const float *P = Bp + (size_t)p * SL_GEMM_PANEL * K + (size_t)kb * SL_GEMM_PANEL;
            /* The next panel (or the next k block's first panel) comes from L3
             * when the weights do not fit in L2: fetch it into L2 while this
             * one is in use, a share of its lines per row tile. */
            const float *next = p + 1 < np ? P + (size_t)SL_GEMM_PANEL * K
                                : kb + KC < K ? Bp + (size_t)(kb + KC) * SL_GEMM_PANEL : NULL;
            const int next_kc = p + 1 < np ? kc : (K - kb - KC < KC ? K - kb - KC : KC);
            const int lines = next ? next_kc * (SL_GEMM_PANEL / 16) : 0;
            const int tiles = (M + 7) / 8;
            for (int i0 = 0; i0 < M; i0 += 8) {
                const int mr = M - i0 < 8 ? M - i0 : 8;
                {
                    const int t = i0 / 8, l0 = (int)((long)lines * t / tiles),
                              l1 = (int)((long)lines * (t + 1) / tiles);
                    for (int l = l0; l < l1; l++)
                        _mm_prefetch((const char *)(next + (size_t)l * 16), _MM_HINT_T1);
                }
                const float *a = A + (size_t)i0 * lda + kb;
                float *c = C + (size_t)i0 * ldc + n0;
                const float *bb = bias && kb == 0 ? bias + n0 : NULL;
                const int rl = relu && last;
                float *rm = rowmax && last ? rowmax + (size_t)i0 * 16 : NULL;
                if (nn > 16) {
                    TILE_ROWS(2, kc, acc, bb, rl, rm)
                } else {
                    TILE_ROWS(1, kc, acc, bb, rl, rm)
                }
            }
        }
    }
}


/* exp(x) for x <= 0 (a score minus its row's maximum): n = round(x log2 e),
 * r = x - n ln 2 (in two parts, |r| <= ln2/2), exp(r) by a degree-5 polynomial
 * fitted for least maximum relative error on that interval (2.1e-7 in float
 * evaluation; Cephes' degree-7 form, 1 + r + r^2 P5(r), reaches 1e-8 with three
 * more operations, more than the softmax needs), times 2^n (scalef); 0 below -87
 * and for -inf (a key outside the band), whose NaN or denormal lanes the mask
 * zeroes, so no clamping is needed. */
static inline __attribute__((always_inline)) SL_AVX512 __m512 exp16(__m512 xc)
{
    const __mmask16 keep = _mm512_cmp_ps_mask(xc, _mm512_set1_ps(-87.0f), _CMP_GE_OQ);
    /* n rounded to nearest by adding and taking off 1.5 x 2^23 (two operations
     * on either FMA port; roundscale is two on port 0 only) */
    const __m512 magic = _mm512_set1_ps(12582912.0f);
    __m512 fl = _mm512_sub_ps(_mm512_fmadd_ps(xc, _mm512_set1_ps(1.44269504088896341f), magic),
                              magic);
    __m512 r = _mm512_fnmadd_ps(fl, _mm512_set1_ps(0.693359375f), xc);
    r = _mm512_fnmadd_ps(fl, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(8.2976194099e-3f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1915629059e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6667576134e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.9998891354e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(9.9999970198e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0000001192e+0f));
    return _mm512_maskz_scalef_ps(keep, p, fl);
}

static inline __attribute__((always_inline)) SL_AVX512 float exp_row(float *x, int n,
                                                                     const float *max16)
{
    __m512 m0 = _mm512_set1_ps(-INFINITY), m1 = m0;
    int i = 0;
    if (max16) {
        m0 = _mm512_loadu_ps(max16);
    } else {
        for (; i + 32 <= n; i += 32) {
            m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + i));
            m1 = _mm512_max_ps(m1, _mm512_loadu_ps(x + i + 16));
        }
        for (; i < n; i += 16) {
            const __mmask16 m =
                n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1);
            m0 = _mm512_mask_max_ps(m0, m, m0, _mm512_maskz_loadu_ps(m, x + i));
        }
    }
    const __m512 mx = _mm512_set1_ps(_mm512_reduce_max_ps(_mm512_max_ps(m0, m1)));
    __m512 s0 = _mm512_setzero_ps(), s1 = s0;
    for (i = 0; i + 32 <= n; i += 32) {
        __m512 e0 = exp16(_mm512_sub_ps(_mm512_loadu_ps(x + i), mx));
        __m512 e1 = exp16(_mm512_sub_ps(_mm512_loadu_ps(x + i + 16), mx));
        _mm512_storeu_ps(x + i, e0);
        _mm512_storeu_ps(x + i + 16, e1);
        s0 = _mm512_add_ps(s0, e0);
        s1 = _mm512_add_ps(s1, e1);
    }
    for (; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1);
        __m512 e = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), mx));
        _mm512_mask_storeu_ps(x + i, m, e);
        s0 = _mm512_add_ps(s0, _mm512_maskz_mov_ps(m, e));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(s0, s1));
}

static SL_AVX512 float exp_row_avx512(float *x, int n, const float *max16)
{
    return exp_row(x, n, max16);
}

/* ---- AVX2 with FMA: the same results, bit for bit --------------------------
 * For CPUs without AVX-512 (most desktops'), where OpenBLAS's products would
 * differ in their last bits, and with its thread count. The same packed
 * panels and, for every output element, the same operations in the same order
 * (the bias, one FMA per k in k order, K in the same blocks, then alpha, what
 * C held, ReLU), so each result equals the AVX-512 kernel's; the softmax's
 * exp is the same polynomial and its sum the same tree of additions over the
 * same 16 lanes (GCC's _mm512_reduce_add_ps, spelt out). Sixteen 256-bit
 * registers hold a tile of up to 6 rows x 16 columns (half a panel). */

static const int32_t lane_bits[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

/* A mask of the first n lanes (n clamped to 0..8). */
static inline __attribute__((always_inline)) SL_AVX2 __m256i first_lanes(int n)
{
    n = n < 0 ? 0 : n > 8 ? 8 : n;
    return _mm256_loadu_si256((const __m256i *)(lane_bits + 8 - n));
}

static inline __attribute__((always_inline)) SL_AVX2 __m256 max_where(__m256 old, __m256 x,
                                                                      __m256i m)
{
    return _mm256_blendv_ps(old, _mm256_max_ps(old, x), _mm256_castsi256_ps(m));
}

/* MR rows x (8 NV) columns of half a panel; as tile() above. */
static inline __attribute__((always_inline)) SL_AVX2 void
tile2(const int MR, const int NV, int K, const float *A, int lda, const float *P, float *C,
      int ldc, float alpha, int accumulate, const float *bias, int relu, __m256i m0, __m256i m1,
      float *rmax)
{
    __m256 c0[6], c1[6];
    const __m256 b0 = bias ? _mm256_maskload_ps(bias, m0) : _mm256_setzero_ps();
    const __m256 b1 = bias && NV == 2 ? _mm256_maskload_ps(bias + 8, m1) : _mm256_setzero_ps();
    for (int i = 0; i < MR; i++) {
        c0[i] = b0;
        c1[i] = b1;
    }
    for (int k = 0; k < K; k++) {
        const float *pk = P + (size_t)k * SL_GEMM_PANEL;
        const __m256 v0 = _mm256_loadu_ps(pk);
        const __m256 v1 = NV == 2 ? _mm256_loadu_ps(pk + 8) : v0;
        for (int i = 0; i < MR; i++) {
            const __m256 a = _mm256_broadcast_ss(A + (size_t)i * lda + k);
            c0[i] = _mm256_fmadd_ps(a, v0, c0[i]);
            if (NV == 2)
                c1[i] = _mm256_fmadd_ps(a, v1, c1[i]);
        }
    }
    const __m256 va = _mm256_set1_ps(alpha), zero = _mm256_setzero_ps();
    for (int i = 0; i < MR; i++) {
        float *c = C + (size_t)i * ldc;
        __m256 r0 = alpha == 1.0f ? c0[i] : _mm256_mul_ps(c0[i], va);
        if (accumulate)
            r0 = _mm256_add_ps(_mm256_maskload_ps(c, m0), r0);
        if (relu)
            r0 = _mm256_max_ps(r0, zero);
        _mm256_maskstore_ps(c, m0, r0);
        if (rmax)
            _mm256_storeu_ps(rmax + 16 * i, max_where(_mm256_loadu_ps(rmax + 16 * i), r0, m0));
        if (NV == 2) {
            __m256 r1 = alpha == 1.0f ? c1[i] : _mm256_mul_ps(c1[i], va);
            if (accumulate)
                r1 = _mm256_add_ps(_mm256_maskload_ps(c + 8, m1), r1);
            if (relu)
                r1 = _mm256_max_ps(r1, zero);
            _mm256_maskstore_ps(c + 8, m1, r1);
            if (rmax)
                _mm256_storeu_ps(rmax + 16 * i + 8,
                                 max_where(_mm256_loadu_ps(rmax + 16 * i + 8), r1, m1));
        }
    }
}

#define TILE2_ROWS(NV, KK, ACC, BIAS, RELU, RMAX)                                                 \
    switch (mr) {                                                                                \
    case 6: tile2(6, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;    \
    case 5: tile2(5, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;    \
    case 4: tile2(4, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;    \
    case 3: tile2(3, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;    \
    case 2: tile2(2, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;    \
    default: tile2(1, NV, KK, a, lda, P, c, ldc, alpha, ACC, BIAS, RELU, m0, m1, RMAX); break;   \
    }

/* gemm() for AVX2: the same k blocks; each panel in two halves of 16 columns.
 * rowmax's 16 lanes per row take the same columns as the AVX-512 kernel's
 * (lane l: the columns 16j + l). */
static SL_AVX2 void gemm2(float *C, int ldc, const float *A, int lda, const float *Bp, int M,
                          int N, int K, float alpha, int accumulate, const float *bias, int relu,
                          float *rowmax)
{
    enum { KC = 256 };
    const int np = (N + SL_GEMM_PANEL - 1) / SL_GEMM_PANEL;
    if (rowmax)
        for (size_t i = 0; i < (size_t)M * 16; i++)
            rowmax[i] = -INFINITY;
    for (int kb = 0; kb < K; kb += KC) {
        const int kc = K - kb < KC ? K - kb : KC;
        const int acc = accumulate || kb > 0;
        const int last = kb + KC >= K;
        for (int p = 0; p < np; p++) {
            const int n0 = p * SL_GEMM_PANEL;
            const int nn = N - n0 < SL_GEMM_PANEL ? N - n0 : SL_GEMM_PANEL;
            for (int h = 0; h < 2 && 16 * h < nn; h++) {
                const int cols = nn - 16 * h;
                const __m256i m0 = first_lanes(cols), m1 = first_lanes(cols - 8);
                const float *P =
                    Bp + (size_t)p * SL_GEMM_PANEL * K + (size_t)kb * SL_GEMM_PANEL + 16 * h;
                for (int i0 = 0; i0 < M; i0 += 6) {
                    const int mr = M - i0 < 6 ? M - i0 : 6;
                    const float *a = A + (size_t)i0 * lda + kb;
                    float *c = C + (size_t)i0 * ldc + n0 + 16 * h;
                    const float *bb = bias && kb == 0 ? bias + n0 + 16 * h : NULL;
                    const int rl = relu && last;
                    float *rm = rowmax && last ? rowmax + (size_t)i0 * 16 : NULL;
                    if (cols > 8) {
                        TILE2_ROWS(2, kc, acc, bb, rl, rm)
                    } else {
                        TILE2_ROWS(1, kc, acc, bb, rl, rm)
                    }
                }
            }
        }
    }
}

/* exp16() on 8 lanes: the same operations; 2^n made from its bits where
 * AVX-512 has scalef (n whole, -126..0 where kept: the same product). */
static inline __attribute__((always_inline)) SL_AVX2 __m256 exp8(__m256 xc)
{
    const __m256 keep = _mm256_cmp_ps(xc, _mm256_set1_ps(-87.0f), _CMP_GE_OQ);
    const __m256 magic = _mm256_set1_ps(12582912.0f);
    __m256 fl = _mm256_sub_ps(_mm256_fmadd_ps(xc, _mm256_set1_ps(1.44269504088896341f), magic),
                              magic);
    __m256 r = _mm256_fnmadd_ps(fl, _mm256_set1_ps(0.693359375f), xc);
    r = _mm256_fnmadd_ps(fl, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(8.2976194099e-3f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1915629059e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6667576134e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.9998891354e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(9.9999970198e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0000001192e+0f));
    const __m256i two_n = _mm256_slli_epi32(
        _mm256_add_epi32(_mm256_cvtps_epi32(fl), _mm256_set1_epi32(127)), 23);
    return _mm256_and_ps(_mm256_mul_ps(p, _mm256_castsi256_ps(two_n)), keep);
}

/* _mm512_reduce_add_ps of the 16 lanes lo (0-7) and hi (8-15), in its order. */
static inline __attribute__((always_inline)) SL_AVX2 float reduce_add16(__m256 lo, __m256 hi)
{
    const __m256 t3 = _mm256_add_ps(hi, lo);
    const __m128 t6 = _mm_add_ps(_mm256_extractf128_ps(t3, 1), _mm256_castps256_ps128(t3));
    const __m128 t8 = _mm_add_ps(t6, _mm_shuffle_ps(t6, t6, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtss_f32(t8) + _mm_cvtss_f32(_mm_shuffle_ps(t8, t8, _MM_SHUFFLE(1, 1, 1, 1)));
}

static SL_AVX2 float exp_row2(float *x, int n, const float *max16)
{
    __m256 mx8 = _mm256_set1_ps(-INFINITY);
    int i = 0;
    if (max16) {
        mx8 = _mm256_max_ps(_mm256_loadu_ps(max16), _mm256_loadu_ps(max16 + 8));
    } else {
        for (; i + 8 <= n; i += 8)
            mx8 = _mm256_max_ps(mx8, _mm256_loadu_ps(x + i));
        if (i < n)
            mx8 = max_where(mx8, _mm256_maskload_ps(x + i, first_lanes(n - i)),
                            first_lanes(n - i));
    }
    /* the maximum is exact in any order */
    __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(mx8, 1), _mm256_castps256_ps128(mx8));
    m4 = _mm_max_ps(m4, _mm_shuffle_ps(m4, m4, _MM_SHUFFLE(1, 0, 3, 2)));
    m4 = _mm_max_ps(m4, _mm_shuffle_ps(m4, m4, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m256 mx = _mm256_set1_ps(_mm_cvtss_f32(m4));
    /* the AVX-512 kernel's sums s0 and s1 of 16 lanes each, as low and high halves */
    __m256 s0l = _mm256_setzero_ps(), s0h = s0l, s1l = s0l, s1h = s0l;
    for (i = 0; i + 32 <= n; i += 32) {
        const __m256 e0l = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), mx));
        const __m256 e0h = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), mx));
        const __m256 e1l = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + 16), mx));
        const __m256 e1h = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + 24), mx));
        _mm256_storeu_ps(x + i, e0l);
        _mm256_storeu_ps(x + i + 8, e0h);
        _mm256_storeu_ps(x + i + 16, e1l);
        _mm256_storeu_ps(x + i + 24, e1h);
        s0l = _mm256_add_ps(s0l, e0l);
        s0h = _mm256_add_ps(s0h, e0h);
        s1l = _mm256_add_ps(s1l, e1l);
        s1h = _mm256_add_ps(s1h, e1h);
    }
    for (; i < n; i += 16) { /* the rest in 16s, into s0, as there */
        const __m256i ml = first_lanes(n - i), mh = first_lanes(n - i - 8);
        const __m256 el = exp8(_mm256_sub_ps(_mm256_maskload_ps(x + i, ml), mx));
        const __m256 eh = exp8(_mm256_sub_ps(_mm256_maskload_ps(x + i + 8, mh), mx));
        _mm256_maskstore_ps(x + i, ml, el);
        _mm256_maskstore_ps(x + i + 8, mh, eh);
        s0l = _mm256_add_ps(s0l, _mm256_and_ps(el, _mm256_castsi256_ps(ml)));
        s0h = _mm256_add_ps(s0h, _mm256_and_ps(eh, _mm256_castsi256_ps(mh)));
    }
    return reduce_add16(_mm256_add_ps(s0l, s1l), _mm256_add_ps(s0h, s1h));
}

/* The public products and exps: AVX-512's kernels, else AVX2's. */
void sl_gemm_packed(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                    int K, float alpha, int accumulate, const float *bias, int relu)
{
    if (gemm_kind() == KIND_AVX512)
        gemm(C, ldc, A, lda, Bp, M, N, K, alpha, accumulate, bias, relu, NULL);
    else
        gemm2(C, ldc, A, lda, Bp, M, N, K, alpha, accumulate, bias, relu, NULL);
}

void sl_gemm_packed_rowmax(float *C, int ldc, const float *A, int lda, const float *Bp, int M,
                           int N, int K, float alpha, float *rowmax)
{
    if (gemm_kind() == KIND_AVX512)
        gemm(C, ldc, A, lda, Bp, M, N, K, alpha, 0, NULL, 0, rowmax);
    else
        gemm2(C, ldc, A, lda, Bp, M, N, K, alpha, 0, NULL, 0, rowmax);
}

float sl_gemm_exp_row(float *x, int n)
{
    return gemm_kind() == KIND_AVX512 ? exp_row_avx512(x, n, NULL) : exp_row2(x, n, NULL);
}

float sl_gemm_exp_row_max(float *x, int n, const float *max16)
{
    return gemm_kind() == KIND_AVX512 ? exp_row_avx512(x, n, max16) : exp_row2(x, n, max16);
}

#else

int sl_vector_level(void) { return 0; }
int sl_gemm_available(void) { return 0; }
int sl_gemm_avx512(void) { return 0; }

float sl_gemm_exp_row(float *x, int n)
{
    (void)x, (void)n;
    return 0.0f;
}

void sl_gemm_packed_rowmax(float *C, int ldc, const float *A, int lda, const float *Bp, int M,
                           int N, int K, float alpha, float *rowmax)
{
    (void)C, (void)ldc, (void)A, (void)lda, (void)Bp, (void)M, (void)N, (void)K, (void)alpha;
    (void)rowmax;
}

float sl_gemm_exp_row_max(float *x, int n, const float *max16)
{
    (void)x, (void)n, (void)max16;
    return 0.0f;
}

void sl_gemm_packed(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                    int K, float alpha, int accumulate, const float *bias, int relu)
{
    (void)C, (void)ldc, (void)A, (void)lda, (void)Bp, (void)M, (void)N, (void)K, (void)alpha;
    (void)accumulate, (void)bias, (void)relu;
}

#endif
