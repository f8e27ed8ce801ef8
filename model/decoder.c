/* The decoder: per-frame class probabilities -> labels -> segments.
 *
 * Five stages run one after another on each frame (see seqlabel.h); each one
 * may hold a bounded number of frames, so the whole decoder has a fixed worst
 * delay (sl_decoder_delay_frames) and constant memory for endless input. A
 * frame's probabilities stay in a ring until its final label is emitted, so the
 * sink always gets the encoder's probabilities next to the decided label. */
#include <limits.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/text.h"

#define SL_MAX_DECODER_FRAMES 1000000 /* any delay above this is a settings mistake */

struct sl_decoder {
    sl_decoder_config cfg;
    int K;
    int lag;           /* stage 1 delay (0 without smoothing) */
    int max_min;       /* longest minimum duration, frames */
    int min_frames[SL_MAX_CLASSES];
    int pad_before, pad_after;
    int delay;         /* sum of the stages' worst delays */

    /* Probabilities of the frames not yet emitted: frame f at slot f % ring_len. */
    float *probs_ring;
    int ring_len;
    int64_t next_in; /* index of the next pushed frame */

    /* Stage 1: Viterbi scores (log domain, kept near 0 by subtracting the max);
     * back-pointers, log-probabilities and switch penalties of the last lag+1
     * frames (frame f at row f % (lag+1)), kept to run the lag again from a
     * label change given out; that label (-1 before the first frame). */
    double *score, *score_new;
    uint16_t *backptr;
    double *log_probs, *penalty;
    int given;
    int *path; /* scratch for the end-of-stream traceback, lag + 1 labels */

    /* Stage 2: hysteresis state of the target class. */
    int target_on;

    /* Stage 3: the accepted label and the run waiting to reach its minimum. */
    int committed;
    int pend_label;
    int64_t pend_start;
    int pend_len;

    /* Stage 4: the last pad_before frames (labels, frame f at f % (pad_before+1))
     * and frames since the last target frame. */
    int *pad_queue;
    int64_t pad_first; /* index of the oldest queued frame */
    int pad_count;
    int64_t since_target;

    /* Stage 5: the open segment. */
    int seg_label;
    int64_t seg_start;
    double seg_conf_sum;
    int64_t next_out;
};

void sl_decoder_config_default(sl_decoder_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->smoothing = SL_SMOOTH_VITERBI;
    cfg->switch_penalty = 5.0f;
    cfg->smoothing_lag = -1;
    cfg->target_class = -1;
    cfg->on_threshold = 0.5f;
    cfg->off_threshold = 0.35f;
}

/* The fewest whole frames that last s: a minimum of s keeps no shorter run, a
 * padding of s covers at least s. What lies within a float's precision of a
 * whole count is that count (0.3f is 0.30000001 s, 30 frames; 0.015 s is 2). */
static int seconds_to_frames(double s, double fps)
{
    return (int)ceil(s * fps * (1.0 - 1e-6));
}

static int check_seconds(const char *what, double s, char *err, size_t errlen)
{
    if (!(s >= 0.0 && s <= 3600.0)) {
        if (err)
            snprintf(err, errlen, "decoder: %s %g s is not in [0, 3600]", what, s);
        return -1;
    }
    return 0;
}

static int check_penalty(float penalty, char *err, size_t errlen)
{
    if (!(penalty >= 0.0f && penalty <= 1e6f)) {
        if (err)
            snprintf(err, errlen, "decoder: switch penalty %g is not in [0, 1e6]", penalty);
        return -1;
    }
    return 0;
}

static int check_thresholds(float on, float off, char *err, size_t errlen)
{
    if (!(on >= 0.0f && on <= 1.0f && off >= 0.0f && off <= on)) {
        if (err)
            snprintf(err, errlen, "decoder: thresholds need 0 <= off (%g) <= on (%g) <= 1", off, on);
        return -1;
    }
    return 0;
}

sl_decoder *sl_decoder_new(const sl_decoder_config *cfg, int n_classes, double frames_per_second,
                           char *err, size_t errlen)
{
    if (n_classes < 1 || n_classes > SL_MAX_CLASSES) {
        if (err)
            snprintf(err, errlen, "decoder: %d classes is not in [1, %d]", n_classes, SL_MAX_CLASSES);
        return NULL;
    }
    if (!(frames_per_second > 0.0 && frames_per_second < 1e6)) {
        if (err)
            snprintf(err, errlen, "decoder: frame rate %g is not in (0, 1e6) frames a second",
                     frames_per_second);
        return NULL;
    }
    if (cfg->smoothing != SL_SMOOTH_NONE && cfg->smoothing != SL_SMOOTH_VITERBI) {
        if (err)
            snprintf(err, errlen, "decoder: unknown smoothing %d", (int)cfg->smoothing);
        return NULL;
    }
    if (cfg->smoothing == SL_SMOOTH_VITERBI && check_penalty(cfg->switch_penalty, err, errlen))
        return NULL;
    if (cfg->smoothing == SL_SMOOTH_VITERBI &&
        (cfg->smoothing_lag < -1 || cfg->smoothing_lag > SL_MAX_DECODER_FRAMES)) {
        if (err)
            snprintf(err, errlen, "decoder: smoothing lag %d out of range", cfg->smoothing_lag);
        return NULL;
    }
    if (cfg->target_class < -1 || cfg->target_class >= n_classes) {
        if (err)
            snprintf(err, errlen, "decoder: target class %d is not a class (0..%d)",
                     cfg->target_class, n_classes - 1);
        return NULL;
    }
    if (cfg->target_class >= 0 &&
        check_thresholds(cfg->on_threshold, cfg->off_threshold, err, errlen))
        return NULL;
    if (check_seconds("pad before", cfg->pad_before_s, err, errlen) ||
        check_seconds("pad after", cfg->pad_after_s, err, errlen))
        return NULL;
    for (int k = 0; k < n_classes; k++)
        if (check_seconds("minimum duration", cfg->min_duration_s[k], err, errlen))
            return NULL;

    sl_decoder *d = calloc(1, sizeof *d);
    if (!d)
        goto oom;
    d->cfg = *cfg;
    d->K = n_classes;
    d->lag = cfg->smoothing != SL_SMOOTH_VITERBI ? 0
             : cfg->smoothing_lag < 0               ? SL_SMOOTHING_LAG_DEFAULT
                                                    : cfg->smoothing_lag;
    d->max_min = 1;
    for (int k = 0; k < n_classes; k++) {
        int f = seconds_to_frames(cfg->min_duration_s[k], frames_per_second);
        d->min_frames[k] = f < 1 ? 1 : f;
        if (d->min_frames[k] > d->max_min)
            d->max_min = d->min_frames[k];
    }
    if (cfg->target_class >= 0) {
        d->pad_before = seconds_to_frames(cfg->pad_before_s, frames_per_second);
        d->pad_after = seconds_to_frames(cfg->pad_after_s, frames_per_second);
    }
    d->delay = d->lag + (d->max_min - 1) + d->pad_before;
    d->ring_len = d->delay + 1;
    d->probs_ring = malloc((size_t)d->ring_len * n_classes * sizeof(float));
    d->score = malloc((size_t)n_classes * sizeof(double));
    d->score_new = malloc((size_t)n_classes * sizeof(double));
    d->backptr = malloc((size_t)(d->lag + 1) * n_classes * sizeof(uint16_t));
    d->log_probs = malloc((size_t)(d->lag + 1) * n_classes * sizeof(double));
    d->penalty = malloc((size_t)(d->lag + 1) * sizeof(double));
    d->path = malloc((size_t)(d->lag + 1) * sizeof(int));
    d->pad_queue = malloc((size_t)(d->pad_before + 1) * sizeof(int));
    if (!d->probs_ring || !d->score || !d->score_new || !d->backptr || !d->log_probs ||
        !d->penalty || !d->path || !d->pad_queue) {
        sl_decoder_free(d);
        goto oom;
    }
    sl_decoder_reset(d);
    return d;
oom:
    if (err)
        snprintf(err, errlen, "decoder: out of memory");
    return NULL;
}

size_t sl_decoder_memory_bytes(const sl_decoder *d)
{
    const size_t K = (size_t)d->K, lag = (size_t)d->lag + 1;
    return sizeof *d + (size_t)d->ring_len * K * sizeof(float) + 2 * K * sizeof(double) +
           lag * (K * (sizeof(uint16_t) + sizeof(double)) + sizeof(double) + sizeof(int)) +
           ((size_t)d->pad_before + 1) * sizeof(int);
}

void sl_decoder_free(sl_decoder *d)
{
    if (!d)
        return;
    free(d->probs_ring);
    free(d->score);
    free(d->score_new);
    free(d->backptr);
    free(d->log_probs);
    free(d->penalty);
    free(d->path);
    free(d->pad_queue);
    free(d);
}

void sl_decoder_reset(sl_decoder *d)
{
    if (!d)
        return;
    d->next_in = 0;
    d->given = -1;
    d->target_on = 0;
    d->committed = -1;
    d->pend_len = 0;
    d->pad_count = 0;
    d->since_target = INT64_MAX / 2;
    d->seg_label = -1;
    d->seg_conf_sum = 0.0;
    d->next_out = 0;
}

int sl_decoder_delay_frames(const sl_decoder *d)
{
    return d->delay;
}

int sl_decoder_retune(sl_decoder *d, float switch_penalty, float on_threshold,
                      float off_threshold, char *err, size_t errlen)
{
    /* the thresholds shape the target class alone, as sl_decoder_new checks them */
    if (check_penalty(switch_penalty, err, errlen) ||
        (d->cfg.target_class >= 0 && check_thresholds(on_threshold, off_threshold, err, errlen)))
        return -1;
    d->cfg.switch_penalty = switch_penalty;
    d->cfg.on_threshold = on_threshold;
    d->cfg.off_threshold = off_threshold;
    return 0;
}

static const float *frame_probs(const sl_decoder *d, int64_t f)
{
    return d->probs_ring + (size_t)(f % d->ring_len) * d->K;
}

/* ---- stage 5: emit a frame, grow or close segments ---- */
static int emit_frame(sl_decoder *d, int64_t f, int label, const sl_label_sink *sink)
{
    const float *p = frame_probs(d, f);
    float conf = p[label];
    int rc = 0;
    if (label != d->seg_label) {
        if (d->seg_label >= 0 && sink && sink->on_segment)
            rc = sink->on_segment(sink->user, d->seg_start, f, d->seg_label,
                                  (float)(d->seg_conf_sum / (double)(f - d->seg_start)));
        d->seg_label = label;
        d->seg_start = f;
        d->seg_conf_sum = 0.0;
        if (rc)
            return rc;
    }
    d->seg_conf_sum += conf;
    d->next_out = f + 1;
    if (sink && sink->on_frame)
        return sink->on_frame(sink->user, f, label, conf, p, d->K);
    return 0;
}

/* ---- stage 4: padding of the target class ---- */
static int pad_pop(sl_decoder *d, const sl_label_sink *sink)
{
    int64_t f = d->pad_first;
    int label = d->pad_queue[f % (d->pad_before + 1)];
    d->pad_first++;
    d->pad_count--;
    return emit_frame(d, f, label, sink);
}

static int stage_pad(sl_decoder *d, int64_t f, int label, const sl_label_sink *sink)
{
    int t = d->cfg.target_class;
    if (t < 0)
        return emit_frame(d, f, label, sink);
    if (label == t) {
        for (int64_t g = d->pad_first; g < d->pad_first + d->pad_count; g++)
            d->pad_queue[g % (d->pad_before + 1)] = t;
        d->since_target = 0;
    } else {
        d->since_target++;
        if (d->since_target <= d->pad_after)
            label = t;
    }
    if (d->pad_count == 0)
        d->pad_first = f;
    d->pad_queue[f % (d->pad_before + 1)] = label;
    d->pad_count++;
    if (d->pad_count > d->pad_before)
        return pad_pop(d, sink);
    return 0;
}

/* ---- stage 3: minimum durations ---- */
static int flush_pending(sl_decoder *d, int label, const sl_label_sink *sink)
{
    for (int i = 0; i < d->pend_len; i++) {
        int rc = stage_pad(d, d->pend_start + i, label, sink);
        if (rc) {
            d->pend_start += i + 1;
            d->pend_len -= i + 1;
            return rc;
        }
    }
    d->pend_len = 0;
    return 0;
}

static int stage_min_duration(sl_decoder *d, int64_t f, int label, const sl_label_sink *sink)
{
    int rc;
    if (d->committed < 0) { /* the first run of a stream is accepted at once */
        d->committed = label;
        return stage_pad(d, f, label, sink);
    }
    if (d->pend_len > 0) {
        if (label == d->pend_label) {
            d->pend_len++;
            if (d->pend_len >= d->min_frames[label]) {
                d->committed = label;
                return flush_pending(d, label, sink);
            }
            return 0;
        }
        /* The waiting run ended too short: it becomes the accepted label. */
        if ((rc = flush_pending(d, d->committed, sink)))
            return rc;
    }
    if (label == d->committed)
        return stage_pad(d, f, label, sink);
    if (d->min_frames[label] <= 1) {
        d->committed = label;
        return stage_pad(d, f, label, sink);
    }
    d->pend_label = label;
    d->pend_start = f;
    d->pend_len = 1;
    return 0;
}

/* ---- stage 2: target-class hysteresis ---- */
static int best_non_target(const float *p, int K, int t)
{
    int best = -1;
    for (int k = 0; k < K; k++)
        if (k != t && (best < 0 || p[k] > p[best]))
            best = k;
    return best < 0 ? t : best;
}

static int stage_hysteresis(sl_decoder *d, int64_t f, int label, const sl_label_sink *sink)
{
    int t = d->cfg.target_class;
    if (t >= 0) {
        const float *p = frame_probs(d, f);
        if (d->target_on)
            d->target_on = p[t] >= d->cfg.off_threshold;
        else
            d->target_on = p[t] >= d->cfg.on_threshold;
        if (d->target_on)
            label = t;
        else if (label == t)
            label = best_non_target(p, d->K, t);
    }
    return stage_min_duration(d, f, label, sink);
}

/* ---- stage 1: argmax or fixed-lag Viterbi ---- */
/* A NaN counts as 0, as log_prob takes it: never the label while a class has a
 * number. */
static int argmax(const float *p, int K)
{
    int best = 0;
    for (int k = 1; k < K; k++)
        if (p[k] > p[best] || (isnan(p[best]) && !isnan(p[k])))
            best = k;
    return best;
}

static int argmax_d(const double *s, int K)
{
    int best = 0;
    for (int k = 1; k < K; k++)
        if (s[k] > s[best])
            best = k;
    return best;
}

static double log_prob(float p)
{
    return log(p > 1e-30f ? (double)p : 1e-30);
}

/* One Viterbi step into frame f, from the scores of frame f - 1 and frame f's
 * stored log-probabilities and penalty: the best path into class k either
 * stays in k or comes from the best class of the previous frame paying the
 * penalty (one uniform penalty makes the step O(K) instead of O(K^2)). Ties
 * keep the label. */
static void viterbi_step(sl_decoder *d, int64_t f)
{
    int K = d->K;
    size_t row = (size_t)(f % (d->lag + 1));
    uint16_t *bp = d->backptr + row * K;
    const double *lp = d->log_probs + row * K;
    int best = argmax_d(d->score, K);
    double from_best = d->score[best] - d->penalty[row];
    double top = -INFINITY;
    for (int k = 0; k < K; k++) {
        double stay = d->score[k];
        if (stay >= from_best) {
            d->score_new[k] = stay;
            bp[k] = (uint16_t)k;
        } else {
            d->score_new[k] = from_best;
            bp[k] = (uint16_t)best;
        }
        d->score_new[k] += lp[k];
        if (d->score_new[k] > top)
            top = d->score_new[k];
    }
    for (int k = 0; k < K; k++)
        d->score[k] = d->score_new[k] - top;
}

/* Stores frame f's log-probabilities and the penalty of a switch into it (the
 * one in force now, so a retune prices only later frames), then steps. */
static void viterbi_push(sl_decoder *d, int64_t f, const float *p)
{
    int K = d->K;
    size_t row = (size_t)(f % (d->lag + 1));
    double *lp = d->log_probs + row * K;
    for (int k = 0; k < K; k++)
        lp[k] = log_prob(p[k]);
    d->penalty[row] = d->cfg.switch_penalty;
    if (f > 0) {
        viterbi_step(d, f);
        return;
    }
    for (int k = 0; k < K; k++) {
        d->score[k] = lp[k];
        d->backptr[row * K + k] = (uint16_t)k;
    }
}

/* Runs the frames after `from` again with only the paths through label k at
 * `from`: the scores start there as k's alone (the others out of reach). */
static void viterbi_restart(sl_decoder *d, int64_t from, int k, int64_t to)
{
    for (int j = 0; j < d->K; j++)
        d->score[j] = j == k ? 0.0 : -1e300;
    for (int64_t f = from + 1; f <= to; f++)
        viterbi_step(d, f);
}

/* Follows back-pointers from class k at frame `from` down to frame `to`,
 * writing path[i] = label of frame to + i. */
static void traceback(const sl_decoder *d, int64_t from, int k, int64_t to, int *path)
{
    for (int64_t f = from; f >= to; f--) {
        path[f - to] = k;
        k = d->backptr[(size_t)(f % (d->lag + 1)) * d->K + k];
    }
}

int sl_decoder_push(sl_decoder *d, const float *probs, const sl_label_sink *sink)
{
    int64_t f = d->next_in++;
    memcpy(d->probs_ring + (size_t)(f % d->ring_len) * d->K, probs, (size_t)d->K * sizeof(float));
    if (d->cfg.smoothing == SL_SMOOTH_NONE)
        return stage_hysteresis(d, f, argmax(probs, d->K), sink);
    viterbi_push(d, f, probs);
    int64_t decided = f - d->lag;
    if (decided < 0)
        return 0;
    /* Fixed lag: frame f - lag takes its label from the best path ending now. */
    traceback(d, f, argmax_d(d->score, d->K), decided, d->path);
    int k = d->path[0];
    /* A label change, once given out, binds the paths that decide later
     * frames: only those through it count from then on. Otherwise the best
     * paths of two successive frames can disagree about the frames before
     * them, and where they take turns (a pause as long as the lag, weighed
     * near even) a frame or two of flicker came out between them, each a
     * segment, with no path paying for its switches. Within a run of one
     * label the paths stay free, so a change can still be placed back where
     * the evidence for it began. */
    if (k != d->given) {
        d->given = k;
        viterbi_restart(d, decided, k, f);
    }
    return stage_hysteresis(d, decided, k, sink);
}

int sl_decoder_finish(sl_decoder *d, const sl_label_sink *sink)
{
    int rc = 0;
    int64_t n = d->next_in;
    if (d->cfg.smoothing == SL_SMOOTH_VITERBI && n > 0) {
        /* The frames still undecided follow the best complete path. */
        int64_t first = n - d->lag < 0 ? 0 : n - d->lag;
        if (first < n) {
            traceback(d, n - 1, argmax_d(d->score, d->K), first, d->path);
            for (int64_t f = first; f < n && !rc; f++)
                rc = stage_hysteresis(d, f, d->path[f - first], sink);
        }
    }
    if (!rc && d->pend_len > 0)
        rc = flush_pending(d, d->committed, sink);
    while (!rc && d->pad_count > 0)
        rc = pad_pop(d, sink);
    if (!rc && d->seg_label >= 0 && sink && sink->on_segment)
        rc = sink->on_segment(sink->user, d->seg_start, d->next_out, d->seg_label,
                              (float)(d->seg_conf_sum / (double)(d->next_out - d->seg_start)));
    sl_decoder_reset(d);
    return rc;
}

int sl_decoder_parse_min_durations(sl_decoder_config *cfg, const sl_model *m, const char *spec,
                                   char *err, size_t errlen)
{
    const char *s = spec;
    float values[SL_MAX_CLASSES];
    unsigned char named[SL_MAX_CLASSES] = {0};
    double rest = -1.0; /* '*': every class the spec does not name */
    memcpy(values, cfg->min_duration_s, sizeof values);
    while (*s) {
        while (isspace((unsigned char)*s)) /* blanks around an item, as --skip 'a, b' */
            s++;
        const char *comma = strchr(s, ',');
        if (!comma)
            comma = s + strlen(s);
        /* the last '=': a model made before names were kept free of '=' may
         * have a class a=b (a duration holds none) */
        const char *eq = memrchr(s, '=', (size_t)(comma - s));
        if (!eq || eq > comma || eq == s) {
            if (err)
                snprintf(err, errlen, "minimum durations '%s': expected class=seconds[,class=seconds...]",
                         spec);
            return -1;
        }
        char name[SL_MAX_CLASS_NAME * 4 + 1]; /* (NFD, as macOS types it, is longer) */
        size_t nlen = (size_t)(eq - s);
        int k = -1;
        if (nlen < sizeof name) {
            memcpy(name, s, nlen);
            name[nlen] = '\0';
            k = sl_model_class_index(m, name);
            if (k < 0 && !strcmp(name, "*"))
                k = SL_MAX_CLASSES; /* the rest (a class named '*' is itself) */
        }
        if (k < 0) {
            if (err)
                snprintf(err, errlen, "minimum durations '%s': the model has no class '%.*s'", spec,
                         (int)(nlen > 64 ? 64 : nlen), s);
            return -1;
        }
        char num[64];
        size_t vlen = (size_t)(comma - eq - 1);
        char *end = NULL;
        double v = -1.0;
        if (vlen > 0 && vlen < sizeof num) {
            memcpy(num, eq + 1, vlen);
            num[vlen] = '\0';
            v = sl_strtod_c(num, &end);
            while (isspace((unsigned char)*end))
                end++;
            /* seconds as a person writes them (no blank between '=' and them) */
            if (*end != '\0' || !sl_number_as_written(num))
                v = -1.0;
        }
        if (!(v >= 0.0 && v <= 3600.0)) {
            if (err)
                snprintf(err, errlen, "minimum durations '%s': '%.*s' is not a duration in seconds "
                         "in [0, 3600]", spec, (int)(vlen > 64 ? 64 : vlen), eq + 1);
            return -1;
        }
        if (k == SL_MAX_CLASSES ? rest >= 0.0 : named[k]++) { /* speech=0.2,speech=0.5:
                                                               * which was meant is asked */
            if (err)
                snprintf(err, errlen, "minimum durations '%s': class '%s' given twice", spec, name);
            return -1;
        }
        if (k == SL_MAX_CLASSES)
            rest = v;
        else
            values[k] = (float)v;
        s = *comma ? comma + 1 : comma;
        if (*comma && !*s) {
            if (err)
                snprintf(err, errlen, "minimum durations '%s': trailing comma", spec);
            return -1;
        }
    }
    for (int k = 0; rest >= 0.0 && k < sl_model_get_config(m)->n_classes; k++)
        if (!named[k])
            values[k] = (float)rest;
    memcpy(cfg->min_duration_s, values, sizeof values);
    return 0;
}
