/* Knowledge distillation (`seqlabel train --teacher MODEL`):
 *  - the soft targets are the teacher's posteriors on the student's windows:
 *    a teacher whose normalisation and class order differ from the student's
 *    gives, through sl_teachers_run, the posteriors of its own forward on the
 *    same raw features, in the student's class order; two teachers give the
 *    renormalised geometric mean of their posteriors;
 *  - a student trained only on wrong labels (every frame "silence" but 0.2 s) with
 *    --distill-weight 1 learns the task from a teacher (held-out accuracy
 *    >= 0.9), and with weight 0 it does not (<= 0.6): the teacher is what
 *    teaches;
 *  - weight 0 with a teacher trains the same model as no teacher, bit for bit;
 *  - --teacher-clean: without augmentation the teachers' unaugmented windows
 *    are the student's windows, so the model is the same bit for bit (frames
 *    outside the file, offsets and normalisation copied right); with
 *    augmentation it is not; without a teacher it is refused;
 *  - a teacher with other features or other classes, and --distill-weight
 *    without --teacher, are refused with the file and the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/trainer_internal.h"
#include "trainer_test_util.h"

static char dir[512];
static const char *seqlabel;

#define SHAPE "--mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 " \
              "--batch 8 --warmup 5 --quiet"

static int setup(void **state)
{
    (void)state;
    seqlabel = getenv("SL_SEQLABEL");
    if (!seqlabel)
        return -1;
    tt_mkdtemp(dir, sizeof dir, "distill");
    /* the teacher's own data, the student's audio and held-out files */
    tt_make_task_set(dir, "te.tsv", "te", 4, 12.0, 41, NULL);
    tt_make_task_set(dir, "st.tsv", "st", 2, 12.0, 42, NULL);
    tt_make_task_set(dir, "va.tsv", "va", 2, 8.0, 43, NULL);
    /* the student's labels: every frame 'silence' but the last 0.2 s, 'tone' and
     * 'noise' (wrong too), so that each class has frames of its own: a class
     * with none is refused where no teacher gives soft targets (weight 0) */
    char man[4096] = "";
    for (int i = 0; i < 2; i++) {
        char name[64], line[256];
        snprintf(name, sizeof name, "st_%d.wrong.txt", i);
        tt_write_text(tt_path(dir, name), "0\t11.8\tsilence\n11.8\t11.9\ttone\n11.9\t12\tnoise\n");
        snprintf(line, sizeof line, "st_%d.wav\tst_%d.wrong.txt\n", i, i);
        strcat(man, line);
    }
    tt_write_text(tt_path(dir, "wrong.tsv"), man);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/te.tsv' --valid '%s/va.tsv' --out '%s/teacher.slm' --cache-dir "
             "'%s/cache' " SHAPE " --classes silence,tone,noise --lr 3e-3 --steps 300 --seed 1 "
             "> /dev/null", seqlabel, dir, dir, dir, dir);
    return tt_run(cmd, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

/* The options of a run on the manifest (the wrong labels unless named). */
static const char *args_on(const char *manifest, const char *opts)
{
    static char a[3072];
    snprintf(a, sizeof a, "--manifest '%s/%s' --cache-dir '%s/cache' " SHAPE
             " --classes silence,tone,noise --lr 3e-3 %s", dir, manifest, dir, opts);
    return a;
}

static const char *args(const char *opts) { return args_on("wrong.tsv", opts); }

static int train(const char *opts, const char *tag, char **err)
{
    return tt_train(dir, tag, args(opts), err);
}

static void train_ok(const char *opts, const char *tag) { tt_train_ok(dir, tag, args(opts)); }

static double held_out_accuracy(const char *tag)
{
    char path[600], e[SL_ERR_LEN];
    snprintf(path, sizeof path, "%s/%s.slm", dir, tag);
    sl_model *m = sl_model_load(path, e, sizeof e);
    assert_non_null(m);
    sl_metrics mt;
    assert_int_equal(sl_metrics_init(&mt, sl_model_get_config(m)->n_classes), 0);
    if (sl_evaluate_manifest(m, tt_path(dir, "va.tsv"), NULL, &mt, e,
                             sizeof e))
        fail_msg("%s", e);
    double acc = sl_metrics_accuracy(&mt);
    sl_metrics_free(&mt);
    sl_model_free(m);
    return acc;
}

static double max_diff(const float *a, const float *b, size_t n)
{
    double d = 0.0;
    for (size_t i = 0; i < n; i++)
        d = fmax(d, fabs((double)a[i] - (double)b[i]));
    return d;
}

static void soft_targets_are_the_teachers_posteriors(void **state)
{
    (void)state;
    char e[SL_ERR_LEN], tpath[600];
    snprintf(tpath, sizeof tpath, "%s/teacher.slm", dir);
    sl_model *teacher = sl_model_load(tpath, e, sizeof e);
    assert_non_null(teacher);
    const sl_model_config *tc = sl_model_get_config(teacher);
    const int F = tc->n_features, C = tc->n_classes, T = 40, B = 2;
    /* the student: the teacher's shape, other normalisation, classes reversed */
    float mean[64], istd[64];
    for (int j = 0; j < F; j++) {
        mean[j] = sl_model_norm_mean(teacher)[j] + 0.5f * (float)(j % 3);
        istd[j] = sl_model_norm_inv_std(teacher)[j] * (1.0f + 0.1f * (float)(j % 4));
    }
    const char *rev[3] = {sl_model_class_name(teacher, 2), sl_model_class_name(teacher, 1),
                          sl_model_class_name(teacher, 0)};
    sl_model *student = sl_model_create(tc, sl_model_feature_config(teacher), mean, istd, rev, e,
                                        sizeof e);
    assert_non_null(student);
    /* raw features: anything; the student sees them normalised its way */
    float *raw = malloc(sizeof(float) * B * T * F), *x = malloc(sizeof(float) * B * T * F);
    uint64_t s = 7;
    for (int i = 0; i < B * T * F; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        raw[i] = (float)((double)(s >> 11) * 0x1.0p-53 * 8.0 - 4.0) + mean[i % F];
        x[i] = (raw[i] - mean[i % F]) * istd[i % F];
    }
    /* what the targets must be: the teacher's own forward on the same raw
     * features, normalised its way, columns in the student's (reversed) order */
    sl_encoder *enc = sl_encoder_new(teacher, T, e, sizeof e);
    float *xt = malloc(sizeof(float) * T * F), *p = malloc(sizeof(float) * T * C),
          *want = malloc(sizeof(float) * B * T * C);
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < T * F; i++)
            xt[i] = (raw[b * T * F + i] - sl_model_norm_mean(teacher)[i % F]) *
                    sl_model_norm_inv_std(teacher)[i % F];
        assert_int_equal(sl_encoder_forward(enc, xt, T, NULL, p), 0);
        for (int r = 0; r < T; r++)
            for (int k = 0; k < C; k++)
                want[((size_t)b * T + r) * C + (C - 1 - k)] = p[r * C + k];
    }
    sl_teachers t;
    const char *paths[2] = {tpath, tpath};
    assert_int_equal(sl_teachers_load(&t, paths, 1, student, B, T, 1, e, sizeof e), 0);
    assert_int_equal(sl_teachers_run(&t, student, x, B, T, e, sizeof e), 0);
    double worst = max_diff(t.soft, want, (size_t)B * T * C);
    printf("soft targets vs the teacher's posteriors: max difference %.2e\n", worst);
    assert_true(worst < 1e-4);
    sl_teachers_free(&t);
    /* the same teacher twice: the same targets (geometric mean of equal rows) */
    assert_int_equal(sl_teachers_load(&t, paths, 2, student, B, T, 2, e, sizeof e), 0);
    assert_int_equal(sl_teachers_run(&t, student, x, B, T, e, sizeof e), 0);
    assert_true(max_diff(t.soft, want, (size_t)B * T * C) < 1e-4);
    sl_teachers_free(&t);
    sl_encoder_free(enc);
    free(raw);
    free(x);
    free(xt);
    free(p);
    free(want);
    sl_model_free(student);
    sl_model_free(teacher);
}

static void the_teacher_teaches(void **state)
{
    (void)state;
    char opts[1024];
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --distill-weight 1 --steps 300 --seed 3",
             dir);
    train_ok(opts, "distilled");
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --distill-weight 0 --steps 300 --seed 3",
             dir);
    train_ok(opts, "labels_only");
    double teacher = held_out_accuracy("teacher"), distilled = held_out_accuracy("distilled"),
           labels_only = held_out_accuracy("labels_only");
    printf("held-out accuracy: teacher %.4f, student from the teacher %.4f, student from the "
           "wrong labels %.4f\n", teacher, distilled, labels_only);
    assert_true(teacher >= 0.95);
    assert_true(distilled >= 0.9);
    assert_true(labels_only <= 0.6);
}

static void weight_zero_is_plain_training(void **state)
{
    (void)state;
    char opts[1024];
    /* the student's right labels: without a teacher, the wrong ones (no tone,
     * no noise) are refused as classes no training frame holds */
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --distill-weight 0 --steps 20 --seed 5",
             dir);
    tt_train_ok(dir, "w0", args_on("st.tsv", opts));
    tt_train_ok(dir, "plain", args_on("st.tsv", "--steps 20 --seed 5"));
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --distill-weight 0.5 --steps 20 --seed 5",
             dir);
    tt_train_ok(dir, "w05", args_on("st.tsv", opts));
    assert_true(tt_same_file(dir, "w0.slm", "plain.slm"));
    assert_false(tt_same_file(dir, "w05.slm", "plain.slm"));
}

static void clean_windows_for_the_teacher(void **state)
{
    (void)state;
    char opts[1024];
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --steps 20 --seed 6", dir);
    train_ok(opts, "heard_as_student");
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --teacher-clean --steps 20 --seed 6", dir);
    train_ok(opts, "heard_clean");
    assert_true(tt_same_file(dir, "heard_as_student.slm", "heard_clean.slm"));
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --steps 20 --seed 6 --augment-gain 20 "
             "--augment-time-mask 8", dir);
    train_ok(opts, "aug_heard_as_student");
    snprintf(opts, sizeof opts, "--teacher '%s/teacher.slm' --teacher-clean --steps 20 --seed 6 "
             "--augment-gain 20 --augment-time-mask 8", dir);
    train_ok(opts, "aug_heard_clean");
    assert_false(tt_same_file(dir, "aug_heard_as_student.slm", "aug_heard_clean.slm"));
}

static void expect_refusal(const char *opts, int code, const char *want1, const char *want2)
{
    char *err = NULL;
    int rc = train(opts, "refused", &err);
    tt_expect_refusal(opts, code, rc, err, want1, want2);
}

static void refusals(void **state)
{
    (void)state;
    char cmd[4096], opts[1024];
    /* a teacher with other features, one with other classes (birds, which
     * needs training frames of its own) */
    tt_write_text(tt_path(dir, "birds.txt"),
                  "0\t3\tsilence\n3\t6\ttone\n6\t9\tnoise\n9\t12\tbirds\n");
    tt_write_text(tt_path(dir, "birds.tsv"), "te_0.wav\tbirds.txt\n");
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/te.tsv' --out '%s/other_feats.slm' --cache-dir '%s/cache' "
             "--mel-bins 16 --d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 --batch 8 "
             "--quiet --steps 2 > /dev/null && "
             "'%s' train --manifest '%s/birds.tsv' --out '%s/other_classes.slm' --cache-dir '%s/cache' "
             SHAPE " --classes silence,tone,noise,birds --steps 2 > /dev/null",
             seqlabel, dir, dir, dir, seqlabel, dir, dir, dir);
    char *err = NULL;
    if (tt_run(cmd, &err))
        fail_msg("%s", err);
    free(err);
    snprintf(opts, sizeof opts, "--teacher '%s/other_feats.slm' --steps 2", dir);
    expect_refusal(opts, 1, "other_feats.slm", "feature settings");
    snprintf(opts, sizeof opts, "--teacher '%s/other_classes.slm' --steps 2", dir);
    expect_refusal(opts, 1, "other_classes.slm", "classes");
    snprintf(opts, sizeof opts, "--teacher '%s/absent.slm' --steps 2", dir);
    expect_refusal(opts, 1, "absent.slm", "");
    expect_refusal("--distill-weight 0.5 --steps 2", 2, "--distill-weight", "--teacher");
    expect_refusal("--teacher-clean --steps 2", 2, "--teacher-clean", "--teacher");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(soft_targets_are_the_teachers_posteriors),
        cmocka_unit_test(the_teacher_teaches),
        cmocka_unit_test(weight_zero_is_plain_training),
        cmocka_unit_test(clean_windows_for_the_teacher),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
