/* Forward layers of the encoder over plain arrays (see layers.h). Matrix work
 * goes to cblas_sgemm; the elementwise kernels are written so the compiler
 * vectorises them, with AVX2 clones picked at load time where the CPU has it. */
#include "model/layers.h"
#include "model/gemm.h"
#include "model/gemm_amx.h"

#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The elementwise kernels (softmax over T x T scores above all) must vectorise:
 * each is built for AVX-512, for AVX2 with FMA and for the x86-64 baseline, and
 * the build for this CPU is picked at run time as the packed products' kernels
 * are (sl_vector_level; SL_GEMM_AVX2=1 picks AVX2's here too). Multiply-adds
 * may fuse into FMAs (-std=c11 would forbid it): the exp polynomial and its
 * range reduction only gain accuracy from that. AVX-512's and AVX2's builds
 * fuse alike, so an AVX2 CPU gets AVX-512's results bit for bit (GCC's
 * target_clones "avx2" has no FMA: with it, it did not). No other fast-math
 * option: the range reduction depends on evaluation order. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#pragma GCC optimize("fp-contract=fast")
#endif
#define SL_VECTOR_BODY static inline __attribute__((always_inline)) void
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* name##_body (params) built once per instruction set */
#define SL_VECTOR_BUILDS(name, params, args)                                                  \
    __attribute__((target("avx512f"))) static void name##_avx512 params { name##_body args; } \
    __attribute__((target("avx2,fma"))) static void name##_avx2 params { name##_body args; }  \
    static void name##_base params { name##_body args; }
#define SL_VECTOR_CALL(name, args)                                                            \
    (sl_vector_level() == 2 ? name##_avx512 args                                              \
     : sl_vector_level() == 1 ? name##_avx2 args : name##_base args)
/* The same, the body told how much narrower than LANES floats the clone's
 * vectors are, for less(): 0 AVX-512's, 1 AVX2's (half), 2 SSE2's (a quarter) */
#define SL_STRIP(...) __VA_ARGS__
#define SL_VECTOR_BUILDS_NARROW(name, params, args)                                           \
    __attribute__((target("avx512f"))) static void name##_avx512 params                       \
    {                                                                                         \
        name##_body(0, SL_STRIP args);                                                        \
    }                                                                                         \
    __attribute__((target("avx2,fma"))) static void name##_avx2 params                        \
    {                                                                                         \
        name##_body(1, SL_STRIP args);                                                        \
    }                                                                                         \
    static void name##_base params { name##_body(2, SL_STRIP args); }
#else
#define SL_VECTOR_BUILDS(name, params, args) static void name##_base params { name##_body args; }
#define SL_STRIP(...) __VA_ARGS__
#define SL_VECTOR_BUILDS_NARROW(name, params, args)                                           \
    static void name##_base params { name##_body(2, SL_STRIP args); }
#define SL_VECTOR_CALL(name, args) name##_base args
#endif

#define LANES 16 /* one AVX-512 vector; two AVX2 or four SSE2 ones in the other clones */
typedef float vecf __attribute__((vector_size(4 * LANES)));
typedef int32_t veci __attribute__((vector_size(4 * LANES)));
typedef float vecf_half __attribute__((vector_size(2 * LANES)));
typedef int32_t veci_half __attribute__((vector_size(2 * LANES)));
typedef float vecf_quarter __attribute__((vector_size(LANES)));
typedef int32_t veci_quarter __attribute__((vector_size(LANES)));

/* *lt = (*a < *b), lane by lane, a mask, compared in the clone's own vectors:
 * GCC 12 compares a 16-float vector one float at a time (vcomiss) where it is
 * wider than the clone's vectors, which made the AVX2 clones of GELU and exp
 * 7 to 10 times slower than AVX-512's, the whole pass 2.5 times. narrow: 0,
 * AVX-512, the vector at once; 1, AVX2, halves of 8; 2, SSE2, quarters of 4.
 * Exact either way. */
/* *lt = (*a < *b) part by part, each part a VF of floats and VI of masks */
#define LESS_IN_PARTS(VF, VI)                                                                 \
    for (size_t p = 0; p < sizeof(vecf) / sizeof(VF); p++) {                                  \
        VF x, y;                                                                              \
        memcpy(&x, (const char *)a + p * sizeof x, sizeof x);                                 \
        memcpy(&y, (const char *)b + p * sizeof y, sizeof y);                                 \
        VI r = x < y;                                                                         \
        memcpy((char *)lt + p * sizeof r, &r, sizeof r);                                      \
    }

static inline __attribute__((always_inline)) void less(veci *lt, const vecf *a, const vecf *b,
                                                        int narrow)
{
    if (!narrow)
        *lt = *a < *b;
    else if (narrow == 1)
        LESS_IN_PARTS(vecf_half, veci_half)
    else
        LESS_IN_PARTS(vecf_quarter, veci_quarter)
}
#undef LESS_IN_PARTS

void sl_linear_forward(float *out, const float *in, const float *w, const float *b,
                       int T, int K, int N, int accumulate)
{
    float beta = accumulate ? 1.0f : 0.0f;
    if (b) {
        /* Bias first, then the product accumulates onto it: no extra pass. */
        for (int t = 0; t < T; t++) {
            float *row = out + (size_t)t * N;
            if (accumulate)
                for (int j = 0; j < N; j++)
                    row[j] += b[j];
            else
                memcpy(row, b, sizeof(float) * (size_t)N);
        }
        beta = 1.0f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, N, K, 1.0f, in, K, w, K, beta, out, N);
}

SL_VECTOR_BODY layernorm_forward_body(float *out, float *mean, float *rstd, const float *in,
                                      const float *w, const float *b, int T, int d, float eps)
{
    for (int t = 0; t < T; t++) {
        const float *x = in + (size_t)t * d;
        float *y = out + (size_t)t * d;
        /* sums in LANES partial sums (the compiler keeps float sums in order) */
        vecf vs = {0};
        int i = 0;
        for (; i + LANES <= d; i += LANES) {
            vecf xv;
            memcpy(&xv, x + i, sizeof xv);
            vs += xv;
        }
        float s = 0.0f;
        for (int k = 0; k < LANES; k++)
            s += vs[k];
        for (; i < d; i++)
            s += x[i];
        float m = s / (float)d;
        vecf vv = {0};
        for (i = 0; i + LANES <= d; i += LANES) {
            vecf xv;
            memcpy(&xv, x + i, sizeof xv);
            xv -= m;
            vv += xv * xv;
        }
        float v = 0.0f;
        for (int k = 0; k < LANES; k++)
            v += vv[k];
        for (; i < d; i++) {
            float c = x[i] - m;
            v += c * c;
        }
        v /= (float)d;
        float r = 1.0f / sqrtf(v + eps);
        for (int i = 0; i < d; i++)
            y[i] = (x[i] - m) * r * w[i] + b[i];
        if (mean)
            mean[t] = m;
        if (rstd)
            rstd[t] = r;
    }
}

SL_VECTOR_BUILDS(layernorm_forward,
                 (float *out, float *mean, float *rstd, const float *in, const float *w,
                  const float *b, int T, int d, float eps),
                 (out, mean, rstd, in, w, b, T, d, eps))

void sl_layernorm_forward(float *out, float *mean, float *rstd, const float *in,
                          const float *w, const float *b, int T, int d, float eps)
{
    SL_VECTOR_CALL(layernorm_forward, (out, mean, rstd, in, w, b, T, d, eps));
}

SL_VECTOR_BODY relu_forward_body(float *out, const float *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}

SL_VECTOR_BUILDS(relu_forward, (float *out, const float *in, size_t n), (out, in, n))

void sl_relu_forward(float *out, const float *in, size_t n)
{
    SL_VECTOR_CALL(relu_forward, (out, in, n));
}

/* Cephes' expf: exp(x) = 2^n * exp(r), |r| <= ln2/2, a degree-6 polynomial for
 * exp(r), 2^n built in the exponent bits; below -87 the result is 0. Written
 * with GCC/Clang vector extensions, LANES at a time: the compiler would not
 * if-convert the scalar loop, and this form becomes AVX-512, AVX2 or SSE2
 * operations in the three clones (the CPU picks one at load time). */

static inline __attribute__((always_inline)) void expv(float *out, const float *in, int narrow)
{
    vecf x, zero = {0};
    memcpy(&x, in, sizeof x);
    const vecf lo = zero - 87.0f, hi = zero + 88.0f;
    veci under, over, up;
    less(&under, &x, &lo, narrow);
    vecf xc = (vecf)(((veci)x & ~under) | ((veci)lo & under));
    less(&over, &hi, &xc, narrow);
    xc = (vecf)(((veci)xc & ~over) | ((veci)hi & over));
    vecf fx = xc * 1.44269504088896341f + 0.5f;
    veci n = __builtin_convertvector(fx, veci);
    vecf truncated = __builtin_convertvector(n, vecf);
    less(&up, &fx, &truncated, narrow);
    n += up; /* floor: -1 where truncation rounded up */
    vecf fl = __builtin_convertvector(n, vecf);
    vecf r = xc - fl * 0.693359375f - fl * -2.12194440e-4f;
    vecf p = zero + 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    vecf y = p * (vecf)((n + 127) << 23);
    y = (vecf)((veci)y & ~under);
    memcpy(out, &y, sizeof y);
}

static inline __attribute__((always_inline)) void exp_tail(float *out, const float *in, size_t n,
                                                           int narrow)
{
    float buf[LANES] = {0};
    memcpy(buf, in, n * sizeof(float));
    expv(buf, buf, narrow);
    memcpy(out, buf, n * sizeof(float));
}

SL_VECTOR_BODY exp_forward_body(int narrow, float *out, const float *in, size_t n)
{
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        expv(out + i, in + i, narrow);
    if (i < n)
        exp_tail(out + i, in + i, n - i, narrow);
}

SL_VECTOR_BUILDS_NARROW(exp_forward, (float *out, const float *in, size_t n), (out, in, n))

void sl_exp_forward(float *out, const float *in, size_t n)
{
    SL_VECTOR_CALL(exp_forward, (out, in, n));
}

/* GELU, 0.5 x (1 + erf(x / sqrt 2)), with erf from Abramowitz & Stegun 7.1.26
 * (|error| < 1.5e-7, the same formula PyTorch's vectorised CPU erf uses):
 * erf(a) = 1 - t (p1 + t (p2 + t (p3 + t (p4 + t p5)))) exp(-a^2), t = 1/(1 + p a),
 * for a >= 0, odd in a. LANES at a time like expv; libm's erff would be
 * a scalar call per element (a third of a GELU layer's time). */
static inline __attribute__((always_inline)) void geluv(float *out, const float *in, int narrow)
{
    vecf x, zero = {0};
    memcpy(&x, in, sizeof x);
    vecf z = x * 0.70710678118654752f;
    const veci sign_bit = (veci){0} + INT32_MIN;
    veci sign = (veci)z & sign_bit;
    vecf a = (vecf)((veci)z ^ sign);
    vecf t = 1.0f / (a * 0.3275911f + 1.0f);
    vecf r = t * 1.061405429f - 1.453152027f;
    r = r * t + 1.421413741f;
    r = r * t - 0.284496736f;
    r = r * t + 0.254829592f;
    vecf nz2 = zero - a * a, e;
    expv((float *)&e, (const float *)&nz2, narrow);
    vecf erf_a = 1.0f - r * t * e;
    vecf erf_z = (vecf)((veci)erf_a ^ sign);
    vecf y = 0.5f * x * (1.0f + erf_z);
    memcpy(out, &y, sizeof y);
}

SL_VECTOR_BODY gelu_forward_body(int narrow, float *out, const float *in, size_t n)
{
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        geluv(out + i, in + i, narrow);
    if (i < n) {
        float buf[LANES] = {0};
        memcpy(buf, in + i, (n - i) * sizeof(float));
        geluv(buf, buf, narrow);
        memcpy(out + i, buf, (n - i) * sizeof(float));
    }
}

SL_VECTOR_BUILDS_NARROW(gelu_forward, (float *out, const float *in, size_t n), (out, in, n))

void sl_gelu_forward(float *out, const float *in, size_t n)
{
    SL_VECTOR_CALL(gelu_forward, (out, in, n));
}

/* exp(x - max) of one row, in place; *sum the row's sum. */
SL_VECTOR_BODY exp_row_body(int narrow, float *x, int n, float *sum)
{
    float mx = x[0];
    int i = 0;
    if (n >= LANES) {
        vecf m;
        memcpy(&m, x, sizeof m);
        for (i = LANES; i + LANES <= n; i += LANES) {
            vecf v;
            memcpy(&v, x + i, sizeof v);
            veci gt;
            less(&gt, &m, &v, narrow);
            m = (vecf)(((veci)v & gt) | ((veci)m & ~gt));
        }
        for (int k = 0; k < LANES; k++)
            mx = m[k] > mx ? m[k] : mx;
    }
    for (; i < n; i++)
        mx = x[i] > mx ? x[i] : mx;
    i = 0;
    vecf acc = {0};
    for (; i + LANES <= n; i += LANES) {
        vecf v;
        memcpy(&v, x + i, sizeof v);
        v -= mx;
        memcpy(x + i, &v, sizeof v);
        expv(x + i, x + i, narrow);
        memcpy(&v, x + i, sizeof v);
        acc += v;
    }
    float s = 0.0f;
    for (int k = 0; k < LANES; k++)
        s += acc[k];
    if (i < n) {
        float buf[LANES];
        for (int k = 0; k < n - i; k++)
            buf[k] = x[i + k] - mx;
        exp_tail(buf, buf, (size_t)(n - i), narrow);
        for (int k = 0; k < n - i; k++) {
            x[i + k] = buf[k];
            s += buf[k];
        }
    }
    *sum = s;
}
SL_VECTOR_BUILDS_NARROW(exp_row, (float *x, int n, float *sum), (x, n, sum))

/* exp(x - max) of one row, in place; returns the row's sum. */
static float exp_row(float *x, int n)
{
    float sum;
    SL_VECTOR_CALL(exp_row, (x, n, &sum));
    return sum;
}

static void scale_row(float *x, int n, float v)
{
    for (int k = 0; k < n; k++)
        x[k] *= v;
}

/* One row's softmax, in place. */
static void softmax_row(float *x, int n)
{
    scale_row(x, n, 1.0f / exp_row(x, n));
}

void sl_softmax_rows(float *x, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        softmax_row(x + (size_t)r * cols, cols);
}

void sl_positional_encoding(float *pe, int T, int d)
{
    for (int i = 0; i < d / 2; i++) {
        double div = pow(10000.0, (double)(2 * i) / (double)d);
        for (int p = 0; p < T; p++) {
            double a = (double)p / div;
            pe[(size_t)p * d + 2 * i] = (float)sin(a);
            pe[(size_t)p * d + 2 * i + 1] = (float)cos(a);
        }
    }
}

void sl_scale_add_positions(float *x, const float *pe, float scale, int T, int d)
{
    size_t n = (size_t)T * d;
    if (scale != 1.0f)
        for (size_t i = 0; i < n; i++)
            x[i] = x[i] * scale + pe[i];
    else
        for (size_t i = 0; i < n; i++)
            x[i] += pe[i];
}

void sl_attention_key_range(int r0, int r1, int T, int bl, int br, int *k0, int *k1)
{
    int lo = bl < 0 ? 0 : r0 - bl;
    int hi = br < 0 ? T : r1 - 1 + br + 1;
    *k0 = lo < 0 ? 0 : lo;
    *k1 = hi > T ? T : hi;
}

size_t sl_attention_scratch(int T, int n_heads, int save_probs)
{
    if (save_probs)
        return (size_t)n_heads * T * T;
    /* scores of one block of queries, then one 1/sum per query of the block */
    return (size_t)(T < SL_ATTN_FULL_BLOCK ? T : SL_ATTN_FULL_BLOCK) * ((size_t)T + 1);
}

/* Queries [q0, q1) in blocks starting at q0: SL_ATTN_BLOCK queries when the
 * band limits the keys (a block then computes only the keys its band reaches),
 * SL_ATTN_FULL_BLOCK for whole-window attention (fewer, larger products).
 * Without save_probs the probabilities stay unnormalised and each output row is
 * scaled by its 1/sum after the product with V: T x dk multiplies instead of
 * T x T. */
static void attention_impl(float *out, float *att, int save_probs, float *pack,
                           const float *prepacked, int amx, const float *qkv, int T, int d,
                           int n_heads, int band_left, int band_right, int q0, int q1)
{
    const int dk = d / n_heads;
    const int ld = 3 * d;
    /* prepacked keys come with queries scaled by 1/sqrt(dk) already (see layers.h) */
    const float scale = prepacked ? 1.0f : (float)(1.0 / sqrt((double)dk));
    const int full = band_left < 0 && band_right < 0;
    const int block = full ? SL_ATTN_FULL_BLOCK : SL_ATTN_BLOCK;
    /* after the largest block of scores: its rows' 1/sum */
    float *inv_sum = att + (save_probs ? (size_t)n_heads * T * T
                                       : (size_t)(T < block ? T : block) * T);
    float inv_save[SL_ATTN_FULL_BLOCK];
    float rowmax[SL_ATTN_FULL_BLOCK * 16]; /* per-lane row maxima of a block's scores */
    if (save_probs)
        inv_sum = inv_save;
    /* packed keys and values (AVX-512 path), reused while the key range stays */
    float *kpack = pack, *vpack = pack ? pack + sl_gemm_packed_size(T, dk) : NULL;
    const int avx = pack || prepacked; /* model/gemm.h's products */
    for (int h = 0; h < n_heads; h++) {
        const float *q = qkv + h * dk;
        const float *k = qkv + d + h * dk;
        const float *v = qkv + 2 * d + h * dk;
        int packed_k0 = -1, packed_k1 = -1;
        if (prepacked) { /* whole window, every key packed already */
            kpack = (float *)prepacked + (size_t)h * sl_attention_pack_scratch(T, d, n_heads);
            vpack = kpack + (amx ? sl_gemm_amx_packed_size(T, dk) : sl_gemm_packed_size(T, dk));
            packed_k0 = 0;
            packed_k1 = T;
        }
        for (int r0 = q0; r0 < q1; r0 += block) {
            int r1 = r0 + block < q1 ? r0 + block : q1;
            int k0, k1;
            sl_attention_key_range(r0, r1, T, band_left, band_right, &k0, &k1);
            int rn = r1 - r0, kn = k1 - k0;
            float *S;
            int ldS;
            if (save_probs) {
                S = att + (size_t)h * T * T + (size_t)r0 * T + k0;
                ldS = T;
            } else {
                S = att;
                ldS = kn;
            }
            if (pack && (k0 != packed_k0 || k1 != packed_k1)) {
                sl_gemm_pack_nt(kpack, k + (size_t)k0 * ld, ld, kn, dk);
                sl_gemm_pack_nn(vpack, v + (size_t)k0 * ld, ld, kn, dk);
                packed_k0 = k0;
                packed_k1 = k1;
            }
            if (amx) /* prepacked for gemm_amx.h: whole window */
                sl_gemm_amx_rowmax(S, ldS, q + (size_t)r0 * ld, ld, kpack, rn, kn, dk, scale,
                                   rowmax);
            else if (avx && full) /* every row's keys are the block's: the product's maxima */
                sl_gemm_packed_rowmax(S, ldS, q + (size_t)r0 * ld, ld, kpack, rn, kn, dk, scale,
                                      rowmax);
            else if (avx)
                sl_gemm_packed(S, ldS, q + (size_t)r0 * ld, ld, kpack, rn, kn, dk, scale, 0, NULL, 0);
            else
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rn, kn, dk, scale,
                            q + (size_t)r0 * ld, ld, k + (size_t)k0 * ld, ld, 0.0f, S, ldS);
            for (int r = r0; r < r1; r++) {
                float *row = S + (size_t)(r - r0) * ldS;
                int lo = band_left < 0 ? 0 : r - band_left;
                int hi = band_right < 0 ? T : r + band_right + 1;
                lo = lo < k0 ? k0 : lo;
                hi = hi > k1 ? k1 : hi;
                for (int j = k0; j < lo; j++)
                    row[j - k0] = 0.0f;
                /* pack: the AVX-512 path (gemm.h), whose exp is faster */
                float inv = 1.0f / (avx && full ? sl_gemm_exp_row_max(row, hi - lo,
                                                                       rowmax + (r - r0) * 16)
                                    : avx ? sl_gemm_exp_row(row + (lo - k0), hi - lo)
                                           : exp_row(row + (lo - k0), hi - lo));
                if (save_probs)
                    scale_row(row + (lo - k0), hi - lo, inv);
                else
                    inv_sum[r - r0] = inv;
                for (int j = hi; j < k1; j++)
                    row[j - k0] = 0.0f;
            }
            float *o = out + (size_t)r0 * d + h * dk;
            if (amx)
                sl_gemm_amx(o, d, S, ldS, vpack, rn, dk, kn, 1.0f, 0, NULL, 0);
            else if (avx)
                sl_gemm_packed(o, d, S, ldS, vpack, rn, dk, kn, 1.0f, 0, NULL, 0);
            else
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rn, dk, kn, 1.0f, S, ldS,
                            v + (size_t)k0 * ld, ld, 0.0f, o, d);
            if (!save_probs)
                for (int r = 0; r < rn; r++)
                    scale_row(o + (size_t)r * d, dk, inv_sum[r]);
        }
    }
}

void sl_attention_forward(float *out, float *att, int save_probs, const float *qkv,
                          int T, int d, int n_heads, int band_left, int band_right)
{
    /* Whole-window attention writes every probability; only a band leaves
     * entries outside its blocks' key ranges to be zero. */
    if (save_probs && (band_left >= 0 || band_right >= 0))
        memset(att, 0, sizeof(float) * (size_t)n_heads * T * T);
    attention_impl(out, att, save_probs, NULL, NULL, 0, qkv, T, d, n_heads, band_left, band_right,
                   0, T);
}

void sl_attention_forward_rows(float *out, float *att, float *pack, const float *qkv, int T,
                               int d, int n_heads, int band_left, int band_right, int q0, int q1)
{
    attention_impl(out, att, 0, pack, NULL, 0, qkv, T, d, n_heads, band_left, band_right, q0, q1);
}

void sl_attention_pack_rows(float *kv, const float *qkv, int T, int d, int n_heads, int r0,
                            int r1, int amx)
{
    const int dk = d / n_heads, ld = 3 * d, n = r1 - r0;
    const size_t hs = sl_attention_pack_scratch(T, d, n_heads);
    /* the AMX layout's panels are K deep rounded up to 32; its chunks of 32 k
     * (keys, for the values) take 32 x 32 floats' room, as 32 fp32 rows do */
    const size_t kfloats = amx ? sl_gemm_amx_packed_size(T, dk) : sl_gemm_packed_size(T, dk);
    const size_t vpanel = amx ? (size_t)((T + 31) & ~31) : (size_t)T;
    for (int h = 0; h < n_heads; h++) {
        float *kp = kv + (size_t)h * hs, *vp = kp + kfloats;
        const float *k = qkv + (size_t)r0 * ld + d + h * dk, *v = k + d;
        /* keys: panels of 32 keys, r0 / 32 panels in */
        if (amx)
            sl_gemm_amx_pack_nt(kp + sl_gemm_amx_packed_size(r0, dk), k, ld, n, dk);
        else
            sl_gemm_pack_nt(kp + (size_t)r0 * dk, k, ld, n, dk);
        /* values: panels of 32 of the dk columns, each T keys deep */
        for (int c0 = 0; c0 < dk; c0 += SL_GEMM_PANEL) {
            float *at = vp + (size_t)c0 * vpanel + (size_t)r0 * SL_GEMM_PANEL;
            const int nc = dk - c0 < SL_GEMM_PANEL ? dk - c0 : SL_GEMM_PANEL;
            if (amx)
                sl_gemm_amx_pack_nn(at, v + c0, ld, n, nc);
            else
                sl_gemm_pack_nn(at, v + c0, ld, n, nc);
        }
    }
}

void sl_attention_forward_rows_packed(float *out, float *att, const float *kv, const float *qkv,
                                      int T, int d, int n_heads, int q0, int q1, int amx)
{
    attention_impl(out, att, 0, NULL, kv, amx, qkv, T, d, n_heads, -1, -1, q0, q1);
}

/* room for either layout (the AMX one's is the larger: K rounded up to 32) */
size_t sl_attention_pack_scratch(int T, int d, int n_heads)
{
    int dk = d / n_heads;
    return sl_gemm_amx_packed_size(T, dk) + sl_gemm_amx_packed_size(dk, T);
}
