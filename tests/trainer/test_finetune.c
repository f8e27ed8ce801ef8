/* `seqlabel train --init MODEL` fine-tunes a saved model:
 *  - one step at a learning rate of 1e-9 leaves the starting weights (within
 *    1e-6), normalisation, features and classes as they were, while a fresh
 *    model of the same shape is far from them (so the comparison can fail);
 *  - training from the model starts where it ended: the first epoch's loss is
 *    well below a fresh run's first epoch, close to that of the epoch it was saved at;
 *  - a fine-tuning run stopped and resumed ends byte-identical to a straight one,
 *    and a checkpoint from a run from scratch is not taken for one;
 *  - other classes (--classes) give the model a new output layer over its
 *    encoder: a class it had keeps its weights, so its scores do not move,
 *    a new one starts at random; trained for the new classes it is ahead of a
 *    model from random weights given the same steps;
 *  - model or feature options, a longer window than the model takes, or a
 *    missing file are refused with the file and the reason. */
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
/* Steps that leave a model from random weights short of the task (below). */
#define TRANSFER_STEPS "10"

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
             "'%s' train --manifest '%s/all.tsv' --out '%s/base.slm' --cache-dir '%s/cache' " SHAPE
             " " RUN " --lr 3e-3 --steps 60 --seed 7 > '%s/base.report'",
             seqlabel, dir, dir, dir, dir);
    if (tt_run(cmd, NULL) != 0)
        return -1;
    /* The same audio labelled with classes of its own: "other" for noise and
     * silence, which the base model tells apart, and "tone" as before. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && for f in tr_0 tr_1 va_0; do "
             "sed -e 's/\tnoise$/\tother/' -e 's/\tsilence$/\tother/' $f.txt > $f.other.txt "
             "|| exit 1; done && sed 's/[.]txt/.other.txt/' all.tsv > other.tsv",
             dir);
    return tt_run(cmd, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

/* The arguments of `seqlabel train` on all.tsv (or the --manifest in opts: the last
 * one given counts) writing dir/<tag>.slm, .ckpt and .report. */
static const char *args(const char *opts, const char *tag)
{
    static char a[6144];
    snprintf(a, sizeof a, "--manifest '%s/all.tsv' --checkpoint '%s/%s.ckpt' --cache-dir '%s/cache' "
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
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --steps 1 --lr 1e-9 --warmup 0 "
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

/* Without --window a fine-tune's crops are the model's streaming window (the
 * base model's 64 frames), the windows it will label in, not a new model's 400. */
static void crops_are_the_models_window(void **state)
{
    (void)state;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/all.tsv' --init '%s/base.slm' --out "
             "'%s/crops.slm' --cache-dir '%s/cache' --batch 8 --steps 1 > /dev/null",
             seqlabel, dir, dir, dir, dir);
    char *err = NULL;
    if (tt_run(cmd, &err))
        fail_msg("%s", err);
    if (!strstr(err, " of 8 x 64 frames"))
        fail_msg("not the model's window: %s", err);
    free(err);
}

static void training_continues_from_the_model(void **state)
{
    (void)state;
    char opts[1024];
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --steps 3 --lr 1e-3 --seed 5", dir);
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
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --steps 12 --lr 1e-3 --seed 9", dir);
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

/* Logits of model m on `T` frames of feats (normalised features). */
static float *logits_of(const sl_model *m, const float *feats, int T)
{
    char err[256];
    sl_encoder *e = sl_encoder_new(m, T, err, sizeof err);
    if (!e)
        fail_msg("%s", err);
    float *lg = malloc((size_t)T * sl_model_get_config(m)->n_classes * sizeof *lg);
    assert_non_null(lg);
    assert_int_equal(sl_encoder_forward(e, feats, T, lg, NULL), 0);
    sl_encoder_free(e);
    return lg;
}

/* sl_model_with_classes: the encoder as it was, a kept class scoring what it
 * scored wherever it now stands, a new class at random. */
static void other_classes_keep_the_encoder(void **state)
{
    (void)state;
    sl_model *base = load("base");
    const sl_model_config *cb = sl_model_get_config(base);
    const int d = cb->d_model, T = 40, F = cb->n_features;
    const char *names[] = {"other", "tone"};
    char err[256];
    sl_model *m = sl_model_with_classes(base, names, 2, 11, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    const sl_model_config *cm = sl_model_get_config(m);
    assert_int_equal(cm->n_classes, 2);
    assert_string_equal(sl_model_class_name(m, 0), "other");
    assert_string_equal(sl_model_class_name(m, 1), "tone");
    assert_int_equal(cm->d_model, d);
    assert_int_equal(cm->stream_window, cb->stream_window);
    assert_memory_equal(sl_model_norm_mean(m), sl_model_norm_mean(base), (size_t)F * sizeof(float));
    /* every tensor but the output layer's, byte for byte */
    int compared = 0;
    for (int i = 0; i < sl_model_num_tensors(base); i++) {
        const sl_tensor_info *t = sl_model_tensor(base, i);
        if (!strncmp(t->name, "classifier.", 11))
            continue;
        const sl_tensor_info *u = sl_model_tensor(m, sl_model_find_tensor(m, t->name));
        assert_non_null(u);
        assert_int_equal(u->count, t->count);
        assert_memory_equal(sl_model_params_const(m) + u->offset,
                            sl_model_params_const(base) + t->offset, t->count * sizeof(float));
        compared++;
    }
    assert_int_equal(compared, sl_model_num_tensors(base) - 2);
    /* the same frames: "tone" scores as the base model's "tone", "other" not
     * as any class of it */
    float *feats = malloc((size_t)T * F * sizeof *feats);
    assert_non_null(feats);
    uint64_t s = 5;
    for (int i = 0; i < T * F; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        feats[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 4.0 - 2.0);
    }
    float *lb = logits_of(base, feats, T), *lm = logits_of(m, feats, T);
    const int tone = sl_model_class_index(base, "tone"), nb = cb->n_classes;
    double same = 0.0, apart = INFINITY;
    for (int t = 0; t < T; t++)
        same = fmax(same, fabs((double)lm[t * 2 + 1] - lb[t * nb + tone]));
    for (int k = 0; k < nb; k++) {
        double d_k = 0.0;
        for (int t = 0; t < T; t++)
            d_k = fmax(d_k, fabs((double)lm[t * 2] - lb[t * nb + k]));
        apart = fmin(apart, d_k);
    }
    printf("largest change of the kept class's logit %.3g; the new class's logits %.3g or "
           "more from any old class's\n", same, apart);
    assert_true(same <= 1e-5);
    assert_true(apart > 0.1);
    free(lb);
    free(lm);
    free(feats);
    sl_model_free(m);
    /* the model's own classes in another order: the same model, its rows reordered */
    const char *reversed[SL_MAX_CLASSES];
    for (int k = 0; k < nb; k++)
        reversed[k] = sl_model_class_name(base, nb - 1 - k);
    m = sl_model_with_classes(base, reversed, nb, 11, err, sizeof err);
    assert_non_null(m);
    const sl_tensor_info *wb = sl_model_tensor(base, sl_model_find_tensor(base, "classifier.weight"));
    const sl_tensor_info *wm = sl_model_tensor(m, sl_model_find_tensor(m, "classifier.weight"));
    for (int k = 0; k < nb; k++)
        assert_memory_equal(sl_model_params_const(m) + wm->offset + (size_t)k * d,
                            sl_model_params_const(base) + wb->offset + (size_t)(nb - 1 - k) * d,
                            (size_t)d * sizeof(float));
    sl_model_free(m);
    /* refusals */
    const char *one[] = {"tone"}, *twice[] = {"tone", "tone"};
    assert_null(sl_model_with_classes(base, one, 1, 11, err, sizeof err));
    assert_non_null(strstr(err, "2 to"));
    assert_null(sl_model_with_classes(base, twice, 2, 11, err, sizeof err));
    assert_non_null(strstr(err, "twice"));
    /* a new class's name that lists and RTTM could not carry is refused; a
     * model made before that rule keeps such a name of its own */
    const char *spaced[] = {"tone", "dog bark"};
    assert_null(sl_model_with_classes(base, spaced, 2, 11, err, sizeof err));
    assert_non_null(strstr(err, "new class 'dog bark': a class name holds no spaces"));
    sl_model_config oc = *sl_model_get_config(base);
    oc.n_classes = 2;
    sl_model *old = sl_model_create(&oc, sl_model_feature_config(base), sl_model_norm_mean(base),
                                    sl_model_norm_inv_std(base), spaced, err, sizeof err);
    assert_non_null(old);
    const char *kept[] = {"dog bark", "tone", "bird"};
    m = sl_model_with_classes(old, kept, 3, 11, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    assert_string_equal(sl_model_class_name(m, 0), "dog bark");
    sl_model_free(m);
    sl_model_free(old);
    sl_model_free(base);
}

/* "best valid_macro_f1 X at step ..." of dir/<tag>.report. */
static double best_macro_f1(const char *tag)
{
    char name[64];
    snprintf(name, sizeof name, "%s.report", tag);
    char *rep = tt_read_file(tt_path(dir, name), NULL);
    assert_non_null(rep);
    const char *b = strstr(rep, "best valid_macro_f1 ");
    if (!b)
        fail_msg("no best valid_macro_f1 in %s:\n%s", name, rep);
    double v = atof(b + strlen("best valid_macro_f1 "));
    free(rep);
    return v;
}

/* The command: --classes naming other classes trains them from the model's
 * encoder, and that is worth steps. */
static void training_other_classes(void **state)
{
    (void)state;
    char opts[2048];
    snprintf(opts, sizeof opts, "--manifest '%s/other.tsv' --init '%s/base.slm' --classes other,tone "
             "--steps 1 --lr 1e-9 --warmup 0 --weight-decay 0 --seed 3", dir, dir);
    train_ok(opts, "own_tiny");
    sl_model *base = load("base"), *own = load("own_tiny");
    assert_int_equal(sl_model_get_config(own)->n_classes, 2);
    assert_string_equal(sl_model_class_name(own, 0), "other");
    assert_string_equal(sl_model_class_name(own, 1), "tone");
    const sl_tensor_info *wb = sl_model_tensor(base, sl_model_find_tensor(base, "classifier.weight"));
    const sl_tensor_info *wo = sl_model_tensor(own, sl_model_find_tensor(own, "classifier.weight"));
    const int d = sl_model_get_config(base)->d_model, tone = sl_model_class_index(base, "tone");
    double moved = 0.0;
    for (int j = 0; j < d; j++)
        moved = fmax(moved, fabs((double)sl_model_params_const(own)[wo->offset + d + j] -
                                 sl_model_params_const(base)[wb->offset + (size_t)tone * d + j]));
    assert_true(moved <= 1e-6);
    sl_model_free(base);
    sl_model_free(own);

    /* the same few steps from the model and from random weights */
    snprintf(opts, sizeof opts, "--manifest '%s/other.tsv' --init '%s/base.slm' --classes other,tone "
             "--steps " TRANSFER_STEPS " --lr 3e-3 --seed 13", dir, dir);
    train_ok(opts, "own");
    snprintf(opts, sizeof opts, "--manifest '%s/other.tsv' " SHAPE " --classes other,tone "
             "--steps " TRANSFER_STEPS " --lr 3e-3 --seed 13", dir);
    train_ok(opts, "own_scratch");
    double f_own = best_macro_f1("own"), f_scratch = best_macro_f1("own_scratch");
    printf("validation macro F1 after " TRANSFER_STEPS " steps: from the model %.4f, from random "
           "weights %.4f\n", f_own, f_scratch);
    assert_true(f_own >= 0.85);
    assert_true(f_own > f_scratch + 0.1);
}

static void expect_refusal(const char *opts, int code, const char *want1, const char *want2)
{
    char *err = NULL;
    int rc = train(opts, "refused", &err);
    tt_expect_refusal(opts, code, rc, err, want1, want2);
}

/* A fine-tune on labels of some of the model's classes (a tone alone) trains:
 * the others have learnt already; a class --classes adds that no frame holds
 * starts untrained and is refused, named. */
static void kept_classes_need_no_frames(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "tone_only.txt"), "0\t6\ttone\n");
    tt_write_text(tt_path(dir, "tone_only.tsv"), "tr_0.wav\ttone_only.txt\n");
    char opts[2048];
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --manifest '%s/tone_only.tsv' --steps 1 --seed 3",
             dir, dir);
    train_ok(opts, "tone_only");
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --manifest '%s/tone_only.tsv' --steps 1 "
             "--classes tone,silence,hum", dir, dir);
    expect_refusal(opts, 1, "no training frame is of class 'hum'", "");
}

static void refusals(void **state)
{
    (void)state;
    char opts[2048], base[600];
    snprintf(base, sizeof base, "%s/base.slm", dir);
    snprintf(opts, sizeof opts, "--init '%s' --steps 2 --d-model 64", base);
    expect_refusal(opts, 2, "--d-model", "--init");
    snprintf(opts, sizeof opts, "--mel-bins 40 --init '%s' --steps 2", base);
    expect_refusal(opts, 2, "--mel-bins", "--init");
    snprintf(opts, sizeof opts, "--init '%s/absent.slm' --steps 2", dir);
    expect_refusal(opts, 1, "absent.slm", "");
    sl_model *m = load("base");
    const int max_window = sl_model_get_config(m)->max_window;
    sl_model_free(m);
    snprintf(opts, sizeof opts, "--init '%s' --steps 2 --classes tone", base);
    expect_refusal(opts, 1, "base.slm", "2 to");
    /* the labels name a class the model lacks, and --classes does not */
    snprintf(opts, sizeof opts, "--init '%s' --steps 2 --manifest '%s/other.tsv'", base, dir);
    expect_refusal(opts, 1, "class 'other'", "--classes");
    /* a time mask checked against the model's window (64) and features (24 bins),
     * not a new model's 400 frames and the options' 80 bins */
    snprintf(opts, sizeof opts, "--init '%s' --steps 2 --augment-time-mask 300", base);
    expect_refusal(opts, 2, "half the 24 feature bins and half the 64-frame window", "");
    char want[64];
    snprintf(opts, sizeof opts, "--init '%s' --steps 2 --window %d", base, max_window + 1);
    snprintf(want, sizeof want, "at most %d frames", max_window);
    expect_refusal(opts, 2, "base.slm", want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(starts_from_the_model),
        cmocka_unit_test(crops_are_the_models_window),
        cmocka_unit_test(kept_classes_need_no_frames),
        cmocka_unit_test(training_continues_from_the_model),
        cmocka_unit_test(resume_is_exact),
        cmocka_unit_test(other_classes_keep_the_encoder),
        cmocka_unit_test(training_other_classes),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
