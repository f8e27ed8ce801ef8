/* Augmentation against independent computations:
 *  - recomputing a window's features from its samples (gain 1, no noise) is
 *    bit-identical to the cached features of the whole file;
 *  - a gain of +6 dB / -9 dB equals the features of the gained samples, rounded
 *    here to the 16-bit grid as every model input is (<= 2e-3). (The trainer's
 *    cheaper gain, 2 ln(gain) added to cached features, also moves the 16-bit
 *    floor, which rounding the gained samples keeps in place: printed, as the
 *    mean difference between the two.)
 *  - noise mixing equals features of a mix made here in double precision at
 *    the requested SNR, rounded to the 16-bit grid (<= 2e-3);
 *  - masks zero exactly the bands and spans that the documented draws give,
 *    never the padding, and always take 8 draws. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/trainer_internal.h"
#include "trainer_test_util.h"

static char dir[512];
static sl_feature_config fc;
static sl_feature_file ff, pcm;

static int setup(void **state)
{
    (void)state;
    tt_mkdtemp(dir, sizeof dir, "augment");
    tt_make_task_file(dir, "x", 3.0, 21);
    sl_feature_config_default(&fc);
    char err[SL_ERR_LEN];
    if (sl_feature_file_load(tt_path(dir, "x.wav"), &fc, NULL, &ff, err, sizeof err) ||
        sl_pcm_file_load(tt_path(dir, "x.wav"), 16000, tt_path(dir, "cache"), &pcm, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sl_feature_file_free(&ff);
    sl_feature_file_free(&pcm);
    tt_rmtree(dir);
    return 0;
}

static void recomputed_window_equals_cache(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    assert_int_equal(pcm.n_samples, 48000);
    sl_augmenter *a = sl_augmenter_new(&fc, 64, err, sizeof err);
    assert_non_null(a);
    float out[64 * 80];
    const int64_t starts[] = {0, 37, 298 - 64};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sl_augment_frames(a, pcm.feats, pcm.n_samples, starts[i], 64, 1.0f, NULL,
                                           0, 0, 0.0f, out, err, sizeof err), 0);
        assert_memory_equal(out, ff.feats + starts[i] * 80, sizeof out);
    }
    /* Past the end: refused, not read. */
    assert_int_equal(sl_augment_frames(a, pcm.feats, pcm.n_samples, 298 - 63, 64, 1.0f, NULL, 0,
                                       0, 0.0f, out, err, sizeof err), -1);
    sl_augmenter_free(a);
}

/* The features of samples made here: rounded to the 16-bit grid (ties to
 * even, clamped), then the plain extractor. Returns the largest difference
 * from `out` over L frames. */
static double worst_vs_hand(const double *x, int64_t S, int L, const float *out)
{
    char err[SL_ERR_LEN];
    float *q = malloc(S * sizeof *q);
    for (int64_t i = 0; i < S; i++)
        q[i] = (float)(fmin(fmax(nearbyint(x[i] * 32768.0), -32768.0), 32767.0) / 32768.0);
    sl_features *f = sl_features_new(&fc, err, sizeof err);
    tt_frames sk = {malloc((size_t)L * 80 * sizeof(float)), 0};
    assert_int_equal(sl_features_push(f, q, (size_t)S, tt_collect_frame, &sk, err, sizeof err), 0);
    assert_int_equal(sk.n, L);
    double worst = 0.0;
    for (int i = 0; i < L * 80; i++)
        worst = fmax(worst, fabs((double)out[i] - sk.buf[i]));
    free(sk.buf);
    free(q);
    sl_features_free(f);
    return worst;
}

static void gain_is_a_shift_of_log_mel(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_augmenter *a = sl_augmenter_new(&fc, 100, err, sizeof err);
    float out[100 * 80];
    const int64_t S = 99 * 160 + 400, s0 = 150 * 160;
    double *x = malloc(S * sizeof *x);
    const double dbs[] = {6.0, -9.0};
    for (int k = 0; k < 2; k++) {
        float g = (float)pow(10.0, dbs[k] / 20.0);
        double shift = 2.0 * log((double)g);
        assert_int_equal(sl_augment_frames(a, pcm.feats, pcm.n_samples, 150, 100, g, NULL, 0, 0,
                                           0.0f, out, err, sizeof err), 0);
        for (int64_t i = 0; i < S; i++)
            x[i] = (double)(g * pcm.feats[s0 + i]); /* the float product, as the augmenter makes it */
        double worst = worst_vs_hand(x, S, 100, out), mean = 0.0;
        for (int i = 0; i < 100 * 80; i++)
            mean += fabs((double)out[i] - ((double)ff.feats[150 * 80 + i] + shift));
        mean /= 100 * 80;
        printf("gain %+.0f dB: worst |features - by hand| = %.2e, "
               "mean |features - (cached + 2 ln g)| = %.2e\n", dbs[k], worst, mean);
        assert_true(worst <= 2e-3);
    }
    free(x);
    sl_augmenter_free(a);
}

static void noise_mixed_at_the_snr(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    const int64_t nn = 5000, start = 40, off = 4321;
    const int L = 50;
    const float snr = 3.0f;
    float *noise = malloc(nn * sizeof *noise);
    uint32_t r = 7;
    for (int64_t i = 0; i < nn; i++) {
        r = r * 1664525u + 1013904223u;
        noise[i] = (float)(r >> 8) / 16777216.0f - 0.5f;
    }
    sl_augmenter *a = sl_augmenter_new(&fc, L, err, sizeof err);
    float *out = malloc((size_t)L * 80 * sizeof *out);
    assert_int_equal(sl_augment_frames(a, pcm.feats, pcm.n_samples, start, L, 0.5f, noise, nn, off,
                                       snr, out, err, sizeof err), 0);
    /* The same mix by hand: noise looped from `off`, scaled in double. */
    const int64_t S = (int64_t)(L - 1) * 160 + 400, s0 = start * 160;
    double px = 0, pn = 0;
    for (int64_t i = 0; i < S; i++) {
        px += (double)pcm.feats[s0 + i] * pcm.feats[s0 + i];
        double v = noise[(off + i) % nn];
        pn += v * v;
    }
    double scale = sqrt(px / pn / pow(10.0, snr / 10.0));
    double *mix = malloc(S * sizeof *mix);
    for (int64_t i = 0; i < S; i++)
        mix[i] = 0.5 * ((double)pcm.feats[s0 + i] + scale * noise[(off + i) % nn]);
    double worst = worst_vs_hand(mix, S, L, out), moved = 0.0;
    for (int i = 0; i < L * 80; i++)
        moved += fabs((double)out[i] - ff.feats[start * 80 + i]);
    printf("noise at %.0f dB SNR: worst difference from the hand mix %.2e, mean change %.3f\n",
           snr, worst, moved / (L * 80));
    assert_true(worst <= 2e-3);
    assert_true(moved / (L * 80) > 0.1); /* the noise did something */
    free(mix);
    free(out);
    free(noise);
    sl_augmenter_free(a);
}

/* The rectangles are recomputed here from a copy of the generator, in the
 * order the header documents; every other value must be untouched. */
static void masks_zero_the_drawn_regions(void **state)
{
    (void)state;
    enum { T = 40, F = 16, FMAX = 5, TMAX = 7 };
    float x[T * F];
    int saw_zero_width = 0, saw_full_width = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        const int L = seed % 3 == 0 ? 25 : T; /* some windows with padding */
        for (int i = 0; i < T * F; i++)
            x[i] = 1.0f + (float)i;
        sl_rng rng, ref;
        sl_rng_seed(&rng, seed);
        ref = rng;
        sl_augment_masks(x, L, F, FMAX, TMAX, &rng);
        unsigned char masked[T][F];
        memset(masked, 0, sizeof masked);
        for (int k = 0; k < 2; k++) {
            int w = (int)sl_rng_below(&ref, FMAX + 1);
            int f0 = (int)sl_rng_below(&ref, (uint64_t)(F - w) + 1);
            saw_zero_width |= w == 0;
            saw_full_width |= w == FMAX;
            for (int t = 0; t < L; t++)
                for (int j = f0; j < f0 + w; j++)
                    masked[t][j] = 1;
        }
        for (int k = 0; k < 2; k++) {
            int w = (int)sl_rng_below(&ref, TMAX + 1);
            int t0 = (int)sl_rng_below(&ref, (uint64_t)(L - w) + 1);
            for (int t = t0; t < t0 + w; t++)
                for (int j = 0; j < F; j++)
                    masked[t][j] = 1;
        }
        for (int t = 0; t < T; t++)
            for (int j = 0; j < F; j++)
                assert_true(x[t * F + j] == (masked[t][j] ? 0.0f : 1.0f + (float)(t * F + j)));
        assert_memory_equal(&rng, &ref, sizeof rng); /* exactly 8 draws */
    }
    assert_true(saw_zero_width && saw_full_width);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recomputed_window_equals_cache),
        cmocka_unit_test(gain_is_a_shift_of_log_mel),
        cmocka_unit_test(noise_mixed_at_the_snr),
        cmocka_unit_test(masks_zero_the_drawn_regions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
