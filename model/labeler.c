/* The streaming labeler: PCM -> features -> encoder windows -> decoder.
 *
 * Windows are anchored to frame indices: core block k is the frames
 * [k*C, (k+1)*C) and the encoder sees [k*C - L, (k+1)*C + R), filled out
 * before the stream and past its end with the model's silence frame, so that
 * the encoder always gets a whole window, as in training (with clip_edges:
 * clipped to the frames that exist). A block is labelled as soon as its
 * lookahead has arrived, so what the encoder sees depends only on the frame
 * sequence, never on push sizes or threads.
 *
 * Frames wait in one linear buffer holding at most L + T*C + R frames (T
 * threads; unless clip_edges, it starts with L silence frames and gets silence
 * frames after the last one at end of stream): when T blocks are ready they run
 * at once, one per thread, and the buffer keeps only the left context of the
 * next block. At the end of every push the blocks that are ready run too, so a
 * frame's emission never waits for a later push (the latency is a property of
 * the settings alone). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seqlabel.h"
#include "features/features_internal.h"
#include "model/model_internal.h"
#include "common/memory.h"

#define S16_BLOCK 4096

typedef struct {
    sl_encoder *enc;
    float *probs;      /* window x n_classes */
    int64_t win_start; /* job: first frame of the window */
    int win_len;
    int rc;
} sl_worker_slot;

struct sl_labeler {
    const sl_model *m;
    sl_labeler_config cfg;
    int K, F; /* classes, feature dimension */
    int rate, hop, flen;
    int W, L, R, C, T;
    size_t memory; /* bytes of the buffers below, as count_memory counts them */

    sl_features *feat;
    sl_decoder *dec;
    const float *mean, *inv_std;

    float *frames;       /* buffered normalised frames, cap x F */
    float *silence;      /* F: what windows see outside the stream; NULL with clip_edges */
    int cap;
    int64_t buf_base;    /* frame index of frames[0] (-L: silence before the stream) */
    int buf_count;       /* frames buffered, silence ones included */
    int64_t total;       /* frames received since reset */
    int64_t next_block;  /* next core block to label */
    int64_t emitted;

    sl_worker_slot *slots; /* T slots; slot 0 runs on the calling thread */

    /* Worker threads 1..T-1, started once. */
    pthread_t *threads;
    int nthreads_started;
    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_done;
    uint64_t generation;
    int njobs, pending, quit;

    /* Per-push state for the feature callback. */
    const sl_label_sink *sink;
    int stop_rc;
    int busy;    /* in a push or finish: its sink's callbacks may not call back in */
    int stopped; /* a sink stopped the last push or finish: a reset must come first */
    char *err;
    size_t errlen;

    float s16_buf[S16_BLOCK]; /* input on the 16-bit grid, a block at a time */
};

typedef struct {
    sl_labeler *l;
    int index;
} sl_thread_arg;

void sl_labeler_config_default(sl_labeler_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->left_context = -1;
    cfg->lookahead = -1;
    cfg->window = -1;
    cfg->num_threads = 1;
    sl_decoder_config_default(&cfg->decoder);
}

static void run_slot(sl_labeler *l, int j)
{
    sl_worker_slot *s = &l->slots[j];
    const float *x = l->frames + (size_t)(s->win_start - l->buf_base) * l->F;
    s->rc = sl_encoder_forward(s->enc, x, s->win_len, NULL, s->probs);
}

static void *worker_main(void *arg)
{
    sl_thread_arg *a = arg;
    sl_labeler *l = a->l;
    int j = a->index;
    free(a);
    uint64_t seen = 0;
    pthread_mutex_lock(&l->mu);
    for (;;) {
        while (l->generation == seen && !l->quit)
            pthread_cond_wait(&l->cv_work, &l->mu);
        if (l->quit)
            break;
        seen = l->generation;
        if (j < l->njobs) {
            pthread_mutex_unlock(&l->mu);
            run_slot(l, j);
            pthread_mutex_lock(&l->mu);
            if (--l->pending == 0)
                pthread_cond_signal(&l->cv_done);
        }
    }
    pthread_mutex_unlock(&l->mu);
    return NULL;
}

/* Frames a label may wait beyond its own under a latency limit of s seconds,
 * once the analysis window has taken its reach beyond the hop. */
static long frames_within(const sl_labeler *l, double s)
{
    double f = floor((s * l->rate - (l->flen - l->hop)) / l->hop + 1e-9);
    /* a limit of hours or of infinity: more frames than any window holds, and
     * no overflow of the cast (far above SL_MAX_WINDOW either way) */
    return f > 1e9 ? 1000000000L : (long)f;
}

/* The decoder, its default Viterbi lag made to fit a latency limit: under a
 * limit the lag takes what the other stages leave, up to the usual default, and
 * the window the rest (docs/labeling.md, "A latency limit"). */
static int make_decoder(sl_labeler *l, const sl_labeler_config *cfg, char *err, size_t errlen)
{
    sl_decoder_config dc = cfg->decoder;
    const double fps = (double)l->rate / l->hop;
    if (dc.smoothing == SL_SMOOTH_VITERBI && dc.smoothing_lag < 0 && cfg->max_latency_s > 0) {
        dc.smoothing_lag = 0;
        if (!(l->dec = sl_decoder_new(&dc, l->K, fps, err, errlen)))
            return -1;
        long left = frames_within(l, cfg->max_latency_s) - sl_decoder_delay_frames(l->dec);
        sl_decoder_free(l->dec);
        dc.smoothing_lag = left < 0 ? 0 : left < SL_SMOOTHING_LAG_DEFAULT ? (int)left
                                                                         : SL_SMOOTHING_LAG_DEFAULT;
    }
    l->dec = sl_decoder_new(&dc, l->K, fps, err, errlen);
    return l->dec ? 0 : -1;
}

static int resolve_window(sl_labeler *l, const sl_labeler_config *cfg, char *err, size_t errlen)
{
    const sl_model_config *mc = sl_model_get_config(l->m);
    int mw = mc->stream_window, ml = mc->stream_left, mr = mc->stream_lookahead;
    if (mw <= 0 || ml < 0 || mr < 0 || mw - ml - mr < 1) { /* a model without a stream window */
        mw = mc->max_window < 400 ? mc->max_window : 400;
        ml = mw / 4;
        mr = mw / 8;
    }
    if (cfg->window < -1 || cfg->left_context < -1 || cfg->lookahead < -1) {
        if (err)
            snprintf(err, errlen, "labeler: window %d, left context %d, lookahead %d: each -1 "
                     "(the model's) or a number of frames", cfg->window, cfg->left_context,
                     cfg->lookahead);
        return -1;
    }
    int L = cfg->left_context >= 0 ? cfg->left_context : ml;
    int R = cfg->lookahead >= 0 ? cfg->lookahead : mr;
    long W = cfg->window >= 0 ? cfg->window : (long)L + (mw - ml - mr) + R;
    if (!(cfg->max_latency_s >= 0)) { /* negative, NaN: not a number of seconds */
        if (err)
            snprintf(err, errlen, "labeler: a latency limit of %g s: 0 (none) or more expected",
                     cfg->max_latency_s);
        return -1;
    }
    if (cfg->max_latency_s > 0) {
        if (cfg->left_context != -1 || cfg->lookahead != -1 || cfg->window != -1) {
            if (err)
                snprintf(err, errlen, "labeler: a latency limit, or a window, left context and "
                         "lookahead of one's own: one or the other");
            return -1;
        }
        /* frames that a label may wait beyond its own: core - 1 + lookahead */
        const int delay = sl_decoder_delay_frames(l->dec);
        long budget = frames_within(l, cfg->max_latency_s) - delay;
        if (budget < 0) {
            if (err)
                snprintf(err, errlen, "labeler: a latency limit of %g s is below the %g s that "
                         "the analysis window and the decoder's delay (%d frames) take",
                         cfg->max_latency_s, (double)(l->flen - l->hop + delay * l->hop) / l->rate,
                         delay);
            return -1;
        }
        if (budget < (long)(mw - ml - mr) - 1 + mr) {
            /* the model's whole window kept (a shorter one is context it never
             * had in training), as much of its lookahead as fits, a core of the
             * rest, and the left context what is left: docs/labeling.md */
            R = budget < mr ? (int)budget : mr;
            int C = (int)(budget - R + 1);
            W = mw;
            L = mw - C - R;
        }
    }
    if (cfg->left_context < -1 || cfg->lookahead < -1 || cfg->window < -1 || W > mc->max_window ||
        W - L - R < 1) {
        if (err)
            snprintf(err, errlen,
                     "labeler: window %ld with left context %d and lookahead %d leaves no core "
                     "frames or exceeds the model's maximum window %d",
                     W, L, R, mc->max_window);
        return -1;
    }
    l->W = (int)W;
    l->L = L;
    l->R = R;
    l->C = (int)W - L - R;
    return 0;
}

/* The labeler's buffers: an encoder and its probabilities per thread, the
 * frames waiting, the silence frame, the feature extractor and the decoder. */
static size_t count_memory(const sl_labeler *l)
{
    const size_t enc = sl_encoder_memory_bytes(l->m, l->W);
    const double need = (double)l->T * ((double)enc + (double)l->W * l->K * sizeof(float) +
                                        sizeof(sl_worker_slot)) +
                        ((double)l->cap + !l->cfg.clip_edges) * l->F * sizeof(float) +
                        sizeof *l + (double)sl_features_memory_bytes(l->feat) +
                        (double)sl_decoder_memory_bytes(l->dec);
    return need > (double)SIZE_MAX ? SIZE_MAX : (size_t)need;
}

sl_labeler *sl_labeler_plan(const sl_model *m, const sl_labeler_config *cfg_in, char *err,
                            size_t errlen)
{
    if (!m) { /* sl_labeler_new(sl_model_load(...)) where no model loaded */
        if (err)
            snprintf(err, errlen, "labeler: no model given");
        return NULL;
    }
    sl_labeler_config defcfg;
    if (!cfg_in) {
        sl_labeler_config_default(&defcfg);
        cfg_in = &defcfg;
    }
    if (cfg_in->num_threads < 1 || cfg_in->num_threads > SL_MAX_THREADS) {
        if (err)
            snprintf(err, errlen, "labeler: %d threads is not in [1, %d]", cfg_in->num_threads,
                     SL_MAX_THREADS);
        return NULL;
    }
    sl_labeler *l = calloc(1, sizeof *l);
    if (!l) {
        if (err)
            snprintf(err, errlen, "labeler: out of memory");
        return NULL;
    }
    l->m = m;
    l->cfg = *cfg_in;
    const sl_model_config *mc = sl_model_get_config(m);
    const sl_feature_config *fc = sl_model_feature_config(m);
    l->K = mc->n_classes;
    l->F = mc->n_features;
    l->rate = fc->sample_rate;
    l->hop = sl_feature_frame_shift(fc);
    l->flen = sl_feature_frame_length(fc);
    l->T = cfg_in->num_threads;
    l->mean = sl_model_norm_mean(m);
    l->inv_std = sl_model_norm_inv_std(m);
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv_work, NULL);
    pthread_cond_init(&l->cv_done, NULL);
    /* the decoder first: a latency limit leaves the window what its delay does not take */
    if (make_decoder(l, cfg_in, err, errlen))
        goto fail;
    if (resolve_window(l, cfg_in, err, errlen))
        goto fail;
    if (!(l->feat = sl_features_new(fc, err, errlen)))
        goto fail;
    l->cap = l->L + l->T * l->C + l->R;
    l->memory = count_memory(l);
    return l;
fail:
    sl_labeler_free(l);
    return NULL;
}

sl_labeler *sl_labeler_new(const sl_model *m, const sl_labeler_config *cfg_in, char *err,
                           size_t errlen)
{
    sl_labeler *l = sl_labeler_plan(m, cfg_in, err, errlen);
    if (!l)
        return NULL;
    cfg_in = &l->cfg;
    /* A window the process cannot hold is refused before any of it is touched
     * (the decoder's and the extractor's pages are not yet): a model file of
     * a megabyte may ask for gigabytes per thread, and pages touched beyond
     * the memory there is bring the OOM killer, not an error. */
    const double have = sl_memory_available();
    if (have >= 0 && (double)l->memory > have) {
        char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
        if (err)
            snprintf(err, errlen,
                     "labeler: a window of %d frames on %d thread%s needs %s, more than the %s "
                     "of memory it may take (a shorter window, or fewer "
                     "threads)", l->W, l->T, l->T == 1 ? "" : "s",
                     sl_memory_shown_against(a, (double)l->memory, have),
                     sl_memory_shown_against(b, have, (double)l->memory));
        goto fail;
    }
    l->frames = malloc((size_t)l->cap * l->F * sizeof(float));
    l->slots = calloc((size_t)l->T, sizeof *l->slots);
    if (!l->frames || !l->slots)
        goto oom;
    if (!cfg_in->clip_edges) {
        if (!(l->silence = malloc((size_t)l->F * sizeof(float))))
            goto oom;
        if (sl_model_silence_frame(l->m, l->silence, err, errlen))
            goto fail;
    }
    for (int j = 0; j < l->T; j++) {
        if (!(l->slots[j].enc = sl_encoder_new(l->m, l->W, err, errlen)))
            goto fail;
        if (!(l->slots[j].probs = malloc((size_t)l->W * l->K * sizeof(float))))
            goto oom;
    }
    if (l->T > 1) {
        if (!(l->threads = calloc((size_t)l->T, sizeof *l->threads)))
            goto oom;
        for (int j = 1; j < l->T; j++) {
            sl_thread_arg *a = malloc(sizeof *a);
            if (!a)
                goto oom;
            a->l = l;
            a->index = j;
            if (pthread_create(&l->threads[j], NULL, worker_main, a) != 0) {
                free(a);
                if (err)
                    snprintf(err, errlen, "labeler: cannot start thread %d", j);
                goto fail;
            }
            l->nthreads_started = j;
        }
    }
    sl_labeler_reset(l);
    return l;
oom:
    if (err)
        snprintf(err, errlen, "labeler: out of memory");
fail:
    sl_labeler_free(l);
    return NULL;
}

void sl_labeler_free(sl_labeler *l)
{
    if (!l)
        return;
    if (l->nthreads_started > 0) {
        pthread_mutex_lock(&l->mu);
        l->quit = 1;
        pthread_cond_broadcast(&l->cv_work);
        pthread_mutex_unlock(&l->mu);
        for (int j = 1; j <= l->nthreads_started; j++)
            pthread_join(l->threads[j], NULL);
    }
    free(l->threads);
    if (l->slots)
        for (int j = 0; j < l->T; j++) {
            sl_encoder_free(l->slots[j].enc);
            free(l->slots[j].probs);
        }
    free(l->slots);
    free(l->frames);
    free(l->silence);
    sl_decoder_free(l->dec);
    sl_features_free(l->feat);
    pthread_mutex_destroy(&l->mu);
    pthread_cond_destroy(&l->cv_work);
    pthread_cond_destroy(&l->cv_done);
    free(l);
}

/* Unless clip_edges, appends silence frames until the buffer reaches frame
 * index `end`. */
static void pad_to(sl_labeler *l, int64_t end)
{
    while (l->silence && l->buf_base + l->buf_count < end) {
        memcpy(l->frames + (size_t)l->buf_count * l->F, l->silence, (size_t)l->F * sizeof(float));
        l->buf_count++;
    }
}

void sl_labeler_reset(sl_labeler *l)
{
    if (!l || l->busy) /* from a sink's callback: its push or finish is mid-way (see the header) */
        return;
    l->stopped = 0;
    sl_features_reset(l->feat);
    sl_decoder_reset(l->dec);
    l->buf_base = l->silence ? -l->L : 0; /* silence: the first window's left context */
    l->buf_count = 0;
    pad_to(l, 0);
    l->total = 0;
    l->next_block = 0;
    l->emitted = 0;
    l->stop_rc = 0;
}

/* Labels blocks next_block .. next_block + n - 1 (the window ends are clipped
 * to the frames received, or filled out with silence frames, which only matters
 * at end of stream), feeds their cores to the decoder in order, and drops frames
 * no later block needs. */
static int run_blocks(sl_labeler *l, int n)
{
    int64_t C = l->C;
    pad_to(l, (l->next_block + n) * C + l->R); /* only at end of stream does this add any */
    for (int j = 0; j < n; j++) {
        int64_t k = l->next_block + j;
        int64_t ws = k * C - l->L;
        int64_t we = (k + 1) * C + l->R;
        if (ws < l->buf_base)
            ws = l->buf_base;
        if (we > l->buf_base + l->buf_count)
            we = l->buf_base + l->buf_count;
        l->slots[j].win_start = ws;
        l->slots[j].win_len = (int)(we - ws);
    }
    if (n > 1) {
        pthread_mutex_lock(&l->mu);
        l->njobs = n;
        l->pending = n - 1;
        l->generation++;
        pthread_cond_broadcast(&l->cv_work);
        pthread_mutex_unlock(&l->mu);
    }
    run_slot(l, 0);
    if (n > 1) {
        pthread_mutex_lock(&l->mu);
        while (l->pending > 0)
            pthread_cond_wait(&l->cv_done, &l->mu);
        pthread_mutex_unlock(&l->mu);
    }
    for (int j = 0; j < n; j++) {
        sl_worker_slot *s = &l->slots[j];
        if (s->rc) {
            if (l->err)
                snprintf(l->err, l->errlen, "labeler: the encoder refused a window of %d frames",
                         s->win_len);
            return -1;
        }
        int64_t k = l->next_block + j;
        int64_t cs = k * C, ce = (k + 1) * C;
        if (ce > l->total)
            ce = l->total;
        for (int64_t f = cs; f < ce; f++) {
            int rc = sl_decoder_push(l->dec, s->probs + (size_t)(f - s->win_start) * l->K, l->sink);
            if (rc) {
                l->stop_rc = rc;
                return rc;
            }
        }
    }
    l->next_block += n;
    int64_t keep_from = l->next_block * C - l->L;
    if (keep_from > l->buf_base + l->buf_count)
        keep_from = l->buf_base + l->buf_count;
    int drop = (int)(keep_from - l->buf_base);
    if (drop > 0) {
        l->buf_count -= drop;
        memmove(l->frames, l->frames + (size_t)drop * l->F, (size_t)l->buf_count * l->F * sizeof(float));
        l->buf_base = keep_from;
    }
    return 0;
}

/* Blocks whose window is complete (their lookahead has arrived). */
static int64_t ready_blocks(const sl_labeler *l)
{
    int64_t avail = l->total - l->R;
    if (avail < l->C)
        return 0;
    return avail / l->C - l->next_block;
}

static int on_feature_frame(void *user, int64_t index, const float *frame, int dim)
{
    sl_labeler *l = user;
    (void)index;
    /* At its own index: over any silence frames a failed finish left behind. */
    int at = (int)(l->total - l->buf_base);
    float *dst = l->frames + (size_t)at * l->F;
    memcpy(dst, frame, (size_t)dim * sizeof(float));
    sl_normalize(dst, l->mean, l->inv_std, dim);
    l->buf_count = at + 1;
    l->total++;
    if (ready_blocks(l) >= l->T) {
        int rc = run_blocks(l, l->T);
        if (rc)
            return rc;
    }
    return 0;
}

/* Runs every block that is ready (or, at end of stream, every block left). */
static int drain(sl_labeler *l, int at_end)
{
    for (;;) {
        int64_t n = at_end ? (l->total - l->next_block * l->C + l->C - 1) / l->C : ready_blocks(l);
        if (n <= 0)
            return 0;
        int rc = run_blocks(l, n > l->T ? l->T : (int)n);
        if (rc)
            return rc;
    }
}

static int finish_call(sl_labeler *l, int rc)
{
    if (rc && l->stop_rc) {
        /* not the caller's earlier message: said what stopped it */
        if (l->err)
            snprintf(l->err, l->errlen, "labeler: stopped by its sink (a callback returned %d)",
                     l->stop_rc);
        rc = l->stop_rc;
        l->stopped = 1;
    }
    l->sink = NULL;
    l->err = NULL;
    l->busy = 0;
    return rc;
}

/* A push or finish may begin: not from the labeler's own sink (its state is
 * mid-way), nor after a sink stopped one before, until a reset; else -1. */
static int may_call(sl_labeler *l, const char *what, char *err, size_t errlen)
{
    if (l->busy) {
        if (err)
            snprintf(err, errlen, "labeler: %s called from its own sink's callback: return "
                     "non-zero there to stop, then reset", what);
        return -1;
    }
    if (l->stopped) {
        if (err)
            snprintf(err, errlen, "labeler: %s after its sink stopped the last call: reset "
                     "it first (sl_labeler_reset)", what);
        return -1;
    }
    return 0;
}

/* The decoder counts emitted frames through this wrapper sink. */
typedef struct {
    sl_labeler *l;
    const sl_label_sink *outer;
} sl_counting_sink;

static int counting_on_frame(void *user, int64_t index, int label, float confidence,
                             const float *probs, int n_classes)
{
    sl_counting_sink *c = user;
    c->l->emitted = index + 1;
    if (c->outer && c->outer->on_frame)
        return c->outer->on_frame(c->outer->user, index, label, confidence, probs, n_classes);
    return 0;
}

static int counting_on_segment(void *user, int64_t start, int64_t end, int label, float conf)
{
    sl_counting_sink *c = user;
    if (c->outer && c->outer->on_segment)
        return c->outer->on_segment(c->outer->user, start, end, label, conf);
    return 0;
}

/* One push or finish: the caller's sink behind the counting wrapper, and the
 * caller's error buffer, held by the labeler until finish_call. */
typedef struct {
    sl_counting_sink cs;
    sl_label_sink wrap;
} sl_call;

static void begin_call(sl_labeler *l, sl_call *call, const sl_label_sink *sink, char *err,
                       size_t errlen)
{
    call->cs = (sl_counting_sink){l, sink};
    call->wrap = (sl_label_sink){&call->cs, counting_on_frame, counting_on_segment};
    l->sink = &call->wrap;
    l->err = err;
    l->errlen = errlen;
    l->stop_rc = 0;
    l->busy = 1;
}

/* Float samples (rounded to the 16-bit grid) or, with s16 set, 16-bit ones
 * into the model, a block at a time through s16_buf. The blocks that are ready
 * then run once the whole push is in, T at a time where T are ready (the
 * frames' callback runs T as soon as T are), so threads share whole pushes: a
 * drain after each 4096-sample piece ran every block alone, and a second
 * thread never had one. A push of no samples drains what earlier pushes left. */
static int push_samples(sl_labeler *l, const float *pcm, const int16_t *s16, size_t n,
                        const sl_label_sink *sink, char *err, size_t errlen)
{
    if (may_call(l, s16 ? "sl_labeler_push_s16" : "sl_labeler_push", err, errlen))
        return -1;
    if (n && !pcm && !s16) {
        if (err)
            snprintf(err, errlen, "labeler: %zu samples pushed from NULL", n);
        return -1;
    }
    /* refused whole, as the header says, not after the blocks before it went in */
    if (pcm && sl_check_finite(pcm, n, sl_labeler_samples_pushed(l), err, errlen))
        return -1;
    sl_call call;
    begin_call(l, &call, sink, err, errlen);
    int rc = 0;
    for (size_t done = 0; done < n && !rc;) {
        size_t b = n - done < S16_BLOCK ? n - done : S16_BLOCK;
        if (s16)
            for (size_t i = 0; i < b; i++)
                l->s16_buf[i] = (float)s16[done + i] * (1.0f / 32768.0f);
        else
            sl_quantize_s16(pcm + done, l->s16_buf, b);
        rc = sl_features_push(l->feat, l->s16_buf, b, on_feature_frame, l, err, errlen);
        done += b;
    }
    if (!rc)
        rc = drain(l, 0);
    return finish_call(l, rc);
}

int sl_labeler_push(sl_labeler *l, const float *pcm, size_t n, const sl_label_sink *sink,
                    char *err, size_t errlen)
{
    return push_samples(l, pcm, NULL, n, sink, err, errlen);
}

int sl_labeler_push_s16(sl_labeler *l, const int16_t *pcm, size_t n, const sl_label_sink *sink,
                        char *err, size_t errlen)
{
    return push_samples(l, NULL, pcm, n, sink, err, errlen);
}

int sl_labeler_finish(sl_labeler *l, const sl_label_sink *sink, char *err, size_t errlen)
{
    if (may_call(l, "sl_labeler_finish", err, errlen))
        return -1;
    sl_call call;
    begin_call(l, &call, sink, err, errlen);
    int rc = drain(l, 1);
    if (!rc && (rc = sl_decoder_finish(l->dec, &call.wrap)) != 0)
        l->stop_rc = rc; /* only a sink stops the decoder's finish */
    rc = finish_call(l, rc);
    if (!rc)
        sl_labeler_reset(l);
    return rc;
}

size_t sl_labeler_memory_bytes(const sl_labeler *l) { return l->memory; }

int64_t sl_labeler_latency_samples(const sl_labeler *l)
{
    return (int64_t)l->flen - l->hop +
           ((int64_t)l->C - 1 + l->R + sl_decoder_delay_frames(l->dec)) * l->hop;
}

int sl_labeler_sample_rate(const sl_labeler *l) { return l->rate; }
int sl_labeler_frame_shift(const sl_labeler *l) { return l->hop; }
int sl_labeler_frame_length(const sl_labeler *l) { return l->flen; }
int sl_labeler_num_classes(const sl_labeler *l) { return l->K; }
const sl_model *sl_labeler_model(const sl_labeler *l) { return l->m; }
int sl_labeler_retune(sl_labeler *l, float switch_penalty, float on_threshold,
                      float off_threshold, char *err, size_t errlen)
{
    return sl_decoder_retune(l->dec, switch_penalty, on_threshold, off_threshold, err, errlen);
}
int64_t sl_labeler_samples_pushed(const sl_labeler *l) { return sl_features_samples_seen(l->feat); }

int64_t sl_frame_start_sample(int64_t f, int hop, int rate, int model_rate)
{
    /* exact while the result fits: f * hop samples at model_rate split into
     * whole seconds' worth and the rest, so no product nears 2^63 first */
    const int64_t at_model = f * hop;
    return at_model / model_rate * rate + at_model % model_rate * rate / model_rate;
}

int64_t sl_labeler_frames_emitted(const sl_labeler *l) { return l->emitted; }

void sl_labeler_window(const sl_labeler *l, int *window, int *left_context, int *lookahead,
                       int *core)
{
    if (window)
        *window = l->W;
    if (left_context)
        *left_context = l->L;
    if (lookahead)
        *lookahead = l->R;
    if (core)
        *core = l->C;
}
