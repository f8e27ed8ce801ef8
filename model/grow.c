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

/* Tensor `t` of the old model into the new model's tensor of the same name, which
 * may have more rows (linear1) or more columns (linear2): the old values fill its
 * top-left corner. */
static void copy_into(const sl_tensor_info *t, const float *src, sl_model *out)
{
    const sl_tensor_info *n = sl_model_tensor(out, sl_model_find_tensor(out, t->name));
    float *dst = out->params + n->offset;
    for (int r = 0; r < t->shape[0]; r++)
        memcpy(dst + (size_t)r * n->shape[1], src + (size_t)r * t->shape[1],
               (size_t)t->shape[1] * sizeof *dst);
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
    /* Zero what must start adding nothing: every linear2 weight (the old columns
     * are copied back below), and the new layers' branch outputs. */
    const int dm = c->d_model;
    for (int l = 0; l < n_layers; l++) {
        const sl_layer_params *L = &out->views.layers[l];
        memset(L->linear2_weight, 0, (size_t)dm * d_ff * sizeof(float));
        if (l < c->n_layers)
            continue;
        memset(L->out_proj_weight, 0, (size_t)dm * dm * sizeof(float));
        memset(L->out_proj_bias, 0, (size_t)dm * sizeof(float));
        memset(L->linear2_bias, 0, (size_t)dm * sizeof(float));
    }
    /* Every old tensor has a namesake here, at least as large. */
    for (int i = 0; i < sl_model_num_tensors(m); i++) {
        const sl_tensor_info *t = sl_model_tensor(m, i);
        copy_into(t, m->params + t->offset, out);
    }
    return out;
}
