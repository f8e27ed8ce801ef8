/* The model file loader as an attack surface: tiny.slm (written by the Python
 * writer in tools/convert_torch.py) loads with the header the generator wrote;
 * every truncation, every flipped byte, an unknown version, dimensions that do
 * not fit together or overflow, NaN/Inf weights, bad UTF-8 class names and
 * trailing bytes are refused with a message naming the file, without crashing.
 * The C writer reproduces the Python writer's bytes exactly, and it and the
 * checkpoint writer replace only what a rename may replace. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "model_test_util.h"
#include "seqlabel.h"
#include "common/output_file.h"
#include "model/trainer_internal.h" /* sl_checkpoint_save */

static unsigned char *tiny;
static size_t tiny_size;

static int setup(void **state)
{
    (void)state;
    char path[4096];
    tiny = test_read_file(fixture_path(path, sizeof path, "tiny.slm"), &tiny_size);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(tiny);
    return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

/* Recomputes the trailing CRC so the change reaches the parser. */
static void fix_crc(unsigned char *b, size_t n)
{
    put32(b + n - 4, (uint32_t)crc32(crc32(0, Z_NULL, 0), b, (uInt)(n - 4)));
}

/* Loads a copy with the int32 header field at byte offset `off` set to v. */
static sl_model *load_with_field(size_t off, int32_t v, char *err, size_t errlen)
{
    unsigned char *b = malloc(tiny_size);
    memcpy(b, tiny, tiny_size);
    put32(b + off, (uint32_t)v);
    fix_crc(b, tiny_size);
    sl_model *m = sl_model_load_memory(b, tiny_size, "hostile.slm", err, errlen);
    free(b);
    return m;
}

/* Byte offsets of header fields (docs/model-format.md). */
#define OFF_VERSION 8
#define OFF_MODEL 16
#define FIELD(i) (OFF_MODEL + 4 * (i))
enum { F_NFEAT, F_DMODEL, F_HEADS, F_LAYERS, F_DFF, F_CLASSES, F_MAXWIN, F_ACT, F_NORMFIRST,
       F_QKVBIAS, F_SCALE, F_BANDL, F_BANDR, F_EPS, F_SWIN, F_SLEFT, F_SLOOK };

static void expect_refused(sl_model *m, const char *err, const char *needle)
{
    if (m)
        fail_msg("a hostile file was accepted (expected '%s')", needle);
    if (!strstr(err, "hostile.slm") || !strstr(err, needle))
        fail_msg("message '%s' should name the file and say '%s'", err, needle);
}

static void test_header_fields(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load_memory(tiny, tiny_size, "tiny.slm", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    const sl_model_config *c = sl_model_get_config(m);
    assert_int_equal(c->n_features, 4);
    assert_int_equal(c->d_model, 8);
    assert_int_equal(c->n_heads, 2);
    assert_int_equal(c->n_layers, 1);
    assert_int_equal(c->d_ff, 8);
    assert_int_equal(c->n_classes, 3);
    assert_int_equal(c->max_window, 32);
    assert_int_equal(c->norm_first, 1);
    assert_int_equal(c->qkv_bias, 1);
    assert_int_equal(c->band_left, 3);
    assert_int_equal(c->band_right, 1);
    assert_int_equal(c->stream_window, 16);
    assert_int_equal(c->stream_left, 4);
    assert_int_equal(c->stream_lookahead, 2);
    assert_true(c->ln_eps == 1e-5f);
    const sl_feature_config *f = sl_model_feature_config(m);
    assert_int_equal(f->sample_rate, 8000);
    assert_int_equal(f->num_mel_bins, 4);
    assert_int_equal(f->window, SL_WINDOW_HAMMING);
    assert_true(f->preemph == 0.97f);
    assert_true(f->input_scale == 32768.0f);
    assert_true(sl_model_norm_mean(m)[1] == -0.25f);
    assert_true(sl_model_norm_inv_std(m)[3] == 4.0f);
    assert_string_equal(sl_model_class_name(m, 1), "m\xc3\xbasica");
    assert_int_equal(sl_model_class_index(m, "ruido"), 2);
    assert_int_equal(sl_model_class_index(m, "speech"), -1);
    /* the name in its other Unicode form (u + U+0301, NFD, as macOS writes it) */
    assert_int_equal(sl_model_class_index(m, "mu\xcc\x81sica"), 1);
    assert_int_equal(sl_model_class_index(m, "musica"), -1);
    assert_null(sl_model_class_name(m, 3));
    /* parameters: d x nf + d; layer: 3d x d + 3d + d x d + d + ff x d + ff + d x ff + d + 4d;
     * final norm 2d; classifier 3 x d + 3 */
    size_t d = 8, ff = 8, expect = d * 4 + d + (3 * d * d + 3 * d + d * d + d + ff * d + ff +
                                                 d * ff + d + 4 * d) + 2 * d + 3 * d + 3;
    assert_int_equal(sl_model_num_params(m), expect);
    assert_int_equal(sl_model_num_tensors(m), 2 + 12 + 2 + 2);
    int i = sl_model_find_tensor(m, "encoder.layers.0.self_attn.in_proj_weight");
    assert_true(i >= 0);
    assert_int_equal(sl_model_tensor(m, i)->shape[0], 24);
    assert_int_equal(sl_model_tensor(m, i)->shape[1], 8);
    size_t total = 0;
    for (int k = 0; k < sl_model_num_tensors(m); k++) {
        assert_int_equal(sl_model_tensor(m, k)->offset, total); /* contiguous, in order */
        total += sl_model_tensor(m, k)->count;
    }
    assert_int_equal(total, sl_model_num_params(m));
    sl_model_free(m);
}

/* Saving gives back the very bytes the Python writer produced, atomically. */
static void test_save_roundtrip(void **state)
{
    (void)state;
    char err[SL_ERR_LEN], path[512];
    test_tmp_path(path, sizeof path, "sl_model_test_XXXXXX");
    sl_model *m = sl_model_load_memory(tiny, tiny_size, "tiny.slm", err, sizeof err);
    assert_non_null(m);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sl_model_save(m, path, err, sizeof err), 0);
    size_t n;
    unsigned char *b = test_read_file(path, &n);
    assert_int_equal(n, tiny_size);
    assert_memory_equal(b, tiny, n);
    free(b);
    unlink(path);
    /* a destination in a missing folder: an error naming it, nothing left behind */
    assert_int_equal(sl_model_save(m, "/nonexistent-dir/x.slm", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent-dir/x.slm"));
    sl_model_free(m);
}

static void test_every_truncation(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    unsigned char *b = malloc(tiny_size);
    for (size_t n = 0; n < tiny_size; n++) {
        memcpy(b, tiny, n); /* an exact-size copy, so ASan sees any over-read */
        unsigned char *exact = malloc(n ? n : 1);
        memcpy(exact, tiny, n);
        err[0] = 0;
        sl_model *m = sl_model_load_memory(exact, n, "hostile.slm", err, sizeof err);
        free(exact);
        if (m)
            fail_msg("truncation to %zu of %zu bytes accepted", n, tiny_size);
        assert_non_null(strstr(err, "hostile.slm"));
    }
    free(b);
    /* also through the file path */
    char path[512];
    test_tmp_path(path, sizeof path, "sl_trunc_XXXXXX");
    int fd = mkstemp(path);
    assert_true(write(fd, tiny, tiny_size / 2) == (ssize_t)(tiny_size / 2));
    close(fd);
    assert_null(sl_model_load(path, err, sizeof err));
    assert_non_null(strstr(err, path));
    unlink(path);
    assert_null(sl_model_load("/nonexistent/model.slm", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/model.slm"));
    assert_null(sl_model_load("", err, sizeof err)); /* SEQLABEL_MODEL= */
    assert_string_equal(err, "model path '': cannot open: No such file or directory");
    /* a FIFO: refused at once, not waited on for a writer (SIGALRM ends the
     * test if it waits) */
    char fifo[512];
    assert_non_null(mkdtemp(test_tmp_path(fifo, sizeof fifo, "sl_fifo_XXXXXX")));
    char fifo_path[600];
    snprintf(fifo_path, sizeof fifo_path, "%s/m.slm", fifo);
    assert_int_equal(mkfifo(fifo_path, 0600), 0);
    alarm(20);
    assert_null(sl_model_load(fifo_path, err, sizeof err));
    alarm(0);
    assert_non_null(strstr(err, "m.slm: not a regular file"));
    unlink(fifo_path);
    rmdir(fifo);
}

static void test_every_flipped_byte(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    unsigned char *b = malloc(tiny_size);
    for (size_t i = 0; i < tiny_size; i++) {
        memcpy(b, tiny, tiny_size);
        b[i] ^= (unsigned char)(1u << (i % 8));
        sl_model *m = sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err);
        if (m)
            fail_msg("flipped byte %zu accepted", i);
        assert_non_null(strstr(err, "hostile.slm"));
    }
    /* With the checksum recomputed, every flip reaches the parser: each is
     * refused with a message naming the file, or (a flipped weight or a
     * statistic) accepted as a model that still runs; none crashes (ASan). */
    int accepted = 0;
    float feats[5 * 4] = {0}, probs[5 * 3];
    for (size_t i = 0; i < tiny_size - 4; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(b, tiny, tiny_size);
            b[i] ^= (unsigned char)(1u << bit);
            fix_crc(b, tiny_size);
            err[0] = 0;
            sl_model *m = sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err);
            if (m) {
                accepted++;
                sl_encoder *e = sl_encoder_new(m, 5, err, sizeof err);
                if (e) {
                    assert_int_equal(sl_encoder_forward(e, feats, 5, NULL, probs), 0);
                    sl_encoder_free(e);
                }
                sl_model_free(m);
            } else {
                assert_non_null(strstr(err, "hostile.slm"));
            }
        }
    printf("flips with a valid checksum: %d of %zu accepted as models\n", accepted,
           3 * (tiny_size - 4));
    /* after the header, a flip is caught by the checksum */
    memcpy(b, tiny, tiny_size);
    b[tiny_size / 2] ^= 0x40;
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "checksum");
    free(b);
}

/* No path (sl_default_model_path's NULL when no model is found): a message
 * saying how to give one, not "(null): Bad address". */
static void test_no_path(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    assert_null(sl_model_load(NULL, err, sizeof err));
    if (!strstr(err, "no model: no path given, and no default model (set SEQLABEL_MODEL"))
        fail_msg("'%s'", err);
}

static void test_unknown_version(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    expect_refused(load_with_field(OFF_VERSION, 2, err, sizeof err), err, "version 2");
    expect_refused(load_with_field(OFF_VERSION, 0, err, sizeof err), err, "version");
    unsigned char *b = malloc(tiny_size);
    memcpy(b, tiny, tiny_size);
    b[0] = 'X';
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "not a seqlabel model");
    /* a training checkpoint given for the model: named, and where the model is */
    memcpy(b, "SLCKPT01", 8);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "a training checkpoint (seqlabel train --checkpoint), not a model: the model "
                   "is the file that train's --out wrote");
    free(b);
}

static void test_bad_dimensions(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    expect_refused(load_with_field(FIELD(F_HEADS), 3, err, sizeof err), err, "multiple of n_heads");
    expect_refused(load_with_field(FIELD(F_DMODEL), 9, err, sizeof err), err, "odd");
    expect_refused(load_with_field(FIELD(F_DMODEL), 16, err, sizeof err), err, "");
    expect_refused(load_with_field(FIELD(F_DMODEL), INT32_MAX, err, sizeof err), err, "d_model");
    expect_refused(load_with_field(FIELD(F_DMODEL), INT32_MIN, err, sizeof err), err, "d_model");
    expect_refused(load_with_field(FIELD(F_LAYERS), 1000000000, err, sizeof err), err, "n_layers");
    expect_refused(load_with_field(FIELD(F_LAYERS), 0, err, sizeof err), err, "n_layers");
    expect_refused(load_with_field(FIELD(F_DFF), -1, err, sizeof err), err, "d_ff");
    expect_refused(load_with_field(FIELD(F_CLASSES), 0x40000000, err, sizeof err), err, "n_classes");
    expect_refused(load_with_field(FIELD(F_NFEAT), 5, err, sizeof err), err, "values per frame");
    expect_refused(load_with_field(FIELD(F_MAXWIN), -5, err, sizeof err), err, "max_window");
    expect_refused(load_with_field(FIELD(F_MAXWIN), 8, err, sizeof err), err, "stream_window");
    expect_refused(load_with_field(FIELD(F_ACT), 7, err, sizeof err), err, "activation");
    expect_refused(load_with_field(FIELD(F_BANDL), -2, err, sizeof err), err, "band_left");
    expect_refused(load_with_field(FIELD(F_SLEFT), 14, err, sizeof err), err, "stream_left");
    /* the largest sizes the limits allow: refused for want of bytes, before allocating */
    unsigned char *b = malloc(tiny_size);
    memcpy(b, tiny, tiny_size);
    put32(b + FIELD(F_DMODEL), 4096);
    put32(b + FIELD(F_DFF), 4096);
    put32(b + FIELD(F_HEADS), 64);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "truncated");
    put32(b + FIELD(F_LAYERS), 64); /* beyond the parameter limit */
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "exceed the limit");
    /* NaN epsilon */
    memcpy(b, tiny, tiny_size);
    put32(b + FIELD(F_EPS), 0x7fc00000u);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "ln_eps");
    free(b);
}

/* Byte offset of the first float of tensor `name` in tiny.slm. */
static size_t tensor_data_offset(const char *name, int ndim)
{
    size_t len = strlen(name);
    for (size_t i = 4; i + len < tiny_size; i++)
        if (!memcmp(tiny + i, name, len) && tiny[i - 4] == len)
            return i + len + 4 + 4 * (size_t)ndim;
    fail_msg("tensor %s not found", name);
    return 0;
}

static void test_non_finite_weights(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    unsigned char *b = malloc(tiny_size);
    const uint32_t bad[] = {0x7fc00000u, 0x7f800000u, 0xff800000u};
    for (int k = 0; k < 3; k++) {
        memcpy(b, tiny, tiny_size);
        put32(b + tensor_data_offset("encoder.layers.0.linear2.weight", 2) + 12, bad[k]);
        fix_crc(b, tiny_size);
        expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                       k == 0 ? "NaN" : "infinite");
        assert_non_null(strstr(err, "linear2.weight"));
    }
    /* NaN in the normalisation statistics */
    memcpy(b, tiny, tiny_size);
    put32(b + 16 + 136 + 4, 0x7fc00000u);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "normalisation");
    free(b);
    /* nor is such a model saved: sl_model_set_norm takes what it is given, and
     * a file no loader would read back is refused when written */
    sl_model *m = sl_model_load_memory(tiny, tiny_size, "tiny.slm", err, sizeof err);
    assert_non_null(m);
    const int n = sl_model_get_config(m)->n_features;
    float *mean = calloc((size_t)n, sizeof *mean), *inv = malloc((size_t)n * sizeof *inv);
    for (int i = 0; i < n; i++)
        inv[i] = 1.0f;
    inv[n - 1] = NAN;
    sl_model_set_norm(m, mean, inv);
    char path[512];
    test_tmp_path(path, sizeof path, "sl_bad_norm_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(sl_model_save(m, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "refusing to save: the normalisation statistics of dimension"));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0); /* the file there is left as it was */
    unlink(path);
    free(mean);
    free(inv);
    sl_model_free(m);
}

static void test_bad_class_names(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    unsigned char *b = malloc(tiny_size + 8);
    unsigned char *u = memmem(tiny, tiny_size, "m\xc3\xbasica", 7);
    assert_non_null(u);
    size_t at = (size_t)(u - tiny);
    const char *bad[] = {"m\xc3\x28sica", "m\xc0\xafsica", "m\xed\xa0\x80ica", "mu\x01sica",
                         "m\xff\xfesica"};
    for (int k = 0; k < 5; k++) {
        memcpy(b, tiny, tiny_size);
        memcpy(b + at, bad[k], 7);
        fix_crc(b, tiny_size);
        expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                       "UTF-8");
    }
    /* a length of 0 and one beyond the file */
    memcpy(b, tiny, tiny_size);
    put32(b + at - 4, 0);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "class name 1");
    memcpy(b, tiny, tiny_size);
    put32(b + at - 4, 0xfffffff0u);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "class name 1");
    free(b);
}

static void test_create_checks(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    /* built through sl_model_create: the loader goes through it too */
    sl_feature_config f;
    sl_feature_config_default(&f);
    f.num_mel_bins = 4;
    sl_model_config c;
    sl_model_config_default(&c);
    c.n_features = 4;
    c.n_classes = 2;
    const char *names[] = {"speech", "speech"};
    assert_null(sl_model_create(&c, &f, NULL, NULL, names, err, sizeof err));
    assert_non_null(strstr(err, "twice"));
    const char *names2[] = {"speech", "music"};
    sl_model *m = sl_model_create(&c, &f, NULL, NULL, names2, err, sizeof err);
    assert_non_null(m);
    sl_model_free(m);
    c.n_features = 5;
    assert_null(sl_model_create(&c, &f, NULL, NULL, names2, err, sizeof err));
    assert_non_null(strstr(err, "values per frame"));
}

static void test_trailing_bytes_and_tensor_table(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    unsigned char *b = malloc(tiny_size + 4);
    memcpy(b, tiny, tiny_size - 4);
    memset(b + tiny_size - 4, 0, 4);
    fix_crc(b, tiny_size + 4);
    expect_refused(sl_model_load_memory(b, tiny_size + 4, "hostile.slm", err, sizeof err), err,
                   "unexpected bytes");
    /* a tensor renamed to one this configuration lacks */
    memcpy(b, tiny, tiny_size);
    unsigned char *u = memmem(b, tiny_size, "classifier.bias", 15);
    assert_non_null(u);
    memcpy(u, "classifier.bia5", 15);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "unexpected tensor");
    /* a tensor renamed to one that is already present */
    memcpy(b, tiny, tiny_size);
    u = memmem(b, tiny_size, "encoder.norm.bias", 17);
    assert_non_null(u);
    memcpy(u, "encoder.norm.weig", 17); /* same length: "weig" != "weight", unknown */
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "tensor");
    /* a shape that disagrees with the config */
    memcpy(b, tiny, tiny_size);
    size_t off = tensor_data_offset("classifier.weight", 2);
    put32(b + off - 8, 4);
    fix_crc(b, tiny_size);
    expect_refused(sl_model_load_memory(b, tiny_size, "hostile.slm", err, sizeof err), err,
                   "classifier.weight");
    free(b);
}

static void assert_file_holds(const char *path, const void *bytes, size_t len)
{
    size_t n;
    unsigned char *b = test_read_file(path, &n);
    assert_int_equal(n, len);
    assert_memory_equal(b, bytes, len);
    free(b);
}

/* fn(path) in a child process that is not root: its exit status. */
static int unprivileged(int (*fn)(const char *), const char *path)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(test_drop_root() == 0 ? fn(path) : 126);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static sl_model *tiny_model(void)
{
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load_memory(tiny, tiny_size, "tiny.slm", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

/* 0 when the model saves to path. */
static int save_to(const char *path)
{
    char err[SL_ERR_LEN];
    sl_model *m = tiny_model();
    int rc = sl_model_save(m, path, err, sizeof err);
    if (rc)
        printf("%s\n", err);
    sl_model_free(m);
    return rc ? 1 : 0;
}

/* 0 when saving to path is refused with a message naming it: not writable. */
static int refused_to(const char *path)
{
    char err[SL_ERR_LEN] = "";
    sl_model *m = tiny_model();
    int rc = sl_model_save(m, path, err, sizeof err);
    sl_model_free(m);
    printf("%s\n", err);
    return rc == -1 && strstr(err, path) && strstr(err, "Permission denied") ? 0 : 1;
}

/* 0 when a checkpoint of the tiny model saves to path. */
static int checkpoint_to(const char *path)
{
    char err[SL_ERR_LEN];
    sl_model *m = tiny_model();
    size_t np = sl_model_num_params(m);
    float *am = calloc(np, sizeof *am), *av = calloc(np, sizeof *av);
    sl_train_state st;
    memset(&st, 0, sizeof st);
    st.step = 7;
    int rc = am && av ? sl_checkpoint_save(path, m, am, av, &st, err, sizeof err) : -1;
    if (rc)
        printf("%s\n", err);
    free(am);
    free(av);
    sl_model_free(m);
    return rc ? 1 : 0;
}

/* The checkpoint at path holds the tiny model at step 7. */
static void assert_checkpoint(const char *path)
{
    char err[SL_ERR_LEN];
    sl_model *m;
    float *am, *av;
    sl_train_state st;
    if (sl_checkpoint_load(path, &m, &am, &av, &st, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(st.step, 7);
    sl_model *want = tiny_model();
    assert_memory_equal(sl_model_params_const(m), sl_model_params_const(want),
                        sl_model_num_params(m) * sizeof(float));
    sl_model_free(want);
    sl_model_free(m);
    free(am);
    free(av);
}

/* A FIFO or a device is written as it is: a temporary file renamed over it
 * would replace it (as root, /dev/null itself; tried here as nobody, who may
 * not replace it: the rename would fail instead). The FIFO's reader gets the
 * very bytes. The model and the checkpoint writer alike. */
static void test_save_to_fifo_and_device(void **state)
{
    (void)state;
    char dir[512];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl_model_save_XXXXXX")));
    struct stat st;
    int reader = test_fifo_reader(test_in_dir(dir, "model.fifo"), test_in_dir(dir, "model.copy"));
    assert_int_equal(save_to(test_in_dir(dir, "model.fifo")), 0);
    assert_int_equal(test_fifo_done(reader), 0);
    assert_int_equal(lstat(test_in_dir(dir, "model.fifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_file_holds(test_in_dir(dir, "model.copy"), tiny, tiny_size);

    reader = test_fifo_reader(test_in_dir(dir, "ckpt.fifo"), test_in_dir(dir, "ckpt.copy"));
    assert_int_equal(checkpoint_to(test_in_dir(dir, "ckpt.fifo")), 0);
    assert_int_equal(test_fifo_done(reader), 0);
    assert_int_equal(lstat(test_in_dir(dir, "ckpt.fifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_checkpoint(test_in_dir(dir, "ckpt.copy"));
    assert_true(test_no_tmp_left(dir));

    assert_int_equal(unprivileged(save_to, "/dev/null"), 0);
    assert_int_equal(unprivileged(checkpoint_to, "/dev/null"), 0);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Over an existing file: its permission bits, owner and group are kept (a 0600
 * file does not become 0644), a name at the file-name limit is written, a symbolic link stays a link and the file it leads to gets the
 * model (a link to nothing: that file is made), and a file the user may not
 * write is refused, naming it, and left as it was (tried as nobody: root may
 * write any file). The checkpoint writer alike. */
static void test_save_over_files(void **state)
{
    (void)state;
    char dir[512];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl_model_save_XXXXXX")));
    struct stat st;
    const char *kept = test_in_dir(dir, "kept.slm");
    FILE *f = fopen(kept, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(chmod(kept, 0600), 0);
    assert_int_equal(save_to(kept), 0);
    assert_int_equal(stat(kept, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_file_holds(kept, tiny, tiny_size);
    assert_int_equal(chmod(kept, 0640), 0);
    assert_int_equal(checkpoint_to(kept), 0);
    assert_int_equal(stat(kept, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    /* root writing another user's file leaves it theirs (as root, here, the
     * file is given to nobody first; another user can only keep their own) */
    const uid_t owner = geteuid() == 0 ? 65534 : geteuid();
    const gid_t group = geteuid() == 0 ? 65534 : getegid();
    assert_int_equal(chown(kept, owner, group), 0);
    assert_int_equal(save_to(kept), 0);
    assert_int_equal(stat(kept, &st), 0);
    assert_int_equal(st.st_uid, owner);
    assert_int_equal(st.st_gid, group);
    assert_int_equal(st.st_mode & 0777, 0640);

    /* a name at the file-name limit: the temporary name is shortened to fit */
    char longest[NAME_MAX + 1];
    memset(longest, 'm', NAME_MAX);
    longest[NAME_MAX] = '\0';
    assert_int_equal(save_to(test_in_dir(dir, longest)), 0);
    assert_file_holds(test_in_dir(dir, longest), tiny, tiny_size);
    assert_int_equal(save_to(test_in_dir(dir, longest)), 0); /* and over it */
    /* two names that differ only past that cut (a run's labels and cut, x....txt
     * and x....wav) get two patterns of temporary names, each within the limit */
    {
        char a[NAME_MAX + 1], b[NAME_MAX + 1];
        memset(a, 'm', 250);
        strcpy(a + 250, ".txt");
        memcpy(b, a, 250);
        strcpy(b + 250, ".wav");
        char *ta = sl_output_tmp_pattern_of(test_in_dir(dir, a), getpid());
        char *tb = sl_output_tmp_pattern_of(test_in_dir(dir, b), getpid());
        assert_non_null(ta);
        assert_non_null(tb);
        assert_string_not_equal(ta, tb);
        assert_true(strlen(strrchr(ta, '/') + 1) <= NAME_MAX);
        free(ta);
        free(tb);
    }

    assert_int_equal(mkdir(test_in_dir(dir, "real"), 0755), 0);
    assert_int_equal(symlink("real/model.slm", test_in_dir(dir, "link.slm")), 0); /* to nothing yet */
    assert_int_equal(save_to(test_in_dir(dir, "link.slm")), 0);
    assert_int_equal(save_to(test_in_dir(dir, "link.slm")), 0); /* and over the file it leads to */
    assert_int_equal(lstat(test_in_dir(dir, "link.slm"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_file_holds(test_in_dir(dir, "real/model.slm"), tiny, tiny_size);
    assert_int_equal(symlink("link.slm", test_in_dir(dir, "link2.ckpt")), 0); /* a chain */
    assert_int_equal(checkpoint_to(test_in_dir(dir, "link2.ckpt")), 0);
    assert_int_equal(lstat(test_in_dir(dir, "link2.ckpt"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_checkpoint(test_in_dir(dir, "real/model.slm"));
    assert_true(test_no_tmp_left(dir) && test_no_tmp_left(test_in_dir(dir, "real")));

    /* nobody may make files in dir, and replace those there by rename */
    assert_int_equal(chmod(dir, 0777), 0);
    const char *ro = test_in_dir(dir, "ro.slm");
    f = fopen(ro, "w");
    assert_non_null(f);
    fputs("old", f);
    fclose(f);
    assert_int_equal(chmod(ro, 0444), 0);
    assert_int_equal(unprivileged(refused_to, ro), 0);
    assert_int_equal(unprivileged(checkpoint_to, ro), 1);
    assert_file_holds(ro, "old", 3);
    assert_true(test_no_tmp_left(dir));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* 0 when saving the model, or with ckpt a checkpoint, to path is refused with
 * a message saying `want` about it. */
static int refused_saying(const char *path, int ckpt, const char *want)
{
    char err[SL_ERR_LEN] = "", said[1200];
    sl_model *m = tiny_model();
    size_t np = sl_model_num_params(m);
    float *am = calloc(np, sizeof *am), *av = calloc(np, sizeof *av);
    sl_train_state st;
    memset(&st, 0, sizeof st);
    int rc = !am || !av ? 0
             : ckpt     ? sl_checkpoint_save(path, m, am, av, &st, err, sizeof err)
                        : sl_model_save(m, path, err, sizeof err);
    free(am);
    free(av);
    sl_model_free(m);
    snprintf(said, sizeof said, "%s: %s", path, want);
    if (rc != -1 || !strstr(err, said))
        printf("%s: %d, said '%s' (want '%s')\n", path, rc, err, said);
    return rc == -1 && strstr(err, said) ? 0 : 1;
}

/* In a folder every user may write and only a file's owner remove (sticky,
 * world-writable: /tmp), another user's link is not followed and another
 * user's file not replaced, by the model and checkpoint writers as by the
 * command (the kernel's protected_symlinks and protected_regular, which the
 * writers' own following and rename would bypass); the writer's own link is
 * followed. The other user's files need root (given to nobody). */
static void test_save_shared_folder(void **state)
{
    (void)state;
    char dir[512], cmd[1200];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl_model_save_XXXXXX")));
    const char *shared = test_in_dir(dir, "shared");
    assert_int_equal(mkdir(shared, 0777), 0);
    assert_int_equal(chmod(shared, 01777), 0);
    const char *victim = test_in_dir(dir, "victim");
    test_write_text(victim, "precious", 0600);
    char link[600], dangling[600], theirs[600], mine[600], real[600];
    snprintf(link, sizeof link, "%s/model.slm", shared);
    snprintf(dangling, sizeof dangling, "%s/new.ckpt", shared);
    snprintf(theirs, sizeof theirs, "%s/theirs.slm", shared);
    snprintf(mine, sizeof mine, "%s/mine.slm", shared);
    snprintf(real, sizeof real, "%s/mine-real.slm", dir);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(symlink(test_in_dir(dir, "created"), dangling), 0);
    test_write_text(theirs, "theirs", 0644);
    assert_int_equal(symlink(real, mine), 0);
    if (geteuid() == 0) {
        assert_int_equal(lchown(link, 65534, 65534), 0);
        assert_int_equal(lchown(dangling, 65534, 65534), 0);
        assert_int_equal(chown(theirs, 65534, 65534), 0);
        const char *link_said = "a link another user owns in a shared folder (sticky, "
                                "world-writable): not followed, as the kernel would not";
        const char *file_said = "a file another user owns in a shared folder (sticky, "
                                "world-writable): not replaced, as the kernel would not";
        assert_int_equal(refused_saying(link, 0, link_said), 0);
        assert_int_equal(refused_saying(link, 1, link_said), 0);
        assert_int_equal(refused_saying(dangling, 1, link_said), 0);
        assert_int_equal(refused_saying(theirs, 0, file_said), 0);
        assert_int_equal(refused_saying(theirs, 1, file_said), 0);
        assert_file_holds(victim, "precious", 8);
        assert_file_holds(theirs, "theirs", 6);
        struct stat st;
        assert_int_equal(stat(theirs, &st), 0);
        assert_int_equal(st.st_uid, 65534);
        assert_int_equal(lstat(test_in_dir(dir, "created"), &st), -1);
    } else {
        print_message("(another user's files in a shared folder: tried as root alone)\n");
    }
    assert_int_equal(save_to(mine), 0);
    assert_file_holds(real, tiny, tiny_size);
    assert_int_equal(checkpoint_to(mine), 0);
    assert_checkpoint(real);
    assert_true(test_no_tmp_left(dir) && test_no_tmp_left(shared));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The temporary file has a name no one can foresee (PATH.tmp.<pid>.XXXXXX):
 * what was the name, PATH.tmp.<pid>, taken by a file or by a link to another
 * file, stops neither the model nor the checkpoint writer, and both are left
 * as they were; a 0600 file replaced stays 0600. */
static void test_save_tmp_name_taken(void **state)
{
    (void)state;
    char dir[512], cmd[600], planted[700];
    assert_non_null(mkdtemp(test_tmp_path(dir, sizeof dir, "sl_model_save_XXXXXX")));
    const char *out = test_in_dir(dir, "out.slm"), *victim = test_in_dir(dir, "victim");
    test_write_text(out, "old", 0600);
    test_write_text(victim, "precious", 0644);
    snprintf(planted, sizeof planted, "%s.tmp.%ld", out, (long)getpid());
    test_write_text(planted, "planted", 0644);
    assert_int_equal(save_to(out), 0);
    assert_file_holds(out, tiny, tiny_size);
    assert_file_holds(planted, "planted", 7);
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(unlink(planted), 0);
    assert_int_equal(symlink(victim, planted), 0);
    assert_int_equal(checkpoint_to(out), 0);
    assert_checkpoint(out);
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(lstat(planted, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_file_holds(victim, "precious", 8);
    assert_int_equal(unlink(planted), 0);
    assert_true(test_no_tmp_left(dir));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_fields),
        cmocka_unit_test(test_save_roundtrip),
        cmocka_unit_test(test_every_truncation),
        cmocka_unit_test(test_every_flipped_byte),
        cmocka_unit_test(test_unknown_version),
        cmocka_unit_test(test_no_path),
        cmocka_unit_test(test_bad_dimensions),
        cmocka_unit_test(test_non_finite_weights),
        cmocka_unit_test(test_bad_class_names),
        cmocka_unit_test(test_create_checks),
        cmocka_unit_test(test_trailing_bytes_and_tensor_table),
        cmocka_unit_test(test_save_to_fifo_and_device),
        cmocka_unit_test(test_save_over_files),
        cmocka_unit_test(test_save_shared_folder),
        cmocka_unit_test(test_save_tmp_name_taken),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
