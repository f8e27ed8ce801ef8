/* Praat TextGrid files as training labels: one interval tier's non-empty
 * intervals become segments, as an Audacity label track's lines do.
 *
 * Praat reads its text formats (long, short, and anything between) as a stream
 * of values: numbers, strings in double quotes ("" inside is a quote) and flags
 * in angle brackets; everything else is a comment to it: the "xmin =" and
 * "intervals:" words, little numbers in square brackets, and text after '!' to
 * the end of the line. This reader does the same. Praat saves a TextGrid with
 * non-ASCII text as UTF-16 with a byte order mark; that is converted (iconv). */
#include <iconv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "model/label_files.h"
#include "common/text.h"

/* The whole file as NUL-terminated UTF-8 (UTF-16 and UTF-8 byte order marks
 * honoured). */
static char *read_utf8(const char *path, char *err, size_t errlen)
{
    size_t n;
    char *buf = sl_read_file(path, &n, err, errlen);
    if (!buf)
        return NULL;
    const unsigned char *u = (const unsigned char *)buf;
    if (n >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) || (u[0] == 0xFF && u[1] == 0xFE))) {
        iconv_t cd = iconv_open("UTF-8", u[0] == 0xFE ? "UTF-16BE" : "UTF-16LE");
        size_t out_cap = 2 * n + 1, in_left = n - 2, out_left = out_cap - 1;
        char *out = cd == (iconv_t)-1 ? NULL : malloc(out_cap);
        char *in = buf + 2, *o = out;
        int ok = out && iconv(cd, &in, &in_left, &o, &out_left) != (size_t)-1 && in_left == 0;
        if (cd != (iconv_t)-1)
            iconv_close(cd);
        free(buf);
        if (!ok) {
            free(out);
            return sl_fail(err, errlen, "%s: not valid UTF-16 text", path), NULL;
        }
        *o = '\0';
        n = (size_t)(o - out);
        buf = out;
    } else if (n >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
        memmove(buf, buf + 3, n - 2);
        n -= 3;
    }
    if (strlen(buf) != n) {
        free(buf);
        return sl_fail(err, errlen, "%s: not a text file (contains NUL bytes)", path), NULL;
    }
    return buf;
}

typedef enum { TOK_END, TOK_NUM, TOK_STR, TOK_FLAG } tok_kind;

typedef struct {
    const char *path;
    char *p;     /* next character */
    int line;    /* of p, 1-based */
    tok_kind kind;
    double num;
    char *str;   /* TOK_STR (unescaped, in place) and TOK_FLAG (without <>) */
    int tok_line;
} lexer;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The next value; comments skipped. Strings are unescaped in the buffer. */
static void next(lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (!c) {
            lx->kind = TOK_END;
            lx->tok_line = lx->line;
            return;
        }
        if (is_space(c)) {
            lx->line += c == '\n';
            lx->p++;
        } else if (c == '!' || c == '[') { /* a comment: to the line's end, or to ']' */
            const char stop = c == '!' ? '\n' : ']';
            while (*lx->p && *lx->p != stop) {
                if (*lx->p == '\n')
                    lx->line++;
                lx->p++;
            }
            if (*lx->p == ']')
                lx->p++;
        } else if (c == '"') {
            lx->kind = TOK_STR;
            lx->tok_line = lx->line;
            char *w = ++lx->p;
            lx->str = w;
            for (;;) {
                if (!*lx->p) { /* unterminated: the value is cut short */
                    lx->kind = TOK_END;
                    return;
                }
                if (*lx->p == '"' && lx->p[1] != '"')
                    break;
                if (*lx->p == '"')
                    lx->p++; /* "" is one quote */
                lx->line += *lx->p == '\n';
                *w++ = *lx->p++;
            }
            lx->p++;
            *w = '\0';
            return;
        } else if (c == '<') {
            char *end = strchr(lx->p, '>');
            lx->kind = end ? TOK_FLAG : TOK_END;
            lx->tok_line = lx->line;
            if (!end)
                return;
            *end = '\0';
            lx->str = lx->p + 1;
            lx->p = end + 1;
            return;
        } else {
            char *end;
            double v = sl_strtod_c(lx->p, &end);
            int numeric = end != lx->p && (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'));
            /* a word (xmin, =, intervals:, tiers?) is a comment; so is a number's unit (0s) */
            char *q = numeric ? end : lx->p;
            while (*q && !is_space(*q) && *q != '"' && *q != '<' && *q != '[' && *q != '!')
                q++;
            if (numeric) {
                lx->kind = TOK_NUM;
                lx->num = v;
                lx->tok_line = lx->line;
                lx->p = q;
                return;
            }
            lx->p = q;
        }
    }
}

static int expect(lexer *lx, tok_kind kind, const char *what, char *err, size_t errlen)
{
    next(lx);
    if (lx->kind == kind && (kind != TOK_NUM || isfinite(lx->num)))
        return 0;
    if (lx->kind == TOK_END)
        return sl_fail(err, errlen, "%s: ends before the %s (a TextGrid cut short?)", lx->path, what);
    return sl_fail(err, errlen, "%s:%d: expected the %s", lx->path, lx->tok_line, what);
}

/* A whole, non-negative count. */
static int expect_count(lexer *lx, const char *what, long *out, char *err, size_t errlen)
{
    if (expect(lx, TOK_NUM, what, err, errlen))
        return -1;
    if (lx->num < 0 || lx->num > 1e8 || lx->num != floor(lx->num))
        return sl_fail(err, errlen, "%s:%d: bad %s %.12g", lx->path, lx->tok_line, what, lx->num);
    *out = (long)lx->num;
    return 0;
}

/* Reads the tiers; keeps the intervals of `tier` (NULL: the first interval
 * tier) in *segs. *found: whether that tier was there. `names` collects the
 * interval tiers' names for the message when it was not. */
static int read_tiers(lexer *lx, const char *tier, sl_label_segment **segs, int *n, int *found,
                      char *names, size_t names_len, char *err, size_t errlen)
{
    long n_tiers = 0;
    int cap = 0;
    if (expect(lx, TOK_NUM, "start time", err, errlen) || expect(lx, TOK_NUM, "end time", err, errlen))
        return -1;
    next(lx);
    if (lx->kind == TOK_FLAG && !strcmp(lx->str, "absent"))
        return 0; /* no tiers */
    if (lx->kind != TOK_FLAG || strcmp(lx->str, "exists"))
        return sl_fail(err, errlen, "%s:%d: expected <exists> or <absent> (tiers)", lx->path,
                       lx->tok_line);
    if (expect_count(lx, "number of tiers", &n_tiers, err, errlen))
        return -1;
    for (long t = 0; t < n_tiers; t++) {
        long count = 0;
        if (expect(lx, TOK_STR, "tier class", err, errlen))
            return -1;
        int intervals = !strcmp(lx->str, "IntervalTier");
        if (!intervals && strcmp(lx->str, "TextTier"))
            return sl_fail(err, errlen, "%s:%d: unknown tier class \"%s\"", lx->path, lx->tok_line,
                           lx->str);
        if (expect(lx, TOK_STR, "tier name", err, errlen))
            return -1;
        const char *name = lx->str;
        /* (the name in either Unicode form: a tier named on Linux, NFC, for a
         * TextGrid Praat saved on macOS, NFD) */
        int keep = intervals && !*found && (tier ? sl_text_same(name, tier) : 1);
        if (!intervals && tier && sl_text_same(name, tier))
            return sl_fail(err, errlen, "%s:%d: tier \"%s\" is a point tier; spans come from an "
                           "interval tier", lx->path, lx->tok_line, tier);
        if (intervals) {
            size_t used = strlen(names);
            snprintf(names + used, names_len - used, "%s\"%s\"", used ? ", " : "", name);
        }
        *found |= keep;
        if (expect(lx, TOK_NUM, "tier start", err, errlen) ||
            expect(lx, TOK_NUM, "tier end", err, errlen) ||
            expect_count(lx, intervals ? "number of intervals" : "number of points", &count, err,
                         errlen))
            return -1;
        double prev_end = -INFINITY;
        for (long i = 0; i < count; i++) {
            double a = 0.0, b;
            int start_line = 0;
            if (intervals) {
                if (expect(lx, TOK_NUM, "interval start", err, errlen))
                    return -1;
                a = lx->num;
                start_line = lx->tok_line;
            }
            if (expect(lx, TOK_NUM, intervals ? "interval end" : "point time", err, errlen))
                return -1;
            b = lx->num;
            if (expect(lx, TOK_STR, "text", err, errlen))
                return -1;
            if (!keep)
                continue;
            char *text = sl_trim_space(lx->str);
            if (a < 0.0 || b < a || a < prev_end - 1e-9)
                return sl_fail(err, errlen, "%s:%d: interval %.12g-%.12g s is %s", lx->path,
                               start_line, a, b,
                               a < 0.0 ? "before 0 s" : b < a ? "reversed" : "out of order");
            prev_end = b;
            if (!*text)
                continue; /* an empty interval labels nothing */
            if (strpbrk(text, "\n\r"))
                return sl_fail(err, errlen, "%s:%d: label \"%.40s\" must be one line", lx->path,
                               lx->tok_line, text);
            if (sl_label_name_unfit(lx->path, lx->tok_line, text, err, errlen))
                return -1;
            if (sl_segments_push(segs, n, &cap, a, b, text, lx->tok_line))
                return sl_fail(err, errlen, "%s: out of memory", lx->path);
        }
    }
    return 0;
}

int sl_textgrid_read(const char *path, const char *tier, sl_label_segment **segs, int *n,
                     char *err, size_t errlen)
{
    *segs = NULL;
    *n = 0;
    char *text = read_utf8(path, err, errlen);
    if (!text)
        return -1;
    lexer lx = {.path = path, .p = text, .line = 1};
    char names[512] = "";
    int found = 0, rc;
    next(&lx);
    if (lx.kind == TOK_STR && !strncmp(lx.str, "Praat chronological TextGrid", 28)) {
        rc = sl_fail(err, errlen, "%s: a TextGrid in Praat's chronological format, which is not "
                     "read: save it from Praat with \"Save as text file\" (long) or \"Save as "
                     "short text file\"", path);
    } else if (lx.kind != TOK_STR || strncmp(lx.str, "ooTextFile", 10)) {
        rc = sl_fail(err, errlen, "%s: not a Praat text file (no \"ooTextFile\" at its start)", path);
    } else {
        next(&lx);
        rc = lx.kind != TOK_STR || strcmp(lx.str, "TextGrid")
                 ? sl_fail(err, errlen, "%s: a Praat file, but not a TextGrid", path)
                 : read_tiers(&lx, tier, segs, n, &found, names, sizeof names, err, errlen);
    }
    if (rc == 0 && !found)
        rc = tier ? sl_fail(err, errlen, "%s: no interval tier \"%s\" (interval tiers: %s)", path,
                            tier, *names ? names : "none")
                  : sl_fail(err, errlen, "%s: no interval tier", path);
    free(text);
    if (rc) {
        sl_label_segments_free(*segs, *n);
        *segs = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}
