/* Band-limit augmentation on cached log-mel features: a training window as if
 * its audio had passed an ideal low-pass filter and been rounded to 16 bits
 * again, which is how a band-limited recording (an 11.025 kHz game sound, a
 * codec, a narrow microphone) reaches the labeler after resampling.
 *
 * Mel bin m keeps share[m] of its energy and gains the energy of the new
 * rounding's noise, which is all the cut band is left with:
 *     x' = log(share * e^x + e^n)
 * n is a frame of the extractor's own features of rounding noise, so the floor
 * fluctuates as a real one does. share[m] is what the analysis window lets a
 * flat spectrum low-passed at the cutoff put into each FFT bin (its power
 * response |W|^2 integrated over the pass band: the window leaks the pass band
 * into the first few hundred hertz above the cutoff), averaged under the mel
 * filter (sl_mel_weighted_mean); a flat spectrum within a filter and
 * around the cutoff is assumed. Digital silence (floored values) stays
 * silent: zeros filtered and rounded are zeros.
 *
 * The same floor, 256^2 times stronger, is an 8-bit file's (old game sounds
 * were stored as 8-bit WAV): its rounding noise lies under the audio at a
 * fixed level, 48 dB below full scale, whatever the audio's own level. Such a
 * file low-passed (an 11.025 kHz one) holds that noise only below its cutoff,
 * and the 16-bit rounding after resampling above it:
 *     x' = log(share * (e^x + 256^2 e^n) + e^n2)
 * with n2 another frame of the floor; at its own rate, x' = log(e^x + 256^2 e^n).
 * Rounding noise is white while the audio spans several steps; a signal of a
 * step or two is distorted rather than noisy, which this does not model.
 *
 * A recording channel's colour (a microphone, a small loudspeaker, a tone
 * control) is a smooth gain curve |H(f)|^2 over the spectrum: a bass and a
 * treble shelf, first-order. Under a smooth curve each mel bin's energy is
 * scaled by the curve averaged under its filter, eq[m], applied to the audio
 * before any 8-bit floor (the channel came before the storage):
 *     x' = log(share * (eq * e^x + q e^n) + e^m)
 * and, as for the low-pass, the result is rounded to 16 bits again. */
#include <math.h>
#include <stdlib.h>

#include "common/errors.h"
#include "features/features_internal.h"
#include "model/model_internal.h"
#include "model/trainer_internal.h"

enum {
    FLOOR_FRAMES = 1000, /* 10 s of noise at a 10 ms hop */
    GRID = 4096          /* steps of the window's power response from 0 to Nyquist */
};

/* An 8-bit step is 256 16-bit steps: its rounding noise has 256^2 times the power. */
static const float STEP8_POWER = 65536.0f;

struct sl_band_limiter {
    sl_feature_config fc;
    int dim;
    double lo_hz, hi_hz, rate;
    int half;     /* FFT bins 0 .. half - 1 */
    double *cum;  /* GRID + 1: integral of |W(f)|^2 from 0 to i * rate / 2 / GRID */
    float *floor; /* FLOOR_FRAMES x dim */
    float *pass;  /* half: share of each FFT bin's power let through */
    float *share; /* dim */
    float *eq;    /* dim: the shelves' power gain under each mel filter */
};

/* cum[] from the window's power response |W(f)|^2 = |sum_n w[n] e^(-2 pi i f n / rate)|^2
 * (symmetric in f), by the trapezoid rule. */
static int fill_window_response(sl_band_limiter *b, const sl_feature_config *fc)
{
    const int n = sl_feature_frame_length(fc);
    float *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL; /* (-1: settings no frame fits) */
    if (!w)
        return -1;
    sl_window_fill(w, n, fc->window);
    double prev = 0.0;
    b->cum[0] = 0.0;
    for (int i = 0; i <= GRID; i++) {
        const double omega = M_PI * i / GRID; /* radians per sample: 0 .. pi */
        double re = 0.0, im = 0.0;
        for (int k = 0; k < n; k++) {
            re += w[k] * cos(omega * k);
            im -= w[k] * sin(omega * k);
        }
        const double p = re * re + im * im;
        if (i > 0)
            b->cum[i] = b->cum[i - 1] + 0.5 * (prev + p);
        prev = p;
    }
    free(w);
    return 0;
}

/* Integral of |W|^2 from 0 to f, for any f (periodic in the rate, odd in f). */
static double response_integral(const sl_band_limiter *b, double f)
{
    const double q = floor(f / b->rate + 0.5);
    const double d = f - q * b->rate, x = fabs(d) / (0.5 * b->rate) * GRID;
    const int i = x >= GRID ? GRID - 1 : (int)x;
    const double part = b->cum[i] + (x - i) * (b->cum[i + 1] - b->cum[i]);
    return (d < 0 ? -part : part) + q * 2.0 * b->cum[GRID];
}

sl_band_limiter *sl_band_limiter_new(const sl_feature_config *fc, char *err, size_t errlen)
{
    if (fc->num_ceps != 0 || fc->use_energy || fc->dither != 0.0f) {
        sl_fail(err, errlen, "band-limit, 8-bit and EQ augmentation need log-mel features without "
                             "energy or dither (they are applied to cached features; docs/training.md)");
        return NULL;
    }
    sl_band_limiter *b = calloc(1, sizeof *b);
    const int hop = sl_feature_frame_shift(fc), win = sl_feature_frame_length(fc);
    const size_t S = (size_t)(FLOOR_FRAMES - 1) * hop + (size_t)win;
    float *noise = malloc(S * sizeof *noise);
    sl_features *fx = NULL;
    if (!b || !noise) {
        sl_fail(err, errlen, "out of memory");
        goto fail;
    }
    b->fc = *fc;
    b->dim = sl_feature_dim(fc);
    /* Cutoffs from 3 to 7.5 kHz at 16 kHz: telephone band to nearly full band. */
    const double hf = sl_feature_high_freq(fc);
    b->lo_hz = 0.375 * hf;
    b->hi_hz = 0.9375 * hf;
    b->rate = fc->sample_rate;
    b->half = sl_feature_fft_size(fc) / 2;
    b->cum = malloc((GRID + 1) * sizeof *b->cum);
    b->floor = malloc((size_t)FLOOR_FRAMES * b->dim * sizeof *b->floor);
    b->pass = malloc((size_t)b->half * sizeof *b->pass);
    b->share = malloc((size_t)b->dim * sizeof *b->share);
    b->eq = malloc((size_t)b->dim * sizeof *b->eq);
    if (!b->cum || !b->floor || !b->pass || !b->share || !b->eq || fill_window_response(b, fc)) {
        sl_fail(err, errlen, "out of memory");
        goto fail;
    }
    /* Rounding to 16 bits leaves an error uniform in half a step either way. */
    sl_rng rng;
    sl_rng_seed(&rng, 16);
    for (size_t i = 0; i < S; i++)
        noise[i] = (float)((sl_rng_uniform(&rng) - 0.5) / 32768.0);
    sl_frame_sink sink = {b->floor, FLOOR_FRAMES, 0};
    if (!(fx = sl_features_new(fc, err, errlen)) ||
        sl_features_push(fx, noise, S, sl_frame_sink_take, &sink, err, errlen))
        goto fail;
    if (sink.got != FLOOR_FRAMES) {
        sl_fail(err, errlen, "rounding-noise features: %lld frames, expected %d",
                (long long)sink.got, FLOOR_FRAMES);
        goto fail;
    }
    sl_features_free(fx);
    free(noise);
    return b;
fail:
    sl_features_free(fx);
    free(noise);
    sl_band_limiter_free(b);
    return NULL;
}

void sl_band_limiter_free(sl_band_limiter *b)
{
    if (!b)
        return;
    free(b->cum);
    free(b->floor);
    free(b->pass);
    free(b->share);
    free(b->eq);
    free(b);
}

double sl_band_limit_cutoff(const sl_band_limiter *b, double u)
{
    return b->lo_hz + u * (b->hi_hz - b->lo_hz);
}

void sl_band_eq_draw(const sl_band_limiter *b, double max_db, const double u[4], sl_band_channel *ch)
{
    ch->bass_db = (2.0 * u[0] - 1.0) * max_db;
    ch->bass_hz = 100.0 * pow(5.0, u[1]);
    ch->treble_db = (2.0 * u[2] - 1.0) * max_db;
    ch->treble_hz = 0.1875 * (b->rate / 2.0) * pow(4.0, u[3]);
}

/* Power gain at f of first-order shelves: the bass one tends to 10^(bass_db/10)
 * below its corner and to 1 above it, the treble one the other way round. */
double sl_band_eq_power(const sl_band_channel *ch, double f)
{
    const double gb = pow(10.0, ch->bass_db / 10.0), ub = (f / ch->bass_hz) * (f / ch->bass_hz);
    const double gt = pow(10.0, ch->treble_db / 10.0), ut = (f / ch->treble_hz) * (f / ch->treble_hz);
    return (gb + ub) / (1.0 + ub) * (1.0 + gt * ut) / (1.0 + ut);
}

int64_t sl_band_limit_floor_frames(void)
{
    return FLOOR_FRAMES;
}

void sl_band_limit(sl_band_limiter *b, float *x, int L, const sl_band_channel *ch, float log_floor)
{
    const int F = b->dim;
    const double cutoff_hz = ch->cutoff_hz;
    const int bits8 = ch->bits8;
    const int64_t floor_off = ch->floor_off;
    if (ch->bass_db != 0.0 || ch->treble_db != 0.0) {
        for (int k = 0; k < b->half; k++)
            b->pass[k] = (float)sl_band_eq_power(ch, k * b->rate / (2.0 * b->half));
        sl_mel_weighted_mean(&b->fc, b->pass, b->eq);
    } else {
        for (int j = 0; j < F; j++)
            b->eq[j] = 1.0f;
    }
    if (cutoff_hz > 0.0) {
        /* FFT bin k at f gets the pass band [-cutoff, cutoff] seen through |W|^2
         * centred on f: the response's integral from f - cutoff to f + cutoff. */
        const double all = 2.0 * b->cum[GRID];
        for (int k = 0; k < b->half; k++) {
            const double f = k * b->rate / (2.0 * b->half);
            b->pass[k] = (float)((response_integral(b, f + cutoff_hz) -
                                  response_integral(b, f - cutoff_hz)) / all);
        }
        sl_mel_weighted_mean(&b->fc, b->pass, b->share);
    } else {
        for (int j = 0; j < F; j++)
            b->share[j] = 1.0f;
    }
    /* One formula for the three cases, x' = log(share * (eq * e^x + q e^n) + e^m):
     * 16 bits: q = 0, m = n; 8 bits low-passed: q = 256^2, m = n2, a second draw
     * of 16-bit rounding for the resampled output; 8 bits at its own rate
     * (share 1): q = 256^2 and no m. */
    const float q = bits8 ? STEP8_POWER : 0.0f;
    const int64_t m_off = !bits8 ? 0 : cutoff_hz > 0.0 ? FLOOR_FRAMES / 2 : -1;
    for (int t = 0; t < L; t++) {
        const float *n = b->floor + (size_t)((floor_off + t) % FLOOR_FRAMES) * F;
        const float *m = m_off < 0 ? NULL
                                   : b->floor + (size_t)((floor_off + t + m_off) % FLOOR_FRAMES) * F;
        float *xt = x + (size_t)t * F;
        for (int j = 0; j < F; j++) {
            if (xt[j] <= log_floor)
                continue;
            xt[j] = logf(b->share[j] * (b->eq[j] * expf(xt[j]) + q * expf(n[j])) +
                         (m ? expf(m[j]) : 0.0f));
        }
    }
}
