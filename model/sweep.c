/* A class's threshold sweep (`seqlabel eval --sweep CLASS`): its probability
 * binned against the truth, every 0.05 of threshold's figures, and with events
 * each threshold's event figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/trainer_internal.h"
#include "common/text.h"

/* The bin of probability p: in double, so that p below b / BINS never rounds up
 * into bin b. */
static int sweep_bin(double p)
{
    int b = (int)(p * SL_SWEEP_BINS); /* p in [0, 1]: b in [0, BINS] */
    return b < 0 ? 0 : b >= SL_SWEEP_BINS ? SL_SWEEP_BINS - 1 : b;
}

void sl_sweep_count(sl_sweep *s, double p, int is_target)
{
    int b = sweep_bin(p);
    if (is_target)
        s->pos[b]++;
    else
        s->neg[b]++;
}

void sl_sweep_point(const sl_sweep *s, int b, double *precision, double *recall, double *f1,
                    double *false_alarm, double *miss)
{
    int64_t tp = 0, fp = 0, pos = 0, neg = 0;
    for (int k = 0; k < SL_SWEEP_BINS; k++) {
        pos += s->pos[k];
        neg += s->neg[k];
        if (k >= b) {
            tp += s->pos[k];
            fp += s->neg[k];
        }
    }
    double p = tp + fp ? (double)tp / (double)(tp + fp) : 0.0;
    double r = pos ? (double)tp / (double)pos : 0.0;
    if (precision)
        *precision = p;
    if (recall)
        *recall = r;
    if (f1)
        *f1 = p + r > 0 ? 2.0 * p * r / (p + r) : 0.0;
    if (false_alarm)
        *false_alarm = neg ? (double)fp / (double)neg : 0.0;
    if (miss)
        *miss = pos ? 1.0 - r : 0.0;
}

void sl_sweep_best(const sl_sweep *s, int *best_f1, int *equal_error)
{
    double best = -1.0, closest = 2.0;
    for (int b = 0; b <= SL_SWEEP_BINS; b++) {
        double f1, fa, miss;
        sl_sweep_point(s, b, NULL, NULL, &f1, &fa, &miss);
        if (f1 > best) {
            best = f1;
            *best_f1 = b;
        }
        if (fabs(fa - miss) < closest) {
            closest = fabs(fa - miss);
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

void sl_sweep_free_events(sl_sweep *s)
{
    free(s->events);
    s->events = NULL;
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

/* The event F1 and error rate at table point i (0 without events). */
static void sweep_events(const sl_sweep *s, int i, double *f1, double *error_rate)
{
    sl_event_figures f = {0};
    if (s->events)
        sl_events_summary(&s->events[i], &f);
    *f1 = f.event_f1;
    *error_rate = f.event_error_rate;
}

void sl_sweep_print(const sl_sweep *s, const char *name, const char *prefix, void *fpv)
{
    FILE *fp = fpv;
    int best, eer;
    sl_sweep_best(s, &best, &eer);
    fprintf(fp, "%ssweep of %s (a frame is %s when its probability is at least the threshold)\n",
            prefix, name, name);
    fprintf(fp, "%s%9s %9s %9s %9s %11s %9s", prefix, "threshold", "precision", "recall", "f1",
            "false_alarm", "miss");
    if (s->events)
        fprintf(fp, " %9s %16s", "event_f1", "event_error_rate");
    fputc('\n', fp);
    for (int i = 0; i < SL_SWEEP_POINTS; i++) {
        const int b = (i + 1) * SWEEP_STEP;
        double p, r, f, fa, miss, ef, er;
        sl_sweep_point(s, b, &p, &r, &f, &fa, &miss);
        fprintf(fp, "%s%9.3f %9.4f %9.4f %9.4f %11.4f %9.4f", prefix,
                (double)b / SL_SWEEP_BINS, p, r, f, fa, miss);
        sweep_events(s, i, &ef, &er);
        if (s->events)
            fprintf(fp, " %9.4f %16.4f", ef, er);
        fputc('\n', fp);
    }
    double f, fa, miss;
    sl_sweep_point(s, best, NULL, NULL, &f, NULL, NULL);
    fprintf(fp, "%sbest f1 %.4f at threshold %.3f\n", prefix, f, (double)best / SL_SWEEP_BINS);
    sl_sweep_point(s, eer, NULL, NULL, NULL, &fa, &miss);
    fprintf(fp, "%sequal error rate %.4f at threshold %.3f\n", prefix, (fa + miss) / 2.0,
            (double)eer / SL_SWEEP_BINS);
}

int sl_sweep_format_json(const sl_sweep *s, const char *name, char *buf, size_t len)
{
    sl_text t = {buf, len, 0};
    int best, eer;
    double f, fa, miss;
    sl_sweep_best(s, &best, &eer);
    sl_sweep_point(s, best, NULL, NULL, &f, NULL, NULL);
    sl_sweep_point(s, eer, NULL, NULL, NULL, &fa, &miss);
    sl_text_put(&t, "{\"sweep\":");
    sl_text_json_string(&t, name);
    sl_text_put(&t, ",\"best_f1\":%.9g,\"best_f1_threshold\":%.9g,\"equal_error_rate\":%.9g,"
                "\"equal_error_threshold\":%.9g,\"points\":[", f, (double)best / SL_SWEEP_BINS,
                (fa + miss) / 2.0, (double)eer / SL_SWEEP_BINS);
    for (int i = 0; i < SL_SWEEP_POINTS; i++) {
        const int b = (i + 1) * SWEEP_STEP;
        double p, r, ef, er;
        sl_sweep_point(s, b, &p, &r, &f, &fa, &miss);
        sl_text_put(&t, "%s{\"threshold\":%.9g,\"precision\":%.9g,\"recall\":%.9g,\"f1\":%.9g,"
                    "\"false_alarm\":%.9g,\"miss\":%.9g", i ? "," : "",
                    (double)b / SL_SWEEP_BINS, p, r, f, fa, miss);
        sweep_events(s, i, &ef, &er);
        if (s->events)
            sl_text_put(&t, ",\"event_f1\":%.9g,\"event_error_rate\":%.9g", ef, er);
        sl_text_put(&t, "}");
    }
    sl_text_put(&t, "]}\n");
    return sl_text_finish(&t);
}
