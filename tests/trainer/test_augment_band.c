/* Band-limit augmentation (model/augment_band.c) against an ideal low-pass
 * made here: 16-bit white noise filtered exactly (its DFT zeroed from the
 * cutoff up, in double precision), rounded to the 16-bit grid again, then the
 * plain extractor. The augmented features of the unfiltered noise must come
 * close to those, in the bins below, across and above the cutoff. Compared as
 * each bin's mean over the frames: the cut band holds one draw of rounding
 * noise here and another there, equal in level, not frame by frame. The
 * unaugmented features are far from them above the cutoff, so the check can
 * fail. The 8-bit floor likewise against noise rounded to the 8-bit grid, at
 * its own rate and low-passed (rounded to 8 bits, low-passed again, then to 16
 * bits, as an 11.025 kHz 8-bit file reaches the labeler). The bass and
 * treble shelves against the same noise filtered by them in the DFT domain.
 * Also: digital silence stays silent, and the cutoffs and shelves span their
 * ranges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features/features_internal.h"
#include "model/trainer_internal.h"
#include "trainer_test_util.h"

enum { N = 8000, F = 80, L = (N - 400) / 160 + 1, N8 = 4 * N, L8 = (N8 - 400) / 160 + 1 };

/* A uniform value in [-0.5, 0.5) from a linear congruential generator. */
static double centred_uniform(uint32_t *r)
{
    *r = *r * 1664525u + 1013904223u;
    return (double)(*r >> 8) / 16777216.0 - 0.5;
}

/* x (n samples) rounded to a grid of 2^(bits - 1) steps per unit, clipped. */
static void round_to(const double *x, int n, int bits, double *y)
{
    const double s = ldexp(1.0, bits - 1);
    for (int i = 0; i < n; i++)
        y[i] = fmin(fmax(nearbyint(x[i] * s), -s), s - 1.0) / s;
}

/* Features ((n - 400) / 160 + 1 x F) of x (n samples) rounded to the 16-bit grid. */
static void features_of(const sl_feature_config *fc, const double *x, int n, float *out)
{
    char err[SL_ERR_LEN];
    float *q = malloc((size_t)n * sizeof *q);
    double *r = malloc((size_t)n * sizeof *r);
    round_to(x, n, 16, r);
    for (int i = 0; i < n; i++)
        q[i] = (float)r[i];
    free(r);
    sl_features *f = sl_features_new(fc, err, sizeof err);
    tt_frames sk = {out, 0};
    assert_int_equal(sl_features_push(f, q, (size_t)n, tt_collect_frame, &sk, err, sizeof err), 0);
    assert_int_equal(sk.n, (n - 400) / 160 + 1);
    sl_features_free(f);
    free(q);
}

/* x (len samples at 16 kHz) filtered in the DFT domain: bin k's amplitude times
 * sqrt(power(f_k)), zero phase; bins at or above stop_hz are left out (zero). */
static void dft_filter(const double *x, int len, double (*power)(double f, const void *ctx),
                       const void *ctx, double stop_hz, double *y)
{
    const int K = (int)fmin(ceil(stop_hz * len / 16000.0), len / 2 + 1); /* bins 0 .. K-1 */
    double *c = malloc(len * sizeof *c), *s = malloc(len * sizeof *s);
    for (int n = 0; n < len; n++) {
        c[n] = cos(2.0 * M_PI * n / len);
        s[n] = sin(2.0 * M_PI * n / len);
        y[n] = 0.0;
    }
    for (int k = 0; k < K; k++) {
        double re = 0.0, im = 0.0;
        for (int n = 0; n < len; n++) {
            int i = (int)((int64_t)k * n % len);
            re += x[n] * c[i];
            im -= x[n] * s[i];
        }
        const double a = power ? sqrt(power(k * 16000.0 / len, ctx)) : 1.0;
        const double w = a * (k == 0 || 2 * k == len ? 1.0 : 2.0) / len;
        for (int n = 0; n < len; n++) {
            int i = (int)((int64_t)k * n % len);
            y[n] += w * (re * c[i] - im * s[i]);
        }
    }
    free(c);
    free(s);
}

/* x with every DFT bin at or above cutoff_hz (and its mirror) zeroed. */
static void ideal_lowpass(const double *x, int len, double cutoff_hz, double *y)
{
    dft_filter(x, len, NULL, NULL, cutoff_hz, y);
}

static void matches_an_ideal_lowpass(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const double cutoff = 4500.0;
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    uint32_t r = 11;
    for (int i = 0; i < N; i++) {
        x[i] = nearbyint(3276.8 * centred_uniform(&r)) / 32768.0; /* -35 dBFS */
    }
    ideal_lowpass(x, N, cutoff, y);
    float *fx = malloc((size_t)L * F * sizeof *fx), *fy = malloc((size_t)L * F * sizeof *fy);
    float *aug = malloc((size_t)L * F * sizeof *aug), share[F], *below = malloc(256 * sizeof *below);
    features_of(&fc, x, N, fx);
    features_of(&fc, y, N, fy);
    memcpy(aug, fx, (size_t)L * F * sizeof *aug);
    sl_band_limiter *b = sl_band_limiter_new(&fc, err, sizeof err);
    assert_non_null(b);
    sl_band_limit(b, aug, L, &(sl_band_channel){.cutoff_hz = cutoff, .floor_off = 123},
                  logf(FLT_EPSILON) + 1e-3f);
    for (int k = 0; k < 256; k++) /* FFT bins of 31.25 Hz */
        below[k] = k * 31.25 < cutoff;
    sl_mel_weighted_mean(&fc, below, share); /* each filter's part below the cutoff */
    double worst[3] = {0}, before = 1e9; /* below, across, above the cutoff */
    int seen[3] = {0};
    for (int j = 0; j < F; j++) {
        double ma = 0.0, my = 0.0, mx = 0.0;
        for (int t = 0; t < L; t++) {
            ma += aug[t * F + j];
            my += fy[t * F + j];
            mx += fx[t * F + j];
        }
        ma /= L, my /= L, mx /= L;
        const int g = share[j] >= 1.0f ? 0 : share[j] > 0.0f ? 1 : 2;
        seen[g]++;
        worst[g] = fmax(worst[g], fabs(ma - my));
        if (g == 2)
            before = fmin(before, mx - my);
    }
    printf("bins below / across / above %.0f Hz: %d / %d / %d; worst |mean augmented - mean "
           "filtered| %.3f / %.3f / %.3f; unaugmented above: at least %.1f over\n",
           cutoff, seen[0], seen[1], seen[2], worst[0], worst[1], worst[2], before);
    assert_true(seen[0] > 10 && seen[1] >= 1 && seen[2] > 10);
    /* Below: both hold the same noise, less what the window's leakage
     * from the cut band brought; across: a flat spectrum's share. */
    assert_true(worst[0] < 0.05);
    assert_true(worst[1] < 0.15);
    /* Above: two draws of the 16-bit floor, whose means over 48 frames differ
     * by up to a quarter (the first bin above also holds the window's leakage). */
    assert_true(worst[2] < 0.35);
    assert_true(before > 5.0);    /* what it was before: e^5, 22 dB, above */
    sl_band_limiter_free(b);
    free(x);
    free(y);
    free(fx);
    free(fy);
    free(aug);
    free(below);
}

/* The worst |mean of a - mean of b| over the bins, each bin's mean taken over
 * the frames (frames x F each). */
static double worst_mean_gap(int frames, const float *a, const float *b)
{
    double worst = 0.0;
    for (int j = 0; j < F; j++) {
        double d = 0.0;
        for (int t = 0; t < frames; t++)
            d += a[t * F + j] - b[t * F + j];
        worst = fmax(worst, fabs(d) / frames);
    }
    return worst;
}

static void matches_8bit_rounding(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const double cutoff = 5000.0;
    double *x = malloc(N8 * sizeof *x), *q = malloc(N8 * sizeof *q), *y = malloc(N8 * sizeof *y);
    uint32_t r = 5;
    /* Noise below 1 kHz of about 10 8-bit steps rms, loud enough that the
     * rounding error is white (the model's premise; a signal of a step or two
     * is distorted instead), and white noise 13 dB below the 8-bit floor, so
     * that the bins above 1 kHz show the floor. */
    for (int i = 0; i < N8; i++) {
        q[i] = 0.76 * centred_uniform(&r);
    }
    ideal_lowpass(q, N8, 1000.0, x);
    for (int i = 0; i < N8; i++) {
        x[i] += 0.0017 * centred_uniform(&r);
    }
    float *fx = malloc((size_t)L8 * F * sizeof *fx), *fq = malloc((size_t)L8 * F * sizeof *fq);
    float *aug = malloc((size_t)L8 * F * sizeof *aug), *aug16 = malloc((size_t)L8 * F * sizeof *aug16);
    sl_band_limiter *b = sl_band_limiter_new(&fc, err, sizeof err);
    assert_non_null(b);
    const float floor = logf(FLT_EPSILON) + 1e-3f;

    /* At its own rate: rounded to 8 bits, nothing else. */
    features_of(&fc, x, N8, fx);
    round_to(x, N8, 8, q);
    features_of(&fc, q, N8, fq);
    memcpy(aug, fx, (size_t)L8 * F * sizeof *aug);
    sl_band_limit(b, aug, L8, &(sl_band_channel){.bits8 = 1, .floor_off = 77}, floor);
    double worst = worst_mean_gap(L8, aug, fq), before = worst_mean_gap(L8, fx, fq);
    printf("8-bit at its own rate: worst |mean augmented - mean rounded| %.3f (unaugmented: %.2f)\n",
           worst, before);
    /* Two draws of the floor: their means over 198 frames still differ by up
     * to a fifth in the narrow bins (by a third over 48 frames). */
    assert_true(worst < 0.25);
    assert_true(before > 2.0); /* the check can fail */

    /* Low-passed, as an 11.025 kHz file: the 8-bit rounding noise below the
     * cutoff only, 16-bit rounding above it. */
    ideal_lowpass(x, N8, cutoff, y);
    features_of(&fc, y, N8, fx);
    round_to(y, N8, 8, q);
    ideal_lowpass(q, N8, cutoff, y);
    features_of(&fc, y, N8, fq);
    memcpy(aug, fx, (size_t)L8 * F * sizeof *aug);
    memcpy(aug16, fx, (size_t)L8 * F * sizeof *aug16);
    sl_band_limit(b, aug, L8, &(sl_band_channel){.cutoff_hz = cutoff, .bits8 = 1, .floor_off = 77},
                  floor);
    sl_band_limit(b, aug16, L8, &(sl_band_channel){.cutoff_hz = cutoff, .floor_off = 77}, floor);
    worst = worst_mean_gap(L8, aug, fq);
    const double worst16 = worst_mean_gap(L8, aug16, fq);
    printf("8-bit low-passed at %.0f Hz: worst %.3f (floored as 16-bit audio: %.2f)\n", cutoff,
           worst, worst16);
    assert_true(worst < 0.25);
    assert_true(worst16 > 2.0);
    sl_band_limiter_free(b);
    free(x);
    free(q);
    free(y);
    free(fx);
    free(fq);
    free(aug);
    free(aug16);
}

/* The shelves' power gain, for dft_filter. */
static double channel_power(double f, const void *ch)
{
    return sl_band_eq_power(ch, f);
}

static void matches_shelves_applied_to_the_samples(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    /* A first-order shelf by hand: half its gain in dB at the corner, where
     * |H|^2 = (g + 1) / 2; the full gain far from it. */
    const sl_band_channel one = {.bass_db = 10.0, .bass_hz = 200.0, .treble_hz = 3000.0};
    assert_float_equal(sl_band_eq_power(&one, 200.0), (10.0 + 1.0) / 2.0 * (1.0 + 200.0 * 200.0 /
                       (3000.0 * 3000.0)) / (1.0 + 200.0 * 200.0 / (3000.0 * 3000.0)), 1e-9);
    assert_float_equal(sl_band_eq_power(&one, 0.0), 10.0, 1e-9);
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    uint32_t r = 23;
    for (int i = 0; i < N; i++) {
        x[i] = nearbyint(3276.8 * centred_uniform(&r)) / 32768.0; /* -35 dBFS */
    }
    float *fx = malloc((size_t)L * F * sizeof *fx), *fy = malloc((size_t)L * F * sizeof *fy);
    float *aug = malloc((size_t)L * F * sizeof *aug);
    sl_band_limiter *b = sl_band_limiter_new(&fc, err, sizeof err);
    assert_non_null(b);
    features_of(&fc, x, N, fx);
    const sl_band_channel chs[2] = {
        {.bass_db = 10.0, .bass_hz = 150.0, .treble_db = -10.0, .treble_hz = 2500.0, .floor_off = 5},
        {.bass_db = -10.0, .bass_hz = 450.0, .treble_db = 10.0, .treble_hz = 5500.0, .floor_off = 9},
    };
    for (int c = 0; c < 2; c++) {
        dft_filter(x, N, channel_power, &chs[c], 8000.0, y);
        features_of(&fc, y, N, fy);
        memcpy(aug, fx, (size_t)L * F * sizeof *aug);
        sl_band_limit(b, aug, L, &chs[c], logf(FLT_EPSILON) + 1e-3f);
        /* In the first 8 bins (centres up to 214 Hz) the filters span a few FFT bins, over
         * which the bass shelf's curve bends and the window leaks the rest of
         * the spectrum in: looser there. */
        double mean[2] = {0}, worst[2] = {0};
        for (int j = 0; j < F; j++) {
            double d = 0.0;
            for (int t = 0; t < L; t++) {
                d += aug[t * F + j] - fy[t * F + j];
                worst[j >= 8] = fmax(worst[j >= 8], fabs(aug[t * F + j] - fy[t * F + j]));
            }
            mean[j >= 8] = fmax(mean[j >= 8], fabs(d) / L);
        }
        const double before = worst_mean_gap(L, fx, fy);
        printf("shelves %+.0f dB at %.0f Hz, %+.0f dB at %.0f Hz: worst |mean augmented - mean "
               "filtered| %.3f in the first 8 bins, %.3f above; worst value %.2f, %.2f (unaugmented: "
               "%.2f)\n", chs[c].bass_db, chs[c].bass_hz, chs[c].treble_db, chs[c].treble_hz,
               mean[0], mean[1], worst[0], worst[1], before);
        /* The same noise on both sides: close bin by bin, and frame by frame
         * above them, where the colour itself moved the bins by up to 10 dB (2.3). */
        assert_true(mean[0] < 0.15);
        assert_true(mean[1] < 0.03);
        assert_true(worst[1] < 0.5);
        assert_true(before > 1.5);
    }
    sl_band_limiter_free(b);
    free(x);
    free(y);
    free(fx);
    free(fy);
    free(aug);
}

static void silence_stays_and_cutoffs_span_the_range(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    sl_band_limiter *b = sl_band_limiter_new(&fc, err, sizeof err);
    assert_non_null(b);
    const float floor = logf(FLT_EPSILON);
    float x[3 * F];
    for (int i = 0; i < 3 * F; i++)
        x[i] = floor;
    sl_band_limit(b, x, 3, &(sl_band_channel){.cutoff_hz = 3000.0}, floor + 1e-3f);
    for (int i = 0; i < 3 * F; i++)
        assert_true(x[i] == floor);
    sl_band_limit(b, x, 3, &(sl_band_channel){.cutoff_hz = 3000.0, .bits8 = 1}, floor + 1e-3f);
    sl_band_limit(b, x, 3, &(sl_band_channel){.bits8 = 1}, floor + 1e-3f);
    sl_band_limit(b, x, 3, &(sl_band_channel){.bass_db = 9, .bass_hz = 200, .treble_hz = 3000},
                  floor + 1e-3f);
    for (int i = 0; i < 3 * F; i++)
        assert_true(x[i] == floor);
    assert_float_equal(sl_band_limit_cutoff(b, 0.0), 3000.0, 1e-9);
    assert_float_equal(sl_band_limit_cutoff(b, 1.0), 7500.0, 1e-9);
    /* The shelves' ranges: gains -9..9 dB, corners 100-500 Hz and 1.5-6 kHz. */
    sl_band_channel lo, hi;
    sl_band_eq_draw(b, 9.0, (double[4]){0, 0, 0, 0}, &lo);
    sl_band_eq_draw(b, 9.0, (double[4]){1, 1, 1, 1}, &hi);
    assert_float_equal(lo.bass_db, -9.0, 1e-12);
    assert_float_equal(hi.treble_db, 9.0, 1e-12);
    assert_float_equal(lo.bass_hz, 100.0, 1e-9);
    assert_float_equal(hi.bass_hz, 500.0, 1e-9);
    assert_float_equal(lo.treble_hz, 1500.0, 1e-9);
    assert_float_equal(hi.treble_hz, 6000.0, 1e-9);
    sl_band_limiter_free(b);
    /* MFCCs are not log-mel energies: refused, with why. */
    fc.num_ceps = 13;
    assert_null(sl_band_limiter_new(&fc, err, sizeof err));
    assert_non_null(strstr(err, "log-mel"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_an_ideal_lowpass),
        cmocka_unit_test(matches_8bit_rounding),
        cmocka_unit_test(matches_shelves_applied_to_the_samples),
        cmocka_unit_test(silence_stays_and_cutoffs_span_the_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
