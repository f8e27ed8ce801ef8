/* Feature settings: defaults (Kaldi's, except dither off and int16 input
 * scaling of float PCM), validation with messages a user can act on, and the
 * sizes derived from them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "features/features_internal.h"

void sl_feature_config_default(sl_feature_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->sample_rate = 16000;
    cfg->frame_length_ms = 25.0f;
    cfg->frame_shift_ms = 10.0f;
    cfg->num_mel_bins = 80;
    cfg->low_freq = 20.0f;
    cfg->high_freq = 0.0f;
    cfg->window = SL_WINDOW_POVEY;
    cfg->preemph = 0.97f;
    cfg->remove_dc = 1;
    cfg->energy_floor = 0.0f;
    cfg->raw_energy = 1;
    cfg->cepstral_lifter = 22.0f;
    cfg->input_scale = 32768.0f;
}

/* Kaldi: static_cast<int32>(samp_freq * 0.001 * ms), truncation included, so
 * 22050 Hz with 25 ms gives 551 samples. */
static int ms_to_samples(int rate, float ms)
{
    double v = (double)rate * 0.001 * (double)ms;
    if (!(v >= 0.0) || v > 1e9)
        return -1;
    return (int)v;
}

int sl_feature_frame_length(const sl_feature_config *cfg)
{
    return ms_to_samples(cfg->sample_rate, cfg->frame_length_ms);
}

int sl_feature_frame_shift(const sl_feature_config *cfg)
{
    return ms_to_samples(cfg->sample_rate, cfg->frame_shift_ms);
}

int sl_feature_fft_size(const sl_feature_config *cfg)
{
    int w = sl_feature_frame_length(cfg), n = 1;
    while (n < w)
        n <<= 1;
    return n;
}

int sl_feature_dim(const sl_feature_config *cfg)
{
    /* Kaldi's MFCC puts the log-energy in place of C0, so it adds no dimension. */
    if (cfg->num_ceps > 0)
        return cfg->num_ceps;
    return cfg->num_mel_bins + (cfg->use_energy ? 1 : 0);
}

int64_t sl_feature_num_frames(const sl_feature_config *cfg, int64_t n_samples)
{
    int w = sl_feature_frame_length(cfg), s = sl_feature_frame_shift(cfg);
    if (w <= 0 || s <= 0 || n_samples < w)
        return 0;
    return 1 + (n_samples - w) / s;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        int n = snprintf(err, errlen, "feature settings: ");
        if (n >= 0 && (size_t)n < errlen)
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

#define SL_MAX_WINDOW_SAMPLES 65536

int sl_feature_config_validate(const sl_feature_config *cfg, char *err, size_t errlen)
{
    if (!cfg)
        return fail(err, errlen, "no settings given");
    if (cfg->sample_rate < SL_MIN_SAMPLE_RATE || cfg->sample_rate > SL_MAX_SAMPLE_RATE)
        return fail(err, errlen, "sample rate %d Hz is outside %d..%d", cfg->sample_rate,
                    SL_MIN_SAMPLE_RATE, SL_MAX_SAMPLE_RATE);
    if (!isfinite(cfg->frame_length_ms) || cfg->frame_length_ms <= 0.0f)
        return fail(err, errlen, "frame length %g ms must be positive", (double)cfg->frame_length_ms);
    if (!isfinite(cfg->frame_shift_ms) || cfg->frame_shift_ms <= 0.0f)
        return fail(err, errlen, "frame shift %g ms must be positive", (double)cfg->frame_shift_ms);
    int w = sl_feature_frame_length(cfg), s = sl_feature_frame_shift(cfg);
    /* (a length past a billion samples counts as -1: said as "more than") */
    if (w < 2 || w > SL_MAX_WINDOW_SAMPLES)
        return fail(err, errlen, "frame length %g ms is %s%d samples at %d Hz; it must be 2..%d "
                    "samples", (double)cfg->frame_length_ms, w < 0 ? "more than " : "",
                    w < 0 ? SL_MAX_WINDOW_SAMPLES : w, cfg->sample_rate, SL_MAX_WINDOW_SAMPLES);
    if (s < 0)
        return fail(err, errlen, "frame shift %g ms is more than a billion samples at %d Hz",
                    (double)cfg->frame_shift_ms, cfg->sample_rate);
    if (s < 1)
        return fail(err, errlen, "frame shift %g ms is less than one sample at %d Hz",
                    (double)cfg->frame_shift_ms, cfg->sample_rate);
    if (cfg->num_mel_bins < SL_MIN_MEL_BINS || cfg->num_mel_bins > SL_MAX_MEL_BINS)
        return fail(err, errlen, "%d mel bins; it must be %d..%d", cfg->num_mel_bins,
                    SL_MIN_MEL_BINS, SL_MAX_MEL_BINS);
    if ((unsigned)cfg->window > SL_WINDOW_RECTANGULAR)
        return fail(err, errlen, "unknown window type %d", (int)cfg->window);
    double nyquist = 0.5 * cfg->sample_rate, high = sl_feature_high_freq(cfg);
    if (!isfinite(cfg->low_freq) || cfg->low_freq < 0.0f || cfg->low_freq >= nyquist)
        return fail(err, errlen, "low frequency %g Hz must be in [0, Nyquist %g Hz)",
                    (double)cfg->low_freq, nyquist);
    if (!isfinite(cfg->high_freq) || high <= 0.0 || high > nyquist)
        return fail(err, errlen, "high frequency %g Hz (%g Hz after the offset from Nyquist) must be in (0, %g]",
                    (double)cfg->high_freq, high, nyquist);
    if (high <= cfg->low_freq)
        return fail(err, errlen, "high frequency %g Hz must be above low frequency %g Hz",
                    high, (double)cfg->low_freq);
    if (!isfinite(cfg->preemph) || cfg->preemph < 0.0f || cfg->preemph > 1.0f)
        return fail(err, errlen, "pre-emphasis %g must be in [0, 1]", (double)cfg->preemph);
    if (!isfinite(cfg->dither) || cfg->dither < 0.0f)
        return fail(err, errlen, "dither %g must be >= 0", (double)cfg->dither);
    if (!isfinite(cfg->energy_floor) || cfg->energy_floor < 0.0f)
        return fail(err, errlen, "energy floor %g must be >= 0", (double)cfg->energy_floor);
    if (cfg->num_ceps < 0 || cfg->num_ceps > cfg->num_mel_bins)
        return fail(err, errlen, "%d cepstra with %d mel bins; it must be 0..%d",
                    cfg->num_ceps, cfg->num_mel_bins, cfg->num_mel_bins);
    if (!isfinite(cfg->cepstral_lifter) || cfg->cepstral_lifter < 0.0f)
        return fail(err, errlen, "cepstral lifter %g must be >= 0", (double)cfg->cepstral_lifter);
    if (!isfinite(cfg->input_scale) || cfg->input_scale <= 0.0f)
        return fail(err, errlen, "input scale %g must be positive", (double)cfg->input_scale);
    /* switches: 0 or 1, as the model's own are (a model file's 2 or -7 would
     * be "on" here and something else to another reader of the format) */
    if ((unsigned)cfg->remove_dc > 1 || (unsigned)cfg->use_energy > 1 ||
        (unsigned)cfg->raw_energy > 1)
        return fail(err, errlen, "remove_dc %d, use_energy %d, raw_energy %d: each is 0 (off) or "
                    "1 (on)", cfg->remove_dc, cfg->use_energy, cfg->raw_energy);
    /* Kaldi refuses a mel bin that covers no FFT bin ("--num-mel-bins too large"). */
    int fft = sl_feature_fft_size(cfg), m = sl_mel_first_empty_bin(cfg, fft);
    if (m >= 0)
        return fail(err, errlen,
                        "%d mel bins are too many for a %d-point FFT (%d-sample window at %d Hz, %g..%g Hz): "
                        "mel bin %d covers no FFT bin; use fewer mel bins, a longer window or a wider range",
                        cfg->num_mel_bins, fft, w, cfg->sample_rate, (double)cfg->low_freq, high, m);
    return 0;
}
