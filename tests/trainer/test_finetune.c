/* `seqlabel train --init MODEL` fine-tunes a saved model:
 *  - one step at a learning rate of 1e-9 leaves the starting weights (within
 *    1e-6), normalisation, features and classes as they were, while a fresh
 *    model of the same shape is far from them (so the comparison can fail);
 *  - training from the model starts where it ended: the first epoch's loss is
 *    well below a fresh run's first epoch, close to that of the epoch it was saved at;
 *  - a fine-tuning run stopped and resumed ends byte-identical to a straight one,
 *    and a checkpoint from a run from scratch is not taken for one;
 *  - model or feature options, other classes, a longer window than the model
 *    takes, or a missing file are refused with the file and the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "trainer_test_util.h"

static char dir[512];
static const char *seqlabel;

/* The base model's shape; a fine-tuning run names only what training needs. */
#define SHAPE "--mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64"
#define RUN "--window 64 --batch 8 --warmup 5 --quiet"

static int setup(void **state)
{
    (void)state;
    seqlabel = getenv("SL_SEQLABEL");
    if (!seqlabel)
        return -1;
    tt_mkdtemp(dir, sizeof dir, "finetune");
    if (tt_make_train_valid(dir, 21))
        return -1;
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s train --manifest %s/all.tsv --out %s/base.slm --cache-dir %s/cache " SHAPE
             " " RUN " --lr 3e-3 --steps 60 --seed 7 > %s/base.report",
             seqlabel, dir, dir, dir, dir);
    return tt_run(cmd, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

/* The arguments of `seqlabel train` on all.tsv writing dir/<tag>.slm, .ckpt and .report. */
static const char *args(const char *opts, const char *tag)
{
    static char a[3072];
    snprintf(a, sizeof a, "--manifest %s/all.tsv --checkpoint %s/%s.ckpt --cache-dir %s/cache "
             RUN " %s", dir, dir, tag, dir, opts);
    return a;
}

static int train(const char *opts, const char *tag, char **err)
{
    return tt_train(dir, tag, args(opts, tag), err);
}

static void train_ok(const char *opts, const char *tag) { tt_train_ok(dir, tag, args(opts, tag)); }
static sl_model *load(const char *tag) { return tt_load_model(dir, tag); }

static double max_param_diff(const sl_model *a, const sl_model *b)
{
    assert_int_equal(sl_model_num_params(a), sl_model_num_params(b));
    const float *pa = sl_model_params_const(a), *pb = sl_model_params_const(b);
    double d = 0.0;
    for (size_t i = 0; i < sl_model_num_params(a); i++)
        d = fmax(d, fabs((double)pa[i] - (double)pb[i]));
    return d;
}

/* The training loss of the last epoch whose model was saved (the best on
 * validation so far, which is what the .slm holds). */
static double saved_epoch_train_loss(const char *tag)
{
    char name[64];
    snprintf(name, sizeof name, "%s.report", tag);
    char *rep = tt_read_file(tt_path(dir, name), NULL);
    assert_non_null(rep);
    const char *saved = NULL;
    for (const char *p = strstr(rep, "(best, saved)"); p; p = strstr(p + 1, "(best, saved)"))
        saved = p;
    if (!saved)
        fail_msg("no saved epoch in %s:\n%s", name, rep);
    const char *line = saved;
    while (line > rep && line[-1] != '\n')
        line--;
    const char *l = strstr(line, "train_loss ");
    assert_true(l && l < saved);
    double v = atof(l + strlen("train_loss "));
    free(rep);
    return v;
}

static void starts_from_the_model(void **state)
{
    (void)state;
    char opts[1024];
    snprintf(opts, sizeof opts, "--init %s/base.slm --steps 1 --lr 1e-9 --warmup 0 "
             "--weight-decay 0 --seed 3", dir);
    train_ok(opts, "tiny_step");
    train_ok(SHAPE " --steps 1 --lr 1e-9 --warmup 0 --weight-decay 0 --seed 3", "fresh");
    sl_model *base = load("base"), *ft = load("tiny_step"), *fresh = load("fresh");
    double moved = max_param_diff(base, ft), apart = max_param_diff(base, fresh);
    printf("largest weight change: fine-tune step %.3g, fresh model %.3g\n", moved, apart);
    assert_true(moved <= 1e-6);
    assert_true(apart > 1e-2);
    const sl_model_config *cb = sl_model_get_config(base), *cf = sl_model_get_config(ft);
    assert_int_equal(cf->n_features, 24);
    assert_int_equal(cf->d_model, cb->d_model);
    assert_int_equal(cf->n_classes, cb->n_classes);
    for (int k = 0; k < cb->n_classes; k++)
        assert_string_equal(sl_model_class_name(ft, k), sl_model_class_name(base, k));
    assert_memory_equal(sl_model_norm_mean(ft), sl_model_norm_mean(base), 24 * sizeof(float));
    assert_memory_equal(sl_model_norm_inv_std(ft), sl_model_norm_inv_std(base),
                        24 * sizeof(float));
    sl_model_free(base);
    sl_model_free(ft);
    sl_model_free(fresh);
}

static void training_continues_from_the_model(void **state)
{
    (void)state;
    char opts[1024];
    snprintf(opts, sizeof opts, "--init %s/base.slm --steps 3 --lr 1e-3 --seed 5", dir);
    train_ok(opts, "cont");
    /* 2 x 6 s of training audio = 1196 frames, 512 per step: 3 steps an epoch. */
    double base_first = tt_epoch_train_loss(dir, "base", 1);
    double base_saved = saved_epoch_train_loss("base");
    double cont_first = tt_epoch_train_loss(dir, "cont", 1);
    printf("train loss: base epoch 1 %.4f, saved epoch %.4f; fine-tune epoch 1 %.4f\n",
           base_first, base_saved, cont_first);
    assert_true(base_saved < 0.5 * base_first); /* the base model did learn */
    assert_true(cont_first < 0.5 * base_first);
    assert_true(cont_first < 2.0 * base_saved);
}

static void resume_is_exact(void **state)
{
    (void)state;
    char opts[1024], opts2[1100];
    snprintf(opts, sizeof opts, "--init %s/base.slm --steps 12 --lr 1e-3 --seed 9", dir);
    train_ok(opts, "s");
    snprintf(opts2, sizeof opts2, "%s --stop-after 5", opts);
    train_ok(opts2, "r");
    assert_false(tt_same_file(dir, "s.ckpt", "r.ckpt"));
    snprintf(opts2, sizeof opts2, "%s --resume", opts);
    train_ok(opts2, "r");
    assert_true(tt_same_file(dir, "s.ckpt", "r.ckpt"));
    assert_true(tt_same_file(dir, "s.slm", "r.slm"));
    /* A checkpoint of a run from scratch does not resume as a fine-tuning run. */
    train_ok(SHAPE " --steps 12 --lr 1e-3 --seed 9 --stop-after 5", "p");
    char *err = NULL;
    snprintf(opts2, sizeof opts2, "%s --resume", opts);
    assert_int_equal(train(opts2, "p", &err), 1);
    assert_non_null(strstr(err, "p.ckpt"));
    assert_non_null(strstr(err, "other training settings"));
    free(err);
}

static void expect_refusal(const char *opts, const char *want1, const char *want2)
{
    char *err = NULL;
    int rc = train(opts, "refused", &err);
    tt_expect_refusal(opts, rc, err, want1, want2);
}

static void refusals(void **state)
{
    (void)state;
    char opts[1024], base[600];
    snprintf(base, sizeof base, "%s/base.slm", dir);
    snprintf(opts, sizeof opts, "--init %s --steps 2 --d-model 64", base);
    expect_refusal(opts, "--d-model", "--init");
    snprintf(opts, sizeof opts, "--mel-bins 40 --init %s --steps 2", base);
    expect_refusal(opts, "--mel-bins", "--init");
    snprintf(opts, sizeof opts, "--init %s/absent.slm --steps 2", dir);
    expect_refusal(opts, "absent.slm", "");
    sl_model *m = load("base");
    const int max_window = sl_model_get_config(m)->max_window;
    char classes[256] = "";
    for (int k = sl_model_get_config(m)->n_classes - 1; k >= 0; k--) /* reversed order */
        snprintf(classes + strlen(classes), sizeof classes - strlen(classes), "%s%s",
                 sl_model_class_name(m, k), k ? "," : "");
    sl_model_free(m);
    snprintf(opts, sizeof opts, "--init %s --steps 2 --classes %s", base, classes);
    expect_refusal(opts, "base.slm", "classes");
    char want[64];
    snprintf(opts, sizeof opts, "--init %s --steps 2 --window %d", base, max_window + 1);
    snprintf(want, sizeof want, "at most %d frames", max_window);
    expect_refusal(opts, "base.slm", want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(starts_from_the_model),
        cmocka_unit_test(training_continues_from_the_model),
        cmocka_unit_test(resume_is_exact),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
