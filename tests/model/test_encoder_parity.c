/* The C encoder against PyTorch: for every fixture case (tests/fixtures/model/
 * cases.txt, written by gen_model_fixtures.py from tools/reference_model.py),
 * logits within 1e-4 (relative where |logit| > 1) of torch's float64 result,
 * and probabilities that are the softmax of those logits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model_test_util.h"
#include "seqlabel.h"

#define TOLERANCE 1e-4

static void check_case(const char *name, int T, int nf, int nc, int max_T)
{
    char file[512];
    size_t n_in, n_ref;
    sl_model *m = load_gz_model(name);
    const sl_model_config *c = sl_model_get_config(m);
    assert_int_equal(c->n_features, nf);
    assert_int_equal(c->n_classes, nc);
    snprintf(file, sizeof file, "%s.in.f32", name);
    float *in = read_f32(file, &n_in);
    snprintf(file, sizeof file, "%s.logits.f32", name);
    float *ref = read_f32(file, &n_ref);
    assert_int_equal(n_in, (size_t)T * nf);
    assert_int_equal(n_ref, (size_t)T * nc);

    char err[SL_ERR_LEN];
    sl_encoder *e = sl_encoder_new(m, max_T, err, sizeof err);
    if (!e)
        fail_msg("%s", err);
    float *logits = malloc(sizeof(float) * n_ref), *probs = malloc(sizeof(float) * n_ref);
    assert_int_equal(sl_encoder_forward(e, in, T, logits, probs), 0);
    double diff = max_rel_diff(logits, ref, n_ref);
    printf("%-40s T=%-4d encoder max_T=%-4d max diff %.2e\n", name, T, max_T, diff);
    assert_true(diff <= TOLERANCE);

    /* split between threads: bit-identical to one thread */
    float *split = malloc(sizeof(float) * n_ref);
    for (int threads = 2; threads <= 3; threads++) {
        assert_int_equal(sl_encoder_set_threads(e, threads, err, sizeof err), 0);
        assert_int_equal(sl_encoder_threads(e), threads);
        memset(split, 0, sizeof(float) * n_ref);
        assert_int_equal(sl_encoder_forward(e, in, T, split, NULL), 0);
        assert_memory_equal(split, logits, sizeof(float) * n_ref);
    }
    assert_int_equal(sl_encoder_set_threads(e, 1, err, sizeof err), 0);
    assert_int_equal(sl_encoder_set_threads(e, 0, err, sizeof err), -1);
    free(split);

    /* probs are the softmax of the logits */
    for (int t = 0; t < T; t++) {
        double mx = -INFINITY, s = 0;
        for (int k = 0; k < nc; k++)
            mx = fmax(mx, logits[t * nc + k]);
        for (int k = 0; k < nc; k++)
            s += exp(logits[t * nc + k] - mx);
        for (int k = 0; k < nc; k++)
            assert_true(fabs(probs[t * nc + k] - exp(logits[t * nc + k] - mx) / s) < 1e-6);
    }
    /* probabilities alone (logits NULL) are the same numbers */
    float *probs2 = malloc(sizeof(float) * n_ref);
    assert_int_equal(sl_encoder_forward(e, in, T, NULL, probs2), 0);
    assert_memory_equal(probs, probs2, sizeof(float) * n_ref);
    /* windows outside 1..max_T are refused */
    assert_int_equal(sl_encoder_forward(e, in, 0, logits, probs), -1);
    assert_int_equal(sl_encoder_forward(e, in, max_T + 1, logits, probs), -1);

    free(probs2);
    free(logits);
    free(probs);
    free(in);
    free(ref);
    sl_encoder_free(e);
    sl_model_free(m);
}

static void test_all_cases(void **state)
{
    (void)state;
    char path[4096];
    size_t size;
    char *txt = (char *)test_read_file(fixture_path(path, sizeof path, "cases.txt"), &size);
    txt[size] = 0;
    int n = 0;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        char name[256];
        int T, nf, nc;
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%255s %d %d %d", name, &T, &nf, &nc), 4);
        check_case(name, T, nf, nc, T);       /* scratch sized exactly */
        if (T < 64)
            check_case(name, T, nf, nc, 64); /* scratch larger than the window */
        n++;
    }
    assert_true(n >= 9);
    free(txt);
}

/* The uncompressed tiny model loads by path and matches torch too. */
static void test_tiny_from_path(void **state)
{
    (void)state;
    char path[4096], err[SL_ERR_LEN];
    sl_model *m = sl_model_load(fixture_path(path, sizeof path, "tiny.slm"), err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    size_t n_in, n_ref;
    float *in = read_f32("tiny.in.f32", &n_in), *ref = read_f32("tiny.logits.f32", &n_ref);
    sl_encoder *e = sl_encoder_new(m, 32, err, sizeof err);
    assert_non_null(e);
    float logits[64];
    assert_int_equal(sl_encoder_forward(e, in, 5, logits, NULL), 0);
    double diff = max_rel_diff(logits, ref, n_ref);
    printf("tiny.slm max diff %.2e\n", diff);
    assert_true(diff <= TOLERANCE);
    assert_null(sl_encoder_new(m, 33, err, sizeof err)); /* beyond max_window */
    assert_non_null(strstr(err, "max_window"));
    sl_encoder_free(e);
    sl_model_free(m);
    free(in);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_cases),
        cmocka_unit_test(test_tiny_from_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
