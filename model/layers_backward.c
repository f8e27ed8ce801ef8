/* Backward functions of the encoder's layers (see layers_backward.h). Matrix
 * work goes to cblas_sgemm over all rows at once; the elementwise passes are
 * single loops the compiler vectorises. */
#include "model/layers_backward.h"

#include "model/layers.h"
#include "common/target_clones.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

/* AVX2 clones of the elementwise passes, picked at load time (as layers.c does) */
#define SL_BW_CLONES SL_TARGET_CLONES("avx2", "default")

void sl_linear_backward(float *din, float *dw, float *db, const float *dout, const float *in,
                        const float *w, int T, int K, int N, int accumulate)
{
    if (din)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, K, N, 1.0f, dout, N, w, K,
                    accumulate ? 1.0f : 0.0f, din, K);
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, N, K, T, 1.0f, dout, N, in, K, 0.0f,
                dw, K);
    if (db) {
        memset(db, 0, sizeof(float) * (size_t)N);
        for (int t = 0; t < T; t++) {
            const float *row = dout + (size_t)t * N;
            for (int j = 0; j < N; j++)
                db[j] += row[j];
        }
    }
}

SL_BW_CLONES
static void layernorm_backward_clones(float *din, float *dw, float *db, const float *dout, const float *in,
                                      const float *mean, const float *rstd, const float *w, int T, int d,
                                      int accumulate)
{
    memset(dw, 0, sizeof(float) * (size_t)d);
    memset(db, 0, sizeof(float) * (size_t)d);
    const float inv_d = 1.0f / (float)d;
    for (int t = 0; t < T; t++) {
        const float *x = in + (size_t)t * d, *g = dout + (size_t)t * d;
        float *dx = din + (size_t)t * d;
        const float m = mean[t], r = rstd[t];
        /* One pass for the two row means and the parameter gradients, one for
         * the input gradient (which may overwrite dout). */
        float sg = 0.0f, sgx = 0.0f;
        for (int i = 0; i < d; i++) {
            float xh = (x[i] - m) * r, gi = g[i];
            float gw = gi * w[i];
            sg += gw;
            sgx += gw * xh;
            dw[i] += gi * xh;
            db[i] += gi;
        }
        sg *= inv_d;
        sgx *= inv_d;
        if (accumulate)
            for (int i = 0; i < d; i++)
                dx[i] += r * (g[i] * w[i] - sg - (x[i] - m) * r * sgx);
        else
            for (int i = 0; i < d; i++)
                dx[i] = r * (g[i] * w[i] - sg - (x[i] - m) * r * sgx);
    }
}

void sl_layernorm_backward(float *din, float *dw, float *db, const float *dout, const float *in,
                           const float *mean, const float *rstd, const float *w, int T, int d,
                           int accumulate)
{
    layernorm_backward_clones(din, dw, db, dout, in, mean, rstd, w, T, d, accumulate);
}

SL_BW_CLONES
static void relu_backward_clones(float *din, const float *dout, const float *pre, size_t n)
{
    /* both loads unconditional, so the select vectorises */
    for (size_t i = 0; i < n; i++) {
        float g = dout[i];
        din[i] = pre[i] > 0.0f ? g : 0.0f;
    }
}

void sl_relu_backward(float *din, const float *dout, const float *pre, size_t n)
{
    relu_backward_clones(din, dout, pre, n);
}

/* GELU'(x) = Phi(x) + x phi(x), phi(x) = exp(-x^2/2) / sqrt(2 pi), Phi(x) =
 * (1 + erf(x / sqrt 2)) / 2. One vectorised exp per element serves both: erf
 * comes from Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7, float rounding
 * level), erf(z) = 1 - poly(1 / (1 + p|z|)) exp(-z^2), and exp(-z^2) with
 * z = x / sqrt 2 is the same exp(-x^2/2). libm's erff and expf per element
 * cost more than the two sgemms beside them. */
SL_BW_CLONES
static void gelu_backward_clones(float *din, const float *dout, const float *pre, size_t n)
{
    const float inv_sqrt2 = 0.70710678118654752f, inv_sqrt_2pi = 0.39894228040143268f;
    const float p = 0.3275911f, a1 = 0.254829592f, a2 = -0.284496736f, a3 = 1.421413741f,
                a4 = -1.453152027f, a5 = 1.061405429f;
    float e[256];
    for (size_t i0 = 0; i0 < n; i0 += 256) {
        size_t m = n - i0 < 256 ? n - i0 : 256;
        const float *x = pre + i0, *g = dout + i0;
        float *o = din + i0;
        for (size_t i = 0; i < m; i++)
            e[i] = -0.5f * x[i] * x[i];
        sl_exp_forward(e, e, m);
        for (size_t i = 0; i < m; i++) {
            float z = fabsf(x[i]) * inv_sqrt2;
            float t = 1.0f / (1.0f + p * z);
            float poly = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5))));
            float erf_abs = 1.0f - poly * e[i];
            float erf = x[i] < 0.0f ? -erf_abs : erf_abs;
            o[i] = g[i] * (0.5f * (1.0f + erf) + x[i] * inv_sqrt_2pi * e[i]);
        }
    }
}

void sl_gelu_backward(float *din, const float *dout, const float *pre, size_t n)
{
    gelu_backward_clones(din, dout, pre, n);
}

void sl_scale_add_positions_backward(float *din, const float *dout, float scale, size_t n)
{
    if (scale == 1.0f) {
        if (din != dout)
            memcpy(din, dout, sizeof(float) * n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        din[i] = dout[i] * scale;
}

/* dS = scale * P (dP - sum_j P dP) for rn rows of kn keys (dS holds dP on
 * entry, P has row stride ldP): the softmax backward with the 1/sqrt(dk) of
 * the scores folded in. Masked keys have P = 0, so they get 0. */
SL_BW_CLONES
static void softmax_backward_rows(float *dS, const float *P, int ldP, int rn, int kn, float scale)
{
    for (int r = 0; r < rn; r++) {
        const float *p = P + (size_t)r * ldP;
        float *g = dS + (size_t)r * kn;
        float dot = 0.0f;
        for (int j = 0; j < kn; j++)
            dot += p[j] * g[j];
        for (int j = 0; j < kn; j++)
            g[j] = scale * p[j] * (g[j] - dot);
    }
}

size_t sl_attention_backward_scratch(int T) { return (size_t)T * T; }

void sl_attention_backward(float *dqkv, float *scratch, const float *dout, const float *qkv,
                           const float *probs, int T, int d, int n_heads, int band_left,
                           int band_right)
{
    const int dk = d / n_heads, ld = 3 * d;
    const float scale = (float)(1.0 / sqrt((double)dk));
    /* Whole-window attention: one block of all T queries (the biggest sgemms);
     * banded: blocks of queries against only the keys they reach. */
    const int block = (band_left < 0 && band_right < 0) ? T : SL_ATTN_BLOCK;
    /* Banded blocks share keys, so dK and dV accumulate from zero; one block
     * writes them outright. */
    const float kv_beta = block < T ? 1.0f : 0.0f;
    if (block < T)
        memset(dqkv, 0, sizeof(float) * (size_t)T * ld);
    for (int h = 0; h < n_heads; h++) {
        const float *q = qkv + h * dk, *k = qkv + d + h * dk, *v = qkv + 2 * d + h * dk;
        float *dq = dqkv + h * dk, *dkk = dqkv + d + h * dk, *dv = dqkv + 2 * d + h * dk;
        const float *P = probs + (size_t)h * T * T;
        for (int r0 = 0; r0 < T; r0 += block) {
            int r1 = r0 + block < T ? r0 + block : T, k0, k1;
            sl_attention_key_range(r0, r1, T, band_left, band_right, &k0, &k1);
            const int rn = r1 - r0, kn = k1 - k0;
            const float *Pb = P + (size_t)r0 * T + k0;
            const float *dO = dout + (size_t)r0 * d + h * dk;
            float *dS = scratch;
            /* dV[k0:k1] += P^T dO */
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, kn, dk, rn, 1.0f, Pb, T, dO, d,
                        kv_beta, dv + (size_t)k0 * ld, ld);
            /* dP = dO V^T */
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rn, kn, dk, 1.0f, dO, d,
                        v + (size_t)k0 * ld, ld, 0.0f, dS, kn);
            /* softmax backward, with the 1/sqrt(dk) of the scores folded in:
             * dS = scale * P (dP - sum_j P dP). Masked keys have P = 0. */
            softmax_backward_rows(dS, Pb, T, rn, kn, scale);
            /* dQ[r0:r1] = dS K, dK[k0:k1] += dS^T Q */
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rn, dk, kn, 1.0f, dS, kn,
                        k + (size_t)k0 * ld, ld, 0.0f, dq + (size_t)r0 * ld, ld);
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, kn, dk, rn, 1.0f, dS, kn,
                        q + (size_t)r0 * ld, ld, kv_beta, dkk + (size_t)k0 * ld, ld);
        }
    }
}

double sl_cross_entropy_total_weight(const int32_t *labels, const float *weights, int N, int C,
                                     int64_t *counted)
{
    double wsum = 0.0;
    int64_t n = 0;
    for (int i = 0; i < N; i++) {
        int32_t y = labels[i];
        if (y >= 0 && y < C) {
            wsum += weights ? (double)weights[y] : 1.0;
            n++;
        }
    }
    if (counted)
        *counted = n;
    return wsum;
}

double sl_cross_entropy_forward_backward(float *dlogits, const float *logits,
                                         const int32_t *labels, const float *weights, int N,
                                         int C, double total_weight, int64_t *counted)
{
    return sl_soft_cross_entropy_forward_backward(dlogits, logits, labels, weights, NULL, 0.0f,
                                                  N, C, total_weight, counted);
}

double sl_soft_cross_entropy_forward_backward(float *dlogits, const float *logits,
                                              const int32_t *labels, const float *weights,
                                              const float *q, float alpha, int N, int C,
                                              double total_weight, int64_t *counted)
{
    if (alpha == 0.0f)
        q = NULL;
    int64_t n;
    double wsum = sl_cross_entropy_total_weight(labels, weights, N, C, &n);
    if (total_weight > 0.0)
        wsum = total_weight;
    if (counted)
        *counted = n;
    if (n == 0 || wsum == 0.0) {
        memset(dlogits, 0, sizeof(float) * (size_t)N * C);
        return 0.0;
    }
    const double inv_wsum = 1.0 / wsum;
    double loss = 0.0;
    for (int i = 0; i < N; i++) {
        const float *z = logits + (size_t)i * C;
        float *g = dlogits + (size_t)i * C;
        int32_t y = labels[i];
        if (y < 0 || y >= C) {
            memset(g, 0, sizeof(float) * (size_t)C);
            continue;
        }
        double wy = weights ? (double)weights[y] : 1.0;
        double mx = z[0];
        for (int c = 1; c < C; c++)
            mx = z[c] > mx ? z[c] : mx;
        double s = 0.0;
        for (int c = 0; c < C; c++)
            s += exp((double)z[c] - mx);
        double lse = mx + log(s), k = wy * inv_wsum;
        if (!q) {
            loss += wy * (lse - (double)z[y]);
            for (int c = 0; c < C; c++)
                g[c] = (float)(k * (exp((double)z[c] - lse) - (c == y ? 1.0 : 0.0)));
            continue;
        }
        /* -sum_c t_c log p_c, and its gradient p_c sum_k t_k - t_c (the t_k sum
         * to 1 up to the rounding of q) */
        const float *qi = q + (size_t)i * C;
        double ce = 0.0, tsum = 0.0;
        for (int c = 0; c < C; c++) {
            double t = (double)alpha * (double)qi[c] + (c == y ? 1.0 - (double)alpha : 0.0);
            ce += t * (lse - (double)z[c]);
            tsum += t;
        }
        for (int c = 0; c < C; c++) {
            double t = (double)alpha * (double)qi[c] + (c == y ? 1.0 - (double)alpha : 0.0);
            g[c] = (float)(k * (exp((double)z[c] - lse) * tsum - t));
        }
        loss += wy * ce;
    }
    return loss * inv_wsum;
}
