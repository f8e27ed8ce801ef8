/* A trained model given other classes (`seqlabel train --init M --classes
 * a,b,c`): the encoder, features and normalisation are M's, only the output
 * layer changes. What a model learnt about sound (the default model: 277 hours
 * of speech, music and noise) then carries over to a user's own classes, which
 * a few minutes of labelled audio can teach the new layer and fine-tune the rest
 * for, where a model from random weights would need far more.
 *
 * The output layer is one row of weights and a bias per class on the encoder's
 * last vector. A class M already has keeps its row, by name and wherever it now
 * stands, so it starts scoring what it scored; a new class gets PyTorch's usual
 * random initialisation (seeded), as a fresh model's output layer would; M's
 * classes not named are dropped. */
#include <string.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "model_internal.h"

int sl_model_new_class_refused(const sl_model *m, const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (names[k] && sl_model_class_index(m, names[k]) < 0 && sl_class_name_flaw(names[k], 1))
            return k;
    return -1;
}

sl_model *sl_model_with_classes(const sl_model *m, const char *const *names, int n,
                                uint64_t seed, char *err, size_t errlen)
{
    if (n < 2 || n > SL_MAX_CLASSES) {
        sl_fail(err, errlen, "a model needs 2 to %d classes, not %d", SL_MAX_CLASSES, n);
        return NULL;
    }
    /* the classes it keeps may have any name a model holds; new ones are a new
     * model's */
    int bad = sl_model_new_class_refused(m, names, n);
    if (bad >= 0) {
        sl_fail(err, errlen, "new class '%.*s': %s", SL_MAX_CLASS_NAME, names[bad],
                sl_class_name_flaw(names[bad], 1));
        return NULL;
    }
    sl_model_config c = m->cfg;
    c.n_classes = n;
    sl_model *out = sl_model_create(&c, sl_model_feature_config(m), sl_model_norm_mean(m),
                                    sl_model_norm_inv_std(m), names, err, errlen);
    if (!out)
        return NULL;
    /* Random weights everywhere first (the new classes' rows keep them), then
     * every tensor but the output layer's, which alone depends on the classes. */
    sl_model_init_params(out, seed);
    const sl_params *src = &m->views, *dst = &out->views;
    for (int i = 0; i < sl_model_num_tensors(m); i++) {
        const sl_tensor_info *t = sl_model_tensor(m, i);
        if (!strcmp(t->name, "classifier.weight") || !strcmp(t->name, "classifier.bias"))
            continue;
        const sl_tensor_info *o = sl_model_tensor(out, sl_model_find_tensor(out, t->name));
        memcpy(out->params + o->offset, m->params + t->offset, t->count * sizeof(float));
    }
    const int d = c.d_model;
    for (int k = 0; k < n; k++) {
        int was = sl_model_class_index(m, names[k]);
        if (was < 0)
            continue;
        memcpy(dst->classifier_weight + (size_t)k * d, src->classifier_weight + (size_t)was * d,
               (size_t)d * sizeof(float));
        dst->classifier_bias[k] = src->classifier_bias[was];
    }
    return out;
}
