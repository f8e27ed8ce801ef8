/* Growing a trained model (`seqlabel train --init M --layers N --d-ff F`):
 * more layers, wider feed-forward blocks, and the same function to start with,
 * so a bigger model begins where the smaller one stands instead of from random
 * weights (the idea of Net2Net, Chen et al. 2016, with zero-initialised
 * residual branches in place of copied units).
 *
 * In a pre-norm encoder every sublayer adds its branch to the residual stream:
 * x + out_proj(attn(LN(x))) and x + linear2(act(linear1(LN(x)))). A branch
 * whose last weights and bias are zero adds nothing, so:
 *  - a new layer (appended after the old ones, before the final LayerNorm) has
 *    zero out_proj and linear2 weights and biases: it is the identity;
 *  - a new feed-forward unit has a zero column in linear2: it adds nothing.
 * Everything feeding those zeros (Q/K/V, linear1 rows) gets PyTorch's usual
 * random initialisation, so the gradients reaching the zeros are not zero and
 * the new units differ from each other (copies of old units would stay copies).
 * Post-norm layers end in a LayerNorm, which is not the identity: refused. */
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "model_internal.h"

static void copy_rows(float *dst, int dst_cols, const float *src, int src_cols, int rows)
{
    for (int r = 0; r < rows; r++)
        memcpy(dst + (size_t)r * dst_cols, src + (size_t)r * src_cols,
               (size_t)src_cols * sizeof *dst);
}

/* Old layer `s` into new layer `d`, whose d_ff may be larger: the first rows of
 * linear1 and the first columns of linear2 are the old ones. */
static void copy_layer(const sl_layer_params *s, sl_layer_params *d, int dm, int f_old, int f_new)
{
    size_t dd = (size_t)dm * dm;
    memcpy(d->in_proj_weight, s->in_proj_weight, 3 * dd * sizeof(float));
    if (s->in_proj_bias)
        memcpy(d->in_proj_bias, s->in_proj_bias, 3 * (size_t)dm * sizeof(float));
    memcpy(d->out_proj_weight, s->out_proj_weight, dd * sizeof(float));
    memcpy(d->out_proj_bias, s->out_proj_bias, (size_t)dm * sizeof(float));
    memcpy(d->linear1_weight, s->linear1_weight, (size_t)f_old * dm * sizeof(float));
    memcpy(d->linear1_bias, s->linear1_bias, (size_t)f_old * sizeof(float));
    memset(d->linear2_weight, 0, (size_t)dm * f_new * sizeof(float));
    copy_rows(d->linear2_weight, f_new, s->linear2_weight, f_old, dm);
    memcpy(d->linear2_bias, s->linear2_bias, (size_t)dm * sizeof(float));
    memcpy(d->norm1_weight, s->norm1_weight, (size_t)dm * sizeof(float));
    memcpy(d->norm1_bias, s->norm1_bias, (size_t)dm * sizeof(float));
    memcpy(d->norm2_weight, s->norm2_weight, (size_t)dm * sizeof(float));
    memcpy(d->norm2_bias, s->norm2_bias, (size_t)dm * sizeof(float));
}

sl_model *sl_model_grow(const sl_model *m, int n_layers, int d_ff, uint64_t seed, char *err,
                        size_t errlen)
{
    const sl_model_config *c = sl_model_get_config(m);
    if (!c->norm_first) {
        sl_fail(err, errlen, "only pre-norm models can grow (a post-norm layer ends in a "
                             "LayerNorm, so no new layer leaves the model's outputs as they are)");
        return NULL;
    }
    if (n_layers < c->n_layers || d_ff < c->d_ff) {
        sl_fail(err, errlen, "a model grows, never shrinks: it has %d layers and d_ff %d, "
                             "more than the %d and %d asked for",
                c->n_layers, c->d_ff, n_layers, d_ff);
        return NULL;
    }
    sl_model_config g = *c;
    g.n_layers = n_layers;
    g.d_ff = d_ff;
    const char *names[SL_MAX_CLASSES];
    for (int k = 0; k < c->n_classes; k++)
        names[k] = sl_model_class_name(m, k);
    sl_model *out = sl_model_create(&g, sl_model_feature_config(m), sl_model_norm_mean(m),
                                    sl_model_norm_inv_std(m), names, err, errlen);
    if (!out)
        return NULL;
    /* Random weights everywhere first: what nothing below overwrites is new. */
    sl_model_init_params(out, seed);
    const sl_params *s = &m->views;
    sl_params *d = &out->views;
    const int dm = c->d_model;
    memcpy(d->input_weight, s->input_weight, (size_t)dm * c->n_features * sizeof(float));
    memcpy(d->input_bias, s->input_bias, (size_t)dm * sizeof(float));
    for (int l = 0; l < n_layers; l++) {
        const sl_layer_params *L = &d->layers[l];
        if (l < c->n_layers) {
            copy_layer(&s->layers[l], &d->layers[l], dm, c->d_ff, d_ff);
            continue;
        }
        memset(L->out_proj_weight, 0, (size_t)dm * dm * sizeof(float));
        memset(L->out_proj_bias, 0, (size_t)dm * sizeof(float));
        memset(L->linear2_weight, 0, (size_t)dm * d_ff * sizeof(float));
        memset(L->linear2_bias, 0, (size_t)dm * sizeof(float));
    }
    memcpy(d->final_norm_weight, s->final_norm_weight, (size_t)dm * sizeof(float));
    memcpy(d->final_norm_bias, s->final_norm_bias, (size_t)dm * sizeof(float));
    memcpy(d->classifier_weight, s->classifier_weight, (size_t)c->n_classes * dm * sizeof(float));
    memcpy(d->classifier_bias, s->classifier_bias, (size_t)c->n_classes * sizeof(float));
    return out;
}
