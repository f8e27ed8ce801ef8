/* One model, two encoders, two threads: each thread's results are bit-identical
 * to a single-threaded run (no shared mutable state in the model or library). */
#include <pthread.h>
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

#define CASE "t100_post_gelu_h4_d64_band10_3_scaled"
#define T 100
#define ROUNDS 20

typedef struct {
    const sl_model *m;
    const float *in;
    const float *expect;
    int mismatches;
} job;

static void *run(void *arg)
{
    job *j = arg;
    char err[SL_ERR_LEN];
    int nc = sl_model_get_config(j->m)->n_classes;
    sl_encoder *e = sl_encoder_new(j->m, T, err, sizeof err);
    float *p = malloc(sizeof(float) * T * nc);
    for (int r = 0; r < ROUNDS; r++) {
        /* vary the window so the two threads are at different places */
        int len = r % 2 ? T : T / 2 + r;
        sl_encoder_forward(e, j->in, len, NULL, p);
        if (len == T && memcmp(p, j->expect, sizeof(float) * T * nc))
            j->mismatches++;
    }
    free(p);
    sl_encoder_free(e);
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    sl_model *m = load_gz_model(CASE);
    size_t n;
    float *in = read_f32(CASE ".in.f32", &n);
    int nc = sl_model_get_config(m)->n_classes;
    char err[SL_ERR_LEN];
    sl_encoder *e = sl_encoder_new(m, T, err, sizeof err);
    float *expect = malloc(sizeof(float) * T * nc);
    sl_encoder_forward(e, in, T, NULL, expect);
    sl_encoder_free(e);

    job jobs[2] = {{m, in, expect, 0}, {m, in, expect, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, run, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(jobs[0].mismatches, 0);
    assert_int_equal(jobs[1].mismatches, 0);
    free(expect);
    free(in);
    sl_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_two_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
