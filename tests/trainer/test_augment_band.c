/* Band-limit augmentation (model/augment_band.c) against an ideal low-pass
 * made here: 16-bit white noise filtered exactly (its DFT zeroed from the
 * cutoff up, in double precision), rounded to the 16-bit grid again, then the
 * plain extractor. The augmented features of the unfiltered noise must come
 * close to those, in the bins below, across and above the cutoff. Compared as
 * each bin's mean over the frames: the cut band holds one draw of rounding
 * noise here and another there, equal in level, not frame by frame. The
 * unaugmented features are far from them above the cutoff, so the check can
 * fail. Also: digital silence stays silent, and the cutoffs run from 3 to
 * 7.5 kHz. */
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

enum { N = 8000, F = 80, L = (N - 400) / 160 + 1 };

/* Features (L x F) of x rounded to the 16-bit grid. */
static void features_of(const sl_feature_config *fc, const double *x, float *out)
{
    char err[SL_ERR_LEN];
    float *q = malloc(N * sizeof *q);
    for (int i = 0; i < N; i++)
        q[i] = (float)(fmin(fmax(nearbyint(x[i] * 32768.0), -32768.0), 32767.0) / 32768.0);
    sl_features *f = sl_features_new(fc, err, sizeof err);
    tt_frames sk = {out, 0};
    assert_int_equal(sl_features_push(f, q, N, tt_collect_frame, &sk, err, sizeof err), 0);
    assert_int_equal(sk.n, L);
    sl_features_free(f);
    free(q);
}

/* x with every DFT bin at or above cutoff_hz (and its mirror) zeroed. */
static void ideal_lowpass(const double *x, double cutoff_hz, double *y)
{
    const int K = (int)ceil(cutoff_hz * N / 16000.0); /* bins 0 .. K-1 pass */
    double *c = malloc(N * sizeof *c), *s = malloc(N * sizeof *s);
    for (int n = 0; n < N; n++) {
        c[n] = cos(2.0 * M_PI * n / N);
        s[n] = sin(2.0 * M_PI * n / N);
        y[n] = 0.0;
    }
    for (int k = 0; k < K; k++) {
        double re = 0.0, im = 0.0;
        for (int n = 0; n < N; n++) {
            int i = (int)((int64_t)k * n % N);
            re += x[n] * c[i];
            im -= x[n] * s[i];
        }
        const double w = (k == 0 ? 1.0 : 2.0) / N;
        for (int n = 0; n < N; n++) {
            int i = (int)((int64_t)k * n % N);
            y[n] += w * (re * c[i] - im * s[i]);
        }
    }
    free(c);
    free(s);
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
        r = r * 1664525u + 1013904223u;
        x[i] = nearbyint(3276.8 * ((double)(r >> 8) / 16777216.0 - 0.5)) / 32768.0; /* -35 dBFS */
    }
    ideal_lowpass(x, cutoff, y);
    float *fx = malloc((size_t)L * F * sizeof *fx), *fy = malloc((size_t)L * F * sizeof *fy);
    float *aug = malloc((size_t)L * F * sizeof *aug), share[F], *below = malloc(256 * sizeof *below);
    features_of(&fc, x, fx);
    features_of(&fc, y, fy);
    memcpy(aug, fx, (size_t)L * F * sizeof *aug);
    sl_band_limiter *b = sl_band_limiter_new(&fc, err, sizeof err);
    assert_non_null(b);
    sl_band_limit(b, aug, L, cutoff, 123, logf(FLT_EPSILON) + 1e-3f);
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
    sl_band_limit(b, x, 3, 3000.0, 0, floor + 1e-3f);
    for (int i = 0; i < 3 * F; i++)
        assert_true(x[i] == floor);
    assert_float_equal(sl_band_limit_cutoff(b, 0.0), 3000.0, 1e-9);
    assert_float_equal(sl_band_limit_cutoff(b, 1.0), 7500.0, 1e-9);
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
        cmocka_unit_test(silence_stays_and_cutoffs_span_the_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
