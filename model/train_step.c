/* One training step over a batch of B windows of T frames: the encoder forward
 * of encoder.c (same layer functions, so training and inference compute the
 * same function) saving what the backward needs, the weighted cross-entropy,
 * and the backward through every layer into a gradient block laid out like the
 * parameter block.
 *
 * The B windows are stacked as B*T rows for every row-wise step (projections,
 * LayerNorm, feed-forward, classifier), so each linear layer is one sgemm over
 * the whole batch; attention runs per window (positions restart at 0 in each).
 * Every buffer is allocated once for max_B x max_T in sl_train_step_new. */
#include "model/train_step.h"

#include "model/layers.h"
#include "model/layers_backward.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one encoder layer's forward saves. Post-norm (norm_first 0):
 *   qkv = in Wqkv; r1 = in + attn Wo; h1 = LN1(r1); ff = act(h1 W1);
 *   r2 = h1 + ff W2; out = LN2(r2).
 * Pre-norm:
 *   h1 = LN1(in); qkv = h1 Wqkv; r1 = in + attn Wo; h2 = LN2(r1);
 *   ff = act(h2 W1); out = r1 + ff W2.
 * `hr` holds r2 (post) or h2 (pre). */
typedef struct {
    float *in;     /* N x d: the layer's input (the previous layer's out) */
    float *h1;     /* N x d */
    float *qkv;    /* N x 3d */
    float *probs;  /* B x H x T x T attention probabilities */
    float *ao;     /* N x d attention output before out_proj */
    float *r1;     /* N x d */
    float *hr;     /* N x d */
    float *ffpre;  /* N x d_ff before the activation */
    float *ffact;  /* N x d_ff after it */
    float *mean1, *rstd1, *mean2, *rstd2; /* N each */
} layer_acts;

struct sl_train_step {
    sl_model_config cfg;
    int max_B, max_T;
    float *pe;            /* max_T x d */
    layer_acts *L;        /* n_layers */
    float *out;           /* N x d: the last layer's output */
    float *fin;           /* N x d: final LayerNorm output (pre-norm) */
    float *fmean, *frstd; /* N */
    float *logits;        /* N x n_classes */
    float *dlogits;       /* N x n_classes */
    /* backward scratch, reused by every layer */
    float *dx;            /* N x d: gradient of the current layer's output */
    float *dh;            /* N x d */
    float *dqkv;          /* N x 3d */
    float *dff;           /* N x d_ff */
    float *dS;            /* T x T */
    void *block;          /* the one allocation all of the above live in */
};

sl_train_step *sl_train_step_new(const sl_model *m, int max_B, int max_T, char *err, size_t errlen)
{
    const sl_model_config *c = &m->cfg;
    if (max_B < 1 || max_T < 1 || max_T > c->max_window) {
        if (err && errlen)
            snprintf(err, errlen,
                     "training batch %d x %d is invalid (1 or more windows of 1..%d frames)",
                     max_B, max_T, c->max_window);
        return NULL;
    }
    sl_train_step *s = calloc(1, sizeof *s);
    layer_acts *L = calloc((size_t)(c->n_layers > 0 ? c->n_layers : 1), sizeof *L);
    if (!s || !L) {
        free(s);
        free(L);
        if (err && errlen)
            snprintf(err, errlen, "out of memory for a training step");
        return NULL;
    }
    s->cfg = *c;
    s->max_B = max_B;
    s->max_T = max_T;
    s->L = L;

    const size_t N = (size_t)max_B * max_T, d = (size_t)c->d_model, f = (size_t)c->d_ff;
    const size_t nc = (size_t)c->n_classes, H = (size_t)c->n_heads, T = (size_t)max_T;
    /* Two passes over the same list: count the floats, then carve them out of
     * one allocation (each piece rounded to 16 floats, 64-byte aligned). */
    float *base = NULL;
    size_t used = 0;
    for (int pass = 0; pass < 2; pass++) {
        used = 0;
#define CARVE(ptr, count)                                                                     \
    do {                                                                                       \
        size_t n_ = ((size_t)(count) + 15) & ~(size_t)15;                                     \
        (ptr) = base ? base + used : NULL;                                                     \
        used += n_;                                                                            \
    } while (0)
        CARVE(s->pe, T * d);
        for (int l = 0; l < c->n_layers; l++) {
            CARVE(L[l].in, N * d);
            CARVE(L[l].h1, N * d);
            CARVE(L[l].qkv, N * 3 * d);
            CARVE(L[l].probs, (size_t)max_B * sl_attention_scratch(max_T, c->n_heads, 1));
            CARVE(L[l].ao, N * d);
            CARVE(L[l].r1, N * d);
            CARVE(L[l].hr, N * d);
            CARVE(L[l].ffpre, N * f);
            CARVE(L[l].ffact, N * f);
            CARVE(L[l].mean1, N);
            CARVE(L[l].rstd1, N);
            CARVE(L[l].mean2, N);
            CARVE(L[l].rstd2, N);
        }
        CARVE(s->out, N * d);
        CARVE(s->fin, N * d);
        CARVE(s->fmean, N);
        CARVE(s->frstd, N);
        CARVE(s->logits, N * nc);
        CARVE(s->dlogits, N * nc);
        CARVE(s->dx, N * d);
        CARVE(s->dh, N * d);
        CARVE(s->dqkv, N * 3 * d);
        CARVE(s->dff, N * f);
        CARVE(s->dS, sl_attention_backward_scratch(max_T));
#undef CARVE
        (void)H;
        if (pass == 0) {
            if (used > SIZE_MAX / sizeof(float) / 2 ||
                posix_memalign(&s->block, 64, used * sizeof(float))) {
                if (err && errlen)
                    snprintf(err, errlen,
                             "out of memory for a training step of %d windows x %d frames "
                             "(%.0f MB of activations)",
                             max_B, max_T, (double)used * sizeof(float) / 1e6);
                free(L);
                free(s);
                return NULL;
            }
            base = s->block;
        }
    }
    sl_positional_encoding(s->pe, max_T, c->d_model);
    return s;
}

void sl_train_step_free(sl_train_step *s)
{
    if (!s)
        return;
    free(s->block);
    free(s->L);
    free(s);
}

/* dst = src (n floats) */
static void copy(float *dst, const float *src, size_t n) { memcpy(dst, src, sizeof(float) * n); }

static void forward(sl_train_step *s, const sl_params *p, const float *x, int B, int T)
{
    const sl_model_config *c = &s->cfg;
    const int d = c->d_model, f = c->d_ff, H = c->n_heads, N = B * T;
    const float eps = c->ln_eps;
    const size_t Nd = (size_t)N * d, win_probs = sl_attention_scratch(T, H, 1);
    const float scale = c->scale_input ? (float)sqrt((double)d) : 1.0f;
    float *x0 = c->n_layers > 0 ? s->L[0].in : s->out;

    sl_linear_forward(x0, x, p->input_weight, p->input_bias, N, c->n_features, d, 0);
    for (int b = 0; b < B; b++)
        sl_scale_add_positions(x0 + (size_t)b * T * d, s->pe, scale, T, d);

    for (int l = 0; l < c->n_layers; l++) {
        const sl_layer_params *P = &p->layers[l];
        layer_acts *A = &s->L[l];
        float *out = l + 1 < c->n_layers ? s->L[l + 1].in : s->out;
        const float *src = A->in;
        if (c->norm_first) {
            sl_layernorm_forward(A->h1, A->mean1, A->rstd1, A->in, P->norm1_weight,
                                 P->norm1_bias, N, d, eps);
            src = A->h1;
        }
        sl_linear_forward(A->qkv, src, P->in_proj_weight, P->in_proj_bias, N, d, 3 * d, 0);
        for (int b = 0; b < B; b++)
            sl_attention_forward(A->ao + (size_t)b * T * d, A->probs + (size_t)b * win_probs, 1,
                                 A->qkv + (size_t)b * T * 3 * d, T, d, H, c->band_left,
                                 c->band_right);
        copy(A->r1, A->in, Nd);
        sl_linear_forward(A->r1, A->ao, P->out_proj_weight, P->out_proj_bias, N, d, d, 1);
        const float *ffin;
        if (c->norm_first) {
            sl_layernorm_forward(A->hr, A->mean2, A->rstd2, A->r1, P->norm2_weight,
                                 P->norm2_bias, N, d, eps);
            ffin = A->hr;
        } else {
            sl_layernorm_forward(A->h1, A->mean1, A->rstd1, A->r1, P->norm1_weight,
                                 P->norm1_bias, N, d, eps);
            ffin = A->h1;
        }
        sl_linear_forward(A->ffpre, ffin, P->linear1_weight, P->linear1_bias, N, d, f, 0);
        if (c->activation == SL_ACT_GELU)
            sl_gelu_forward(A->ffact, A->ffpre, (size_t)N * f);
        else
            sl_relu_forward(A->ffact, A->ffpre, (size_t)N * f);
        if (c->norm_first) {
            copy(out, A->r1, Nd);
            sl_linear_forward(out, A->ffact, P->linear2_weight, P->linear2_bias, N, f, d, 1);
        } else {
            copy(A->hr, A->h1, Nd);
            sl_linear_forward(A->hr, A->ffact, P->linear2_weight, P->linear2_bias, N, f, d, 1);
            sl_layernorm_forward(out, A->mean2, A->rstd2, A->hr, P->norm2_weight,
                                 P->norm2_bias, N, d, eps);
        }
    }
    const float *last = s->out;
    if (c->norm_first) {
        sl_layernorm_forward(s->fin, s->fmean, s->frstd, s->out, p->final_norm_weight,
                             p->final_norm_bias, N, d, eps);
        last = s->fin;
    }
    sl_linear_forward(s->logits, last, p->classifier_weight, p->classifier_bias, N, d,
                      c->n_classes, 0);
}

static void backward(sl_train_step *s, const sl_params *p, const sl_params *g, const float *x,
                     int B, int T)
{
    const sl_model_config *c = &s->cfg;
    const int d = c->d_model, f = c->d_ff, H = c->n_heads, N = B * T;
    const size_t win_probs = sl_attention_scratch(T, H, 1);
    float *dx = s->dx, *dh = s->dh, *dqkv = s->dqkv, *dff = s->dff;

    /* classifier (and the final LayerNorm of pre-norm) */
    const float *last = c->norm_first ? s->fin : s->out;
    sl_linear_backward(dx, g->classifier_weight, g->classifier_bias, s->dlogits, last,
                       p->classifier_weight, N, d, c->n_classes, 0);
    if (c->norm_first)
        sl_layernorm_backward(dx, g->final_norm_weight, g->final_norm_bias, dx, s->out,
                              s->fmean, s->frstd, p->final_norm_weight, N, d, 0);

    /* dx: gradient of the current layer's output, becomes that of its input */
    for (int l = c->n_layers - 1; l >= 0; l--) {
        const sl_layer_params *P = &p->layers[l];
        const sl_layer_params *G = &g->layers[l];
        layer_acts *A = &s->L[l];
        const float *out = l + 1 < c->n_layers ? s->L[l + 1].in : s->out;
        (void)out;
        const float *ffin;
        if (c->norm_first) {
            /* out = r1 + act(h2 W1) W2: dx is also d r1 */
            ffin = A->hr;
        } else {
            /* out = LN2(r2), r2 = h1 + ff W2: dx becomes d r2 (= part of d h1) */
            sl_layernorm_backward(dx, G->norm2_weight, G->norm2_bias, dx, A->hr, A->mean2,
                                  A->rstd2, P->norm2_weight, N, d, 0);
            ffin = A->h1;
        }
        sl_linear_backward(dff, G->linear2_weight, G->linear2_bias, dx, A->ffact,
                           P->linear2_weight, N, f, d, 0);
        if (c->activation == SL_ACT_GELU)
            sl_gelu_backward(dff, dff, A->ffpre, (size_t)N * f);
        else
            sl_relu_backward(dff, dff, A->ffpre, (size_t)N * f);
        if (c->norm_first) {
            /* dh = d h2; dx += LN2 backward = d r1 */
            sl_linear_backward(dh, G->linear1_weight, G->linear1_bias, dff, ffin,
                               P->linear1_weight, N, d, f, 0);
            sl_layernorm_backward(dx, G->norm2_weight, G->norm2_bias, dh, A->r1, A->mean2,
                                  A->rstd2, P->norm2_weight, N, d, 1);
        } else {
            /* d h1 = d r2 + dff W1, then through LN1 into d r1 */
            sl_linear_backward(dx, G->linear1_weight, G->linear1_bias, dff, ffin,
                               P->linear1_weight, N, d, f, 1);
            sl_layernorm_backward(dx, G->norm1_weight, G->norm1_bias, dx, A->r1, A->mean1,
                                  A->rstd1, P->norm1_weight, N, d, 0);
        }
        /* dx = d r1 = d in (skip path) + attention branch */
        sl_linear_backward(dh, G->out_proj_weight, G->out_proj_bias, dx, A->ao,
                           P->out_proj_weight, N, d, d, 0);
        for (int b = 0; b < B; b++)
            sl_attention_backward(dqkv + (size_t)b * T * 3 * d, s->dS, dh + (size_t)b * T * d,
                                  A->qkv + (size_t)b * T * 3 * d, A->probs + (size_t)b * win_probs,
                                  T, d, H, c->band_left, c->band_right);
        if (c->norm_first) {
            sl_linear_backward(dh, G->in_proj_weight, G->in_proj_bias, dqkv, A->h1,
                               P->in_proj_weight, N, d, 3 * d, 0);
            sl_layernorm_backward(dx, G->norm1_weight, G->norm1_bias, dh, A->in, A->mean1,
                                  A->rstd1, P->norm1_weight, N, d, 1);
        } else {
            sl_linear_backward(dx, G->in_proj_weight, G->in_proj_bias, dqkv, A->in,
                               P->in_proj_weight, N, d, 3 * d, 1);
        }
    }
    /* positions are constants; the input scaling scales the gradient */
    const float scale = c->scale_input ? (float)sqrt((double)d) : 1.0f;
    sl_scale_add_positions_backward(dx, dx, scale, (size_t)N * d);
    sl_linear_backward(NULL, g->input_weight, g->input_bias, dx, x, p->input_weight, N,
                       c->n_features, d, 0);
}

float sl_train_step_run(sl_train_step *s, const sl_model *m, const float *x, const int32_t *labels,
                        const float *class_weights, int B, int T, float *grads, float *logits_out,
                        int64_t *n_counted)
{
    if (B < 1 || B > s->max_B || T < 1 || T > s->max_T) {
        if (n_counted)
            *n_counted = 0;
        return 0.0f;
    }
    const int N = B * T, nc = s->cfg.n_classes;
    sl_params g;
    sl_params_bind(&m->cfg, grads, &g);
    forward(s, &m->views, x, B, T);
    if (logits_out)
        copy(logits_out, s->logits, (size_t)N * nc);
    double loss = sl_cross_entropy_forward_backward(s->dlogits, s->logits, labels, class_weights,
                                                    N, nc, n_counted);
    backward(s, &m->views, &g, x, B, T);
    return (float)loss;
}
