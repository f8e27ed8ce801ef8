/* Scoring label files against references (`seqlabel eval --hyp`): any tool's
 * segments (a VAD's, a diariser's RTTM, `seqlabel label`'s own) on the frame
 * grid and by the frame rule the trainer and `seqlabel eval --model` use, so
 * the figures of a model and of the label files it writes are the same. */
#include <dirent.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "model/trainer_internal.h"
#include "common/errors.h"
#include "model/label_files.h"
#include "common/output_file.h"
#include "common/text.h"

int sl_labels_collar(int32_t *labels, int64_t n, int hop, int rate, double collar_s)
{
    if (collar_s <= 0 || n < 2)
        return 0;
    unsigned char *drop = calloc((size_t)n, 1);
    if (!drop)
        return -1;
    /* a change between frames j and j + 1 lies at frame edge j + 1; frame i's
     * centre i + 0.5 is within r frames of it when |i + 0.5 - (j + 1)| <= r */
    const double r = collar_s * rate / hop + 1e-9;
    for (int64_t j = 0; j + 1 < n; j++) {
        if (labels[j] == labels[j + 1])
            continue;
        double edge = (double)(j + 1);
        int64_t lo = (int64_t)ceil(edge - 0.5 - r), hi = (int64_t)floor(edge - 0.5 + r);
        for (int64_t i = lo < 0 ? 0 : lo; i <= hi && i < n; i++)
            drop[i] = 1;
    }
    for (int64_t i = 0; i < n; i++)
        if (drop[i])
            labels[i] = -1;
    free(drop);
    return 0;
}

int sl_manifest_classes(const char *manifest, sl_split split, char **names, int *n, char *err,
                        size_t errlen)
{
    sl_manifest man;
    if (sl_manifest_load(manifest, &man, err, errlen))
        return -1;
    /* a split that selects nothing is said as scoring says it, not as "no class" */
    int rc = sl_manifest_entries_in(&man, sl_split_mask(split)) == 0
                 ? sl_fail(err, errlen, "%s: no entries to evaluate", manifest)
                 : sl_dataset_collect_classes(&man, sl_split_mask(split), 0, names, n, err, errlen);
    sl_manifest_free(&man);
    return rc;
}

/* Entry e's audio as its hypotheses name it: its path below the manifest's
 * folder, or for audio beside that folder (`../corpus/x.wav`) its path from
 * past the last `..`, which would lead out of the hypotheses' folder (to the
 * reference's own labels). */
static const char *entry_name(const sl_manifest_entry *e, const char *manifest, size_t root_len)
{
    const char *rel = sl_manifest_below_root(manifest, root_len, e->audio);
    while (*rel == '/')
        rel++;
    for (const char *c = rel; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
        if (!strncmp(c, "../", 3))
            rel = c + 3;
    while (*rel == '/')
        rel++;
    return rel;
}

/* The path of `audio` below the folder whose real path is `root` (root_len
 * bytes), the audio's folder's real path taken (the file itself may be a
 * link, which label names as it finds it), without extension; malloc'ed, or
 * NULL (*elsewhere set when it lies elsewhere or cannot be found). */
static char *path_below(const char *root, size_t root_len, const char *audio, int *elsewhere)
{
    *elsewhere = 0;
    const char *slash = strrchr(audio, '/');
    char *folder = sl_path_folder(audio);
    char *real = folder ? realpath(folder, NULL) : NULL;
    free(folder);
    const char *name = slash ? slash + 1 : audio;
    char *rel = NULL;
    if (!real) {
        *elsewhere = 1;
    } else if (strncmp(real, root, root_len) || (real[root_len] && real[root_len] != '/')) {
        *elsewhere = 1;
    } else {
        const char *below = real[root_len] ? real + root_len + 1 : "";
        const size_t stem = (size_t)(sl_path_extension_at(name) - name);
        if ((rel = malloc(strlen(below) + stem + 2)) != NULL)
            sprintf(rel, "%s%s%.*s", below, *below ? "/" : "", (int)stem, name);
    }
    free(real);
    return rel;
}

/* path_below of the audio as its folder's real path gives it, else of the
 * file a link leads to (a symbolic link farm's, outside the folder labelled,
 * to its files). */
static char *entry_below(const char *root, size_t root_len, const char *audio, int *elsewhere)
{
    char *rel = path_below(root, root_len, audio, elsewhere);
    if (*elsewhere) {
        char *target = realpath(audio, NULL);
        if (target) {
            free(rel);
            rel = path_below(root, root_len, target, elsewhere);
            free(target);
        }
    }
    return rel;
}

/* Whether `seqlabel label` takes a file of this name from a folder it is
 * given: audio by its name (sl_audio_name_known), or with --raw-format, which
 * eval cannot know of, .raw and .pcm. Hidden names aside (the caller's). */
static int label_takes(const char *name)
{
    const char *ext = sl_path_extension_at(name);
    return sl_audio_name_known(name) || !strcasecmp(ext, ".raw") || !strcasecmp(ext, ".pcm");
}

/* The stems of the regular files in a folder that label takes (x for x.wav),
 * as the stream compares names (sl_hyp_stream_key; no stream: as they are):
 * the names `seqlabel label` gives the files it finds there. A set (keys
 * owned), empty when the folder cannot be read; NULL: out of memory. */
static GHashTable *folder_stems(const sl_hyp_stream *stream, const char *dir)
{
    GHashTable *stems = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
    DIR *d = stems ? opendir(dir) : NULL;
    for (struct dirent *f; d && (f = readdir(d)) != NULL;) {
        const char *ext = sl_path_extension_at(f->d_name);
        struct stat st;
        const int take = *ext && label_takes(f->d_name) &&
                         fstatat(dirfd(d), f->d_name, &st, 0) == 0 && S_ISREG(st.st_mode);
        char *stem = take ? strndup(f->d_name, (size_t)(ext - f->d_name)) : NULL;
        char *key = stem && stream ? sl_hyp_stream_key(stream, stem) : stem;
        if (key != stem)
            free(stem);
        if (key)
            g_hash_table_add(stems, key);
    }
    if (d)
        closedir(d);
    return stems;
}

/* The first of n names (the stream's, or with no stream names[]) that is no
 * file's below root (a folder's listing read once), or NULL: each must be, if
 * root is the folder labelled (label names each file it finds below it by its
 * path there, without extension). *oom: out of memory. */
static const char *name_of_no_file(const sl_hyp_stream *stream, const char *const *names, int n,
                                   const char *root, int *oom)
{
    GHashTable *folders = g_hash_table_new_full(g_str_hash, g_str_equal, free,
                                                (GDestroyNotify)g_hash_table_destroy);
    const char *missing = NULL;
    *oom = !folders;
    for (int p = 0; folders && p < n && !missing && !*oom; p++) {
        const char *name = stream ? sl_hyp_stream_name(stream, p) : names[p];
        const char *slash = strrchr(name, '/');
        if (slash && memmem(name, (size_t)(slash - name), "\xef\xbf\xbd", 3))
            continue; /* a folder's name a JSON writer could not give: not looked up */
        char *dir = malloc(strlen(root) + strlen(name) + 2);
        if (!dir) {
            *oom = 1;
            break;
        }
        sprintf(dir, "%s/%.*s", root, slash ? (int)(slash - name) : 0, name);
        GHashTable *stems = g_hash_table_lookup(folders, dir);
        if (!stems) {
            if (!(stems = folder_stems(stream, dir))) {
                free(dir);
                *oom = 1;
                break;
            }
            g_hash_table_insert(folders, dir, stems); /* takes dir */
        } else {
            free(dir);
        }
        if (!g_hash_table_contains(stems, slash ? slash + 1 : name))
            missing = name;
    }
    if (folders)
        g_hash_table_destroy(folders);
    return missing;
}

/* 0 when each of n names (name_of_no_file's) is a file's below root, else -1
 * with a message naming the first that is not: what hyp `holds` of it, and
 * `how` the names are made. */
static int names_are_files(const sl_hyp_stream *stream, const char *const *names, int n,
                           const char *root, const char *hyp, const char *hyp_root,
                           const char *holds, const char *how, char *err, size_t errlen)
{
    int oom = 0;
    const char *stray = name_of_no_file(stream, names, n, root, &oom);
    char shown[SL_SHOWN_LEN];
    if (oom)
        return sl_fail(err, errlen, "out of memory");
    if (!stray)
        return 0;
    sl_text_shown(shown, stray);
    return sl_fail(err, errlen, "%s: %s '%s', which is no file's below --hyp-root %s: is that the "
                   "folder labelled to write it? (%s)", hyp, holds, shown, hyp_root, how);
}

typedef struct {
    char **v;
    int n, cap;
} name_list;

/* sl_audio_files_below's callback over a folder of label files: each one's
 * path below it, without extension. */
static int add_label_stem(void *user, const char *path, const char *rel)
{
    (void)path;
    name_list *l = user;
    char **v = l->n < l->cap ? l->v : realloc(l->v, sizeof *v * (size_t)(l->cap = 2 * l->cap + 16));
    if (!v)
        return 1; /* out of memory */
    l->v = v;
    return (l->v[l->n] = strndup(rel, (size_t)(sl_path_extension_at(rel) - rel))) ? (l->n++, 0)
                                                                                : 1;
}

/* With --hyp-root, a folder of label files must be the one label wrote of
 * that folder (-o DIR/ mirrors its tree), as a stream's names must: each of
 * its label files the path of a file below the root, without extension.
 * Otherwise the root is one folder too deep or too shallow, and an entry's
 * path below it could find another file's labels. */
static int label_folder_fits(const char *hyp, const char *hyp_root, char *err, size_t errlen)
{
    char *root = realpath(hyp_root, NULL);
    struct stat st;
    name_list l = {0};
    int rc = !root || stat(root, &st) || !S_ISDIR(st.st_mode)
                 ? sl_fail(err, errlen, "--hyp-root %s: not a folder", hyp_root)
                 : sl_audio_files_below(hyp, sl_label_name_known, add_label_stem, &l, err, errlen);
    if (rc > 0)
        rc = sl_fail(err, errlen, "out of memory");
    char how[SL_ERR_LEN];
    snprintf(how, sizeof how, "each label file's path below %s, without extension, must be a "
             "file's below it, as seqlabel label DIR -o %s/ writes them", hyp, hyp);
    if (rc == 0)
        rc = names_are_files(NULL, (const char *const *)l.v, l.n, root, hyp, hyp_root,
                             "a label file of", how, err, errlen);
    for (int i = 0; i < l.n; i++)
        free(l.v[i]);
    free(l.v);
    free(root);
    return rc;
}

/* The label file that holds entry e's hypothesis (malloc'ed): in a folder,
 * the audio's path below the manifest's folder without extension, or
 * the end of that path (its last folders dropped one by one down to its name),
 * with .txt, .TextGrid, .rttm, .vtt, .srt, .jsonl, .csv or .tsv, the longest found;
 * otherwise hyp itself.
 * `seqlabel label` mirrors a folder it labels (-o DIR/: spk1/001.txt) and names
 * files it is given by their names, so both are found. NULL on an error (said). */
static char *hypothesis_of(const sl_manifest_entry *e, const char *manifest, size_t root_len,
                           const char *hyp, int hyp_is_dir, const char *hyp_root, char *err,
                           size_t errlen)
{
    if (!hyp_is_dir) {
        char *path = strdup(hyp);
        if (!path)
            sl_fail(err, errlen, "out of memory");
        return path;
    }
    /* with the folder labelled: the path below it, and that alone */
    char *below = NULL, *real_root = hyp_root ? realpath(hyp_root, NULL) : NULL;
    if (hyp_root) {
        struct stat st;
        const int folder = real_root && stat(real_root, &st) == 0 && S_ISDIR(st.st_mode);
        int elsewhere = 1;
        if (folder)
            below = entry_below(real_root, strcmp(real_root, "/") ? strlen(real_root) : 0,
                                e->audio, &elsewhere);
        free(real_root);
        if (!below) {
            if (!folder)
                sl_fail(err, errlen, "--hyp-root %s: not a folder", hyp_root);
            else if (elsewhere)
                sl_fail(err, errlen, "%s is not below --hyp-root %s, the folder whose files %s "
                        "holds the labels of", e->audio, hyp_root, hyp);
            else
                sl_fail(err, errlen, "out of memory");
            return NULL;
        }
    }
    const char *rel = below ? below : entry_name(e, manifest, root_len);
    const char *slash = strrchr(rel, '/'), *name = below ? rel : slash ? slash + 1 : rel;
    const char *end = below ? rel + strlen(rel) : sl_path_extension_at(rel);
    size_t hl = strlen(hyp);
    while (hl > 1 && hyp[hl - 1] == '/') /* hyp/: hyp/x.txt, not hyp//x.txt */
        hl--;
    char *prefix = malloc(hl + 2);
    if (!prefix) {
        sl_fail(err, errlen, "out of memory");
        free(below);
        return NULL;
    }
    snprintf(prefix, hl + 2, "%.*s/", (int)hl, hyp);
    char *path = NULL, *other = NULL;
    int oom = 0;
    for (const char *from = rel; from && !path && !oom;) {
        path = sl_label_file_of(prefix, from, (size_t)(end - from), 1, &oom, &other);
        from = from < name ? strchr(from, '/') + 1 : NULL;
    }
    free(prefix);
    if (other) {
        sl_fail(err, errlen, "%s: two hypotheses for %s, %s and %s: keep the one meant there",
                hyp, e->audio, path, other);
        free(path);
        free(other);
        free(below);
        return NULL;
    }
    if (!path && oom)
        sl_fail(err, errlen, "out of memory");
    else if (!path) /* each end of the name it tried, down to the name */
        sl_fail(err, errlen, "%s: no hypothesis for %s (looked for %.*s.txt, .TextGrid, .rttm, "
                ".vtt, .srt, .jsonl, .csv and .tsv there%s%.*s%s)", hyp, e->audio,
                (int)(end - rel), rel, name > rel ? ", and for the same of its end, down to " : "",
                name > rel ? (int)(end - name) : 0, name, name > rel ? ".*" : "");
    free(below);
    return path;
}

/* "line N (AUDIO)", or the audio alone for a folder's entry (it has no line). */
static const char *entry_where(const sl_manifest_entry *e, char *buf, size_t len)
{
    if (e->line > 0)
        snprintf(buf, len, "line %d (%s)", e->line, e->audio);
    else
        snprintf(buf, len, "%s", e->audio);
    return buf;
}

/* An entry's rows in one stream of several inputs' segments: the stream's
 * part it takes (-1: none). */
typedef struct {
    sl_hyp_stream *stream;
    int part;
} entry_rows;

/* Whether path names a frames table (.tsv, `seqlabel label --format frames`). */
static int is_frames_table(const char *path)
{
    /* in any case, as the folder lookup finds it (x.TSV) */
    return !strcasecmp(sl_path_extension_at(path), ".tsv");
}

/* Frames of a hypothesis taken in order into got (and prob), whether from a
 * frames table or from JSON Lines: they must be numbered from 0, at the times
 * of this frame grid (hop, rate), and name a class. */
typedef struct {
    const char *path;
    const char *const *classes;
    int n_classes, hop, rate;
    int64_t n, frame; /* the audio's frames; the next one expected */
    int32_t *got;
    double *prob;
    /* JSON Lines: its lines that are segments, not frames, read once */
    sl_label_segment *segs;
    int segments, seg_cap;
} frame_taker;

static int take_frame(frame_taker *ft, int line, int idx_ok, long long idx, double t,
                      const char *label, double prob, char *err, size_t errlen)
{
    const int64_t frame = ft->frame;
    const double at = (double)frame * ft->hop / ft->rate;
    int k = sl_text_index(ft->classes, ft->n_classes, label); /* (NFD too) */
    k = k < 0 ? ft->n_classes : k;
    if (!idx_ok || idx != frame || fabs(t - at) > 0.5e-3)
        return sl_fail(err, errlen, "%s:%d: expected frame %lld at %.6f s (the frame grid of "
                       "%d-sample hops at %d Hz), not this line", ft->path, line,
                       (long long)frame, at, ft->hop, ft->rate);
    if (frame >= ft->n)
        return sl_fail(err, errlen, "%s:%d: frame %lld, but the audio has %lld frames", ft->path,
                       line, (long long)frame, (long long)ft->n);
    if (k == ft->n_classes) {
        char shown[SL_SHOWN_LEN];
        sl_text_shown(shown, label);
        return sl_fail(err, errlen, "%s:%d: label '%s' is not one of the classes", ft->path,
                       line, shown);
    }
    ft->got[frame] = k;
    if (ft->prob)
        ft->prob[frame] = prob;
    ft->frame++;
    return 0;
}

/* A frames table (`seqlabel label --format frames`: frame, time, label,
 * confidence, each class's probability) as the hypothesis: its label column
 * and, with ft->prob, the probability column of class `target`. 0, or -1
 * naming the file and line. */
static int read_frames_table(frame_taker *ft, int target, char *err, size_t errlen)
{
    const char *path = ft->path;
    size_t len;
    char *text = sl_read_file(path, &len, err, errlen);
    if (!text)
        return -1;
    int rc = 0, line = 0, col = -1;
    char *rest = text, *row;
    while (rc == 0 && (row = sl_next_line(&rest)) != NULL) {
        if (!row[0]) /* blank lines are skipped, not counted */
            continue;
        line++;
        char *p = row, *f[4];
        for (int k = 0; k < 4; k++)
            f[k] = sl_next_field(&p);
        if (line == 1 && f[0] && !strcmp(f[0], "file")) {
            rc = sl_fail(err, errlen, "%s:1: a frames table of several inputs (a file column): "
                         "a frames table is one input's (seqlabel label -o DIR/ --format frames "
                         "writes one each)", path);
            break;
        }
        if (line == 1) { /* frame time label confidence NAME... */
            if (!f[3] || strcmp(f[0], "frame") || strcmp(f[1], "time") || strcmp(f[2], "label")) {
                rc = sl_fail(err, errlen, "%s:1: not a frames table (seqlabel label --format "
                             "frames: a header 'frame time label confidence CLASS...')", path);
                break;
            }
            int alike = -1; /* the class's column in another Unicode form (NFD) */
            for (int k = 0; ft->prob && p; k++) {
                const char *name = sl_next_field(&p);
                if (!strcmp(name, ft->classes[target]))
                    col = k;
                else if (alike < 0 && sl_text_same(name, ft->classes[target]))
                    alike = k;
            }
            col = col < 0 ? alike : col;
            if (ft->prob && col < 0)
                rc = sl_fail(err, errlen, "%s:1: no probability column of class '%s' to sweep",
                             path, ft->classes[target]);
            continue;
        }
        char *end = NULL;
        long long idx = f[1] ? strtoll(f[0], &end, 10) : -1;
        double t = f[1] ? sl_strtod_c(f[1], NULL) : -1.0;
        double prob = -1.0;
        if (ft->prob && f[3]) {
            char *v = NULL;
            for (int c = 0; c <= col; c++)
                v = sl_next_field(&p);
            char *vend = NULL;
            /* as a float, the labeler's own: %.9g gives each float back exactly */
            prob = v ? (double)sl_strtof_c(v, &vend) : -1.0;
            if (!v || vend == v || !(prob >= 0.0 && prob <= 1.0))
                rc = sl_fail(err, errlen, "%s:%d: no probability of '%s' in [0, 1]", path, line,
                             ft->classes[target]);
        }
        if (rc == 0)
            rc = take_frame(ft, line, f[3] && end && !*end, idx, t, f[2] ? f[2] : "", prob, err,
                            errlen);
    }
    if (rc == 0 && line == 0)
        rc = sl_fail(err, errlen, "%s: empty (a frames table has a header line)", path);
    free(text);
    return rc;
}

/* A line of JSON Lines labels: a frame taken, or a segment counted (the file
 * is then read as segments); the two mixed are refused. */
static int take_jsonl_row(void *user, const sl_jsonl_row *row, char *err, size_t errlen)
{
    frame_taker *ft = user;
    if (row->is_frame ? ft->segments > 0 : ft->frame > 0)
        return sl_fail(err, errlen, "%s:%d: a %s among %s: JSON Lines labels are frames or "
                       "segments, not both", ft->path, row->line,
                       row->is_frame ? "frame" : "segment", row->is_frame ? "segments" : "frames");
    if (!row->is_frame)
        return sl_segments_push(&ft->segs, &ft->segments, &ft->seg_cap, row->start, row->end,
                                row->label, row->line)
                   ? sl_fail(err, errlen, "%s: out of memory", ft->path)
                   : 0;
    /* the probability as a float, the labeler's own (%.9g gives it back exactly) */
    return take_frame(ft, row->line, 1, (long long)row->frame, row->time, row->label,
                      (double)(float)row->prob, err, errlen);
}

/* Entry e's hypothesis frame by frame into got (and, with a sweep, the
 * probabilities of its class into prob): a frames table's or JSON Lines
 * frames' columns, or a label file's segments by the frame rule (a sweep
 * refused: they hold no probabilities); by_id: an RTTM file's lines are e's
 * by their file id alone. 0, or -1 (said); *labelled: whether anything of it
 * was labelled. */
static int hypothesis_frames(const sl_manifest_entry *e, char *hyp_path, int by_id,
                             const entry_rows *rows, double duration, int hop, int rate,
                             const char *const *classes, int n_classes, const sl_sweep *sweep,
                             int32_t *got, double *prob, int64_t n, int *labelled, char *err,
                             size_t errlen)
{
    *labelled = 1;
    frame_taker ft = {hyp_path, classes, n_classes, hop, rate, n, 0, got, prob, NULL, 0, 0};
    for (int64_t i = 0; i < n; i++)
        got[i] = -1; /* past a frames file's last frame */
    if (rows && sweep)
        return sl_fail(err, errlen, "%s: a sweep needs each frame's probability: a frames table "
                       "or JSON Lines frames (seqlabel label -o DIR/), not a stream of segments",
                       hyp_path);
    if (rows) { /* the entry's part of one stream of several inputs' segments */
        const sl_label_segment *segs = NULL;
        int ns = 0;
        if (rows->part >= 0 &&
            sl_hyp_stream_segments(rows->stream, rows->part, &segs, &ns, err, errlen))
            return -1;
        *labelled = ns > 0;
        return sl_segments_to_frames(segs, ns, hyp_path, e->audio, duration, hop, rate, classes,
                                     n_classes, got, n, err, errlen);
    }
    if (is_frames_table(hyp_path))
        return read_frames_table(&ft, sweep ? sweep->target : 0, err, errlen);
    const int jsonl = !strcasecmp(sl_path_extension_at(hyp_path), ".jsonl");
    sl_label_segment *hs = NULL;
    int nh = 0, rc = 0;
    if (jsonl) {
        /* frames (label's default), taken as they come, or segments (--segments) */
        rc = sl_jsonl_each(hyp_path, sweep ? classes[sweep->target] : NULL, 0, take_jsonl_row,
                           &ft, err, errlen);
        if (rc == 0 && !ft.segments) {
            *labelled = ft.frame > 0;
            return 0;
        }
        if (sl_segments_finish(hyp_path, ft.segs, ft.segments, rc, &hs, &nh, err, errlen))
            return -1;
    }
    if (sweep) {
        sl_label_segments_free(hs, nh);
        return sl_fail(err, errlen, "%s: a sweep needs each frame's probability: a frames table "
                       "(seqlabel label --format frames) or JSON Lines frames, not segments",
                       hyp_path);
    }
    /* read as a manifest entry of the same audio, so an RTTM file's lines are
     * found by the audio's name and x.rttm#speech works too */
    sl_manifest_entry he = {e->audio, hyp_path, e->split, 0, 0};
    if (!jsonl)
        rc = sl_manifest_entry_segments_ex(&he, by_id, &hs, &nh, err, errlen);
    if (rc == 0)
        rc = sl_segments_to_frames(hs, nh, hyp_path, e->audio, duration, hop, rate, classes,
                                   n_classes, got, n, err, errlen);
    *labelled = nh > 0;
    sl_label_segments_free(hs, nh);
    return rc;
}

/* The frames the labeler gives the audio at `path` read at fc's rate, and its
 * length in seconds. The samples are counted by reading them, resampled when
 * the file has another rate, so the count is the labeler's to the sample. */
static int audio_frames(const char *path, const sl_feature_config *fc, int64_t *n_frames,
                        double *duration, char *err, size_t errlen)
{
    sl_audio_reader *r = sl_audio_open(path, fc->sample_rate, err, errlen);
    if (!r)
        return -1;
    int64_t n = 0;
    if (sl_audio_file_rate(r) == fc->sample_rate && sl_audio_file_frames(r) >= 0) {
        n = sl_audio_file_frames(r);
    } else {
        const long len = 16384;
        float *block = malloc((size_t)len * sizeof *block);
        long got = block ? 0 : sl_fail(err, errlen, "out of memory");
        while (block && (got = sl_audio_read(r, block, len, err, errlen)) > 0)
            n += got;
        free(block);
        if (got < 0) {
            sl_audio_close(r);
            return -1;
        }
    }
    sl_audio_close(r);
    *n_frames = sl_feature_num_frames(fc, n);
    *duration = (double)n / fc->sample_rate;
    return 0;
}

/* Refuses a hypothesis that two entries of different audio would both be
 * scored against: the one file a folder holds for both (dup/a/x.wav and
 * dup/b/x.wav, found by their name alone: hyp/x.txt), or the lines of one file
 * id in an RTTM file for the set (both are 'x'). Each would be scored against
 * the other's labels, and the figures would read as measured. An id the RTTM
 * file never names is no hypothesis of either (the gap's class for both, as
 * for any file it leaves out). 0, or -1 naming the manifest, both entries and
 * the file or id. */
static int ambiguous_hypotheses(const sl_manifest *man, unsigned mask, const char *manifest,
                                size_t root_len, const char *hyp, int hyp_is_dir, int by_id,
                                const char *hyp_root, char *err, size_t errlen)
{
    if (!hyp_is_dir && !(by_id && sl_is_rttm_path(hyp)))
        return 0; /* one file, the same for every entry by design */
    sl_keyed_entry *keys = malloc(sizeof *keys * (size_t)(man->n ? man->n : 1));
    if (!keys)
        return sl_fail(err, errlen, "out of memory");
    int n = 0, rc = 0;
    for (int i = 0; i < man->n && rc == 0; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        if (!(mask & SL_SPLIT_BIT(e->split)))
            continue;
        /* an entry without a hypothesis in the folder: said when it is scored */
        char *key = hyp_is_dir ? hypothesis_of(e, manifest, root_len, hyp, 1, hyp_root, err,
                                               errlen)
                               : sl_rttm_file_id(e->audio);
        if (key)
            keys[n++] = (sl_keyed_entry){key, e};
        else if (!hyp_is_dir)
            rc = sl_fail(err, errlen, "out of memory");
    }
    if (rc == 0 && n > 1)
        qsort(keys, (size_t)n, sizeof *keys, sl_keyed_entry_cmp);
    for (int i = 0; i + 1 < n && rc == 0; i++) {
        const sl_keyed_entry *a = &keys[i];
        for (int j = i + 1; j < n && !strcmp(keys[j].key, a->key) && rc == 0; j++) {
            const sl_manifest_entry *b = keys[j].e;
            if (sl_same_file(b->audio, a->e->audio))
                continue; /* one audio listed twice: the hypothesis is both lines' */
            int named = 1;
            if (!hyp_is_dir) {
                sl_manifest_entry he = {a->e->audio, (char *)hyp, a->e->split, 0, 0};
                sl_label_segment *hs = NULL;
                int nh = 0;
                if (sl_manifest_entry_segments_ex(&he, 1, &hs, &nh, err, errlen))
                    rc = sl_blame_entry(man, a->e, err, errlen);
                named = nh > 0;
                sl_label_segments_free(hs, nh);
            }
            char wa[SL_ERR_LEN], wb[SL_ERR_LEN];
            if (rc == 0 && named && hyp_is_dir)
                rc = sl_fail(err, errlen, "%s: %s and %s would both be scored against %s, found "
                             "by their name alone (a folder that mirrors the set's, as seqlabel "
                             "label -o DIR/ writes one, holds each its own)", manifest,
                             entry_where(a->e, wa, sizeof wa), entry_where(b, wb, sizeof wb),
                             a->key);
            else if (rc == 0 && named)
                rc = sl_fail(err, errlen, "%s: %s and %s would both be scored against the lines "
                             "of file id '%s' in %s (an RTTM line's file id is its audio's name "
                             "without folder and extension: give each its own RTTM file in a "
                             "folder that mirrors the set's)", manifest,
                             entry_where(a->e, wa, sizeof wa), entry_where(b, wb, sizeof wb),
                             a->key, hyp);
        }
    }
    for (int i = 0; i < n; i++)
        free(keys[i].key);
    free(keys);
    return rc;
}

/* Entry e's frames into mt, and with opt->events its events into events alone
 * and into opt->events; *labelled as hypothesis_frames says it. by_id: hyp is one
 * file for several entries (an RTTM file's lines theirs by file id). */
static int score_entry(const sl_manifest_entry *e, const char *manifest, size_t root_len,
                       const char *hyp, int hyp_is_dir, int by_id, const entry_rows *rows,
                       const char *const *classes, int n_classes, const sl_feature_config *fc,
                       const sl_eval_options *opt, const sl_uem *uem, sl_metrics *mt,
                       sl_events *events, int *labelled, char *err, size_t errlen)
{
    const int hop = sl_feature_frame_shift(fc), rate = fc->sample_rate;
    int64_t n = 0;
    double duration = 0.0;
    /* a regular file (a FIFO's open would wait for a writer), as training reads */
    if (sl_audio_entry_check(e->audio, err, errlen) ||
        audio_frames(e->audio, fc, &n, &duration, err, errlen))
        return -1;
    char *hyp_path = hypothesis_of(e, manifest, root_len, hyp, hyp_is_dir, opt->hyp_root, err,
                                   errlen);
    int32_t *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
    int32_t *got = malloc((size_t)(n ? n : 1) * sizeof *got);
    double *prob = opt->sweep ? malloc((size_t)(n ? n : 1) * sizeof *prob) : NULL;
    sl_label_segment *rs = NULL;
    int nr = 0, rc = -1;
    if (!hyp_path || !ref || !got || (opt->sweep && !prob)) {
        if (hyp_path)
            sl_fail(err, errlen, "out of memory");
    } else if (sl_manifest_entry_segments(e, &rs, &nr, err, errlen) == 0 &&
               sl_segments_to_frames(rs, nr, e->labels, e->audio, duration, hop, rate, classes,
                                     n_classes, ref, n, err, errlen) == 0 &&
               hypothesis_frames(e, hyp_path, by_id, rows, duration, hop, rate, classes,
                                 n_classes, opt->sweep, got, prob, n, labelled, err,
                                 errlen) == 0) {
        rc = 0;
        for (int64_t i = 0; opt->ref_gap_class >= 0 && i < n; i++)
            if (ref[i] < 0) /* time the references leave unlabelled, of their gap's class */
                ref[i] = opt->ref_gap_class;
        if (events) { /* on the references before the collar; a gap is gap_class;
                       * time the references leave unlabelled is not scored, so
                       * the hypothesis's events are cut away there */
            int32_t *sys = malloc((size_t)(n ? n : 1) * sizeof *sys);
            for (int64_t i = 0; sys && i < n; i++)
                sys[i] = ref[i] < 0 ? -1 : got[i] >= 0 ? got[i] : opt->gap_class;
            if (!sys || sl_events_add_file(opt->events, events, ref, sys, n))
                rc = sl_fail(err, errlen, "out of memory");
            free(sys);
        }
        /* a frame the hypothesis leaves to the gap's class is that class at every
         * threshold: certainly the target, or certainly not (none: not scored) */
        for (int64_t i = 0; opt->sweep && i < n; i++)
            if (ref[i] < 0) /* not scored (as frames, as events) */
                prob[i] = -1.0;
            else if (got[i] < 0)
                prob[i] = opt->gap_class < 0 ? -1.0 : opt->gap_class == opt->sweep->target;
        if (rc == 0 && opt->sweep && opt->sweep->events) { /* references before the collar */
            if (sl_sweep_add_events(opt->sweep, ref, prob, n))
                rc = sl_fail(err, errlen, "out of memory");
        }
        if (rc == 0 && sl_labels_collar(ref, n, hop, rate, opt->collar_s))
            rc = sl_fail(err, errlen, "out of memory");
        if (rc == 0 && uem && sl_uem_crop(uem, e->audio, ref, n, hop, rate, err, errlen))
            rc = -1;
        for (int64_t i = 0; i < n && rc == 0; i++) {
            if (ref[i] < 0)
                continue;
            int h = got[i] >= 0 ? got[i] : opt->gap_class;
            if (h < 0) {
                rc = sl_fail(err, errlen,
                             "%s: no label at %.3f s of %s (a frame the reference labels; "
                             "give the class of such time: --hyp-gap CLASS)",
                             hyp_path, ((double)i + 0.5) * hop / rate, e->audio);
                break;
            }
            mt->confusion[ref[i] * mt->n_classes + h]++;
            mt->frames++;
            if (opt->sweep) /* as sl_evaluate_manifest bins the model's */
                sl_sweep_count(opt->sweep, prob[i], ref[i] == opt->sweep->target);
        }
    }
    sl_label_segments_free(rs, nr);
    free(ref);
    free(got);
    free(prob);
    free(hyp_path);
    return rc;
}

/* An entry and the stream's part it takes, in qsort order of part then entry. */
typedef struct {
    int part, entry;
} part_of_entry;

static int by_part(const void *a, const void *b)
{
    const part_of_entry *x = a, *y = b;
    return x->part != y->part ? (x->part > y->part) - (x->part < y->part)
                              : (x->entry > y->entry) - (x->entry < y->entry);
}

/* The stream's part each entry of the set takes (*parts, one per manifest
 * entry, -1: none, a file without rows: a VAD's that found nothing in it):
 * the rows named by its audio's path below hyp_root, the folder label
 * labelled to write the stream (label names each file of a folder by its path
 * below it). An entry whose audio lies elsewhere is refused: none of the
 * stream's names is its. */
static int stream_parts(sl_hyp_stream *stream, const sl_manifest *man, unsigned mask,
                        const char *manifest, const char *hyp, const char *hyp_root, int **parts,
                        char *err, size_t errlen)
{
    *parts = malloc(sizeof **parts * (size_t)(man->n ? man->n : 1));
    char *root = realpath(hyp_root, NULL);
    struct stat st;
    int rc = !*parts ? sl_fail(err, errlen, "out of memory")
             : !root || stat(root, &st) || !S_ISDIR(st.st_mode)
                 ? sl_fail(err, errlen, "--hyp-root %s: not a folder", hyp_root)
                 : 0;
    const size_t root_len = root && !strcmp(root, "/") ? 0 : root ? strlen(root) : 0;
    /* every name a file below root: else root is not the folder labelled (one
     * below it, or above it), or a file was labelled alone, and whose rows a
     * file's are could be guessed wrong */
    if (rc == 0)
        rc = names_are_files(stream, NULL, sl_hyp_stream_names(stream), root, hyp, hyp_root,
                             "rows named", "every name of the stream must be a file's path "
                             "below it, without extension; label the folder as a whole, or "
                             "write a file each with -o DIR/", err, errlen);
    for (int i = 0; i < man->n && rc == 0; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        (*parts)[i] = -1;
        if (!(mask & SL_SPLIT_BIT(e->split)))
            continue;
        int elsewhere;
        char *rel = entry_below(root, root_len, e->audio, &elsewhere);
        char *key = rel ? sl_hyp_stream_key(stream, rel) : NULL;
        char where[SL_ERR_LEN];
        if (elsewhere)
            rc = sl_fail(err, errlen, "%s: %s is not below --hyp-root %s, the folder whose files "
                         "%s names", manifest, entry_where(e, where, sizeof where), hyp_root,
                         hyp);
        else if (!key)
            rc = sl_fail(err, errlen, "out of memory");
        else
            (*parts)[i] = sl_hyp_stream_find(stream, key);
        /* no rows: a VAD's file that found nothing, if label took it from the
         * folder at all (an audio file by its name, nothing hidden on the way) */
        if (rc == 0 && rel && (*parts)[i] < 0 &&
            (rel[0] == '.' || strstr(rel, "/.") || !label_takes(e->audio)))
            rc = sl_fail(err, errlen, "%s: %s has no rows in %s, and seqlabel label %s does not "
                         "take it (hidden, or no audio file by its name): scored as a file "
                         "without speech, it would read as measured", manifest,
                         entry_where(e, where, sizeof where), hyp, hyp_root);
        free(rel);
        free(key);
    }
    /* two audio files of one path without extension (x.wav, x.flac): label
     * refuses to write both into one stream, so the rows are one's alone */
    part_of_entry *order = rc == 0 ? malloc(sizeof *order * (size_t)(man->n ? man->n : 1))
                                   : NULL;
    int n = 0;
    if (rc == 0 && !order)
        rc = sl_fail(err, errlen, "out of memory");
    for (int i = 0; order && i < man->n; i++)
        if ((*parts)[i] >= 0)
            order[n++] = (part_of_entry){(*parts)[i], i};
    if (order)
        qsort(order, (size_t)n, sizeof *order, by_part);
    for (int k = 1; k < n && rc == 0; k++) {
        const int i = order[k - 1].entry, j = order[k].entry;
        if ((*parts)[i] != (*parts)[j] ||
            sl_same_file(man->entries[i].audio, man->entries[j].audio))
            continue;
        char wa[SL_ERR_LEN], wb[SL_ERR_LEN];
        rc = sl_fail(err, errlen, "%s: %s and %s would both be scored against the same rows of "
                     "%s (one path without extension: label writes one of them)", manifest,
                     entry_where(&man->entries[i], wa, sizeof wa),
                     entry_where(&man->entries[j], wb, sizeof wb), hyp);
    }
    free(order);
    free(root);
    return rc;
}

/* A stream's rows of one name, for a set of one file: that file's if the name
 * is its path's end (label names a file given alone by its name, one of a
 * folder by its path below it), else refused: another input's rows. */
static int one_name_fits(const sl_hyp_stream *stream, const sl_manifest *man, unsigned mask,
                         const char *hyp, char *err, size_t errlen)
{
    for (int i = 0; i < man->n; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        if (!(mask & SL_SPLIT_BIT(e->split)))
            continue;
        int elsewhere, fits = 0;
        char *rel = path_below("", 0, e->audio, &elsewhere); /* from "/" */
        char *key = rel ? sl_hyp_stream_key(stream, rel) : NULL;
        for (const char *end = key; end && !fits; end = strchr(end, '/') ? strchr(end, '/') + 1
                                                                         : NULL)
            fits = sl_hyp_stream_find(stream, end) >= 0;
        free(rel);
        free(key);
        if (!fits)
            return sl_fail(err, errlen, "%s: its rows name another input than %s (give "
                           "--hyp-root DIR, the folder labelled to write it)", hyp, e->audio);
    }
    return 0;
}

/* One label file whose lines do not name their input (Audacity's, TextGrid,
 * WebVTT, SubRip) as the hypothesis of entries of two audio files would score
 * each against the same labels, the figures reading as measured: refused,
 * naming both. */
static int one_file_for_several(const sl_manifest *man, unsigned mask, const char *manifest,
                                const char *hyp, char *err, size_t errlen)
{
    const sl_manifest_entry *first = NULL;
    for (int i = 0; i < man->n; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        if (!(mask & SL_SPLIT_BIT(e->split)))
            continue;
        if (!first) {
            first = e;
        } else if (!sl_same_file(first->audio, e->audio)) {
            char wa[SL_ERR_LEN], wb[SL_ERR_LEN];
            return sl_fail(err, errlen, "%s: one label file for %s and %s of %s: each would be "
                           "scored against the same labels; give a folder with a label file "
                           "for each (seqlabel label -o DIR/ writes one), or one RTTM, CSV or "
                           "JSON Lines file naming each line's input",
                           hyp, entry_where(first, wa, sizeof wa), entry_where(e, wb, sizeof wb),
                           manifest);
        }
    }
    return 0;
}

int sl_score_manifest(const char *manifest, const char *hyp, const char *const *classes,
                      int n_classes, const sl_eval_options *opt, sl_metrics *mt, char *err,
                      size_t errlen)
{
    sl_eval_options defaults;
    if (!opt) {
        sl_eval_options_default(&defaults);
        opt = &defaults;
    }
    sl_feature_config fc;
    if (opt->features)
        fc = *opt->features;
    else
        sl_feature_config_default(&fc);
    if (mt->n_classes != n_classes || opt->gap_class >= n_classes ||
        opt->ref_gap_class >= n_classes)
        return sl_fail(err, errlen, "scoring: the metrics and the options name other classes");
    sl_manifest man;
    if (sl_manifest_load(manifest, &man, err, errlen))
        return -1;
    sl_metrics file;
    if (sl_metrics_init(&file, n_classes)) {
        sl_manifest_free(&man);
        return sl_fail(err, errlen, "out of memory");
    }
    mt->no_loss = file.no_loss = 1;
    unsigned mask = sl_split_mask(opt->split);
    /* what does not change from entry to entry, found once */
    const size_t root_len = sl_manifest_root_len(manifest);
    struct stat st;
    const int hyp_is_dir = stat(hyp, &st) == 0 && S_ISDIR(st.st_mode);
    /* a file of that name (run#2.txt too), or x.TextGrid#words, x.rttm#speech:
     * the file is x.TextGrid, x.rttm */
    const char *selector;
    char *hyp_file = strndup(hyp, sl_label_path_split(hyp, &selector));
    const int hyp_exists = stat(hyp, &st) == 0 || (hyp_file && stat(hyp_file, &st) == 0);
    free(hyp_file);
    sl_events *file_events = opt->events ? malloc(sizeof *file_events) : NULL; /* each entry's */
    int rc = opt->events && !file_events ? sl_fail(err, errlen, "out of memory") : 0, scored = 0;
    /* one file for several entries, or one RTTM file: an RTTM file's lines go by
     * file id alone, and a file it never names has none (a VAD's leaves out the
     * files without speech); so one entry is not scored against another file's
     * lines, which training's reader takes when they are all a file holds */
    int labelled_any = 0;
    const int entries = sl_manifest_entries_in(&man, mask);
    const int by_id = !hyp_is_dir && (entries > 1 || sl_is_rttm_path(hyp));
    /* CSV and JSON Lines whose rows name their input (seqlabel label's stream
     * of several inputs): read once, each entry taking the rows of its name */
    const char *hyp_ext = sl_path_extension_at(hyp);
    sl_hyp_stream *stream = NULL;
    int *parts = NULL;
    if (rc == 0 && hyp_exists && !hyp_is_dir && !sl_is_rttm_path(hyp) &&
        (!strcasecmp(hyp_ext, ".csv") || !strcasecmp(hyp_ext, ".jsonl")))
        rc = sl_hyp_stream_read(hyp, &stream, err, errlen);
    /* without the folder labelled: one input's file for a set of one, its rows
     * of one name; else refused (its names alone cannot tell a/x.wav given
     * alone from a folder's x.wav) */
    if (rc == 0 && stream && !opt->hyp_root && sl_hyp_stream_names(stream) > 0) {
        if (entries == 1 && sl_hyp_stream_names(stream) == 1) {
            rc = one_name_fits(stream, &man, mask, hyp, err, errlen);
            sl_hyp_stream_free(stream);
            stream = NULL;
        } else {
            rc = sl_fail(err, errlen, "%s: rows of %d inputs (a file column, as seqlabel label "
                         "writes several): give --hyp-root DIR, the folder labelled to write it, "
                         "and each file of %s takes the rows of its path below it",
                         hyp, sl_hyp_stream_names(stream), manifest);
        }
    }
    if (rc == 0 && stream && opt->hyp_root) /* (a header alone: no rows of any file) */
        rc = stream_parts(stream, &man, mask, manifest, hyp, opt->hyp_root, &parts, err, errlen);
    if (rc == 0 && hyp_is_dir && opt->hyp_root)
        rc = label_folder_fits(hyp, opt->hyp_root, err, errlen);
    if (rc == 0 && hyp_exists && opt->hyp_root && !stream && !hyp_is_dir)
        rc = sl_fail(err, errlen, "--hyp-root goes with a folder of label files, or a CSV or "
                     "JSON Lines file whose rows name their inputs (%s is neither)", hyp);
    sl_uem *uem = NULL;
    if (rc == 0)
        rc = sl_uem_for_manifest(opt->uem, &man, mask,
                                 opt->events || (opt->sweep && opt->sweep->events), &uem, err,
                                 errlen);
    if (rc == 0 && hyp_exists && !hyp_is_dir && !sl_is_rttm_path(hyp) && !stream)
        rc = one_file_for_several(&man, mask, manifest, hyp, err, errlen);
    if (rc == 0)
        rc = ambiguous_hypotheses(&man, mask, manifest, root_len, hyp, hyp_is_dir, by_id,
                                  opt->hyp_root, err, errlen);
    int64_t frames = 0;
    for (int i = 0; i < man.n && rc == 0; i++) {
        const sl_manifest_entry *e = &man.entries[i];
        if (!(mask & SL_SPLIT_BIT(e->split)))
            continue;
        scored++;
        sl_metrics_reset(&file);
        int labelled = 0;
        const entry_rows rows = {stream, parts ? parts[i] : -1};
        if (score_entry(e, manifest, root_len, hyp, hyp_is_dir, by_id, stream ? &rows : NULL,
                        classes, n_classes, &fc, opt, uem, &file, file_events, &labelled, err,
                        errlen)) {
            rc = sl_blame_entry(&man, e, err, errlen);
            break;
        }
        labelled_any |= labelled;
        sl_metrics_add(mt, &file);
        frames += file.frames;
        if (opt->on_file) {
            file.audio = e->audio;
            file.events = file_events;
            opt->on_file(opt->user, &file);
            file.audio = NULL;
            file.events = NULL;
        }
    }
    if (rc == 0 && scored == 0)
        rc = sl_fail(err, errlen, "%s: no entries to evaluate", manifest);
    /* (a stream whose names are files below --hyp-root may leave every file of
     * the set without rows: a VAD's that found nothing in a noise-only set) */
    if (rc == 0 && ((by_id && !stream) || (stream && !opt->hyp_root)) && !labelled_any)
        rc = sl_fail(err, errlen, "%s: labels none of the set's files (%s)", hyp,
                     stream ? "a row's file is its audio's path below --hyp-root without "
                              "extension, as seqlabel label writes it"
                            : "an RTTM line's file id is its audio's name without folder and "
                              "extension");
    if (rc == 0 && frames == 0)
        rc = sl_fail(err, errlen, "%s: no frame is scored (the label files cover no audio%s)",
                     manifest, uem ? ", or the collar and the UEM's regions leave out all it covers"
                               : opt->collar_s > 0 ? ", or the collar covers it all" : "");
    free(parts);
    sl_hyp_stream_free(stream);
    sl_uem_free(uem);
    sl_metrics_free(&file);
    free(file_events);
    sl_manifest_free(&man);
    return rc;
}
