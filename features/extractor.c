/* The streaming feature extractor: samples are appended to a bounded linear
 * buffer (window + a block of hops), every complete window in it becomes a
 * frame, and the unused tail moves to the front. Each frame is computed from
 * its own samples by the same code on the same buffers, so the output does not
 * depend on how the input was split into pushes. */
/* The per-frame loops are written to be vectorised; -O2 (the release build)
 * uses the "very cheap" cost model, which leaves most of them scalar. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "common/target_clones.h"
#include "features/features_internal.h"

/* Hops buffered beyond one window: bounds memory while amortising the move of
 * the buffer tail over many frames. */
#define SL_BLOCK_FRAMES 64

/* FFTW's planner is not thread-safe; extractors created on different threads
 * must take turns making and destroying plans. This lock is the only state
 * shared between extractors and guards FFTW's own global planner state. */
static pthread_mutex_t fftw_plan_lock = PTHREAD_MUTEX_INITIALIZER;

struct sl_features {
    sl_feature_config cfg;
    int win, shift, fft_size, half, dim, num_mel;
    float max_abs;         /* larger samples could overflow a frame's power: refused */
    int64_t samples_seen;  /* samples accepted since creation/reset */
    int64_t next_frame;    /* index of the next frame */
    int64_t next_start;    /* absolute sample where the next frame starts */
    float *buf;            /* buf[0] is sample next_start when buf_len > 0 */
    int buf_len, buf_cap;
    float *window;         /* win */
    float *frame;          /* win: the frame with dither added (dither only) */
    float *fft_in;         /* fft_size, FFTW-aligned */
    fftwf_complex *fft_out; /* half + 1 */
    float *power;          /* half */
    float *out;            /* dim */
    float *mel_log;        /* num_mel rounded up to SL_MEL_LANES: log-mel energies */
    float *dct;            /* num_ceps x num_mel, liftering folded in */
    sl_mel_bank mel;
    fftwf_plan plan;
    uint64_t rng;          /* dither generator state */
};

static void set_err(char *err, size_t errlen, const char *fmt, const char *a)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a);
}

/* splitmix64: small, seedable, and the same on every platform. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Standard normal by Box-Muller, as Kaldi's RandGauss. */
static float rng_gauss(uint64_t *s)
{
    double u1 = ((rng_next(s) >> 11) + 1.0) * (1.0 / 9007199254740993.0);
    double u2 = (rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
    return (float)(sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2));
}

/* Kaldi's DCT-II matrix (orthonormal, C0 row sqrt(1/N)) times the lifter
 * 1 + Q/2 sin(pi i / Q). */
static void fill_dct(float *dct, int ceps, int n, float lifter)
{
    for (int i = 0; i < ceps; i++) {
        double lift = lifter != 0.0f ? 1.0 + 0.5 * lifter * sin(M_PI * i / lifter) : 1.0;
        for (int j = 0; j < n; j++) {
            double v = i == 0 ? sqrt(1.0 / n) : sqrt(2.0 / n) * cos(M_PI / n * (j + 0.5) * i);
            dct[i * n + j] = (float)(v * lift);
        }
    }
}

sl_features *sl_features_new(const sl_feature_config *cfg, char *err, size_t errlen)
{
    if (sl_feature_config_validate(cfg, err, errlen) < 0)
        return NULL;
    sl_features *f = calloc(1, sizeof *f);
    if (!f) {
        set_err(err, errlen, "features: %s", "out of memory");
        return NULL;
    }
    f->cfg = *cfg;
    f->win = sl_feature_frame_length(cfg);
    f->shift = sl_feature_frame_shift(cfg);
    f->fft_size = sl_feature_fft_size(cfg);
    f->half = f->fft_size / 2;
    f->dim = sl_feature_dim(cfg);
    f->num_mel = cfg->num_mel_bins;
    /* 64 hops of samples past a window; a hop longer than the window skips
     * the samples between windows, which the buffer then need not hold (a
     * 10 s hop at 384 kHz took 1 GB for 25 ms windows) */
    f->buf_cap = f->win + SL_BLOCK_FRAMES * (f->shift < f->win ? f->shift : f->win);
    /* After DC removal and pre-emphasis a sample is at most 4x the largest,
     * a bin of the FFT at most win times that, and a mel energy sums half + 1
     * bins' powers: below FLT_MAX with a factor of 2 to spare. Kaldi's int16
     * scale sits 1e10 below it; 1e20 (a float file's garbage) would give Inf or
     * NaN powers, and NaN a floored log: features of silence. */
    const double max_abs = sqrt(FLT_MAX / (f->half + 1)) / (4.0 * f->win) / 2.0 /
                           (double)cfg->input_scale;
    f->max_abs = max_abs < FLT_MAX ? (float)max_abs : FLT_MAX; /* Inf is refused still */
    f->buf = malloc((size_t)f->buf_cap * sizeof *f->buf);
    f->window = malloc((size_t)f->win * sizeof *f->window);
    f->frame = malloc((size_t)f->win * sizeof *f->frame);
    f->fft_in = fftwf_alloc_real((size_t)f->fft_size);
    f->fft_out = fftwf_alloc_complex((size_t)f->half + 1);
    f->power = calloc((size_t)f->half, sizeof *f->power);
    f->out = malloc((size_t)(f->dim + 1) * sizeof *f->out);
    f->mel_log = malloc((size_t)(f->num_mel + SL_MEL_LANES) * sizeof *f->mel_log);
    if (cfg->num_ceps > 0)
        f->dct = malloc((size_t)cfg->num_ceps * f->num_mel * sizeof *f->dct);
    if (!f->buf || !f->window || !f->frame || !f->fft_in || !f->fft_out || !f->power || !f->out ||
        !f->mel_log || (cfg->num_ceps > 0 && !f->dct) || sl_mel_bank_init(&f->mel, cfg, f->fft_size) < 0) {
        set_err(err, errlen, "features: %s", "out of memory");
        sl_features_free(f);
        return NULL;
    }
    sl_window_fill(f->window, f->win, cfg->window);
    if (f->dct)
        fill_dct(f->dct, cfg->num_ceps, f->num_mel, cfg->cepstral_lifter);
    /* Touch every buffer now: first touches of fresh pages are slow here, and
     * belong in creation, not in the first pushes. */
    memset(f->fft_in, 0, (size_t)f->fft_size * sizeof *f->fft_in);
    memset(f->buf, 0, (size_t)f->buf_cap * sizeof *f->buf);
    memset(f->frame, 0, (size_t)f->win * sizeof *f->frame);
    memset(f->fft_out, 0, ((size_t)f->half + 1) * sizeof *f->fft_out);
    memset(f->out, 0, (size_t)(f->dim + 1) * sizeof *f->out);
    memset(f->mel_log, 0, (size_t)(f->num_mel + SL_MEL_LANES) * sizeof *f->mel_log);
    /* FFTW_ESTIMATE chooses the algorithm without timing anything, so the plan
     * (and thus every output bit) is the same on every run. */
    pthread_mutex_lock(&fftw_plan_lock);
    f->plan = fftwf_plan_dft_r2c_1d(f->fft_size, f->fft_in, f->fft_out, FFTW_ESTIMATE);
    pthread_mutex_unlock(&fftw_plan_lock);
    if (!f->plan) {
        set_err(err, errlen, "features: %s", "FFTW could not make a plan");
        sl_features_free(f);
        return NULL;
    }
    sl_features_reset(f);
    return f;
}

size_t sl_features_memory_bytes(const sl_features *f)
{
    const sl_mel_bank *b = &f->mel;
    const size_t rows = (size_t)b->block_offset[b->num_blocks];
    return sizeof *f + sizeof(float) * ((size_t)f->buf_cap + 2 * (size_t)f->win + f->fft_size +
                                        f->half + f->dim + 1 + f->num_mel + SL_MEL_LANES +
                                        (size_t)f->cfg.num_ceps * f->num_mel) +
           sizeof(fftwf_complex) * ((size_t)f->half + 1) +
           sizeof(int) * (2 * (size_t)b->num_bins + 3 * (size_t)b->num_blocks + 1) +
           (rows + 1) * sizeof(sl_v8);
}

void sl_features_free(sl_features *f)
{
    if (!f)
        return;
    if (f->plan) {
        pthread_mutex_lock(&fftw_plan_lock);
        fftwf_destroy_plan(f->plan);
        pthread_mutex_unlock(&fftw_plan_lock);
    }
    free(f->buf);
    free(f->window);
    free(f->frame);
    fftwf_free(f->fft_in);
    fftwf_free(f->fft_out);
    free(f->power);
    free(f->out);
    free(f->mel_log);
    free(f->dct);
    sl_mel_bank_free(&f->mel);
    free(f);
}

void sl_features_reset(sl_features *f)
{
    if (!f)
        return;
    f->samples_seen = 0;
    f->next_frame = 0;
    f->next_start = 0;
    f->buf_len = 0;
    f->rng = (uint64_t)f->cfg.dither_seed * 0x2545F4914F6CDD1Dull + 1;
}

const sl_feature_config *sl_features_config(const sl_features *f)
{
    return &f->cfg;
}

int64_t sl_features_samples_seen(const sl_features *f)
{
    return f->samples_seen;
}

static float log_floored(float x)
{
    return logf(x > FLT_EPSILON ? x : FLT_EPSILON);
}

/* Sums in 8 fixed lanes: vectorised, and the same association whatever the
 * vector width, so results do not depend on which clone runs. */
static inline float sum8(const float *x, int n)
{
    float acc[8] = {0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            acc[k] += x[i + k];
    float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; i < n; i++)
        s += x[i];
    return s;
}

static inline float sum_sq8(const float *x, float mean, int n)
{
    float acc[8] = {0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            acc[k] += (x[i + k] - mean) * (x[i + k] - mean);
    float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (; i < n; i++)
        s += (x[i] - mean) * (x[i] - mean);
    return s;
}

/* One frame from x[0..win-1] (already scaled) into f->out. Compiled twice,
 * for AVX2 and for baseline x86-64, and picked at load time: the binary runs
 * on any x86-64 and uses 8-wide vectors where the CPU has them. */
SL_TARGET_CLONES("avx2", "default") static void compute_frame(sl_features *f, const float *x)
{
    const int n = f->win;
    const sl_feature_config *c = &f->cfg;
    float *d = f->frame;

    if (c->dither > 0.0f) {
        for (int i = 0; i < n; i++)
            d[i] = x[i] + c->dither * rng_gauss(&f->rng);
        x = d;
    }
    float mean = 0.0f;
    if (c->remove_dc)
        mean = sum8(x, n) / (float)n;
    float log_energy = 0.0f;
    if (c->use_energy && c->raw_energy) /* after DC removal, before pre-emphasis */
        log_energy = log_floored(sum_sq8(x, mean, n));
    /* DC removal, pre-emphasis as Kaldi (y[i] = x[i] - p x[i-1], y[0] = x[0] - p x[0])
     * and the window in one pass over the frame. */
    float *y = f->fft_in;
    const float p = c->preemph, *w = f->window;
    y[0] = ((x[0] - mean) - p * (x[0] - mean)) * w[0];
    for (int i = 1; i < n; i++)
        y[i] = ((x[i] - mean) - p * (x[i - 1] - mean)) * w[i];
    /* y[n..fft_size-1] stays zero: nothing else writes there. */
    if (c->use_energy && !c->raw_energy)
        log_energy = log_floored(sum_sq8(y, 0.0f, n));
    fftwf_execute(f->plan);
    const fftwf_complex *z = f->fft_out;
    float *pw = f->power;
    for (int k = 0; k < f->half; k++)
        pw[k] = z[k][0] * z[k][0] + z[k][1] * z[k][1];

    /* Mel energies, 8 filters at a time (see sl_mel_bank), floored as Kaldi
     * does before the log; lanes past the last filter are computed and unused. */
    const sl_mel_bank *mb = &f->mel;
    float *mel8 = f->mel_log;
    for (int b = 0; b < mb->num_blocks; b++) {
        const sl_v8 *wt = (const sl_v8 *)mb->weights + mb->block_offset[b];
        const float *pp = pw + mb->block_first[b];
        /* Two accumulators halve the chain of dependent vector adds. */
        sl_v8 even = {0}, odd = {0};
        int j = 0, len = mb->block_len[b];
        for (; j + 2 <= len; j += 2) {
            even += wt[j] * pp[j];
            odd += wt[j + 1] * pp[j + 1];
        }
        if (j < len)
            even += wt[j] * pp[j];
        even += odd;
        memcpy(mel8 + b * SL_MEL_LANES, &even, sizeof even);
    }
    sl_log_floored_block(mel8, mb->num_blocks * SL_MEL_LANES, FLT_EPSILON);
    const float *mel = mel8;
    if (c->num_ceps == 0)
        memcpy(f->out + (c->use_energy ? 1 : 0), mel8, (size_t)f->num_mel * sizeof *f->out);
    if (c->num_ceps > 0) {
        for (int i = 0; i < c->num_ceps; i++) {
            const float *row = f->dct + (size_t)i * f->num_mel;
            float s = 0.0f;
            for (int j = 0; j < f->num_mel; j++)
                s += row[j] * mel[j];
            f->out[i] = s;
        }
    }
    if (c->use_energy) {
        if (c->energy_floor > 0.0f) {
            float floor_log = logf(c->energy_floor);
            if (log_energy < floor_log)
                log_energy = floor_log;
        }
        f->out[0] = log_energy; /* Kaldi: dim 0 (and in place of C0 for MFCC) */
    }
}

/* Index of the first sample in pcm[0..n-1] beyond +-limit, NaN and Inf
 * included, or -1. Compares the bits of |x|, which order as the values do (NaN
 * above Inf above every finite value): it vectorises and needs no
 * floating-point exceptions. */
static long first_beyond(const float *pcm, size_t n, float limit)
{
    uint32_t lim;
    memcpy(&lim, &limit, sizeof lim);
    size_t block = 1024;
    for (size_t s = 0; s < n; s += block) {
        size_t e = s + block < n ? s + block : n;
        unsigned bad = 0;
        for (size_t i = s; i < e; i++) {
            uint32_t u;
            memcpy(&u, &pcm[i], sizeof u);
            bad |= (u & 0x7fffffffu) > lim;
        }
        if (bad)
            for (size_t i = s; i < e; i++) {
                uint32_t u;
                memcpy(&u, &pcm[i], sizeof u);
                if ((u & 0x7fffffffu) > lim)
                    return (long)i;
            }
    }
    return -1;
}

/* The message for pcm[bad], refused; returns -1. */
static int refused(const float *pcm, long bad, int64_t first, float limit, char *err, size_t errlen)
{
    if (!err || !errlen)
        return -1;
    if (!isfinite(pcm[bad]))
        snprintf(err, errlen, "features: non-finite sample (%s) at sample %lld; the chunk was refused",
                 isnan(pcm[bad]) ? "NaN" : "Inf", (long long)(first + bad));
    else
        snprintf(err, errlen, "features: sample %g at sample %lld is beyond +-%.3g, where a "
                 "frame's power would overflow float; the chunk was refused", (double)pcm[bad],
                 (long long)(first + bad), (double)limit);
    return -1;
}

int sl_check_finite(const float *pcm, size_t n, int64_t first, char *err, size_t errlen)
{
    long bad = first_beyond(pcm, n, FLT_MAX);
    return bad < 0 ? 0 : refused(pcm, bad, first, FLT_MAX, err, errlen);
}

int sl_features_push(sl_features *f, const float *pcm, size_t n, sl_frame_fn fn, void *user,
                     char *err, size_t errlen)
{
    if (n && !pcm) { /* refused as the labeler refuses it, not read */
        if (err && errlen)
            snprintf(err, errlen, "features: %zu samples pushed from NULL", n);
        return -1;
    }
    long bad = first_beyond(pcm, n, f->max_abs);
    if (bad >= 0)
        return refused(pcm, bad, f->samples_seen, f->max_abs, err, errlen);
    const float scale = f->cfg.input_scale;
    size_t i = 0;
    for (;;) {
        /* Frames whose window is whole, first: those a stopped push left in
         * the buffer come out on the next push, one of 0 samples too (else,
         * at the stream's end, they would be lost). */
        int off = 0, rv = 0;
        while (off + f->win <= f->buf_len) {
            compute_frame(f, f->buf + off);
            int64_t index = f->next_frame++;
            f->next_start += f->shift;
            off += f->shift;
            if (fn && (rv = fn(user, index, f->out, f->dim)) != 0)
                break;
        }
        if (off > 0) {
            if (off < f->buf_len) {
                memmove(f->buf, f->buf + off, (size_t)(f->buf_len - off) * sizeof *f->buf);
                f->buf_len -= off;
            } else {
                f->buf_len = 0;
            }
        }
        if (rv != 0)
            return rv;
        if (i >= n)
            return 0;
        if (f->buf_len == 0 && f->samples_seen < f->next_start) {
            /* A hop longer than the window skips samples no frame uses. */
            int64_t gap = f->next_start - f->samples_seen;
            size_t skip = (size_t)gap < n - i ? (size_t)gap : n - i;
            i += skip;
            f->samples_seen += (int64_t)skip;
            continue;
        }
        size_t take = (size_t)(f->buf_cap - f->buf_len);
        if (take > n - i)
            take = n - i;
        float *dst = f->buf + f->buf_len;
        for (size_t k = 0; k < take; k++)
            dst[k] = pcm[i + k] * scale;
        f->buf_len += (int)take;
        f->samples_seen += (int64_t)take;
        i += take;
    }
}
