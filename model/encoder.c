/* The encoder forward pass for inference: the layers of layers.c applied to a
 * window of T frames, with every buffer allocated once in sl_encoder_new.
 * The computation is the one tools/reference_model.py defines in PyTorch. */
#include "model/layers.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct sl_encoder {
    const sl_model *m;
    int max_T;
    float *pe;   /* max_T x d positional table */
    float *x;    /* T x d residual stream */
    float *h;    /* T x d: normalised input (pre-norm), projection outputs */
    float *qkv;  /* T x 3d */
    float *ao;   /* T x d attention output before out_proj */
    float *ff;   /* T x d_ff */
    float *att;  /* attention scores scratch */
    float *logits; /* T x n_classes, when the caller wants only probabilities */
};

sl_encoder *sl_encoder_new(const sl_model *m, int max_T, char *err, size_t errlen)
{
    const sl_model_config *c = &m->cfg;
    if (max_T < 1 || max_T > c->max_window) {
        if (err && errlen)
            snprintf(err, errlen, "encoder window %d is outside 1..%d (the model's max_window)",
                     max_T, c->max_window);
        return NULL;
    }
    sl_encoder *e = calloc(1, sizeof *e);
    if (!e)
        goto oom;
    e->m = m;
    e->max_T = max_T;
    size_t T = (size_t)max_T, d = (size_t)c->d_model;
    e->pe = malloc(sizeof(float) * T * d);
    e->x = malloc(sizeof(float) * T * d);
    e->h = malloc(sizeof(float) * T * d);
    e->qkv = malloc(sizeof(float) * T * 3 * d);
    e->ao = malloc(sizeof(float) * T * d);
    e->ff = malloc(sizeof(float) * T * (size_t)c->d_ff);
    e->att = malloc(sizeof(float) * sl_attention_scratch(max_T, c->n_heads, 0));
    e->logits = malloc(sizeof(float) * T * (size_t)c->n_classes);
    if (!e->pe || !e->x || !e->h || !e->qkv || !e->ao || !e->ff || !e->att || !e->logits)
        goto oom;
    sl_positional_encoding(e->pe, max_T, c->d_model);
    return e;
oom:
    sl_encoder_free(e);
    if (err && errlen)
        snprintf(err, errlen, "out of memory for an encoder of window %d", max_T);
    return NULL;
}

void sl_encoder_free(sl_encoder *e)
{
    if (!e)
        return;
    free(e->pe);
    free(e->x);
    free(e->h);
    free(e->qkv);
    free(e->ao);
    free(e->ff);
    free(e->att);
    free(e->logits);
    free(e);
}

int sl_encoder_max_T(const sl_encoder *e) { return e->max_T; }

/* Self-attention block: x += out_proj(attention(in_proj(src))). */
static void attention_block(sl_encoder *e, const sl_layer_params *L, const float *src, int T)
{
    const sl_model_config *c = &e->m->cfg;
    const int d = c->d_model;
    sl_linear_forward(e->qkv, src, L->in_proj_weight, L->in_proj_bias, T, d, 3 * d, 0);
    sl_attention_forward(e->ao, e->att, 0, e->qkv, T, d, c->n_heads, c->band_left,
                         c->band_right);
    sl_linear_forward(e->x, e->ao, L->out_proj_weight, L->out_proj_bias, T, d, d, 1);
}

/* Feed-forward block: x += linear2(act(linear1(src))). */
static void feedforward_block(sl_encoder *e, const sl_layer_params *L, const float *src, int T)
{
    const sl_model_config *c = &e->m->cfg;
    const int d = c->d_model, f = c->d_ff;
    sl_linear_forward(e->ff, src, L->linear1_weight, L->linear1_bias, T, d, f, 0);
    if (c->activation == SL_ACT_GELU)
        sl_gelu_forward(e->ff, e->ff, (size_t)T * f);
    else
        sl_relu_forward(e->ff, e->ff, (size_t)T * f);
    sl_linear_forward(e->x, e->ff, L->linear2_weight, L->linear2_bias, T, f, d, 1);
}

int sl_encoder_forward(sl_encoder *e, const float *feats, int T, float *logits, float *probs)
{
    if (T < 1 || T > e->max_T || (!logits && !probs))
        return -1;
    const sl_model_config *c = &e->m->cfg;
    const sl_params *p = &e->m->views;
    const int d = c->d_model;
    const float eps = c->ln_eps;

    sl_linear_forward(e->x, feats, p->input_weight, p->input_bias, T, c->n_features, d, 0);
    sl_scale_add_positions(e->x, e->pe, c->scale_input ? (float)sqrt((double)d) : 1.0f, T, d);

    for (int l = 0; l < c->n_layers; l++) {
        const sl_layer_params *L = &p->layers[l];
        if (c->norm_first) {
            sl_layernorm_forward(e->h, NULL, NULL, e->x, L->norm1_weight, L->norm1_bias, T, d, eps);
            attention_block(e, L, e->h, T);
            sl_layernorm_forward(e->h, NULL, NULL, e->x, L->norm2_weight, L->norm2_bias, T, d, eps);
            feedforward_block(e, L, e->h, T);
        } else {
            attention_block(e, L, e->x, T);
            sl_layernorm_forward(e->x, NULL, NULL, e->x, L->norm1_weight, L->norm1_bias, T, d, eps);
            feedforward_block(e, L, e->x, T);
            sl_layernorm_forward(e->x, NULL, NULL, e->x, L->norm2_weight, L->norm2_bias, T, d, eps);
        }
    }
    if (c->norm_first)
        sl_layernorm_forward(e->x, NULL, NULL, e->x, p->final_norm_weight, p->final_norm_bias, T,
                             d, eps);

    float *out = logits ? logits : e->logits;
    sl_linear_forward(out, e->x, p->classifier_weight, p->classifier_bias, T, d, c->n_classes, 0);
    if (probs) {
        for (size_t i = 0; i < (size_t)T * c->n_classes; i++)
            probs[i] = out[i];
        sl_softmax_rows(probs, T, c->n_classes);
    }
    return 0;
}

double sl_encoder_flops(const sl_model_config *c, int T)
{
    /* Multiply-adds count 2; attention counts only the band it computes. */
    double d = c->d_model, f = c->d_ff, t = T;
    double keys = 0;
    for (int r0 = 0; r0 < T; r0 += SL_ATTN_BLOCK) {
        int r1 = r0 + SL_ATTN_BLOCK < T ? r0 + SL_ATTN_BLOCK : T, k0, k1;
        sl_attention_key_range(r0, r1, T, c->band_left, c->band_right, &k0, &k1);
        keys += (double)(r1 - r0) * (k1 - k0);
    }
    double per_layer = 2 * t * d * 3 * d + 2 * 2 * keys * d + 2 * t * d * d + 2 * 2 * t * d * f;
    return 2 * t * c->n_features * d + c->n_layers * per_layer + 2 * t * d * c->n_classes;
}
