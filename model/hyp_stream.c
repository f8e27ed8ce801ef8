/* One label file holding several inputs' segments, each row naming its input
 * in a file column (CSV) or key (JSON Lines), as `seqlabel label` writes
 * several inputs to its standard output: read once and split by that name,
 * for `seqlabel eval --hyp` (model/score.c), which finds each entry's part by
 * the entry's name. Reading it once per entry instead would cost the stream's
 * length for every file of the set. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/errors.h"
#include "common/text.h"
#include "model/label_files.h"
#include "seqlabel.h"

typedef struct {
    const char *name; /* the index's key */
    sl_label_segment *segs;
    int n, cap;
    int finished; /* sorted and checked for overlaps */
} stream_part;

struct sl_hyp_stream {
    const char *path;
    int jsonl;
    GHashTable *index; /* normalised name -> part number + 1 */
    stream_part *parts;
    int n, cap;
    int named, unnamed_line, frame_line; /* rows with a name; the first without; a frame's */
};

/* name with '//', '/./' and 'x/..' resolved on the text (sl_normal_path), a
 * leading '/' dropped: a//x, a/./x and a/b/../x are a/x, as label writes a
 * path it walked. malloc'ed; NULL: out of memory. */
static char *normal_name(const char *name)
{
    char *out = sl_normal_path(name, strlen(name));
    if (out && out[0] == '/')
        memmove(out, out + 1, strlen(out));
    return out;
}

/* name as a JSON writer gives it: each byte that is not part of valid UTF-8
 * the replacement character (sl_text_json_string), which a reader decodes to
 * its UTF-8 bytes (malloc'ed; NULL: out of memory). */
static char *as_json_reads_it(const char *name)
{
    char *out = malloc(3 * strlen(name) + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t left = strlen(name); left > 0;) {
        uint32_t cp;
        size_t n = sl_utf8_char(name, left, &cp);
        if (n == 0) {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            n = 1;
        } else {
            memcpy(o, name, n);
            o += n;
        }
        name += n;
        left -= n;
    }
    *o = '\0';
    return out;
}

/* The part of a row's name, made when new: its number; -1 for a row without
 * a name (counted); -2 out of memory (said). */
static int add_name(sl_hyp_stream *s, const char *file, int line, char *err, size_t errlen)
{
    if (!file) {
        if (!s->unnamed_line)
            s->unnamed_line = line;
        return -1;
    }
    s->named++;
    char *key = normal_name(file);
    if (!key)
        return sl_fail(err, errlen, "%s: out of memory", s->path), -2;
    int part = GPOINTER_TO_INT(g_hash_table_lookup(s->index, key)) - 1;
    if (part < 0) {
        if (s->n == s->cap) {
            int cap = s->cap ? 2 * s->cap : 16;
            stream_part *p = realloc(s->parts, sizeof *p * (size_t)cap);
            if (!p) {
                free(key);
                return sl_fail(err, errlen, "%s: out of memory", s->path), -2;
            }
            s->parts = p;
            s->cap = cap;
        }
        part = s->n++;
        s->parts[part] = (stream_part){.name = key};
        g_hash_table_insert(s->index, key, GINT_TO_POINTER(part + 1)); /* takes key */
    } else {
        free(key);
    }
    return part;
}

/* A row into the part of its name. */
static int add_row(sl_hyp_stream *s, const char *file, int line, double start, double end,
                   const char *label, const char *start_text, const char *end_text,
                   char *err, size_t errlen)
{
    const int part = add_name(s, file, line, err, errlen);
    if (part < 0)
        return part == -1 ? 0 : -1;
    stream_part *p = &s->parts[part];
    if (start_text) /* CSV: the times as text, checked as every reader checks them */
        return sl_segment_from_text(s->path, line, start_text, end_text, label, &p->segs, &p->n,
                                    &p->cap, err, errlen);
    return sl_segments_push(&p->segs, &p->n, &p->cap, start, end, label, line)
               ? sl_fail(err, errlen, "%s: out of memory", s->path)
               : 0;
}

static int take_csv(void *user, const sl_csv_row *row, char *err, size_t errlen)
{
    return add_row(user, row->file, row->line, 0, 0, row->label, row->start, row->end, err,
                   errlen);
}

static int take_jsonl(void *user, const sl_jsonl_row *row, char *err, size_t errlen)
{
    sl_hyp_stream *s = user;
    if (row->is_frame && !s->frame_line)
        s->frame_line = row->line;
    /* a frame's name is counted, its part left empty: frames of one name are
     * one input's file, read as such; of several, refused */
    return row->is_frame ? add_name(s, row->file, row->line, err, errlen) >= -1 ? 0 : -1
                         : add_row(s, row->file, row->line, row->start, row->end, row->label,
                                   NULL, NULL, err, errlen);
}

void sl_hyp_stream_free(sl_hyp_stream *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        sl_label_segments_free(s->parts[i].segs, s->parts[i].n);
    free(s->parts);
    if (s->index)
        g_hash_table_destroy(s->index);
    free(s);
}

int sl_hyp_stream_read(const char *path, sl_hyp_stream **out, char *err, size_t errlen)
{
    *out = NULL;
    sl_hyp_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->index = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL))) {
        free(s);
        return sl_fail(err, errlen, "%s: out of memory", path);
    }
    s->path = path;
    s->jsonl = !strcasecmp(sl_path_extension_at(path), ".jsonl");
    int file_column = 0; /* CSV: a header naming one, rows or none */
    int rc = s->jsonl ? sl_jsonl_each(path, NULL, 1, take_jsonl, s, err, errlen)
                      : sl_csv_each(path, 1, &file_column, take_csv, s, err, errlen);
    if (rc == 0 && s->named && s->unnamed_line)
        rc = sl_fail(err, errlen, "%s:%d: a line that names no input (no \"file\") among lines "
                     "of several inputs", path, s->unnamed_line);
    if (rc == 0 && s->n > 1 && s->frame_line)
        rc = sl_fail(err, errlen, "%s:%d: a frame in a stream of several inputs: such a stream "
                     "is read for segments (seqlabel label --segments), frames from a file each "
                     "(seqlabel label -o DIR/)", path, s->frame_line);
    /* frames of one name: one input's file (a stream's lines of one input) */
    if (rc == 0 && (s->named || file_column) && !s->frame_line)
        *out = s;
    else
        sl_hyp_stream_free(s);
    return rc;
}

char *sl_hyp_stream_key(const sl_hyp_stream *s, const char *name)
{
    char *json = s->jsonl ? as_json_reads_it(name) : NULL;
    char *key = (!s->jsonl || json) ? normal_name(json ? json : name) : NULL;
    free(json);
    return key;
}

int sl_hyp_stream_names(const sl_hyp_stream *s) { return s->n; }

const char *sl_hyp_stream_name(const sl_hyp_stream *s, int part) { return s->parts[part].name; }

int sl_hyp_stream_find(const sl_hyp_stream *s, const char *key)
{
    return GPOINTER_TO_INT(g_hash_table_lookup(s->index, key)) - 1;
}

int sl_hyp_stream_segments(sl_hyp_stream *s, int part, const sl_label_segment **segs, int *n,
                           char *err, size_t errlen)
{
    stream_part *p = &s->parts[part];
    if (!p->finished) { /* only the parts the set's files take: others may be anything */
        sl_label_segment *done = NULL;
        int count = 0;
        if (sl_segments_finish(s->path, p->segs, p->n, 0, &done, &count, err, errlen)) {
            p->segs = NULL;
            p->n = p->cap = 0;
            return -1;
        }
        p->segs = done;
        p->n = p->cap = count;
        p->finished = 1;
    }
    *segs = p->segs;
    *n = p->n;
    return 0;
}
