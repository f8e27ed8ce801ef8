/* Streaming conversion of interleaved audio to a labeler's input: the mean of
 * the channels, then libsoxr to the output rate. sl_audio_read converts files
 * with the same two functions (sl_downmix, sl_resampler_new), so a stream fed
 * through a converter gives the samples its file gives, and the element labels
 * a 44.1 kHz stereo stream as `seqlabel label` labels the file. */
#include "io/io_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Input frames per block: fixed buffers, so pushes allocate nothing. */
#define CONV_BLOCK 4096
_Static_assert(SL_AUDIO_MAX_CHANNELS <= CONV_BLOCK, "a frame must fit a block");

struct sl_converter {
    int channels, in_rate, out_rate;
    soxr_t soxr;           /* NULL when the rates are equal */
    int delay;             /* output samples the resampler holds back */
    int channel;           /* 0: the mean of the channels; else this one (1-based) */
    int64_t in_frames;     /* frames pushed since the last reset, for messages */
    float in[CONV_BLOCK];   /* 16-bit input as float */
    float mono[CONV_BLOCK]; /* downmixed input block */
    float out[CONV_BLOCK];  /* resampled output block */
};

void sl_downmix(const float *in, long frames, int channels, int channel, float *out)
{
    if (channel > 0) {
        for (long i = 0; i < frames; i++)
            out[i] = in[i * channels + channel - 1];
        return;
    }
    /* Summing first keeps a sum of int16-derived values exact, so a stereo mean
     * is exactly (a + b) / 2. */
    for (long i = 0; i < frames; i++) {
        const float *f = in + i * channels;
        float s = 0.0f;
        for (int c = 0; c < channels; c++)
            s += f[c];
        out[i] = s / (float)channels;
    }
}

soxr_t sl_resampler_new(int in_rate, int out_rate, sl_resample_quality quality, int streaming,
                        const char *name, char *err, size_t errlen)
{
    const double ratio = (double)out_rate / in_rate;
    if (ratio > 256.0 || ratio < 1.0 / 256.0) {
        sl_io_err(err, errlen, "%s: cannot resample %d Hz to %d Hz (ratio beyond 1:256)", name,
                  in_rate, out_rate);
        return NULL;
    }
    /* Linear phase (soxr's default), float in and out, one thread: the output
     * does not depend on the machine's cores. */
    unsigned long recipe = quality == SL_RESAMPLE_FAST     ? SOXR_LQ
                           : quality == SL_RESAMPLE_MEDIUM ? SOXR_HQ
                                                           : SOXR_VHQ | SOXR_STEEP_FILTER;
    soxr_quality_spec_t q = soxr_quality_spec(recipe, 0);
    soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    soxr_runtime_spec_t rt = soxr_runtime_spec(1);
    /* Streams: DFTs of at most 2^12 points instead of soxr's default 2^17, so
     * output is released sooner, which a live stream through the element or a
     * pipe into the command waits for. Regular files keep the default, which is
     * faster; the samples are the same (tests/io/test_converter.c,
     * test_same_as_file). */
    if (streaming)
        rt.log2_large_dft_size = 12;
    soxr_error_t e = NULL;
    soxr_t s = soxr_create(in_rate, out_rate, 1, &e, &io, &q, &rt);
    if (!s)
        sl_io_err(err, errlen, "%s: cannot start the resampler: %s", name, e ? e : "unknown error");
    return s;
}

void sl_converter_free(sl_converter *c)
{
    if (!c)
        return;
    if (c->soxr)
        soxr_delete(c->soxr);
    free(c);
}

void sl_converter_reset(sl_converter *c)
{
    if (!c)
        return;
    if (c->soxr)
        soxr_clear(c->soxr);
    c->in_frames = 0;
}

int sl_converter_delay(const sl_converter *c) { return c->delay; }

/* Hands soxr's output for `n` mono input samples (NULL: the tail) to fn. */
static int resample(sl_converter *c, const float *mono, size_t n, sl_samples_fn fn, void *user,
                    char *err, size_t errlen)
{
    size_t off = 0;
    for (;;) {
        size_t used = 0, made = 0;
        soxr_error_t e = soxr_process(c->soxr, mono ? mono + off : NULL, mono ? n - off : 0, &used,
                                      c->out, CONV_BLOCK, &made);
        if (e) {
            sl_io_err(err, errlen, "resampling failed: %s", e);
            return -1;
        }
        off += used;
        if (made > 0) {
            int rc = fn(user, c->out, made);
            if (rc)
                return rc;
        }
        /* input: done once it is taken and the output buffer was not filled;
         * the tail: once soxr has nothing more */
        if (mono ? off == n && made < CONV_BLOCK : made == 0)
            return 0;
    }
}

/* The resampler's delay, measured: two seconds of silence pushed in steps worth
 * at most one output sample, and the most output it ever held back against what
 * its input was worth, plus a step for what a step may hide. soxr's output
 * after k input samples depends on k alone, not on how they were pushed, so
 * this bounds every push pattern. */
static int measure_delay(sl_converter *c, char *err, size_t errlen)
{
    const double ratio = (double)c->out_rate / c->in_rate;
    const size_t step = c->in_rate > c->out_rate ? (size_t)(c->in_rate / c->out_rate) : 1;
    int64_t made = 0;
    double held = 0.0;
    memset(c->mono, 0, sizeof c->mono);
    for (int64_t fed = 0; fed < 2 * (int64_t)c->in_rate;) {
        size_t used = 0, got = 0;
        if (soxr_process(c->soxr, c->mono, step, &used, c->out, CONV_BLOCK, &got)) {
            sl_io_err(err, errlen, "the resampler failed on silence");
            return -1;
        }
        fed += (int64_t)used;
        made += (int64_t)got;
        if ((double)fed * ratio - (double)made > held)
            held = (double)fed * ratio - (double)made;
    }
    c->delay = (int)ceil(held + (double)step * ratio);
    soxr_clear(c->soxr);
    return 0;
}

/* The delays measured so far, by rates: a measurement costs milliseconds (2 s
 * of input a sample or two at a time), which an element paid at every start
 * and caps change, its streaming thread held meanwhile; the same rates give
 * the same delay (the resampler's settings are fixed). */
typedef struct {
    int in_rate, out_rate, delay;
} known_delay;
enum { DELAYS_KEPT = 32 };
static known_delay delays[DELAYS_KEPT];
static int n_delays;
static pthread_mutex_t delays_lock = PTHREAD_MUTEX_INITIALIZER;

/* c->delay, measured once for its rates */
static int find_delay(sl_converter *c, char *err, size_t errlen)
{
    int found = 0;
    pthread_mutex_lock(&delays_lock);
    for (int i = 0; i < n_delays && !found; i++)
        if (delays[i].in_rate == c->in_rate && delays[i].out_rate == c->out_rate) {
            c->delay = delays[i].delay;
            found = 1;
        }
    pthread_mutex_unlock(&delays_lock);
    if (found)
        return 0;
    if (measure_delay(c, err, errlen))
        return -1;
    pthread_mutex_lock(&delays_lock);
    if (n_delays < DELAYS_KEPT)
        delays[n_delays++] = (known_delay){c->in_rate, c->out_rate, c->delay};
    pthread_mutex_unlock(&delays_lock);
    return 0;
}

sl_converter *sl_converter_new(int in_rate, int channels, int out_rate, char *err, size_t errlen)
{
    if (in_rate <= 0 || out_rate <= 0 || channels <= 0 || channels > SL_AUDIO_MAX_CHANNELS) {
        sl_io_err(err, errlen, "cannot convert %d channel(s) at %d Hz to mono at %d Hz", channels,
                  in_rate, out_rate);
        return NULL;
    }
    sl_converter *c = calloc(1, sizeof *c);
    if (!c) {
        sl_io_err(err, errlen, "out of memory");
        return NULL;
    }
    c->channels = channels;
    c->in_rate = in_rate;
    c->out_rate = out_rate;
    if (in_rate != out_rate) {
        c->soxr = sl_resampler_new(in_rate, out_rate, SL_RESAMPLE_BEST, 1, "stream", err, errlen);
        if (!c->soxr || find_delay(c, err, errlen)) {
            sl_converter_free(c);
            return NULL;
        }
    }
    return c;
}

int sl_converter_set_channel(sl_converter *c, int channel, char *err, size_t errlen)
{
    if (channel < 0 || channel > c->channels) {
        sl_io_err(err, errlen, "channel %d asked of a stream of %d channel(s)", channel, c->channels);
        return -1;
    }
    c->channel = channel;
    return 0;
}

/* One block of at most CONV_BLOCK / channels frames, already float and finite:
 * mono goes to the resampler as it is, more channels through c->mono. */
static int push_block(sl_converter *c, const float *pcm, size_t frames, sl_samples_fn fn,
                      void *user, char *err, size_t errlen)
{
    const float *mono = pcm;
    if (c->channels > 1) {
        sl_downmix(pcm, (long)frames, c->channels, c->channel, c->mono);
        mono = c->mono;
    }
    c->in_frames += (int64_t)frames;
    if (!c->soxr)
        return fn(user, mono, frames);
    return resample(c, mono, frames, fn, user, err, errlen);
}

/* Frames per block: the interleaved block fits CONV_BLOCK samples
 * (SL_AUDIO_MAX_CHANNELS <= CONV_BLOCK, so at least one frame). */
static size_t block_frames(const sl_converter *c) { return CONV_BLOCK / (size_t)c->channels; }

int sl_converter_push(sl_converter *c, const float *pcm, size_t frames, sl_samples_fn fn,
                      void *user, char *err, size_t errlen)
{
    /* float may hold NaN/Inf, which 16-bit input cannot: checked here alone */
    for (size_t i = 0; i < frames * (size_t)c->channels; i++)
        if (!isfinite(pcm[i])) {
            sl_io_err(err, errlen, "non-finite sample (%s) at sample frame %lld of the stream",
                      isnan(pcm[i]) ? "NaN" : "Inf",
                      (long long)(c->in_frames + (int64_t)(i / (size_t)c->channels)));
            return -1;
        }
    for (size_t done = 0; done < frames;) {
        size_t n = frames - done < block_frames(c) ? frames - done : block_frames(c);
        int rc = push_block(c, pcm + done * (size_t)c->channels, n, fn, user, err, errlen);
        if (rc)
            return rc;
        done += n;
    }
    return 0;
}

int sl_converter_push_s16(sl_converter *c, const int16_t *pcm, size_t frames, sl_samples_fn fn,
                          void *user, char *err, size_t errlen)
{
    for (size_t done = 0; done < frames;) {
        size_t n = frames - done < block_frames(c) ? frames - done : block_frames(c);
        const int16_t *src = pcm + done * (size_t)c->channels;
        /* libsndfile's scale for 16-bit files read as float: the same numbers */
        for (size_t i = 0; i < n * (size_t)c->channels; i++)
            c->in[i] = (float)src[i] * (1.0f / 32768.0f);
        int rc = push_block(c, c->in, n, fn, user, err, errlen);
        if (rc)
            return rc;
        done += n;
    }
    return 0;
}

int sl_converter_flush(sl_converter *c, sl_samples_fn fn, void *user, char *err, size_t errlen)
{
    int rc = c->soxr ? resample(c, NULL, 0, fn, user, err, errlen) : 0;
    sl_converter_reset(c);
    return rc;
}
