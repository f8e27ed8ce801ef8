/* Weight averaging (sl_model_average, `seqlabel average`):
 *  - every weight of the average of three models is their mean, computed here
 *    by hand in double; everything else is copied from the models;
 *  - a model averaged with itself is that model, bit for bit;
 *  - models that differ in classes, normalisation, shape or streaming window
 *    are refused, naming the odd one;
 *  - the command writes the same model as the library, refuses an output that
 *    is also an input, names a missing file, and leaves no output on failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seqlabel.h"

static const char *const CLASSES[] = {"silence", "speech", "music"};

static sl_model *make(uint64_t seed, int d_ff, float mean0, const char *class2, int window)
{
    sl_model_config c;
    sl_model_config_default(&c);
    sl_feature_config f;
    sl_feature_config_default(&f);
    f.num_mel_bins = 8;
    c.n_features = 8;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 2;
    c.d_ff = d_ff;
    c.n_classes = 3;
    c.stream_window = window;
    c.stream_left = 8;
    c.stream_lookahead = 4;
    float mean[8] = {mean0, 1, 2, 3, 4, 5, 6, 7}, istd[8] = {1, 1, 1, 1, 2, 2, 2, 2};
    const char *names[3] = {CLASSES[0], CLASSES[1], class2};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&c, &f, mean, istd, names, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    sl_model_init_params(m, seed);
    return m;
}

static void mean_of_every_weight(void **state)
{
    (void)state;
    sl_model *m[3] = {make(1, 32, 0, "music", 64), make(2, 32, 0, "music", 64),
                      make(3, 32, 0, "music", 64)};
    const char *names[3] = {"a", "b", "c"};
    char err[SL_ERR_LEN];
    sl_model *avg = sl_model_average((const sl_model *const *)m, names, 3, err, sizeof err);
    assert_non_null(avg);
    size_t np = sl_model_num_params(avg), differing = 0;
    assert_int_equal(np, sl_model_num_params(m[0]));
    const float *a = sl_model_params_const(m[0]), *b = sl_model_params_const(m[1]),
                *c = sl_model_params_const(m[2]), *p = sl_model_params_const(avg);
    for (size_t j = 0; j < np; j++) {
        float want = (float)(((double)a[j] + (double)b[j] + (double)c[j]) / 3.0);
        if (p[j] != want)
            fail_msg("parameter %zu: %.9g, expected %.9g", j, (double)p[j], (double)want);
        differing += a[j] != b[j];
    }
    assert_true(differing > np / 2); /* the inputs really differ */
    assert_memory_equal(sl_model_get_config(avg), sl_model_get_config(m[0]),
                        sizeof(sl_model_config));
    assert_memory_equal(sl_model_norm_mean(avg), sl_model_norm_mean(m[0]), 8 * sizeof(float));
    assert_memory_equal(sl_model_norm_inv_std(avg), sl_model_norm_inv_std(m[0]),
                        8 * sizeof(float));
    for (int k = 0; k < 3; k++)
        assert_string_equal(sl_model_class_name(avg, k), CLASSES[k]);
    sl_model_free(avg);

    /* Averaged with itself: the model, bit for bit. */
    const sl_model *twice[2] = {m[1], m[1]};
    avg = sl_model_average(twice, names, 2, err, sizeof err);
    assert_non_null(avg);
    assert_memory_equal(sl_model_params_const(avg), b, np * sizeof(float));
    sl_model_free(avg);
    for (int i = 0; i < 3; i++)
        sl_model_free(m[i]);
}

static void refuses_other_setups(void **state)
{
    (void)state;
    sl_model *base = make(1, 32, 0, "music", 64);
    sl_model *other[4] = {make(2, 32, 0, "noise", 64), make(2, 32, 0.5f, "music", 64),
                          make(2, 48, 0, "music", 64), make(2, 32, 0, "music", 48)};
    const char *what[4] = {"classes", "normalisation", "d_ff", "stream window"};
    for (int i = 0; i < 4; i++) {
        const sl_model *pair[2] = {base, other[i]};
        const char *names[2] = {"first.slm", "odd.slm"};
        char err[SL_ERR_LEN] = "";
        sl_model *avg = sl_model_average(pair, names, 2, err, sizeof err);
        if (avg)
            fail_msg("models with other %s were averaged", what[i]);
        assert_non_null(strstr(err, "odd.slm"));
        assert_non_null(strstr(err, "first.slm"));
        sl_model_free(other[i]);
    }
    char err[SL_ERR_LEN];
    assert_null(sl_model_average(NULL, NULL, 0, err, sizeof err));
    sl_model_free(base);
}

/* Runs a shell command; its stderr in *err (malloc'ed). */
static int run(const char *cmd, char **err)
{
    char full[4096], path[64];
    snprintf(path, sizeof path, "/tmp/sl-average-err-%d", (int)getpid());
    snprintf(full, sizeof full, "%s 2>%s", cmd, path);
    int st = system(full);
    FILE *f = fopen(path, "rb");
    *err = calloc(1, 4096);
    if (f) {
        size_t n = fread(*err, 1, 4095, f);
        (*err)[n] = 0;
        fclose(f);
    }
    unlink(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void command(void **state)
{
    (void)state;
    const char *exe = getenv("SL_SEQLABEL");
    assert_non_null(exe);
    char dir[] = "/tmp/sl-average-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char pa[128], pb[128], po[128], pw[128], cmd[1024], err[SL_ERR_LEN];
    snprintf(pa, sizeof pa, "%s/a.slm", dir);
    snprintf(pb, sizeof pb, "%s/b.slm", dir);
    snprintf(po, sizeof po, "%s/out.slm", dir);
    snprintf(pw, sizeof pw, "%s/wrong.slm", dir);
    sl_model *a = make(5, 32, 0, "music", 64), *b = make(6, 32, 0, "music", 64),
             *w = make(7, 32, 0, "noise", 64);
    assert_int_equal(sl_model_save(a, pa, err, sizeof err), 0);
    assert_int_equal(sl_model_save(b, pb, err, sizeof err), 0);
    assert_int_equal(sl_model_save(w, pw, err, sizeof err), 0);

    char *e = NULL;
    snprintf(cmd, sizeof cmd, "%s average %s --output %s %s", exe, pa, po, pb); /* anywhere */
    assert_int_equal(run(cmd, &e), 0);
    free(e);
    sl_model *out = sl_model_load(po, err, sizeof err);
    assert_non_null(out);
    const sl_model *pair[2] = {a, b};
    const char *names[2] = {"a", "b"};
    sl_model *lib = sl_model_average(pair, names, 2, err, sizeof err);
    assert_memory_equal(sl_model_params_const(out), sl_model_params_const(lib),
                        sl_model_num_params(lib) * sizeof(float));
    sl_model_free(out);
    sl_model_free(lib);
    unlink(po);

    snprintf(cmd, sizeof cmd, "%s average -o %s %s %s", exe, po, pa, pw);
    assert_int_equal(run(cmd, &e), 1);
    assert_non_null(strstr(e, "wrong.slm"));
    printf("%s", e);
    free(e);
    snprintf(cmd, sizeof cmd, "%s average -o %s %s %s/absent.slm", exe, po, pa, dir);
    assert_int_equal(run(cmd, &e), 1);
    assert_non_null(strstr(e, "absent.slm"));
    printf("%s", e);
    free(e);
    assert_int_equal(access(po, F_OK), -1); /* nothing written by the failures */
    snprintf(cmd, sizeof cmd, "%s average -o %s %s %s", exe, pa, pa, pb);
    assert_int_equal(run(cmd, &e), 2); /* the command line is wrong */
    assert_non_null(strstr(e, "both an input and the output"));
    printf("%s", e);
    free(e);

    sl_model_free(a);
    sl_model_free(b);
    sl_model_free(w);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mean_of_every_weight),
        cmocka_unit_test(refuses_other_setups),
        cmocka_unit_test(command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
