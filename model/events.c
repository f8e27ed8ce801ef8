/* Sound event detection metrics of labelled frames: the segment-based and
 * event-based figures of Mesaros, Heittola and Virtanen, "Metrics for
 * polyphonic sound event detection" (2016), as sed_eval computes them for DCASE,
 * so that a labeler's segments can be compared with the figures that field
 * publishes. Frame accuracy says how much time is labelled right; these say
 * how many events a listener would find, whole and in the right place.
 *
 * An event is a run of frames of one scored class, its onset and offset on the
 * frame grid. Event-based: a reference and a system event of the same class
 * match when their onsets lie within the collar and their offsets within the
 * collar or half the reference event's length; the matches are a maximum
 * matching (sed_eval finds one with Hopcroft-Karp, this file with Kuhn's
 * augmenting paths: the same number of matches); of what is left, a reference
 * and a system event that would match but for the class are a substitution.
 * Segment-based: the file cut into fixed segments (1 s), a class active in a
 * segment where any of its events reaches into it, counted per segment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/text.h"

typedef struct {
    int cls;
    int64_t on, off; /* frames [on, off) */
} event;

/* The runs of scored classes in labels[0..n), in order; *count of them. */
static event *runs_of(const sl_events *ev, const int32_t *labels, int64_t n, int64_t *count)
{
    int64_t k = 0, cap = 64;
    event *e = malloc((size_t)cap * sizeof *e);
    for (int64_t i = 0; e && i < n;) {
        int c = labels[i];
        int64_t j = i + 1;
        while (j < n && labels[j] == c)
            j++;
        if (c >= 0 && c < ev->n_classes && ev->scored[c]) {
            if (k == cap) {
                event *g = realloc(e, (size_t)(cap *= 2) * sizeof *e);
                if (!g) {
                    free(e);
                    return NULL;
                }
                e = g;
            }
            e[k++] = (event){c, i, j};
        }
        i = j;
    }
    *count = k;
    return e;
}

static int64_t dist(int64_t a, int64_t b) { return a > b ? a - b : b - a; }

/* Onset within the collar, offset within the collar or half the reference's
 * length (sed_eval's validate_onset and validate_offset; 2|d| <= length is
 * |d| <= length / 2 in whole frames). */
static int in_place(const sl_events *ev, const event *r, const event *s)
{
    int64_t d_off = dist(r->off, s->off);
    return dist(r->on, s->on) <= ev->collar &&
           (d_off <= ev->collar || 2 * d_off <= r->off - r->on);
}

typedef struct {
    const sl_events *ev;
    const event *ref, *sys;
    int64_t n_sys;
    int64_t *first;      /* ref j's candidates: system events from first[j] on ... */
    int64_t *sys_match;  /* the reference event each system event is matched with, or -1 */
    int64_t *seen;       /* the search that last visited a system event */
} matcher;

/* Kuhn's augmenting path from reference event j (system events sorted by
 * onset: the candidates are those whose onset lies within the collar). */
static int augment(matcher *m, int64_t j, int64_t stamp)
{
    const event *r = &m->ref[j];
    for (int64_t i = m->first[j]; i < m->n_sys && m->sys[i].on <= r->on + m->ev->collar; i++) {
        if (m->seen[i] == stamp || m->sys[i].cls != r->cls || !in_place(m->ev, r, &m->sys[i]))
            continue;
        m->seen[i] = stamp;
        if (m->sys_match[i] < 0 || augment(m, m->sys_match[i], stamp)) {
            m->sys_match[i] = j;
            return 1;
        }
    }
    return 0;
}

static int add_events(sl_events *ev, const event *ref, int64_t nr, const event *sys, int64_t ns)
{
    size_t n_alloc = (size_t)(ns > nr ? ns : nr) + 1;
    matcher m = {ev, ref, sys, ns, malloc(n_alloc * sizeof(int64_t)),
                 malloc(n_alloc * sizeof(int64_t)), malloc(n_alloc * sizeof(int64_t))};
    char *ref_hit = calloc(n_alloc, 1), *sys_used = calloc(n_alloc, 1);
    int rc = m.first && m.sys_match && m.seen && ref_hit && sys_used ? 0 : -1;
    if (rc == 0) {
        for (int64_t i = 0; i < ns; i++)
            m.sys_match[i] = m.seen[i] = -1;
        int64_t i0 = 0;
        for (int64_t j = 0; j < nr; j++) { /* both in onset order */
            while (i0 < ns && sys[i0].on < ref[j].on - ev->collar)
                i0++;
            m.first[j] = i0;
        }
        for (int64_t j = 0; j < nr; j++)
            augment(&m, j, j);
        for (int64_t i = 0; i < ns; i++) {
            if (m.sys_match[i] < 0)
                continue;
            ref_hit[m.sys_match[i]] = sys_used[i] = 1;
            ev->ev_tp[sys[i].cls]++;
        }
        /* what is left: in place but of another class (sed_eval's order: each
         * reference event takes the first such system event not yet taken) */
        for (int64_t j = 0; j < nr; j++) {
            if (ref_hit[j])
                continue;
            for (int64_t i = m.first[j]; i < ns && sys[i].on <= ref[j].on + ev->collar; i++)
                if (!sys_used[i] && in_place(ev, &ref[j], &sys[i])) {
                    sys_used[i] = 1;
                    ev->ev_subs++;
                    break;
                }
        }
        for (int64_t j = 0; j < nr; j++)
            ev->ev_ref[ref[j].cls]++;
        for (int64_t i = 0; i < ns; i++)
            ev->ev_sys[sys[i].cls]++;
    }
    free(m.first);
    free(m.sys_match);
    free(m.seen);
    free(ref_hit);
    free(sys_used);
    return rc;
}

/* Segment-based: classes active per segment, from the events. */
static int add_segments(sl_events *ev, const event *ref, int64_t nr, const event *sys, int64_t ns)
{
    const int64_t L = ev->segment;
    int64_t end = 0; /* sed_eval: the evaluated length is the last offset of either list */
    if (nr)
        end = ref[nr - 1].off;
    if (ns && sys[ns - 1].off > end)
        end = sys[ns - 1].off;
    const int64_t n_seg = (end + L - 1) / L;
    unsigned char *in_ref = calloc((size_t)ev->n_classes, 1), *in_sys = calloc((size_t)ev->n_classes, 1);
    if (!in_ref || !in_sys) {
        free(in_ref);
        free(in_sys);
        return -1;
    }
    int64_t j = 0, i = 0;
    for (int64_t k = 0; k < n_seg; k++) {
        const int64_t s0 = k * L, s1 = s0 + L;
        memset(in_ref, 0, (size_t)ev->n_classes);
        memset(in_sys, 0, (size_t)ev->n_classes);
        while (j < nr && ref[j].off <= s0) /* events wholly before the segment */
            j++;
        for (int64_t a = j; a < nr && ref[a].on < s1; a++)
            in_ref[ref[a].cls] = 1;
        while (i < ns && sys[i].off <= s0)
            i++;
        for (int64_t a = i; a < ns && sys[a].on < s1; a++)
            in_sys[sys[a].cls] = 1;
        int64_t n_ref = 0, n_sys = 0, tp = 0;
        for (int c = 0; c < ev->n_classes; c++) {
            n_ref += in_ref[c];
            n_sys += in_sys[c];
            tp += in_ref[c] && in_sys[c];
            ev->seg_tp[c] += in_ref[c] && in_sys[c];
            ev->seg_fp[c] += !in_ref[c] && in_sys[c];
            ev->seg_fn[c] += in_ref[c] && !in_sys[c];
        }
        ev->seg_s += (n_ref < n_sys ? n_ref : n_sys) - tp;
        ev->seg_d += n_ref > n_sys ? n_ref - n_sys : 0;
        ev->seg_i += n_sys > n_ref ? n_sys - n_ref : 0;
    }
    ev->segments += n_seg;
    free(in_ref);
    free(in_sys);
    return 0;
}

/* The counts zeroed, the settings kept. */
static void reset(sl_events *ev)
{
    sl_events kept;
    sl_events_init(&kept, ev->n_classes, ev->collar, ev->segment);
    memcpy(kept.scored, ev->scored, sizeof kept.scored);
    *ev = kept;
}

/* from's counts added to to's. */
static void merge(sl_events *to, const sl_events *from)
{
    for (int c = 0; c < SL_MAX_CLASSES; c++) {
        to->ev_ref[c] += from->ev_ref[c];
        to->ev_sys[c] += from->ev_sys[c];
        to->ev_tp[c] += from->ev_tp[c];
        to->seg_tp[c] += from->seg_tp[c];
        to->seg_fp[c] += from->seg_fp[c];
        to->seg_fn[c] += from->seg_fn[c];
    }
    to->ev_subs += from->ev_subs;
    to->seg_s += from->seg_s;
    to->seg_d += from->seg_d;
    to->seg_i += from->seg_i;
    to->segments += from->segments;
}

void sl_events_init(sl_events *ev, int n_classes, int collar_frames, int segment_frames)
{
    memset(ev, 0, sizeof *ev);
    ev->n_classes = n_classes;
    for (int c = 0; c < n_classes; c++)
        ev->scored[c] = 1;
    ev->collar = collar_frames;
    ev->segment = segment_frames > 0 ? segment_frames : 1;
}

int sl_events_add(sl_events *ev, const int32_t *ref, const int32_t *sys, int64_t n)
{
    int64_t nr = 0, ns = 0;
    event *r = runs_of(ev, ref, n, &nr), *s = r ? runs_of(ev, sys, n, &ns) : NULL;
    int rc = r && s && add_events(ev, r, nr, s, ns) == 0 && add_segments(ev, r, nr, s, ns) == 0
                 ? 0
                 : -1;
    free(r);
    free(s);
    return rc;
}

int sl_events_add_file(sl_events *total, sl_events *file, const int32_t *ref,
                       const int32_t *sys, int64_t n)
{
    *file = *total;
    reset(file);
    if (sl_events_add(file, ref, sys, n))
        return -1;
    merge(total, file);
    return 0;
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }
static double f_measure(double tp, double n_ref, double n_sys)
{
    return n_ref + n_sys > 0 ? 2.0 * tp / (n_ref + n_sys) : 0.0;
}

void sl_events_summary(const sl_events *ev, sl_event_figures *f)
{
    memset(f, 0, sizeof *f);
    double ref = 0, sys = 0, tp = 0, macro_ev = 0, macro_seg = 0;
    double seg_tp = 0, seg_ref = 0, seg_sys = 0; /* active classes summed over segments */
    int classes = 0;
    for (int c = 0; c < ev->n_classes; c++) {
        ref += (double)ev->ev_ref[c];
        sys += (double)ev->ev_sys[c];
        tp += (double)ev->ev_tp[c];
        seg_tp += (double)ev->seg_tp[c];
        seg_ref += (double)(ev->seg_tp[c] + ev->seg_fn[c]);
        seg_sys += (double)(ev->seg_tp[c] + ev->seg_fp[c]);
        if (!ev->scored[c] || (!ev->ev_ref[c] && !ev->ev_sys[c]))
            continue;
        classes++;
        macro_ev += f_measure((double)ev->ev_tp[c], (double)ev->ev_ref[c], (double)ev->ev_sys[c]);
        macro_seg += f_measure((double)ev->seg_tp[c], (double)(ev->seg_tp[c] + ev->seg_fn[c]),
                               (double)(ev->seg_tp[c] + ev->seg_fp[c]));
    }
    f->event_ref = (int64_t)ref;
    f->event_sys = (int64_t)sys;
    f->event_precision = ratio(tp, sys);
    f->event_recall = ratio(tp, ref);
    f->event_f1 = f_measure(tp, ref, sys);
    f->event_macro_f1 = classes ? macro_ev / classes : 0.0;
    const double subs = (double)ev->ev_subs;
    f->event_substitution_rate = ratio(subs, ref);
    f->event_deletion_rate = ratio(ref - tp - subs, ref);
    f->event_insertion_rate = ratio(sys - tp - subs, ref);
    f->event_error_rate = f->event_substitution_rate + f->event_deletion_rate +
                          f->event_insertion_rate;
    f->segment_precision = ratio(seg_tp, seg_sys);
    f->segment_recall = ratio(seg_tp, seg_ref);
    f->segment_f1 = f_measure(seg_tp, seg_ref, seg_sys);
    f->segment_macro_f1 = classes ? macro_seg / classes : 0.0;
    f->segment_error_rate =
        ratio((double)(ev->seg_s + ev->seg_d + ev->seg_i), seg_ref);
}

/* Whether the segments hold an active class in the reference (*ref) and in the
 * system (*sys): without them segment recall, or precision, is undefined. */
static void segments_active(const sl_events *ev, int *ref, int *sys)
{
    int64_t r = 0, s = 0;
    for (int c = 0; c < ev->n_classes; c++) {
        r += ev->seg_tp[c] + ev->seg_fn[c];
        s += ev->seg_tp[c] + ev->seg_fp[c];
    }
    *ref = r > 0;
    *sys = s > 0;
}

/* Class c's event-based and segment-based F1 and error rate. */
static void class_figures(const sl_events *ev, int c, double *ev_f1, double *ev_er,
                          double *seg_f1, double *seg_er)
{
    const double ref = (double)ev->ev_ref[c], sys = (double)ev->ev_sys[c],
                 tp = (double)ev->ev_tp[c];
    *ev_f1 = f_measure(tp, ref, sys);
    *ev_er = ratio((ref - tp) + (sys - tp), ref);
    const double sref = (double)(ev->seg_tp[c] + ev->seg_fn[c]);
    const double ssys = (double)(ev->seg_tp[c] + ev->seg_fp[c]);
    *seg_f1 = f_measure((double)ev->seg_tp[c], sref, ssys);
    *seg_er = ratio((double)(ev->seg_fn[c] + ev->seg_fp[c]), sref);
}


void sl_events_print(const sl_events *ev, const char *const *names, double frame_s,
                     const char *prefix, void *fpv)
{
    FILE *fp = fpv;
    sl_event_figures f;
    sl_events_summary(ev, &f);
    fprintf(fp, "%sevents (runs of one class; onset within %.3f s, offset within %.3f s or half "
                "the event; sed_eval's event-based metrics)\n",
            prefix, ev->collar * frame_s, ev->collar * frame_s);
    char fa[32], fb[32], fc[32], fd[32], fe[32];
    const int any = f.event_ref + f.event_sys > 0, has_ref = f.event_ref > 0;
    int seg_ref, seg_sys;
    segments_active(ev, &seg_ref, &seg_sys);
    fprintf(fp, "%sevent_f1 %s  precision %s  recall %s  macro_f1 %s  reference %lld  "
                "system %lld\n",
            prefix, sl_text_figure(fa, sizeof fa, any, f.event_f1),
            sl_text_figure(fc, sizeof fc, f.event_sys > 0, f.event_precision),
            sl_text_figure(fd, sizeof fd, has_ref, f.event_recall),
            sl_text_figure(fb, sizeof fb, any, f.event_macro_f1), (long long)f.event_ref,
            (long long)f.event_sys);
    fprintf(fp, "%sevent_error_rate %s  substitutions %s  deletions %s  insertions %s\n",
            prefix, sl_text_figure(fa, sizeof fa, has_ref, f.event_error_rate),
            sl_text_figure(fb, sizeof fb, has_ref, f.event_substitution_rate),
            sl_text_figure(fc, sizeof fc, has_ref, f.event_deletion_rate),
            sl_text_figure(fd, sizeof fd, has_ref, f.event_insertion_rate));
    /* a segment is active where an event is: the same counts say what is defined */
    fprintf(fp, "%ssegments of %.3f s: segment_f1 %s  precision %s  recall %s  macro_f1 "
                "%s  error_rate %s  segments %lld\n",
            prefix, ev->segment * frame_s, sl_text_figure(fa, sizeof fa, any, f.segment_f1),
            sl_text_figure(fc, sizeof fc, seg_sys, f.segment_precision),
            sl_text_figure(fd, sizeof fd, seg_ref, f.segment_recall),
            sl_text_figure(fb, sizeof fb, any, f.segment_macro_f1),
            sl_text_figure(fe, sizeof fe, has_ref, f.segment_error_rate),
            (long long)ev->segments);
    fprintf(fp, "%s%-16s %9s %9s %10s %10s %10s %11s\n", prefix, "class", "event_f1",
            "event_er", "reference", "system", "segment_f1", "segment_er");
    for (int c = 0; c < ev->n_classes; c++) {
        if (!ev->scored[c])
            continue;
        double ef, eer, sf, ser;
        class_figures(ev, c, &ef, &eer, &sf, &ser);
        const int64_t sref = ev->seg_tp[c] + ev->seg_fn[c], ssys = ev->seg_tp[c] + ev->seg_fp[c];
        char name[4 * SL_MAX_CLASS_NAME + 32];
        fprintf(fp, "%s%s %9s %9s %10lld %10lld %10s %11s\n", prefix,
                sl_text_field(name, sizeof name, names[c], 16, 0, 0),
                sl_text_figure(fa, sizeof fa, ev->ev_ref[c] + ev->ev_sys[c] > 0, ef),
                sl_text_figure(fb, sizeof fb, ev->ev_ref[c] > 0, eer), (long long)ev->ev_ref[c],
                (long long)ev->ev_sys[c], sl_text_figure(fc, sizeof fc, sref + ssys > 0, sf),
                sl_text_figure(fd, sizeof fd, sref > 0, ser));
    }
}

int sl_events_format_json(const sl_events *ev, const char *const *names, double frame_s,
                          char *buf, size_t len)
{
    sl_text t = {buf, len, 0};
    sl_event_figures f;
    sl_events_summary(ev, &f);
    const int any = f.event_ref + f.event_sys > 0, has_ref = f.event_ref > 0;
    int seg_ref, seg_sys;
    segments_active(ev, &seg_ref, &seg_sys);
    sl_text_put(&t, "{\"events\":{\"collar_s\":%.9g,", ev->collar * frame_s);
    sl_text_json_figure(&t, "f1", any, f.event_f1);
    sl_text_json_next_figure(&t, "precision", f.event_sys > 0, f.event_precision);
    sl_text_json_next_figure(&t, "recall", has_ref, f.event_recall);
    sl_text_json_next_figure(&t, "macro_f1", any, f.event_macro_f1);
    sl_text_json_next_figure(&t, "error_rate", has_ref, f.event_error_rate);
    sl_text_json_next_figure(&t, "substitution_rate", has_ref, f.event_substitution_rate);
    sl_text_json_next_figure(&t, "deletion_rate", has_ref, f.event_deletion_rate);
    sl_text_json_next_figure(&t, "insertion_rate", has_ref, f.event_insertion_rate);
    sl_text_put(&t, ",\"reference\":%lld,\"system\":%lld},", (long long)f.event_ref,
                (long long)f.event_sys);
    sl_text_put(&t, "\"segments\":{\"segment_s\":%.9g,", ev->segment * frame_s);
    sl_text_json_figure(&t, "f1", any, f.segment_f1);
    sl_text_json_next_figure(&t, "precision", seg_sys, f.segment_precision);
    sl_text_json_next_figure(&t, "recall", seg_ref, f.segment_recall);
    sl_text_json_next_figure(&t, "macro_f1", any, f.segment_macro_f1);
    sl_text_json_next_figure(&t, "error_rate", has_ref, f.segment_error_rate);
    sl_text_put(&t, ",\"segments\":%lld},\"classes\":[", (long long)ev->segments);
    int first = 1;
    for (int c = 0; c < ev->n_classes; c++) {
        if (!ev->scored[c])
            continue;
        double ef, eer, sf, ser;
        class_figures(ev, c, &ef, &eer, &sf, &ser);
        const int64_t sref = ev->seg_tp[c] + ev->seg_fn[c], ssys = ev->seg_tp[c] + ev->seg_fp[c];
        sl_text_put(&t, "%s{\"name\":", first ? "" : ",");
        sl_text_json_string(&t, names[c]);
        sl_text_json_next_figure(&t, "event_f1", ev->ev_ref[c] + ev->ev_sys[c] > 0, ef);
        sl_text_json_next_figure(&t, "event_error_rate", ev->ev_ref[c] > 0, eer);
        sl_text_put(&t, ",\"reference\":%lld,\"system\":%lld,", (long long)ev->ev_ref[c],
                    (long long)ev->ev_sys[c]);
        sl_text_json_figure(&t, "segment_f1", sref + ssys > 0, sf);
        sl_text_json_next_figure(&t, "segment_error_rate", sref > 0, ser);
        sl_text_put(&t, "}");
        first = 0;
    }
    sl_text_put(&t, "]}\n");
    return sl_text_finish(&t);
}
