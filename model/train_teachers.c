/* Knowledge distillation for the trainer: teacher models run on every
 * training window (after augmentation, so they see what the student sees) and
 * their averaged log-probabilities, renormalised, become soft targets that the
 * loss mixes with the labels (train_step.h, sl_train_step_set_soft_targets).
 *
 * A teacher needs the student's feature settings; its normalisation may
 * differ (the student's normalised input is mapped to the teacher's by an
 * affine map per feature) and its classes may come in another order (matched
 * by name), but it must have every class of the student and no other. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/trainer_internal.h"
#include "common/errors.h"

void sl_teachers_free(sl_teachers *t)
{
    for (int i = 0; i < t->n; i++) {
        sl_encoder_free(t->enc[i]);
        sl_model_free(t->models[i]);
        free(t->scale[i]);
        free(t->shift[i]);
    }
    free(t->xt);
    free(t->logits);
    free(t->acc);
    free(t->soft);
    memset(t, 0, sizeof *t);
}

/* sum_k exp(z_k - max z) over n values; *mx gets max z. */
static double sum_exp(const double *z, int n, double *mx)
{
    double m = z[0], s = 0.0;
    for (int k = 1; k < n; k++)
        m = z[k] > m ? z[k] : m;
    for (int k = 0; k < n; k++)
        s += exp(z[k] - m);
    *mx = m;
    return s;
}

static int match_classes(sl_teachers *t, int i, const char *path, const sl_model *student,
                         char *err, size_t errlen)
{
    const sl_model *m = t->models[i];
    const int C = sl_model_get_config(student)->n_classes;
    if (sl_model_get_config(m)->n_classes != C)
        return sl_fail(err, errlen, "%s: the teacher has %d classes, the model %d; they must "
                                    "have the same class names", path,
                       sl_model_get_config(m)->n_classes, C);
    for (int k = 0; k < C; k++) {
        int j = sl_model_class_index(student, sl_model_class_name(m, k));
        if (j < 0)
            return sl_fail(err, errlen, "%s: the teacher's class '%s' is not one of the model's",
                           path, sl_model_class_name(m, k));
        t->class_map[i][k] = j;
    }
    return 0;
}

int sl_teachers_load(sl_teachers *t, const char *const *paths, int n, const sl_model *student,
                     int B, int T, int threads, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    const int F = sl_model_get_config(student)->n_features;
    const int C = sl_model_get_config(student)->n_classes;
    const size_t rows = (size_t)B * T;
    t->xt = malloc((size_t)T * F * sizeof *t->xt);
    t->logits = malloc((size_t)T * C * sizeof *t->logits);
    t->acc = malloc(rows * C * sizeof *t->acc);
    t->soft = malloc(rows * C * sizeof *t->soft);
    if (!t->xt || !t->logits || !t->acc || !t->soft)
        return sl_fail(err, errlen, "out of memory");
    const float *mean_s = sl_model_norm_mean(student), *istd_s = sl_model_norm_inv_std(student);
    for (int i = 0; i < n; i++) {
        t->n = i + 1;
        if (!(t->models[i] = sl_model_load(paths[i], err, errlen)))
            return -1;
        const sl_model *m = t->models[i];
        if (memcmp(sl_model_feature_config(m), sl_model_feature_config(student),
                   sizeof(sl_feature_config)) ||
            sl_model_get_config(m)->n_features != F)
            return sl_fail(err, errlen, "%s: the teacher's feature settings differ from the "
                                        "model's (seqlabel info shows both)", paths[i]);
        if (match_classes(t, i, paths[i], student, err, errlen))
            return -1;
        if (!(t->enc[i] = sl_encoder_new(m, T, err, errlen))) {
            char inner[SL_ERR_LEN];
            snprintf(inner, sizeof inner, "%s", err);
            return sl_fail(err, errlen, "%s: %s", paths[i], inner);
        }
        if (sl_encoder_set_threads(t->enc[i], threads, err, errlen))
            return -1;
        /* student-normalised x -> raw feature -> teacher-normalised:
         * (x / istd_s + mean_s - mean_t) * istd_t = x * scale + shift */
        t->scale[i] = malloc((size_t)F * sizeof(float));
        t->shift[i] = malloc((size_t)F * sizeof(float));
        if (!t->scale[i] || !t->shift[i])
            return sl_fail(err, errlen, "out of memory");
        const float *mean_t = sl_model_norm_mean(m), *istd_t = sl_model_norm_inv_std(m);
        for (int j = 0; j < F; j++) {
            t->scale[i][j] = (float)((double)istd_t[j] / (double)istd_s[j]);
            t->shift[i][j] = (float)(((double)mean_s[j] - (double)mean_t[j]) * (double)istd_t[j]);
        }
    }
    return 0;
}

int sl_teachers_run(sl_teachers *t, const sl_model *student, const float *x, int B, int T,
                    char *err, size_t errlen)
{
    const int F = sl_model_get_config(student)->n_features;
    const int C = sl_model_get_config(student)->n_classes;
    const size_t rows = (size_t)B * T;
    memset(t->acc, 0, rows * C * sizeof *t->acc);
    for (int i = 0; i < t->n; i++) {
        for (int b = 0; b < B; b++) {
            const float *xb = x + (size_t)b * T * F;
            for (int r = 0; r < T; r++)
                for (int j = 0; j < F; j++)
                    t->xt[(size_t)r * F + j] =
                        xb[(size_t)r * F + j] * t->scale[i][j] + t->shift[i][j];
            if (sl_encoder_forward(t->enc[i], t->xt, T, t->logits, NULL))
                return sl_fail(err, errlen, "teacher %d: window of %d frames refused", i + 1, T);
            for (int r = 0; r < T; r++) {
                double z[SL_MAX_CLASSES], mx;
                for (int k = 0; k < C; k++)
                    z[k] = t->logits[(size_t)r * C + k];
                double lse = log(sum_exp(z, C, &mx)) + mx;
                double *a = t->acc + ((size_t)b * T + r) * C;
                for (int k = 0; k < C; k++)
                    a[t->class_map[i][k]] += z[k] - lse;
            }
        }
    }
    /* the geometric mean of the teachers' posteriors, renormalised */
    for (size_t r = 0; r < rows; r++) {
        double m[SL_MAX_CLASSES], mx;
        for (int k = 0; k < C; k++)
            m[k] = t->acc[r * C + k] / t->n;
        double s = sum_exp(m, C, &mx);
        for (int k = 0; k < C; k++)
            t->soft[r * C + k] = (float)(exp(m[k] - mx) / s);
    }
    return 0;
}
