/* The layer functions (model/layers.h) against hand-computed values and a naive
 * double-precision attention written here from the formula. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gemm.h"
#include "model/gemm_amx.h"
#include "model/layers.h"

/* n floats uniform in [lo, hi) from a linear congruential generator: the tests'
 * reproducible operands (lo + (hi - lo) u, u in [0, 1) on a 2^-24 grid). */
static void fill_uniform(float *x, size_t n, uint32_t *s, float lo, float hi)
{
    for (size_t i = 0; i < n; i++) {
        *s = *s * 1664525u + 1013904223u;
        x[i] = lo + (hi - lo) * ((float)(*s >> 8) / 16777216.0f);
    }
}

/* V = W^T (W: N x K) with rows N + 2 wide, the two extra columns 99 (padding
 * that no product may read). */
static void transpose_padded(float *V, const float *W, int N, int K)
{
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N + 2; j++)
            V[k * (N + 2) + j] = j < N ? W[j * K + k] : 99.0f;
}

static void test_positional_encoding(void **state)
{
    (void)state;
    float pe[6 * 8];
    sl_positional_encoding(pe, 6, 8);
    for (int i = 0; i < 8; i++)
        assert_true(pe[i] == (i % 2 ? 1.0f : 0.0f)); /* position 0 */
    /* d = 8: 10000^(2i/8) is 1, 10, 100, 1000 for i = 0..3 */
    assert_true(pe[1 * 8 + 0] == (float)sin(1.0));
    assert_true(pe[1 * 8 + 1] == (float)cos(1.0));
    assert_true(pe[3 * 8 + 2] == (float)sin(0.3));
    assert_true(pe[3 * 8 + 3] == (float)cos(0.3));
    assert_true(pe[5 * 8 + 4] == (float)sin(0.05));
    assert_true(pe[5 * 8 + 7] == (float)cos(0.005));
}

static void test_exp(void **state)
{
    (void)state;
    enum { N = 200001 };
    float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
    for (int i = 0; i < N; i++)
        x[i] = -87.0f * (float)i / (N - 1);
    sl_exp_forward(y, x, N);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        double r = exp((double)x[i]);
        worst = fmax(worst, fabs(y[i] - r) / r);
    }
    printf("exp: max relative error %.2e over [-87, 0]\n", worst);
    assert_true(worst < 3e-7);
    float special[3] = {0.0f, -100.0f, -INFINITY}, out[3];
    sl_exp_forward(out, special, 3);
    assert_true(out[0] == 1.0f);
    assert_true(out[1] == 0.0f);
    assert_true(out[2] == 0.0f);
    free(x);
    free(y);
}

static void test_small_layers(void **state)
{
    (void)state;
    /* linear: [1 2 3; 4 5 6] x W^T + b, W = [1 0 -1; 2 1 0], b = [0.5, -1] */
    float in[6] = {1, 2, 3, 4, 5, 6}, w[6] = {1, 0, -1, 2, 1, 0}, b[2] = {0.5f, -1};
    float out[4] = {100, 100, 100, 100};
    sl_linear_forward(out, in, w, b, 2, 3, 2, 0);
    assert_true(out[0] == -1.5f && out[1] == 3.0f && out[2] == -1.5f && out[3] == 12.0f);
    sl_linear_forward(out, in, w, NULL, 2, 3, 2, 1); /* accumulate, no bias */
    assert_true(out[0] == -3.5f && out[1] == 7.0f && out[2] == -3.5f && out[3] == 25.0f);

    /* LayerNorm of [1 2 3 4]: mean 2.5, variance 1.25 */
    float x[4] = {1, 2, 3, 4}, g[4] = {1, 2, 1, 1}, be[4] = {0, 0, 1, 0}, y[4], mean, rstd;
    sl_layernorm_forward(y, &mean, &rstd, x, g, be, 1, 4, 1e-5f);
    double r = 1.0 / sqrt(1.25 + 1e-5);
    assert_true(fabs(mean - 2.5) < 1e-7 && fabs(rstd - r) < 1e-6);
    assert_true(fabs(y[0] - -1.5 * r) < 1e-6 && fabs(y[1] - 2 * -0.5 * r) < 1e-6);
    assert_true(fabs(y[2] - (0.5 * r + 1)) < 1e-6 && fabs(y[3] - 1.5 * r) < 1e-6);

    /* GELU (exact erf form) and ReLU */
    float a[3] = {1, -1, 0}, o[3];
    sl_gelu_forward(o, a, 3);
    assert_true(fabs(o[0] - 0.8413447460685429) < 1e-7);
    assert_true(fabs(o[1] - -0.15865525393145707) < 1e-7);
    assert_true(o[2] == 0.0f);
    /* GELU over [-12, 12] against the erf formula in double (relative where |y| > 1) */
    enum { NG = 24001 };
    float *gx = malloc(sizeof(float) * NG), *gy = malloc(sizeof(float) * NG);
    for (int i = 0; i < NG; i++)
        gx[i] = -12.0f + 24.0f * (float)i / (NG - 1);
    sl_gelu_forward(gy, gx, NG);
    double gworst = 0;
    for (int i = 0; i < NG; i++) {
        double ref = 0.5 * gx[i] * (1.0 + erf(gx[i] / sqrt(2.0)));
        gworst = fmax(gworst, fabs(gy[i] - ref) / fmax(1.0, fabs(ref)));
    }
    printf("gelu: max error %.2e over [-12, 12]\n", gworst);
    assert_true(gworst < 5e-7); /* A&S 7.1.26: |erf error| < 1.5e-7, plus float rounding */
    free(gx);
    free(gy);
    sl_relu_forward(o, a, 3);
    assert_true(o[0] == 1.0f && o[1] == 0.0f && o[2] == 0.0f);

    /* softmax of [1 2 3] */
    float s[3] = {1, 2, 3};
    sl_softmax_rows(s, 1, 3);
    double z = exp(1) + exp(2) + exp(3);
    for (int i = 0; i < 3; i++)
        assert_true(fabs(s[i] - exp(i + 1) / z) < 1e-7);
}

/* Naive attention in double: for each head and query, softmax over the band. */
static void naive_attention(double *out, const float *qkv, int T, int d, int H, int bl, int br)
{
    int dk = d / H;
    double *p = malloc(sizeof(double) * T);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++) {
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < T; j++) {
                int ok = (bl < 0 || j >= i - bl) && (br < 0 || j <= i + br);
                double s = -INFINITY;
                if (ok) {
                    s = 0;
                    for (int c = 0; c < dk; c++)
                        s += (double)qkv[i * 3 * d + h * dk + c] * qkv[j * 3 * d + d + h * dk + c];
                    s /= sqrt((double)dk);
                }
                p[j] = s;
                mx = fmax(mx, s);
            }
            for (int j = 0; j < T; j++)
                sum += p[j] = exp(p[j] - mx);
            for (int c = 0; c < dk; c++) {
                double acc = 0;
                for (int j = 0; j < T; j++)
                    acc += p[j] / sum * qkv[j * 3 * d + 2 * d + h * dk + c];
                out[i * d + h * dk + c] = acc;
            }
        }
    free(p);
}

static void check_attention(int T, int d, int H, int bl, int br)
{
    float *qkv = malloc(sizeof(float) * T * 3 * d);
    uint32_t s = 12345;
    fill_uniform(qkv, (size_t)T * 3 * d, &s, -2.0f, 2.0f);
    double *ref = malloc(sizeof(double) * T * d);
    naive_attention(ref, qkv, T, d, H, bl, br);
    float *out = malloc(sizeof(float) * T * d), *out2 = malloc(sizeof(float) * T * d);
    float *att = malloc(sizeof(float) * sl_attention_scratch(T, H, 0));
    float *probs = malloc(sizeof(float) * sl_attention_scratch(T, H, 1));
    sl_attention_forward(out, att, 0, qkv, T, d, H, bl, br);
    sl_attention_forward(out2, probs, 1, qkv, T, d, H, bl, br);
    double worst = 0;
    for (int i = 0; i < T * d; i++)
        worst = fmax(worst, fabs(out[i] - ref[i]));
    printf("attention T=%d d=%d heads=%d band=(%d,%d): max abs diff %.2e\n", T, d, H, bl, br,
           worst);
    assert_true(worst < 1e-5);
    /* saving probabilities normalises them before the product with V, not after */
    double apart = 0;
    for (int i = 0; i < T * d; i++)
        apart = fmax(apart, fabs(out[i] - out2[i]));
    assert_true(apart < 1e-6);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++) {
            double sum = 0;
            for (int j = 0; j < T; j++) {
                float p = probs[(size_t)h * T * T + (size_t)i * T + j];
                int ok = (bl < 0 || j >= i - bl) && (br < 0 || j <= i + br);
                if (!ok)
                    assert_true(p == 0.0f);
                sum += p;
            }
            assert_true(fabs(sum - 1) < 1e-5);
        }
    free(qkv);
    free(ref);
    free(out);
    free(out2);
    free(att);
    free(probs);
}

static void test_attention(void **state)
{
    (void)state;
    check_attention(1, 8, 2, -1, -1);
    check_attention(50, 8, 2, -1, -1);
    check_attention(300, 16, 4, -1, -1);  /* several query blocks */
    check_attention(300, 16, 2, 5, 2);    /* band across block edges */
    check_attention(260, 8, 1, 0, -1);    /* looks only ahead */
    check_attention(260, 8, 8, -1, 0);    /* causal */
    check_attention(200, 12, 3, 0, 0);    /* each frame sees only itself */
}

/* Whole-window attention with keys and values packed once (the encoder's
 * shared path) against the double loop: packed and computed in two row ranges
 * as two threads would, bit-identical to one range; through the AVX-512 kernel
 * and, where it runs, the AMX one (which the encoder uses for d_k >= 32). */
static void check_packed_attention(int T, int d, int H, int amx)
{
    const int dk = d / H, split = (T / 2) & ~(SL_GEMM_PANEL - 1);
    float *qkv = malloc(sizeof(float) * T * 3 * d);
    uint32_t s = 777;
    fill_uniform(qkv, (size_t)T * 3 * d, &s, -2.0f, 2.0f);
    double *ref = malloc(sizeof(double) * T * d);
    naive_attention(ref, qkv, T, d, H, -1, -1);
    /* the packed path wants the queries scaled by 1/sqrt(d_k) already */
    const float qs = (float)(1.0 / sqrt((double)dk));
    for (int i = 0; i < T; i++)
        for (int c = 0; c < d; c++)
            qkv[i * 3 * d + c] *= qs;
    size_t kvn = (size_t)H * sl_attention_pack_scratch(T, d, H);
    float *kv = calloc(kvn, sizeof(float));
    float *att = malloc(sizeof(float) * sl_attention_scratch(T, H, 0));
    float *out = malloc(sizeof(float) * T * d), *one = malloc(sizeof(float) * T * d);
    sl_attention_pack_rows(kv, qkv, T, d, H, 0, split, amx);
    sl_attention_pack_rows(kv, qkv, T, d, H, split, T, amx);
    sl_attention_forward_rows_packed(out, att, kv, qkv, T, d, H, split, T, amx);
    sl_attention_forward_rows_packed(out, att, kv, qkv, T, d, H, 0, split, amx);
    memset(kv, 0, sizeof(float) * kvn);
    sl_attention_pack_rows(kv, qkv, T, d, H, 0, T, amx);
    sl_attention_forward_rows_packed(one, att, kv, qkv, T, d, H, 0, T, amx);
    assert_memory_equal(out, one, sizeof(float) * T * d);
    double worst = 0;
    for (int i = 0; i < T * d; i++)
        worst = fmax(worst, fabs(out[i] - ref[i]));
    printf("packed attention (%s) T=%d d=%d heads=%d: max abs diff %.2e\n",
           amx ? "AMX" : "AVX-512", T, d, H, worst);
    /* values in [-2, 2]; AMX: scores within ~2^-15 of sum |q k| */
    assert_true(worst < (amx ? 1e-4 : 1e-5));
    free(qkv), free(ref), free(kv), free(att), free(out), free(one);
}

static void test_packed_attention(void **state)
{
    (void)state;
    if (!sl_gemm_available()) {
        printf("no AVX-512 here: packed attention not tested\n");
        return;
    }
    for (int amx = 0; amx <= sl_gemm_amx_available(); amx++) {
        check_packed_attention(300, 128, 2, amx); /* d_k 64, several query blocks */
        check_packed_attention(100, 64, 2, amx);  /* d_k 32 */
        check_packed_attention(37, 96, 2, amx);   /* d_k 48: k and key tails */
        check_packed_attention(260, 64, 4, amx);  /* d_k 16 */
        check_packed_attention(5, 64, 1, amx);
    }
}

/* The AVX-512 product against a double-precision loop, every tail shape. */
static void test_packed_gemm(void **state)
{
    (void)state;
    if (!sl_gemm_available()) {
        printf("no AVX-512 here: packed product not tested\n");
        return;
    }
    const int shapes[][3] = {{1, 1, 1}, {7, 33, 5}, {8, 32, 16}, {9, 17, 64}, {13, 50, 17},
                             {100, 64, 128}, {3, 100, 3}, {50, 16, 300}};
    uint32_t s = 99;
    double worst = 0;
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        int M = shapes[c][0], N = shapes[c][1], K = shapes[c][2];
        float *A = malloc(sizeof(float) * M * K), *W = malloc(sizeof(float) * N * K);
        float *C = malloc(sizeof(float) * M * (N + 3)), *P = malloc(sizeof(float) * sl_gemm_packed_size(N, K));
        float *V = malloc(sizeof(float) * K * (N + 2)), *P2 = malloc(sizeof(float) * sl_gemm_packed_size(N, K));
        fill_uniform(A, (size_t)M * K, &s, -0.5f, 0.5f);
        fill_uniform(W, (size_t)N * K, &s, -0.5f, 0.5f);
        transpose_padded(V, W, N, K);
        float *bias = malloc(sizeof(float) * N);
        for (int j = 0; j < N; j++)
            bias[j] = 0.1f * (float)(j % 7) - 0.3f;
        sl_gemm_pack_nt(P, W, K, N, K);
        sl_gemm_pack_nn(P2, V, N + 2, K, N);
        for (int pass = 0; pass < 3; pass++) {
            int ldc = N + 3;
            for (int i = 0; i < M * ldc; i++)
                C[i] = 0.25f;
            /* pass 0: C = 0.5 A W^T; 1: C += A W^T + bias; 2: C = relu(A V + bias),
             * V = W^T (the same product through the other packing) */
            if (pass == 2)
                sl_gemm_packed(C, ldc, A, K, P2, M, N, K, 1.0f, 0, bias, 1);
            else
                sl_gemm_packed(C, ldc, A, K, P, M, N, K, pass ? 1.0f : 0.5f, pass,
                               pass ? bias : NULL, 0);
            for (int i = 0; i < M; i++) {
                for (int j = 0; j < N; j++) {
                    double acc = 0;
                    for (int k = 0; k < K; k++)
                        acc += (double)A[i * K + k] * W[j * K + k];
                    double want = pass == 0   ? 0.5 * acc
                                  : pass == 1 ? 0.25 + acc + bias[j]
                                              : fmax(0.0, acc + bias[j]);
                    worst = fmax(worst, fabs(C[i * ldc + j] - want) / fmax(1.0, fabs(want)));
                }
                for (int j = N; j < ldc; j++)
                    assert_true(C[i * ldc + j] == 0.25f); /* nothing written past N */
            }
        }
        free(A), free(W), free(C), free(P), free(V), free(P2), free(bias);
    }
    printf("packed product: max error %.2e\n", worst);
    assert_true(worst < 1e-5);
}

/* The AMX bf16x3 product (gemm_amx.h) against a double-precision loop: every
 * tail shape, several k blocks, both packings, each epilogue. The bound is the
 * split's: a = hi + lo within 2^-17 |a|, and the dropped lo_a lo_b below
 * 2^-16 |a b|, so each product is within 2^-15 |a b|; plus fp32 summation. */
static void test_amx_gemm(void **state)
{
    (void)state;
    if (!sl_gemm_amx_available()) {
        printf("no AMX here (or SL_NO_AMX): AMX product not tested\n");
        skip(); /* reported as SKIPPED, never as a pass */
    }
    const int shapes[][3] = {{1, 1, 1},     {7, 33, 5},    {16, 32, 32},  {17, 17, 64},
                             {33, 50, 17},  {100, 64, 128}, {3, 100, 3},  {50, 16, 300},
                             {40, 70, 1100}, {64, 96, 512}, {31, 31, 513}};
    uint32_t s = 7;
    double worst = 0;
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        int M = shapes[c][0], N = shapes[c][1], K = shapes[c][2];
        float *A = malloc(sizeof(float) * M * K), *W = malloc(sizeof(float) * N * K);
        float *C = malloc(sizeof(float) * M * (N + 3)), *rowmax = malloc(sizeof(float) * M * 16);
        float *P = malloc(sizeof(float) * sl_gemm_amx_packed_size(N, K));
        float *V = malloc(sizeof(float) * K * (N + 2));
        float *P2 = malloc(sizeof(float) * sl_gemm_amx_packed_size(N, K));
        double *ref = malloc(sizeof(double) * M * N), *mag = malloc(sizeof(double) * M * N);
        fill_uniform(A, (size_t)M * K, &s, -0.5f, 0.5f);
        fill_uniform(W, (size_t)N * K, &s, -0.5f, 0.5f);
        transpose_padded(V, W, N, K);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double acc = 0, m = 0;
                for (int k = 0; k < K; k++) {
                    acc += (double)A[i * K + k] * W[j * K + k];
                    m += fabs((double)A[i * K + k] * W[j * K + k]);
                }
                ref[i * N + j] = acc;
                mag[i * N + j] = m;
            }
        float *bias = malloc(sizeof(float) * N);
        for (int j = 0; j < N; j++)
            bias[j] = 0.1f * (float)(j % 7) - 0.3f;
        sl_gemm_amx_pack_nt(P, W, K, N, K);
        sl_gemm_amx_pack_nn(P2, V, N + 2, K, N);
        assert_memory_equal(P, P2, sizeof(float) * sl_gemm_amx_packed_size(N, K));
        for (int pass = 0; pass < 4; pass++) {
            int ldc = N + 3;
            for (int i = 0; i < M * ldc; i++)
                C[i] = 0.25f;
            /* pass 0: C = 0.5 A W^T; 1: C += A W^T + bias; 2: C = relu(A V + bias),
             * V = W^T; 3: C = 0.5 A W^T with row maxima */
            if (pass == 3)
                sl_gemm_amx_rowmax(C, ldc, A, K, P, M, N, K, 0.5f, rowmax);
            else if (pass == 2)
                sl_gemm_amx(C, ldc, A, K, P2, M, N, K, 1.0f, 0, bias, 1);
            else
                sl_gemm_amx(C, ldc, A, K, P, M, N, K, pass ? 1.0f : 0.5f, pass,
                            pass ? bias : NULL, 0);
            for (int i = 0; i < M; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < N; j++) {
                    double acc = ref[i * N + j];
                    double want = pass == 0 || pass == 3 ? 0.5 * acc
                                  : pass == 1            ? 0.25 + acc + bias[j]
                                                         : fmax(0.0, acc + bias[j]);
                    double bound = (pow(2, -15) + K * pow(2, -24)) * mag[i * N + j] +
                                   pow(2, -23) * (fabs(want) + 1.0);
                    worst = fmax(worst, fabs(C[i * ldc + j] - want) / bound);
                    mx = fmaxf(mx, C[i * ldc + j]);
                }
                for (int j = N; j < ldc; j++)
                    assert_true(C[i * ldc + j] == 0.25f); /* nothing written past N */
                if (pass == 3) {
                    float got = -INFINITY;
                    for (int l = 0; l < 16; l++)
                        got = fmaxf(got, rowmax[i * 16 + l]);
                    assert_true(got == mx);
                }
            }
        }
        free(A), free(W), free(C), free(P), free(V), free(P2), free(bias), free(rowmax);
        free(ref), free(mag);
    }
    printf("AMX product: max error %.3f of the bf16x3 bound\n", worst);
    assert_true(worst <= 1.0);
}

/* The AVX-512 softmax numerator against double exp(x - max), every tail length. */
static void test_exp_row(void **state)
{
    (void)state;
    if (!sl_gemm_available()) {
        printf("no AVX-512 here: sl_gemm_exp_row not tested\n");
        return;
    }
    const int lens[] = {1, 5, 16, 17, 31, 32, 33, 47, 100, 1000};
    uint32_t s = 7;
    double worst = 0, worst_sum = 0;
    float x[1000];
    double want[1000];
    for (size_t c = 0; c < sizeof lens / sizeof lens[0]; c++) {
        int n = lens[c];
        for (int pass = 0; pass < 2; pass++) {
            fill_uniform(x, (size_t)n, &s, -100.0f, 20.0f);
            if (pass && n > 3)
                x[n / 2] = -INFINITY, x[1] = 5e3f; /* masked key; others far below max */
            double mx = -INFINITY, sum = 0;
            for (int i = 0; i < n; i++)
                mx = fmax(mx, x[i]);
            for (int i = 0; i < n; i++) {
                float d = x[i] - (float)mx; /* the float difference the kernel takes */
                sum += want[i] = d < -87.0f ? 0.0 : exp((double)d);
            }
            double got_sum = sl_gemm_exp_row(x, n);
            for (int i = 0; i < n; i++) {
                if (want[i] == 0.0)
                    assert_true(x[i] == 0.0f);
                else
                    worst = fmax(worst, fabs(x[i] - want[i]) / want[i]);
            }
            worst_sum = fmax(worst_sum, fabs(got_sum - sum) / sum);
        }
    }
    /* with the maxima from the score product: the same numbers as above */
    enum { M = 11, N = 50, K = 40 };
    float A[M * K], W[N * K], P[64 * K], S[M * N], S2[M * N], rowmax[M * 16];
    fill_uniform(A, (size_t)M * K, &s, -3.0f, 3.0f);
    fill_uniform(W, (size_t)N * K, &s, -3.0f, 3.0f);
    for (int i = 0; i < N * K; i++)
        W[i] = fabsf(W[i]);
    for (int k = 0; k < K; k++) /* row 0: every score negative, below the padding's 0 */
        A[k] = -fabsf(A[k]) - 0.1f;
    sl_gemm_pack_nt(P, W, K, N, K);
    sl_gemm_packed(S2, N, A, K, P, M, N, K, 0.25f, 0, NULL, 0);
    sl_gemm_packed_rowmax(S, N, A, K, P, M, N, K, 0.25f, rowmax);
    for (int i = 0; i < M; i++) {
        float mx = -INFINITY, lanes = -INFINITY;
        for (int j = 0; j < N; j++) {
            assert_true(S[i * N + j] == S2[i * N + j]); /* the product itself unchanged */
            mx = fmaxf(mx, S[i * N + j]);
        }
        for (int l = 0; l < 16; l++)
            lanes = fmaxf(lanes, rowmax[i * 16 + l]);
        assert_true(lanes == mx); /* the padded columns (zeros) do not count */
        float sum2 = sl_gemm_exp_row(S2 + i * N, N);
        float sum = sl_gemm_exp_row_max(S + i * N, N, rowmax + i * 16);
        assert_true(sum == sum2);
        for (int j = 0; j < N; j++)
            assert_true(S[i * N + j] == S2[i * N + j]);
    }
    printf("exp row: max relative error %.2e, sums %.2e\n", worst, worst_sum);
    assert_true(worst < 3e-7);
    assert_true(worst_sum < 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positional_encoding),
        cmocka_unit_test(test_exp),
        cmocka_unit_test(test_small_layers),
        cmocka_unit_test(test_attention),
        cmocka_unit_test(test_packed_attention),
        cmocka_unit_test(test_packed_gemm),
        cmocka_unit_test(test_amx_gemm),
        cmocka_unit_test(test_exp_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
