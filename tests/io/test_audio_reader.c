/* sl_audio_*: files the test writes itself with libsndfile, so every expected
 * value is known analytically (int16 samples decode to s / 32768 exactly in
 * lossless formats; a resampled sine is compared with the analytic sine at the
 * new rate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <math.h>
#include <stdatomic.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "seqlabel.h"
#include "tests/common/test_files.h"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char buf[4][2048];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static int setup_dir(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/sl-io-test-XXXXXX", base);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Integer sine samples: deterministic, exactly representable. */
static short sine16(long i, int ch, double freq, int rate)
{
    return (short)lrint(12000.0 * sin(2.0 * M_PI * freq * (double)i / rate + 0.7 * ch));
}

static void write_short(const char *path, int format, int rate, int channels, const short *data,
                        long frames)
{
    SF_INFO info = {.samplerate = rate, .channels = channels, .format = format};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_short(sf, data, frames), frames);
    sf_close(sf);
}

static void write_float(const char *path, int format, int rate, int channels, const float *data,
                        long frames)
{
    SF_INFO info = {.samplerate = rate, .channels = channels, .format = format};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_float(sf, data, frames), frames);
    sf_close(sf);
}

/* Reads the whole output in chunks of `chunk` samples. */
static float *read_all(sl_audio_reader *r, long chunk, long *n_out)
{
    long cap = 1 << 16, n = 0;
    float *out = malloc(sizeof(float) * cap);
    char err[SL_ERR_LEN];
    for (;;) {
        if (n + chunk > cap) {
            cap = 2 * (n + chunk);
            out = realloc(out, sizeof(float) * cap);
        }
        long got = sl_audio_read(r, out + n, chunk, err, sizeof err);
        if (got < 0)
            fail_msg("unexpected read error: %s", err);
        if (got == 0)
            break;
        n += got;
    }
    *n_out = n;
    return out;
}

/* Opens `path` with `opt`, failing the test with the reader's own error. */
static sl_audio_reader *open_ok_ex(const char *path, const sl_audio_options *opt)
{
    char err[SL_ERR_LEN];
    sl_audio_reader *r = sl_audio_open_ex(path, opt, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    return r;
}

/* Every sample of `path` opened with `opt` (NULL: defaults at target_rate), read
 * `chunk` at a time; *n their count. */
static float *read_path(const char *path, const sl_audio_options *opt, int target_rate, long chunk,
                        long *n)
{
    sl_audio_options dflt;
    sl_audio_options_default(&dflt);
    dflt.target_rate = target_rate;
    sl_audio_reader *r = open_ok_ex(path, opt ? opt : &dflt);
    float *x = read_all(r, chunk, n);
    sl_audio_close(r);
    return x;
}

/* read_path("-") with standard input the file at `path` from byte `at` (`< file`,
 * or part of it read first by a script); standard input put back after. */
static float *read_stdin_at(const char *path, off_t at, long *n)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_true(lseek(fd, at, SEEK_SET) == at);
    int saved = dup(STDIN_FILENO);
    dup2(fd, STDIN_FILENO);
    close(fd);
    float *out = read_path("-", NULL, 0, 1000, n);
    dup2(saved, STDIN_FILENO);
    close(saved);
    return out;
}

/* Fails unless the n_a samples a and the n_b samples b are the same; frees both. */
static void assert_same_samples(float *a, long n_a, float *b, long n_b)
{
    assert_int_equal(n_a, n_b);
    assert_memory_equal(a, b, sizeof *a * (size_t)n_a);
    free(a);
    free(b);
}

/* The same with default options, resampled to `target_rate` (0: the file's). */
static sl_audio_reader *open_ok(const char *path, int target_rate)
{
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.target_rate = target_rate;
    return open_ok_ex(path, &opt);
}

/* Opens `path` and expects the given error fragments at open. */
static void expect_open_error(const char *path, const char *frag)
{
    char err[SL_ERR_LEN] = "";
    sl_audio_reader *r = sl_audio_open(path, 0, err, sizeof err);
    if (r)
        fail_msg("%s opened but should have failed", path);
    if (!strstr(err, frag) || !strstr(err, strcmp(path, "-") ? path : "standard input"))
        fail_msg("error '%s' lacks '%s' or the file name", err, frag);
    assert_null(strchr(err, '\n'));
}

/* Opens `path` and expects reading to fail with the given fragment. */
static void expect_read_error2(const char *path, const char *frag, const char *frag2)
{
    char err[SL_ERR_LEN] = "";
    sl_audio_reader *r = sl_audio_open(path, 0, err, sizeof err);
    if (!r)
        fail_msg("open failed: %s", err);
    float buf[777];
    long got;
    while ((got = sl_audio_read(r, buf, 777, err, sizeof err)) > 0)
        ;
    sl_audio_close(r);
    if (got != -1)
        fail_msg("%s: read ended without an error (expected '%s')", path, frag);
    if (!(strstr(err, frag) || strstr(err, frag2)) || !strstr(err, path))
        fail_msg("error '%s' lacks '%s' or the file name", err, frag);
    assert_null(strchr(err, '\n'));
}

static void expect_read_error(const char *path, const char *frag)
{
    expect_read_error2(path, frag, frag);
}

static void check_lossless(int format, const char *name)
{
    const long n = 20011;
    short *pcm = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = sine16(i, 0, 440.0, 16000);
    pcm[5] = -32768; /* full scale both ways */
    pcm[6] = 32767;
    const char *path = tmp_path(name);
    write_short(path, format, 16000, 1, pcm, n);
    sl_audio_reader *r = open_ok(path, 0);
    assert_int_equal(sl_audio_rate(r), 16000);
    assert_int_equal(sl_audio_file_rate(r), 16000);
    assert_int_equal(sl_audio_channels(r), 1);
    assert_int_equal(sl_audio_file_frames(r), n);
    long got;
    float *out = read_all(r, 1000, &got);
    assert_int_equal(got, n);
    assert_int_equal(sl_audio_file_position(r), n);
    for (long i = 0; i < n; i++)
        if (out[i] != (float)pcm[i] / 32768.0f)
            fail_msg("%s sample %ld: %.9g != %d/32768", name, i, out[i], pcm[i]);
    sl_audio_close(r);
    free(out);
    free(pcm);
}

static void test_wav_exact(void **state)
{
    (void)state;
    check_lossless(SF_FORMAT_WAV | SF_FORMAT_PCM_16, "sine.wav");
}

static void sh_ok(const char *what);

/* A path longer than libsndfile takes by name (1023 bytes; the system's
 * limit is 4096): read as any other. */
static void test_long_path(void **state)
{
    (void)state;
    check_lossless(SF_FORMAT_WAV | SF_FORMAT_PCM_16, "long.wav"); /* (written by libsndfile) */
    char folder[1100] = "", cmd[2400];
    for (int k = 0; k < 4; k++) { /* four names of 250 bytes, each under NAME_MAX */
        size_t at = strlen(folder);
        memset(folder + at, 'a' + k, 250);
        folder[at + 250] = '/';
        folder[at + 251] = '\0';
    }
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp long.wav '%s'", folder, folder);
    sh_ok(cmd);
    strcat(folder, "long.wav");
    assert_true(strlen(tmp_path(folder)) > 1024);
    long n, n_long;
    float *x = read_path(tmp_path("long.wav"), NULL, 0, 1000, &n);
    float *y = read_path(tmp_path(folder), NULL, 0, 1000, &n_long);
    assert_int_equal(n_long, n);
    assert_memory_equal(y, x, sizeof *x * (size_t)n);
    free(x);
    free(y);
}

static void test_flac_exact(void **state)
{
    (void)state;
    check_lossless(SF_FORMAT_FLAC | SF_FORMAT_PCM_16, "sine.flac");
}

static void test_aiff_exact(void **state)
{
    (void)state;
    check_lossless(SF_FORMAT_AIFF | SF_FORMAT_PCM_16, "sine.aiff");
}

/* Vorbis is lossy: the decoded sine (amplitude 0.37) must stay close to the
 * analytic one: max error < 0.05, RMS error < 0.005 (libsndfile's default
 * quality gives about 0.011 max here). Sample-aligned: no codec delay. */
static void test_ogg_vorbis_close(void **state)
{
    (void)state;
    const long n = 16000;
    float *pcm = malloc(sizeof(float) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = (float)(0.37 * sin(2.0 * M_PI * 440.0 * i / 16000.0));
    const char *path = tmp_path("sine.ogg");
    write_float(path, SF_FORMAT_OGG | SF_FORMAT_VORBIS, 16000, 1, pcm, n);
    sl_audio_reader *r = open_ok(path, 0);
    long got;
    float *out = read_all(r, 4096, &got);
    assert_int_equal(got, n);
    double maxd = 0, sq = 0;
    for (long i = 200; i < n - 200; i++) {
        maxd = fmax(maxd, fabs(out[i] - pcm[i]));
        sq += (out[i] - pcm[i]) * (double)(out[i] - pcm[i]);
    }
    double rms = sqrt(sq / (n - 400));
    print_message("vorbis: max |decoded - sine| = %.3g, rms %.3g\n", maxd, rms);
    assert_true(maxd < 0.05);
    assert_true(rms < 0.005);
    sl_audio_close(r);
    free(out);
    free(pcm);
}

/* Stereo and 3-channel files: the mono output is exactly the mean. */
static void test_downmix_exact(void **state)
{
    (void)state;
    for (int ch = 2; ch <= 3; ch++) {
        const long n = 9001;
        short *pcm = malloc(sizeof(short) * n * ch);
        for (long i = 0; i < n; i++)
            for (int c = 0; c < ch; c++)
                pcm[i * ch + c] = sine16(i, c, 300.0 + 100 * c, 16000);
        pcm[0] = pcm[1] = 32767; /* the sum exceeds int16: still exact in float */
        const char *path = tmp_path(ch == 2 ? "stereo.wav" : "three.wav");
        write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, ch, pcm, n);
        sl_audio_reader *r = open_ok(path, 0);
        assert_int_equal(sl_audio_channels(r), ch);
        long got;
        float *out = read_all(r, 333, &got);
        assert_int_equal(got, n);
        for (long i = 0; i < n; i++) {
            double s = 0; /* in double: the exact mean, then rounded once */
            for (int c = 0; c < ch; c++)
                s += pcm[i * ch + c] / 32768.0;
            float want = (float)(s / ch);
            if (out[i] != want)
                fail_msg("%d channels, sample %ld: %.9g != %.9g", ch, i, out[i], want);
        }
        sl_audio_close(r);
        free(out);
        free(pcm);
    }
}

/* sl_audio_options.channel: that channel's samples alone, exactly at the file's
 * rate and, resampled, the very samples of a mono file holding that channel;
 * a channel the file lacks is refused, the file named. */
static void test_one_channel(void **state)
{
    (void)state;
    const int ch = 3;
    const long n = 12345;
    short *pcm = malloc(sizeof(short) * n * ch), *plane = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        for (int c = 0; c < ch; c++)
            pcm[i * ch + c] = sine16(i, c, 300.0 + 100 * c, 44100);
    char path[600], plane_path[600]; /* tmp_path's buffer is reused */
    snprintf(path, sizeof path, "%s", tmp_path("three44.wav"));
    snprintf(plane_path, sizeof plane_path, "%s", tmp_path("plane.wav"));
    write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 44100, ch, pcm, n);
    for (int k = 1; k <= ch; k++) {
        sl_audio_options opt;
        sl_audio_options_default(&opt);
        opt.channel = k;
        long got;
        float *out = read_path(path, &opt, 0, 1000, &got);
        assert_int_equal(got, n);
        for (long i = 0; i < n; i++)
            if (out[i] != pcm[i * ch + k - 1] / 32768.0f)
                fail_msg("channel %d, sample %ld: %.9g", k, i, out[i]);
        free(out);
        /* resampled: as the mono file of that channel */
        for (long i = 0; i < n; i++)
            plane[i] = pcm[i * ch + k - 1];
        write_short(plane_path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 44100, 1, plane, n);
        opt.target_rate = 16000;
        float *a = read_path(path, &opt, 0, 777, &got);
        long want;
        float *b = read_path(plane_path, NULL, 16000, 512, &want);
        assert_same_samples(a, got, b, want);
    }
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.channel = 4;
    char err[SL_ERR_LEN];
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "three44.wav: has 3 channel(s), so no channel 4"));
    free(pcm);
    free(plane);
}

/* The tap gets the file's own samples (interleaved, at its rate, before the
 * downmix and the resampler) in order, each exactly once, as doubles that hold
 * them exactly: 32-bit integers with all their bits (floats keep 24); the
 * format is the file's. What the reader returns is the same with a tap and
 * without, so `seqlabel label --cut` labels as `seqlabel label` does. */
typedef struct {
    double *x;
    long n, cap;
    int channels;
} tapped;

static void tap_into(void *user, const double *frames, long n_frames, int channels)
{
    tapped *t = user;
    t->channels = channels;
    assert_true(t->n + n_frames * channels <= t->cap);
    memcpy(t->x + t->n, frames, sizeof *frames * (size_t)(n_frames * channels));
    t->n += n_frames * channels;
}

static void test_tap(void **state)
{
    (void)state;
    const long n = 30011;
    int *pcm = malloc(sizeof(int) * n * 2);
    uint32_t seed = 12345;
    for (long i = 0; i < n; i++)
        for (int c = 0; c < 2; c++) {
            seed = seed * 1664525u + 1013904223u; /* low bits a float cannot hold */
            pcm[i * 2 + c] = sine16(i, c, 440.0 + 200 * c, 44100) * 65536 + (int)(seed >> 16);
        }
    const char *path = tmp_path("tap.wav");
    SF_INFO info = {.samplerate = 44100, .channels = 2, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_32};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_int(sf, pcm, n), n);
    sf_close(sf);
    for (int rate = 16000; rate >= 0; rate -= 16000) { /* resampled, and at the file's rate */
        tapped t = {.x = malloc(sizeof(double) * n * 2), .cap = n * 2};
        sl_audio_options opt;
        sl_audio_options_default(&opt);
        opt.target_rate = rate;
        opt.tap = tap_into;
        opt.tap_user = &t;
        sl_audio_reader *r = open_ok_ex(path, &opt);
        assert_int_equal(sl_audio_file_format(r), SF_FORMAT_WAV | SF_FORMAT_PCM_32);
        long got, got_plain;
        float *out = read_all(r, 777, &got);
        sl_audio_close(r);
        assert_int_equal(t.channels, 2);
        assert_int_equal(t.n, n * 2);
        for (long i = 0; i < n * 2; i++)
            if (t.x[i] != pcm[i] / 2147483648.0)
                fail_msg("tapped sample %ld: %.17g != %.17g", i, t.x[i], pcm[i] / 2147483648.0);
        opt.tap = NULL;
        r = open_ok_ex(path, &opt);
        float *plain = read_all(r, 777, &got_plain);
        sl_audio_close(r);
        assert_same_samples(out, got, plain, got_plain);
        free(t.x);
    }
    free(pcm);
}

/* 44.1 kHz -> 16 kHz: sines at 1, 7 and 7.8 kHz (7.8 kHz = 97.5% of the new
 * Nyquist, inside BEST's pass band; libsamplerate's best converter, used
 * before, took 16.5 dB off it) must come out as the same sines sampled at
 * 16 kHz. Edges (400 samples, 25 ms) are skipped: a filter this steep rings
 * that long after the sine's abrupt start. */
static double resampled_sine_error(double freq, double amp, int read_chunk,
                                   sl_resample_quality quality)
{
    const int in_rate = 44100, out_rate = 16000;
    const long n = in_rate; /* 1 s */
    float *pcm = malloc(sizeof(float) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = (float)(amp * sin(2.0 * M_PI * freq * i / in_rate));
    const char *path = tmp_path("sine44k.wav");
    write_float(path, SF_FORMAT_WAV | SF_FORMAT_FLOAT, in_rate, 1, pcm, n);
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.target_rate = out_rate;
    opt.quality = quality;
    sl_audio_reader *r = open_ok_ex(path, &opt);
    assert_int_equal(sl_audio_rate(r), out_rate);
    assert_int_equal(sl_audio_file_rate(r), in_rate);
    long got;
    float *out = read_all(r, read_chunk, &got);
    /* round(n * ratio) samples, give or take one. */
    assert_true(labs(got - 16000) <= 1);
    double maxd = 0;
    for (long i = 400; i < got - 400; i++)
        maxd = fmax(maxd, fabs(out[i] - amp * sin(2.0 * M_PI * freq * i / out_rate)));
    sl_audio_close(r);
    free(out);
    free(pcm);
    print_message("resample %g Hz (quality %d, chunk %d): max |out - sine| = %.3g\n", freq,
                  (int)quality, read_chunk, maxd);
    return maxd;
}

static void test_resample_sine(void **state)
{
    (void)state;
    assert_true(resampled_sine_error(1000.0, 0.5, 4096, SL_RESAMPLE_BEST) < 1e-5);
    assert_true(resampled_sine_error(7000.0, 0.5, 4096, SL_RESAMPLE_BEST) < 2e-4);
    assert_true(resampled_sine_error(7800.0, 0.5, 4096, SL_RESAMPLE_BEST) < 1e-3);
    /* The other qualities are what they say: HQ keeps 7 kHz, LQ keeps 1 kHz
     * and has already lost 7 kHz (-13 dB, docs/io.md). */
    assert_true(resampled_sine_error(7000.0, 0.5, 4096, SL_RESAMPLE_MEDIUM) < 1e-3);
    assert_true(resampled_sine_error(1000.0, 0.5, 4096, SL_RESAMPLE_FAST) < 1e-4);
    assert_true(resampled_sine_error(7000.0, 0.5, 4096, SL_RESAMPLE_FAST) > 0.2);
}

/* The output does not depend on how the caller slices its reads. */
static void test_resample_read_sizes(void **state)
{
    (void)state;
    const long n = 30000;
    float *pcm = malloc(sizeof(float) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = (float)(0.3 * sin(0.05 * i) + 0.2 * sin(0.31 * i * (1 + i * 1e-5)));
    const char *path = tmp_path("chirp.wav");
    write_float(path, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 22050, 1, pcm, n);
    char err[SL_ERR_LEN];
    sl_audio_reader *a = sl_audio_open(path, 16000, err, sizeof err);
    sl_audio_reader *b = sl_audio_open(path, 16000, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    long na, nb;
    float *oa = read_all(a, 1, &na);
    float *ob = read_all(b, 100000, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(oa, ob, sizeof(float) * na);
    sl_audio_close(a);
    sl_audio_close(b);
    free(oa);
    free(ob);
    free(pcm);
}

/* Runs a shell command in the test's folder; fails the test if it fails. */
static void sh_ok(const char *what)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s", tmp_path(""), what);
    if (system(cmd) != 0)
        fail_msg("failed: %s", what);
}

/* What libsndfile does not read, GStreamer decodes: FLAC in Matroska, alone and
 * beside a video track, gives exactly the WAV's samples, at its own rate and
 * channels and resampled (the length unknown until the end, as a pipe's, and
 * no format libsndfile writes), also through a FIFO named as such media; a
 * video without sound, a file GStreamer cannot
 * type and, with no_gstreamer, any such file are refused, named. */
static void test_gstreamer_decodes(void **state)
{
    (void)state;
    const long n = 44100 + 777;
    short *pcm = malloc(sizeof(short) * 2 * n);
    for (long i = 0; i < n; i++)
        for (int c = 0; c < 2; c++)
            pcm[2 * i + c] = sine16(i, c, 440.0 + 110 * c, 44100);
    char wav[600];
    snprintf(wav, sizeof wav, "%s", tmp_path("g.wav"));
    write_short(wav, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 44100, 2, pcm, n);
    sh_ok("gst-launch-1.0 -q filesrc location=g.wav ! wavparse ! audioconvert ! flacenc ! "
          "matroskamux ! filesink location=g.mka");
    /* a video whose picture (4 s) outlasts its sound (1.02 s): not a cut file */
    sh_ok("gst-launch-1.0 -q matroskamux name=m ! filesink location=gv.mkv  filesrc "
          "location=g.wav ! wavparse ! audioconvert ! flacenc ! m.  videotestsrc num-buffers=40 ! "
          "video/x-raw,width=64,height=48,framerate=10/1 ! jpegenc ! m.");
    sh_ok("gst-launch-1.0 -q videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48 ! "
          "jpegenc ! matroskamux ! filesink location=v.mkv && echo not media > t.mp4");
    assert_int_equal(sl_audio_name_known("x.MKA"), 2);
    assert_int_equal(sl_audio_name_known("x.m4a"), 2);
    assert_int_equal(sl_audio_name_known("x.wav"), 1);
    assert_int_equal(sl_audio_name_known("x.8svx"), 1);
    for (int rate = 0; rate <= 16000; rate += 16000)
        for (int v = 0; v < 2; v++) {
            long want_n, got_n;
            float *want = read_path(wav, NULL, rate, 1000, &want_n);
            char path[600];
            snprintf(path, sizeof path, "%s", tmp_path(v ? "gv.mkv" : "g.mka"));
            sl_audio_reader *r = open_ok(path, rate);
            assert_int_equal(sl_audio_file_rate(r), 44100);
            assert_int_equal(sl_audio_channels(r), 2);
            assert_int_equal(sl_audio_file_frames(r), -1);
            assert_int_equal(sl_audio_file_format(r), 0);
            float *got = read_all(r, 1000, &got_n);
            sl_audio_close(r);
            assert_same_samples(got, got_n, want, want_n);
        }
    /* through a FIFO: named as GStreamer's media, the same samples; named
     * otherwise, refused with the way round (libsndfile has read its start) */
    {
        long want_n, got_n;
        float *want = read_path(wav, NULL, 0, 1000, &want_n);
        sh_ok("mkfifo fifo.mka fifo.x && (timeout 60 cat g.mka > fifo.mka 2>/dev/null &) && "
              "(timeout 60 cat g.mka > fifo.x 2>/dev/null &)");
        float *got = read_path(tmp_path("fifo.mka"), NULL, 0, 1000, &got_n);
        assert_same_samples(got, got_n, want, want_n);
        expect_open_error(tmp_path("fifo.x"), "fifo.x: not an audio file in a format libsndfile "
                          "reads (headerless samples: seqlabel label and features read them given "
                          "--raw-format and --raw-rate; other media through a FIFO: name it .mka, .mp4, ... "
                          "or give it on standard input as fd://0");
        /* an MP4 (QuickTime) whose index comes after 10 MB of samples cannot be
         * read from a pipe: said with GStreamer's own reason, not only its
         * "general stream error" */
        sh_ok("gst-launch-1.0 -q audiotestsrc num-buffers=3500 samplesperbuffer=1600 ! "
              "audio/x-raw,rate=16000,channels=1,format=S16LE ! qtmux ! filesink location=late.mov "
              "&& mkfifo fifo.mov && (timeout 60 cat late.mov > fifo.mov 2>/dev/null &)");
        expect_open_error(tmp_path("fifo.mov"), "GStreamer encountered a general stream error. "
                          "(no 'moov' atom within the first 10 MB)");
    }
    /* what libsndfile knows the container of but cannot decode goes to GStreamer
     * too: FLAC in Ogg (libsndfile's FLAC decoder fails on it) gives the WAV's
     * samples exactly; AAC in MP4 named .mp3 (libmpg123 fails) is read */
    {
        sh_ok("gst-launch-1.0 -q filesrc location=g.wav ! wavparse ! audioconvert ! flacenc ! "
              "oggmux ! filesink location=flac.ogg && gst-launch-1.0 -q filesrc location=g.wav ! "
              "wavparse ! audioconvert ! voaacenc ! mp4mux ! filesink location=aac.mp3");
        long want_n, got_n;
        float *want = read_path(wav, NULL, 16000, 1000, &want_n);
        float *got = read_path(tmp_path("flac.ogg"), NULL, 16000, 1000, &got_n);
        assert_same_samples(got, got_n, want, want_n);
        /* Speex in Ogg under its own name, .spx (lossy: its length) */
        sh_ok("gst-launch-1.0 -q filesrc location=g.wav ! wavparse ! audioconvert ! "
              "audioresample ! audio/x-raw,rate=16000 ! speexenc ! oggmux ! "
              "filesink location=speex.spx");
        got = read_path(tmp_path("speex.spx"), NULL, 16000, 1000, &got_n);
        assert_true(labs(got_n - want_n) <= 2 * 640);
        free(got);
        sl_audio_reader *aac = open_ok(tmp_path("aac.mp3"), 0);
        assert_int_equal(sl_audio_file_rate(aac), 44100);
        assert_int_equal(sl_audio_channels(aac), 2);
        sl_audio_close(aac);
        got = read_path(tmp_path("aac.mp3"), NULL, 0, 1000, &got_n);
        assert_true(labs(got_n - n) <= 3 * 1024);
        free(got);
        /* WMA (ASF: -ugly's asfdemux, libav's decoder), as the README promises;
         * not in scripts/check-memory.sh's valgrind run, which leaves gst-libav
         * out (its libhwy stops valgrind) and says so */
        if (getenv("SL_NO_GST_LIBAV")) {
            printf("WMA: not read here: gst-libav is left out (SL_NO_GST_LIBAV)\n");
        } else {
            sh_ok("gst-launch-1.0 -q filesrc location=g.wav ! wavparse ! audioconvert ! "
                  "avenc_wmav2 ! asfmux ! filesink location=g.wma");
            got = read_path(tmp_path("g.wma"), NULL, 0, 1000, &got_n);
            printf("WMA: %ld samples of %ld\n", got_n, n);
            assert_true(labs(got_n - n) <= 3 * 2048);
            free(got);
        }
    }
    /* AAC in MP4 (gstreamer1.0-libav decodes it): lossy, so its length and level */
    sh_ok("gst-launch-1.0 -q filesrc location=g.wav ! wavparse ! audioconvert ! voaacenc ! "
          "mp4mux ! filesink location=g.m4a");
    char path[600];
    snprintf(path, sizeof path, "%s", tmp_path("g.m4a"));
    sl_audio_reader *r = open_ok(path, 0);
    assert_int_equal(sl_audio_file_rate(r), 44100);
    assert_int_equal(sl_audio_channels(r), 2);
    sl_audio_close(r);
    long got_n;
    float *got = read_path(path, NULL, 0, 1000, &got_n);
    printf("AAC: %ld samples of %ld\n", got_n, n);
    assert_true(labs(got_n - n) <= 3 * 1024); /* the encoder's priming and last frame */
    double e_got = 0, e_want = 0;
    for (long i = 0; i < n; i++)
        e_want += (pcm[2 * i] / 32768.0 + pcm[2 * i + 1] / 32768.0) / 2 *
                  ((pcm[2 * i] / 32768.0 + pcm[2 * i + 1] / 32768.0) / 2);
    for (long i = 0; i < got_n; i++)
        e_got += (double)got[i] * got[i];
    printf("AAC: energy %.3f of %.3f\n", e_got, e_want);
    assert_true(e_got > 0.9 * e_want && e_got < 1.1 * e_want);
    free(got);
    /* a chained Ogg file (a radio stream's songs one after another): read on into
     * its next parts, one at half the rate and one in mono made the first's
     * (44.1 kHz, stereo): each part's length and level are the first's */
    sh_ok("gst-launch-1.0 -q filesrc location=g.wav ! wavparse ! audioconvert ! vorbisenc ! "
          "oggmux ! filesink location=p1.ogg && gst-launch-1.0 -q filesrc location=g.wav ! "
          "wavparse ! audioresample ! audio/x-raw,rate=22050 ! audioconvert ! vorbisenc ! "
          "oggmux ! filesink location=p2.ogg && gst-launch-1.0 -q filesrc location=g.wav ! "
          "wavparse ! audioconvert ! audio/x-raw,channels=1 ! vorbisenc ! oggmux ! "
          "filesink location=p3.ogg && cat p1.ogg p2.ogg p3.ogg > chain.ogg");
    snprintf(path, sizeof path, "file://%s", tmp_path("chain.ogg"));
    r = open_ok(path, 0);
    assert_int_equal(sl_audio_file_rate(r), 44100);
    assert_int_equal(sl_audio_channels(r), 2);
    sl_audio_close(r);
    got = read_path(path, NULL, 0, 1000, &got_n);
    printf("chained Ogg: %ld samples of 3 x %ld\n", got_n, n);
    assert_true(labs(got_n - 3 * n) <= 3 * 2048);
    double part_energy[3] = {0, 0, 0};
    for (int p = 0; p < 3; p++)
        for (long i = p * n + 4096; i < (p + 1) * n - 4096 && i < got_n; i++)
            part_energy[p] += (double)got[i] * got[i];
    printf("chained Ogg: energy of the parts %.2f %.2f %.2f\n", part_energy[0], part_energy[1],
           part_energy[2]);
    for (int p = 1; p < 3; p++)
        assert_true(fabs(part_energy[p] / part_energy[0] - 1) < 0.1);
    free(got);
    /* a cut file: read as far as it goes, then said */
    sh_ok("head -c $(($(stat -c %s g.mka) / 2)) g.mka > cut.mka");
    snprintf(path, sizeof path, "%s", tmp_path("cut.mka"));
    expect_read_error(path, "the container promises 1.02 s, only ");
    snprintf(path, sizeof path, "%s", tmp_path("v.mkv"));
    /* a video alone: no decoder to install, so none is asked for */
    expect_open_error(path, "v.mkv: not an audio file that libsndfile reads, and GStreamer cannot "
                            "decode it: no audio stream in it (only JPEG, which is not audio)");
    snprintf(path, sizeof path, "%s", tmp_path("t.mp4"));
    expect_open_error(path, "t.mp4: not an audio file in a format libsndfile or GStreamer reads "
                            "(headerless samples: seqlabel label and features read them given "
                            "--raw-format");
    /* as a URI it is GStreamer's alone: no word of libsndfile or headerless samples */
    char uri[700];
    snprintf(uri, sizeof uri, "file://%s", path);
    expect_open_error(uri, "t.mp4: GStreamer cannot tell what this holds: no audio it knows, or "
                           "its start is damaged or cut short");
    /* a name of libsndfile's own it cannot read is damaged: its error, not GStreamer's */
    sh_ok("echo not media > t.wav");
    snprintf(path, sizeof path, "%s", tmp_path("t.wav"));
    expect_open_error(path, "t.wav: not an audio file in a format libsndfile reads (headerless");
    /* and so is a WAV whose header libsndfile knows but finds damaged (no data
     * chunk): its own words, not GStreamer's on the same file */
    {
        short quiet[1000] = {0};
        snprintf(path, sizeof path, "%s", tmp_path("nodata.wav"));
        write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, quiet, 1000);
        FILE *fp = fopen(path, "r+b");
        assert_non_null(fp);
        char head[64];
        assert_int_equal(fread(head, 1, sizeof head, fp), sizeof head);
        char *data = memmem(head, sizeof head, "data", 4);
        assert_non_null(data);
        memcpy(data, "junk", 4);
        rewind(fp);
        assert_int_equal(fwrite(head, 1, sizeof head, fp), sizeof head);
        fclose(fp);
        expect_open_error(path, "nodata.wav: cannot read as audio: Error in WAV file. No 'data' "
                                "chunk marker");
    }
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.no_gstreamer = 1;
    char err[SL_ERR_LEN];
    snprintf(path, sizeof path, "%s", tmp_path("g.mka"));
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "g.mka: not an audio file in a format libsndfile reads"));
    free(pcm);
}

/* A file with several audio streams (a film's languages): sl_audio_options.stream
 * picks one, read exactly at its own rate and channels and to its own end (the
 * container's duration is the longer stream's, so a shorter one is not taken for
 * a cut file); a stream the file lacks, and any but the first of a file
 * libsndfile reads, is refused, named. */
static void test_audio_streams(void **state)
{
    (void)state;
    const long n1 = 44100, n2 = 22050 / 4; /* 1 s stereo, 0.25 s mono */
    short *a = malloc(sizeof(short) * 2 * n1), *b = malloc(sizeof(short) * n2);
    for (long i = 0; i < n1; i++)
        for (int c = 0; c < 2; c++)
            a[2 * i + c] = sine16(i, c, 440.0 + 110 * c, 44100);
    for (long i = 0; i < n2; i++)
        b[i] = sine16(i, 0, 1000.0, 22050);
    char wav[2][600], two[600];
    snprintf(wav[0], sizeof wav[0], "%s", tmp_path("s1.wav"));
    snprintf(wav[1], sizeof wav[1], "%s", tmp_path("s2.wav"));
    snprintf(two, sizeof two, "%s", tmp_path("two.mkv"));
    write_short(wav[0], SF_FORMAT_WAV | SF_FORMAT_PCM_16, 44100, 2, a, n1);
    write_short(wav[1], SF_FORMAT_WAV | SF_FORMAT_PCM_16, 22050, 1, b, n2);
    sh_ok("gst-launch-1.0 -q matroskamux name=m ! filesink location=two.mkv  filesrc "
          "location=s1.wav ! wavparse ! audioconvert ! flacenc ! m.audio_0  filesrc "
          "location=s2.wav ! wavparse ! audioconvert ! flacenc ! m.audio_1");
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    for (opt.stream = 1; opt.stream <= 2; opt.stream++) {
        long want_n, got_n;
        float *want = read_path(wav[opt.stream - 1], NULL, 0, 1000, &want_n);
        sl_audio_reader *r = open_ok_ex(two, &opt);
        assert_int_equal(sl_audio_file_rate(r), opt.stream == 1 ? 44100 : 22050);
        assert_int_equal(sl_audio_channels(r), opt.stream == 1 ? 2 : 1);
        sl_audio_close(r);
        float *got = read_path(two, &opt, 0, 1000, &got_n);
        assert_same_samples(got, got_n, want, want_n);
    }
    char err[SL_ERR_LEN];
    opt.stream = 3;
    assert_null(sl_audio_open_ex(two, &opt, err, sizeof err));
    assert_non_null(strstr(err, "two.mkv: holds 2 audio stream(s), so no audio stream 3"));
    opt.stream = 2;
    assert_null(sl_audio_open_ex(wav[0], &opt, err, sizeof err));
    assert_non_null(strstr(err, "s1.wav: holds one audio stream, so no audio stream 2"));
    free(a);
    free(b);
}

/* A file shorter than any feature window is fine: it yields its samples. */
static void test_short_file(void **state)
{
    (void)state;
    short pcm[3] = {1, -2, 3};
    const char *path = tmp_path("three-samples.wav");
    write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 8000, 1, pcm, 3);
    sl_audio_reader *r = open_ok(path, 0);
    long got;
    float *out = read_all(r, 10, &got);
    assert_int_equal(got, 3);
    assert_true(out[1] == -2.0f / 32768.0f);
    sl_audio_close(r);
    free(out);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, n, fp), n);
    fclose(fp);
}

static void put_le(unsigned char *p, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The MP3 fixture `name` (its ID3v2 tag left out) as a WAV of format tag 0x55
 * (MPEGLAYER3WAVEFORMAT), as ffmpeg and call recorders write MP3 in WAV. */
static void write_mp3_in_wav(const char *name, const char *out)
{
    char path[1024];
    test_fixture_path(path, sizeof path, "io", name);
    size_t n;
    unsigned char *mp3 = test_read_file(path, &n), *frames = mp3;
    if (n > 10 && !memcmp(mp3, "ID3", 3)) {
        const size_t tag = 10 + ((size_t)mp3[6] << 21 | (size_t)mp3[7] << 14 |
                                 (size_t)mp3[8] << 7 | mp3[9]);
        frames += tag;
        n -= tag;
    }
    unsigned char head[70] = {0};
    memcpy(head, "RIFF", 4);
    put_le(head + 4, (uint32_t)(62 + n + (n & 1)), 4);
    memcpy(head + 8, "WAVEfmt ", 8);
    put_le(head + 16, 30, 4);
    put_le(head + 20, 0x55, 2);   /* WAVE_FORMAT_MPEGLAYER3 */
    put_le(head + 22, 1, 2);      /* mono */
    put_le(head + 24, 16000, 4);
    put_le(head + 28, 4000, 4);   /* bytes a second */
    put_le(head + 32, 1, 2);      /* block align */
    put_le(head + 36, 12, 2);     /* cbSize: MPEGLAYER3WAVEFORMAT's own fields */
    put_le(head + 38, 1, 2);      /* wID */
    put_le(head + 40, 2, 4);      /* fdwFlags: no padding */
    put_le(head + 44, 144, 2);    /* nBlockSize */
    put_le(head + 46, 1, 2);      /* nFramesPerBlock */
    memcpy(head + 50, "data", 4);
    put_le(head + 54, (uint32_t)n, 4);
    FILE *fp = fopen(out, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(head, 1, 58, fp), 58);
    assert_int_equal(fwrite(frames, 1, n, fp), n);
    if (n & 1)
        fputc(0, fp);
    assert_int_equal(fclose(fp), 0);
    free(mp3);
}

/* MP3 inside a WAV: libsndfile's length is an estimate there too. A variable
 * bit rate one was cut at it (7,360 of 33,408 samples), silently; it now goes
 * to GStreamer, as the MP3 file does, and is read whole. A constant bit rate
 * one, whose estimate a decoder's delay overshoots, was refused as truncated. */
static void test_mp3_in_wav(void **state)
{
    (void)state;
    char ref_path[1024];
    test_fixture_path(ref_path, sizeof ref_path, "io", "noxing16k.mp3.s16");
    size_t ref_bytes;
    free(test_read_file(ref_path, &ref_bytes));
    write_mp3_in_wav("noxing16k.mp3", tmp_path("vbr_in.wav"));
    long got;
    free(read_path(tmp_path("vbr_in.wav"), NULL, 0, 1000, &got));
    if (got != (long)(ref_bytes / 2))
        fail_msg("a variable-bit-rate MP3 in a WAV: %ld samples, %ld in the MP3", got,
                 (long)(ref_bytes / 2));
    write_mp3_in_wav("mono16k.mp3", tmp_path("cbr_in.wav"));
    free(read_path(tmp_path("cbr_in.wav"), NULL, 0, 1000, &got));
    assert_true(got >= 24000 - 1152); /* 1.5 s; its decoder's delay and tag frame kept */
    /* a WAV cut of it is 16-bit (libsndfile writes MP3 as an MP3 file alone:
     * "unsupported encoding", exit 1) */
    sh_ok("\"$SL_SEQLABEL\" label vbr_in.wav --target noise --on-threshold 0 --off-threshold 0 "
          "--cut vbr_cut.wav -q > /dev/null");
    sl_audio_reader *r = open_ok(tmp_path("vbr_cut.wav"), 0);
    assert_int_equal(sl_audio_file_format(r), SF_FORMAT_WAV | SF_FORMAT_PCM_16);
    sl_audio_close(r);
}

/* Threads that open a good file over and over while another opens a bad one. */
static atomic_int opening_done;

static void *open_good_file(void *path)
{
    char err[SL_ERR_LEN];
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    if (!strcmp(path, "/dev/zero")) { /* a device: no regular file, opened as a pipe is */
        opt.raw_encoding = SL_RAW_S16LE;
        opt.raw_rate = 16000;
        opt.raw_channels = 1;
    }
    while (!atomic_load(&opening_done))
        sl_audio_close(sl_audio_open_ex(path, &opt, err, sizeof err));
    return NULL;
}

/* libsndfile keeps a failed open's reason in one variable for the process:
 * with other threads opening files meanwhile, a bad file's message was
 * another's reason, or "No Error." (some 4% of opens). Each open now reads its
 * own: the message is the one it gives alone, every time. */
static void test_open_error_own_under_threads(void **state)
{
    (void)state;
    /* a WAV whose format tag (0x1234) libsndfile does not know */
    static const unsigned char bad[] = {
        'R', 'I', 'F', 'F', 0x88, 0, 0, 0, 'W', 'A', 'V', 'E', 'f', 'm', 't', ' ', 0x10, 0, 0, 0,
        0x34, 0x12, 0x01, 0x00, 0x80, 0x3e, 0, 0, 0x00, 0x7d, 0, 0, 0x02, 0, 0x10, 0,
        'd', 'a', 't', 'a', 0x64, 0, 0, 0};
    char bad_path[2048], good_path[2048], alone[SL_ERR_LEN] = "", err[SL_ERR_LEN];
    snprintf(bad_path, sizeof bad_path, "%s", tmp_path("bad_tag.wav"));
    snprintf(good_path, sizeof good_path, "%s", tmp_path("good_for_threads.wav"));
    write_bytes(bad_path, bad, sizeof bad);
    short pcm[1600] = {0};
    write_short(good_path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, 1600);
    assert_null(sl_audio_open(bad_path, 0, alone, sizeof alone));
    assert_non_null(strstr(alone, "bad_tag.wav: "));
    pthread_t t[3];
    atomic_store(&opening_done, 0);
    for (int k = 0; k < 3; k++) /* (the third reads a device, not a regular file) */
        assert_int_equal(pthread_create(&t[k], NULL, open_good_file,
                                        k == 2 ? "/dev/zero" : good_path), 0);
    int other = 0;
    for (int i = 0; i < 2000; i++) {
        err[0] = '\0';
        assert_null(sl_audio_open(bad_path, 0, err, sizeof err));
        if (strcmp(err, alone) && !other++)
            fprintf(stderr, "open %d said: %s\n", i, err);
    }
    atomic_store(&opening_done, 1);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], NULL);
    if (other)
        fail_msg("%d of 2000 opens with other threads said other than alone (%s)", other, alone);
}

/* Raw s16le samples, stereo, described by the caller. */
static void test_raw_input(void **state)
{
    (void)state;
    const char *path = tmp_path("raw.s16");
    int16_t pcm[2 * 500];
    for (int i = 0; i < 1000; i++)
        pcm[i] = (int16_t)(i * 37 - 15000);
    write_bytes(path, pcm, sizeof pcm); /* the host is little-endian here */
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.raw_encoding = SL_RAW_S16LE;
    opt.raw_rate = 8000;
    opt.raw_channels = 2;
    sl_audio_reader *r = open_ok_ex(path, &opt);
    assert_int_equal(sl_audio_file_rate(r), 8000);
    long got;
    float *out = read_all(r, 64, &got);
    assert_int_equal(got, 500);
    for (int i = 0; i < 500; i++)
        assert_true(out[i] == (float)((pcm[2 * i] / 32768.0 + pcm[2 * i + 1] / 32768.0) / 2));
    sl_audio_close(r);
    free(out);
    /* a file that ends mid-sample was cut or is not what was given: libsndfile
     * dropped the odd bytes without a word */
    write_bytes(path, pcm, sizeof pcm - 3);
    char err[SL_ERR_LEN] = "";
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    if (!strstr(err, path) || !strstr(err, "1997 bytes are not whole samples of headerless "
                                              "s16le audio, 2 channels (4 bytes each): 1 byte left"))
        fail_msg("a raw file cut mid-sample: %s", err);
    opt.raw_encoding = SL_RAW_F32LE; /* 2000 bytes: whole samples of s16le, not of f32le */
    write_bytes(path, pcm, sizeof pcm);
    opt.raw_channels = 3;
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "(12 bytes each): 8 bytes left over"));
    opt.raw_channels = 1;
    sl_audio_close(open_ok_ex(path, &opt));
}

/* Encoding names and the Asterisk extensions that name headerless files. */
static void test_raw_names(void **state)
{
    (void)state;
    const char *names[] = {"s16le", "f32le", "ulaw", "alaw", "gsm", "g722"};
    const sl_raw_encoding encs[] = {SL_RAW_S16LE, SL_RAW_F32LE, SL_RAW_ULAW,
                                    SL_RAW_ALAW, SL_RAW_GSM, SL_RAW_G722};
    sl_raw_encoding e;
    for (int i = 0; i < 6; i++) {
        assert_int_equal(sl_raw_encoding_from_name(names[i], &e), 0);
        assert_int_equal(e, encs[i]);
    }
    assert_int_equal(sl_raw_encoding_from_name("mulaw", &e), -1);
    assert_int_equal(sl_raw_encoding_from_name("GSM", &e), -1);
    const struct { const char *path; sl_raw_encoding enc; int rate; } known[] = {
        {"a/b/hello.ulaw", SL_RAW_ULAW, 8000}, {"x.UL", SL_RAW_ULAW, 8000},
        {"x.mu", SL_RAW_ULAW, 8000},           {"x.alaw", SL_RAW_ALAW, 8000},
        {"x.al", SL_RAW_ALAW, 8000},           {"vm-intro.gsm", SL_RAW_GSM, 8000},
        {"moh/x.G722", SL_RAW_G722, 16000},    {"x.sln", SL_RAW_S16LE, 8000},
        {"x.sln16", SL_RAW_S16LE, 16000},      {"x.sln44", SL_RAW_S16LE, 44100},
        {"x.sln192", SL_RAW_S16LE, 192000},
    };
    int rate;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        assert_int_equal(sl_raw_format_from_path(known[i].path, &e, &rate), 1);
        assert_int_equal(e, known[i].enc);
        assert_int_equal(rate, known[i].rate);
    }
    const char *other[] = {"x.wav", "x.raw", "x.pcm", "gsm", "dir.gsm/file", "x.sln17", "x.gsm.wav"};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        assert_int_equal(sl_raw_format_from_path(other[i], &e, &rate), 0);
}

/* G.711 by file name: bytes against the standard's values (as Python's
 * audioop.ulaw2lin / alaw2lin give them), 8 kHz. */
static void test_g711_by_name(void **state)
{
    (void)state;
    const unsigned char ulaw[] = {0xFF, 0x7F, 0x80, 0x00, 0x8F, 0x0F};
    const short ulaw_pcm[] = {0, 0, 32124, -32124, 16764, -16764};
    const unsigned char alaw[] = {0xD5, 0x55, 0x80, 0x00, 0xAA, 0x2A};
    const short alaw_pcm[] = {8, -8, 5504, -5504, 32256, -32256};
    const char *paths[] = {tmp_path("prompt.ulaw"), tmp_path("prompt.al")};
    write_bytes(paths[0], ulaw, sizeof ulaw);
    write_bytes(paths[1], alaw, sizeof alaw);
    for (int k = 0; k < 2; k++) {
        sl_audio_reader *r = open_ok(paths[k], 0);
        assert_int_equal(sl_audio_file_rate(r), 8000);
        assert_int_equal(sl_audio_file_frames(r), 6);
        long got;
        float *out = read_all(r, 4, &got);
        assert_int_equal(got, 6);
        for (int i = 0; i < 6; i++)
            assert_true(out[i] == (float)(k ? alaw_pcm[i] : ulaw_pcm[i]) / 32768.0f);
        sl_audio_close(r);
        free(out);
    }
}

/* A file:// URI of a WAV that GStreamer 1.22's wavparse, pulling, reads no
 * sample of (a data chunk of odd size and its pad byte: mu-law, A-law and 8-bit
 * mono of an odd count, as sox writes phone recordings) gives what the file by
 * name gives; a file:// URI of no file is said as the name is. */
static void test_file_uri_odd_wav(void **state)
{
    (void)state;
    enum { N = 8001 };
    short *x = malloc(N * sizeof *x);
    for (long i = 0; i < N; i++)
        x[i] = sine16(i, 0, 440, 8000);
    const int formats[] = {SF_FORMAT_WAV | SF_FORMAT_ULAW, SF_FORMAT_WAV | SF_FORMAT_ALAW,
                           SF_FORMAT_WAV | SF_FORMAT_PCM_U8};
    for (int k = 0; k < 3; k++) {
        write_short(tmp_path("odd.wav"), formats[k], 8000, 1, x, N);
        char uri[1200];
        snprintf(uri, sizeof uri, "file://%s", tmp_path("odd.wav"));
        long n_name, n_uri;
        float *by_name = read_path(tmp_path("odd.wav"), NULL, 0, 1000, &n_name);
        float *by_uri = read_path(uri, NULL, 0, 1000, &n_uri);
        assert_int_equal(n_name, N);
        assert_same_samples(by_name, n_name, by_uri, n_uri); /* frees both */
    }
    free(x);
    char uri[1200];
    snprintf(uri, sizeof uri, "file://%s", tmp_path("no-such-file.wav"));
    expect_open_error(uri, "no-such-file.wav: cannot open: No such file or directory");
}

/* 16-bit linear by file name (.sln16: 16 kHz); a raw_encoding the caller sets
 * wins over the name. */
static void test_sln_by_name(void **state)
{
    (void)state;
    short pcm[300];
    for (int i = 0; i < 300; i++)
        pcm[i] = sine16(i, 0, 440.0, 16000);
    const char *path = tmp_path("beep.sln16");
    write_bytes(path, pcm, sizeof pcm); /* little-endian host */
    sl_audio_reader *r = open_ok(path, 0);
    assert_int_equal(sl_audio_file_rate(r), 16000);
    long got;
    float *out = read_all(r, 100, &got);
    assert_int_equal(got, 300);
    for (int i = 0; i < 300; i++)
        assert_true(out[i] == pcm[i] / 32768.0f);
    sl_audio_close(r);
    free(out);
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.raw_encoding = SL_RAW_ULAW;
    opt.raw_rate = 11025;
    opt.raw_channels = 1;
    r = open_ok_ex(path, &opt);
    assert_int_equal(sl_audio_file_rate(r), 11025);
    assert_int_equal(sl_audio_file_frames(r), 600); /* a byte per sample */
    sl_audio_close(r);
}

/* A fixture decoded by the reader against another tool's decode of it
 * (tests/fixtures/io/gen_telephony.sh); at most `tol` apart in int16 steps. */
static void expect_fixture_decode(const char *coded, const char *reference, const char *as,
                                  int rate, int tol)
{
    char path[1024], ref_path[1024];
    test_fixture_path(path, sizeof path, "io", coded);
    test_fixture_path(ref_path, sizeof ref_path, "io", reference);
    size_t ref_bytes;
    unsigned char *ref = test_read_file(ref_path, &ref_bytes);
    const long n = (long)(ref_bytes / 2);
    /* under another name too: no extension, the encoding given by the caller */
    size_t coded_bytes;
    unsigned char *data = test_read_file(path, &coded_bytes);
    const char *plain = tmp_path("coded-audio");
    write_bytes(plain, data, coded_bytes);
    free(data);
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    assert_int_equal(sl_raw_encoding_from_name(as, &opt.raw_encoding), 0);
    opt.raw_rate = rate;
    opt.raw_channels = 1;
    for (int k = 0; k < 2; k++) {
        char err[SL_ERR_LEN];
        sl_audio_reader *r = k ? sl_audio_open_ex(plain, &opt, err, sizeof err)
                               : sl_audio_open(path, 0, err, sizeof err);
        if (!r)
            fail_msg("%s", err);
        assert_int_equal(sl_audio_file_rate(r), rate);
        assert_int_equal(sl_audio_file_frames(r), n);
        long got;
        float *out = read_all(r, 1000, &got);
        assert_int_equal(got, n);
        int worst = 0;
        for (long i = 0; i < n; i++) {
            short want = (short)(ref[2 * i] | ref[2 * i + 1] << 8);
            int d = abs((int)lrintf(out[i] * 32768.0f) - want);
            worst = d > worst ? d : worst;
        }
        if (worst > tol)
            fail_msg("%s: %d int16 steps from the reference decode (allowed %d)", coded, worst, tol);
        sl_audio_close(r);
        free(out);
    }
    free(ref);
}

static void test_gsm_fixture(void **state)
{
    (void)state;
    expect_fixture_decode("sweep8k.gsm", "sweep8k.gsm.s16", "gsm", 8000, 0);
}

static void test_g722_fixture(void **state)
{
    (void)state;
    expect_fixture_decode("sweep16k.g722", "sweep16k.g722.s16", "g722", 16000, 0);
    /* resampled: the decoded stream goes through libsoxr like any other */
    char path[1024];
    test_fixture_path(path, sizeof path, "io", "sweep16k.g722");
    sl_audio_reader *r = open_ok(path, 8000);
    long got;
    float *out = read_all(r, 777, &got);
    assert_true(labs(got - 8000) <= 1);
    sl_audio_close(r);
    free(out);
}

/* An MP3 that FFmpeg made (its LAME tag says "Lavc"), read by name (libsndfile,
 * libmpg123) and through GStreamer (a file:// URI, pulled; fd://N, pushed), at
 * its own rate: every way, the same samples as FFmpeg's own gapless decode
 * (tests/fixtures/io/gen_mp3.sh), to 2 int16 steps (the decoders round
 * differently: 1 step measured), and as many. Before, GStreamer 1.22 left the encoder's delay
 * in: 1105 samples late, and longer by that and the end's padding. The same file with its tag saying
 * "LAME" is cut by GStreamer's parser itself: the same samples again. */
static void test_mp3_gapless(void **state)
{
    (void)state;
    const char *const names[] = {"mono16k.mp3", "stereo44k.mp3"};
    for (int f = 0; f < 2; f++) {
        char path[1024], ref_path[1200];
        test_fixture_path(path, sizeof path, "io", names[f]);
        snprintf(ref_path, sizeof ref_path, "%s.s16", path);
        size_t ref_bytes, coded_bytes;
        unsigned char *ref = test_read_file(ref_path, &ref_bytes);
        unsigned char *coded = test_read_file(path, &coded_bytes);
        const int channels = f ? 2 : 1;
        const long n = (long)(ref_bytes / 2 / (size_t)channels);
        /* the file twice, joined by cat: through GStreamer the second keeps its
         * samples (only the first file's ends are cut, as the tag counts it),
         * whatever its tag says, the same as the parser's own cut gives */
        unsigned char *twice = malloc(2 * coded_bytes);
        memcpy(twice, coded, coded_bytes);
        memcpy(twice + coded_bytes, coded, coded_bytes);
        write_bytes(tmp_path("twice.mp3"), twice, 2 * coded_bytes);
        /* the same bytes with a LAME tag */
        unsigned char *tag = memmem(coded, coded_bytes, "Lavc", 4);
        assert_non_null(tag);
        memcpy(tag, "LAME", 4);
        write_bytes(tmp_path("lame-tag.mp3"), coded, coded_bytes);
        memcpy(twice, coded, coded_bytes);
        memcpy(twice + coded_bytes, coded, coded_bytes);
        write_bytes(tmp_path("lame-twice.mp3"), twice, 2 * coded_bytes);
        free(twice);
        free(coded);
        {
            char a[1200], b[1200];
            snprintf(a, sizeof a, "file://%s", tmp_path("twice.mp3"));
            snprintf(b, sizeof b, "file://%s", tmp_path("lame-twice.mp3"));
            long na, nb, nc;
            float *xa = read_path(a, NULL, 0, 1000, &na);
            float *xb = read_path(b, NULL, 0, 1000, &nb);
            if (na < 2 * n)
                fail_msg("%s twice: %ld samples, fewer than twice its %ld", names[f], na, n);
            /* by name too: libsndfile stopped where the first file's tag said */
            float *xc = read_path(tmp_path("twice.mp3"), NULL, 0, 1000, &nc);
            if (nc != na)
                fail_msg("%s twice by name: %ld samples, %ld as file://", names[f], nc, na);
            assert_memory_equal(xa, xc, sizeof *xa * (size_t)na);
            free(xc);
            assert_same_samples(xa, na, xb, nb);
        }
        char uri[1200], lame_uri[1200], fd_uri[64];
        snprintf(uri, sizeof uri, "file://%s", path);
        snprintf(lame_uri, sizeof lame_uri, "file://%s", tmp_path("lame-tag.mp3"));
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        assert_true(fd >= 0);
        snprintf(fd_uri, sizeof fd_uri, "fd://%d", fd);
        const char *const ways[] = {path, uri, fd_uri, lame_uri};
        for (int w = 0; w < 4; w++) {
            long got;
            float *out = read_path(ways[w], NULL, 0, 1000, &got);
            if (got != n)
                fail_msg("%s as %s: %ld samples, want %ld", names[f], ways[w], got, n);
            int worst = 0;
            for (long i = 0; i < n; i++) {
                double want = 0;
                for (int c = 0; c < channels; c++) {
                    const unsigned char *p = ref + 2 * ((size_t)i * channels + c);
                    want += (short)(p[0] | p[1] << 8);
                }
                int d = (int)fabs(out[i] * 32768.0 - want / channels);
                worst = d > worst ? d : worst;
            }
            if (worst > 2)
                fail_msg("%s as %s: %d int16 steps from FFmpeg's decode", names[f], ways[w], worst);
            free(out);
        }
        close(fd);
        free(ref);
    }
    /* a variable-bit-rate MP3 without the tag: libsndfile stopped at libmpg123's
     * estimate of its length, under a quarter of it (7,650 of 33,408 samples); read by
     * name it now goes to GStreamer, which reads it whole, as FFmpeg does (the
     * encoder's delay kept: nothing says how long it is) */
    char path[1024], ref_path[1200], uri[1200];
    test_fixture_path(path, sizeof path, "io", "noxing16k.mp3");
    snprintf(ref_path, sizeof ref_path, "%s.s16", path);
    snprintf(uri, sizeof uri, "file://%s", path);
    size_t ref_bytes;
    unsigned char *ref = test_read_file(ref_path, &ref_bytes);
    const long n = (long)(ref_bytes / 2);
    /* ... also on standard input (`< talk.mp3`: a file libsndfile would seek
     * in, estimating its length as by name) */
    const char *const ways[] = {path, uri, "-"};
    for (int w = 0; w < 3; w++) {
        long got;
        float *out =
            w == 2 ? read_stdin_at(path, 0, &got) : read_path(ways[w], NULL, 0, 1000, &got);
        if (got != n)
            fail_msg("noxing16k.mp3 as %s: %ld samples, want %ld", ways[w], got, n);
        int worst = 0;
        for (long i = 0; i < n; i++) {
            int d = abs((int)lrint(out[i] * 32768.0) - (short)(ref[2 * i] | ref[2 * i + 1] << 8));
            worst = d > worst ? d : worst;
        }
        if (worst > 2)
            fail_msg("noxing16k.mp3 as %s: %d int16 steps from FFmpeg's decode", ways[w], worst);
        free(out);
    }
    /* ... also behind a second ID3v2 tag (20 kB of cover art a tagger added),
     * and behind a tag whose padding its size leaves out (9,000 zero bytes):
     * only the first tag was skipped and no frame found in the 8 kB looked
     * at, so libsndfile's estimate cut them (1.01 s and 1.38 s of 6 s) */
    {
        size_t nb;
        unsigned char *one = test_read_file(path, &nb);
        const size_t big = 20000, zeros = 9000;
        unsigned char *two = calloc(1, 30 + 10 + big + zeros + nb);
        static const unsigned char small_tag[10] = {'I', 'D', '3', 4, 0, 0, 0, 0, 0, 20};
        memcpy(two, small_tag, 10); /* 20 bytes of padding follow, zero */
        const unsigned char big_tag[10] = {'I', 'D', '3', 4, 0, 0, 0, (big >> 14) & 0x7F,
                                           (big >> 7) & 0x7F, big & 0x7F};
        memcpy(two + 30, big_tag, 10);
        memcpy(two + 40 + big, one, nb);
        write_bytes(tmp_path("noxing-two-tags.mp3"), two, 40 + big + nb);
        memset(two + 30, 0, 10 + big + zeros);
        memcpy(two + 30 + zeros, one, nb);
        write_bytes(tmp_path("noxing-padded.mp3"), two, 30 + zeros + nb);
        free(one);
        free(two);
        long got_tags, got_padded;
        free(read_path(tmp_path("noxing-two-tags.mp3"), NULL, 0, 1000, &got_tags));
        free(read_path(tmp_path("noxing-padded.mp3"), NULL, 0, 1000, &got_padded));
        if (got_tags != n || got_padded != n)
            fail_msg("noxing16k.mp3 behind two ID3v2 tags: %ld samples; behind a tag and "
                     "padding: %ld; want %ld", got_tags, got_padded, n);
    }
    /* ... and on standard input from further in (a script read the first of
     * two such joined): GStreamer reads on from there, all of it */
    {
        size_t nb;
        unsigned char *one = test_read_file(path, &nb);
        unsigned char *two = malloc(2 * nb);
        memcpy(two, one, nb);
        memcpy(two + nb, one, nb);
        write_bytes(tmp_path("noxing-two.mp3"), two, 2 * nb);
        free(one);
        free(two);
        long got_on;
        free(read_stdin_at(tmp_path("noxing-two.mp3"), (off_t)nb, &got_on));
        if (got_on != n)
            fail_msg("noxing16k.mp3 on standard input from its second copy on: %ld samples, "
                     "want %ld", got_on, n);
    }
    /* by name it is still an MP3 (a --cut of it keeps its container), its
     * length unknown until the end, as GStreamer reads it */
    sl_audio_reader *r = open_ok(path, 0);
    assert_int_equal(sl_audio_file_format(r) & SF_FORMAT_TYPEMASK, SF_FORMAT_MPEG);
    assert_int_equal(sl_audio_file_frames(r), -1);
    sl_audio_close(r);
    /* the same behind a 10 kB ID3v2 tag (cover art: the first frame is looked
     * for past it); and where GStreamer decodes no MP3, libsndfile's reading as
     * before, cut short but no failure */
    size_t coded_bytes;
    unsigned char *coded = test_read_file(path, &coded_bytes);
    unsigned char *tagged = calloc(1, coded_bytes + 10000);
    memcpy(tagged, "ID3\x03\x00\x00\x00\x00\x4e\x06", 10); /* 9990 bytes, syncsafe */
    memcpy(tagged + 10000, coded, coded_bytes);
    write_bytes(tmp_path("cover.mp3"), tagged, coded_bytes + 10000);
    long got;
    free(read_path(tmp_path("cover.mp3"), NULL, 0, 1000, &got));
    assert_int_equal(got, n);
    sh_ok("GST_PLUGIN_FEATURE_RANK=mpg123audiodec:NONE,avdec_mp3:NONE,avdec_mp3float:NONE "
          "\"$SL_SEQLABEL\" label cover.mp3 --format summary > no-decoder.json");
    /* a tagged MP3 behind junk holding a false sync stays libsndfile's, whole */
    char mono[1024];
    test_fixture_path(mono, sizeof mono, "io", "mono16k.mp3");
    free(coded);
    free(tagged);
    coded = test_read_file(mono, &coded_bytes);
    tagged = calloc(1, coded_bytes + 3000);
    memcpy(tagged + 100, "\xFF\xFB\x90\x64", 4);
    memcpy(tagged + 3000, coded, coded_bytes);
    write_bytes(tmp_path("junk.mp3"), tagged, coded_bytes + 3000);
    r = open_ok(tmp_path("junk.mp3"), 0);
    assert_int_equal(sl_audio_file_frames(r), 24000);
    sl_audio_close(r);
    /* so does one with an ID3v1 tag after its frames (nothing joined to it) */
    memcpy(tagged, coded, coded_bytes);
    memset(tagged + coded_bytes, 0, 128);
    memcpy(tagged + coded_bytes, "TAG", 3);
    write_bytes(tmp_path("id3v1.mp3"), tagged, coded_bytes + 128);
    r = open_ok(tmp_path("id3v1.mp3"), 0);
    assert_int_equal(sl_audio_file_frames(r), 24000);
    sl_audio_close(r);
    /* ... but two such joined by cat are read whole: past the first's ID3v1
     * tag (and an APEv2 tag's header) the second's frames are looked for */
    {
        unsigned char *two = malloc(2 * (coded_bytes + 128) + 64);
        memcpy(two, tagged, coded_bytes + 128);
        memcpy(two + coded_bytes + 128, tagged, coded_bytes + 128);
        write_bytes(tmp_path("two-v1.mp3"), two, 2 * (coded_bytes + 128));
        memcpy(two + coded_bytes + 128, "APETAGEX\xd0\x07\0\0\x20\0\0\0\0\0\0\0"
               "\0\0\0\xa0\0\0\0\0\0\0\0\0", 32);
        memcpy(two + coded_bytes + 160, "APETAGEX\xd0\x07\0\0\x20\0\0\0\0\0\0\0"
               "\0\0\0\x80\0\0\0\0\0\0\0\0", 32); /* an empty tag: header, footer */
        memcpy(two + coded_bytes + 192, tagged, coded_bytes + 128);
        write_bytes(tmp_path("two-ape.mp3"), two, 2 * (coded_bytes + 128) + 64);
        free(two);
        /* ... and with ID3v1's extended tag (TAG+, 227 bytes) before its TAG */
        unsigned char *plus = calloc(1, 2 * (coded_bytes + 128) + 227);
        memcpy(plus, tagged, coded_bytes);
        memcpy(plus + coded_bytes, "TAG+", 4);
        memcpy(plus + coded_bytes + 227, tagged + coded_bytes, 128);
        memcpy(plus + coded_bytes + 227 + 128, tagged, coded_bytes + 128);
        write_bytes(tmp_path("two-plus.mp3"), plus, 2 * (coded_bytes + 128) + 227);
        free(plus);
        /* ... with an APEv2 tag written without its header (one item, then the
         * footer, whose size counts both), and with a Lyrics3v2 tag before the
         * ID3v1 one: the second file was lost behind either (24,000 samples) */
        static const char ape_item[] = "\x05\0\0\0\0\0\0\0Title\0hello"; /* 19 bytes */
        static const char ape_footer[] = "APETAGEX\xd0\x07\0\0\x33\0\0\0\x01\0\0\0"
                                         "\0\0\0\0\0\0\0\0\0\0\0\0"; /* 51 bytes, 1 item */
        static const char lyrics[] = "LYRICSBEGININD0000210000021LYRICS200"; /* 36 bytes */
        unsigned char *tags = malloc(2 * coded_bytes + 51 + 36 + 128);
        memcpy(tags, coded, coded_bytes);
        memcpy(tags + coded_bytes, ape_item, 19);
        memcpy(tags + coded_bytes + 19, ape_footer, 32);
        memcpy(tags + coded_bytes + 51, coded, coded_bytes);
        write_bytes(tmp_path("two-ape-footer.mp3"), tags, 2 * coded_bytes + 51);
        memcpy(tags + coded_bytes, lyrics, 36);
        memcpy(tags + coded_bytes + 36, tagged + coded_bytes, 128);
        memcpy(tags + coded_bytes + 36 + 128, coded, coded_bytes);
        write_bytes(tmp_path("two-lyrics.mp3"), tags, 2 * coded_bytes + 36 + 128);
        free(tags);
        long n_two, n_ape, n_plus, n_footer, n_lyrics;
        free(read_path(tmp_path("two-v1.mp3"), NULL, 0, 1000, &n_two));
        free(read_path(tmp_path("two-ape.mp3"), NULL, 0, 1000, &n_ape));
        free(read_path(tmp_path("two-plus.mp3"), NULL, 0, 1000, &n_plus));
        free(read_path(tmp_path("two-ape-footer.mp3"), NULL, 0, 1000, &n_footer));
        free(read_path(tmp_path("two-lyrics.mp3"), NULL, 0, 1000, &n_lyrics));
        if (n_two < 48000 || n_ape != n_two || n_plus != n_two || n_footer != n_two ||
            n_lyrics != n_two)
            fail_msg("two joined, ID3v1 between: %ld samples, with an APE tag too %ld, with "
                     "TAG+ %ld, an APE tag without header %ld, Lyrics3v2 %ld; want over 48000 "
                     "all", n_two, n_ape, n_plus, n_footer, n_lyrics);
    }
    /* standard input read on from past its start (a script read the first
     * file): what follows alone, never from byte 0 again */
    {
        long got_on;
        free(read_stdin_at(tmp_path("two-v1.mp3"), (off_t)coded_bytes + 128, &got_on));
        if (got_on != 24000)
            fail_msg("standard input from the second file on: %ld samples, want its 24000",
                     got_on);
    }
    free(tagged);
    free(coded);
    free(ref);
    /* a Xing tag without LAME's extension (GStreamer's xingmux): libmpg123 cuts
     * the decoder's 529 samples by name, and so is it cut through GStreamer:
     * the same samples both ways (before, 529 more through GStreamer) */
    /* Into a pipe xingmux cannot go back: its tag counts no frames, so
     * libmpg123 estimates the length (a variable-bit-rate file lost most of
     * it) and cuts nothing; read by name it goes to GStreamer, whole. Through
     * GStreamer such files were refused as cut short, their duration a guess
     * from the tag frame's bit rate (6.97 s promised, 6.08 s there). Each: the
     * same samples both ways. */
    const char *const xing[][2] = {
        {"xing.mp3", "audiotestsrc num-buffers=30 samplesperbuffer=1600 freq=300 volume=0.3 ! "
                     "audio/x-raw,rate=16000,channels=1 ! lamemp3enc target=quality quality=4 ! "
                     "xingmux ! filesink location=xing.mp3"},
        {"xpipe.mp3", "audiotestsrc num-buffers=60 samplesperbuffer=1600 wave=pink-noise ! "
                      "audio/x-raw,rate=16000,channels=1 ! lamemp3enc target=quality quality=4 ! "
                      "xingmux ! fdsink fd=1 | cat > xpipe.mp3"},
        {"xpipe44.mp3", "audiotestsrc num-buffers=50 samplesperbuffer=4410 freq=300 ! "
                        "audio/x-raw,rate=44100,channels=2 ! lamemp3enc ! xingmux ! fdsink fd=1 "
                        "| cat > xpipe44.mp3"}};
    for (int k = 0; k < 3; k++) {
        char launch[600];
        snprintf(launch, sizeof launch, "gst-launch-1.0 -q %s", xing[k][1]);
        sh_ok(launch);
        snprintf(uri, sizeof uri, "file://%s", tmp_path(xing[k][0]));
        long by_name, through;
        float *a = read_path(tmp_path(xing[k][0]), NULL, 0, 1000, &by_name);
        float *b = read_path(uri, NULL, 0, 1000, &through);
        if (through != by_name)
            fail_msg("%s: %ld samples by name, %ld through GStreamer", xing[k][0], by_name, through);
        for (long i = 0; i < by_name; i++)
            if (fabs((a[i] - b[i]) * 32768.0) > 2)
                fail_msg("%s: sample %ld, %g by name, %g through GStreamer", xing[k][0], i, a[i],
                         b[i]);
        free(a);
        free(b);
    }
    /* an MP3 cut short (a partial download) keeps the whole file's tag, whose
     * frame count is no estimate: refused, as a WAV cut short is, rather than
     * labelled as complete; the whole file is not (its count within a frame
     * of what is decoded), nor one whose tag states no count (xpipe.mp3,
     * read through GStreamer) */
    sh_ok("head -c $(($(stat -c %s xing.mp3) * 6 / 10)) xing.mp3 > xing-cut.mp3");
    expect_read_error2(tmp_path("xing-cut.mp3"), "truncated: its Xing/Info tag promises ",
                       " samples (3.1");
    sh_ok("head -c $(($(stat -c %s xpipe.mp3) * 6 / 10)) xpipe.mp3 > xpipe-cut.mp3");
    long got_cut;
    free(read_path(tmp_path("xpipe-cut.mp3"), NULL, 0, 1000, &got_cut));
    free(read_path(tmp_path("xing.mp3"), NULL, 0, 1000, &got_cut));
}

/* Telephony codecs are mono; G.722 is 16 kHz and read from files only; the
 * Asterisk formats not decoded here say so. */
static void test_raw_codec_errors(void **state)
{
    (void)state;
    const unsigned char bytes[66] = {0};
    const char *path = tmp_path("plain-bytes");
    write_bytes(path, bytes, sizeof bytes);
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.raw_encoding = SL_RAW_GSM;
    opt.raw_rate = 8000;
    opt.raw_channels = 2;
    char err[SL_ERR_LEN] = "";
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "one channel"));
    assert_non_null(strstr(err, path));
    /* the codecs of one rate take no other */
    opt.raw_channels = 1;
    opt.raw_rate = 16000;
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "GSM 06.10 audio is 8000 Hz, not 16000"));
    opt.raw_encoding = SL_RAW_G722;
    opt.raw_rate = 8000;
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "G.722 audio is 16000 Hz, not 8000"));
    opt.raw_rate = 16000;
    assert_null(sl_audio_open_ex("-", &opt, err, sizeof err));
    assert_non_null(strstr(err, "standard input"));
    assert_non_null(strstr(err, "files only"));
    /* GSM through a pipe: libsndfile's decoder reads on past its end, making
     * up audio for ever (2 s of GSM gave hours of labels); refused as G.722's,
     * here within 100 times the pipe's samples if it is not */
    {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        assert_int_equal(write(fds[1], bytes, sizeof bytes), (ssize_t)sizeof bytes);
        close(fds[1]);
        int saved = dup(STDIN_FILENO);
        dup2(fds[0], STDIN_FILENO);
        close(fds[0]);
        opt.raw_encoding = SL_RAW_GSM;
        opt.raw_rate = 8000;
        sl_audio_reader *r = sl_audio_open_ex("-", &opt, err, sizeof err);
        long got = 0, n;
        float buf[1000];
        while (r && got < 100 * 320 && (n = sl_audio_read(r, buf, 1000, err, sizeof err)) > 0)
            got += n;
        sl_audio_close(r);
        dup2(saved, STDIN_FILENO);
        close(saved);
        if (r || !strstr(err, "standard input: headerless GSM 06.10 is read from files only"))
            fail_msg("GSM through a pipe of 2 frames (320 samples): %s %ld samples (%s)",
                     r ? "read" : "refused,", got, err);
    }
    /* Asterisk's formats that are not decoded: named, not "not an audio file" */
    const char *names[] = {"hold.g729", "hold.G726-32", "hold.ilbc", "hold.siren14"};
    const char *codecs[] = {"G.729 audio", "G.726 audio", "iLBC audio", "Siren14"};
    for (int i = 0; i < 4; i++) {
        const char *p = tmp_path(names[i]);
        write_bytes(p, bytes, sizeof bytes);
        expect_open_error(p, codecs[i]);
    }
}

/* "-": a WAV streamed through a pipe (length unknown to the reader). */
static void test_stdin_pipe(void **state)
{
    (void)state;
    const long n = 12345;
    short *pcm = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = sine16(i, 0, 1234.0, 16000);
    const char *path = tmp_path("pipe.wav");
    write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, n);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        free(pcm); /* the writer only copies the file: nothing of the parent's outlives it */
        FILE *in = fopen(path, "rb");
        char buf[4096];
        size_t k;
        while (in && (k = fread(buf, 1, sizeof buf, in)) > 0)
            if (write(fds[1], buf, k) != (ssize_t)k)
                _exit(1);
        if (in)
            fclose(in);
        _exit(0);
    }
    close(fds[1]);
    int saved = dup(STDIN_FILENO);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    sl_audio_reader *r = open_ok("-", 0);
    assert_int_equal(sl_audio_file_frames(r), -1);
    long got;
    float *out = read_all(r, 1000, &got);
    sl_audio_close(r);
    dup2(saved, STDIN_FILENO);
    close(saved);
    waitpid(pid, NULL, 0);
    assert_int_equal(got, n);
    for (long i = 0; i < n; i++)
        assert_true(out[i] == pcm[i] / 32768.0f);
    free(out);
    free(pcm);
}

/* The moment a Broadcast WAVE file says its recording began, on the hand-built
 * files of test_write_bwf, against epoch seconds computed by hand: the 'bext'
 * chunk's local time under a zone with summer time and under UTC, any
 * separators; nothing for a date that is none, an empty date, or a file
 * without the chunk. */
static int64_t recording_start(const char *date, const char *time, int expect)
{
    const char *path = tmp_path("rec.wav");
    test_write_bwf(path, 16000, 1600, date, time);
    sl_audio_reader *r = open_ok(path, 0);
    int64_t us = 0;
    assert_int_equal(sl_audio_recording_start(r, &us), expect);
    sl_audio_close(r);
    return us;
}

static void test_recording_start(void **state)
{
    (void)state;
    char *saved = test_set_tz("UTC0");
    assert_true(recording_start("2026-12-05", "10:00:00", 0) == 1796464800LL * 1000000);
    assert_true(recording_start("2026:12:05", "10.00.00", 0) == 1796464800LL * 1000000);
    /* Central European Time, summer time from March's last Sunday to October's */
    free(test_set_tz("CET-1CEST,M3.5.0,M10.5.0/3"));
    assert_true(recording_start("2026-12-05", "10:00:00", 0) == 1796461200LL * 1000000);
    assert_true(recording_start("2026-07-01", "12:00:00", 0) == 1782900000LL * 1000000);
    recording_start("2026-02-30", "10:00:00", -1);
    recording_start("2026-12-05", "24:00:00", -1);
    recording_start("\0\0\0\0\0\0\0\0\0\0", "\0\0\0\0\0\0\0\0", -1);
    test_restore_tz(saved);
    short pcm[1600] = {0};
    write_short(tmp_path("plain.wav"), SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, 1600);
    sl_audio_reader *r = open_ok(tmp_path("plain.wav"), 0);
    int64_t us = 7;
    assert_int_equal(sl_audio_recording_start(r, &us), -1);
    assert_true(us == 7);
    sl_audio_close(r);
}

static void test_error_missing(void **state)
{
    (void)state;
    expect_open_error(tmp_path("no-such-file.wav"), "No such file");
    /* a buffer too short for the message takes as much of it as fits */
    char err[12];
    assert_null(sl_audio_open("/nonexistent/abcdefgh.wav", 0, err, sizeof err));
    assert_string_equal(err, "/nonexisten");
    char tiny[3];
    assert_null(sl_audio_open("/nonexistent/abcdefgh.wav", 0, tiny, sizeof tiny));
    assert_string_equal(tiny, "/n");
}

static void test_error_directory(void **state)
{
    (void)state;
    expect_open_error(tmpdir, "directory");
}

static void test_error_not_audio(void **state)
{
    (void)state;
    const char *path = tmp_path("notes.txt");
    FILE *fp = fopen(path, "w");
    fputs("these are words, not samples\n", fp);
    fclose(fp);
    expect_open_error(path, "not an audio file");
    expect_open_error(path, "--raw-format and --raw-rate"); /* what headerless samples need */
}

/* Settings a program got wrong: refused naming them, not read as something
 * else (a negative rate as the file's, a negative count as the end). */
static void test_error_bad_settings(void **state)
{
    (void)state;
    const char *path = tmp_path("settings.wav");
    short pcm[1600];
    for (int i = 0; i < 1600; i++)
        pcm[i] = sine16(i, 0, 440.0, 16000);
    write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, 1600);
    char err[SL_ERR_LEN] = "";
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.target_rate = -8000;
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "output rate -8000 Hz"));
    sl_audio_options_default(&opt);
    opt.quality = (sl_resample_quality)7;
    assert_null(sl_audio_open_ex(path, &opt, err, sizeof err));
    assert_non_null(strstr(err, "resampling quality 7"));
    assert_null(sl_audio_open_ex(path, NULL, err, sizeof err));
    assert_string_equal(err, "sl_audio_open: no options given");
    sl_audio_reader *r = sl_audio_open(path, 0, err, sizeof err);
    assert_non_null(r);
    float out[16];
    assert_int_equal(sl_audio_read(r, out, -1, err, sizeof err), -1);
    assert_non_null(strstr(err, "a read of -1 samples"));
    assert_int_equal(sl_audio_read(r, out, 16, err, sizeof err), 16);
    sl_audio_close(r);
}

static void test_error_empty_file(void **state)
{
    (void)state;
    const char *path = tmp_path("empty.wav");
    fclose(fopen(path, "w"));
    expect_open_error(path, "contains no audio");
}

/* fd://N of a descriptor that is not open is refused, not read (GStreamer's
 * own sockets may take its number once it starts: reading one never ends). */
static void test_error_fd_not_open(void **state)
{
    (void)state;
    expect_open_error("fd://57", "descriptor 57 is not open");
}

/* Input GStreamer decodes that gives nothing, no error and no end (here a pipe
 * kept open and never written, as fd://N) is an error after stall_seconds, not a
 * wait for ever; a regular file gets 30 s by default, live input no limit. */
static void test_error_stalled_decoding(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char uri[32], err[SL_ERR_LEN] = "";
    snprintf(uri, sizeof uri, "fd://%d", fds[0]);
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    assert_true(opt.stall_seconds == 0.0);
    opt.stall_seconds = 0.5;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sl_audio_reader *r = sl_audio_open_ex(uri, &opt, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    assert_null(r);
    if (!strstr(err, uri) || !strstr(err, "no audio, no error and no end for 0.5 s") ||
        waited < 0.45)
        fail_msg("after %.2f s: %s", waited, err);
    close(fds[0]);
    close(fds[1]);
}

/* Standard input that ends before its first byte, as a pipe or a FIFO (`: |`). */
static void test_error_empty_pipe(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    close(fds[1]);
    int saved = dup(STDIN_FILENO);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    expect_open_error("-", "standard input: empty (it ended before its first byte): contains "
                           "no audio");
    /* a cron or systemd job's standard input, and the device named */
    int null = open("/dev/null", O_RDONLY);
    assert_true(null >= 0);
    dup2(null, STDIN_FILENO);
    close(null);
    expect_open_error("-", "standard input: the null device: contains no audio");
    expect_open_error("/dev/null", "/dev/null: the null device: contains no audio");
    expect_open_error("fd://0", "fd://0: the null device: contains no audio");
    /* not a descriptor's number: GStreamer's words, not the null device's */
    expect_open_error("fd://x", "Bad file descriptor number in uri");
    dup2(saved, STDIN_FILENO);
    close(saved);
}

static void test_error_zero_samples(void **state)
{
    (void)state;
    const char *path = tmp_path("zero.wav");
    write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, NULL, 0);
    expect_open_error(path, "contains no audio");
}

/* A WAV cut inside its header, and one that ends right after its header. */
static void test_error_cut_header(void **state)
{
    (void)state;
    short pcm[1000] = {0};
    const char *path = tmp_path("whole.wav");
    write_short(path, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, 1000);
    FILE *fp = fopen(path, "rb");
    char head[44];
    assert_int_equal(fread(head, 1, 44, fp), 44);
    fclose(fp);
    const char *cut = tmp_path("cut-header.wav");
    fp = fopen(cut, "wb");
    fwrite(head, 1, 30, fp);
    fclose(fp);
    expect_open_error(cut, "cut-header.wav"); /* libsndfile's reason varies; the name must be there */
    const char *bare = tmp_path("header-only.wav");
    fp = fopen(bare, "wb");
    fwrite(head, 1, 44, fp);
    fclose(fp);
    expect_open_error(bare, "contains no audio");
}

/* A float WAV with a NaN (or Inf) at sample 1234: refused with that position. */
static void test_error_nonfinite(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        const int ch = k == 2 ? 2 : 1;
        const long n = 5000;
        float *pcm = calloc(n * ch, sizeof(float));
        pcm[1234 * ch + ch - 1] = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        const char *path = tmp_path("nonfinite.wav");
        write_float(path, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 16000, ch, pcm, n);
        expect_read_error(path, "sample 1234");
        expect_read_error(path, k == 0 ? "NaN" : "Inf");
        free(pcm);
    }
    /* a double WAV's 1e300 is finite, but beyond float's range: said so */
    double *big = calloc(5000, sizeof *big);
    big[1234] = 1e300;
    const char *path = tmp_path("big.wav");
    SF_INFO info = {.samplerate = 16000, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_DOUBLE};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    sf_command(sf, SFC_SET_NORM_DOUBLE, NULL, SF_FALSE); /* the value as it is */
    assert_int_equal(sf_writef_double(sf, big, 5000), 5000);
    sf_close(sf);
    expect_read_error(path, "non-finite sample (Inf, or a double beyond float's 3.4e38) at sample 1234");
    free(big);
}

/* The same through the resampler: the position is still in file samples. */
static void test_error_nonfinite_resampled(void **state)
{
    (void)state;
    const long n = 40000;
    float *pcm = calloc(n, sizeof(float));
    pcm[33333] = NAN;
    const char *path = tmp_path("nan44k.wav");
    write_float(path, SF_FORMAT_WAV | SF_FORMAT_FLOAT, 44100, 1, pcm, n);
    char err[SL_ERR_LEN] = "";
    sl_audio_reader *r = sl_audio_open(path, 16000, err, sizeof err);
    assert_non_null(r);
    float buf[500];
    long got;
    while ((got = sl_audio_read(r, buf, 500, err, sizeof err)) > 0)
        ;
    sl_audio_close(r);
    assert_int_equal(got, -1);
    if (!strstr(err, "sample 33333"))
        fail_msg("%s", err);
    free(pcm);
}

/* FLAC cut in the middle, and FLAC with garbage over its middle. */
static void test_error_corrupt_flac(void **state)
{
    (void)state;
    const long n = 48000;
    short *pcm = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = (short)(sine16(i, 0, 440.0, 16000) ^ (short)(i * 7919 % 4096)); /* hard to compress */
    const char *src = tmp_path("good.flac");
    write_short(src, SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 16000, 1, pcm, n);
    FILE *fp = fopen(src, "rb");
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    rewind(fp);
    char *bytes = malloc(size);
    assert_int_equal(fread(bytes, 1, size, fp), size);
    fclose(fp);

    const char *cut = tmp_path("cut.flac");
    fp = fopen(cut, "wb");
    fwrite(bytes, 1, size / 2, fp);
    fclose(fp);
    /* libFLAC notices either the lost sync or the missing samples */
    expect_read_error2(cut, "truncated", "corrupt");

    const char *bad = tmp_path("garbage.flac");
    for (long i = size / 3; i < size / 3 + 2000; i++)
        bytes[i] = (char)(i * 131 + 17);
    fp = fopen(bad, "wb");
    fwrite(bytes, 1, size, fp);
    fclose(fp);
    expect_read_error(bad, "corrupt");
    free(bytes);
    free(pcm);
}

/* Reads of `max` samples (at `rate`, 0: the file's) until one fails: the
 * samples handed over before it; the failure's message in err. A read after it
 * fails again, saying the same. */
static long read_until_failure(const char *path, int rate, long max, char *err, size_t errlen)
{
    sl_audio_reader *r = open_ok(path, rate);
    float *buf = malloc(sizeof *buf * (size_t)max);
    long total = 0, got;
    while ((got = sl_audio_read(r, buf, max, err, errlen)) > 0)
        total += got;
    assert_int_equal(got, -1);
    char again[SL_ERR_LEN] = "";
    assert_int_equal(sl_audio_read(r, buf, max, again, sizeof again), -1);
    assert_string_equal(again, err);
    sl_audio_close(r);
    free(buf);
    return total;
}

/* A read that fails hands over every sample before the failure first,
 * whatever the reads' size, and every read after it fails the same way: a
 * file cut short gives what it holds, also through the resampler (its tail
 * too), then the truncation; one with a NaN, the samples before its block,
 * then the NaN, never the samples after it or a second, other failure. */
static void test_failure_after_the_samples_before_it(void **state)
{
    (void)state;
    const long n = 16000;
    short *pcm = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = (short)sine16(i, 0, 440.0, 16000);
    write_short(tmp_path("whole5.wav"), SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, n);
    free(pcm);
    sh_ok("head -c $((44 + 2 * 5000)) whole5.wav > cut5.wav");
    const long sizes[] = {1, 1000, 4096, 16384, 100000};
    char err[SL_ERR_LEN], first[SL_ERR_LEN] = "";
    long resampled = -1;
    for (int k = 0; k < 5; k++) {
        assert_int_equal(read_until_failure(tmp_path("cut5.wav"), 0, sizes[k], err, sizeof err),
                         5000);
        assert_non_null(strstr(err, "cut5.wav: truncated: the header promises 16000 samples "
                                    "(1.00 s), the file holds 5000 (0.31 s)"));
        long got = read_until_failure(tmp_path("cut5.wav"), 8000, sizes[k], err, sizeof err);
        assert_true(resampled < 0 || got == resampled);
        resampled = got;
        if (k == 0)
            snprintf(first, sizeof first, "%s", err);
        assert_string_equal(err, first);
    }
    assert_int_equal(resampled, 2500); /* 5000 samples at 16 kHz, the tail included */
    /* a NaN at sample 500 of 1600: reads of 300 give 0..299, reads of 5000 none */
    float x[1600];
    for (int i = 0; i < 1600; i++)
        x[i] = 0.001f * (float)(i % 100);
    x[500] = NAN;
    write_float(tmp_path("nan5.wav"), SF_FORMAT_WAV | SF_FORMAT_FLOAT, 16000, 1, x, 1600);
    assert_int_equal(read_until_failure(tmp_path("nan5.wav"), 0, 300, err, sizeof err), 300);
    assert_non_null(strstr(err, "nan5.wav: non-finite sample (NaN) at sample 500"));
    assert_int_equal(read_until_failure(tmp_path("nan5.wav"), 0, 5000, err, sizeof err), 0);
    assert_non_null(strstr(err, "nan5.wav: non-finite sample (NaN) at sample 500"));
}

/* A WAV cut short reads as far as it goes, then says it was cut (libsndfile
 * takes the length from the file, and read it as whole); a header whose data
 * size is a placeholder (a recorder's, written before the length was known)
 * promises nothing; the chunks before the data are stepped over. */
static void test_error_truncated_wav(void **state)
{
    (void)state;
    const long n = 16000;
    short *pcm = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = (short)sine16(i, 0, 440.0, 16000);
    write_short(tmp_path("whole.wav"), SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, n);
    /* 44 bytes of header, then 16000 samples: half of them kept */
    sh_ok("head -c $((44 + 16000)) whole.wav > cut.wav");
    expect_read_error(tmp_path("cut.wav"), "cut.wav: truncated: the header promises 16000 samples "
                                           "(1.00 s), the file holds 8000 (0.50 s)");
    long got_n;
    float *got = read_path(tmp_path("whole.wav"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, n);
    free(got);
    /* the data size as a recorder leaves it before it knows: ffmpeg's
     * 0xFFFFFFFF, GStreamer wavenc's 0x7FFF0000 */
    sh_ok("printf '\\377\\377\\377\\377' | dd of=cut.wav bs=1 seek=40 conv=notrunc status=none");
    got = read_path(tmp_path("cut.wav"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, n / 2);
    free(got);
    sh_ok("printf '\\000\\000\\377\\177' | dd of=cut.wav bs=1 seek=40 conv=notrunc status=none");
    got = read_path(tmp_path("cut.wav"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, n / 2);
    free(got);
    /* a whole file whose block align is wrong (1 for 16-bit samples, a writer's
     * slip libsndfile ignores) is not taken for a cut one */
    sh_ok("cp whole.wav align.wav && printf '\\001' | dd of=align.wav bs=1 seek=32 conv=notrunc "
          "status=none");
    got = read_path(tmp_path("align.wav"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, n);
    free(got);
    /* float samples (4 bytes, two channels: 8 a frame) after fact, LIST and PEAK chunks */
    SF_INFO info = {.samplerate = 16000, .channels = 2, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT};
    SNDFILE *f = sf_open(tmp_path("f.wav"), SFM_WRITE, &info);
    assert_non_null(f);
    sf_set_string(f, SF_STR_COMMENT, "odd");
    float *x = calloc((size_t)n * 2, sizeof(float));
    assert_int_equal(sf_writef_float(f, x, n), n);
    sf_close(f);
    free(x);
    sh_ok("head -c $(($(stat -c %s f.wav) - 8 * 4000)) f.wav > fcut.wav");
    expect_read_error(tmp_path("fcut.wav"), "fcut.wav: truncated: the header promises 16000 "
                                            "samples (1.00 s), the file holds 12000 (0.75 s)");
    /* WAVE_FORMAT_EXTENSIBLE, as libsndfile writes WAVEX */
    write_short(tmp_path("x.wav"), SF_FORMAT_WAVEX | SF_FORMAT_PCM_16, 16000, 1, pcm, n);
    sh_ok("head -c $(($(stat -c %s x.wav) - 2 * 4000)) x.wav > xcut.wav");
    expect_read_error(tmp_path("xcut.wav"), "xcut.wav: truncated: the header promises 16000 "
                                            "samples (1.00 s), the file holds 12000 (0.75 s)");
    free(pcm);
}

/* Copies src to dst but its last `drop` bytes: a copy that stopped. */
static void copy_cut(const char *src, const char *dst, long drop)
{
    size_t size;
    unsigned char *bytes = test_read_file(src, &size);
    assert_true((long)size > drop);
    FILE *fp = fopen(dst, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(bytes, 1, size - (size_t)drop, fp), size - (size_t)drop);
    assert_int_equal(fclose(fp), 0);
    free(bytes);
}

/* Writes n bytes over path's, `skip` bytes after the first `marker` (a chunk's
 * name), as a writer that did not know the length leaves its header. */
static void patch_after(const char *path, const char *marker, long skip, const char *bytes, size_t n)
{
    size_t size;
    unsigned char *file = test_read_file(path, &size);
    unsigned char *at = memmem(file, size, marker, strlen(marker));
    assert_non_null(at);
    assert_true((size_t)(at - file) + (size_t)skip + n <= size);
    memcpy(at + skip, bytes, n);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(file, 1, size, fp), size);
    assert_int_equal(fclose(fp), 0);
    free(file);
}

/* 16000 frames of a sine (1.00 s at 16 kHz) written by libsndfile as `format`
 * into name; every one of its frames (as libsndfile counts them: whole blocks
 * of ADPCM) read back. */
static void write_sine_file(const char *name, int format, int channels, long frames_read)
{
    const long n = 16000;
    short *pcm = malloc(sizeof(short) * (size_t)n * (size_t)channels);
    for (long i = 0; i < n; i++)
        for (int c = 0; c < channels; c++)
            pcm[i * channels + c] = sine16(i, c, 440.0, 16000);
    write_short(tmp_path(name), format, 16000, channels, pcm, n);
    free(pcm);
    long got_n;
    float *got = read_path(tmp_path(name), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, frames_read);
    free(got);
}

/* AIFF, AIFC, AU, W64, RF64, big-endian WAV (RIFX), and IMA ADPCM, MS ADPCM
 * and GSM 6.10 in WAV (and W64 and AIFC), G.721 and G.723 in AU (and WAV), NMS
 * ADPCM in WAV and DWVW in AIFC, and NIST, VOC, 8SVX, CAF, MAT4, MAT5, AVR,
 * WVE, MPC 2000 and XI files cut short: libsndfile takes their length from
 * the file as it does a PCM WAV's, and the header's data size (or frame
 * count) says what is missing. A quarter of the data (whole blocks) is cut from the end;
 * the whole file reads as before. ADPCM is promised as libsndfile counts it:
 * whole blocks of samples (IMA's 512-byte blocks of 1017 here), or the fact
 * chunk's count where it ends in the last block (MS ADPCM's 16000). */
static void test_error_truncated_containers(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int format, channels;
        long whole, drop;
        const char *msg;
    } cases[] = {
        {"t16.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 1, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"t8.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_S8, 1, 16000, 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* AIFC: 32-bit float ('fl32'), two channels */
        {"tf.aifc", SF_FORMAT_AIFF | SF_FORMAT_FLOAT, 2, 16000, 8 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"t16.au", SF_FORMAT_AU | SF_FORMAT_PCM_16, 1, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* little-endian AU ("dns."), mu-law */
        {"tule.au", SF_FORMAT_AU | SF_FORMAT_ULAW | SF_ENDIAN_LITTLE, 1, 16000, 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"t24.w64", SF_FORMAT_W64 | SF_FORMAT_PCM_24, 2, 16000, 6 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"t16.rf64", SF_FORMAT_RF64 | SF_FORMAT_PCM_16, 1, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"trifx.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16 | SF_ENDIAN_BIG, 1, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* 16 blocks of 512 bytes: 4 cut */
        {"tima.wav", SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM, 1, 16 * 1017, 4 * 512,
         "promises 16272 samples (1.02 s), the file holds 12204 (0.76 s)"},
        {"tima.w64", SF_FORMAT_W64 | SF_FORMAT_IMA_ADPCM, 1, 16 * 1017, 4 * 512,
         "promises 16272 samples (1.02 s), the file holds 12204 (0.76 s)"},
        {"tms.wav", SF_FORMAT_WAV | SF_FORMAT_MS_ADPCM, 1, 16 * 1012, 4 * 512,
         "promises 16000 samples (1.00 s), the file holds 12144 (0.76 s)"},
        /* 50 blocks of 65 bytes, 320 samples each: 12 cut */
        {"tgsm.wav", SF_FORMAT_WAV | SF_FORMAT_GSM610, 1, 16000, 12 * 65,
         "promises 16000 samples (1.00 s), the file holds 12160 (0.76 s)"},
        /* AIFC's GSM 6.10: 100 blocks of 33 bytes, 160 samples each: 25 cut */
        {"tgsm.aifc", SF_FORMAT_AIFF | SF_FORMAT_GSM610, 1, 16000, 25 * 33,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* AIFC 'ima4': 250 blocks of 34 bytes, 64 samples each: 62 cut */
        {"tima4.aifc", SF_FORMAT_AIFF | SF_FORMAT_IMA_ADPCM, 1, 16000, 62 * 34,
         "promises 16000 samples (1.00 s), the file holds 12032 (0.75 s)"},
        /* G.721 and G.723 in AU, G.721 in WAV: 134 blocks of 120 samples
         * (60, 45 and 75 bytes): 34 cut */
        {"tg721.au", SF_FORMAT_AU | SF_FORMAT_G721_32, 1, 16080, 34 * 60,
         "promises 16080 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tg723.au", SF_FORMAT_AU | SF_FORMAT_G723_24, 1, 16080, 34 * 45,
         "promises 16080 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tg723_40.au", SF_FORMAT_AU | SF_FORMAT_G723_40, 1, 16080, 34 * 75,
         "promises 16080 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tg721.wav", SF_FORMAT_WAV | SF_FORMAT_G721_32, 1, 16080, 34 * 60,
         "promises 16080 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* NMS ADPCM in WAV: 100 blocks of 42 bytes (16 kbit/s), 160 samples each: 25 cut */
        {"tnms.wav", SF_FORMAT_WAV | SF_FORMAT_NMS_ADPCM_16, 1, 16000, 25 * 42,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* AIFC's DWVW, whose words vary in length: the COMM chunk's count */
        {"tdwvw.aifc", SF_FORMAT_AIFF | SF_FORMAT_DWVW_16, 1, 16000, 2000,
         "promises 16000 samples (1.00 s), the file holds "},
        /* NIST SPHERE: its sample_count; mu-law, two channels */
        {"t16.nist", SF_FORMAT_NIST | SF_FORMAT_PCM_16, 1, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tu.nist", SF_FORMAT_NIST | SF_FORMAT_ULAW, 2, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* VOC's 16-bit block (type 9), before its terminating byte */
        {"t16.voc", SF_FORMAT_VOC | SF_FORMAT_PCM_16, 2, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* IFF 8SVX's BODY chunk, and 16SV's */
        {"t8.svx", SF_FORMAT_SVX | SF_FORMAT_PCM_S8, 1, 16000, 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"t16.svx", SF_FORMAT_SVX | SF_FORMAT_PCM_16, 1, 16000, 2 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* CAF cut by less than its 4 KiB header, which libsndfile reads to
         * 8 bytes before the end: 500 frames cut, 502 missing */
        {"t16.caf", SF_FORMAT_CAF | SF_FORMAT_PCM_16, 2, 16000, 4 * 500,
         "promises 16000 samples (1.00 s), the file holds 15498 (0.97 s)"},
        /* MATLAB 4 and 5: the samples' columns; big-endian too */
        {"t16.mat4", SF_FORMAT_MAT4 | SF_FORMAT_PCM_16, 2, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tbe.mat4", SF_FORMAT_MAT4 | SF_FORMAT_FLOAT | SF_ENDIAN_BIG, 1, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tf.mat5", SF_FORMAT_MAT5 | SF_FORMAT_FLOAT, 1, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"tbe.mat5", SF_FORMAT_MAT5 | SF_FORMAT_PCM_16 | SF_ENDIAN_BIG, 2, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* AVR's frame count, unsigned 8-bit too */
        {"t16.avr", SF_FORMAT_AVR | SF_FORMAT_PCM_16, 2, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        {"t8.avr", SF_FORMAT_AVR | SF_FORMAT_PCM_U8, 1, 16000, 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
        /* Psion WVE, A-law at 8 kHz whatever the rate it was written at */
        {"t.wve", SF_FORMAT_WVE | SF_FORMAT_ALAW, 1, 16000, 4000,
         "promises 16000 samples (2.00 s), the file holds 12000 (1.50 s)"},
        /* Akai MPC 2000's frame count */
        {"t.mpc2k", SF_FORMAT_MPC2K | SF_FORMAT_PCM_16, 2, 16000, 4 * 4000,
         "promises 16000 samples (1.00 s), the file holds 12000 (0.75 s)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_sine_file(cases[k].name, cases[k].format, cases[k].channels, cases[k].whole);
        char cut[64], msg[256];
        snprintf(cut, sizeof cut, "cut_%s", cases[k].name);
        copy_cut(tmp_path(cases[k].name), tmp_path(cut), cases[k].drop);
        snprintf(msg, sizeof msg, "%s: truncated: the header %s", cut, cases[k].msg);
        expect_read_error(tmp_path(cut), msg);
    }
    /* FastTracker 2 XI: the sample's length, in bytes; libsndfile writes it
     * (its frame count) when told to update the header, else 0 (no promise) */
    short pcm[1600];
    for (int i = 0; i < 1600; i++)
        pcm[i] = sine16(i, 0, 440.0, 16000);
    SF_INFO info = {.samplerate = 44100, .channels = 1, .format = SF_FORMAT_XI | SF_FORMAT_DPCM_8};
    SNDFILE *sf = sf_open(tmp_path("t8.xi"), SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_short(sf, pcm, 1600), 1600);
    sf_command(sf, SFC_UPDATE_HEADER_NOW, NULL, 0);
    sf_close(sf);
    long got_n;
    float *got = read_path(tmp_path("t8.xi"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, 1600);
    free(got);
    copy_cut(tmp_path("t8.xi"), tmp_path("cut_t8.xi"), 400);
    expect_read_error(tmp_path("cut_t8.xi"), "cut_t8.xi: truncated: the header promises 1600 "
                                             "samples (0.04 s), the file holds 1200 (0.03 s)");
}

/* The last block of ADPCM cut into: IMA's and G.721's libsndfile decodes as a
 * whole (the file holds all it counts: accepted), MS ADPCM's it drops
 * (refused). */
static void test_truncated_last_block(void **state)
{
    (void)state;
    write_sine_file("lima.wav", SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM, 1, 16 * 1017);
    copy_cut(tmp_path("lima.wav"), tmp_path("lima_cut.wav"), 100);
    long got_n;
    float *got = read_path(tmp_path("lima_cut.wav"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, 16 * 1017);
    free(got);
    /* 10 of the last 60-byte block's bytes cut: its 120 samples still read */
    write_sine_file("lg721.au", SF_FORMAT_AU | SF_FORMAT_G721_32, 1, 16080);
    copy_cut(tmp_path("lg721.au"), tmp_path("lg721_cut.au"), 10);
    got = read_path(tmp_path("lg721_cut.au"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, 16080);
    free(got);
    write_sine_file("lms.wav", SF_FORMAT_WAV | SF_FORMAT_MS_ADPCM, 1, 16 * 1012);
    copy_cut(tmp_path("lms.wav"), tmp_path("lms_cut.wav"), 100);
    expect_read_error(tmp_path("lms_cut.wav"), "lms_cut.wav: truncated: the header promises "
                                               "16000 samples (1.00 s), the file holds 15180 (0.95 s)");
}

/* A data size written before the length was known promises nothing: the
 * file cut short reads to its end, as from a pipe. AIFF: sox's 0x7F000008
 * (16-bit mono) and GStreamer aiffmux's 0x7FFF0008; AU: 0xFFFFFFFF, AU's
 * "unknown" (sox to a pipe); W64: all ones, and ffmpeg's INT64_MAX (refused
 * as a promise of 4.6e18 samples); IMA ADPCM WAV: sox's 0x7FFFF000;
 * NIST: no sample_count (sox's); VOC: a block of no samples (libsndfile's, 12
 * bytes of fields); 8SVX's BODY, AVR's, WVE's and MPC 2000's length: 0. */
static void test_truncated_placeholder_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int format;
        long whole, drop;
        const char *marker;
        long skip;
        const char *size;
        size_t size_len;
        long held;
    } cases[] = {
        {"psox.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 16000, 8000, "SSND", 4, "\x7f\0\0\x08", 4,
         12000},
        {"pgst.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 16000, 8000, "SSND", 4,
         "\x7f\xff\0\x08", 4, 12000},
        {"p.au", SF_FORMAT_AU | SF_FORMAT_PCM_16, 16000, 8000, ".snd", 8, "\xff\xff\xff\xff", 4,
         12000},
        {"p.w64", SF_FORMAT_W64 | SF_FORMAT_PCM_16, 16000, 8000, "data", 16,
         "\xff\xff\xff\xff\xff\xff\xff\xff", 8, 12000},
        {"pff.w64", SF_FORMAT_W64 | SF_FORMAT_PCM_16, 16000, 8000, "data", 16,
         "\xff\xff\xff\xff\xff\xff\xff\x7f", 8, 12000},
        {"pima.wav", SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM, 16 * 1017, 4 * 512, "data", 4,
         "\0\xf0\xff\x7f", 4, 12 * 1017},
        {"p.nist", SF_FORMAT_NIST | SF_FORMAT_PCM_16, 16000, 8000, "sample_count", 0,
         "xample_count", 12, 12000},
        {"p.voc", SF_FORMAT_VOC | SF_FORMAT_PCM_16, 16000, 8000, "Creative Voice File", 27,
         "\x0c\0\0", 3, 12000},
        {"p.svx", SF_FORMAT_SVX | SF_FORMAT_PCM_16, 16000, 8000, "BODY", 4, "\0\0\0\0", 4, 12000},
        {"p.avr", SF_FORMAT_AVR | SF_FORMAT_PCM_16, 16000, 8000, "2BIT", 26, "\0\0\0\0", 4,
         12000},
        {"p.wve", SF_FORMAT_WVE | SF_FORMAT_ALAW, 16000, 4000, "ALawSoundFile", 18,
         "\0\0\0\0", 4, 12000},
        {"p.mpc2k", SF_FORMAT_MPC2K | SF_FORMAT_PCM_16, 16000, 8000, "\x01\x04", 30,
         "\0\0\0\0", 4, 12000},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_sine_file(cases[k].name, cases[k].format, 1, cases[k].whole);
        char cut[64];
        snprintf(cut, sizeof cut, "cut_%s", cases[k].name);
        copy_cut(tmp_path(cases[k].name), tmp_path(cut), cases[k].drop);
        patch_after(tmp_path(cut), cases[k].marker, cases[k].skip, cases[k].size,
                    cases[k].size_len);
        long got_n;
        float *got = read_path(tmp_path(cut), NULL, 0, 1000, &got_n);
        if (got_n != cases[k].held)
            fail_msg("%s: %ld samples read, %ld expected", cut, got_n, cases[k].held);
        free(got);
    }
}

/* A data size of 0, the placeholder of a recorder stopped before it wrote the
 * length, with the samples after it: they read as those of the same file with
 * a correct header (libsndfile alone read none, "contains no audio"), with the
 * RIFF size 0 too, and by name or as standard input (`< file`). So do WAVEX's,
 * RIFX's, IMA ADPCM's (its blocks), RF64's (its ds64 chunk's) and AU's. Half
 * a frame after the samples is none. */
static void test_zero_data_size(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int format;
        const char *marker, *marker2; /* where the sizes are (4 bytes after) */
        long skip;
        size_t size_len;
        const char *tail; /* appended: half a frame */
    } cases[] = {
        {"z.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, "data", NULL, 4, 4, NULL},
        {"zr.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, "data", "RIFF", 4, 4, NULL},
        {"zodd.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, "data", NULL, 4, 4, "\x01"},
        {"zx.wav", SF_FORMAT_WAVEX | SF_FORMAT_PCM_16, "data", NULL, 4, 4, NULL},
        {"zrifx.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24 | SF_ENDIAN_BIG, "data", NULL, 4, 4, NULL},
        {"zima.wav", SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM, "data", NULL, 4, 4, NULL},
        {"z.rf64", SF_FORMAT_RF64 | SF_FORMAT_PCM_16, "ds64", NULL, 16, 8, NULL},
        {"z.au", SF_FORMAT_AU | SF_FORMAT_PCM_16, ".snd", NULL, 8, 4, NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const long n = 16000;
        short *pcm = malloc(sizeof(short) * (size_t)n);
        for (long i = 0; i < n; i++)
            pcm[i] = sine16(i, 0, 440.0, 16000);
        write_short(tmp_path(cases[k].name), cases[k].format, 16000, 1, pcm, n);
        free(pcm);
        char zero[64];
        snprintf(zero, sizeof zero, "zero_%s", cases[k].name);
        copy_cut(tmp_path(cases[k].name), tmp_path(zero), 0);
        patch_after(tmp_path(zero), cases[k].marker, cases[k].skip, "\0\0\0\0\0\0\0\0",
                    cases[k].size_len);
        if (cases[k].marker2)
            patch_after(tmp_path(zero), cases[k].marker2, 4, "\0\0\0\0", 4);
        if (cases[k].tail) {
            FILE *fp = fopen(tmp_path(zero), "ab");
            assert_non_null(fp);
            assert_true(fputs(cases[k].tail, fp) >= 0);
            assert_int_equal(fclose(fp), 0);
        }
        long whole_n, got_n;
        float *whole = read_path(tmp_path(cases[k].name), NULL, 0, 1000, &whole_n);
        float *got = read_path(tmp_path(zero), NULL, 0, 1000, &got_n);
        if (got_n != whole_n)
            fail_msg("%s: %ld samples read, %ld expected", zero, got_n, whole_n);
        assert_same_samples(whole, whole_n, got, got_n);
    }
    long whole_n, got_n;
    float *whole = read_path(tmp_path("zr.wav"), NULL, 0, 1000, &whole_n);
    float *got = read_stdin_at(tmp_path("zero_zr.wav"), 0, &got_n);
    assert_same_samples(whole, whole_n, got, got_n);
}

/* Chunks after the data (AIFF's ANNO and AUTH, WAV's LIST, CAF's info, as
 * libsndfile writes strings set after the samples; an ID3 chunk a tagger
 * appends to a WAV) are no data cut short. */
static void test_trailing_chunks_not_truncated(void **state)
{
    (void)state;
    const long n = 16000;
    short *pcm = malloc(sizeof(short) * n);
    for (long i = 0; i < n; i++)
        pcm[i] = sine16(i, 0, 440.0, 16000);
    const char *names[] = {"tail.aiff", "tail.wav", "tail.rf64", "tail.caf"};
    const int formats[] = {SF_FORMAT_AIFF | SF_FORMAT_PCM_16, SF_FORMAT_WAV | SF_FORMAT_PCM_16,
                           SF_FORMAT_RF64 | SF_FORMAT_PCM_16, SF_FORMAT_CAF | SF_FORMAT_PCM_16};
    const char *tails[] = {"ANNO", "LIST", "LIST", "info"};
    const char *datas[] = {"SSND", "data", "data", "data"};
    for (int k = 0; k < 4; k++) {
        SF_INFO info = {.samplerate = 16000, .channels = 1, .format = formats[k]};
        SNDFILE *sf = sf_open(tmp_path(names[k]), SFM_WRITE, &info);
        assert_non_null(sf);
        assert_int_equal(sf_writef_short(sf, pcm, n), n);
        sf_set_string(sf, SF_STR_COMMENT, "a comment after the samples");
        sf_set_string(sf, SF_STR_ARTIST, "someone");
        sf_close(sf);
        size_t size;
        unsigned char *bytes = test_read_file(tmp_path(names[k]), &size);
        unsigned char *at = memmem(bytes, size, tails[k], 4);
        unsigned char *data = memmem(bytes, size, datas[k], 4);
        assert_true(at && data && at > data); /* the chunk is after the data */
        free(bytes);
        long got_n;
        float *got = read_path(tmp_path(names[k]), NULL, 0, 1000, &got_n);
        assert_int_equal(got_n, n);
        free(got);
    }
    write_short(tmp_path("id3.wav"), SF_FORMAT_WAV | SF_FORMAT_PCM_16, 16000, 1, pcm, n);
    sh_ok("printf 'id3 \\022\\0\\0\\0ID3\\004\\0\\0\\0\\0\\0\\012TIT2\\0\\0\\0\\0' "
          ">> id3.wav");
    long got_n;
    float *got = read_path(tmp_path("id3.wav"), NULL, 0, 1000, &got_n);
    assert_int_equal(got_n, n);
    free(got);
    free(pcm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wav_exact),
        cmocka_unit_test(test_long_path),
        cmocka_unit_test(test_flac_exact),
        cmocka_unit_test(test_aiff_exact),
        cmocka_unit_test(test_ogg_vorbis_close),
        cmocka_unit_test(test_downmix_exact),
        cmocka_unit_test(test_one_channel),
        cmocka_unit_test(test_gstreamer_decodes),
        cmocka_unit_test(test_audio_streams),
        cmocka_unit_test(test_tap),
        cmocka_unit_test(test_resample_sine),
        cmocka_unit_test(test_resample_read_sizes),
        cmocka_unit_test(test_short_file),
        cmocka_unit_test(test_raw_input),
        cmocka_unit_test(test_raw_names),
        cmocka_unit_test(test_g711_by_name),
        cmocka_unit_test(test_file_uri_odd_wav),
        cmocka_unit_test(test_sln_by_name),
        cmocka_unit_test(test_gsm_fixture),
        cmocka_unit_test(test_g722_fixture),
        cmocka_unit_test(test_mp3_gapless),
        cmocka_unit_test(test_mp3_in_wav),
        cmocka_unit_test(test_raw_codec_errors),
        cmocka_unit_test(test_stdin_pipe),
        cmocka_unit_test(test_error_empty_pipe),
        cmocka_unit_test(test_error_fd_not_open),
        cmocka_unit_test(test_error_stalled_decoding),
        cmocka_unit_test(test_recording_start),
        cmocka_unit_test(test_error_missing),
        cmocka_unit_test(test_error_directory),
        cmocka_unit_test(test_error_not_audio),
        cmocka_unit_test(test_error_bad_settings),
        cmocka_unit_test(test_error_empty_file),
        cmocka_unit_test(test_error_zero_samples),
        cmocka_unit_test(test_error_cut_header),
        cmocka_unit_test(test_error_nonfinite),
        cmocka_unit_test(test_error_nonfinite_resampled),
        cmocka_unit_test(test_error_corrupt_flac),
        cmocka_unit_test(test_error_truncated_wav),
        cmocka_unit_test(test_failure_after_the_samples_before_it),
        cmocka_unit_test(test_error_truncated_containers),
        cmocka_unit_test(test_truncated_last_block),
        cmocka_unit_test(test_truncated_placeholder_sizes),
        cmocka_unit_test(test_zero_data_size),
        cmocka_unit_test(test_trailing_chunks_not_truncated),
        cmocka_unit_test(test_open_error_own_under_threads),
    };
    return cmocka_run_group_tests_name("io/audio_reader", tests, setup_dir, teardown_dir);
}
