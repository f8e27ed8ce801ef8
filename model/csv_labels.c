/* CSV label files (sl_csv_read): the table `seqlabel label --format csv`
 * writes, and such tables from spreadsheets: a header naming the columns
 * start, end and label (any order, any case; others such as confidence passed
 * over), a row per segment, RFC 4180's quoting (a quoted field may hold commas,
 * doubled quotes and line breaks), LF, CRLF or CR line ends (Excel's "CSV
 * (Macintosh)", whose quoted cells hold LF). A header whose columns are found
 * split at semicolons, not at commas, separates by semicolons, as spreadsheets
 * of locales whose decimal mark is a comma write it, and their times' decimal
 * commas are read. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/errors.h"
#include "common/text.h"
#include "model/label_files.h"
#include "seqlabel.h"

#define CSV_MAX_FIELDS 64

typedef struct {
    char *p;      /* the text not yet read */
    int line;     /* of the record being read (1-based) */
    int next_line; /* of the text at p */
    char sep;     /* ',' or ';' */
} csv_reader;

/* A line break at p: its length (CRLF 2, LF or CR 1), or 0. */
static int line_break(const char *p)
{
    return *p == '\r' ? (p[1] == '\n' ? 2 : 1) : *p == '\n';
}

/* Whether the header line [p, p + len) split at sep names a start, an end and
 * a label column (any case, quoted or not). */
static int names_columns(const char *p, size_t len, char sep)
{
    int found = 0;
    for (size_t i = 0; i <= len;) {
        size_t j = i;
        if (j < len && p[j] == '"') /* quoted, as csv_record reads it: to the quote not doubled */
            for (j++; j < len && !(p[j] == '"' && (j + 1 >= len || p[j + 1] != '"'));)
                j += p[j] == '"' ? 2 : 1;
        while (j < len && p[j] != sep)
            j++;
        const char *f = p + i;
        size_t n = j - i;
        if (n >= 2 && f[0] == '"' && f[n - 1] == '"')
            f++, n -= 2;
        found |= (n == 5 && !strncasecmp(f, "start", 5)) ? 1
                 : (n == 3 && !strncasecmp(f, "end", 3)) ? 2
                 : (n == 5 && !strncasecmp(f, "label", 5)) ? 4 : 0;
        i = j + 1;
    }
    return found == 7;
}

/* Whether the line [p, p + len) holds only separators and empty quoted
 * fields: a spreadsheet's blank row (",,,", ";;;", "";""), whose fields the
 * reader finds empty at its separator. */
static int blank_row(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] == '"' && i + 1 < len && p[i + 1] == '"')
            i++;
        else if (p[i] != ',' && p[i] != ';')
            return 0;
    return 1;
}

/* The separator of the text's first line that is not blank: ',' where the
 * header's columns are found split at commas, ';' where only split at
 * semicolons (a spreadsheet's in a locale whose decimal mark is a comma, whose
 * other columns may hold commas), else ',' (the header then said wrong). */
static char separator(const char *p)
{
    while (*p && (line_break(p) || blank_row(p, strcspn(p, "\r\n")))) /* past blank rows */
        p += line_break(p) ? (size_t)line_break(p) : strcspn(p, "\r\n");
    size_t len = strcspn(p, "\r\n");
    return !names_columns(p, len, ',') && names_columns(p, len, ';') ? ';' : ',';
}

/* A time of a semicolon table with its decimal comma as a point, in place; one
 * that holds a point too (a thousands separator: 1.234,5) is left as it is,
 * and refused as written. */
static void decimal_point(char *t)
{
    if (!strchr(t, '.'))
        for (; *t; t++)
            *t = *t == ',' ? '.' : *t;
}

/* The next record's fields, unquoted in place, into f[]; their count, 0 for
 * a blank line, or -1 at the end of the text, -2 for a quote that never
 * closes, -3 for more than CSV_MAX_FIELDS fields. */
static int csv_record(csv_reader *r, char **f)
{
    char *p = r->p;
    if (!*p)
        return -1;
    r->line = r->next_line;
    int n = 0;
    for (;;) {
        if (n == CSV_MAX_FIELDS)
            return -3;
        char *out = p;
        f[n++] = out;
        if (*p == '"') { /* quoted: up to the quote not doubled */
            p++;
            for (;;) {
                if (!*p)
                    return -2;
                if (*p == '"' && p[1] != '"')
                    break;
                if (line_break(p) == 1) /* (CRLF's LF counts it) */
                    r->next_line++;
                *out++ = *p == '"' ? (p++, '"') : *p;
                p++;
            }
            p++; /* the closing quote; what follows it up to the separator is kept */
        }
        while (*p && *p != r->sep && !line_break(p))
            *out++ = *p++;
        const int at_sep = *p == r->sep, brk = line_break(p); /* (before out ends the field) */
        *out = '\0';
        if (at_sep) {
            p++;
            continue;
        }
        p += brk;
        r->next_line++;
        r->p = p;
        return n == 1 && !f[0][0] ? 0 : n;
    }
}

int sl_csv_each(const char *path, int several, int *file_column, sl_csv_row_fn fn, void *user,
                char *err, size_t errlen)
{
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return -1;
    csv_reader r = {text, 0, 1, separator(text)};
    char *f[CSV_MAX_FIELDS], *first_file = NULL;
    int col_start = -1, col_end = -1, col_label = -1, col_file = -1, cols = 0, k, rc = 0;
    while (rc == 0 && (k = csv_record(&r, f)) != -1) {
        if (k == -2) {
            rc = sl_fail(err, errlen, "%s:%d: a quoted field that never ends", path, r.line);
            break;
        }
        if (k == -3) {
            rc = sl_fail(err, errlen, "%s:%d: more than %d fields", path, r.line, CSV_MAX_FIELDS);
            break;
        }
        int empty = 1; /* a spreadsheet's blank row: ",,," */
        for (int i = 0; i < k && empty; i++)
            empty = !f[i][0];
        if (k == 0 || empty)
            continue;
        if (!cols) { /* the header */
            cols = k;
            for (int i = 0; i < k && rc == 0; i++) {
                int *col = !strcasecmp(f[i], "start") ? &col_start
                           : !strcasecmp(f[i], "end")  ? &col_end
                           : !strcasecmp(f[i], "label") ? &col_label
                           : !strcasecmp(f[i], "file") ? &col_file : NULL;
                if (col && *col >= 0)
                    rc = sl_fail(err, errlen, "%s:%d: two '%s' columns", path, r.line, f[i]);
                else if (col)
                    *col = i;
            }
            if (rc)
                break;
            if (file_column)
                *file_column = col_file >= 0;
            if (col_start < 0 || col_end < 0 || col_label < 0)
                rc = sl_fail(err, errlen, "%s:%d: the header names no %s column (expected "
                             "start,end,label[,confidence], as seqlabel label --format csv "
                             "writes)", path, r.line,
                             col_start < 0 ? "start" : col_end < 0 ? "end" : "label");
            continue;
        }
        if (k != cols) {
            rc = sl_fail(err, errlen, "%s:%d: %d fields, the header has %d", path, r.line, k, cols);
            break;
        }
        if (r.sep == ';') { /* decimal commas */
            decimal_point(f[col_start]);
            decimal_point(f[col_end]);
        }
        const sl_csv_row row = {r.line, col_file < 0 ? NULL : f[col_file], f[col_start],
                                f[col_end], f[col_label]};
        if (row.file && !several)
            rc = sl_one_input(row.file, &first_file, path, r.line, "csv", err, errlen);
        if (rc == 0)
            rc = fn(user, &row, err, errlen);
    }
    if (rc == 0 && !cols)
        rc = sl_fail(err, errlen, "%s: empty: a CSV label file begins with its header "
                     "(start,end,label)", path);
    free(first_file);
    free(text);
    return rc ? -1 : 0;
}

static int take_segment(void *user, const sl_csv_row *row, char *err, size_t errlen)
{
    sl_segment_list *j = user;
    return sl_segment_from_text(j->path, row->line, row->start, row->end, row->label, &j->s,
                                &j->cnt, &j->cap, err, errlen);
}

int sl_csv_read(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    *segs = NULL;
    *n = 0;
    sl_segment_list j = {path, NULL, 0, 0};
    const int rc = sl_csv_each(path, 0, NULL, take_segment, &j, err, errlen);
    return sl_segments_finish(path, j.s, j.cnt, rc, segs, n, err, errlen);
}
