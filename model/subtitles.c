/* Subtitle files as label files: WebVTT (as `seqlabel label --format webvtt`
 * writes them, and as browsers and subtitle editors do) and SubRip (.srt, the
 * subtitle editors' common format). A cue is a segment and its text the
 * class: so a labeling corrected in a subtitle editor trains a model, and
 * `seqlabel eval --hyp` scores the subtitles `seqlabel label` wrote.
 *
 * The file is a sequence of blocks separated by blank lines. A block whose
 * first or second line holds "-->" is a cue: an identifier line (optional),
 * the timing line "START --> END [settings]", then the text, which ends at a
 * blank line or at the next line with "-->" (as WebVTT's parser reads it; a
 * SubRip file without its blank line has the next cue's number before it; in
 * SubRip's text only a whole timing line counts, so a class named "-->" reads
 * back).
 * WebVTT begins "WEBVTT"; its header, NOTE, STYLE and REGION blocks hold no
 * "-->" (the specification forbids it) and are skipped. Times are [hh:]mm:ss.ttt
 * (WebVTT) or hh:mm:ss,ttt (SubRip; '.' taken too). The text's markup
 * (<v Bob>, <i>, SubRip's {\an8}) is dropped, WebVTT's character references
 * read, its lines trimmed and joined by one space; a cue with no text labels
 * nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "model/label_files.h"
#include "common/text.h"

/* n digits at *p into *v; 0, or -1 when they are not all digits. */
static int digits(const char **p, int n, long long *v)
{
    *v = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (**p < '0' || **p > '9')
            return -1;
        *v = *v * 10 + (**p - '0');
    }
    return 0;
}

/* A cue time at *p, [h...:]mm:ss.ttt (',' for '.' in SubRip), into seconds;
 * *p moved past it. 0, or -1 when it is not one. */
static int cue_time(const char **p, int srt, double *out)
{
    const char *s = *p;
    long long part[4] = {0}, v;
    int n = 0;
    /* up to three ':'-separated fields: the first may have any number of digits */
    for (;;) {
        const char *start = s;
        v = 0;
        while (*s >= '0' && *s <= '9' && s - start < 12)
            v = v * 10 + (*s++ - '0');
        if (s == start || n == 3)
            return -1;
        part[n++] = v;
        if (*s != ':')
            break;
        s++;
    }
    if (n < 2 || (*s != '.' && !(srt && *s == ',')))
        return -1;
    s++;
    long long ms;
    if (digits(&s, 3, &ms))
        return -1;
    long long h = n == 3 ? part[0] : 0, m = part[n - 2], sec = part[n - 1];
    if (m > 59 || sec > 59)
        return -1;
    /* whole milliseconds over 1000: the double nearest the decimal time, as
     * strtod reads it from an Audacity or JSON file (seconds + ms / 1000.0 is
     * off by one step for some, moving a frame centred on it) */
    *out = (double)(((h * 60 + m) * 60 + sec) * 1000 + ms) / 1000.0;
    *p = s;
    return 0;
}

/* The timing line "START --> END [settings]": 0, or -1. */
static int timing_line(const char *line, int srt, double *start, double *end)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (cue_time(&p, srt, start))
        return -1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "-->", 3))
        return -1;
    p += 3;
    while (*p == ' ' || *p == '\t')
        p++;
    if (cue_time(&p, srt, end))
        return -1;
    /* WebVTT's cue settings, SubRip's X1: coordinates */
    return *p == '\0' || *p == ' ' || *p == '\t' ? 0 : -1;
}

/* WebVTT's character references: the named ones it defines and numeric ones.
 * Returns the bytes of s taken (0: not one), the character put into t. */
static size_t char_reference(sl_text *t, const char *s)
{
    static const struct {
        const char *name, *utf8;
    } named[] = {{"&amp;", "&"},          {"&lt;", "<"},           {"&gt;", ">"},
                 {"&quot;", "\""},        {"&apos;", "'"},          {"&nbsp;", "\xc2\xa0"},
                 {"&lrm;", "\xe2\x80\x8e"}, {"&rlm;", "\xe2\x80\x8f"}};
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        if (!strncmp(s, named[k].name, strlen(named[k].name))) {
            sl_text_put(t, "%s", named[k].utf8);
            return strlen(named[k].name);
        }
    if (s[1] != '#')
        return 0;
    int hex = s[2] == 'x' || s[2] == 'X';
    char *end;
    unsigned long cp = strtoul(s + 2 + hex, &end, hex ? 16 : 10);
    if (end == s + 2 + hex || *end != ';' || cp == 0 || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    char u[5] = {0};
    if (cp < 0x80) {
        u[0] = (char)cp;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
    } else {
        u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F));
    }
    sl_text_put(t, "%s", u);
    return (size_t)(end + 1 - s);
}

/* The end of SubRip's markup at s, <i>, </b>, <font color=...> (u, s too),
 * or NULL: other text in angle brackets is text ("<sil>" a class). */
static const char *srt_tag_end(const char *s)
{
    static const char *const tags[] = {"i", "b", "u", "s", "font"};
    const char *p = s + 1 + (s[1] == '/');
    for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++) {
        size_t n = strlen(tags[k]);
        if (!strncasecmp(p, tags[k], n) && (p[n] == '>' || (p[n] == ' ' && n == 4)))
            return strchr(p + n, '>');
    }
    return NULL;
}

/* One text line of a cue into t, its markup dropped (and for WebVTT its
 * references read); sep: a space before it. WebVTT's text holds '<' only as
 * markup (a '<' of text is &lt;), SubRip's its few tags alone. */
static void cue_text(sl_text *t, const char *line, int vtt, int sep)
{
    if (sep)
        sl_text_put(t, " ");
    for (const char *s = line; *s;) {
        const char *close = NULL;
        if (*s == '<')
            close = vtt ? strchr(s, '>') : srt_tag_end(s);
        else if (!vtt && s[0] == '{' && s[1] == '\\')
            close = strchr(s, '}');
        if (close) {
            s = close + 1;
            continue;
        }
        size_t took = vtt && *s == '&' ? char_reference(t, s) : 0;
        if (!took) {
            sl_text_put(t, "%c", *s);
            took = 1;
        }
        s += took;
    }
}

/* Whether s is all digits: a SubRip cue's number. */
static int all_digits(const char *s)
{
    return s[strspn(s, "0123456789")] == '\0';
}

/* The file being read, and its cue being read. */
typedef struct {
    const char *path;
    int vtt;
    sl_label_segment *s;
    int cnt, cap;
    int cue, cue_line; /* cue: its text lines so far + 1; 0: none open */
    double start, end;
    char name[SL_MAX_CLASS_NAME * 4 + 8];
    sl_text t;
    /* where the last text line began in t, and whether it is a bare number:
     * SubRip's index line of the next cue, when no blank line precedes it */
    size_t before_last;
    int last_is_number;
    /* a first text line that is one SubRip tag alone ("<s>"), as written */
    int lone_tag;
    char tag[SL_MAX_CLASS_NAME + 1];
    char *err;
    size_t errlen;
} reader;

/* The cue open, if any, as a segment (none when it has no text). 0 or -1. */
static int end_cue(reader *r)
{
    int rc = 0;
    if (r->cue) {
        int need = sl_text_finish(&r->t);
        char *label = sl_trim_space(r->name);
        if (!*label && r->lone_tag && r->cue == 2) /* that tag was all the cue said */
            label = r->tag;
        if (need >= (int)sizeof r->name) /* (too long to hold) */
            rc = sl_fail(r->err, r->errlen, "%s:%d: a cue's text must be a class name of at "
                         "most %d bytes without tabs", r->path, r->cue_line, SL_MAX_CLASS_NAME);
        else if (*label && sl_label_name_unfit(r->path, r->cue_line, label, r->err, r->errlen))
            rc = -1;
        else if (r->end < r->start)
            rc = sl_fail(r->err, r->errlen, "%s:%d: cue ends (%.12g s) before it starts (%.12g s)",
                         r->path, r->cue_line, r->end, r->start);
        else if (*label &&
                 sl_segments_push(&r->s, &r->cnt, &r->cap, r->start, r->end, label, r->cue_line))
            rc = sl_fail(r->err, r->errlen, "%s: out of memory", r->path);
    }
    r->cue = 0;
    r->t = (sl_text){r->name, sizeof r->name, 0};
    return rc;
}

/* A cue opened by its timing line. 0 or -1. */
static int begin_cue(reader *r, const char *line, int line_no)
{
    if (timing_line(line, !r->vtt, &r->start, &r->end))
        return sl_fail(r->err, r->errlen, "%s:%d: expected a cue's times, %s --> %s", r->path,
                       line_no, r->vtt ? "00:01.500" : "00:00:01,500",
                       r->vtt ? "00:02.000" : "00:00:02,000");
    r->cue = 1;
    r->cue_line = line_no;
    return 0;
}

/* A line of the open cue's text. */
static void add_text(reader *r, char *line)
{
    line = sl_trim_space(line);
    if (!*line)
        return;
    r->before_last = r->t.pos;
    r->last_is_number = all_digits(line);
    cue_text(&r->t, line, r->vtt, r->cue > 1);
    /* SubRip: a cue's first line that is one tag alone is kept as written, in
     * case it is the cue's whole text: a class named "<s>" (ASR's sentence
     * start), which `seqlabel label --format srt` writes as it is (end_cue) */
    if (r->cue == 1) {
        r->lone_tag = !r->vtt && line[0] == '<' && srt_tag_end(line) &&
                      srt_tag_end(line)[1] == '\0' && strlen(line) < sizeof r->tag;
        if (r->lone_tag)
            snprintf(r->tag, sizeof r->tag, "%s", line);
    }
    r->cue++;
}

int sl_subtitles_read(const char *path, sl_label_segment **segs, int *n, char *err,
                      size_t errlen)
{
    *segs = NULL;
    *n = 0;
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return -1;
    reader r = {.path = path, .err = err, .errlen = errlen};
    r.vtt = !strncmp(text, "WEBVTT", 6) && (text[6] == '\0' || strchr(" \t\r\n", text[6]));
    r.t = (sl_text){r.name, sizeof r.name, 0};
    int line_no = 0, rc = 0;
    if (!r.vtt && !strcasecmp(sl_path_extension_at(path), ".vtt"))
        rc = sl_fail(err, errlen, "%s:1: not a WebVTT file (it begins with the line 'WEBVTT')",
                     path);
    char *p = text, *line;
    /* the block being read: its lines so far; WebVTT's header (the first
     * block) and its other blocks are skipped */
    int in_block = 0, skip_block = r.vtt;
    for (;;) {
        line = rc ? NULL : sl_next_line(&p);
        if (line)
            line_no++;
        if (line && !line[0] && !r.vtt && r.cue == 1)
            continue; /* SubRip: a cue's text may follow a blank line (ffmpeg reads it so) */
        if (!line || !line[0]) { /* a block ends */
            if (rc == 0)
                rc = end_cue(&r);
            in_block = skip_block = 0;
            if (!line)
                break;
            continue;
        }
        in_block++;
        double t0, t1;
        /* in a SubRip cue's text, a line with "-->" that is no timing line is
         * text (SubRip has no escapes: a class may be named "-->") */
        const int times = strstr(line, "-->") != NULL && !(r.vtt && line_no == 1) &&
                          !(!r.vtt && r.cue && timing_line(line, 1, &t0, &t1) != 0);
        /* a cue's times end the header, or any other block, as WebVTT's
         * parser reads them (such a line in a NOTE is forbidden) */
        if (skip_block && !times)
            continue;
        if (times) {
            /* a cue, after a blank line or right after the last cue's text
             * (WebVTT's parser starts a cue there; SubRip's editors leave the
             * blank line out at times, and its index line is then no text) */
            if (r.cue > 1 && !r.vtt && r.last_is_number) {
                r.t.pos = r.before_last;
                r.cue--; /* that line was no text */
            }
            rc = end_cue(&r);
            if (rc == 0)
                rc = begin_cue(&r, line, line_no);
            skip_block = 0;
        } else if (r.cue) {
            add_text(&r, line);
        } else if (!r.vtt && !(in_block == 1 && all_digits(line))) {
            /* SubRip's blocks are a number, the times and the text: nothing
             * else may go before the times, whose text would be lost */
            rc = sl_fail(err, errlen, "%s:%d: expected a cue's times, 00:00:01,500 --> "
                         "00:00:02,000 (a SubRip file is blocks of a number, the times and the "
                         "text)", path, line_no);
        } else if (in_block > 1) {
            /* two lines and no times: WebVTT's other blocks (NOTE, STYLE,
             * REGION) are skipped */
            skip_block = 1;
        }
    }
    free(text);
    return sl_segments_finish(path, r.s, r.cnt, rc, segs, n, err, errlen);
}
