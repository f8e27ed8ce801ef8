/* `seqlabel features` end to end: the built command (path in SL_SEQLABEL) on
 * files this test writes. The .npy it writes must be bit-identical to the
 * library's sl_features fed with the same samples, the TSV must hold the same
 * float32 values, and every bad input must give a non-zero exit, one line on
 * stderr naming the file, and no output or temporary file left behind. An
 * output over what is there keeps a file's mode, replaces a link's file and
 * refuses a file the user may not write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <time.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seqlabel.h"
#include "tests/common/test_files.h"

static char tmpdir[256];
static char outdir[300];
static const char *seqlabel;

static const char *in_path(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static const char *out_path(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", outdir, name);
    return buf[k];
}

static int setup(void **state)
{
    (void)state;
    seqlabel = getenv("SL_SEQLABEL");
    if (!seqlabel) {
        fprintf(stderr, "SL_SEQLABEL is not set (meson test sets it)\n");
        return -1;
    }
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/sl-tools-test-XXXXXX", base);
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(outdir, sizeof outdir, "%s/out", tmpdir);
    return mkdir(outdir, 0700);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs `seqlabel ARGS` through the shell, stderr captured into err (its full
 * text). Returns the exit status (128 + signal if killed). */
static int run(char *err, size_t errlen, const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char errfile[600]; /* not in_path's: its few buffers hold the caller's paths */
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", tmpdir);
    snprintf(cmd, sizeof cmd, "'%s' %s 2>'%s'", seqlabel, args, errfile);
    int st = system(cmd);
    if (err) {
        FILE *fp = fopen(errfile, "r");
        size_t n = fp ? fread(err, 1, errlen - 1, fp) : 0;
        err[n] = '\0';
        if (fp)
            fclose(fp);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Noise plus a sine, int16, so every decoder yields exactly s / 32768. */
static short *make_pcm(long frames, int channels, unsigned seed)
{
    short *pcm = malloc(sizeof(short) * frames * channels);
    uint32_t x = seed * 2654435761u + 1;
    for (long i = 0; i < frames * channels; i++) {
        x = x * 1664525u + 1013904223u;
        pcm[i] = (short)(((int)(x >> 20) - 2048) + 8000 * sin(0.06 * (double)i));
    }
    return pcm;
}

static void write_wav(const char *path, int rate, int channels, const short *pcm, long frames)
{
    SF_INFO info = {.samplerate = rate, .channels = channels, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_short(sf, pcm, frames), frames);
    sf_close(sf);
}

static void write_float_wav(const char *path, int rate, const float *pcm, long frames)
{
    SF_INFO info = {.samplerate = rate, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_float(sf, pcm, frames), frames);
    sf_close(sf);
}

static char *slurp(const char *path, long *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("cannot read %s", path);
    fseek(fp, 0, SEEK_END);
    *size = ftell(fp);
    rewind(fp);
    char *b = malloc(*size + 1);
    assert_int_equal(fread(b, 1, *size, fp), *size);
    b[*size] = '\0';
    fclose(fp);
    return b;
}

/* 1 when the files at a and b hold the same bytes. */
static int same_bytes(const char *a, const char *b)
{
    long na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = na == nb && !memcmp(x, y, (size_t)na);
    free(x);
    free(y);
    return same;
}

/* Parses a .npy the way numpy does for '<f4' C-order 2-D arrays. */
static float *load_npy(const char *path, long *rows, long *cols)
{
    long size;
    char *b = slurp(path, &size);
    assert_true(size >= 10);
    assert_memory_equal(b, "\x93NUMPY\x01\x00", 8);
    long hlen = (unsigned char)b[8] | ((unsigned char)b[9] << 8);
    assert_true(10 + hlen <= size);
    assert_int_equal((10 + hlen) % 64, 0); /* data aligned as numpy wants */
    char *h = strndup(b + 10, hlen);
    assert_non_null(strstr(h, "'descr': '<f4'"));
    assert_non_null(strstr(h, "'fortran_order': False"));
    char *sh = strstr(h, "'shape': (");
    assert_non_null(sh);
    assert_int_equal(sscanf(sh, "'shape': (%ld, %ld)", rows, cols), 2);
    assert_int_equal(h[hlen - 1], '\n');
    assert_int_equal(size - 10 - hlen, (long)sizeof(float) * *rows * *cols);
    float *data = malloc(sizeof(float) * (*rows * *cols + 1));
    memcpy(data, b + 10 + hlen, sizeof(float) * *rows * *cols);
    free(h);
    free(b);
    return data;
}

typedef struct {
    float *data;
    long rows, dim, cap;
} frames_buf;

static int collect(void *user, int64_t index, const float *frame, int dim)
{
    frames_buf *fb = user;
    assert_int_equal(index, fb->rows);
    if ((fb->rows + 1) * dim > fb->cap) {
        fb->cap = 2 * (fb->rows + 1) * dim;
        fb->data = realloc(fb->data, sizeof(float) * fb->cap);
    }
    memcpy(fb->data + fb->rows * dim, frame, sizeof(float) * dim);
    fb->rows++;
    fb->dim = dim;
    return 0;
}

/* The library's own features of a file: sl_audio_open + sl_features. */
static frames_buf reference(const char *path, int rate, const sl_feature_config *base)
{
    char err[SL_ERR_LEN];
    sl_audio_reader *r = sl_audio_open(path, rate, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    sl_feature_config cfg = *base;
    cfg.sample_rate = sl_audio_rate(r);
    sl_features *f = sl_features_new(&cfg, err, sizeof err);
    if (!f)
        fail_msg("%s", err);
    frames_buf fb = {0};
    fb.dim = sl_feature_dim(&cfg);
    float buf[1000];
    long n;
    while ((n = sl_audio_read(r, buf, 1000, err, sizeof err)) > 0)
        assert_int_equal(sl_features_push(f, buf, n, collect, &fb, err, sizeof err), 0);
    assert_int_equal(n, 0);
    sl_features_free(f);
    sl_audio_close(r);
    return fb;
}

static void assert_npy_equals(const char *npy, const frames_buf *ref)
{
    long rows, cols;
    float *data = load_npy(npy, &rows, &cols);
    assert_int_equal(rows, ref->rows);
    assert_int_equal(cols, ref->dim);
    assert_memory_equal(data, ref->data, sizeof(float) * rows * cols);
    free(data);
}

/* Default settings at the file's own rate: bit-identical to the library, also
 * for the same samples in Matroska, which GStreamer decodes. */
static void test_npy_default(void **state)
{
    (void)state;
    const long n = 16000 + 1234;
    short *pcm = make_pcm(n, 1, 1);
    const char *wav = in_path("speechlike.wav");
    write_wav(wav, 16000, 1, pcm, n);
    char err[4096];
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", wav, out_path("a.npy")), 0);
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    frames_buf ref = reference(wav, 0, &cfg);
    assert_int_equal(ref.rows, sl_feature_num_frames(&(sl_feature_config){.sample_rate = 16000,
        .frame_length_ms = 25, .frame_shift_ms = 10}, n));
    assert_int_equal(ref.rows, 1 + (n - 400) / 160);
    assert_npy_equals(out_path("a.npy"), &ref);
    /* the same samples as FLAC in Matroska, which GStreamer decodes */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "gst-launch-1.0 -q filesrc location='%s' ! wavparse ! audioconvert ! "
             "flacenc ! matroskamux ! filesink location='%s'", wav, in_path("speechlike.mka"));
    assert_int_equal(system(cmd), 0);
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", in_path("speechlike.mka"),
                         out_path("mka.npy")), 0);
    assert_npy_equals(out_path("mka.npy"), &ref);
    free(ref.data);
    free(pcm);
}

/* Non-default options reach the extractor: 40 bins, hann, energy; 13 MFCCs;
 * a stereo 44.1 kHz file resampled to 16 kHz. */
static void test_npy_options(void **state)
{
    (void)state;
    const long n = 44100;
    short *pcm = make_pcm(n, 2, 2);
    const char *wav = in_path("stereo44k.wav");
    write_wav(wav, 44100, 2, pcm, n);
    char err[4096];

    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    cfg.num_mel_bins = 40;
    cfg.window = SL_WINDOW_HANN;
    cfg.use_energy = 1;
    cfg.frame_length_ms = 20;
    cfg.low_freq = 60;
    cfg.high_freq = -400;
    assert_int_equal(run(err, sizeof err,
                         "features '%s' -o '%s' --mel-bins 40 --window hann --energy --sample-rate 16000 "
                         "--frame-length 20 --low-freq 60 --high-freq -400",
                         wav, out_path("b.npy")), 0);
    frames_buf ref = reference(wav, 16000, &cfg);
    assert_int_equal(ref.dim, 41);
    assert_true(ref.rows >= 98 && ref.rows <= 99); /* 16000 +- 1 samples after resampling */
    assert_npy_equals(out_path("b.npy"), &ref);
    free(ref.data);

    sl_feature_config_default(&cfg);
    cfg.num_ceps = 13;
    cfg.num_mel_bins = 23;
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --mfcc 13 --mel-bins 23", wav,
                         out_path("c.npy")), 0);
    ref = reference(wav, 0, &cfg);
    assert_int_equal(ref.dim, 13);
    assert_npy_equals(out_path("c.npy"), &ref);
    free(ref.data);

    /* seeded dither: reproducible, and not silently ignored */
    sl_feature_config_default(&cfg);
    cfg.dither = 1.5f;
    cfg.dither_seed = 7;
    cfg.frame_shift_ms = 12.5f;
    cfg.window = SL_WINDOW_RECTANGULAR;
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --dither 1.5 --seed 7 --frame-shift 12.5 "
                         "--window rectangular --sample-rate 22050", wav, out_path("d.npy")), 0);
    ref = reference(wav, 22050, &cfg);
    assert_npy_equals(out_path("d.npy"), &ref);
    free(ref.data);
    cfg.dither = 0;
    ref = reference(wav, 22050, &cfg);
    long rows, cols;
    float *dithered = load_npy(out_path("d.npy"), &rows, &cols);
    assert_int_equal(rows, ref.rows);
    assert_true(memcmp(dithered, ref.data, sizeof(float) * rows * cols) != 0);
    free(dithered);
    free(ref.data);
    free(pcm);
}

/* TSV holds the same float32 values as the .npy; "-o -" and "-" (stdin)
 * give the same bytes as files. */
static void test_tsv_and_stdio(void **state)
{
    (void)state;
    const long n = 8000 * 2;
    short *pcm = make_pcm(n, 1, 3);
    const char *wav = in_path("eight.wav");
    write_wav(wav, 8000, 1, pcm, n);
    char err[4096];
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --mel-bins 23", wav, out_path("d.npy")), 0);
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --mel-bins 23", wav, out_path("d.tsv")), 0);
    long rows, cols;
    float *npy = load_npy(out_path("d.npy"), &rows, &cols);
    assert_int_equal(cols, 23);
    assert_int_equal(rows, 1 + (n - 200) / 80);
    long size;
    char *tsv = slurp(out_path("d.tsv"), &size);
    char *p = tsv;
    for (long i = 0; i < rows; i++)
        for (long j = 0; j < cols; j++) {
            char *end;
            float v = strtof(p, &end);
            assert_true(end != p);
            if (v != npy[i * cols + j])
                fail_msg("tsv[%ld][%ld] = %.9g, npy %.9g", i, j, v, npy[i * cols + j]);
            assert_int_equal(*end, j + 1 < cols ? '\t' : '\n');
            p = end + 1;
        }
    assert_int_equal(*p, '\0');
    free(tsv);

    assert_int_equal(run(err, sizeof err, "features - -o - --format npy --mel-bins 23 < '%s' > '%s'", wav,
                         out_path("e.npy")), 0);
    assert_true(same_bytes(out_path("d.npy"), out_path("e.npy")));
    /* a real pipe into stdin: the reader cannot know the length beforehand */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cat '%s' | '%s' features - -o '%s' --mel-bins 23", wav, seqlabel,
             out_path("h.npy"));
    assert_int_equal(system(cmd), 0);
    assert_true(same_bytes(out_path("d.npy"), out_path("h.npy")));
    /* a named output that is a pipe (/dev/stdout, a FIFO) cannot seek back to
     * the row count either: the same bytes */
    assert_int_equal(run(err, sizeof err, "features '%s' -o /dev/stdout --format npy --mel-bins 23 "
                         "| cat > '%s'", wav, out_path("g.npy")), 0);
    assert_true(same_bytes(out_path("d.npy"), out_path("g.npy")));
    /* assembled in a temporary file of $TMPDIR (tmpfile() took /tmp whatever it
     * said), and one that cannot be made there is said, naming the folder */
    char spool[512];
    snprintf(spool, sizeof spool, "%s", in_path("spool"));
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && TMPDIR='%s' '%s' features '%s' -o - --format npy "
             "--mel-bins 23 | cmp - '%s'", spool, spool, seqlabel, wav, out_path("d.npy"));
    assert_int_equal(system(cmd), 0);
    /* (valgrind makes files of its own in $TMPDIR and cannot start without it:
     * scripts/check-memory.sh says so with SL_VALGRIND; every other run checks) */
    if (!getenv("SL_VALGRIND")) {
        snprintf(cmd, sizeof cmd, "TMPDIR='%s/absent' '%s' features '%s' -o - --format npy "
                 "--mel-bins 23 2>&1 >/dev/null | grep -q '^seqlabel: %s/absent: cannot create "
                 "a temporary file to assemble the .npy output: No such file or directory'",
                 spool, seqlabel, wav, spool);
        assert_int_equal(system(cmd), 0);
    }
    assert_int_equal(run(err, sizeof err, "features '%s' -o - --mel-bins 23 | cat > '%s'", wav,
                         out_path("f.tsv")), 0);
    assert_true(same_bytes(out_path("d.tsv"), out_path("f.tsv")));
    /* nor can a file that standard output appends to, or holds a line before
     * the array: the array follows what is there, whole */
    snprintf(cmd, sizeof cmd, "cd '%s' && printf 'PRE\\n' > i.npy && '%s' features '%s' -o /dev/stdout "
             "--format npy --mel-bins 23 >> i.npy && { echo '# line'; '%s' features '%s' --format npy "
             "-o - --mel-bins 23; } > j.npy && (echo PRE; cat d.npy) | cmp - i.npy && "
             "(echo '# line'; cat d.npy) | cmp - j.npy", outdir, seqlabel, wav, seqlabel, wav);
    assert_int_equal(system(cmd), 0);
    free(npy);
    free(pcm);
}

/* Shorter than one window: not an error, an empty (0, 80) array. */
static void test_short_input(void **state)
{
    (void)state;
    short *pcm = make_pcm(399, 1, 4);
    const char *wav = in_path("short.wav");
    write_wav(wav, 16000, 1, pcm, 399);
    char err[4096];
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", wav, out_path("g.npy")), 0);
    long rows, cols;
    free(load_npy(out_path("g.npy"), &rows, &cols));
    assert_int_equal(rows, 0);
    assert_int_equal(cols, 80);
    free(pcm);
}

/* Lists outdir: names other than `keep` mean something was left behind. */
static void assert_outdir_holds_only(const char *keep)
{
    DIR *d = opendir(outdir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && (!keep || strcmp(e->d_name, keep)))
            fail_msg("left behind after a failure: %s", e->d_name);
    closedir(d);
}

static void clear_outdir(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*", outdir);
    assert_int_equal(system(cmd), 0);
}

/* One bad case: non-zero exit, exactly one stderr line naming `name` and
 * containing `why`, and the pre-existing output untouched, nothing else. */
static void expect_failure(const char *input, const char *name, const char *why, const char *extra)
{
    clear_outdir();
    const char *out = out_path("precious.npy");
    FILE *fp = fopen(out, "w");
    fputs("KEEP", fp);
    fclose(fp);
    char err[4096];
    int rc = run(err, sizeof err, "features '%s' -o '%s' %s", input, out, extra ? extra : "");
    if (rc == 0)
        fail_msg("%s: exit 0, expected a failure", input);
    char *nl = strchr(err, '\n');
    if (!nl || nl[1] != '\0')
        fail_msg("%s: expected exactly one line on stderr, got '%s'", input, err);
    if (!strstr(err, name) || !strstr(err, why))
        fail_msg("%s: message '%s' lacks '%s' or '%s'", input, err, name, why);
    long size;
    char *kept = slurp(out, &size);
    assert_string_equal(kept, "KEEP");
    free(kept);
    assert_outdir_holds_only("precious.npy");
}

static void test_bad_inputs(void **state)
{
    (void)state;
    char path[600];
    expect_failure(in_path("missing.wav"), "missing.wav", "No such file", NULL);

    snprintf(path, sizeof path, "%s", in_path("words.wav"));
    FILE *fp = fopen(path, "w");
    fputs("RIFF? no: words\n", fp);
    fclose(fp);
    expect_failure(path, "words.wav", "not an audio file", NULL);

    snprintf(path, sizeof path, "%s", in_path("empty.wav"));
    fclose(fopen(path, "w"));
    expect_failure(path, "empty.wav", "contains no audio", NULL);

    snprintf(path, sizeof path, "%s", in_path("zero.wav"));
    write_wav(path, 16000, 1, NULL, 0);
    expect_failure(path, "zero.wav", "contains no audio", NULL);

    /* NaN late in a file: frames were already written to the temp file. */
    const long n = 48000;
    float *f = calloc(n, sizeof(float));
    for (long i = 0; i < n; i++)
        f[i] = (float)(0.1 * sin(0.01 * i));
    f[40000] = NAN;
    snprintf(path, sizeof path, "%s", in_path("nan.wav"));
    write_float_wav(path, 16000, f, n);
    expect_failure(path, "nan.wav", "sample 40000", NULL);
    f[40000] = 0;
    f[47999] = -INFINITY;
    snprintf(path, sizeof path, "%s", in_path("inf.wav"));
    write_float_wav(path, 16000, f, n);
    expect_failure(path, "inf.wav", "sample 47999", "--sample-rate 8000");
    /* a sample too large, found after resampling: its value and position are
     * the resampled signal's, and the message says so (they read as the
     * file's: position 20000 of the file was 10000 said) */
    f[47999] = 0;
    f[20000] = 1e12f;
    snprintf(path, sizeof path, "%s", in_path("huge.wav"));
    write_float_wav(path, 16000, f, n);
    expect_failure(path, "huge.wav", "(value and position of the samples, resampled, at 8000 Hz)",
                   "--sample-rate 8000");
    expect_failure(path, "huge.wav", "at sample 20000 is beyond", NULL);
    free(f);

    /* Option errors name the option. */
    short *pcm = make_pcm(4000, 1, 5);
    snprintf(path, sizeof path, "%s", in_path("ok.wav"));
    write_wav(path, 16000, 1, pcm, 4000);
    expect_failure(path, "--mel-bins", "not an integer", "--mel-bins 0");
    /* settings that neither 16 kHz (its Nyquist below 10 kHz) nor 384 kHz (a
     * 500 ms window past 65,536 samples) take, but a 44.1 kHz file's rate does:
     * not refused before the input is read (they were, as a usage error) */
    {
        short *p44 = make_pcm(44100, 1, 6);
        char p44_path[600], e44[4096];
        snprintf(p44_path, sizeof p44_path, "%s", in_path("f44.wav"));
        write_wav(p44_path, 44100, 1, p44, 44100);
        free(p44);
        if (run(e44, sizeof e44, "features '%s' -o '%s' --high-freq 10000 --frame-length 500",
                p44_path, out_path("f44.npy")) != 0)
            fail_msg("44.1 kHz, --high-freq 10000 --frame-length 500: %s", e44);
    }
    expect_failure(path, "--window", "povey", "--window triangle");
    /* The output is the input itself: refused, the audio untouched. */
    char err[4096];
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --format npy", path, path), 1);
    assert_non_null(strstr(err, "is the input"));
    /* a write that fails says why (a full device, written in place, both formats) */
    for (int npy = 0; npy < 2; npy++) {
        assert_int_equal(run(err, sizeof err, "features '%s' -o /dev/full --format %s", path,
                             npy ? "npy" : "tsv"), 1);
        if (!strstr(err, "/dev/full: write failed: No space left on device"))
            fail_msg("%s: '%s'", npy ? "npy" : "tsv", err);
    }
    long size;
    short *kept = (short *)slurp(path, &size);
    assert_int_equal(size, 44 + 4000 * 2);
    assert_memory_equal(kept + 22, pcm, 4000 * sizeof *pcm);
    free(kept);
    free(pcm);
}

/* The output directory does not exist: a clear error, nothing created. */
static void test_missing_output_dir(void **state)
{
    (void)state;
    short *pcm = make_pcm(4000, 1, 6);
    const char *wav = in_path("fine.wav");
    write_wav(wav, 16000, 1, pcm, 4000);
    char err[4096];
    char out[700];
    snprintf(out, sizeof out, "%s/no-such-dir/x.npy", tmpdir);
    assert_int_not_equal(run(err, sizeof err, "features '%s' -o '%s'", wav, out), 0);
    if (!strstr(err, "does not exist") || !strstr(err, "no-such-dir"))
        fail_msg("message: %s", err);
    assert_int_equal(access(out, F_OK), -1);
    free(pcm);
}

/* Settings that do not fit the file's own rate: the error names the file, its
 * rate and the way round (--sample-rate), which works. */
static void test_rate_unfit(void **state)
{
    (void)state;
    short *pcm = make_pcm(4000, 1, 6);
    const char *wav = in_path("low.wav");
    write_wav(wav, 4000, 1, pcm, 4000);
    char err[4096];
    const char *out = in_path("low.npy");
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", wav, out), 1);
    if (!strstr(err, "low.wav at 4000 Hz (its own rate)") || !strstr(err, "too many") ||
        !strstr(err, "--sample-rate 16000 resamples it"))
        fail_msg("message: %s", err);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --sample-rate 16000", wav, out), 0);
    /* the way round only where it is one: not for settings no rate takes */
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s' --mel-bins 256", wav, out), 1);
    if (!strstr(err, "too many") || strstr(err, "--sample-rate"))
        fail_msg("message: %s", err);
    free(pcm);
}

static void test_help(void **state)
{
    (void)state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "'%s' features --help > '%s'", seqlabel, in_path("help.txt"));
    assert_int_equal(system(cmd), 0);
    long size;
    char *help = slurp(in_path("help.txt"), &size);
    const char *opts[] = {"--output", "--format", "--mel-bins", "--window", "--sample-rate", "--frame-length",
                          "--frame-shift", "--low-freq", "--high-freq", "--energy", "--mfcc", "--dither",
                          "--seed", "--resample-quality", "--raw-format", "--raw-rate", "--raw-channels"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strstr(help, opts[i]))
            fail_msg("--help does not describe %s", opts[i]);
    free(help);
}

/* Killed mid-stream (SIGTERM while it waits on a pipe): the temporary file
 * it was writing disappears with it, and no output appears. */
static void test_signal_removes_temp(void **state)
{
    (void)state;
    const long n = 16000;
    short *pcm = make_pcm(n, 1, 10);
    const char *wav = in_path("half.wav");
    write_wav(wav, 16000, 1, pcm, n);
    long size;
    char *bytes = slurp(wav, &size);
    clear_outdir();
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[0], STDIN_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl(seqlabel, seqlabel, "features", "-", "-o", out_path("killed.npy"), (char *)NULL);
        _exit(127);
    }
    close(fds[0]);
    /* the header and half of the samples; the pipe stays open */
    assert_int_equal(write(fds[1], bytes, size / 2), size / 2);
    int seen = 0;
    for (int tries = 0; tries < 500 && !seen; tries++) { /* up to 5 s */
        DIR *d = opendir(outdir);
        struct dirent *e;
        while ((e = readdir(d)))
            seen |= strstr(e->d_name, "killed.npy.tmp") != NULL;
        closedir(d);
        if (!seen)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    assert_true(seen);
    kill(pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(fds[1]);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    assert_outdir_holds_only(NULL);
    free(bytes);
    free(pcm);
}

/* `seqlabel --version` and `seqlabel --help` exist. */
static void test_version_and_help(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' --version > '%s' && '%s' --help >> '%s'", seqlabel,
             in_path("top.txt"), seqlabel, in_path("top.txt"));
    assert_int_equal(system(cmd), 0);
    long size;
    char *text = slurp(in_path("top.txt"), &size);
    assert_non_null(strstr(text, "seqlabel " SL_VERSION_STRING "\n"));
    assert_non_null(strstr(text, "features"));
    free(text);
}

/* Peak RSS (KiB) of one `seqlabel features IN -o OUT` run. */
static long peak_rss_kib(const char *in, const char *out)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(seqlabel, seqlabel, "features", in, "-o", out, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    assert_int_equal(wait4(pid, &st, 0, &ru), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return ru.ru_maxrss;
}

/* Streaming: 20 minutes of audio (19 MB in, 38 MB of .npy out) must not
 * need more memory than 1 second does, give or take 4 MiB. */
static void test_memory_bounded(void **state)
{
    (void)state;
    const int rate = 8000;
    const long block = rate * 10;
    short *pcm = make_pcm(block, 1, 9);
    const char *longwav = in_path("long.wav"), *shortwav = in_path("second.wav");
    write_wav(shortwav, rate, 1, pcm, rate);
    SF_INFO info = {.samplerate = rate, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *sf = sf_open(longwav, SFM_WRITE, &info);
    assert_non_null(sf);
    for (int k = 0; k < 120; k++)
        assert_int_equal(sf_writef_short(sf, pcm, block), block);
    sf_close(sf);
    long small = peak_rss_kib(shortwav, out_path("second.npy"));
    long big = peak_rss_kib(longwav, out_path("long.npy"));
    print_message("peak RSS: 1 s of audio %ld KiB, 20 min %ld KiB\n", small, big);
    assert_true(big - small < 4096);
    long rows, cols;
    free(load_npy(out_path("long.npy"), &rows, &cols));
    assert_int_equal(rows, 1 + (120 * block - 200) / 80);
    unlink(longwav);
    unlink(out_path("long.npy"));
    free(pcm);
}

/* End to end against torchaudio.compliance.kaldi on whole files (fixtures by
 * tests/fixtures/tools/gen_command_reference.py): decoding, downmix, int16
 * scaling, framing and features together. Tolerance: max |diff| <= 1e-3
 * (log-mel, log-energy and MFCC values alike). */
#define TORCHAUDIO_TOLERANCE 1e-3
static void test_against_torchaudio(void **state)
{
    (void)state;
    const char *fixtures = getenv("SL_FIXTURES"), *root = getenv("SL_SOURCE_ROOT");
    assert_non_null(fixtures);
    assert_non_null(root);
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/tools/cases.txt", fixtures);
    FILE *cases = fopen(path, "r");
    if (!cases)
        fail_msg("cannot read %s", path);
    int n_cases = 0;
    double worst = 0;
    while (fgets(line, sizeof line, cases)) {
        if (line[0] == '#')
            continue;
        char name[128], input[512];
        long frames, dim;
        int used = 0;
        assert_int_equal(sscanf(line, "%127s %511s %ld %ld %n", name, input, &frames, &dim, &used), 4);
        char *opts = line + used;
        opts[strcspn(opts, "\n")] = '\0';
        char err[4096];
        if (run(err, sizeof err, "features '%s/%s' -o '%s' %s", root, input, out_path("ref.npy"), opts) != 0)
            fail_msg("%s: %s", name, err);
        long rows, cols;
        float *got = load_npy(out_path("ref.npy"), &rows, &cols);
        assert_int_equal(rows, frames);
        assert_int_equal(cols, dim);
        snprintf(path, sizeof path, "%s/tools/%s.f32", fixtures, name);
        long size;
        float *want = (float *)slurp(path, &size);
        assert_int_equal(size, (long)sizeof(float) * frames * dim);
        double maxd = 0;
        for (long i = 0; i < frames * dim; i++)
            maxd = fmax(maxd, fabs((double)got[i] - want[i]));
        print_message("%-34s %4ld x %-3ld max |seqlabel - torchaudio| = %.3g\n", name, rows, cols, maxd);
        if (!(maxd <= TORCHAUDIO_TOLERANCE))
            fail_msg("%s: max |diff| %.3g exceeds %g", name, maxd, TORCHAUDIO_TOLERANCE);
        worst = fmax(worst, maxd);
        n_cases++;
        free(got);
        free(want);
    }
    fclose(cases);
    assert_int_equal(n_cases, 3);
    print_message("%d files, worst %.3g (tolerance %g)\n", n_cases, worst, TORCHAUDIO_TOLERANCE);
}

/* --model: the features the model takes, checked against the library's
 * extractor with the model's settings over the samples as read (resampled to
 * its rate) and rounded here to the 16-bit grid (ties to even), as its labeler
 * rounds them: a float file off the grid, and 8 kHz audio resampled. Its
 * settings are its own: another given beside it is refused. */
static void test_model_features(void **state)
{
    (void)state;
    const char *root = getenv("SL_SOURCE_ROOT");
    assert_non_null(root);
    char model[1024], err[4096];
    snprintf(model, sizeof model, "%s/model/default.slm", root);
    sl_model *m = sl_model_load(model, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    const sl_feature_config mcfg = *sl_model_feature_config(m);
    sl_model_free(m);
    const long n = 16000;
    short *pcm = make_pcm(n, 1, 12);
    float *off = malloc(sizeof(float) * n);
    for (long i = 0; i < n; i++) /* a third of a step off the grid, and some ties */
        off[i] = ((float)pcm[i] + (i % 7 == 0 ? 0.5f : 0.3f)) / 32768.0f;
    write_float_wav(in_path("off.wav"), 16000, off, n);
    write_wav(in_path("8k.wav"), 8000, 1, pcm, n);
    const char *inputs[2] = {in_path("off.wav"), in_path("8k.wav")};
    for (int k = 0; k < 2; k++) {
        char input[600];
        snprintf(input, sizeof input, "%s", inputs[k]);
        if (run(err, sizeof err, "features '%s' --model '%s' -o '%s'", input, model,
                out_path("m.npy")))
            fail_msg("%s", err);
        char e[SL_ERR_LEN];
        sl_audio_reader *r = sl_audio_open(input, mcfg.sample_rate, e, sizeof e);
        assert_non_null(r);
        sl_features *f = sl_features_new(&mcfg, e, sizeof e);
        assert_non_null(f);
        frames_buf fb = {0};
        float buf[1000];
        long got;
        while ((got = sl_audio_read(r, buf, 1000, e, sizeof e)) > 0) {
            for (long i = 0; i < got; i++)
                buf[i] = fminf(fmaxf(nearbyintf(buf[i] * 32768.0f), -32768.0f), 32767.0f) / 32768.0f;
            assert_int_equal(sl_features_push(f, buf, got, collect, &fb, e, sizeof e), 0);
        }
        sl_features_free(f);
        sl_audio_close(r);
        assert_true(fb.rows > 90 && fb.dim == mcfg.num_mel_bins);
        assert_npy_equals(out_path("m.npy"), &fb);
        free(fb.data);
    }
    /* the float file's samples as they are give other features: the grid is
     * the model's alone */
    assert_int_equal(run(err, sizeof err, "features '%s' --model '%s' -o '%s'", in_path("off.wav"),
                         model, out_path("m.npy")), 0);
    frames_buf plain = reference(in_path("off.wav"), mcfg.sample_rate, &mcfg);
    long rows, cols;
    float *got = load_npy(out_path("m.npy"), &rows, &cols);
    assert_true(rows == plain.rows && cols == plain.dim);
    assert_memory_not_equal(got, plain.data, sizeof(float) * rows * cols);
    free(got);
    free(plain.data);
    assert_int_equal(run(err, sizeof err, "features '%s' --model '%s' --mel-bins=40 -o '%s'",
                         in_path("off.wav"), model, out_path("x.npy")), 2);
    assert_non_null(strstr(err, "features: --mel-bins: --model gives the model's own settings"));
    free(off);
    free(pcm);
}

/* Over what is there (common/output_file.h): an existing file keeps its mode
 * (0600 stays 0600), a symbolic link stays a link and the file it leads to
 * gets the features, and a file this user may not write is refused, naming
 * it, and kept (tried as nobody: root may write any file, and nobody could
 * still rename a file over it in a folder open to all). */
static void test_output_over_files(void **state)
{
    (void)state;
    short *pcm = make_pcm(16000, 1, 11);
    write_wav(in_path("over.wav"), 16000, 1, pcm, 16000);
    free(pcm);
    char err[4096];
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", in_path("over.wav"),
                         in_path("plain.npy")), 0);
    test_write_text(in_path("kept.npy"), "old", 0600);
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", in_path("over.wav"),
                         in_path("kept.npy")), 0);
    struct stat st;
    assert_int_equal(stat(in_path("kept.npy"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_true(same_bytes(in_path("kept.npy"), in_path("plain.npy")));

    assert_int_equal(mkdir(in_path("real"), 0755), 0);
    assert_int_equal(symlink("real/f.npy", in_path("link.npy")), 0);
    assert_int_equal(run(err, sizeof err, "features '%s' -o '%s'", in_path("over.wav"),
                         in_path("link.npy")), 0);
    assert_int_equal(lstat(in_path("link.npy"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_true(same_bytes(in_path("real/f.npy"), in_path("plain.npy")));

    assert_int_equal(chmod(tmpdir, 0777), 0);
    assert_int_equal(chmod(in_path("over.wav"), 0644), 0);
    test_write_text(in_path("ro.npy"), "old", 0444);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' features over.wav -o ro.npy 2> ro.err", seqlabel);
    assert_int_equal(test_system_unprivileged(tmpdir, cmd), 1);
    long n;
    char *said = slurp(in_path("ro.err"), &n), *old = slurp(in_path("ro.npy"), &n);
    assert_non_null(strstr(said, "ro.npy: cannot write: Permission denied"));
    assert_string_equal(old, "old");
    free(said);
    free(old);
    assert_int_equal(chmod(tmpdir, 0700), 0);
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    while ((e = readdir(d)))
        assert_null(strstr(e->d_name, ".tmp."));
    closedir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_npy_default),
        cmocka_unit_test(test_npy_options),
        cmocka_unit_test(test_tsv_and_stdio),
        cmocka_unit_test(test_short_input),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_missing_output_dir),
        cmocka_unit_test(test_rate_unfit),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_against_torchaudio),
        cmocka_unit_test(test_model_features),
        cmocka_unit_test(test_memory_bounded),
        cmocka_unit_test(test_signal_removes_temp),
        cmocka_unit_test(test_output_over_files),
        cmocka_unit_test(test_version_and_help),
    };
    return cmocka_run_group_tests_name("tools/features", tests, setup, teardown);
}
