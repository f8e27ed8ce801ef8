/* The learning test: a tiny model trained by sl_train on a generated task
 * (tones vs white noise vs near-silence, labels known exactly) must label the
 * frames of held-out files with >= 98% accuracy, within 300 steps of 8
 * windows of 64 frames (seconds here). The accuracy is measured by
 * sl_evaluate_manifest on the saved model in the labeler's windows, and
 * checked against the trainer's own report line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/blas_threads.h"

#include "seqlabel.h"
#include "trainer_test_util.h"

static void tiny_config(sl_train_config *c, const char *dir)
{
    sl_train_config_default(c);
    c->train_manifest = tt_path(dir, "train.tsv");
    c->valid_manifest = tt_path(dir, "valid.tsv");
    c->out_path = tt_path(dir, "model.slm");
    c->features.num_mel_bins = 24;
    c->model.d_model = 32;
    c->model.n_heads = 2;
    c->model.n_layers = 1;
    c->model.d_ff = 64;
    c->window = 64;
    c->batch = 8;
    c->max_steps = 300;
    c->lr = 3e-3f;
    c->warmup = 20;
    c->progress = 0;
}

static void learns_tones_noise_silence(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "learn");
    tt_make_task_set(dir, "train.tsv", "tr", 4, 12.0, 1, NULL);
    tt_make_task_set(dir, "valid.tsv", "va", 2, 8.0, 2, NULL);
    sl_train_config c;
    tiny_config(&c, dir);
    char report_path[1024];
    snprintf(report_path, sizeof report_path, "%s/report.txt", dir);
    FILE *rep = fopen(report_path, "w");
    c.report = rep;
    char err[SL_ERR_LEN] = "";
    int rc = sl_train(&c, err, sizeof err);
    fclose(rep);
    if (rc)
        fail_msg("sl_train: %s", err);

    sl_model *m = sl_model_load(c.out_path, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(sl_model_get_config(m)->n_classes, 3);
    assert_string_equal(sl_model_class_name(m, 0), "tone"); /* first label of tr_0 */
    sl_metrics mt;
    assert_int_equal(sl_metrics_init(&mt, 3), 0);
    rc = sl_evaluate_manifest(m, c.valid_manifest, NULL, &mt, err, sizeof err);
    if (rc)
        fail_msg("eval: %s", err);
    double acc = sl_metrics_accuracy(&mt);
    printf("validation frame accuracy %.4f over %lld frames, loss %.4f\n", acc,
           (long long)mt.frames, sl_metrics_loss(&mt));
    /* 2 files x 8 s, every frame labeled: 1 + (128000 - 400) / 160 = 798 frames each
     * (25 ms windows every 10 ms, no partial window at the end). */
    assert_int_equal(mt.frames, 2 * 798);
    assert_true(acc >= 0.98);
    /* The report's best line names the same score the evaluation gives. */
    char *text = tt_read_file(report_path, NULL);
    assert_non_null(strstr(text, "best valid_macro_f1"));
    char needle[64];
    snprintf(needle, sizeof needle, "valid_macro_f1 %.4f", sl_metrics_macro_f1(&mt));
    assert_non_null(strstr(text, needle));
    free(text);
    sl_metrics_free(&mt);
    sl_model_free(m);
    tt_rmtree(dir);
}

/* sl_train runs OpenBLAS on one thread (its own threads split the work) and
 * gives the caller's setting back, after a failure too: no global state. */
static void gives_blas_threads_back(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "blas");
    sl_train_config c;
    tiny_config(&c, dir); /* no manifests there: it fails */
    sl_blas_set_threads(2);
    const int caller = sl_blas_threads(); /* 2 with OpenBLAS; another BLAS has none to set */
    char err[SL_ERR_LEN] = "";
    assert_int_not_equal(sl_train(&c, err, sizeof err), 0);
    assert_int_equal(sl_blas_threads(), caller);
    tt_make_task_set(dir, "train.tsv", "tr", 2, 2.0, 1, NULL);
    tt_make_task_set(dir, "valid.tsv", "va", 1, 2.0, 2, NULL);
    c.max_steps = 2;
    if (sl_train(&c, err, sizeof err))
        fail_msg("sl_train: %s", err);
    assert_int_equal(sl_blas_threads(), caller);
    sl_blas_set_threads(1);
    tt_rmtree(dir);
}

/* An interrupt asked for returns SL_TRAIN_STOPPED, saying where; a failure
 * whose message holds the same word (a manifest in a folder named so: the
 * command told them apart by the text, exit 143 for a failure) returns -1. */
static void stopped_apart_from_failures(void **state)
{
    (void)state;
    char dir[512], sub[600];
    tt_mkdtemp(dir, sizeof dir, "stopped");
    snprintf(sub, sizeof sub, "%s/interrupted", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    tt_make_task_set(sub, "train.tsv", "tr", 2, 2.0, 1, NULL);
    tt_make_task_set(sub, "valid.tsv", "va", 1, 2.0, 2, NULL);
    sl_train_config c;
    tiny_config(&c, sub);
    volatile int asked = 1; /* before the first file's features */
    c.interrupt = &asked;
    char err[SL_ERR_LEN] = "";
    assert_int_equal(sl_train(&c, err, sizeof err), SL_TRAIN_STOPPED);
    if (strncmp(err, "interrupted while computing features (0 of 2 files done", 55))
        fail_msg("%s", err);
    c.interrupt = NULL; /* a real failure */
    c.valid_manifest = NULL;
    char none[700];
    snprintf(none, sizeof none, "%s/none.tsv", sub);
    c.train_manifest = none;
    assert_int_equal(sl_train(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "interrupted/none.tsv"));
    tt_rmtree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gives_blas_threads_back),
        cmocka_unit_test(stopped_apart_from_failures),
        cmocka_unit_test(learns_tones_noise_silence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
