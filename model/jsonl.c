/* JSON Lines label files, as `seqlabel label --format jsonl` and the element
 * write them: one object per line, a segment {"start":S,"end":E,"label":NAME,
 * ...} (--segments) or a frame {"frame":I,"time":T,"label":NAME,"probs":{NAME:
 * P,...},...}; other members (confidence, UTC times) are passed over. The
 * lines are parsed by json-glib. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "common/text.h"
#include "model/label_files.h"

/* Member `key` of o as a finite number into *v: 1, or 0 when it is absent or
 * not a number. */
static int number_member(JsonObject *o, const char *key, double *v)
{
    JsonNode *n = json_object_get_member(o, key);
    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return 0;
    GType t = json_node_get_value_type(n);
    if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
        return 0;
    *v = json_node_get_double(n);
    return isfinite(*v);
}

/* The member of o named key, else one named key in another Unicode form
 * (NFD), else key. */
static const char *alike_member(JsonObject *o, const char *key)
{
    if (json_object_has_member(o, key))
        return key;
    const char *found = key;
    GList *names = json_object_get_members(o);
    for (GList *l = names; l; l = l->next)
        if (sl_text_same(l->data, key)) {
            found = l->data; /* (the object's own string, alive as o is) */
            break;
        }
    g_list_free(names);
    return found;
}

/* What json-glib passes over silently in a line: a second value after the
 * first object (a writer that lost a newline) and a NUL (\u0000) in a
 * string, which ends the string there. NULL, or what is wrong; anything else
 * is json-glib's to judge. */
static const char *line_flaw(const char *line)
{
    const char *p = line + strspn(line, " \t");
    int depth = 0;
    if (*p != '{')
        return NULL;
    for (; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\') {
                    if (p[1] == 'u' && !strncmp(p + 2, "0000", 4))
                        return "a NUL character (\\u0000) in a string";
                    if (p[1])
                        p++;
                }
            if (!*p)
                return NULL;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if ((*p == '}' || *p == ']') && --depth == 0) {
            p++;
            return p[strspn(p, " \t")] ? "more after the object (one JSON object a line)" : NULL;
        }
    }
    return NULL;
}

/* The string member "file" of o (the input a stream of several names on each
 * line), or NULL when it has none. */
static const char *file_member(JsonObject *o)
{
    JsonNode *n = json_object_get_member(o, "file");
    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
               ? json_node_get_string(n) : NULL;
}

/* One line's object into row: a segment's or a frame's members. 0, or -1
 * naming the file and line. */
static int read_row(JsonObject *o, const char *path, const char *prob_class, sl_jsonl_row *row,
                    char *err, size_t errlen)
{
    JsonNode *label = json_object_get_member(o, "label");
    if (!label || !JSON_NODE_HOLDS_VALUE(label) || json_node_get_value_type(label) != G_TYPE_STRING)
        return sl_fail(err, errlen, "%s:%d: no \"label\" string", path, row->line);
    row->label = json_node_get_string(label);
    row->is_frame = json_object_has_member(o, "frame");
    /* a segment's label left empty labels nothing (sl_segments_push); a frame's
     * is its class */
    if ((row->label[0] || row->is_frame) &&
        sl_label_name_unfit(path, row->line, row->label, err, errlen))
        return -1;
    if (!row->is_frame) {
        if (!number_member(o, "start", &row->start) || !number_member(o, "end", &row->end) ||
            row->start < 0)
            return sl_fail(err, errlen, "%s:%d: expected a segment, {\"start\":SECONDS,\"end\":"
                           "SECONDS,\"label\":NAME}, or a frame, {\"frame\":N,\"time\":SECONDS,"
                           "\"label\":NAME}", path, row->line);
        if (row->end < row->start)
            return sl_fail(err, errlen, "%s:%d: segment ends (%.12g s) before it starts (%.12g s)",
                           path, row->line, row->end, row->start);
        return 0;
    }
    JsonNode *frame = json_object_get_member(o, "frame");
    double time;
    if (!JSON_NODE_HOLDS_VALUE(frame) || json_node_get_value_type(frame) != G_TYPE_INT64 ||
        json_node_get_int(frame) < 0 || !number_member(o, "time", &time) || time < 0)
        return sl_fail(err, errlen, "%s:%d: expected a frame, {\"frame\":N,\"time\":SECONDS,"
                       "\"label\":NAME,...}", path, row->line);
    row->frame = json_node_get_int(frame);
    row->time = time;
    row->prob = -1.0;
    if (prob_class) {
        JsonNode *probs = json_object_get_member(o, "probs");
        if (!probs || !JSON_NODE_HOLDS_OBJECT(probs) ||
            !number_member(json_node_get_object(probs), alike_member(json_node_get_object(probs),
                                                                     prob_class),
                           &row->prob) ||
            !(row->prob >= 0.0 && row->prob <= 1.0))
            return sl_fail(err, errlen, "%s:%d: no probability of '%s' in [0, 1] (\"probs\")",
                           path, row->line, prob_class);
    }
    return 0;
}

int sl_jsonl_each(const char *path, const char *prob_class, int several, sl_jsonl_row_fn fn,
                  void *user, char *err, size_t errlen)
{
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return -1;
    JsonParser *parser = json_parser_new_immutable();
    int rc = 0, line_no = 0;
    char *p = text, *line, *first_file = NULL;
    while (rc == 0 && (line = sl_next_line(&p)) != NULL) {
        line_no++;
        if (!line[strspn(line, " \t")])
            continue; /* blank lines are not records */
        GError *gerr = NULL;
        const char *flaw = line_flaw(line);
        if (flaw) {
            rc = sl_fail(err, errlen, "%s:%d: %s", path, line_no, flaw);
            break;
        }
        if (!json_parser_load_from_data(parser, line, -1, &gerr)) {
            rc = sl_fail(err, errlen, "%s:%d: not JSON: %s", path, line_no,
                         gerr ? gerr->message : "unreadable");
            g_clear_error(&gerr);
            break;
        }
        JsonNode *root = json_parser_get_root(parser);
        if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
            rc = sl_fail(err, errlen, "%s:%d: not a JSON object (JSON Lines labels: one object "
                         "per line)", path, line_no);
            break;
        }
        sl_jsonl_row row = {.line = line_no};
        row.file = file_member(json_node_get_object(root));
        if (!several) /* a line without one among lines with one: another input's too */
            rc = sl_one_input(row.file ? row.file : "", &first_file, path, line_no, "jsonl", err,
                              errlen);
        if (rc == 0)
            rc = read_row(json_node_get_object(root), path, prob_class, &row, err, errlen);
        if (rc == 0)
            rc = fn(user, &row, err, errlen);
    }
    g_object_unref(parser);
    free(first_file);
    free(text);
    return rc ? -1 : 0;
}

static int take_segment(void *user, const sl_jsonl_row *row, char *err, size_t errlen)
{
    sl_segment_list *j = user;
    if (row->is_frame)
        return sl_fail(err, errlen, "%s:%d: a frame, not a segment: label files are segments "
                       "(seqlabel label --format jsonl --segments); seqlabel eval --hyp scores "
                       "frames too", j->path, row->line);
    if (sl_segments_push(&j->s, &j->cnt, &j->cap, row->start, row->end, row->label, row->line))
        return sl_fail(err, errlen, "%s: out of memory", j->path);
    return 0;
}

int sl_jsonl_read(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    *segs = NULL;
    *n = 0;
    sl_segment_list j = {path, NULL, 0, 0};
    int rc = sl_jsonl_each(path, NULL, 0, take_segment, &j, err, errlen);
    return sl_segments_finish(path, j.s, j.cnt, rc, segs, n, err, errlen);
}
