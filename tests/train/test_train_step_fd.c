/* The whole training step on tiny models against central finite differences
 * of its own loss, for every parameter (post/pre-norm, ReLU/GELU, band on/off,
 * Q/K/V bias on/off, scaled input on/off); its forward against the inference
 * encoder window by window; the edge cases of its interface. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/gemm_amx.h"
#include "model/train_step.h"
#include "train_test_util.h"

enum { B = 2, T = 7, NF = 5, NC = 3 };

typedef struct {
    const char *name;
    int norm_first, gelu, band_left, band_right, qkv_bias, scale_input;
} tiny_cfg;

static const tiny_cfg CFGS[] = {
    {"post relu full", 0, 0, -1, -1, 1, 0},
    {"pre gelu band 2/1 no-qkv-bias scaled", 1, 1, 2, 1, 0, 1},
    {"post gelu band 1/- scaled", 0, 1, 1, -1, 1, 1},
    {"pre relu band -/0", 1, 0, -1, 0, 1, 0},
};

static sl_model *tiny_model(const tiny_cfg *t, uint64_t seed)
{
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    fc.num_mel_bins = NF;
    sl_model_config mc;
    sl_model_config_default(&mc);
    mc.n_features = sl_feature_dim(&fc);
    assert_int_equal(mc.n_features, NF);
    mc.d_model = 8;
    mc.n_heads = 2;
    mc.n_layers = 2;
    mc.d_ff = 12;
    mc.n_classes = NC;
    mc.max_window = 16;
    mc.stream_window = 16;
    mc.stream_left = 2;
    mc.stream_lookahead = 2;
    mc.norm_first = t->norm_first;
    mc.activation = t->gelu ? SL_ACT_GELU : SL_ACT_RELU;
    mc.band_left = t->band_left;
    mc.band_right = t->band_right;
    mc.qkv_bias = t->qkv_bias;
    mc.scale_input = t->scale_input;
    const char *names[NC] = {"a", "b", "c"};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&mc, &fc, NULL, NULL, names, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    sl_model_init_params(m, seed);
    /* shake every parameter, so no bias is 0 and no LayerNorm gain 1 */
    float *p = sl_model_params(m);
    uint64_t s = seed;
    for (size_t i = 0; i < sl_model_num_params(m); i++)
        p[i] += (float)(0.2 * test_uniform(&s));
    return m;
}

static void batch(float *x, int32_t *labels, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < B * T * NF; i++)
        x[i] = (float)(1.5 * test_uniform(&s));
    for (int i = 0; i < B * T; i++) {
        double u = test_uniform(&s);
        labels[i] = u < -0.6 ? -1 : (int32_t)((u + 1.0) * 1.5) % NC;
    }
}

static void test_finite_differences(void **state)
{
    (void)state;
    const float w[NC] = {0.7f, 1.6f, 1.0f};
    const float h = 1e-2f;
    const double tol = 2e-3;
    for (size_t k = 0; k < sizeof CFGS / sizeof CFGS[0]; k++) {
        sl_model *m = tiny_model(&CFGS[k], 100 + k);
        char err[SL_ERR_LEN];
        sl_train_step *s = sl_train_step_new(m, B, T, err, sizeof err);
        assert_non_null(s);
        size_t np = sl_model_num_params(m);
        float x[B * T * NF], *g = malloc(4 * np), *scratch = malloc(4 * np);
        int32_t labels[B * T];
        batch(x, labels, 7 + k);
        float loss = sl_train_step_run(s, m, x, labels, w, B, T, g, NULL, NULL);
        assert_true(loss > 0);
        float *p = sl_model_params(m);
        double gmax = 0, worst = 0;
        size_t worst_i = 0;
        for (size_t i = 0; i < np; i++)
            gmax = fmax(gmax, fabs(g[i]));
        int retried = 0;
        for (size_t i = 0; i < np; i++) {
            /* A step that moves a ReLU input across 0 measures no slope: when
             * the quotient disagrees, smaller steps must agree (a wrong
             * gradient disagrees at every step). */
            double e = 0;
            for (int attempt = 0; attempt < 3; attempt++) {
                float hh = h / (float)(1 << (2 * attempt)), p0 = p[i];
                p[i] = p0 + hh;
                double hp = p[i];
                double lp = sl_train_step_run(s, m, x, labels, w, B, T, scratch, NULL, NULL);
                p[i] = p0 - hh;
                double hm = p[i];
                double lm = sl_train_step_run(s, m, x, labels, w, B, T, scratch, NULL, NULL);
                p[i] = p0;
                e = fabs((lp - lm) / (hp - hm) - g[i]);
                if (e < tol * gmax)
                    break;
                retried += attempt == 0;
            }
            if (e > worst) {
                worst = e;
                worst_i = i;
            }
        }
        const char *tname = "";
        for (int t = 0; t < sl_model_num_tensors(m); t++) {
            const sl_tensor_info *ti = sl_model_tensor(m, t);
            if (worst_i >= ti->offset && worst_i < ti->offset + ti->count)
                tname = ti->name;
        }
        printf("%-40s %zu params, loss %.5f, max|g| %.3g, worst finite-difference error %.2e "
               "of max|g| (%s), %d needed smaller steps\n",
               CFGS[k].name, np, loss, gmax, worst / gmax, tname, retried);
        assert_true(worst / gmax < tol);
        if (CFGS[k].gelu)
            assert_int_equal(retried, 0); /* smooth: the first step must agree everywhere */
        else
            assert_true(retried < (int)np / 20); /* a few ReLU inputs near 0, no more */
        free(g);
        free(scratch);
        sl_train_step_free(s);
        sl_model_free(m);
    }
}

/* Training computes the function inference computes: logits per window as
 * sl_encoder_forward gives them. */
static void test_forward_matches_encoder(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof CFGS / sizeof CFGS[0]; k++) {
        sl_model *m = tiny_model(&CFGS[k], 300 + k);
        char err[SL_ERR_LEN];
        sl_train_step *s = sl_train_step_new(m, B, T, err, sizeof err);
        sl_encoder *e = sl_encoder_new(m, T, err, sizeof err);
        assert_non_null(s);
        assert_non_null(e);
        float x[B * T * NF], logits[B * T * NC], ref[T * NC];
        float *g = malloc(4 * sl_model_num_params(m));
        int32_t labels[B * T];
        batch(x, labels, 11 + k);
        sl_train_step_run(s, m, x, labels, NULL, B, T, g, logits, NULL);
        /* both in fp32 arithmetic: 1e-5; the encoder's AMX products (bf16x3,
         * model/gemm_amx.h) are within ~2^-15 per product instead, and held
         * to the PyTorch parity bound (tests/model/test_encoder_parity.c) */
        const double tol = sl_gemm_amx_available() ? 1e-4 : 1e-5;
        for (int b = 0; b < B; b++) {
            assert_int_equal(sl_encoder_forward(e, x + b * T * NF, T, ref, NULL), 0);
            for (int i = 0; i < T * NC; i++)
                assert_float_equal(logits[b * T * NC + i], ref[i], tol * fmax(1, fabs(ref[i])));
        }
        free(g);
        sl_encoder_free(e);
        sl_train_step_free(s);
        sl_model_free(m);
    }
}

static void test_edges(void **state)
{
    (void)state;
    sl_model *m = tiny_model(&CFGS[0], 5);
    char err[SL_ERR_LEN] = "";
    assert_null(sl_train_step_new(m, 0, 4, err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_null(sl_train_step_new(m, 2, 17, err, sizeof err)); /* beyond max_window */
    sl_train_step *s = sl_train_step_new(m, B, T, err, sizeof err);
    size_t np = sl_model_num_params(m);
    float x[B * T * NF], *g = malloc(4 * np);
    int32_t labels[B * T];
    batch(x, labels, 3);
    /* nothing labelled: loss 0, no frame counted, every gradient 0 */
    for (int i = 0; i < B * T; i++)
        labels[i] = -1;
    for (size_t i = 0; i < np; i++)
        g[i] = NAN;
    int64_t counted = 99;
    assert_true(sl_train_step_run(s, m, x, labels, NULL, B, T, g, NULL, &counted) == 0.0f);
    assert_int_equal(counted, 0);
    for (size_t i = 0; i < np; i++)
        assert_true(g[i] == 0.0f);
    /* a smaller batch than allocated works; a bigger one is refused */
    batch(x, labels, 3);
    assert_true(sl_train_step_run(s, m, x, labels, NULL, 1, T - 2, g, NULL, &counted) > 0.0f);
    assert_true(counted > 0);
    assert_true(sl_train_step_run(s, m, x, labels, NULL, B + 1, T, g, NULL, &counted) == 0.0f);
    assert_int_equal(counted, 0);
    free(g);
    sl_train_step_free(s);
    sl_train_step_free(NULL);
    sl_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finite_differences),
        cmocka_unit_test(test_forward_matches_encoder),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
