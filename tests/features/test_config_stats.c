/* Settings validation messages, and normalisation statistics against values
 * computed by hand. */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "seqlabel.h"

static void expect_invalid(const sl_feature_config *cfg, const char *needle)
{
    char err[SL_ERR_LEN] = "";
    assert_int_equal(sl_feature_config_validate(cfg, err, sizeof err), -1);
    printf("  %s\n", err);
    if (!strstr(err, needle))
        fail_msg("message \"%s\" lacks \"%s\"", err, needle);
    assert_null(sl_features_new(cfg, err, sizeof err));
}

static void test_validate(void **state)
{
    (void)state;
    sl_feature_config cfg, d;
    sl_feature_config_default(&d);
    assert_int_equal(sl_feature_config_validate(&d, NULL, 0), 0);
    assert_int_equal(d.dither, 0.0f);
    assert_int_equal(d.input_scale, 32768.0f);

    cfg = d; cfg.sample_rate = 8000; cfg.num_mel_bins = 128; /* 256-point FFT */
    expect_invalid(&cfg, "too many for a 256-point FFT");
    cfg = d; cfg.low_freq = 4000; cfg.high_freq = 3000;
    expect_invalid(&cfg, "must be above low frequency");
    cfg = d; cfg.high_freq = -9000; /* Nyquist - 9000 < 0 */
    expect_invalid(&cfg, "high frequency");
    cfg = d; cfg.high_freq = 9000;
    expect_invalid(&cfg, "high frequency");
    cfg = d; cfg.low_freq = 8000;
    expect_invalid(&cfg, "low frequency");
    cfg = d; cfg.sample_rate = 0;
    expect_invalid(&cfg, "sample rate 0");
    cfg = d; cfg.frame_shift_ms = 0.01f;
    expect_invalid(&cfg, "less than one sample");
    cfg = d; cfg.frame_shift_ms = 1e8f; /* 1.6e9 samples: said as such, not as -1 or < 1 */
    expect_invalid(&cfg, "frame shift 1e+08 ms is more than a billion samples");
    cfg = d; cfg.frame_length_ms = 1e8f;
    expect_invalid(&cfg, "frame length 1e+08 ms is more than 65536 samples");
    cfg = d; cfg.frame_length_ms = NAN;
    expect_invalid(&cfg, "frame length");
    cfg = d; cfg.num_mel_bins = 2;
    expect_invalid(&cfg, "mel bins");
    cfg = d; cfg.num_ceps = 81;
    expect_invalid(&cfg, "cepstra");
    cfg = d; cfg.window = (sl_window_type)9;
    expect_invalid(&cfg, "window");
    cfg = d; cfg.input_scale = 0;
    expect_invalid(&cfg, "input scale");
    cfg = d; cfg.preemph = 1.5f;
    expect_invalid(&cfg, "pre-emphasis");
    /* the switches are 0 or 1 (a model file's 2 or -7 loaded as "on") */
    cfg = d; cfg.remove_dc = 2;
    expect_invalid(&cfg, "remove_dc 2, use_energy 0, raw_energy 1: each is 0 (off) or 1 (on)");
    cfg = d; cfg.use_energy = -7;
    expect_invalid(&cfg, "use_energy -7");
    cfg = d; cfg.raw_energy = 5;
    expect_invalid(&cfg, "raw_energy 5");
    /* Near the limit but valid: 40 bins at 8 kHz (the fixtures use it). */
    cfg = d; cfg.sample_rate = 8000; cfg.num_mel_bins = 40;
    assert_int_equal(sl_feature_config_validate(&cfg, NULL, 0), 0);
}

/* Brute force, straight from Kaldi's definition: does every mel bin have an
 * FFT bin strictly inside its triangle? */
static int all_bins_covered(int rate, int fft, int bins, double low, double high)
{
    double ml = 1127.0 * log(1.0 + low / 700.0), mh = 1127.0 * log(1.0 + high / 700.0);
    double delta = (mh - ml) / (bins + 1);
    for (int m = 0; m < bins; m++) {
        int covered = 0;
        for (int k = 0; k < fft / 2; k++) {
            double mk = 1127.0 * log(1.0 + (double)k * rate / fft / 700.0);
            covered |= mk > ml + m * delta && mk < ml + (m + 2) * delta;
        }
        if (!covered)
            return 0;
    }
    return 1;
}

static void test_mel_bin_limit_matches_brute_force(void **state)
{
    (void)state;
    const int rates[] = {8000, 16000};
    const float lows[] = {20.0f, 300.0f};
    for (int r = 0; r < 2; r++)
        for (int lo = 0; lo < 2; lo++) {
            sl_feature_config cfg;
            sl_feature_config_default(&cfg);
            cfg.sample_rate = rates[r];
            cfg.low_freq = lows[lo];
            int last_valid = 0;
            for (int bins = 3; bins <= 200; bins++) {
                cfg.num_mel_bins = bins;
                int valid = sl_feature_config_validate(&cfg, NULL, 0) == 0;
                assert_int_equal(valid, all_bins_covered(rates[r], sl_feature_fft_size(&cfg), bins, lows[lo],
                                                         rates[r] / 2.0));
                if (valid)
                    last_valid = bins;
            }
            printf("  %d Hz from %g Hz: at most %d mel bins\n", rates[r], (double)lows[lo], last_valid);
            assert_true(last_valid >= 23);
        }
}

static void test_stats_and_normalize(void **state)
{
    (void)state;
    sl_stats s;
    assert_int_equal(sl_stats_init(&s, 3), 0);
    const float frames[3][3] = {{1, 2, 7}, {3, 4, 7}, {5, 9, 7}};
    for (int i = 0; i < 3; i++)
        sl_stats_add(&s, frames[i]);
    float mean[3], inv_std[3];
    sl_stats_finish(&s, mean, inv_std);
    /* dim 0: mean 3, variance (1 + 9 + 25) / 3 - 9 = 8/3; dim 1: mean 5,
     * variance (4 + 16 + 81) / 3 - 25 = 26/3; dim 2 constant. */
    assert_float_equal(mean[0], 3.0, 1e-6);
    assert_float_equal(mean[1], 5.0, 1e-6);
    assert_float_equal(mean[2], 7.0, 1e-6);
    assert_float_equal(inv_std[0], 1.0 / sqrt(8.0 / 3.0), 1e-6);
    assert_float_equal(inv_std[1], 1.0 / sqrt(26.0 / 3.0), 1e-6);
    assert_true(isfinite(inv_std[2]) && inv_std[2] > 0);
    float v[3] = {5, 2, 7};
    sl_normalize(v, mean, inv_std, 3);
    assert_float_equal(v[0], 2.0 / sqrt(8.0 / 3.0), 1e-6);
    assert_float_equal(v[1], -3.0 / sqrt(26.0 / 3.0), 1e-6);
    assert_float_equal(v[2], 0.0, 1e-6);
    sl_stats_free(NULL); /* as free(NULL) */
    sl_stats_free(&s);

    /* Double accumulation: a large offset does not swamp a small variance
     * (float sums of squares would give 0 or negative variance here). */
    assert_int_equal(sl_stats_init(&s, 1), 0);
    for (int i = 0; i < 100000; i++) {
        float x = 1000.0f + (i % 2 ? 0.5f : -0.5f);
        sl_stats_add(&s, &x);
    }
    sl_stats_finish(&s, mean, inv_std);
    assert_float_equal(mean[0], 1000.0, 1e-4);
    assert_float_equal(inv_std[0], 2.0, 1e-3);
    sl_stats_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_mel_bin_limit_matches_brute_force),
        cmocka_unit_test(test_stats_and_normalize),
    };
    return cmocka_run_group_tests_name("features_config_stats", tests, NULL, NULL);
}
