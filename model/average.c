/* Weight averaging of models of one shape ("checkpoint averaging", a "model
 * soup"): the mean of every parameter. It only makes sense for models that
 * share a training history (stages or checkpoints of one run, or fine-tunings
 * of one model), whose weights lie in one basin; the result is checked, like
 * any model, by evaluating it. Everything but the weights must be identical:
 * shape, features, normalisation, classes and streaming window. */
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "common/text.h"

/* Both configs hold only 4-byte fields (no padding), so memcmp compares values. */
static int same_setup(const sl_model *a, const sl_model *b)
{
    const sl_model_config *ca = sl_model_get_config(a), *cb = sl_model_get_config(b);
    if (memcmp(ca, cb, sizeof *ca) ||
        memcmp(sl_model_feature_config(a), sl_model_feature_config(b), sizeof(sl_feature_config)))
        return 0;
    size_t nf = (size_t)ca->n_features * sizeof(float);
    if (memcmp(sl_model_norm_mean(a), sl_model_norm_mean(b), nf) ||
        memcmp(sl_model_norm_inv_std(a), sl_model_norm_inv_std(b), nf))
        return 0;
    for (int k = 0; k < ca->n_classes; k++)
        if (!sl_text_same(sl_model_class_name(a, k), sl_model_class_name(b, k)))
            return 0;
    return 1;
}

sl_model *sl_model_average(const sl_model *const *models, const char *const *names, int n,
                           char *err, size_t errlen)
{
    if (n < 1) {
        sl_fail(err, errlen, "averaging needs at least one model");
        return NULL;
    }
    for (int i = 1; i < n; i++)
        if (!same_setup(models[0], models[i])) {
            sl_fail(err, errlen, "%s: its shape, features, normalisation, classes or streaming "
                                 "window differ from %s's; only weights may differ", names[i],
                    names[0]);
            return NULL;
        }
    const sl_model *m0 = models[0];
    const sl_model_config *cfg = sl_model_get_config(m0);
    const char *classes[SL_MAX_CLASSES];
    for (int k = 0; k < cfg->n_classes; k++)
        classes[k] = sl_model_class_name(m0, k);
    sl_model *out = sl_model_create(cfg, sl_model_feature_config(m0), sl_model_norm_mean(m0),
                                    sl_model_norm_inv_std(m0), classes, err, errlen);
    if (!out)
        return NULL;
    float *p = sl_model_params(out);
    const size_t np = sl_model_num_params(out);
    for (size_t j = 0; j < np; j++) {
        double s = 0.0; /* summed in double, in the order given, then rounded once */
        for (int i = 0; i < n; i++)
            s += (double)sl_model_params_const(models[i])[j];
        p[j] = (float)(s / n);
    }
    return out;
}
