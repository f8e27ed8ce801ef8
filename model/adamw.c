/* The optimiser side of training: gradient clipping by global norm and the
 * AdamW update, written to follow torch's own float32 arithmetic
 * (torch.nn.utils.clip_grad_norm_, torch.optim.AdamW's single-tensor path) so
 * a step here and a step there agree to rounding. */
#include "model/train_step.h"

#include "model/model_internal.h"

#include <math.h>
#include <string.h>

float sl_grad_clip(float *grads, size_t n, float max_norm)
{
    double ss = 0.0;
    for (size_t i = 0; i < n; i++)
        ss += (double)grads[i] * grads[i];
    float norm = (float)sqrt(ss);
    /* torch: coef = max_norm / (norm + 1e-6), clamped to 1 */
    float coef = max_norm / (norm + 1e-6f);
    if (coef < 1.0f)
        for (size_t i = 0; i < n; i++)
            grads[i] *= coef;
    return norm;
}

void sl_adamw_update(float *params, const float *grads, float *m, float *v, size_t n, int64_t step,
                     const sl_adamw_config *c, const uint8_t *decay_mask)
{
    const double lr = c->lr, b1 = c->beta1, b2 = c->beta2;
    const double bc1 = 1.0 - pow(b1, (double)step), bc2 = 1.0 - pow(b2, (double)step);
    const float decay = (float)(1.0 - lr * (double)c->weight_decay);
    const float neg_step = (float)(-(lr / bc1));
    const float bc2_sqrt = (float)sqrt(bc2);
    const float fb1 = c->beta1, fb2 = c->beta2, g1 = (float)(1.0 - b1), g2 = (float)(1.0 - b2);
    const float eps = c->eps;
    for (size_t i = 0; i < n; i++) {
        float p = params[i], g = grads[i];
        if (!decay_mask || decay_mask[i])
            p *= decay;
        float mi = m[i] * fb1 + g * g1;
        float vi = v[i] * fb2 + g2 * g * g;
        m[i] = mi;
        v[i] = vi;
        float denom = sqrtf(vi) / bc2_sqrt + eps;
        params[i] = p + neg_step * (mi / denom);
    }
}

void sl_model_decay_mask(const sl_model *mdl, uint8_t *mask)
{
    /* Matrices (the Linear layers' weights and the attention's packed Q/K/V
     * projection) decay; biases and LayerNorm gains/shifts (vectors) do not. */
    memset(mask, 0, mdl->n_params);
    for (int i = 0; i < mdl->n_tensors; i++) {
        const sl_tensor_info *t = &mdl->tensors[i];
        if (t->ndim == 2)
            memset(mask + t->offset, 1, t->count);
    }
}
