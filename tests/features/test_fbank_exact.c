/* Features against torchaudio.compliance.kaldi.fbank / .mfcc (Kaldi's
 * algorithm) on committed fixtures: tests/fixtures/features/gen_fbank.py made
 * them from sweeps, noise, clipped audio, near-silence and espeak-ng speech at
 * 8 to 48 kHz with every option set explicitly. */
#include <math.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

#define TOLERANCE 1e-3

static sl_window_type window_of(const char *s)
{
    if (!strcmp(s, "hann"))
        return SL_WINDOW_HANN;
    if (!strcmp(s, "hamming"))
        return SL_WINDOW_HAMMING;
    if (!strcmp(s, "rectangular"))
        return SL_WINDOW_RECTANGULAR;
    assert_string_equal(s, "povey");
    return SL_WINDOW_POVEY;
}

static void test_against_torchaudio(void **state)
{
    (void)state;
    size_t n_bytes;
    /* cases.txt is text; read it through the f32 reader's file helper. */
    float *raw = fx_read_f32("cases.txt", &n_bytes);
    char *text = (char *)raw;
    text[n_bytes * sizeof(float)] = 0; /* n_bytes floats were read; the buffer has one spare */
    double worst = 0.0;
    int cases = 0, failures = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char name[128], sig[64], win[32];
        int rate, mel, energy, raw_energy, remove_dc, ceps;
        long frames, dim;
        float floor_, preemph, low, high, lifter, fms, sms;
        int got = sscanf(line, "%127s %63s %d %d %31s %d %f %d %d %f %f %f %d %f %f %f %ld %ld", name, sig,
                         &rate, &mel, win, &energy, &floor_, &raw_energy, &remove_dc, &preemph, &low, &high,
                         &ceps, &lifter, &fms, &sms, &frames, &dim);
        assert_int_equal(got, 18);
        sl_feature_config cfg;
        sl_feature_config_default(&cfg);
        cfg.sample_rate = rate;
        cfg.num_mel_bins = mel;
        cfg.window = window_of(win);
        cfg.use_energy = energy;
        cfg.energy_floor = floor_;
        cfg.raw_energy = raw_energy;
        cfg.remove_dc = remove_dc;
        cfg.preemph = preemph;
        cfg.low_freq = low;
        cfg.high_freq = high;
        cfg.num_ceps = ceps;
        cfg.cepstral_lifter = lifter;
        cfg.frame_length_ms = fms;
        cfg.frame_shift_ms = sms;

        char file[200];
        size_t n, n_ref;
        snprintf(file, sizeof file, "%s.f32", sig);
        float *x = fx_read_f32(file, &n);
        snprintf(file, sizeof file, "%s.f32", name);
        float *ref = fx_read_f32(file, &n_ref);
        assert_int_equal(n_ref, (size_t)(frames * dim));
        assert_int_equal(sl_feature_dim(&cfg), dim);
        assert_int_equal(sl_feature_num_frames(&cfg, (int64_t)n), frames);

        frame_sink out;
        extract(&cfg, x, n, NULL, 0, &out);
        assert_int_equal(out.frames, frames);
        double max_diff = 0.0;
        long at = 0;
        for (long i = 0; i < frames * dim; i++) {
            double d = fabs((double)out.data[i] - (double)ref[i]);
            if (!(d <= max_diff)) {
                max_diff = d;
                at = i;
            }
        }
        printf("  %-30s %4ld x %-3ld max |diff| %.3g (frame %ld dim %ld: ours %.6f torchaudio %.6f)\n", name,
               frames, dim, max_diff, at / dim, at % dim, (double)out.data[at], (double)ref[at]);
        if (!(max_diff <= TOLERANCE)) {
            printf("  ^ %s exceeds the tolerance %g\n", name, TOLERANCE);
            failures++;
        }
        if (!(max_diff <= worst))
            worst = max_diff;
        cases++;
        sink_free(&out);
        free(x);
        free(ref);
    }
    printf("  %d cases, worst max |diff| %.3g (tolerance %g)\n", cases, worst, TOLERANCE);
    assert_int_equal(failures, 0);
    assert_true(cases >= 20);
    free(raw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_torchaudio),
    };
    return cmocka_run_group_tests_name("features_exact", tests, NULL, NULL);
}
