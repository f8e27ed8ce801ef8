/* Subtitle files as label files: WebVTT (as `seqlabel label --format webvtt`
 * writes them, and as browsers and subtitle editors do) and SubRip (.srt, the
 * subtitle editors' common format). A cue is a segment and its text the
 * class: so a labeling corrected in a subtitle editor trains a model, and
 * `seqlabel eval --hyp` scores the subtitles `seqlabel label` wrote.
 *
 * The file is a sequence of blocks separated by blank lines. A block whose
 * first or second line holds "-->" is a cue: an identifier line (optional),
 * the timing line "START --> END [settings]", then the text. WebVTT begins
 * "WEBVTT"; its header, NOTE, STYLE and REGION blocks hold no "-->" (the
 * specification forbids it) and are skipped. Times are [hh:]mm:ss.ttt
 * (WebVTT) or hh:mm:ss,ttt (SubRip; '.' taken too). The text's markup
 * (<v Bob>, <i>, SubRip's {\an8}) is dropped, WebVTT's character references
 * read, its lines trimmed and joined by one space; a cue with no text labels
 * nothing. */
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
    *out = (double)((h * 60 + m) * 60 + sec) + (double)ms / 1000.0;
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

/* One text line of a cue into t, its markup dropped (and for WebVTT its
 * references read); sep: a space before it. */
static void cue_text(sl_text *t, const char *line, int vtt, int sep)
{
    if (sep)
        sl_text_put(t, " ");
    for (const char *s = line; *s;) {
        const char *close = NULL;
        if (*s == '<')
            close = strchr(s, '>');
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

/* s trimmed of ASCII whitespace in place, as TextGrid text is. */
static char *trim(char *s)
{
    s += strspn(s, " \t\r\n");
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
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
    const int vtt = !strncmp(text, "WEBVTT", 6) &&
                    (text[6] == '\0' || strchr(" \t\r\n", text[6]));
    const char *ext = sl_path_extension_at(path);
    sl_label_segment *s = NULL;
    int cnt = 0, cap = 0, line_no = 0, rc = 0;
    if (!vtt && !strcasecmp(ext, ".vtt"))
        rc = sl_fail(err, errlen, "%s:1: not a WebVTT file (it begins with the line 'WEBVTT')",
                     path);
    char *p = text, *line;
    /* the block being read: how many lines so far, and the cue's */
    int in_block = 0, cue = 0, cue_line = 0, skip_block = vtt;
    double start = 0, end = 0;
    char name[SL_MAX_CLASS_NAME * 4 + 8];
    sl_text t = {name, sizeof name, 0};
    for (;;) {
        line = rc ? NULL : sl_next_line(&p);
        if (line)
            line_no++;
        if (!line || !line[0]) { /* a block ends */
            if (cue && rc == 0) {
                int need = sl_text_finish(&t);
                char *label = trim(name);
                if (need >= (int)sizeof name || strlen(label) > SL_MAX_CLASS_NAME ||
                    strchr(label, '\t'))
                    rc = sl_fail(err, errlen, "%s:%d: a cue's text must be a class name of at "
                                 "most %d bytes without tabs", path, cue_line, SL_MAX_CLASS_NAME);
                else if (end < start)
                    rc = sl_fail(err, errlen, "%s:%d: cue ends (%g s) before it starts (%g s)",
                                 path, cue_line, end, start);
                else if (*label && sl_segments_push(&s, &cnt, &cap, start, end, label, cue_line))
                    rc = sl_fail(err, errlen, "%s: out of memory", path);
            }
            in_block = cue = skip_block = 0;
            t = (sl_text){name, sizeof name, 0};
            if (!line)
                break;
            continue;
        }
        in_block++;
        if (skip_block)
            continue;
        if (cue && strstr(line, "-->")) {
            rc = sl_fail(err, errlen, "%s:%d: a cue's times in the text of the cue of line %d (a "
                         "blank line goes between cues)", path, line_no, cue_line);
            continue;
        }
        if (cue) {
            line = trim(line);
            cue_text(&t, line, vtt, cue > 1 && *line);
            cue += *line != '\0';
            continue;
        }
        if (strstr(line, "-->")) {
            if (timing_line(line, !vtt, &start, &end))
                rc = sl_fail(err, errlen, "%s:%d: expected a cue's times, %s --> %s", path,
                             line_no, vtt ? "00:01.500" : "00:00:01,500",
                             vtt ? "00:02.000" : "00:00:02,000");
            cue = 1;
            cue_line = line_no;
        } else if (in_block > 1) {
            /* two lines and no times: WebVTT's other blocks (NOTE, STYLE,
             * REGION) are skipped; SubRip has none */
            if (!vtt)
                rc = sl_fail(err, errlen, "%s:%d: expected a cue's times, 00:00:01,500 --> "
                             "00:00:02,000 (a SubRip file is blocks of a number, the times and "
                             "the text)", path, line_no);
            skip_block = 1;
        }
    }
    free(text);
    return sl_segments_finish(path, s, cnt, rc, segs, n, err, errlen);
}
