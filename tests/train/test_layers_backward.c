/* Every backward function of model/layers_backward.h against central finite
 * differences of the matching forward function of model/layers.h.
 *
 * For a layer y = f(a, b, ...) the test draws a random output weighting R and
 * differentiates L = sum(R * y) (summed in double): the backward given dout = R
 * must equal dL/d(each input element). The forward runs in float, so the step
 * is large (1e-2) and the difference quotient divides by the step actually
 * taken ((double)(x + h) - (double)(x - h)); the tolerance is relative to the
 * largest gradient of each tensor. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/layers.h"
#include "model/layers_backward.h"
#include "train_test_util.h"

#define STEP 1e-2f

static uint64_t rng = 12345;

static float *rand_array(size_t n, double scale)
{
    float *a = malloc(sizeof(float) * (n ? n : 1));
    assert_non_null(a);
    for (size_t i = 0; i < n; i++)
        a[i] = (float)(scale * test_uniform(&rng));
    return a;
}

/* The layer under test: writes its output (n_out floats) from the current inputs. */
typedef void (*forward_fn)(void *ctx, float *out);

static double weighted_sum(const float *y, const float *R, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += (double)y[i] * R[i];
    return s;
}

/* Checks `analytic` (n values) = d sum(R * f()) / d x for the input x (n values)
 * that f reads. Returns the worst error relative to max |gradient|. */
static double check_input(const char *what, forward_fn f, void *ctx, float *x, size_t n,
                          const float *analytic, const float *R, size_t n_out, double tol)
{
    float *y = malloc(sizeof(float) * n_out);
    double worst = 0, gmax = 0;
    for (size_t i = 0; i < n; i++)
        gmax = fmax(gmax, fabs(analytic[i]));
    for (size_t i = 0; i < n; i++) {
        float x0 = x[i];
        x[i] = x0 + STEP;
        double hp = x[i];
        f(ctx, y);
        double lp = weighted_sum(y, R, n_out);
        x[i] = x0 - STEP;
        double hm = x[i];
        f(ctx, y);
        double lm = weighted_sum(y, R, n_out);
        x[i] = x0;
        double numeric = (lp - lm) / (hp - hm);
        worst = fmax(worst, fabs(numeric - analytic[i]));
    }
    free(y);
    double rel = gmax > 0 ? worst / gmax : worst;
    printf("  %-28s max|grad| %.3g  finite-difference error %.2e\n", what, gmax, rel);
    assert_true(gmax > 0); /* a vanishing gradient would make the check vacuous */
    assert_true(rel < tol);
    return rel;
}

/* ---- linear ---- */
typedef struct { float *in, *w, *b; int T, K, N; } linear_ctx;
static void linear_fwd(void *p, float *out)
{
    linear_ctx *c = p;
    sl_linear_forward(out, c->in, c->w, c->b, c->T, c->K, c->N, 0);
}

static void test_linear(void **state)
{
    (void)state;
    linear_ctx c = {NULL, NULL, NULL, 7, 9, 5};
    c.in = rand_array(63, 1.0);
    c.w = rand_array(45, 0.5);
    c.b = rand_array(5, 0.5);
    float *R = rand_array(35, 1.0), *din = rand_array(63, 1.0), *dw = rand_array(45, 1.0),
          *db = rand_array(5, 1.0), *prior = malloc(sizeof(float) * 63);
    sl_linear_backward(din, dw, db, R, c.in, c.w, c.T, c.K, c.N, 0);
    printf("linear 7x9 -> 5\n");
    check_input("d input", linear_fwd, &c, c.in, 63, din, R, 35, 1e-4);
    check_input("d weight", linear_fwd, &c, c.w, 45, dw, R, 35, 1e-4);
    check_input("d bias", linear_fwd, &c, c.b, 5, db, R, 35, 1e-4);
    /* accumulate adds the same input gradient onto what was there; NULL din is allowed */
    memcpy(prior, din, sizeof(float) * 63);
    float *acc = malloc(sizeof(float) * 63);
    for (int i = 0; i < 63; i++)
        acc[i] = 0.25f * (float)i;
    sl_linear_backward(acc, dw, NULL, R, c.in, c.w, c.T, c.K, c.N, 1);
    for (int i = 0; i < 63; i++)
        assert_float_equal(acc[i], 0.25f * (float)i + prior[i], 1e-5);
    sl_linear_backward(NULL, dw, db, R, c.in, c.w, c.T, c.K, c.N, 0);
    free(acc);
    free(prior);
    free(c.in);
    free(c.w);
    free(c.b);
    free(R);
    free(din);
    free(dw);
    free(db);
}

/* ---- layernorm ---- */
typedef struct { float *in, *w, *b, *mean, *rstd; int T, d; } ln_ctx;
static void ln_fwd(void *p, float *out)
{
    ln_ctx *c = p;
    sl_layernorm_forward(out, c->mean, c->rstd, c->in, c->w, c->b, c->T, c->d, 1e-5f);
}

static void test_layernorm(void **state)
{
    (void)state;
    enum { T = 5, D = 12 };
    ln_ctx c = {NULL, NULL, NULL, NULL, NULL, T, D};
    c.in = rand_array(T * D, 2.0);
    c.w = rand_array(D, 0.5);
    c.b = rand_array(D, 0.5);
    for (int i = 0; i < D; i++)
        c.w[i] += 1.0f;
    c.mean = malloc(sizeof(float) * T);
    c.rstd = malloc(sizeof(float) * T);
    float *R = rand_array(T * D, 1.0), *y = malloc(sizeof(float) * T * D);
    float *din = malloc(sizeof(float) * T * D), *dw = rand_array(D, 1), *db = rand_array(D, 1);
    ln_fwd(&c, y); /* saves mean/rstd for the backward */
    sl_layernorm_backward(din, dw, db, R, c.in, c.mean, c.rstd, c.w, T, D, 0);
    printf("layernorm 5 x 12\n");
    check_input("d input", ln_fwd, &c, c.in, T * D, din, R, T * D, 1e-3);
    check_input("d weight", ln_fwd, &c, c.w, D, dw, R, T * D, 1e-3);
    check_input("d bias", ln_fwd, &c, c.b, D, db, R, T * D, 1e-3);
    /* in place (din == dout) and accumulate give the same numbers */
    float *inplace = malloc(sizeof(float) * T * D), *acc = malloc(sizeof(float) * T * D);
    memcpy(inplace, R, sizeof(float) * T * D);
    ln_fwd(&c, y);
    sl_layernorm_backward(inplace, dw, db, inplace, c.in, c.mean, c.rstd, c.w, T, D, 0);
    for (int i = 0; i < T * D; i++)
        acc[i] = 1.0f;
    sl_layernorm_backward(acc, dw, db, R, c.in, c.mean, c.rstd, c.w, T, D, 1);
    for (int i = 0; i < T * D; i++) {
        assert_float_equal(inplace[i], din[i], 1e-6);
        assert_float_equal(acc[i], 1.0f + din[i], 1e-5);
    }
    free(inplace);
    free(acc);
    free(c.in);
    free(c.w);
    free(c.b);
    free(c.mean);
    free(c.rstd);
    free(R);
    free(y);
    free(din);
    free(dw);
    free(db);
}

/* ---- activations, positions ---- */
typedef struct { float *x; size_t n; int gelu; float scale; const float *pe; int T, d; } elem_ctx;
static void act_fwd(void *p, float *out)
{
    elem_ctx *c = p;
    if (c->gelu)
        sl_gelu_forward(out, c->x, c->n);
    else
        sl_relu_forward(out, c->x, c->n);
}
static void pos_fwd(void *p, float *out)
{
    elem_ctx *c = p;
    memcpy(out, c->x, sizeof(float) * c->n);
    sl_scale_add_positions(out, c->pe, c->scale, c->T, c->d);
}

static void test_activations(void **state)
{
    (void)state;
    enum { N = 64 };
    elem_ctx c = {NULL, N, 0, 1, NULL, 0, 0};
    c.x = rand_array(N, 3.0);
    for (int i = 0; i < N; i++) /* away from ReLU's kink, where the difference is not a slope */
        if (fabsf(c.x[i]) < 0.05f)
            c.x[i] = 0.3f;
    float *R = rand_array(N, 1.0), *dx = malloc(sizeof(float) * N);
    printf("activations\n");
    sl_relu_backward(dx, R, c.x, N);
    check_input("relu", act_fwd, &c, c.x, N, dx, R, N, 1e-4);
    c.gelu = 1;
    sl_gelu_backward(dx, R, c.x, N);
    check_input("gelu", act_fwd, &c, c.x, N, dx, R, N, 1e-3);
    /* the GELU slope against its formula in double over a wide range (the
     * backward uses a polynomial erf; its error must stay at float rounding) */
    {
        enum { M = 4001 };
        float *xs = malloc(sizeof(float) * M), *ones = malloc(sizeof(float) * M),
              *d = malloc(sizeof(float) * M);
        for (int i = 0; i < M; i++) {
            xs[i] = -20.0f + 40.0f * (float)i / (M - 1);
            ones[i] = 1.0f;
        }
        sl_gelu_backward(d, ones, xs, M);
        double worst = 0;
        for (int i = 0; i < M; i++) {
            double x = xs[i];
            double exact = 0.5 * (1.0 + erf(x / sqrt(2.0))) + x * exp(-0.5 * x * x) / sqrt(2.0 * M_PI);
            worst = fmax(worst, fabs(d[i] - exact));
        }
        printf("  gelu slope on [-20, 20] vs formula in double: max abs error %.2e\n", worst);
        assert_true(worst < 5e-7);
        free(xs);
        free(ones);
        free(d);
    }
    /* in place */
    float *ip = malloc(sizeof(float) * N);
    memcpy(ip, R, sizeof(float) * N);
    sl_gelu_backward(ip, ip, c.x, N);
    assert_memory_equal(ip, dx, sizeof(float) * N);
    free(ip);
    free(c.x);
    free(R);
    free(dx);
}

static void test_positions(void **state)
{
    (void)state;
    enum { T = 6, D = 8 };
    float pe[T * D];
    sl_positional_encoding(pe, T, D);
    elem_ctx c = {NULL, T * D, 0, 1.0f, pe, T, D};
    c.x = rand_array(T * D, 1.0);
    float *R = rand_array(T * D, 1.0), *dx = malloc(sizeof(float) * T * D);
    printf("scale + positions\n");
    const float scales[2] = {1.0f, sqrtf(8.0f)};
    for (int k = 0; k < 2; k++) {
        c.scale = scales[k];
        sl_scale_add_positions_backward(dx, R, c.scale, T * D);
        check_input(k ? "scaled by sqrt(d)" : "unscaled", pos_fwd, &c, c.x, T * D, dx, R,
                    T * D, 1e-4);
    }
    free(c.x);
    free(R);
    free(dx);
}

/* ---- attention ---- */
typedef struct { float *qkv, *att; int T, d, H, bl, br; } att_ctx;
static void att_fwd(void *p, float *out)
{
    att_ctx *c = p;
    sl_attention_forward(out, c->att, 1, c->qkv, c->T, c->d, c->H, c->bl, c->br);
}

static void check_attention(int T, int d, int H, int bl, int br)
{
    att_ctx c = {NULL, NULL, T, d, H, bl, br};
    size_t n_in = (size_t)T * 3 * d, n_out = (size_t)T * d;
    c.qkv = rand_array(n_in, 1.5);
    c.att = malloc(sizeof(float) * sl_attention_scratch(T, H, 1));
    float *R = rand_array(n_out, 1.0), *y = malloc(sizeof(float) * n_out);
    float *dqkv = rand_array(n_in, 1.0);
    for (size_t i = 0; i < n_in; i++) /* garbage: must be overwritten, not scaled by 0 */
        dqkv[i] = NAN;
    float *scratch = malloc(sizeof(float) * sl_attention_backward_scratch(T));
    att_fwd(&c, y);
    sl_attention_backward(dqkv, scratch, R, c.qkv, c.att, T, d, H, bl, br);
    char what[96];
    snprintf(what, sizeof what, "T %d d %d heads %d band %d/%d", T, d, H, bl, br);
    printf("attention\n");
    check_input(what, att_fwd, &c, c.qkv, n_in, dqkv, R, n_out, 1e-3);
    free(c.qkv);
    free(c.att);
    free(R);
    free(y);
    free(dqkv);
    free(scratch);
}

static void test_attention(void **state)
{
    (void)state;
    check_attention(9, 8, 2, -1, -1);
    check_attention(9, 8, 1, 2, 1);
    check_attention(7, 6, 3, 0, -1);
    check_attention(7, 6, 2, -1, 0);
    check_attention(1, 4, 2, -1, -1);
    /* longer than one query block of the banded backward */
    check_attention(SL_ATTN_BLOCK + 11, 4, 2, 3, 4);
}

/* ---- cross-entropy ---- */
typedef struct { float *logits; const int32_t *labels; const float *w; int N, C; } ce_ctx;
static void ce_fwd(void *p, float *out)
{
    ce_ctx *c = p;
    float *scratch = malloc(sizeof(float) * c->N * c->C);
    out[0] = (float)sl_cross_entropy_forward_backward(scratch, c->logits, c->labels, c->w, c->N,
                                                      c->C, 0.0, NULL);
    free(scratch);
}

static void test_cross_entropy(void **state)
{
    (void)state;
    enum { N = 7, C = 4 };
    const int32_t labels[N] = {0, 3, -1, 2, 1, -1, 3};
    const float w[C] = {0.5f, 2.0f, 1.0f, 1.5f};
    ce_ctx c = {NULL, labels, w, N, C};
    c.logits = rand_array(N * C, 3.0);
    float dl[N * C], one = 1.0f;
    int64_t counted = 0;
    double loss = sl_cross_entropy_forward_backward(dl, c.logits, labels, w, N, C, 0.0, &counted);
    assert_int_equal(counted, 5);
    /* the loss from its definition: sum w_y (logsumexp - z_y) / sum w_y */
    double num = 0, den = 0;
    for (int i = 0; i < N; i++) {
        if (labels[i] < 0)
            continue;
        double s = 0;
        for (int k = 0; k < C; k++)
            s += exp(c.logits[i * C + k]);
        num += w[labels[i]] * (log(s) - c.logits[i * C + labels[i]]);
        den += w[labels[i]];
    }
    assert_true(fabs(loss - num / den) < 1e-12 * fmax(1, num / den));
    for (int k = 0; k < C; k++) { /* ignored rows get no gradient */
        assert_true(dl[2 * C + k] == 0.0f);
        assert_true(dl[5 * C + k] == 0.0f);
    }
    /* rows split in two parts with the whole batch's weight sum: the partial
     * losses add up to the loss and the gradients are the same */
    {
        float part[N * C];
        double total = sl_cross_entropy_total_weight(labels, w, N, C, NULL);
        assert_true(fabs(total - den) < 1e-12);
        double l1 = sl_cross_entropy_forward_backward(part, c.logits, labels, w, 3, C, total, NULL);
        double l2 = sl_cross_entropy_forward_backward(part + 3 * C, c.logits + 3 * C, labels + 3, w,
                                                      N - 3, C, total, NULL);
        assert_true(fabs(l1 + l2 - loss) < 1e-12);
        assert_memory_equal(part, dl, sizeof part);
    }
    printf("cross-entropy (class weights, ignored frames)\n");
    check_input("d logits", ce_fwd, &c, c.logits, N * C, dl, &one, 1, 1e-3);
    /* without weights: the plain mean */
    sl_cross_entropy_forward_backward(dl, c.logits, labels, NULL, N, C, 0.0, NULL);
    c.w = NULL;
    check_input("d logits, no weights", ce_fwd, &c, c.logits, N * C, dl, &one, 1, 1e-3);
    /* nothing counted: loss 0, gradient 0 */
    const int32_t none[N] = {-1, -1, -1, -1, -1, -1, -1};
    for (int i = 0; i < N * C; i++)
        dl[i] = 1.0f;
    assert_true(sl_cross_entropy_forward_backward(dl, c.logits, none, w, N, C, 0.0, &counted) == 0.0);
    assert_int_equal(counted, 0);
    for (int i = 0; i < N * C; i++)
        assert_true(dl[i] == 0.0f);
    free(c.logits);
}

/* ---- cross-entropy with soft targets (distillation) ---- */
typedef struct { float *logits; const int32_t *labels; const float *w, *q; float alpha; int N, C; } sce_ctx;
static void sce_fwd(void *p, float *out)
{
    sce_ctx *c = p;
    float *scratch = malloc(sizeof(float) * c->N * c->C);
    out[0] = (float)sl_soft_cross_entropy_forward_backward(scratch, c->logits, c->labels, c->w,
                                                           c->q, c->alpha, c->N, c->C, 0.0, NULL);
    free(scratch);
}

static void test_soft_cross_entropy(void **state)
{
    (void)state;
    enum { N = 6, C = 3 };
    const int32_t labels[N] = {0, 2, -1, 1, 1, 0};
    const float w[C] = {0.5f, 2.0f, 1.5f};
    float q[N * C];
    for (int i = 0; i < N; i++) { /* probability rows */
        double a = 0.2 + 0.1 * i, b = 0.5 - 0.05 * i;
        q[i * C] = (float)a, q[i * C + 1] = (float)b, q[i * C + 2] = (float)(1.0 - a - b);
    }
    sce_ctx c = {NULL, labels, w, q, 0.3f, N, C};
    c.logits = rand_array(N * C, 3.0);
    float dl[N * C], plain[N * C], one = 1.0f;
    int64_t counted = 0;
    double loss = sl_soft_cross_entropy_forward_backward(dl, c.logits, labels, w, q, 0.3f, N, C,
                                                         0.0, &counted);
    assert_int_equal(counted, 5);
    /* from the definition: target t = (1 - A) onehot(y) + A q, loss = sum w_y (-sum t log p) / sum w_y */
    const double A = 0.3f; /* the weight as the function receives it */
    double num = 0, den = 0;
    for (int i = 0; i < N; i++) {
        if (labels[i] < 0)
            continue;
        double s = 0, ce = 0;
        for (int k = 0; k < C; k++)
            s += exp(c.logits[i * C + k]);
        for (int k = 0; k < C; k++) {
            double t = A * q[i * C + k] + (k == labels[i] ? 1.0 - A : 0.0);
            ce -= t * (c.logits[i * C + k] - log(s));
        }
        num += w[labels[i]] * ce;
        den += w[labels[i]];
    }
    assert_true(fabs(loss - num / den) < 1e-9 * fmax(1, num / den));
    for (int i = 0; i < N; i++) {
        if (labels[i] < 0) {
            for (int k = 0; k < C; k++)
                assert_true(dl[i * C + k] == 0.0f);
            continue;
        }
        double s = 0;
        for (int k = 0; k < C; k++)
            s += exp(c.logits[i * C + k]);
        for (int k = 0; k < C; k++) {
            double t = A * q[i * C + k] + (k == labels[i] ? 1.0 - A : 0.0);
            double want = w[labels[i]] * (exp(c.logits[i * C + k]) / s - t) / den;
            assert_true(fabs(dl[i * C + k] - want) < 1e-6);
        }
    }
    printf("cross-entropy with soft targets (weight 0.3, class weights, ignored frames)\n");
    check_input("d logits", sce_fwd, &c, c.logits, N * C, dl, &one, 1, 1e-3);
    /* weight 0, or no targets: the plain loss, bit for bit */
    double l0 = sl_soft_cross_entropy_forward_backward(dl, c.logits, labels, w, q, 0.0f, N, C, 0.0,
                                                       NULL);
    double lp = sl_cross_entropy_forward_backward(plain, c.logits, labels, w, N, C, 0.0, NULL);
    assert_true(l0 == lp);
    assert_memory_equal(dl, plain, sizeof dl);
    /* weight 1: the labels only count frames and weigh them */
    c.alpha = 1.0f;
    sl_soft_cross_entropy_forward_backward(dl, c.logits, labels, w, q, 1.0f, N, C, 0.0, NULL);
    check_input("d logits, weight 1", sce_fwd, &c, c.logits, N * C, dl, &one, 1, 1e-3);
    free(c.logits);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear),       cmocka_unit_test(test_layernorm),
        cmocka_unit_test(test_activations),  cmocka_unit_test(test_positions),
        cmocka_unit_test(test_attention),    cmocka_unit_test(test_cross_entropy),
        cmocka_unit_test(test_soft_cross_entropy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
