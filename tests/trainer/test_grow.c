/* Growing a model (sl_model_grow, `seqlabel train --init M --layers N --d-ff F`):
 *  - a pre-norm model grown by two layers and by half its d_ff gives the same
 *    logits (within 1e-5) on random input, and one new weight set non-zero
 *    changes them (so the comparison can fail and the new layers do run);
 *  - the old weights are where they were, the new Q/K/V and linear1 rows are
 *    random, the new branches' output weights zero;
 *  - post-norm models and smaller shapes are refused;
 *  - through the command: one step at a learning rate of 1e-9 gives the grown
 *    shape and the base model's outputs; real training moves the zeros, and its
 *    first epoch's loss is well below a fresh model's (it starts where the base
 *    stands); --d-model with --init, a post-norm model or a smaller shape are
 *    refused with the file and the reason. */
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

#define NF 8
#define T 40

static sl_model *make(int norm_first)
{
    sl_model_config c;
    sl_model_config_default(&c);
    sl_feature_config f;
    sl_feature_config_default(&f);
    f.num_mel_bins = NF;
    c.n_features = NF;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 2;
    c.d_ff = 32;
    c.n_classes = 3;
    c.activation = SL_ACT_GELU;
    c.norm_first = norm_first;
    c.max_window = 64;
    c.stream_window = 64;
    c.stream_left = 16;
    c.stream_lookahead = 8;
    float mean[NF] = {0, 1, 2, 3, 4, 5, 6, 7}, istd[NF] = {1, 1, 1, 1, 2, 2, 2, 2};
    const char *names[3] = {"silence", "speech", "music"};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&c, &f, mean, istd, names, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    sl_model_init_params(m, 11);
    /* non-zero biases everywhere, as a trained model has them */
    float *p = sl_model_params(m);
    for (int i = 0; i < sl_model_num_tensors(m); i++) {
        const sl_tensor_info *t = sl_model_tensor(m, i);
        if (strstr(t->name, "bias"))
            for (size_t j = 0; j < t->count; j++)
                p[t->offset + j] = 0.05f * (float)((j * 7 + (size_t)i) % 11) - 0.25f;
    }
    return m;
}

static void logits(const sl_model *m, float *out)
{
    float feats[T * NF];
    for (int i = 0; i < T * NF; i++)
        feats[i] = sinf(0.37f * (float)i) + 0.3f * cosf(1.3f * (float)(i % 17));
    char err[SL_ERR_LEN];
    sl_encoder *e = sl_encoder_new(m, T, err, sizeof err);
    if (!e)
        fail_msg("%s", err);
    assert_int_equal(sl_encoder_forward(e, feats, T, out, NULL), 0);
    sl_encoder_free(e);
}

static double max_diff(const float *a, const float *b, size_t n)
{
    double d = 0.0;
    for (size_t i = 0; i < n; i++)
        d = fmax(d, fabs((double)a[i] - (double)b[i]));
    return d;
}

static const float *tensor(const sl_model *m, const char *name, size_t *count)
{
    int i = sl_model_find_tensor(m, name);
    if (i < 0)
        fail_msg("no tensor %s", name);
    const sl_tensor_info *t = sl_model_tensor(m, i);
    if (count)
        *count = t->count;
    return sl_model_params_const(m) + t->offset;
}

static size_t zeros(const float *p, size_t n)
{
    size_t z = 0;
    for (size_t i = 0; i < n; i++)
        z += p[i] == 0.0f;
    return z;
}

static void grown_model_computes_the_same(void **state)
{
    (void)state;
    sl_model *m = make(1);
    char err[SL_ERR_LEN];
    sl_model *g = sl_model_grow(m, 4, 48, 5, err, sizeof err);
    if (!g)
        fail_msg("%s", err);
    const sl_model_config *gc = sl_model_get_config(g);
    assert_int_equal(gc->n_layers, 4);
    assert_int_equal(gc->d_ff, 48);
    assert_int_equal(gc->d_model, 16);
    assert_memory_equal(sl_model_norm_inv_std(g), sl_model_norm_inv_std(m), NF * sizeof(float));
    float a[T * 3], b[T * 3];
    logits(m, a);
    logits(g, b);
    double d = max_diff(a, b, T * 3), spread = max_diff(a, a + 3, T * 3 - 3);
    printf("grown vs original: largest logit difference %.3g (logits spread %.3g)\n", d, spread);
    assert_true(d <= 1e-5);
    assert_true(spread > 0.1);
    /* A new layer that adds something changes the outputs. */
    size_t n;
    float *w = sl_model_params(g) +
               sl_model_tensor(g, sl_model_find_tensor(g, "encoder.layers.3.linear2.weight"))->offset;
    w[5] = 0.5f;
    logits(g, b);
    d = max_diff(a, b, T * 3);
    printf("with one new weight set to 0.5: %.3g\n", d);
    assert_true(d > 1e-3);
    w[5] = 0.0f;

    /* Old weights kept; new inputs random, new outputs zero. */
    const float *old1 = tensor(m, "encoder.layers.1.linear1.weight", &n);
    const float *new1 = tensor(g, "encoder.layers.1.linear1.weight", NULL);
    assert_memory_equal(old1, new1, n * sizeof(float)); /* rows 0..31 come first */
    assert_int_equal(zeros(new1 + n, 16 * 16), 0);      /* rows 32..47 random */
    const float *old2 = tensor(m, "encoder.layers.1.linear2.weight", NULL);
    const float *new2 = tensor(g, "encoder.layers.1.linear2.weight", NULL);
    for (int r = 0; r < 16; r++) {
        assert_memory_equal(new2 + r * 48, old2 + r * 32, 32 * sizeof(float));
        assert_int_equal(zeros(new2 + r * 48 + 32, 16), 16);
    }
    tensor(g, "encoder.layers.2.self_attn.in_proj_weight", &n);
    assert_int_equal(zeros(tensor(g, "encoder.layers.2.self_attn.in_proj_weight", NULL), n), 0);
    tensor(g, "encoder.layers.2.self_attn.out_proj.weight", &n);
    assert_int_equal(zeros(tensor(g, "encoder.layers.2.self_attn.out_proj.weight", NULL), n), n);
    assert_int_equal(zeros(tensor(g, "encoder.layers.3.linear2.bias", NULL), 16), 16);
    assert_memory_equal(tensor(g, "encoder.norm.bias", NULL), tensor(m, "encoder.norm.bias", NULL),
                        16 * sizeof(float));
    assert_memory_equal(tensor(g, "classifier.weight", NULL),
                        tensor(m, "classifier.weight", NULL), 3 * 16 * sizeof(float));
    sl_model_free(g);

    /* Only more layers, or only a wider d_ff: the same too. */
    g = sl_model_grow(m, 2, 64, 6, err, sizeof err);
    assert_non_null(g);
    logits(g, b);
    assert_true(max_diff(a, b, T * 3) <= 1e-5);
    sl_model_free(g);
    g = sl_model_grow(m, 3, 32, 7, err, sizeof err);
    assert_non_null(g);
    logits(g, b);
    assert_true(max_diff(a, b, T * 3) <= 1e-5);
    sl_model_free(g);
    sl_model_free(m);
}

static void refusals(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_model *post = make(0), *pre = make(1);
    assert_null(sl_model_grow(post, 3, 32, 1, err, sizeof err));
    printf("post-norm: %s\n", err);
    assert_non_null(strstr(err, "pre-norm"));
    assert_null(sl_model_grow(pre, 1, 32, 1, err, sizeof err));
    printf("fewer layers: %s\n", err);
    assert_non_null(strstr(err, "never shrinks"));
    assert_null(sl_model_grow(pre, 2, 16, 1, err, sizeof err));
    assert_non_null(strstr(err, "never shrinks"));
    sl_model_free(post);
    sl_model_free(pre);
}

/* ---- through the command ---- */

#define BASE "--mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 --norm pre --activation gelu"
#define RUN "--window 64 --batch 8 --warmup 5 --quiet"

static const char *args(const char *opts)
{
    static char a[3072];
    snprintf(a, sizeof a, "--manifest '%s/all.tsv' --cache-dir '%s/cache' " RUN " %s", dir, dir, opts);
    return a;
}

static int setup(void **state)
{
    (void)state;
    if (!getenv("SL_SEQLABEL"))
        return -1;
    tt_mkdtemp(dir, sizeof dir, "grow");
    if (tt_make_train_valid(dir, 31))
        return -1;
    for (int pre = 0; pre < 2; pre++)
        if (tt_train(dir, pre ? "base" : "post",
                     args(pre ? BASE " --lr 3e-3 --steps 60 --seed 7"
                              : BASE " --norm post --lr 3e-3 --steps 60 --seed 7"), NULL) != 0)
            return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

static void train_ok(const char *opts, const char *tag) { tt_train_ok(dir, tag, args(opts)); }
static sl_model *load(const char *tag) { return tt_load_model(dir, tag); }

static void command_grows_the_model(void **state)
{
    (void)state;
    char opts[1024];
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --layers 3 --d-ff 96 --steps 1 --lr 1e-9 "
             "--warmup 0 --weight-decay 0 --seed 3", dir);
    train_ok(opts, "grown0");
    sl_model *base = load("base"), *g = load("grown0");
    assert_int_equal(sl_model_get_config(g)->n_layers, 3);
    assert_int_equal(sl_model_get_config(g)->d_ff, 96);
    float feats[64 * 24], a[64 * 3], b[64 * 3];
    for (int i = 0; i < 64 * 24; i++)
        feats[i] = sinf(0.11f * (float)i);
    char err[SL_ERR_LEN];
    sl_encoder *ea = sl_encoder_new(base, 64, err, sizeof err), *eb = sl_encoder_new(g, 64, err, sizeof err);
    assert_true(ea && eb);
    sl_encoder_forward(ea, feats, 64, a, NULL);
    sl_encoder_forward(eb, feats, 64, b, NULL);
    double d = max_diff(a, b, 64 * 3);
    printf("grown by the command, one step at lr 1e-9: largest logit difference %.3g\n", d);
    assert_true(d <= 1e-4);
    sl_encoder_free(ea);
    sl_encoder_free(eb);
    sl_model_free(g);

    /* Real training: the zero branches move, and it starts where the base stands. */
    snprintf(opts, sizeof opts, "--init '%s/base.slm' --layers 2 --steps 3 --lr 1e-3 --seed 4", dir);
    train_ok(opts, "grown");
    train_ok(BASE " --layers 2 --steps 3 --lr 1e-3 --seed 4", "fresh");
    g = load("grown");
    size_t n;
    const float *w = tensor(g, "encoder.layers.1.self_attn.out_proj.weight", &n);
    printf("new layer's out_proj after 3 steps: %zu of %zu weights still zero\n", zeros(w, n), n);
    assert_true(zeros(w, n) < n / 10);
    double lg = tt_epoch_train_loss(dir, "grown", 1), lf = tt_epoch_train_loss(dir, "fresh", 1);
    double lb = tt_epoch_train_loss(dir, "base", 1);
    printf("first epoch train loss: grown %.4f, fresh %.4f (base's first %.4f)\n", lg, lf, lb);
    assert_true(lg < 0.5 * lf);
    sl_model_free(g);
    sl_model_free(base);
}

static void refused(const char *what, int code, const char *opts_fmt, const char *want1,
                    const char *want2)
{
    char opts[1024], *err = NULL;
    snprintf(opts, sizeof opts, opts_fmt, dir);
    int rc = tt_train(dir, "refused", args(opts), &err);
    tt_expect_refusal(what, code, rc, err, want1, want2);
}

static void command_refusals(void **state)
{
    (void)state;
    refused("grow post-norm", 1, "--init '%s/post.slm' --layers 2 --steps 1", "post.slm", "pre-norm");
    /* its own sizes given again grow nothing: a post-norm model fine-tunes */
    char opts[1024], *err = NULL;
    snprintf(opts, sizeof opts, "--init '%s/post.slm' --layers 1 --d-ff 64 --steps 1", dir);
    int rc = tt_train(dir, "same-size", args(opts), &err);
    if (rc != 0)
        fail_msg("--layers 1 --d-ff 64 on a 1-layer post-norm model: exit %d: %s", rc, err);
    free(err);
    refused("shrink", 1, "--init '%s/base.slm' --d-ff 32 --steps 1", "base.slm", "never shrinks");
    refused("d-model", 2, "--init '%s/base.slm' --layers 2 --d-model 64 --steps 1", "--d-model",
            "base.slm");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grown_model_computes_the_same),
        cmocka_unit_test(refusals),
        cmocka_unit_test(command_grows_the_model),
        cmocka_unit_test(command_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
