/* A class's threshold sweep (`seqlabel eval --sweep CLASS`): its probability
 * binned against the truth, every 0.05 of threshold's figures, and with events
 * each threshold's event figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/trainer_internal.h"
#include "common/text.h"

/* Bin edge b as the decoder holds a threshold: a float (--on-threshold 0.7 is
 * 0.7f, the same float for every edge's three decimals). */
static float bin_edge(int b)
{
    return (float)((double)b / SL_SWEEP_BINS);
}

/* The bin of probability p: the last edge it reaches as the decoder compares,
 * p >= threshold in float, so that a frame of probability 0.7f (a label file's
 * "0.7") counts at threshold 0.7 as it is labelled there, and one just below
 * does not. */
static int sweep_bin(double p)
{
    const float pf = (float)p;
    int b = (int)(p * SL_SWEEP_BINS); /* p in [0, 1]: b in [0, BINS] */
    b = b < 0 ? 0 : b >= SL_SWEEP_BINS ? SL_SWEEP_BINS - 1 : b;
    while (b + 1 < SL_SWEEP_BINS && pf >= bin_edge(b + 1))
        b++;
    while (b > 0 && pf < bin_edge(b))
        b--;
    return b;
}

void sl_sweep_count(sl_sweep *s, double p, int is_target)
{
    int b = sweep_bin(p);
    if (is_target)
        s->pos[b]++;
    else
        s->neg[b]++;
}

/* A point's frame figures from its counts: the class's frames called it (tp),
 * the other frames called it (fp), and the frames of the class and others. */
typedef struct {
    double threshold, off_threshold; /* off_threshold: with the decoder alone */
    double precision, recall, f1, false_alarm, miss;
    int has_pos, has_neg; /* frames of the class, of the others: recall and miss,
                             false alarms, need them */
    int has_called;       /* frames called the class: precision needs them */
} sweep_row;

static void figures(int64_t tp, int64_t fp, int64_t pos, int64_t neg, sweep_row *r)
{
    r->precision = tp + fp ? (double)tp / (double)(tp + fp) : 0.0;
    r->recall = pos ? (double)tp / (double)pos : 0.0;
    r->f1 = r->precision + r->recall > 0
                ? 2.0 * r->precision * r->recall / (r->precision + r->recall)
                : 0.0;
    r->false_alarm = neg ? (double)fp / (double)neg : 0.0;
    r->miss = pos ? 1.0 - r->recall : 0.0;
    r->has_pos = pos > 0;
    r->has_neg = neg > 0;
    r->has_called = tp + fp > 0;
}

/* Frames of the class (pos) and others (neg), and those at or above bin edge b. */
static void bin_counts(const sl_sweep *s, int b, int64_t *tp, int64_t *fp, int64_t *pos,
                       int64_t *neg)
{
    *tp = *fp = *pos = *neg = 0;
    for (int k = 0; k < SL_SWEEP_BINS; k++) {
        *pos += s->pos[k];
        *neg += s->neg[k];
        if (k >= b) {
            *tp += s->pos[k];
            *fp += s->neg[k];
        }
    }
}

static sweep_row bin_row(const sl_sweep *s, int b)
{
    int64_t tp, fp, pos, neg;
    bin_counts(s, b, &tp, &fp, &pos, &neg);
    sweep_row r = {.threshold = (double)b / SL_SWEEP_BINS};
    figures(tp, fp, pos, neg, &r);
    return r;
}

void sl_sweep_point(const sl_sweep *s, int b, double *precision, double *recall, double *f1,
                    double *false_alarm, double *miss)
{
    sweep_row r = bin_row(s, b);
    if (precision)
        *precision = r.precision;
    if (recall)
        *recall = r.recall;
    if (f1)
        *f1 = r.f1;
    if (false_alarm)
        *false_alarm = r.false_alarm;
    if (miss)
        *miss = r.miss;
}

void sl_sweep_best(const sl_sweep *s, int *best_f1, int *equal_error)
{
    double best = -1.0, closest = 2.0;
    for (int b = 0; b <= SL_SWEEP_BINS; b++) {
        sweep_row r = bin_row(s, b);
        if (r.f1 > best) {
            best = r.f1;
            *best_f1 = b;
        }
        if (fabs(r.false_alarm - r.miss) < closest) {
            closest = fabs(r.false_alarm - r.miss);
            *equal_error = b;
        }
    }
}

/* The table's thresholds: every 0.05 from 0.05 to 0.95, point i at bin edge
 * (i + 1) * SWEEP_STEP. */
#define SWEEP_STEP (SL_SWEEP_BINS / (SL_SWEEP_POINTS + 1))

int sl_sweep_init_events(sl_sweep *s, const sl_events *like)
{
    if (!(s->events = malloc(SL_SWEEP_POINTS * sizeof *s->events)))
        return -1;
    for (int i = 0; i < SL_SWEEP_POINTS; i++) {
        sl_events_init(&s->events[i], like->n_classes, like->collar, like->segment);
        memset(s->events[i].scored, 0, sizeof s->events[i].scored);
        s->events[i].scored[s->target] = 1;
    }
    return 0;
}

/* Point i's threshold and, with the decoder, its off threshold: the gap below
 * it, not below 0. */
static double point_threshold(int i)
{
    return (double)((i + 1) * SWEEP_STEP) / SL_SWEEP_BINS;
}

static double point_off_threshold(const sl_sweep *s, int i)
{
    return fmax(0.0, point_threshold(i) - s->off_gap);
}

int sl_sweep_init_decoder(sl_sweep *s, const sl_decoder_config *cfg, int n_classes,
                          double frames_per_second, char *err, size_t errlen)
{
    sl_decoder_config c = *cfg;
    c.target_class = s->target;
    /* made with the thresholds as given, so that bad ones are said as given; each
     * point retunes them (sl_sweep_add_decoded) */
    if (!(s->decoder = sl_decoder_new(&c, n_classes, frames_per_second, err, errlen)))
        return -1;
    /* the gap as the options gave it (0.5 - 0.35 in float is not 0.15 in double) */
    s->off_gap = round(((double)cfg->on_threshold - cfg->off_threshold) * 1e6) / 1e6;
    s->switch_penalty = cfg->switch_penalty;
    return 0;
}

void sl_sweep_release(sl_sweep *s)
{
    if (!s)
        return;
    free(s->events);
    s->events = NULL;
    sl_decoder_free(s->decoder);
    s->decoder = NULL;
}

int sl_sweep_add_decoded(sl_sweep *s, const int32_t *scored, const int32_t *ref,
                         const float *probs, int n_classes, int64_t n)
{
    int32_t *labels = malloc((size_t)(n ? n : 1) * sizeof *labels);
    int rc = labels ? 0 : -1;
    for (int i = 0; i < SL_SWEEP_POINTS && rc == 0; i++) {
        if (sl_decoder_retune(s->decoder, s->switch_penalty, (float)point_threshold(i),
                              (float)point_off_threshold(s, i), NULL, 0) ||
            sl_decode_all(s->decoder, probs, n, n_classes, labels)) {
            rc = -1;
            break;
        }
        for (int64_t k = 0; k < n; k++) {
            if (scored[k] >= 0 && labels[k] == s->target) {
                if (scored[k] == s->target)
                    s->tp[i]++;
                else
                    s->fp[i]++;
            }
            /* the other classes are not scored: none; nor is time the
             * references leave unlabelled */
            if (labels[k] != s->target || ref[k] < 0)
                labels[k] = -1;
        }
        if (s->events)
            rc = sl_events_add(&s->events[i], ref, labels, n);
    }
    free(labels);
    return rc;
}

int sl_sweep_add_events(sl_sweep *s, const int32_t *ref, const double *prob, int64_t n)
{
    if (!s->events)
        return 0;
    int32_t *bin = malloc((size_t)(n ? n : 1) * sizeof *bin);
    int32_t *sys = malloc((size_t)(n ? n : 1) * sizeof *sys);
    int rc = bin && sys ? 0 : -1;
    for (int64_t k = 0; k < n && rc == 0; k++) /* no probability: below every edge */
        bin[k] = prob[k] >= 0.0 ? sweep_bin(prob[k]) : -1;
    for (int i = 0; i < SL_SWEEP_POINTS && rc == 0; i++) {
        const int edge = (i + 1) * SWEEP_STEP;
        for (int64_t k = 0; k < n; k++) /* the other classes are not scored: none */
            sys[k] = bin[k] >= edge ? s->target : -1;
        rc = sl_events_add(&s->events[i], ref, sys, n);
    }
    free(bin);
    free(sys);
    return rc;
}

/* Table point i's figures: the frames of its bin edge and up, or with the
 * decoder those it labelled the class at that threshold. */
static sweep_row table_row(const sl_sweep *s, int i)
{
    if (!s->decoder)
        return bin_row(s, (i + 1) * SWEEP_STEP);
    int64_t tp, fp, pos, neg;
    bin_counts(s, 0, &tp, &fp, &pos, &neg); /* every scored frame: pos and neg */
    sweep_row r = {.threshold = point_threshold(i), .off_threshold = point_off_threshold(s, i)};
    figures(s->tp[i], s->fp[i], pos, neg, &r);
    return r;
}

/* The best F1's row (the lowest threshold of equals) and the equal error rate's
 * (false alarms and misses closest): of every bin edge, or with the decoder of
 * the table's points. */
static void best_rows(const sl_sweep *s, sweep_row *best, sweep_row *equal_error)
{
    if (!s->decoder) {
        int b, e;
        sl_sweep_best(s, &b, &e);
        *best = bin_row(s, b);
        *equal_error = bin_row(s, e);
        return;
    }
    for (int i = 0; i < SL_SWEEP_POINTS; i++) {
        sweep_row r = table_row(s, i);
        if (i == 0 || r.f1 > best->f1)
            *best = r;
        if (i == 0 || fabs(r.false_alarm - r.miss) <
                          fabs(equal_error->false_alarm - equal_error->miss))
            *equal_error = r;
    }
}

/* The event F1 and error rate at table point i (0 without events). */
/* Point i's event F1 and error rate, each with whether it is defined (an F1
 * needs an event either way, an error rate a reference event). */
static void sweep_events(const sl_sweep *s, int i, double *f1, double *error_rate, int *has_f1,
                         int *has_er)
{
    sl_event_figures f = {0};
    if (s->events)
        sl_events_summary(&s->events[i], &f);
    *f1 = f.event_f1;
    *error_rate = f.event_error_rate;
    *has_f1 = f.event_ref + f.event_sys > 0;
    *has_er = f.event_ref > 0;
}

void sl_sweep_print(const sl_sweep *s, const char *name, const char *prefix, void *fpv)
{
    FILE *fp = fpv;
    sweep_row best, eer;
    best_rows(s, &best, &eer);
    if (s->decoder)
        fprintf(fp, "%ssweep of %s with the decoder (its labels with %s the target class, on at "
                "the threshold and off at off_threshold)\n", prefix, name, name);
    else
        fprintf(fp, "%ssweep of %s (a frame is %s when its probability is at least the "
                "threshold)\n", prefix, name, name);
    fprintf(fp, "%s%9s", prefix, "threshold");
    if (s->decoder)
        fprintf(fp, " %13s", "off_threshold");
    fprintf(fp, " %9s %9s %9s %11s %9s", "precision", "recall", "f1", "false_alarm", "miss");
    if (s->events)
        fprintf(fp, " %9s %16s", "event_f1", "event_error_rate");
    fputc('\n', fp);
    for (int i = 0; i < SL_SWEEP_POINTS; i++) {
        sweep_row r = table_row(s, i);
        double ef, er;
        fprintf(fp, "%s%9.3f", prefix, r.threshold);
        if (s->decoder)
            fprintf(fp, " %13.3f", r.off_threshold);
        char a[32], b[32], c[32], d[32], e[32];
        fprintf(fp, " %9s %9s %9s %11s %9s",
                sl_text_figure(d, sizeof d, r.has_called, r.precision),
                sl_text_figure(a, sizeof a, r.has_pos, r.recall),
                sl_text_figure(e, sizeof e, r.has_pos || r.has_called, r.f1),
                sl_text_figure(b, sizeof b, r.has_neg, r.false_alarm),
                sl_text_figure(c, sizeof c, r.has_pos, r.miss));
        int has_f1, has_er;
        sweep_events(s, i, &ef, &er, &has_f1, &has_er);
        if (s->events)
            fprintf(fp, " %9s %16s", sl_text_figure(a, sizeof a, has_f1, ef),
                    sl_text_figure(b, sizeof b, has_er, er));
        fputc('\n', fp);
    }
    /* without a frame of the class (or of the others) there is no best */
    if (best.has_pos)
        fprintf(fp, "%sbest f1 %.4f at threshold %.3f\n", prefix, best.f1, best.threshold);
    else
        fprintf(fp, "%sbest f1 - (no frame of %s)\n", prefix, name);
    if (eer.has_pos && eer.has_neg)
        fprintf(fp, "%sequal error rate %.4f at threshold %.3f\n", prefix,
                (eer.false_alarm + eer.miss) / 2.0, eer.threshold);
    else
        fprintf(fp, "%sequal error rate - (no frame of %s)\n", prefix,
                eer.has_pos ? "the other classes" : name);
}

int sl_sweep_format_json(const sl_sweep *s, const char *name, char *buf, size_t len)
{
    sl_text t = {buf, len, 0};
    sweep_row best, eer;
    best_rows(s, &best, &eer);
    sl_text_put(&t, "{\"sweep\":");
    sl_text_json_string(&t, name);
    const int has_eer = eer.has_pos && eer.has_neg;
    sl_text_json_next_figure(&t, "best_f1", best.has_pos, best.f1);
    sl_text_json_next_figure(&t, "best_f1_threshold", best.has_pos, best.threshold);
    sl_text_json_next_figure(&t, "equal_error_rate", has_eer, (eer.false_alarm + eer.miss) / 2.0);
    sl_text_json_next_figure(&t, "equal_error_threshold", has_eer, eer.threshold);
    sl_text_put(&t, ",\"points\":[");
    for (int i = 0; i < SL_SWEEP_POINTS; i++) {
        sweep_row r = table_row(s, i);
        double ef, er;
        sl_text_put(&t, "%s{\"threshold\":%.9g", i ? "," : "", r.threshold);
        if (s->decoder)
            sl_text_put(&t, ",\"off_threshold\":%.9g", r.off_threshold);
        sl_text_json_next_figure(&t, "precision", r.has_called, r.precision);
        sl_text_json_next_figure(&t, "recall", r.has_pos, r.recall);
        sl_text_json_next_figure(&t, "f1", r.has_pos || r.has_called, r.f1);
        sl_text_json_next_figure(&t, "false_alarm", r.has_neg, r.false_alarm);
        sl_text_json_next_figure(&t, "miss", r.has_pos, r.miss);
        int has_f1, has_er;
        sweep_events(s, i, &ef, &er, &has_f1, &has_er);
        if (s->events) {
            sl_text_json_next_figure(&t, "event_f1", has_f1, ef);
            sl_text_json_next_figure(&t, "event_error_rate", has_er, er);
        }
        sl_text_put(&t, "}");
    }
    sl_text_put(&t, "]}\n");
    return sl_text_finish(&t);
}
