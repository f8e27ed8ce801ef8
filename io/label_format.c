/* Label output formats as text lines: Audacity label tracks, the per-frame TSV
 * table, JSON Lines, RTTM, WebVTT and SubRip subtitles, a CSV table of segments;
 * and Praat's TextGrid, a whole
 * document. Formatting into caller buffers (not FILE *) so
 * that the command writes files and the GStreamer element fills buffers with
 * the same bytes. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "seqlabel.h"
#include "common/text.h"

static const char *const format_names[] = {"audacity", "frames", "jsonl", "rttm", "textgrid",
                                           "webvtt", "summary", "srt", "csv"};

int sl_label_format_parse(const char *name, sl_label_format *out)
{
    for (int i = 0; i < (int)(sizeof format_names / sizeof format_names[0]); i++)
        if (name && !strcmp(name, format_names[i])) {
            *out = (sl_label_format)i;
            return 0;
        }
    return -1;
}

const char *sl_label_format_name(sl_label_format f)
{
    if ((int)f < 0 || (int)f >= (int)(sizeof format_names / sizeof format_names[0]))
        return "unknown";
    return format_names[f];
}

/* s into dst[size], cut if it must be before a character that does not fit
 * whole, never inside one (a byte that is no UTF-8 counts as one character). */
static void copy_whole_chars(char *dst, size_t size, const char *s)
{
    size_t len = strlen(s), end = 0;
    while (end < len) {
        uint32_t cp;
        size_t n = sl_utf8_char(s + end, len - end, &cp);
        n = n ? n : 1;
        if (end + n >= size)
            break;
        end += n;
    }
    memcpy(dst, s, end);
    dst[end] = '\0';
}

void sl_label_writer_init(sl_label_writer *w, sl_label_format format, const sl_model *m,
                          const char *file_id)
{
    memset(w, 0, sizeof *w);
    w->format = format;
    const sl_feature_config *fc = sl_model_feature_config(m);
    w->sample_rate = fc->sample_rate;
    w->hop = sl_feature_frame_shift(fc);
    w->n_classes = sl_model_get_config(m)->n_classes;
    for (int k = 0; k < w->n_classes && k < SL_MAX_CLASSES; k++)
        w->class_names[k] = sl_model_class_name(m, k);
    const char *id = file_id && *file_id ? file_id : "-";
    copy_whole_chars(w->file_name, sizeof w->file_name, id);
    sl_rttm_field(w->file_id, sizeof w->file_id, id);
}

int sl_label_format_has_utc(sl_label_format f)
{
    return f == SL_FORMAT_JSONL || f == SL_FORMAT_SUMMARY;
}

int sl_label_format_is_per_frame(const sl_label_writer *w)
{
    return w->format == SL_FORMAT_FRAMES || (w->format == SL_FORMAT_JSONL && !w->jsonl_segments);
}

/* Appending formatter: keeps the snprintf contract (total length needed is
 * returned even when buf is too small). */
/* A class name as an RTTM field (sl_rttm_field: a model trained before names
 * were kept free of spaces may hold some). */
static void put_field(sl_text *t, const char *s)
{
    char field[SL_MAX_CLASS_NAME + 1];
    sl_rttm_field(field, sizeof field, s);
    sl_text_put(t, "%s", field);
}

/* A subtitle timestamp, hh:mm:ss.ttt (milliseconds, rounded); SubRip puts a
 * ',' before the milliseconds, WebVTT a '.'. */
static void put_cue_time(sl_text *t, double s, char mark)
{
    long long ms = llround(s * 1000.0);
    sl_text_put(t, "%02lld:%02lld:%02lld%c%03lld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
                mark, ms % 1000);
}

/* WebVTT cue text: '&' and '<' start markup, so they are escaped. */
static void put_vtt_text(sl_text *t, const char *s)
{
    for (; *s; s++)
        sl_text_put(t, *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : "%c", *s);
}

/* A CSV field (RFC 4180): as it is, or quoted, its quotes doubled, where it
 * holds a comma, a quote or a line break (or begins or ends with a blank,
 * which some readers trim). */
static void put_csv_field(sl_text *t, const char *s)
{
    size_t n = strlen(s);
    if (!strpbrk(s, ",\"\r\n") && !(n && (isspace((unsigned char)s[0]) ||
                                           isspace((unsigned char)s[n - 1])))) {
        sl_text_put(t, "%s", s);
        return;
    }
    sl_text_put(t, "\"");
    for (; *s; s++)
        sl_text_put(t, *s == '"' ? "\"\"" : "%c", *s);
    sl_text_put(t, "\"");
}

/* How a per-frame or segment line begins: JSON Lines' "{" (with the key
 * "file" first when lines name their file), or the file's column. */
static void put_file_name(sl_text *t, const sl_label_writer *w)
{
    if (w->format == SL_FORMAT_CSV) {
        if (w->name_lines) {
            put_csv_field(t, w->file_name);
            sl_text_put(t, ",");
        }
    } else if (w->format == SL_FORMAT_JSONL) {
        sl_text_put(t, "{");
        if (w->name_lines) {
            sl_text_put(t, "\"file\":");
            sl_text_json_string(t, w->file_name);
            sl_text_put(t, ",");
        }
    } else if (w->name_lines) {
        sl_text_put(t, "%s\t", w->file_id);
    }
}

static double frame_time(const sl_label_writer *w, int64_t frame)
{
    return (double)frame * (double)w->hop / (double)w->sample_rate;
}

/* With a UTC origin: `,"key":"2026-12-05T10:00:00.070000Z"`, frame's start. */
static void put_utc(sl_text *t, const sl_label_writer *w, const char *key, int64_t frame)
{
    if (!w->has_utc_origin)
        return;
    /* frame * hop / rate seconds, exact to the microsecond and without overflow
     * for any stream: whole seconds of rate frames, then the rest */
    int64_t q = frame / w->sample_rate, r = frame % w->sample_rate;
    int64_t us = w->utc_origin_us + q * w->hop * 1000000 + r * w->hop * 1000000 / w->sample_rate;
    int64_t s = us / 1000000 - (us % 1000000 < 0); /* floor: before 1970 too */
    time_t tt = (time_t)s;
    struct tm tm;
    if (!gmtime_r(&tt, &tm))
        return;
    sl_text_put(t, ",\"%s\":\"%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ\"", key, tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                (long long)(us - s * 1000000));
}

static int valid(const sl_label_writer *w, char *buf, size_t len)
{
    if (!w || (!buf && len) || w->n_classes < 1 || w->sample_rate <= 0 || w->hop <= 0)
        return 0;
    if (len)
        buf[0] = '\0';
    return 1;
}

int sl_label_writer_set_skip(sl_label_writer *w, const char *list, int keep_only, char *err,
                             size_t errlen)
{
    unsigned char named[SL_MAX_CLASSES] = {0};
    const char *all = list ? list : "";
    for (const char *p = all; *p || (p > all && p[-1] == ',');) { /* "noise," ends empty */
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *a = p, *b = p + len;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        if (b == a) { /* ",noise", "noise,": a name left out, or a stray comma */
            sl_text t = {err, errlen, 0};
            sl_text_put(&t, "an empty name in the list (a comma too many?)");
            sl_text_finish(&t);
            return -1;
        }
        char name[SL_MAX_CLASS_NAME * 4 + 1]; /* (longer is no class: cut, it stays none) */
        snprintf(name, sizeof name, "%.*s", (int)(b - a), a);
        int k = sl_text_index(w->class_names, w->n_classes, name);
        k = k < 0 ? w->n_classes : k;
        if (k == w->n_classes) {
            sl_text t = {err, errlen, 0};
            char shown[SL_SHOWN_LEN];
            sl_text_shown(shown, name);
            sl_text_put(&t, "no class '%s' (the model's classes:", shown);
            for (k = 0; k < w->n_classes; k++)
                sl_text_put(&t, "%s %s", k ? "," : "", w->class_names[k]);
            sl_text_put(&t, ")");
            sl_text_finish(&t);
            return -1;
        }
        named[k] = 1;
        p += len + (end != NULL);
    }
    for (int k = 0; k < w->n_classes; k++)
        w->skip[k] = keep_only ? !named[k] : named[k];
    return 0;
}

int sl_label_format_header(const sl_label_writer *w, char *buf, size_t len)
{
    if (!valid(w, buf, len))
        return -1;
    sl_text t = {buf, len, 0};
    if (w->format == SL_FORMAT_FRAMES) {
        sl_text_put(&t, "%sframe\ttime\tlabel\tconfidence", w->name_lines ? "file\t" : "");
        for (int k = 0; k < w->n_classes; k++)
            sl_text_put(&t, "\t%s", w->class_names[k]);
        sl_text_put(&t, "\n");
    } else if (w->format == SL_FORMAT_WEBVTT) {
        sl_text_put(&t, "WEBVTT\n\n");
    } else if (w->format == SL_FORMAT_CSV) {
        sl_text_put(&t, "%sstart,end,label,confidence\n", w->name_lines ? "file," : "");
    }
    return sl_text_finish(&t);
}

int sl_label_format_frame(const sl_label_writer *w, char *buf, size_t len, int64_t index, int label,
                          float confidence, const float *probs)
{
    if (!valid(w, buf, len) || label < 0 || label >= w->n_classes || !probs)
        return -1;
    if (!sl_label_format_is_per_frame(w))
        return 0;
    sl_text t = {buf, len, 0};
    put_file_name(&t, w);
    if (w->format == SL_FORMAT_FRAMES) {
        sl_text_put(&t, "%lld\t%.6f\t%s\t%.9g", (long long)index, frame_time(w, index),
            w->class_names[label], confidence);
        for (int k = 0; k < w->n_classes; k++)
            sl_text_put(&t, "\t%.9g", probs[k]);
        sl_text_put(&t, "\n");
    } else {
        sl_text_put(&t, "\"frame\":%lld,\"time\":%.6f", (long long)index, frame_time(w, index));
        put_utc(&t, w, "utc", index);
        sl_text_put(&t, ",\"label\":");
        sl_text_json_string(&t, w->class_names[label]);
        /* JSON has no NaN or Inf (a model's or a caller's probability, which
         * the decoder takes as 0): null */
        sl_text_json_next_figure(&t, "confidence", isfinite(confidence), confidence);
        sl_text_put(&t, ",\"probs\":{");
        for (int k = 0; k < w->n_classes; k++) {
            if (k)
                sl_text_put(&t, ",");
            sl_text_json_string(&t, w->class_names[k]);
            sl_text_put(&t, ":");
            sl_text_json_number(&t, isfinite(probs[k]), probs[k]);
        }
        sl_text_put(&t, "}}\n");
    }
    return sl_text_finish(&t);
}

int sl_label_format_segment(sl_label_writer *w, char *buf, size_t len, int64_t start,
                            int64_t end, int label, float mean_confidence)
{
    if (!valid(w, buf, len) || label < 0 || label >= w->n_classes || end < start)
        return -1;
    if (sl_label_format_is_per_frame(w) || w->skip[label] || sl_label_format_is_document(w))
        return 0;
    sl_text t = {buf, len, 0};
    double t0 = frame_time(w, start), t1 = frame_time(w, end);
    if (w->format == SL_FORMAT_AUDACITY || w->format == SL_FORMAT_JSONL ||
        w->format == SL_FORMAT_CSV)
        put_file_name(&t, w);
    switch (w->format) {
    case SL_FORMAT_AUDACITY:
        sl_text_put(&t, "%.6f\t%.6f\t%s\n", t0, t1, w->class_names[label]);
        break;
    case SL_FORMAT_RTTM:
        sl_text_put(&t, "SPEAKER %s %d %.6f %.6f <NA> <NA> ", w->file_id,
                    w->channel > 0 ? w->channel : 1, t0, t1 - t0);
        put_field(&t, w->class_names[label]);
        sl_text_put(&t, " <NA> <NA>\n");
        break;
    case SL_FORMAT_WEBVTT:
        put_cue_time(&t, t0, '.');
        sl_text_put(&t, " --> ");
        put_cue_time(&t, t1, '.');
        sl_text_put(&t, "\n");
        put_vtt_text(&t, w->class_names[label]);
        sl_text_put(&t, "\n\n");
        break;
    case SL_FORMAT_SRT: /* SubRip has no markup escapes: the name as it is */
        sl_text_put(&t, "%lld\n", (long long)w->segments_written + 1);
        put_cue_time(&t, t0, ',');
        sl_text_put(&t, " --> ");
        put_cue_time(&t, t1, ',');
        sl_text_put(&t, "\n%s\n\n", w->class_names[label]);
        break;
    case SL_FORMAT_CSV:
        sl_text_put(&t, "%.6f,%.6f,", t0, t1);
        put_csv_field(&t, w->class_names[label]);
        sl_text_put(&t, ",%.9g\n", mean_confidence);
        break;
    case SL_FORMAT_JSONL:
        sl_text_put(&t, "\"start\":%.6f,\"end\":%.6f", t0, t1);
        put_utc(&t, w, "start_utc", start);
        put_utc(&t, w, "end_utc", end);
        sl_text_put(&t, ",\"label\":");
        sl_text_json_string(&t, w->class_names[label]);
        sl_text_json_next_figure(&t, "confidence", isfinite(mean_confidence), mean_confidence);
        sl_text_put(&t, ",\"start_frame\":%lld,\"end_frame\":%lld}\n", (long long)start,
                    (long long)end);
        break;
    default:
        return -1;
    }
    int n = sl_text_finish(&t);
    if (n >= 0 && (size_t)n < len)
        w->segments_written++;
    return n;
}

/* A TextGrid string: quotes doubled, as Praat writes them. */
static void put_praat_string(sl_text *t, const char *s)
{
    sl_text_put(t, "\"");
    for (; *s; s++)
        sl_text_put(t, *s == '"' ? "\"\"" : "%c", *s);
    sl_text_put(t, "\"");
}

static void put_interval(const sl_label_writer *w, sl_text *t, long k, int64_t a, int64_t b,
                         const char *name)
{
    if (!t)
        return;
    sl_text_put(t, "        intervals [%ld]:\n", k);
    sl_text_put(t, "            xmin = %.6f \n            xmax = %.6f \n            text = ",
        frame_time(w, a), frame_time(w, b));
    put_praat_string(t, name);
    sl_text_put(t, " \n");
}

/* The end of the last of a stream's segments (0 for none), or -1 when they
 * overlap, run backwards or name no class of the writer's. */
static int64_t segments_end(const sl_label_writer *w, const sl_frame_segment *segs, size_t n)
{
    int64_t prev_end = 0;
    for (size_t i = 0; i < n; i++) {
        const sl_frame_segment *s = &segs[i];
        if (s->start < prev_end || s->end < s->start || s->label < 0 || s->label >= w->n_classes)
            return -1;
        prev_end = s->end;
    }
    return prev_end;
}

/* Where a document's span begins: w->first_frame, or the first segment's start
 * when earlier (a demuxer's first buffer after a seek begins before it). */
static int64_t document_begin(const sl_label_writer *w, const sl_frame_segment *segs, size_t n)
{
    int64_t begin = w->first_frame > 0 ? w->first_frame : 0;
    return n && segs[0].start < begin ? (segs[0].start > 0 ? segs[0].start : 0) : begin;
}

/* The tier's intervals from frame begin, counted (t NULL) or written: the
 * segments not skipped, with empty ones over the time between them. -1 when
 * segments overlap or name no class. */
static long textgrid_intervals(const sl_label_writer *w, sl_text *t, const sl_frame_segment *segs,
                               size_t n, int64_t begin, int64_t end)
{
    long count = 0;
    int64_t at = begin;
    if (segments_end(w, segs, n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const sl_frame_segment *s = &segs[i];
        if (w->skip[s->label] || s->end == s->start)
            continue;
        if (s->start > at)
            put_interval(w, t, ++count, at, s->start, "");
        put_interval(w, t, ++count, s->start, s->end, w->class_names[s->label]);
        at = s->end;
    }
    if (end > at)
        put_interval(w, t, ++count, at, end, "");
    return count;
}

int sl_label_format_textgrid(const sl_label_writer *w, char *buf, size_t len,
                             const sl_frame_segment *segs, size_t n, int64_t end_frame)
{
    if (!valid(w, buf, len) || (n && !segs) || end_frame < 0)
        return -1;
    int64_t begin = document_begin(w, segs, n);
    int64_t end = n && segs[n - 1].end > end_frame ? segs[n - 1].end : end_frame;
    if (end < begin)
        end = begin;
    long count = textgrid_intervals(w, NULL, segs, n, begin, end);
    if (count < 0)
        return -1;
    sl_text t = {buf, len, 0};
    char xmin[32] = "0"; /* as Praat writes a tier from 0 */
    sl_text xt = {xmin, sizeof xmin, 0};
    if (begin > 0)
        sl_text_put(&xt, "%.6f", frame_time(w, begin));
    double xmax = frame_time(w, end);
    sl_text_put(&t, "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n");
    sl_text_put(&t, "xmin = %s \nxmax = %.6f \ntiers? <exists> \nsize = 1 \nitem []: \n", xmin,
                xmax);
    sl_text_put(&t, "    item [1]:\n        class = \"IntervalTier\" \n        name = \"labels\" \n");
    sl_text_put(&t, "        xmin = %s \n        xmax = %.6f \n        intervals: size = %ld \n", xmin,
                xmax, count);
    textgrid_intervals(w, &t, segs, n, begin, end);
    return sl_text_finish(&t);
}

int sl_label_format_is_document(const sl_label_writer *w)
{
    return w->format == SL_FORMAT_TEXTGRID || w->format == SL_FORMAT_SUMMARY;
}

int sl_label_format_document(const sl_label_writer *w, char *buf, size_t len,
                             const sl_frame_segment *segs, size_t n, int64_t end_frame)
{
    if (w && w->format == SL_FORMAT_TEXTGRID)
        return sl_label_format_textgrid(w, buf, len, segs, n, end_frame);
    if (w && w->format == SL_FORMAT_SUMMARY)
        return sl_label_format_summary(w, buf, len, segs, n, end_frame);
    return valid(w, buf, len) ? 0 : -1; /* nothing, NUL-terminated as promised */
}

int sl_label_format_summary(const sl_label_writer *w, char *buf, size_t len,
                            const sl_frame_segment *segs, size_t n, int64_t end_frame)
{
    if (!valid(w, buf, len) || (n && !segs) || end_frame < 0)
        return -1;
    int64_t frames[SL_MAX_CLASSES] = {0}, count[SL_MAX_CLASSES] = {0}, covered = 0;
    int64_t last = segments_end(w, segs, n);
    if (last < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        frames[segs[i].label] += segs[i].end - segs[i].start;
        count[segs[i].label] += segs[i].end > segs[i].start;
        covered += segs[i].end - segs[i].start;
    }
    int64_t begin = document_begin(w, segs, n);
    int64_t end = last > end_frame ? last : end_frame;
    double duration = end > begin ? frame_time(w, end - begin) : 0.0;
    /* time no segment covers (a jump in the stream's time): said, so that it
     * and the shares (with those of skipped classes, not listed) add up to 1 */
    int64_t uncovered = end - begin - covered;
    sl_text t = {buf, len, 0};
    sl_text_put(&t, "{\"file\":");
    sl_text_json_string(&t, w->file_name[0] ? w->file_name : w->file_id);
    if (w->channel > 0)
        sl_text_put(&t, ",\"channel\":%d", w->channel);
    if (begin > 0)
        sl_text_put(&t, ",\"start\":%.6f", frame_time(w, begin));
    sl_text_put(&t, ",\"duration\":%.6f", duration);
    if (uncovered > 0)
        sl_text_put(&t, ",\"unlabelled\":%.6f", frame_time(w, uncovered));
    put_utc(&t, w, "start_utc", begin);
    sl_text_put(&t, ",\"classes\":{");
    int first = 1;
    for (int k = 0; k < w->n_classes; k++) {
        if (w->skip[k])
            continue;
        double sec = frame_time(w, frames[k]);
        sl_text_put(&t, "%s", first ? "" : ",");
        sl_text_json_string(&t, w->class_names[k]);
        sl_text_put(&t, ":{\"seconds\":%.6f,\"share\":%.6f,\"segments\":%lld}", sec,
                    duration > 0 ? sec / duration : 0.0, (long long)count[k]);
        first = 0;
    }
    sl_text_put(&t, "}}\n");
    return sl_text_finish(&t);
}
