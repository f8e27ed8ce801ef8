/* Weight averaging (sl_model_average, `seqlabel average`):
 *  - every weight of the average of three models is their mean, computed here
 *    by hand in double; everything else is copied from the models;
 *  - a model averaged with itself is that model, bit for bit;
 *  - models that differ in classes, normalisation, shape or streaming window
 *    are refused, naming the odd one;
 *  - the command writes the same model as the library, refuses an output that
 *    is also an input, names a missing file, and leaves no output on failure;
 *  - its output: a FIFO or a device written as it is, a link's file replaced,
 *    a file's mode kept, a read-only file refused, "-" refused; a signal in the
 *    middle of the save leaves no temporary file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seqlabel.h"
#include "model/trainer_internal.h" /* sl_checkpoint_save */
#include "tests/common/test_files.h"

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
    char full[4096], path[512];
    char name[64];
    snprintf(name, sizeof name, "sl-average-err-%d", (int)getpid());
    test_tmp_path(path, sizeof path, name);
    snprintf(full, sizeof full, "%s 2>'%s'", cmd, path);
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
    char dir[512];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl-average-XXXXXX")));
    char pa[600], pb[600], po[600], pw[600], cmd[4096], err[SL_ERR_LEN];
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
    snprintf(cmd, sizeof cmd, "'%s' average '%s' --output '%s' '%s'", exe, pa, po, pb); /* anywhere */
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
    unlink(po);
    /* a training checkpoint counts as the model it holds: b's, in one */
    char pk[600];
    snprintf(pk, sizeof pk, "%s/b.ckpt", dir);
    const size_t np = sl_model_num_params(b);
    float *moments = calloc(np, sizeof *moments);
    assert_non_null(moments);
    sl_train_state ts = {.step = 40, .best_score = -1.0};
    assert_int_equal(sl_checkpoint_save(pk, b, moments, moments, &ts, err, sizeof err), 0);
    free(moments);
    snprintf(cmd, sizeof cmd, "'%s' average -o '%s' '%s' '%s'", exe, po, pa, pk);
    if (run(cmd, &e))
        fail_msg("a model and a checkpoint: %s", e);
    free(e);
    out = sl_model_load(po, err, sizeof err);
    assert_non_null(out);
    assert_memory_equal(sl_model_params_const(out), sl_model_params_const(lib),
                        np * sizeof(float));
    sl_model_free(out);
    sl_model_free(lib);
    unlink(po);

    snprintf(cmd, sizeof cmd, "'%s' average -o '%s' '%s' '%s'", exe, po, pa, pw);
    assert_int_equal(run(cmd, &e), 1);
    assert_non_null(strstr(e, "wrong.slm"));
    printf("%s", e);
    free(e);
    snprintf(cmd, sizeof cmd, "'%s' average -o '%s' '%s' '%s/absent.slm'", exe, po, pa, dir);
    assert_int_equal(run(cmd, &e), 1);
    assert_non_null(strstr(e, "absent.slm"));
    printf("%s", e);
    free(e);
    assert_int_equal(access(po, F_OK), -1); /* nothing written by the failures */
    snprintf(cmd, sizeof cmd, "'%s' average -o '%s' '%s' '%s'", exe, pa, pa, pb);
    assert_int_equal(run(cmd, &e), 2); /* the command line is wrong */
    assert_non_null(strstr(e, "both an input and the output"));
    printf("%s", e);
    free(e);

    sl_model_free(a);
    sl_model_free(b);
    sl_model_free(w);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The file at path holds the model saved at model (the same bytes). */
static void assert_same_bytes(const char *path, const char *model)
{
    size_t n, k;
    unsigned char *a = test_read_file(path, &n), *b = test_read_file(model, &k);
    assert_int_equal(n, k);
    assert_memory_equal(a, b, n);
    free(a);
    free(b);
}

/* Where the command's model goes: a FIFO's reader gets it and the FIFO stays,
 * /dev/null stays a device (tried as nobody, who may not replace it: as root a
 * rename would have), a link stays a link to the new model, a file keeps its
 * mode, a file this user may not write is refused and kept, and "-" (no file
 * of that name, nor standard output) is refused. */
static void command_outputs(void **state)
{
    (void)state;
    const char *exe = getenv("SL_SEQLABEL");
    assert_non_null(exe);
    char dir[512];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl-average-XXXXXX")));
    assert_int_equal(chmod(dir, 0777), 0); /* for nobody too */
    char a[600], cmd[4096], err[SL_ERR_LEN];
    snprintf(a, sizeof a, "%s/a.slm", dir);
    sl_model *m = make(5, 32, 0, "music", 64);
    assert_int_equal(sl_model_save(m, a, err, sizeof err), 0);
    assert_int_equal(chmod(a, 0644), 0);
    /* a file whose folder takes no new file (/proc, for root too): the
     * temporary file is what failed, and is named (to a user, the file itself
     * may not be written, which is said first) */
    assert_int_equal(sl_model_save(m, "/proc/version", err, sizeof err), -1);
    if (!strstr(err, geteuid() == 0 ? "/proc/version: cannot write: cannot create its temporary "
                                      "file /proc/version.tmp."
                                    : "/proc/version: cannot write: Permission denied"))
        fail_msg("%s", err);
    sl_model_free(m);
    char *e = NULL;

    int reader = test_fifo_reader(test_in_dir(dir, "out.fifo"), test_in_dir(dir, "fifo.copy"));
    snprintf(cmd, sizeof cmd, "'%s' average -o '%s/out.fifo' '%s'", exe, dir, a);
    assert_int_equal(run(cmd, &e), 0);
    free(e);
    assert_int_equal(test_fifo_done(reader), 0);
    struct stat st;
    assert_int_equal(lstat(test_in_dir(dir, "out.fifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_same_bytes(test_in_dir(dir, "fifo.copy"), a);

    snprintf(cmd, sizeof cmd, "'%s' average -o /dev/null a.slm", exe);
    assert_int_equal(test_system_unprivileged(dir, cmd), 0);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));

    assert_int_equal(mkdir(test_in_dir(dir, "real"), 0755), 0);
    test_write_text(test_in_dir(dir, "real/m.slm"), "old", 0600);
    assert_int_equal(symlink("real/m.slm", test_in_dir(dir, "link.slm")), 0);
    snprintf(cmd, sizeof cmd, "'%s' average -o '%s/link.slm' '%s'", exe, dir, a);
    assert_int_equal(run(cmd, &e), 0);
    free(e);
    assert_int_equal(lstat(test_in_dir(dir, "link.slm"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(test_in_dir(dir, "real/m.slm"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_same_bytes(test_in_dir(dir, "real/m.slm"), a);

    test_write_text(test_in_dir(dir, "ro.slm"), "old", 0444);
    snprintf(cmd, sizeof cmd, "'%s' average -o ro.slm a.slm 2> ro.err", exe);
    assert_int_equal(test_system_unprivileged(dir, cmd), 1);
    size_t n;
    char *said = (char *)test_read_file(test_in_dir(dir, "ro.err"), &n);
    assert_non_null(strstr(said, "ro.slm: cannot write: Permission denied"));
    printf("%s", said);
    free(said);
    char *old = (char *)test_read_file(test_in_dir(dir, "ro.slm"), &n);
    assert_string_equal(old, "old");
    free(old);

    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' average -o - a.slm", dir, exe);
    assert_int_equal(run(cmd, &e), 2);
    assert_non_null(strstr(e, "-o -: a model is written to a file, not to standard output"));
    printf("%s", e);
    free(e);
    assert_int_equal(access(test_in_dir(dir, "-"), F_OK), -1);
    assert_true(test_no_tmp_left(dir) && test_no_tmp_left(test_in_dir(dir, "real")));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* `seqlabel average -o out MODEL` with signal `sig` raised as the model's
 * complete temporary file is about to be renamed (raise_in_rename.c,
 * preloaded), or with sig 0 its fchmod failing: how the command ended (its
 * wait status). */
static int average_signalled(const char *dir, int sig)
{
    const char *exe = getenv("SL_SEQLABEL"), *lib = getenv("SL_RAISE_IN_RENAME_LIB");
    assert_non_null(exe);
    assert_non_null(lib);
    char preload[1024];
    test_preload_path(preload, sizeof preload, dir, lib);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char s[16], asan[1024];
        snprintf(s, sizeof s, "%d", sig);
        if (sig == 0) { /* no signal: fchmod fails instead (vfat), said in average.err */
            setenv("SL_FAIL_FCHMOD", "1", 1);
            if (freopen(test_in_dir(dir, "average.err"), "w", stderr) == NULL)
                _exit(126);
        }
        /* under the sanitizers, the preloaded library comes before their runtime */
        snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0",
                 getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
                 getenv("ASAN_OPTIONS") ? ":" : "");
        setenv("ASAN_OPTIONS", asan, 1);
        if (sig)
            setenv("SL_RAISE_IN_RENAME", s, 1);
        setenv("LD_PRELOAD", preload, 1);
        if (chdir(dir) == 0)
            execl(exe, exe, "average", "-o", "out.slm", "a.slm", (char *)NULL);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

/* SIGTERM or SIGINT in the middle of the save end the command as they do
 * (killed by that signal), take the temporary file with them and leave OUT as
 * it was; so does a mode the file system refuses (exit 1). */
static void signal_during_save(void **state)
{
    (void)state;
    char dir[512];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl-average-XXXXXX")));
    char err[SL_ERR_LEN];
    sl_model *m = make(5, 32, 0, "music", 64);
    assert_int_equal(sl_model_save(m, test_in_dir(dir, "a.slm"), err, sizeof err), 0);
    sl_model_free(m);
    test_write_text(test_in_dir(dir, "out.slm"), "old", 0644);
    const int sigs[] = {SIGTERM, SIGINT};
    for (int i = 0; i < 2; i++) {
        int st = average_signalled(dir, sigs[i]);
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), sigs[i]);
        assert_true(test_no_tmp_left(dir));
        size_t n;
        char *old = (char *)test_read_file(test_in_dir(dir, "out.slm"), &n);
        assert_string_equal(old, "old");
        free(old);
    }
    /* the temporary file made, its mode refused (vfat): said as such, not as
     * a file that could not be created, and OUT left as it was */
    int st = average_signalled(dir, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    assert_true(test_no_tmp_left(dir));
    size_t n;
    char *said = (char *)test_read_file(test_in_dir(dir, "average.err"), &n);
    if (!strstr(said, "out.slm: cannot write: cannot give its temporary file ") ||
        !strstr(said, " the mode of the file it replaces (644): Operation not permitted"))
        fail_msg("%s", said);
    free(said);
    char *old = (char *)test_read_file(test_in_dir(dir, "out.slm"), &n);
    assert_string_equal(old, "old");
    free(old);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mean_of_every_weight),
        cmocka_unit_test(refuses_other_setups),
        cmocka_unit_test(command),
        cmocka_unit_test(command_outputs),
        cmocka_unit_test(signal_during_save),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
