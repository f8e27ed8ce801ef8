/* The training step against PyTorch autograd (tests/fixtures/train, written by
 * gen_train_fixtures.py from tools/reference_model.py in float64): loss,
 * logits and every parameter gradient; AdamW steps against torch.optim.AdamW
 * and clipping against torch.nn.utils.clip_grad_norm_ on the same gradients. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model_internal.h"
#include "model/train_step.h"
#include "train_test_util.h"

typedef struct {
    char name[64];
    int B, T;
    size_t n_params;
    double loss, norm, max_norm;
} fixture_case;

static struct {
    fixture_case cases[16];
    int n;
    sl_adamw_config adamw;
    float scales[8];
    int n_scales;
} F;

static int load_cases(void **state)
{
    (void)state;
    size_t size;
    char *txt = read_fixture("cases.txt", &size);
    txt[size] = 0;
    F.n = 0;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "# adamw", 7)) {
            double lr, b1, b2, eps, wd;
            char steps[128];
            assert_int_equal(sscanf(line, "# adamw lr %lf beta1 %lf beta2 %lf eps %lf "
                                          "weight_decay %lf steps %127s",
                                    &lr, &b1, &b2, &eps, &wd, steps), 6);
            F.adamw = (sl_adamw_config){(float)lr, (float)b1, (float)b2, (float)eps, (float)wd};
            F.n_scales = 0;
            for (char *p = steps; *p && F.n_scales < 8;) {
                F.scales[F.n_scales++] = strtof(p, &p);
                if (*p == ',')
                    p++;
            }
            continue;
        }
        if (line[0] == '#')
            continue;
        fixture_case *c = &F.cases[F.n];
        assert_int_equal(sscanf(line, "%63s %d %d %zu %lf %lf %lf", c->name, &c->B, &c->T,
                                &c->n_params, &c->loss, &c->norm, &c->max_norm), 7);
        F.n++;
    }
    free(txt);
    assert_true(F.n >= 5);
    assert_int_equal(F.n_scales, 3);
    return 0;
}

static void *case_file(const fixture_case *c, const char *ext, size_t want_bytes)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", c->name, ext);
    size_t size;
    void *p = read_fixture(name, &size);
    if (size != want_bytes)
        fail_msg("%s: %zu bytes, expected %zu", name, size, want_bytes);
    return p;
}

static sl_model *case_model(const fixture_case *c)
{
    char name[128], path[4096], err[SL_ERR_LEN];
    snprintf(name, sizeof name, "%s.slm", c->name);
    sl_model *m = sl_model_load(train_fixture_path(path, sizeof path, name), err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    assert_int_equal(sl_model_num_params(m), c->n_params);
    return m;
}

/* max |a - b| over a tensor, relative to the tensor's largest |b| */
static double tensor_rel_err(const float *a, const float *b, size_t n)
{
    double worst = 0, scale = 0;
    for (size_t i = 0; i < n; i++) {
        worst = fmax(worst, fabs((double)a[i] - b[i]));
        scale = fmax(scale, fabs((double)b[i]));
    }
    return scale > 0 ? worst / scale : worst;
}

static void test_loss_and_gradients(void **state)
{
    (void)state;
    double overall = 0, overall_elem = 0;
    /* 3 threads with B = 2 leaves thread 0 without windows */
    for (int k = 0; k < F.n * 3; k++) {
        const fixture_case *c = &F.cases[k % F.n];
        const int threads = 1 + k / F.n;
        sl_model *m = case_model(c);
        const sl_model_config *cfg = sl_model_get_config(m);
        const size_t BT = (size_t)c->B * c->T, np = c->n_params;
        float *x = case_file(c, "x.f32", 4 * BT * cfg->n_features);
        int32_t *labels = case_file(c, "labels.i32", 4 * BT);
        float *w = case_file(c, "weights.f32", 4 * (size_t)cfg->n_classes);
        float *ref_logits = case_file(c, "logits.f32", 4 * BT * cfg->n_classes);
        float *ref_grads = case_file(c, "grads.f32", 4 * np);
        char err[SL_ERR_LEN];
        /* room for more windows and frames than used: the batch is laid out by its own B, T */
        int max_T = c->T + 3 <= cfg->max_window ? c->T + 3 : cfg->max_window;
        sl_train_step *s = sl_train_step_new(m, c->B + 1, max_T, err, sizeof err);
        if (!s)
            fail_msg("%s", err);
        if (sl_train_step_set_threads(s, threads, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(sl_train_step_threads(s), threads);
        float *grads = malloc(4 * np), *grads2 = malloc(4 * np);
        float *logits = malloc(4 * BT * cfg->n_classes);
        for (size_t i = 0; i < np; i++)
            grads[i] = grads2[i] = NAN; /* must be overwritten */
        int64_t counted = -1;
        float loss = sl_train_step_run(s, m, x, labels, w, c->B, c->T, grads, logits, &counted);
        int64_t want_counted = 0;
        for (size_t i = 0; i < BT; i++)
            want_counted += labels[i] >= 0;
        assert_int_equal(counted, want_counted);

        double loss_err = fabs(loss - c->loss) / fabs(c->loss);
        double logit_err = tensor_rel_err(logits, ref_logits, BT * cfg->n_classes);
        double worst = 0, worst_elem = 0;
        const char *worst_name = "";
        for (int t = 0; t < sl_model_num_tensors(m); t++) {
            const sl_tensor_info *ti = sl_model_tensor(m, t);
            double e = tensor_rel_err(grads + ti->offset, ref_grads + ti->offset, ti->count);
            if (e > worst) {
                worst = e;
                worst_name = ti->name;
            }
        }
        /* element-wise relative error where the reference is not tiny */
        double gmax = 0;
        for (size_t i = 0; i < np; i++)
            gmax = fmax(gmax, fabs(ref_grads[i]));
        for (size_t i = 0; i < np; i++)
            if (fabs(ref_grads[i]) > 1e-3 * gmax)
                worst_elem = fmax(worst_elem, fabs((double)grads[i] - ref_grads[i]) /
                                                  fabs(ref_grads[i]));
        printf("%d thread(s) %-24s loss %.9f (torch %.9f, rel %.1e)  logits %.1e  grads: worst tensor %.1e "
               "(%s), worst element (|g| > 1e-3 max) %.1e\n",
               threads, c->name, loss, c->loss, loss_err, logit_err, worst, worst_name, worst_elem);
        assert_true(loss_err < 1e-5);
        assert_true(logit_err < 1e-5);
        assert_true(worst < 1e-4);
        overall = fmax(overall, worst);
        overall_elem = fmax(overall_elem, worst_elem);

        /* a second run is bit-identical: nothing leaks from one step into the next */
        float loss2 = sl_train_step_run(s, m, x, labels, w, c->B, c->T, grads2, NULL, NULL);
        assert_true(loss2 == loss);
        assert_memory_equal(grads, grads2, 4 * np);

        free(grads);
        free(grads2);
        free(logits);
        free(x);
        free(labels);
        free(w);
        free(ref_logits);
        free(ref_grads);
        sl_train_step_free(s);
        sl_model_free(m);
    }
    printf("all cases: worst per-tensor gradient error %.2e, worst element %.2e\n", overall,
           overall_elem);
}

static void test_adamw_matches_torch(void **state)
{
    (void)state;
    double overall = 0;
    for (int k = 0; k < F.n; k++) {
        const fixture_case *c = &F.cases[k];
        sl_model *m = case_model(c);
        const size_t np = c->n_params;
        float *g = case_file(c, "grads.f32", 4 * np);
        float *want = case_file(c, "adamw.f32", 4 * np);
        float *p = malloc(4 * np), *mom = calloc(np, 4), *vel = calloc(np, 4), *gs = malloc(4 * np);
        uint8_t *mask = malloc(np);
        memcpy(p, sl_model_params_const(m), 4 * np);
        sl_model_decay_mask(m, mask);
        for (int st = 0; st < F.n_scales; st++) {
            for (size_t i = 0; i < np; i++)
                gs[i] = g[i] * F.scales[st];
            sl_adamw_update(p, gs, mom, vel, np, st + 1, &F.adamw, mask);
        }
        /* error relative to how far the parameters moved (about 3 lr) */
        double worst = 0, moved = 0;
        const float *p0 = sl_model_params_const(m);
        for (size_t i = 0; i < np; i++) {
            worst = fmax(worst, fabs((double)p[i] - want[i]));
            moved = fmax(moved, fabs((double)want[i] - p0[i]));
        }
        printf("%-26s AdamW x%d: max |param - torch| %.2e (params moved up to %.2e)\n", c->name,
               F.n_scales, worst, moved);
        assert_true(moved > F.adamw.lr);
        assert_true(worst <= 1e-6);
        overall = fmax(overall, worst);

        /* no decay mask = decay everything: must differ from the masked result */
        float *p2 = malloc(4 * np);
        memcpy(p2, p0, 4 * np);
        memset(mom, 0, 4 * np);
        memset(vel, 0, 4 * np);
        sl_adamw_update(p2, g, mom, vel, np, 1, &F.adamw, NULL);
        size_t bias0 = (size_t)sl_model_tensor(m, 1)->offset; /* input_proj.bias */
        double gb = g[bias0], lr = F.adamw.lr;
        double expect = p0[bias0] * (1.0 - lr * F.adamw.weight_decay) -
                        lr * gb / (fabs(gb) + F.adamw.eps);
        assert_true(fabs(p2[bias0] - expect) < 1e-6);
        free(p2);
        free(g);
        free(want);
        free(p);
        free(mom);
        free(vel);
        free(gs);
        free(mask);
        sl_model_free(m);
    }
    printf("AdamW worst %.2e\n", overall);
}

static void test_decay_mask(void **state)
{
    (void)state;
    sl_model *m = case_model(&F.cases[0]);
    size_t np = sl_model_num_params(m);
    uint8_t *mask = malloc(np);
    memset(mask, 7, np);
    sl_model_decay_mask(m, mask);
    for (int t = 0; t < sl_model_num_tensors(m); t++) {
        const sl_tensor_info *ti = sl_model_tensor(m, t);
        int matrix = strstr(ti->name, "weight") && !strstr(ti->name, "norm");
        for (size_t i = 0; i < ti->count; i++)
            if (mask[ti->offset + i] != matrix)
                fail_msg("%s: decay mask %d", ti->name, mask[ti->offset + i]);
    }
    free(mask);
    sl_model_free(m);
}

static void test_clip_matches_torch(void **state)
{
    (void)state;
    for (int k = 0; k < F.n; k++) {
        const fixture_case *c = &F.cases[k];
        const size_t np = c->n_params;
        float *g = case_file(c, "grads.f32", 4 * np);
        float *want = case_file(c, "clipped.f32", 4 * np);
        float *orig = malloc(4 * np);
        memcpy(orig, g, 4 * np);
        float norm = sl_grad_clip(g, np, (float)c->max_norm);
        double nerr = fabs(norm - c->norm) / c->norm;
        double worst = tensor_rel_err(g, want, np);
        printf("%-26s clip: norm %.7g (torch %.7g, rel %.1e), clipped grads rel %.1e\n",
               c->name, norm, c->norm, nerr, worst);
        assert_true(nerr < 1e-6);
        assert_true(worst < 1e-6);
        /* a bound above the norm leaves the gradients untouched */
        memcpy(g, orig, 4 * np);
        float n2 = sl_grad_clip(g, np, norm * 2.0f);
        assert_true(n2 == norm);
        assert_memory_equal(g, orig, 4 * np);
        free(g);
        free(want);
        free(orig);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loss_and_gradients),
        cmocka_unit_test(test_adamw_matches_torch),
        cmocka_unit_test(test_decay_mask),
        cmocka_unit_test(test_clip_matches_torch),
    };
    return cmocka_run_group_tests(tests, load_cases, NULL);
}
