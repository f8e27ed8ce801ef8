/* Streaming: any push sizes give frames bit-identical (memcmp) to one push of
 * the whole signal; short audio gives no frame; NaN/Inf are refused with their
 * absolute position and leave the extractor as it was. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"
#include "features/features_internal.h"

static uint64_t lcg = 12345;
static size_t rand_size(size_t max)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return 1 + (size_t)((lcg >> 33) % max);
}

static void check_config(const sl_feature_config *cfg, const float *x, size_t n)
{
    frame_sink whole, ones, random;
    extract(cfg, x, n, NULL, 0, &whole);
    assert_int_equal(whole.frames, sl_feature_num_frames(cfg, (int64_t)n));
    assert_true(whole.frames > 10);
    size_t one = 1;
    extract(cfg, x, n, &one, 1, &ones);
    size_t sizes[200];
    for (int i = 0; i < 200; i++) /* mostly small, some larger than the internal buffer */
        sizes[i] = i % 17 == 0 ? rand_size(20000) : rand_size(700);
    extract(cfg, x, n, sizes, 200, &random);
    size_t bytes = (size_t)(whole.frames * whole.dim) * sizeof(float);
    assert_int_equal(ones.frames, whole.frames);
    assert_int_equal(random.frames, whole.frames);
    assert_memory_equal(ones.data, whole.data, bytes);
    assert_memory_equal(random.data, whole.data, bytes);
    sink_free(&whole);
    sink_free(&ones);
    sink_free(&random);
}

static void test_push_sizes_bit_identical(void **state)
{
    (void)state;
    size_t n;
    float *x = fx_read_f32("speech16k.f32", &n);
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    check_config(&cfg, x, n);
    cfg.use_energy = 1;
    cfg.num_ceps = 13;
    cfg.num_mel_bins = 23;
    check_config(&cfg, x, n);
    /* Dither on: seeded, drawn per frame in frame order, so still identical. */
    sl_feature_config_default(&cfg);
    cfg.dither = 1.0f;
    cfg.dither_seed = 42;
    check_config(&cfg, x, n);
    /* A hop longer than the window skips samples between frames. */
    sl_feature_config_default(&cfg);
    cfg.frame_shift_ms = 40.0f;
    check_config(&cfg, x, n);
    free(x);
    x = fx_read_f32("speech22k.f32", &n);
    sl_feature_config_default(&cfg);
    cfg.sample_rate = 22050; /* 551-sample window, 220-sample hop */
    check_config(&cfg, x, n);
    free(x);
}

/* With a hop longer than the window, frame i must be the features of samples
 * [i * hop, i * hop + window) alone: checked against fresh extractors. */
static void test_long_hop_frames_are_their_own_windows(void **state)
{
    (void)state;
    size_t n;
    float *x = fx_read_f32("noise16k.f32", &n);
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    cfg.frame_shift_ms = 40.0f; /* 640 samples > 400 */
    frame_sink all;
    extract(&cfg, x, n, NULL, 0, &all);
    assert_int_equal(all.frames, 1 + ((int64_t)n - 400) / 640);
    for (int64_t i = 0; i < all.frames; i++) {
        frame_sink one;
        extract(&cfg, x + i * 640, 400, NULL, 0, &one);
        assert_int_equal(one.frames, 1);
        assert_memory_equal(one.data, all.data + i * all.dim, (size_t)all.dim * sizeof(float));
        sink_free(&one);
    }
    sink_free(&all);
    free(x);
}

/* The buffer holds 64 windows where a hop is longer than the window (the
 * samples between windows are skipped), not 64 hops: a 10 s hop at 384 kHz
 * took 1 GB for 25 ms windows. */
static void test_long_hop_memory(void **state)
{
    (void)state;
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    cfg.sample_rate = 384000;
    cfg.frame_shift_ms = 10000.0f;
    sl_features *f = sl_features_new(&cfg, NULL, 0);
    assert_non_null(f);
    const size_t bytes = sl_features_memory_bytes(f);
    if (bytes > 16u << 20)
        fail_msg("a 10 s hop of 25 ms windows at 384 kHz takes %zu bytes", bytes);
    sl_features_free(f);
}

static void test_frame_counts(void **state)
{
    (void)state;
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    assert_int_equal(sl_feature_frame_length(&cfg), 400);
    assert_int_equal(sl_feature_frame_shift(&cfg), 160);
    assert_int_equal(sl_feature_fft_size(&cfg), 512);
    assert_int_equal(sl_feature_dim(&cfg), 80);
    assert_int_equal(sl_feature_num_frames(&cfg, 0), 0);
    assert_int_equal(sl_feature_num_frames(&cfg, 399), 0);
    assert_int_equal(sl_feature_num_frames(&cfg, 400), 1);
    assert_int_equal(sl_feature_num_frames(&cfg, 559), 1);
    assert_int_equal(sl_feature_num_frames(&cfg, 560), 2);
    assert_int_equal(sl_feature_num_frames(&cfg, 16000), 98);
    /* Kaldi truncates rate * ms / 1000: 551.25 -> 551 and 220.5 -> 220 at 22.05 kHz. */
    const int rates[] = {8000, 16000, 22050, 44100, 48000};
    const int wins[] = {200, 400, 551, 1102, 1200}, hops[] = {80, 160, 220, 441, 480},
              ffts[] = {256, 512, 1024, 2048, 2048};
    for (int i = 0; i < 5; i++) {
        cfg.sample_rate = rates[i];
        assert_int_equal(sl_feature_config_validate(&cfg, NULL, 0), 0);
        assert_int_equal(sl_feature_frame_length(&cfg), wins[i]);
        assert_int_equal(sl_feature_frame_shift(&cfg), hops[i]);
        assert_int_equal(sl_feature_fft_size(&cfg), ffts[i]);
        assert_int_equal(sl_feature_num_frames(&cfg, rates[i]), 1 + (rates[i] - wins[i]) / hops[i]);
    }
    sl_feature_config_default(&cfg);
    cfg.use_energy = 1;
    assert_int_equal(sl_feature_dim(&cfg), 81);
    cfg.num_ceps = 13; /* Kaldi: the energy replaces C0 */
    assert_int_equal(sl_feature_dim(&cfg), 13);

    /* Short audio: no frame and no error, in one push or many. */
    sl_feature_config_default(&cfg);
    float quiet[399] = {0};
    frame_sink s;
    extract(&cfg, quiet, 399, NULL, 0, &s);
    assert_int_equal(s.frames, 0);
    size_t three = 3;
    extract(&cfg, quiet, 399, &three, 1, &s);
    assert_int_equal(s.frames, 0);
    char err[SL_ERR_LEN];
    sl_features *f = sl_features_new(&cfg, err, sizeof err);
    assert_non_null(f);
    assert_int_equal(sl_features_push(f, quiet, 0, sink_frame, &s, err, sizeof err), 0);
    assert_int_equal(sl_features_samples_seen(f), 0);
    sl_features_free(f);
}

/* The largest samples taken give finite features: 1e9 (3e13 at Kaldi's int16
 * scale, far beyond any recording), in a frame of 400 samples all that size. */
static void test_large_samples_finite(void **state)
{
    (void)state;
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    cfg.use_energy = 1;
    float x[1600];
    for (int i = 0; i < 1600; i++)
        x[i] = (i / 3) % 2 ? 1e9f : -1e9f;
    frame_sink got;
    extract(&cfg, x, 1600, NULL, 0, &got);
    assert_true(got.frames > 0);
    for (long i = 0; i < got.frames * got.dim; i++)
        assert_true(isfinite(got.data[i]) && got.data[i] > 10.0f);
    sink_free(&got);
}

static void test_non_finite_refused_with_position(void **state)
{
    (void)state;
    size_t n;
    float *x = fx_read_f32("speech16k.f32", &n);
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    frame_sink ref, got = {0};
    extract(&cfg, x, n, NULL, 0, &ref);

    char err[SL_ERR_LEN] = "";
    sl_features *f = sl_features_new(&cfg, err, sizeof err);
    assert_non_null(f);
    assert_int_equal(sl_features_push(f, x, 1000, sink_frame, &got, err, sizeof err), 0);
    float *bad = malloc(5000 * sizeof *bad);
    memcpy(bad, x + 1000, 5000 * sizeof *bad);
    bad[1234] = NAN;
    assert_int_equal(sl_features_push(f, bad, 5000, sink_frame, &got, err, sizeof err), -1);
    assert_non_null(strstr(err, "NaN"));
    assert_non_null(strstr(err, "sample 2234"));
    printf("  %s\n", err);
    bad[1234] = x[2234];
    bad[4999] = -INFINITY;
    assert_int_equal(sl_features_push(f, bad, 5000, sink_frame, &got, err, sizeof err), -1);
    assert_non_null(strstr(err, "Inf"));
    assert_non_null(strstr(err, "sample 5999"));
    /* a finite sample so large that a frame's power would overflow float (its
     * features would be Inf, or NaN floored to silence): refused too */
    bad[4999] = x[5999];
    bad[100] = -1e12f;
    assert_int_equal(sl_features_push(f, bad, 5000, sink_frame, &got, err, sizeof err), -1);
    assert_non_null(strstr(err, "sample -1e+12 at sample 1100 is beyond"));
    printf("  %s\n", err);
    bad[100] = x[1100];
    /* samples from nowhere: refused, not read */
    assert_int_equal(sl_features_push(f, NULL, 5, sink_frame, &got, err, sizeof err), -1);
    assert_non_null(strstr(err, "5 samples pushed from NULL"));
    assert_int_equal(sl_features_push(f, NULL, 0, sink_frame, &got, err, sizeof err), 0);
    /* The refused chunks were not taken: the rest of the clean signal gives
     * exactly the frames of an uninterrupted run. */
    assert_int_equal(sl_features_samples_seen(f), 1000);
    assert_int_equal(sl_features_push(f, x + 1000, n - 1000, sink_frame, &got, err, sizeof err), 0);
    assert_int_equal(got.frames, ref.frames);
    assert_memory_equal(got.data, ref.data, (size_t)(ref.frames * ref.dim) * sizeof(float));

    /* reset starts over: frame indices from 0 again, same frames. */
    sl_features_reset(f);
    frame_sink again = {0};
    assert_int_equal(sl_features_push(f, x, n, sink_frame, &again, err, sizeof err), 0);
    assert_memory_equal(again.data, ref.data, (size_t)(ref.frames * ref.dim) * sizeof(float));
    sl_features_free(f);
    sink_free(&again);
    sink_free(&got);
    sink_free(&ref);
    free(bad);
    free(x);
}

/* Dither is off by default, and when on it is reproducible: the same seed
 * gives the same frames, another seed other frames. */
static void test_dither_seeded(void **state)
{
    (void)state;
    size_t n;
    float *x = fx_read_f32("silence16k.f32", &n); /* digital zeros: dither is all there is */
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    assert_true(cfg.dither == 0.0f);
    frame_sink plain, a, b, c;
    extract(&cfg, x, n, NULL, 0, &plain);
    cfg.dither = 1.0f;
    cfg.dither_seed = 1;
    extract(&cfg, x, n, NULL, 0, &a);
    size_t sizes[] = {1, 7, 160, 999};
    extract(&cfg, x, n, sizes, 4, &b);
    cfg.dither_seed = 2;
    extract(&cfg, x, n, NULL, 0, &c);
    size_t bytes = (size_t)(plain.frames * plain.dim) * sizeof(float);
    assert_memory_equal(a.data, b.data, bytes);
    assert_memory_not_equal(a.data, c.data, bytes);
    /* Frame 0 is all zeros: without dither every log-mel is log(FLT_EPSILON);
     * with 1 LSB of dither they rise well above it. */
    for (int d = 0; d < plain.dim; d++) {
        assert_float_equal(plain.data[d], -15.942385, 1e-5);
        assert_true(a.data[d] > -10.0f);
    }
    sink_free(&plain);
    sink_free(&a);
    sink_free(&b);
    sink_free(&c);
    free(x);
}

/* The dither's generator as docs/features.md gives it, for another
 * implementation to draw the same noise: splitmix64 from dither_seed *
 * 0x2545F4914F6CDD1D + 1, two draws a sample through Box-Muller's cosine half,
 * added in frame order. Checked through the raw log-energy of digital zeros
 * without DC removal: each frame's is log(sum of its dithered samples'
 * squares), computed here from the documented recipe alone. */
static uint64_t doc_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void test_dither_as_documented(void **state)
{
    (void)state;
    enum { N = 16000, WIN = 400, HOP = 160 };
    float *x = calloc(N, sizeof *x);
    assert_non_null(x);
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    cfg.dither = 2.5f;
    cfg.dither_seed = 7;
    cfg.remove_dc = 0;
    cfg.use_energy = 1;
    cfg.raw_energy = 1;
    frame_sink got;
    extract(&cfg, x, N, NULL, 0, &got);
    assert_int_equal(got.frames, 1 + (N - WIN) / HOP);
    uint64_t st = 7ull * 0x2545F4914F6CDD1Dull + 1;
    for (int64_t t = 0; t < got.frames; t++) {
        double energy = 0.0;
        for (int i = 0; i < WIN; i++) {
            double u1 = ((double)(doc_splitmix(&st) >> 11) + 1.0) / 9007199254740993.0;
            double u2 = (double)(doc_splitmix(&st) >> 11) / 9007199254740992.0;
            float g = (float)(sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2));
            float d = 0.0f + cfg.dither * g;
            energy += (double)d * d;
        }
        assert_float_equal(got.data[t * got.dim], log(energy), 1e-4);
    }
    sink_free(&got);
    free(x);
}

static int stop_after_two(void *user, int64_t index, const float *frame, int dim)
{
    (void)frame;
    (void)dim;
    *(int64_t *)user = index;
    return index == 1 ? 7 : 0;
}

static void test_callback_stops_push(void **state)
{
    (void)state;
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    float *x = calloc(16000, sizeof *x);
    int64_t last = -1;
    sl_features *f = sl_features_new(&cfg, NULL, 0);
    assert_int_equal(sl_features_push(f, x, 16000, stop_after_two, &last, NULL, 0), 7);
    assert_int_equal(last, 1);
    sl_features_free(f);
    free(x);
}

/* Frames to a sink that stops the push once, at frame `stop_at`. */
typedef struct {
    frame_sink sink;
    int64_t stop_at;
} stopping_sink;

static int stop_once(void *user, int64_t index, const float *frame, int dim)
{
    stopping_sink *s = user;
    sink_frame(&s->sink, index, frame, dim);
    if (index != s->stop_at)
        return 0;
    s->stop_at = -1;
    return 7;
}

/* A push stopped after it took its last samples (whole chunks of a file, the
 * callback stopping near the end) leaves whole windows in the buffer: they
 * come out on the next push, one of 0 samples too, so that a caller resuming
 * as the header says (from samples_seen) gets every frame, the same frames.
 * They were lost: 7 of 298 frames when stopped at frame 290 of 3 s. */
static void test_stopped_push_resumes_whole(void **state)
{
    (void)state;
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    const size_t n = 48000; /* 298 frames */
    float *x = malloc(n * sizeof *x);
    uint32_t r = 12345;
    for (size_t i = 0; i < n; i++) {
        r = r * 1664525u + 1013904223u;
        x[i] = (float)((double)r / 4294967296.0 - 0.5);
    }
    frame_sink ref = {0};
    extract(&cfg, x, n, NULL, 0, &ref);
    assert_int_equal(ref.frames, 298);
    static const struct { size_t chunk; int64_t stop_at; } cases[] = {
        {48000, 290}, {1000, 295}, {48000, 100}, {160, 297}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        stopping_sink got = {{0}, cases[c].stop_at};
        sl_features *f = sl_features_new(&cfg, NULL, 0);
        assert_non_null(f);
        size_t at = 0;
        int stops = 0;
        while (at < n) {
            const size_t len = n - at < cases[c].chunk ? n - at : cases[c].chunk;
            const int64_t before = sl_features_samples_seen(f);
            const int rv = sl_features_push(f, x + at, len, stop_once, &got, NULL, 0);
            assert_true(rv == 0 || rv == 7);
            stops += rv == 7;
            at += (size_t)(sl_features_samples_seen(f) - before); /* what it took */
        }
        assert_int_equal(sl_features_push(f, x + n, 0, stop_once, &got, NULL, 0), 0);
        assert_int_equal(stops, 1);
        if (got.sink.frames != ref.frames)
            fail_msg("chunks of %zu, stopped at frame %lld: %lld frames, not %lld", cases[c].chunk,
                     (long long)cases[c].stop_at, (long long)got.sink.frames,
                     (long long)ref.frames);
        assert_memory_equal(got.sink.data, ref.data,
                            (size_t)ref.frames * (size_t)ref.dim * sizeof(float));
        sl_features_free(f);
        sink_free(&got.sink);
    }
    sink_free(&ref);
    free(x);
}

/* Extractors made, used and freed on several threads at once (FFTW's planner
 * is shared and not thread-safe) give the frames of a single-threaded run. */
typedef struct {
    const float *x;
    size_t n;
    const frame_sink *ref;
    int ok;
} thread_job;

/* No cmocka asserts off the main thread: count and copy, check afterwards. */
static int thread_sink(void *user, int64_t index, const float *frame, int dim)
{
    frame_sink *s = user;
    if (index == s->frames && index < s->cap && dim == s->dim)
        memcpy(s->data + index * dim, frame, (size_t)dim * sizeof *frame);
    s->frames++;
    return 0;
}

static void *thread_main(void *arg)
{
    thread_job *job = arg;
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    job->ok = 1;
    for (int rep = 0; rep < 4; rep++) {
        sl_features *f = sl_features_new(&cfg, NULL, 0);
        if (!f) {
            job->ok = 0;
            return NULL;
        }
        const int64_t frames = job->ref->frames, dim = job->ref->dim;
        float *got = malloc((size_t)(frames * dim) * sizeof *got);
        frame_sink s = {got, 0, frames, (int)dim};
        size_t chunk = 37 + 101 * (size_t)rep;
        for (size_t pos = 0; pos < job->n; pos += chunk)
            sl_features_push(f, job->x + pos, job->n - pos < chunk ? job->n - pos : chunk, thread_sink, &s, NULL, 0);
        if (s.frames != frames || memcmp(got, job->ref->data, (size_t)(frames * dim) * sizeof *got) != 0)
            job->ok = 0;
        free(got);
        sl_features_free(f);
    }
    return NULL;
}

static void test_threads_same_frames(void **state)
{
    (void)state;
    size_t n;
    float *x = fx_read_f32("speech16k.f32", &n);
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    frame_sink ref;
    extract(&cfg, x, n, NULL, 0, &ref);
    pthread_t th[4];
    thread_job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (thread_job){x, n, &ref, 0};
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_true(jobs[i].ok);
    }
    sink_free(&ref);
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_sizes_bit_identical),
        cmocka_unit_test(test_long_hop_frames_are_their_own_windows),
        cmocka_unit_test(test_frame_counts),
        cmocka_unit_test(test_non_finite_refused_with_position),
        cmocka_unit_test(test_large_samples_finite),
        cmocka_unit_test(test_dither_seeded),
        cmocka_unit_test(test_dither_as_documented),
        cmocka_unit_test(test_callback_stops_push),
        cmocka_unit_test(test_stopped_push_resumes_whole),
        cmocka_unit_test(test_long_hop_memory),
        cmocka_unit_test(test_threads_same_frames),
    };
    return cmocka_run_group_tests_name("features_streaming", tests, NULL, NULL);
}
