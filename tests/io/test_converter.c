/* sl_converter: streams at another rate or channel count into a labeler's
 * input. Expected values are analytic (a sine's mean of channels at the new
 * rate, an exact stereo mean) or another path's (sl_audio_read on the same
 * samples as a file), and the delay it reports is checked as a bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seqlabel.h"
#include "tests/common/test_files.h"

typedef struct {
    float *x;
    size_t n, cap;
} collected;

static int collect(void *user, const float *mono, size_t n)
{
    collected *c = user;
    if (c->n + n > c->cap) {
        c->cap = 2 * (c->n + n);
        c->x = realloc(c->x, c->cap * sizeof *c->x);
        assert_non_null(c->x);
    }
    memcpy(c->x + c->n, mono, n * sizeof *mono);
    c->n += n;
    return 0;
}

/* n frames in one push, then the tail: the whole stream converted. */
static void convert_whole(sl_converter *c, const int16_t *s, size_t n, collected *out)
{
    char err[256];
    assert_int_equal(sl_converter_push_s16(c, s, n, collect, out, err, sizeof err), 0);
    assert_int_equal(sl_converter_flush(c, collect, out, err, sizeof err), 0);
}

/* n stereo frames of 16-bit samples at `rate`: left 0.5 and right 0.3 of a sine
 * of hz, so the channels' mean is 0.4 of it (before rounding to 16 bits). */
static int16_t *stereo_sine(size_t n, int rate, double hz)
{
    int16_t *s = malloc(2 * n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        double v = sin(2.0 * M_PI * hz * (double)i / rate);
        s[2 * i] = (int16_t)lrint(0.5 * v * 32767.0);
        s[2 * i + 1] = (int16_t)lrint(0.3 * v * 32767.0);
    }
    return s;
}

/* 44.1 kHz stereo to 16 kHz mono: the mean of the channels' sine, at the new
 * rate and not shifted in time (soxr takes its filter's delay off). */
static void test_sine_at_new_rate(void **state)
{
    (void)state;
    const size_t n = 44100;
    int16_t *s = stereo_sine(n, 44100, 1000.0);
    char err[256];
    sl_converter *c = sl_converter_new(44100, 2, 16000, err, sizeof err);
    assert_non_null(c);
    collected out = {0};
    convert_whole(c, s, n, &out);
    assert_int_equal(out.n, 16000);
    double worst = 0.0;
    for (size_t k = 800; k < 16000 - 800; k++) {
        double want = 0.4 * 32767.0 / 32768.0 * sin(2.0 * M_PI * 1000.0 * (double)k / 16000);
        worst = fmax(worst, fabs(out.x[k] - want));
    }
    printf("sine 44.1 kHz stereo -> 16 kHz: worst error %.2e\n", worst);
    assert_true(worst < 1e-4); /* 16-bit rounding is 1.5e-5 */
    free(out.x);
    free(s);
    sl_converter_free(c);
}

/* The same samples in pushes of any size: bit for bit the same output, and as
 * many samples as the rates say. */
static void test_push_sizes(void **state)
{
    (void)state;
    const size_t n = 3 * 22050 + 17;
    int16_t *s = stereo_sine(n, 22050, 440.0);
    char err[256];
    collected whole = {0}, parts = {0};
    sl_converter *c = sl_converter_new(22050, 2, 16000, err, sizeof err);
    assert_non_null(c);
    convert_whole(c, s, n, &whole);
    /* flush reset it: the next stream starts afresh, in odd pieces */
    unsigned r = 7;
    for (size_t done = 0; done < n;) {
        r = r * 1103515245u + 12345u;
        size_t k = 1 + (r >> 16) % 3000;
        if (k > n - done)
            k = n - done;
        assert_int_equal(sl_converter_push_s16(c, s + 2 * done, k, collect, &parts, err, sizeof err), 0);
        done += k;
    }
    assert_int_equal(sl_converter_flush(c, collect, &parts, err, sizeof err), 0);
    assert_int_equal(whole.n, (size_t)lround(n * 16000.0 / 22050.0));
    assert_int_equal(parts.n, whole.n);
    assert_memory_equal(parts.x, whole.x, whole.n * sizeof *whole.x);
    free(whole.x);
    free(parts.x);
    free(s);
    sl_converter_free(c);
}

/* A stream and its file: the converter gives what sl_audio_read gives on a
 * WAV of the same samples (the command's path), so the element and
 * `seqlabel label` label the same numbers: bit for bit at 48 kHz; at 44.1 kHz
 * within 1e-6, as the converter's capped DFTs (the file's are soxr's default
 * size) sum in another order (one sample of 20 s of speech differed by 1 ulp). */
static void same_as_file(int rate, int exact)
{
    const size_t n = 2 * (size_t)rate + 5;
    int16_t *s = stereo_sine(n, rate, 3000.0);
    for (size_t i = 0; i < 2 * n; i += 7)
        s[i] = (int16_t)(s[i] / 2 + (int16_t)(i % 1000)); /* not a pure sine */
    char path[512];
    test_tmp_path(path, sizeof path, "sl-converter-XXXXXX.wav");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    SF_INFO info = {.samplerate = rate, .channels = 2, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    assert_non_null(f);
    assert_int_equal(sf_writef_short(f, s, (sf_count_t)n), (sf_count_t)n);
    sf_close(f);

    char err[256];
    sl_audio_reader *r = sl_audio_open(path, 16000, err, sizeof err);
    assert_non_null(r);
    collected file = {0};
    float block[1000];
    long got;
    while ((got = sl_audio_read(r, block, 1000, err, sizeof err)) > 0)
        collect(&file, block, (size_t)got);
    assert_int_equal(got, 0);
    sl_audio_close(r);
    unlink(path);

    collected stream = {0};
    sl_converter *c = sl_converter_new(rate, 2, 16000, err, sizeof err);
    assert_non_null(c);
    const size_t hop = (size_t)rate / 100; /* 10 ms buffers, as a live source */
    for (size_t done = 0; done < n; done += hop)
        assert_int_equal(sl_converter_push_s16(c, s + 2 * done, n - done < hop ? n - done : hop,
                                               collect, &stream, err, sizeof err), 0);
    assert_int_equal(sl_converter_flush(c, collect, &stream, err, sizeof err), 0);
    assert_int_equal(stream.n, file.n);
    double worst = 0.0;
    size_t differ = 0;
    for (size_t i = 0; i < file.n; i++) {
        double d = fabs((double)stream.x[i] - file.x[i]);
        differ += d > 0.0;
        worst = d > worst ? d : worst;
    }
    printf("%d Hz: %zu of %zu samples differ, by at most %.3g\n", rate, differ, file.n, worst);
    if (exact)
        assert_memory_equal(stream.x, file.x, file.n * sizeof *file.x);
    else
        assert_true(worst <= 1e-6);
    free(file.x);
    free(stream.x);
    free(s);
    sl_converter_free(c);
}

static void test_same_as_file(void **state)
{
    (void)state;
    same_as_file(48000, 1);
    same_as_file(44100, 0);
}

/* The reported delay bounds how far output lags input, pushed a sample at a
 * time (a signal, not the silence it was measured on), and is not loose by
 * more than a block of soxr's. */
static void test_delay_bound(void **state)
{
    (void)state;
    static const int rates[] = {8000, 44100};
    for (int i = 0; i < 2; i++) {
        const int rate = rates[i];
        const size_t n = 3 * (size_t)rate;
        int16_t *s = stereo_sine(n, rate, 300.0);
        char err[256];
        sl_converter *c = sl_converter_new(rate, 2, 16000, err, sizeof err);
        assert_non_null(c);
        const int delay = sl_converter_delay(c);
        collected out = {0};
        double worst = 0.0;
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(sl_converter_push_s16(c, s + 2 * k, 1, collect, &out, err, sizeof err), 0);
            worst = fmax(worst, (double)(k + 1) * 16000.0 / rate - (double)out.n);
        }
        printf("%d Hz: delay %d, worst lag %.1f output samples\n", rate, delay, worst);
        assert_true(worst <= delay);
        assert_true(worst > delay - 16000 * 0.05);
        free(out.x);
        free(s);
        sl_converter_free(c);
    }
    char err[256];
    sl_converter *same = sl_converter_new(16000, 3, 16000, err, sizeof err);
    assert_non_null(same);
    assert_int_equal(sl_converter_delay(same), 0);
    sl_converter_free(same);
    /* a delay is measured once for its rates (each converter of them takes
     * it): 44.1 kHz again after 48 kHz gives 44.1 kHz's, not the last one's */
    {
        sl_converter *a = sl_converter_new(44100, 1, 16000, err, sizeof err),
                     *b = sl_converter_new(48000, 2, 16000, err, sizeof err),
                     *c = sl_converter_new(44100, 2, 16000, err, sizeof err);
        assert_true(a && b && c);
        assert_int_equal(sl_converter_delay(c), sl_converter_delay(a));
        assert_int_not_equal(sl_converter_delay(b), sl_converter_delay(a));
        sl_converter_free(a);
        sl_converter_free(b);
        sl_converter_free(c);
    }
    /* the figures docs/element.md and docs/io.md quote */
    static const int common[] = {8000, 11025, 22050, 32000, 44100, 48000};
    for (int i = 0; i < 6; i++) {
        sl_converter *c = sl_converter_new(common[i], 2, 16000, err, sizeof err);
        assert_non_null(c);
        printf("delay from %d Hz: %d output samples (%.0f ms)\n", common[i],
               sl_converter_delay(c), sl_converter_delay(c) / 16.0);
        sl_converter_free(c);
    }
}

/* At the output rate only the mean is taken: exact for 16-bit values. */
static void test_mean_only(void **state)
{
    (void)state;
    const float in[6] = {0.25f, -0.5f, 1.0f / 32768, 3.0f / 32768, -1.0f, -1.0f};
    char err[256];
    sl_converter *c = sl_converter_new(16000, 2, 16000, err, sizeof err);
    assert_non_null(c);
    collected out = {0};
    assert_int_equal(sl_converter_push(c, in, 3, collect, &out, err, sizeof err), 0);
    assert_int_equal(sl_converter_flush(c, collect, &out, err, sizeof err), 0);
    assert_int_equal(out.n, 3);
    assert_true(out.x[0] == -0.125f && out.x[1] == 2.0f / 32768 && out.x[2] == -1.0f);
    free(out.x);
    sl_converter_free(c);
}

/* sl_converter_set_channel: that channel alone, exactly; back to 0, the mean; a
 * channel the stream lacks refused. */
static void test_one_channel(void **state)
{
    (void)state;
    const float in[6] = {0.25f, -0.5f, 1.0f / 32768, 3.0f / 32768, -1.0f, 0.75f};
    char err[256];
    sl_converter *c = sl_converter_new(16000, 2, 16000, err, sizeof err);
    assert_non_null(c);
    for (int k = 1; k <= 2; k++) {
        collected out = {0};
        assert_int_equal(sl_converter_set_channel(c, k, err, sizeof err), 0);
        assert_int_equal(sl_converter_push(c, in, 3, collect, &out, err, sizeof err), 0);
        assert_int_equal(out.n, 3);
        for (int i = 0; i < 3; i++)
            assert_true(out.x[i] == in[2 * i + k - 1]);
        free(out.x);
    }
    collected out = {0};
    assert_int_equal(sl_converter_set_channel(c, 0, err, sizeof err), 0);
    assert_int_equal(sl_converter_push(c, in, 1, collect, &out, err, sizeof err), 0);
    assert_true(out.n == 1 && out.x[0] == -0.125f);
    free(out.x);
    assert_int_equal(sl_converter_set_channel(c, 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "channel 3 asked of a stream of 2 channel(s)"));
    sl_converter_free(c);
}

static void test_refusals(void **state)
{
    (void)state;
    char err[256];
    assert_null(sl_converter_new(17, 1, 16000, err, sizeof err));
    assert_non_null(strstr(err, "17 Hz to 16000 Hz"));
    assert_null(sl_converter_new(44100, 2000, 16000, err, sizeof err));
    assert_non_null(strstr(err, "2000 channel"));
    sl_converter *c = sl_converter_new(44100, 2, 16000, err, sizeof err);
    assert_non_null(c);
    float x[10] = {0};
    x[7] = NAN;
    collected out = {0};
    assert_int_equal(sl_converter_push(c, x, 2, collect, &out, err, sizeof err), 0);
    assert_int_equal(sl_converter_push(c, x, 5, collect, &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "NaN"));
    assert_non_null(strstr(err, "sample frame 5 ")); /* 2 frames before, then frame 3 of 5 */
    free(out.x);
    sl_converter_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sine_at_new_rate), cmocka_unit_test(test_push_sizes),
        cmocka_unit_test(test_same_as_file),     cmocka_unit_test(test_delay_bound),
        cmocka_unit_test(test_mean_only),        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_one_channel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
