/* Frame metrics (confusion matrix, P/R/F1) and evaluation of a model on
 * labeled files in exactly the windows the streaming labeler uses, so the
 * validation score measures what `seqlabel label` will do. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/label_files.h"
#include "model/trainer_internal.h"
#include "common/errors.h"
#include "common/text.h"

int sl_metrics_init(sl_metrics *mt, int n_classes)
{
    memset(mt, 0, sizeof *mt);
    mt->n_classes = n_classes;
    mt->confusion = calloc((size_t)n_classes * (size_t)n_classes, sizeof *mt->confusion);
    return mt->confusion ? 0 : -1;
}

void sl_metrics_reset(sl_metrics *mt)
{
    if (!mt)
        return;
    if (mt->confusion) /* (none in a zeroed or freed one) */
        memset(mt->confusion, 0, (size_t)mt->n_classes * (size_t)mt->n_classes * sizeof *mt->confusion);
    mt->loss_sum = 0.0;
    mt->frames = 0;
}

void sl_metrics_free(sl_metrics *mt)
{
    if (mt) {
        free(mt->confusion);
        memset(mt, 0, sizeof *mt);
    }
}

double sl_metrics_accuracy(const sl_metrics *mt)
{
    int64_t right = 0;
    for (int k = 0; k < mt->n_classes; k++)
        right += mt->confusion[k * mt->n_classes + k];
    return mt->frames ? (double)right / (double)mt->frames : 0.0;
}

double sl_metrics_loss(const sl_metrics *mt)
{
    return mt->frames ? mt->loss_sum / (double)mt->frames : 0.0;
}

/* Class k's counts; all 0 for a k that is no class (its figures then 0, as
 * the header promises where they are undefined). */
static void class_counts(const sl_metrics *mt, int k, int64_t *tp, int64_t *truth, int64_t *pred)
{
    int n = mt->n_classes;
    *tp = *truth = *pred = 0;
    if (k < 0 || k >= n)
        return;
    *tp = mt->confusion[k * n + k];
    for (int j = 0; j < n; j++) {
        *truth += mt->confusion[k * n + j];
        *pred += mt->confusion[j * n + k];
    }
}

void sl_metrics_class(const sl_metrics *mt, int k, double *precision, double *recall, double *f1)
{
    int64_t tp, truth, pred;
    class_counts(mt, k, &tp, &truth, &pred);
    double p = pred ? (double)tp / (double)pred : 0.0;
    double r = truth ? (double)tp / (double)truth : 0.0;
    *precision = p;
    *recall = r;
    *f1 = p + r > 0 ? 2.0 * p * r / (p + r) : 0.0;
}

double sl_metrics_macro_f1(const sl_metrics *mt)
{
    double sum = 0.0;
    int used = 0;
    for (int k = 0; k < mt->n_classes; k++) {
        int64_t tp, truth, pred;
        class_counts(mt, k, &tp, &truth, &pred);
        if (!truth && !pred)
            continue;
        double p, r, f;
        sl_metrics_class(mt, k, &p, &r, &f);
        sum += f;
        used++;
    }
    return used ? sum / used : 0.0;
}

static int class_named(const char *const *names, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(names[k], name))
            return k;
    return -1;
}

/* Whether class k has a frame in the reference or the prediction: without one
 * its F1 is undefined (printed '-', null). */
static int has_class(const sl_metrics *mt, int k)
{
    int64_t tp, truth, pred;
    class_counts(mt, k, &tp, &truth, &pred);
    return truth + pred > 0;
}

double sl_metrics_binary_f1(const sl_metrics *mt, int k)
{
    int64_t tp, truth, pred;
    class_counts(mt, k, &tp, &truth, &pred);
    return truth + pred ? 2.0 * (double)tp / (double)(truth + pred) : 0.0;
}

void sl_metrics_print_names(const sl_metrics *mt, const char *const *names, const char *prefix,
                            void *fpv)
{
    FILE *fp = fpv;
    int n = mt->n_classes;
    fprintf(fp, "%sframes %lld  ", prefix, (long long)mt->frames);
    if (!mt->no_loss)
        fprintf(fp, "loss %.4f  ", sl_metrics_loss(mt));
    fprintf(fp, "accuracy %.4f  macro_f1 %.4f\n", sl_metrics_accuracy(mt), sl_metrics_macro_f1(mt));
    int speech = class_named(names, n, "speech");
    if (speech >= 0 && has_class(mt, speech))
        fprintf(fp, "%sspeech_vs_rest_f1 %.4f\n", prefix, sl_metrics_binary_f1(mt, speech));
    else if (speech >= 0) /* no speech either way: an F1 of nothing, not 0 */
        fprintf(fp, "%sspeech_vs_rest_f1 -\n", prefix);
    fprintf(fp, "%s%-16s %9s %9s %9s %10s\n", prefix, "class", "precision", "recall", "f1",
            "frames");
    for (int k = 0; k < n; k++) {
        double p, r, f;
        int64_t tp, truth, pred;
        sl_metrics_class(mt, k, &p, &r, &f);
        class_counts(mt, k, &tp, &truth, &pred);
        /* precision needs frames called k, recall frames of k, F1 either */
        char a[32], b[32], c[32], name[4 * SL_MAX_CLASS_NAME + 32];
        fprintf(fp, "%s%s %9s %9s %9s %10lld\n", prefix,
                sl_text_field(name, sizeof name, names[k], 16, 0, 0),
                sl_text_figure(a, sizeof a, pred > 0, p), sl_text_figure(b, sizeof b, truth > 0, r),
                sl_text_figure(c, sizeof c, truth + pred > 0, f), (long long)truth);
    }
    /* A name's first 10 columns over its column, unless two read alike so
     * (door_wood_knock, door_wood_creaks): then the classes' numbers, before
     * the rows' names too */
    char name[4 * SL_MAX_CLASS_NAME + 32], other[4 * SL_MAX_CLASS_NAME + 32];
    char whole[SL_MAX_CLASS_NAME + 16];
    int numbered = 0;
    for (int k = 0; k < n && !numbered; k++)
        for (int j = k + 1; j < n && !numbered; j++)
            numbered = !strcmp(sl_text_field(name, sizeof name, names[k], 0, 10, 0),
                               sl_text_field(other, sizeof other, names[j], 0, 10, 0));
    fprintf(fp, "%sconfusion (rows: true class, columns: predicted%s)\n%s%-16s", prefix,
            numbered ? ", by number" : "", prefix, "");
    for (int k = 0; k < n; k++) {
        snprintf(whole, sizeof whole, "%d", k);
        fprintf(fp, " %s", sl_text_field(name, sizeof name, numbered ? whole : names[k], 10, 10, 1));
    }
    fputc('\n', fp);
    for (int t = 0; t < n; t++) {
        if (numbered)
            snprintf(whole, sizeof whole, "%d %s", t, names[t]);
        fprintf(fp, "%s%s", prefix, sl_text_field(name, sizeof name, numbered ? whole : names[t],
                                                  16, 0, 0));
        for (int p = 0; p < n; p++)
            fprintf(fp, " %10lld", (long long)mt->confusion[t * n + p]);
        fputc('\n', fp);
    }
}

/* The model's class names, for the functions that take names. */
static void model_names(const sl_model *m, const char **names)
{
    for (int k = 0; k < sl_model_get_config(m)->n_classes; k++)
        names[k] = sl_model_class_name(m, k);
}

void sl_metrics_print(const sl_metrics *mt, const sl_model *m, const char *prefix, void *fp)
{
    const char *names[SL_MAX_CLASSES];
    model_names(m, names);
    sl_metrics_print_names(mt, names, prefix, fp);
}

int sl_metrics_format_json_names(const sl_metrics *mt, const char *const *names, char *buf,
                                 size_t len)
{
    sl_text t = {buf, len, 0};
    int n = mt->n_classes, speech = class_named(names, n, "speech");
    sl_text_put(&t, "{");
    if (mt->audio) {
        sl_text_put(&t, "\"audio\":");
        sl_text_json_string(&t, mt->audio);
        sl_text_put(&t, ",");
    }
    /* a file with no frame scored (a UEM's regions, or empty references,
     * leave it none) has no figures, its loss none either (not 0, a perfect
     * one to a script averaging files) */
    sl_text_put(&t, "\"frames\":%lld,\"loss\":", (long long)mt->frames);
    if (mt->no_loss || mt->frames == 0)
        sl_text_put(&t, "null");
    else
        sl_text_put(&t, "%.9g", sl_metrics_loss(mt));
    sl_text_json_next_figure(&t, "accuracy", mt->frames > 0, sl_metrics_accuracy(mt));
    sl_text_json_next_figure(&t, "macro_f1", mt->frames > 0, sl_metrics_macro_f1(mt));
    sl_text_put(&t, ",");
    const int has_speech = speech >= 0 && has_class(mt, speech);
    sl_text_json_figure(&t, "speech_vs_rest_f1", has_speech,
                        has_speech ? sl_metrics_binary_f1(mt, speech) : 0.0);
    sl_text_put(&t, ",\"classes\":[");
    for (int k = 0; k < n; k++) {
        double p, r, f;
        int64_t tp, truth, pred;
        sl_metrics_class(mt, k, &p, &r, &f);
        class_counts(mt, k, &tp, &truth, &pred);
        sl_text_put(&t, "%s{\"name\":", k ? "," : "");
        sl_text_json_string(&t, names[k]);
        sl_text_json_next_figure(&t, "precision", pred > 0, p);
        sl_text_json_next_figure(&t, "recall", truth > 0, r);
        sl_text_json_next_figure(&t, "f1", truth + pred > 0, f);
        sl_text_put(&t, ",\"frames\":%lld,\"predicted\":%lld}", (long long)truth, (long long)pred);
    }
    sl_text_put(&t, "],\"confusion\":[");
    for (int i = 0; i < n; i++) {
        sl_text_put(&t, "%s[", i ? "," : "");
        for (int j = 0; j < n; j++)
            sl_text_put(&t, "%s%lld", j ? "," : "", (long long)mt->confusion[i * n + j]);
        sl_text_put(&t, "]");
    }
    sl_text_put(&t, "]");
    if (mt->events) {
        sl_event_figures f;
        sl_events_summary(mt->events, &f);
        /* undefined without events (an error rate: without reference events) */
        const int any = f.event_ref + f.event_sys > 0, has_ref = f.event_ref > 0;
        sl_text_put(&t, ",\"events\":{");
        sl_text_json_figure(&t, "f1", any, f.event_f1);
        sl_text_json_next_figure(&t, "error_rate", has_ref, f.event_error_rate);
        sl_text_put(&t, ",\"reference\":%lld,\"system\":%lld,", (long long)f.event_ref,
                    (long long)f.event_sys);
        sl_text_json_figure(&t, "segment_f1", any, f.segment_f1);
        sl_text_json_next_figure(&t, "segment_error_rate", has_ref, f.segment_error_rate);
        sl_text_put(&t, "}");
    }
    sl_text_put(&t, "}\n");
    return sl_text_finish(&t);
}

int sl_metrics_format_json(const sl_metrics *mt, const sl_model *m, char *buf, size_t len)
{
    const char *names[SL_MAX_CLASSES];
    model_names(m, names);
    return sl_metrics_format_json_names(mt, names, buf, len);
}

/* Core block k covers frames [k*core, (k+1)*core); the encoder sees
 * [k*core - left, (k+1)*core + lookahead) with positions from 0 and the
 * silence frame outside [0, n), or, with silence NULL, that window clipped to
 * [0, n) — the rule of sl_labeler (include/seqlabel.h). */
int sl_eval_frames(sl_encoder *e, const sl_model *m, const float *silence, const float *feats,
                   const int32_t *labels, const int32_t *wanted, int64_t n, float *x,
                   float *logits, float *probs, sl_sweep *sweep, sl_metrics *mt, int32_t *pred,
                   float *frame_probs)
{
    if (!wanted)
        wanted = labels;
    const sl_model_config *c = sl_model_get_config(m);
    const int F = c->n_features, C = c->n_classes;
    const int left = c->stream_left, look = c->stream_lookahead;
    const int core = c->stream_window - left - look;
    const float *mean = sl_model_norm_mean(m), *istd = sl_model_norm_inv_std(m);
    for (int64_t c0 = 0; c0 < n; c0 += core) {
        int64_t c1 = c0 + core < n ? c0 + core : n;
        int64_t w0 = c0 - left, w1 = c0 + core + look;
        if (!silence) {
            w0 = w0 > 0 ? w0 : 0;
            w1 = w1 < n ? w1 : n;
        }
        int T = (int)(w1 - w0);
        int any = 0;
        for (int64_t i = c0; i < c1 && !any; i++)
            any = wanted[i] >= 0;
        if (!any && !frame_probs)
            continue;
        for (int t = 0; t < T; t++) {
            float *xt = x + (size_t)t * F;
            if (w0 + t < 0 || w0 + t >= n) {
                memcpy(xt, silence, (size_t)F * sizeof *x);
                continue;
            }
            memcpy(xt, feats + (size_t)(w0 + t) * F, (size_t)F * sizeof *x);
            sl_normalize(xt, mean, istd, F);
        }
        if (sl_encoder_forward(e, x, T, logits, sweep || frame_probs ? probs : NULL))
            return -1;
        if (frame_probs)
            memcpy(frame_probs + (size_t)c0 * C, probs + (size_t)(c0 - w0) * C,
                   (size_t)(c1 - c0) * C * sizeof *probs);
        for (int64_t i = c0; i < c1; i++) {
            int y = labels[i];
            const float *z = logits + (size_t)(i - w0) * C;
            int best = 0;
            for (int k = 1; k < C; k++)
                if (z[k] > z[best])
                    best = k;
            if (pred)
                pred[i] = best;
            if (y < 0)
                continue;
            double zmax = z[best];
            double s = 0.0;
            for (int k = 0; k < C; k++)
                s += exp((double)z[k] - zmax);
            mt->loss_sum += zmax + log(s) - (double)z[y];
            mt->confusion[y * C + best]++;
            mt->frames++;
            if (sweep)
                sl_sweep_count(sweep, probs[(size_t)(i - w0) * C + sweep->target],
                               y == sweep->target);
        }
    }
    return 0;
}

int sl_metrics_add(sl_metrics *to, const sl_metrics *from)
{
    if (to->n_classes != from->n_classes)
        return -1;
    for (int k = 0; k < to->n_classes * to->n_classes; k++)
        to->confusion[k] += from->confusion[k];
    to->loss_sum += from->loss_sum;
    to->frames += from->frames;
    return 0;
}

static int store_label(void *user, int64_t index, int label, float confidence,
                       const float *probs, int n_classes)
{
    (void)confidence;
    (void)probs;
    (void)n_classes;
    ((int32_t *)user)[index] = label;
    return 0;
}

int sl_decode_all(sl_decoder *dec, const float *probs, int64_t n, int K, int32_t *labels)
{
    sl_label_sink sink = {.user = labels, .on_frame = store_label, .on_segment = NULL};
    sl_decoder_reset(dec);
    for (int64_t i = 0; i < n; i++)
        if (sl_decoder_push(dec, probs + (size_t)i * K, &sink))
            return -1;
    return sl_decoder_finish(dec, &sink);
}

/* The sweep's events of one file, from its n x K probabilities; time the
 * references leave unlabelled is not scored: no probability there (as the
 * --hyp path has it, model/score.c). */
static int add_sweep_events(sl_sweep *sweep, const int32_t *ref, const float *probs, int64_t n,
                            int K)
{
    double *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    for (int64_t i = 0; i < n; i++)
        p[i] = ref[i] < 0 ? -1.0 : probs[(size_t)i * K + sweep->target];
    int rc = sl_sweep_add_events(sweep, ref, p, n);
    free(p);
    return rc;
}

int sl_eval_dataset(const sl_model *m, const sl_dataset *ds, int num_threads, int clip_edges,
                    const sl_eval_options *per_file, const sl_uem *uem, sl_metrics *mt,
                    char *err, size_t errlen)
{
    const sl_model_config *c = sl_model_get_config(m);
    int W = c->stream_window;
    sl_encoder *e = sl_encoder_new(m, W, err, errlen);
    if (e && num_threads > 1 && sl_encoder_set_threads(e, num_threads, err, errlen)) {
        sl_encoder_free(e);
        return -1;
    }
    float *x = malloc((size_t)W * c->n_features * sizeof *x);
    float *logits = malloc((size_t)W * c->n_classes * sizeof *logits);
    float *probs = malloc((size_t)W * c->n_classes * sizeof *probs);
    float *silence = clip_edges ? NULL : malloc((size_t)c->n_features * sizeof *silence);
    sl_sweep *sweep = per_file ? per_file->sweep : NULL;
    sl_metrics file;
    int have_file = sl_metrics_init(&file, c->n_classes) == 0;
    int rc = (!e || !x || !logits || !probs || (!clip_edges && !silence) || !have_file) ? -1 : 0;
    if (e && rc) /* (without e, the encoder said why) */
        sl_fail(err, errlen, "out of memory");
    if (rc == 0 && mt->n_classes != c->n_classes) /* each file's counts could not be added */
        rc = sl_fail(err, errlen, "metrics for %d classes: the model has %d", mt->n_classes,
                     c->n_classes);
    if (rc == 0 && sweep && (sweep->target < 0 || sweep->target >= c->n_classes))
        rc = sl_fail(err, errlen, "sweep: class %d is not one of the model's", sweep->target);
    if (rc == 0 && silence)
        rc = sl_model_silence_frame(m, silence, err, errlen);
    const sl_feature_config *fc = sl_model_feature_config(m);
    const double collar_s = per_file ? per_file->collar_s : 0.0;
    const int ref_gap = per_file ? per_file->ref_gap_class : -1;
    sl_events *events = per_file ? per_file->events : NULL;
    sl_decoder *dec = NULL;
    if (rc == 0 && per_file && per_file->decoder &&
        !(dec = sl_decoder_new(per_file->decoder, c->n_classes,
                               (double)fc->sample_rate / sl_feature_frame_shift(fc), err, errlen)))
        rc = -1;
    sl_events *file_events = events ? malloc(sizeof *file_events) : NULL; /* each file's */
    if (events && !file_events)
        rc = sl_fail(err, errlen, "out of memory");
    for (int i = 0; i < ds->n_files && rc == 0; i++) {
        const sl_data_file *f = &ds->files[i];
        const int64_t n = f->ff.n_frames;
        sl_metrics_reset(&file);
        /* the references, time they leave unlabelled of class ref_gap */
        int32_t *filled = ref_gap >= 0 ? malloc((size_t)(n ? n : 1) * sizeof *filled) : NULL;
        for (int64_t k = 0; filled && k < n; k++)
            filled[k] = f->labels[k] >= 0 ? f->labels[k] : ref_gap;
        const int32_t *labels = filled ? filled : f->labels;
        /* the collar and the UEM's regions on a copy: the events are the references' as
         * they are */
        const int crop = collar_s > 0 || uem;
        int32_t *collared = crop ? malloc((size_t)(n ? n : 1) * sizeof *collared) : NULL;
        int32_t *pred = events || dec ? malloc((size_t)(n ? n : 1) * sizeof *pred) : NULL;
        /* every frame's probabilities, for the decoder or the sweep's events */
        const int want_probs = dec || (sweep && (sweep->events || sweep->decoder));
        float *fprobs =
            want_probs ? malloc((size_t)(n ? n : 1) * c->n_classes * sizeof *fprobs) : NULL;
        if ((crop && !collared) || ((events || dec) && !pred) || (want_probs && !fprobs) ||
            (ref_gap >= 0 && !filled))
            rc = sl_fail(err, errlen, "out of memory");
        if (rc == 0 && collared) {
            memcpy(collared, labels, (size_t)n * sizeof *collared);
            if (sl_labels_collar(collared, n, sl_feature_frame_shift(fc), fc->sample_rate,
                                 collar_s))
                rc = sl_fail(err, errlen, "out of memory");
            else if (uem && sl_uem_crop(uem, f->audio, collared, n, sl_feature_frame_shift(fc),
                                        fc->sample_rate, err, errlen))
                rc = -1;
        }
        for (int64_t k = 0; pred && k < n; k++)
            pred[k] = -1;
        const int32_t *scored = collared ? collared : labels;
        /* the windows run where a frame is scored, and for events wherever the
         * references (before the collar) label one */
        if (rc == 0 && sl_eval_frames(e, m, silence, f->ff.feats, scored, events ? labels : NULL,
                                      n, x, logits, probs, sweep, &file, dec ? NULL : pred, fprobs))
            rc = sl_fail(err, errlen, "%s: the encoder refused a window", f->audio);
        if (rc == 0 && dec && sl_decode_all(dec, fprobs, n, c->n_classes, pred))
            rc = sl_fail(err, errlen, "%s: the decoder stopped", f->audio);
        /* the sweep's own labels: the decoder's at each threshold, or the runs over it */
        if (rc == 0 && sweep && sweep->decoder &&
            sl_sweep_add_decoded(sweep, scored, labels, fprobs, c->n_classes, n))
            rc = sl_fail(err, errlen, "out of memory");
        if (rc == 0 && sweep && sweep->events && !sweep->decoder &&
            add_sweep_events(sweep, labels, fprobs, n, c->n_classes))
            rc = sl_fail(err, errlen, "out of memory");
        if (rc == 0 && dec) { /* the decoder's labels counted instead of the argmax */
            memset(file.confusion, 0, (size_t)c->n_classes * c->n_classes * sizeof *file.confusion);
            for (int64_t k = 0; k < n; k++)
                if (scored[k] >= 0)
                    file.confusion[(size_t)scored[k] * c->n_classes + pred[k]]++;
        }
        /* time the references leave unlabelled is not scored: a system event
         * there is cut away, no insertion (as the --hyp path has it) */
        for (int64_t k = 0; events && k < n; k++)
            if (labels[k] < 0)
                pred[k] = -1;
        if (rc == 0 && events && sl_events_add_file(events, file_events, labels, pred, n))
            rc = sl_fail(err, errlen, "out of memory");
        free(collared);
        free(filled);
        free(pred);
        free(fprobs);
        if (rc == 0)
            sl_metrics_add(mt, &file);
        if (rc == 0 && per_file && per_file->on_file) {
            file.audio = f->audio;
            file.events = file_events;
            per_file->on_file(per_file->user, &file);
            file.audio = NULL;
            file.events = NULL;
        }
    }
    if (have_file)
        sl_metrics_free(&file);
    free(file_events);
    sl_decoder_free(dec);
    free(x);
    free(logits);
    free(probs);
    free(silence);
    sl_encoder_free(e);
    return rc;
}

void sl_eval_options_default(sl_eval_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->split = SL_SPLIT_NONE;
    opt->num_threads = 1;
    opt->gap_class = -1;
    opt->ref_gap_class = -1;
}

int sl_evaluate_manifest(const sl_model *m, const char *manifest, const sl_eval_options *opt,
                         sl_metrics *mt, char *err, size_t errlen)
{
    int uncached, why;
    return sl_evaluate_manifest_cached(m, manifest, opt, mt, &uncached, &why, err, errlen);
}

int sl_evaluate_manifest_cached(const sl_model *m, const char *manifest,
                                const sl_eval_options *opt, sl_metrics *mt, int *uncached,
                                int *why, char *err, size_t errlen)
{
    *uncached = 0;
    *why = 0;
    sl_eval_options defaults;
    if (!opt) {
        sl_eval_options_default(&defaults);
        opt = &defaults;
    }
    if (opt->num_threads > SL_MAX_THREADS) /* said before any file is read */
        return sl_fail(err, errlen, "encoder threads %d is outside 1..%d", opt->num_threads,
                       SL_MAX_THREADS);
    sl_manifest man;
    if (sl_manifest_load(manifest, &man, err, errlen))
        return -1;
    unsigned mask = sl_split_mask(opt->split);
    const sl_model_config *c = sl_model_get_config(m);
    const int threads = opt->num_threads > 0 ? opt->num_threads : 1;
    const char *names[SL_MAX_CLASSES];
    for (int k = 0; k < c->n_classes; k++)
        names[k] = sl_model_class_name(m, k);
    sl_uem *uem = NULL;
    const int with_events = opt->events || (opt->sweep && opt->sweep->events);
    if (sl_uem_for_manifest(opt->uem, &man, mask, with_events, &uem, err, errlen)) {
        sl_manifest_free(&man);
        return -1;
    }
    sl_dataset ds;
    int rc = sl_dataset_load_ex(&ds, &man, mask, sl_model_feature_config(m), opt->cache_dir, names,
                                c->n_classes, NULL, NULL, threads, err, errlen);
    if (rc == 0 && ds.n_files == 0)
        rc = sl_fail(err, errlen, "%s: no entries to evaluate", manifest);
    if (rc == 0 && (opt->ref_gap_class < -1 || opt->ref_gap_class >= c->n_classes))
        rc = sl_fail(err, errlen, "the references' gap class %d is not one of the model's",
                     opt->ref_gap_class);
    /* empty label files would otherwise give a report of zeros that reads as measured
     * (with a gap class every frame is labelled) */
    if (rc == 0 && ds.labeled == 0 && opt->ref_gap_class < 0)
        rc = sl_fail(err, errlen, "%s: no frame is labelled (the label files cover no audio)",
                     manifest);
    const int64_t before = mt->frames;
    if (rc == 0)
        rc = sl_eval_dataset(m, &ds, threads, opt->clip_edges, opt, uem, mt, err, errlen);
    /* nor may a collar that leaves out every labelled frame (eval --hyp refuses it too) */
    if (rc == 0 && mt->frames == before)
        rc = sl_fail(err, errlen, "%s: no frame is scored (%s)", manifest,
                     uem ? "the collar or the UEM's regions leave out every labelled one"
                         : "the collar covers it all");
    sl_uem_free(uem);
    if (rc == 0)
        *uncached = sl_dataset_uncached(&ds, why);
    sl_dataset_free(&ds);
    sl_manifest_free(&man);
    return rc;
}
