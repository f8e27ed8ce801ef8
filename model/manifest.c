/* Training data lists: the manifest (TSV of audio, labels, split) and Audacity
 * label files. Every error names the file and the line, because these files
 * are written by hand or by scripts and a user must be able to find the fault. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <glib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "model/label_files.h"
#include "model/trainer_internal.h"
#include "common/output_file.h"
#include "common/text.h"

/* A name written on Windows (sub\x.wav, C:\data\x.wav, C:/data/x.wav,
 * \\server\share) that names nothing here: said, rather than "No such file"
 * alone. */
static const char *windows_hint(const char *path, int e)
{
    int drive = 0; /* a drive letter, at the start or after the manifest's folder */
    for (const char *p = path; *p && !drive; p++)
        drive = (p == path || p[-1] == '/') && isalpha((unsigned char)p[0]) && p[1] == ':' &&
                (p[2] == '/' || p[2] == '\\');
    /* a backslash in the name's last part: the manifest's own folder may be
     * named with one here */
    const char *last = strrchr(path, '/');
    return e == ENOENT && (strchr(last ? last + 1 : path, '\\') || drive)
               ? " (a Windows path? here folders are separated by '/', with no drive letter)"
               : "";
}

int sl_audio_entry_check(const char *audio, char *err, size_t errlen)
{
    /* stat, not open: opening a FIFO waits for a writer (for ever, where
     * nobody writes). The feature cache asks again just before the audio is
     * read (feature_cache.c). */
    struct stat st;
    if (stat(audio, &st) || access(audio, R_OK)) {
        const int e = errno;
        return sl_fail(err, errlen, "%s: cannot open the audio file: %s%s", audio, strerror(e),
                       windows_hint(audio, e));
    }
    if (!S_ISREG(st.st_mode))
        return sl_fail(err, errlen, "%s: %s", audio,
                       S_ISDIR(st.st_mode) ? "is a directory, not an audio file"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
                           ? "a device, not an audio file: manifest entries are files"
                           : "a FIFO, pipe or socket, not an audio file: manifest entries are "
                             "files, read more than once (save what it gives to a file)");
    return 0;
}

/* Why st is no file a text input may be, or NULL: a regular file only. */
static const char *not_a_file(const struct stat *st)
{
    return S_ISREG(st->st_mode) ? NULL
           : S_ISDIR(st->st_mode) ? "a folder, not a file"
           : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device, not a file"
           : "a FIFO, pipe or socket, not a file: manifests and label files are read more "
             "than once (save what it gives to a file)";
}

char *sl_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    /* A regular file alone. A device would be read until memory ran out
     * (/dev/zero) or waited on (a terminal), a FIFO's open would wait for a
     * writer, and a pipe (<(find ...)) read a second time gives nothing: said
     * before the open, and asked again of what was opened. */
    struct stat st;
    const char *refused = NULL;
    int fd = -1;
    if (stat(path, &st) == 0 && (refused = not_a_file(&st)) != NULL) {
        /* said below */
    } else if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
        const int e = errno;
        sl_fail(err, errlen, "%s: cannot open: %s%s", path, strerror(e), windows_hint(path, e));
        return NULL;
    } else if (fstat(fd, &st) != 0) {
        refused = strerror(errno);
    } else {
        refused = not_a_file(&st);
    }
    FILE *fp = refused ? NULL : fdopen(fd, "rb");
    if (!fp) {
        sl_fail(err, errlen, "%s: cannot read: %s", path, refused ? refused : strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    /* a regular file's size and one byte more, so its end is read without a
     * realloc (the loop grows the buffer only once it is full) */
    size_t cap = st.st_size >= 4096 && (uintmax_t)st.st_size < SIZE_MAX - 2
                     ? (size_t)st.st_size + 2 : 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, fp);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (!buf || bad) {
        free(buf);
        sl_fail(err, errlen, "%s: cannot read%s", path, buf ? "" : ": out of memory");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *sl_read_text(const char *path, size_t *len, char *err, size_t errlen)
{
    char *buf = sl_read_file(path, len, err, errlen);
    if (buf && strlen(buf) != *len) {
        /* UTF-16: Windows' Notepad's "Unicode" */
        int utf16 = *len >= 2 && (((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE) ||
                                  ((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF));
        free(buf);
        sl_fail(err, errlen, utf16 ? "%s: UTF-16 text: save it as UTF-8"
                                   : "%s: not a text file (contains NUL bytes)", path);
        return NULL;
    }
    if (buf && sl_skip_bom(buf) != buf) {
        *len -= 3;
        memmove(buf, buf + 3, *len + 1);
    }
    /* lines ended by CR alone (classic Mac OS): read as lines, not as one */
    if (buf && !strchr(buf, '\n'))
        for (char *cr = strchr(buf, '\r'); cr; cr = strchr(cr + 1, '\r'))
            *cr = '\n';
    return buf;
}

char *sl_next_line(char **p)
{
    if (!**p)
        return NULL;
    char *line = *p, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = line + strlen(line);
    }
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r')
        line[len - 1] = '\0';
    return line;
}

char *sl_next_field(char **p)
{
    char *f = *p;
    if (!f)
        return NULL;
    char *tab = strchr(f, '\t');
    if (tab)
        *tab = '\0';
    *p = tab ? tab + 1 : NULL;
    return f;
}

static char *resolve(const char *manifest, const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    const char *slash = strrchr(manifest, '/');
    /* "-" is a file of that name in the manifest's folder, not the standard
     * input that the audio reader takes it for */
    if (!slash)
        return strdup(strcmp(path, "-") ? path : "./-");
    size_t dl = (size_t)(slash - manifest) + 1, pl = strlen(path);
    char *out = malloc(dl + pl + 1);
    if (out) {
        memcpy(out, manifest, dl);
        memcpy(out + dl, path, pl + 1);
    }
    return out;
}

void sl_manifest_free(sl_manifest *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++) {
        free(m->entries[i].audio);
        free(m->entries[i].labels);
    }
    free(m->entries);
    free(m->path);
    memset(m, 0, sizeof *m);
}

/* A folder as a manifest: its audio files, each labelled by the label file of
 * its name beside it (x.txt, x.TextGrid, x.rttm, x.vtt, x.srt, x.jsonl or x.csv), or
 * else by the folder it lies in below the root (dog/001.wav: =dog), after a
 * first folder named train, valid or test, which is its split. */
typedef struct {
    sl_manifest *m;
    int cap;
    char *err;
    size_t errlen;
    char *split_file, *other_file; /* the first file in a split folder, and outside one */
    sl_label_near *near;           /* label files named in another case or Unicode form */
} folder_job;

/* Takes audio and labels (malloc'ed, either NULL: out of memory). 0 or -1. */
static int add_entry(sl_manifest *m, int *cap, char *audio, char *labels, sl_split split)
{
    if (audio && labels && m->n == *cap) {
        int grown = *cap ? 2 * *cap : 64;
        sl_manifest_entry *e = realloc(m->entries, sizeof *e * (size_t)grown);
        if (e) {
            m->entries = e;
            *cap = grown;
        }
    }
    if (!audio || !labels || m->n == *cap) {
        free(audio);
        free(labels);
        return -1;
    }
    m->entries[m->n++] = (sl_manifest_entry){audio, labels, split, 0, 0};
    return 0;
}

/* The split that the n bytes at s name: train, valid or test, or validation,
 * val or dev, as other tools name the second. 1, or 0: none. */
static int split_named(const char *s, size_t n, sl_split *out)
{
    static const struct {
        const char *name;
        sl_split split;
    } splits[] = {{"train", SL_SPLIT_TRAIN}, {"valid", SL_SPLIT_VALID},     {"test", SL_SPLIT_TEST},
                  {"validation", SL_SPLIT_VALID}, {"val", SL_SPLIT_VALID}, {"dev", SL_SPLIT_VALID}};
    for (size_t k = 0; k < sizeof splits / sizeof splits[0]; k++)
        if (n == strlen(splits[k].name) && !strncmp(s, splits[k].name, n)) {
            *out = splits[k].split;
            return 1;
        }
    return 0;
}

int sl_split_parse(const char *name, sl_split *out)
{
    return name && split_named(name, strlen(name), out) ? 0 : -1;
}

static int add_found(void *user, const char *path, const char *rel)
{
    folder_job *j = user;
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    size_t stem = (size_t)(sl_path_extension_at(path) - path);
    int oom;
    char *other;
    char *labels = sl_label_file_of("", path, stem, 0, &oom, &other);
    if (oom)
        return sl_fail(j->err, j->errlen, "out of memory");
    if (other) {
        sl_fail(j->err, j->errlen, "%s: two label files of its name, %s and %s: keep the one "
                "meant (or name it on a manifest line)", path, labels, other);
        free(labels);
        free(other);
        return -1;
    }
    /* a label file that Windows or macOS would take for its own (take1.txt
     * beside Take1.wav): asked, not passed over for the folder's class */
    char *near = labels ? NULL : sl_label_near_of(j->near, path, stem);
    if (near) {
        sl_fail(j->err, j->errlen, "%s: no label file of its name, but %s differs from it only "
                "in letter case or Unicode form (which Windows and macOS ignore): rename one "
                "to the other's name", path, near);
        g_free(near);
        return -1;
    }
    /* the split and class folders of rel: a first folder named as a split */
    sl_split split = SL_SPLIT_NONE;
    const char *r = rel, *cut = strchr(r, '/');
    if (cut && split_named(r, (size_t)(cut - r), &split)) {
        r = cut + 1;
        cut = strchr(r, '/');
    }
    char **first = split == SL_SPLIT_NONE ? &j->other_file : &j->split_file;
    if (!*first && !(*first = strdup(rel)))
        return sl_fail(j->err, j->errlen, "out of memory");
    if (!labels && !cut)
        return sl_fail(j->err, j->errlen,
                       "%s: no labels: give it a label file of its name beside it (%.*s.txt, "
                       ".TextGrid, .rttm, .vtt, .srt, .jsonl or .csv), or put it in a folder named "
                       "after its class",
                       path, (int)(stem - (size_t)(name - path)), name);
    if (!labels && (labels = malloc((size_t)(cut - r) + 2)) != NULL)
        snprintf(labels, (size_t)(cut - r) + 2, "=%.*s", (int)(cut - r), r);
    if (add_entry(j->m, &j->cap, strdup(path), labels, split))
        return sl_fail(j->err, j->errlen, "out of memory");
    return 0;
}

static int load_folder(const char *dir, sl_manifest *out, char *err, size_t errlen)
{
    folder_job j = {out, 0, err, errlen, NULL, NULL, sl_label_near_new()};
    out->path = strdup(dir);
    int rc = out->path ? sl_audio_files_below(dir, NULL, add_found, &j, err, errlen)
                       : sl_fail(err, errlen, "out of memory");
    if (rc == 0 && out->n == 0)
        rc = sl_fail(err, errlen, "%s: a folder with no audio file in it (by extension: .wav "
                     ".flac .ogg ...)", dir);
    /* Split folders beside others: a misspelt split (Valid/, eval/) would
     * otherwise train as a class of its own, its files of every class. */
    if (rc == 0 && j.split_file && j.other_file) {
        int split_len = (int)(strchr(j.split_file, '/') - j.split_file);
        const char *slash = strchr(j.other_file, '/');
        if (slash)
            rc = sl_fail(err, errlen, "%s: %.*s/ is not a split folder (train, valid or test; "
                         "validation, val and dev are read as valid) but lies beside %.*s/, so "
                         "its files without label files of their own would train as one class "
                         "named '%.*s': rename it to its split, or move its files into one", dir,
                         (int)(slash - j.other_file),
                         j.other_file, split_len, j.split_file, (int)(slash - j.other_file),
                         j.other_file);
        else
            rc = sl_fail(err, errlen, "%s: %s lies beside the split folder %.*s/, in none: "
                         "move it into its split", dir, j.other_file, split_len, j.split_file);
    }
    free(j.split_file);
    free(j.other_file);
    sl_label_near_free(j.near);
    if (rc) {
        sl_manifest_free(out);
        return -1;
    }
    return 0;
}

/* An entry labelled by an RTTM file: the file (without #CLASS) as written, what
 * it is (its device and inode, or where it cannot be read its path: one file
 * however the lines spell it, ./ref.rttm or /data/ref.rttm), and the audio's
 * file id in it. */
typedef struct {
    const char *rttm;
    size_t len;
    char *file, *id;
    sl_manifest_entry *e;
} rttm_ref;

static int by_rttm_then_id(const void *a, const void *b)
{
    const rttm_ref *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (!c)
        c = strcmp(x->id, y->id);
    return c ? c : (x->e > y->e) - (x->e < y->e);
}

/* What names the file at path[0..len) as a file: "\1DEV:INODE", or the path. */
static char *file_identity(const char *path, size_t len)
{
    char *p = strndup(path, len), *key = NULL;
    struct stat st;
    if (p && stat(p, &st) == 0 && (key = malloc(48)) != NULL)
        snprintf(key, 48, "\1%llx:%llx", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
    if (key || !p)
        free(p);
    return key ? key : p;
}

/* One RTTM file as the labels of several audio files (a corpus's reference
 * for the set): each takes the lines of its file id alone, so a file the RTTM
 * never names is not given another's turns (taken whole, as a file of one id
 * is for its one audio). Two audio files of one id in it (a/x.wav, b/x.wav)
 * would be scored against each other's: refused, naming both lines. */
static int shared_rttm_references(sl_manifest *m, char *err, size_t errlen)
{
    rttm_ref *r = malloc(sizeof *r * (size_t)(m->n ? m->n : 1));
    int n = 0, rc = r ? 0 : sl_fail(err, errlen, "%s: out of memory", m->path);
    for (int i = 0; i < m->n && rc == 0; i++) {
        sl_manifest_entry *e = &m->entries[i];
        if (e->labels[0] == '=' || !sl_is_rttm_path(e->labels))
            continue;
        const char *selector;
        const size_t len = sl_label_path_split(e->labels, &selector);
        r[n] = (rttm_ref){e->labels, len, file_identity(e->labels, len), sl_rttm_file_id(e->audio),
                          e};
        if (!r[n].file || !r[n].id)
            rc = sl_fail(err, errlen, "%s: out of memory", m->path);
        n++;
    }
    if (rc == 0 && n > 1)
        qsort(r, (size_t)n, sizeof *r, by_rttm_then_id);
    for (int g = 0, end; rc == 0 && g < n; g = end) {
        int shared = 0;
        for (end = g + 1; end < n && !strcmp(r[end].file, r[g].file); end++)
            shared |= !sl_same_file(r[end].e->audio, r[g].e->audio);
        for (int k = g; shared && k < end; k++) {
            r[k].e->rttm_by_id = 1;
            if (rc == 0 && k > g && !strcmp(r[k].id, r[k - 1].id) &&
                !sl_same_file(r[k].e->audio, r[k - 1].e->audio))
                rc = sl_fail(err, errlen, "%s: lines %d (%s) and %d (%s) would both take the lines "
                             "of file id '%s' in %.*s (an RTTM line's file id is its audio's "
                             "name without folder and extension): give each its own RTTM file",
                             m->path, r[k - 1].e->line, r[k - 1].e->audio, r[k].e->line,
                             r[k].e->audio, r[k].id, (int)r[k - 1].len, r[k - 1].rttm);
        }
    }
    for (int k = 0; k < n; k++) {
        free(r[k].file);
        free(r[k].id);
    }
    free(r);
    return rc;
}

int sl_manifest_load(const char *path, sl_manifest *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return load_folder(path, out, err, errlen);
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return -1;
    out->path = strdup(path);
    int cap = 0, line_no = 0, rc = 0;
    char *p = text, *line;
    while (rc == 0 && (line = sl_next_line(&p)) != NULL) {
        line_no++;
        if (line[strspn(line, " \t")] == '\0' || line[0] == '#')
            continue; /* empty, or blanks alone (a line an editor left indented) */
        char *cols[4] = {0};
        int nc = 0;
        for (char *c = line; c && nc < 4;)
            cols[nc++] = sl_next_field(&c);
        if (nc < 2 || nc > 3) {
            rc = sl_fail(err, errlen, "%s:%d: expected audio<TAB>labels[<TAB>split], found %d column%s",
                      path, line_no, nc, nc == 1 ? "" : "s");
            break;
        }
        if (!cols[0][0] || !cols[1][0]) {
            rc = sl_fail(err, errlen, "%s:%d: empty %s path", path, line_no,
                      cols[0][0] ? "label" : "audio");
            break;
        }
        if (cols[1][0] == '=' && !cols[1][1]) {
            rc = sl_fail(err, errlen, "%s:%d: '=' names no class (=NAME labels the whole file NAME)",
                         path, line_no);
            break;
        }
        /* An entry is a file (relative ones from the manifest's folder): a URI
         * (http://, fd://3), which the audio reader would fetch or read, is
         * refused, as whichever way the manifest were named, so training,
         * eval --model and eval --hyp read the same files of one line. */
        if (sl_audio_is_uri(cols[0])) {
            char shown[SL_SHOWN_LEN];
            sl_text_shown(shown, cols[0]);
            rc = sl_fail(err, errlen, "%s:%d: %s: a URI; manifest entries are files", path,
                         line_no, shown);
            break;
        }
        sl_split split = SL_SPLIT_NONE;
        if (nc == 3 && sl_split_parse(cols[2], &split)) {
            char shown[SL_SHOWN_LEN];
            sl_text_shown(shown, cols[2]);
            rc = sl_fail(err, errlen, "%s:%d: unknown split '%s' (train, valid or test; "
                         "validation, val and dev are read as valid)", path, line_no, shown);
            break;
        }
        if (out->n == cap) {
            int nc2 = cap ? 2 * cap : 64;
            sl_manifest_entry *ne = realloc(out->entries, (size_t)nc2 * sizeof *ne);
            if (!ne) {
                rc = sl_fail(err, errlen, "%s: out of memory", path);
                break;
            }
            out->entries = ne;
            cap = nc2;
        }
        sl_manifest_entry *e = &out->entries[out->n];
        e->audio = resolve(path, cols[0]);
        e->labels = cols[1][0] == '=' ? strdup(cols[1]) : resolve(path, cols[1]);
        e->split = split;
        e->line = line_no;
        e->rttm_by_id = 0;
        out->n++;
        if (!e->audio || !e->labels)
            rc = sl_fail(err, errlen, "%s: out of memory", path);
    }
    free(text);
    if (rc == 0 && !out->path)
        rc = sl_fail(err, errlen, "%s: out of memory", path);
    if (rc == 0)
        rc = shared_rttm_references(out, err, errlen);
    if (rc)
        sl_manifest_free(out);
    return rc;
}

size_t sl_manifest_root_len(const char *manifest_path)
{
    struct stat st;
    size_t rl = strlen(manifest_path);
    if (!(stat(manifest_path, &st) == 0 && S_ISDIR(st.st_mode))) {
        const char *slash = strrchr(manifest_path, '/');
        rl = slash ? (size_t)(slash - manifest_path) : 0;
    }
    while (rl > 1 && manifest_path[rl - 1] == '/')
        rl--;
    return rl;
}

const char *sl_manifest_below_root(const char *manifest_path, size_t rl, const char *path)
{
    if (rl && !strncmp(path, manifest_path, rl) && path[rl] == '/')
        path += rl + 1;
    while (*path == '/' && rl) /* data//x.wav */
        path++;
    return path;
}

const char *sl_path_extension_at(const char *path)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    return dot && dot != name ? dot : name + strlen(name);
}

static int ends_in(const char *s, size_t len, const char *ext)
{
    const size_t n = strlen(ext);
    return len >= n && !strncasecmp(s + len - n, ext, n);
}

size_t sl_label_path_split(const char *labels, const char **selector)
{
    for (const char *hash = strchr(labels, '#'); hash; hash = strchr(hash + 1, '#')) {
        const size_t len = (size_t)(hash - labels);
        if ((ends_in(labels, len, ".TextGrid") || ends_in(labels, len, ".rttm")) &&
            !strchr(hash + 1, '/')) {
            *selector = hash + 1;
            return len;
        }
    }
    *selector = NULL;
    return strlen(labels);
}

int sl_is_rttm_path(const char *labels)
{
    const char *selector;
    return ends_in(labels, sl_label_path_split(labels, &selector), ".rttm");
}

int sl_manifest_entries_in(const sl_manifest *man, unsigned mask)
{
    int n = 0;
    for (int i = 0; i < man->n; i++)
        n += (mask & SL_SPLIT_BIT(man->entries[i].split)) != 0;
    return n;
}

char *sl_rttm_file_id(const char *audio)
{
    const char *slash = strrchr(audio, '/'), *name = slash ? slash + 1 : audio;
    const size_t size = sizeof ((sl_label_writer *)0)->file_id;
    char *stem = strndup(name, (size_t)(sl_path_extension_at(audio) - name));
    char *id = stem ? malloc(size) : NULL;
    if (id)
        sl_rttm_field(id, size, stem); /* as the writer makes it */
    free(stem);
    return id;
}

/* the frames table last: only a hypothesis may be one */
static const char *const label_exts[] = {".txt", ".TextGrid", ".rttm", ".vtt", ".srt", ".jsonl",
                                         ".csv", ".tsv"};
#define N_LABEL_EXTS (sizeof label_exts / sizeof label_exts[0])

int sl_label_name_known(const char *name)
{
    const char *ext = sl_path_extension_at(name);
    for (size_t k = 0; *ext && k < N_LABEL_EXTS; k++)
        if (!strcasecmp(ext, label_exts[k]))
            return 1;
    return 0;
}

char *sl_label_file_of(const char *prefix, const char *stem, size_t n, int frames_table,
                       int *out_of_memory, char **other)
{
    const char *const *exts = label_exts;
    const size_t n_exts = N_LABEL_EXTS - !frames_table;
    char *found = NULL;
    dev_t dev = 0;
    ino_t ino = 0;
    *out_of_memory = 0;
    *other = NULL;
    for (size_t k = 0; k < n_exts && !*other && !*out_of_memory; k++) {
        /* as written, in lower case, in upper case and capitalised: x.SRT and
         * x.Srt are x.srt (a manifest line's extension is read in any case too) */
        char forms[4][16];
        for (int f = 0; f < 4; f++)
            for (size_t i = 0; i < sizeof forms[f]; i++) {
                char ch = exts[k][i];
                forms[f][i] = f == 1 || (f == 3 && i > 1) ? (char)tolower((unsigned char)ch)
                              : f >= 2 ? (char)toupper((unsigned char)ch) : ch;
                if (!ch)
                    break;
            }
        for (int f = 0; f < 4 && !*other && !*out_of_memory; f++) {
            int seen = 0; /* a form the same as one before it */
            for (int g = 0; g < f; g++)
                seen |= !strcmp(forms[f], forms[g]);
            if (seen)
                continue;
            size_t need = strlen(prefix) + n + strlen(forms[f]) + 1;
            char *path = malloc(need);
            if (!path) {
                *out_of_memory = 1;
                break;
            }
            snprintf(path, need, "%s%.*s%s", prefix, (int)n, stem, forms[f]);
            struct stat st;
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
                !(found && st.st_dev == dev && st.st_ino == ino)) {
                if (!found) {
                    found = path;
                    dev = st.st_dev;
                    ino = st.st_ino;
                    continue;
                }
                *other = path; /* two files: whichever was meant, say so */
                continue;
            }
            free(path);
        }
    }
    if (*out_of_memory) {
        free(found);
        free(*other);
        *other = NULL;
        return NULL;
    }
    return found;
}

/* A number in [0, 1) from the text [p, p + n): FNV-1a, its top 53 bits after a
 * mix, as the low bytes of a short text barely reach the top bits. */
static double hold_out_hash(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (double)(h >> 11) / 9007199254740992.0;
}

char *sl_normal_path(const char *path, size_t n)
{
    char *out = malloc(n + 2), *q = out;
    if (!out)
        return NULL;
    const int absolute = n > 0 && path[0] == '/';
    size_t kept = 0; /* components that a ".." may take */
    if (absolute)
        *q++ = '/';
    char *base = q;
    for (const char *s = path, *end = path + n; s < end;) {
        const char *e = memchr(s, '/', (size_t)(end - s));
        if (!e)
            e = end;
        size_t l = (size_t)(e - s);
        if (l == 2 && s[0] == '.' && s[1] == '.') {
            if (kept > 0) { /* back to the "/" before the last component */
                q--;
                while (q > base && q[-1] != '/')
                    q--;
                kept--;
            } else if (!absolute) {
                memcpy(q, "../", 3);
                q += 3;
                base = q;
            }
        } else if (l > 0 && !(l == 1 && s[0] == '.')) {
            memcpy(q, s, l);
            q += l;
            *q++ = '/';
            kept++;
        }
        s = e + 1;
    }
    if (q > out + absolute && q[-1] == '/')
        q--;
    *q = '\0';
    return out;
}

/* The path from the real path of folder `dir` to the absolute path `norm`,
 * its deepest folder that exists taken as its real path and the rest as
 * written, on the text ("../b/y.wav"); malloc'ed, NULL when `dir` cannot be
 * found. */
static char *real_relative(const char *dir, char *norm)
{
    char *slash = strrchr(norm, '/'), *key = NULL, *to = NULL;
    for (;;) {
        *slash = '\0';
        to = realpath(slash == norm ? "/" : norm, NULL);
        *slash = '/';
        if (to || slash == norm)
            break;
        while (--slash > norm && *slash != '/')
            ;
    }
    char *from = realpath(dir, NULL);
    if (from && to) {
        size_t a = strlen(from), b = strlen(to), common = 0;
        for (size_t i = 1; i <= a && i <= b; i++) /* the longest folder both begin with */
            if ((i == a || from[i] == '/') && (i == b || to[i] == '/') && !strncmp(from, to, i))
                common = i;
        size_t ups = 0; /* a folder up for each of from's below the common one */
        for (size_t i = common; a > 1 && i < a; i++)
            ups += from[i] == '/';
        const char *down = to + common + (to[common] == '/');
        if ((key = malloc(3 * ups + strlen(down) + strlen(slash) + 2)) != NULL) {
            key[0] = '\0';
            for (size_t i = 0; i < ups; i++)
                strcat(key, "../");
            strcat(key, down);
            strcat(key, *down ? slash : slash + 1);
        }
    }
    free(from);
    free(to);
    return key;
}

/* What the hold-out hashes for an entry's audio: its path from the manifest's
 * folder, one key however the folder and the lines are spelt.
 *  - A line relative to the folder: its text with ".", ".." and "//"
 *    resolved (`a/x.wav` for `./a/x.wav`; `../b/y.wav` stays).
 *  - An absolute line below the folder: the rest of it, the folder found
 *    among its ancestors by device and inode, so through a link
 *    (/home -> /data/home) or without, whatever the current folder.
 *  - Elsewhere: the path from the folder's real path to the audio's real
 *    folder, on the text.
 * dir: the folder the lines were resolved against, as given (root_len bytes of
 * the manifest's path; "." or "/" when that is 0); want: what it is (NULL: it
 * cannot be found). malloc'ed; NULL when out of memory. */
static char *hold_out_key(const char *dir, size_t root_len, const struct stat *want,
                          const char *audio)
{
    char *key = NULL;
    size_t dl = strlen(dir);
    struct stat at;
    if (root_len && !strncmp(audio, dir, dl) && audio[dl] == '/') { /* as resolve() made it */
        key = sl_normal_path(audio + dl + 1, strlen(audio + dl + 1));
    } else if (audio[0] != '/' || !want) { /* the line itself */
        key = sl_normal_path(audio, strlen(audio));
    } else {
        char *norm = sl_normal_path(audio, strlen(audio));
        /* each ancestor, the deepest first: is it the folder? */
        for (char *cut = norm ? strrchr(norm, '/') : NULL; cut && !key;) {
            *cut = '\0';
            int same = stat(cut == norm ? "/" : norm, &at) == 0 && at.st_dev == want->st_dev &&
                       at.st_ino == want->st_ino;
            *cut = '/';
            if (same)
                key = strdup(cut + 1);
            else if (cut == norm)
                break;
            else
                while (--cut > norm && *cut != '/')
                    ;
        }
        if (!key && norm) /* beside the folder, or nothing of it found: its text */
            key = real_relative(dir, norm);
        if (!key && norm)
            key = strdup(norm);
        free(norm);
    }
    return key;
}

char **sl_manifest_entry_keys(const sl_manifest *m)
{
    char **keys = calloc((size_t)(m->n ? m->n : 1), sizeof *keys);
    size_t root_len = m->path ? sl_manifest_root_len(m->path) : 0;
    /* the folder the lines were resolved against, as given ("/" for /x.tsv),
     * and what it is: found once for every line */
    char *dir = !m->path ? NULL : root_len ? strndup(m->path, root_len)
                                           : strdup(m->path[0] == '/' ? "/" : ".");
    struct stat folder;
    const int found = dir && stat(dir, &folder) == 0;
    int ok = keys && (dir || !m->path);
    for (int i = 0; i < m->n && ok; i++) {
        /* without a manifest file, the path as it is */
        keys[i] = !m->path ? strdup(m->entries[i].audio)
                           : hold_out_key(dir, root_len, found ? &folder : NULL,
                                          m->entries[i].audio);
        ok = keys[i] != NULL;
    }
    free(dir);
    if (!ok) {
        sl_manifest_entry_keys_free(keys, m->n);
        return NULL;
    }
    return keys;
}

void sl_manifest_entry_keys_free(char **keys, int n)
{
    for (int i = 0; keys && i < n; i++)
        free(keys[i]);
    free(keys);
}

int sl_manifest_hold_out_groups(sl_manifest *m, double share, const char *group, char *err,
                                size_t errlen)
{
    regex_t re;
    int rc;
    if (group && (rc = regcomp(&re, group, REG_EXTENDED)) != 0) {
        char why[256];
        regerror(rc, &re, why, sizeof why);
        return sl_fail(err, errlen, "group pattern '%s': %s", group, why);
    }
    int held = 0;
    char **keys = sl_manifest_entry_keys(m);
    if (!keys)
        held = sl_fail(err, errlen, "out of memory");
    for (int i = 0; i < m->n && keys; i++) {
        if (m->entries[i].split != SL_SPLIT_NONE)
            continue;
        const char *rel = keys[i];
        size_t from = 0, len = strlen(rel);
        if (group) {
            /* the key: the first parenthesised group's text, else the whole match */
            regmatch_t match[2];
            if (regexec(&re, rel, 2, match, 0) != 0) {
                char line[24] = ""; /* a folder's entries have no line */
                if (m->entries[i].line > 0)
                    snprintf(line, sizeof line, ":%d", m->entries[i].line);
                held = sl_fail(err, errlen, "%s%s: %s: the group pattern '%s' does not match it",
                               m->path ? m->path : "manifest", line, rel, group);
                break;
            }
            int k = re.re_nsub > 0 && match[1].rm_so >= 0;
            from = (size_t)match[k].rm_so;
            len = (size_t)(match[k].rm_eo - match[k].rm_so);
        }
        if (hold_out_hash(rel + from, len) < share) {
            m->entries[i].split = SL_SPLIT_VALID;
            held++;
        }
    }
    sl_manifest_entry_keys_free(keys, m->n);
    if (group)
        regfree(&re);
    return held;
}

int sl_manifest_hold_out(sl_manifest *m, double share)
{
    return sl_manifest_hold_out_groups(m, share, NULL, NULL, 0);
}

int sl_segments_push(sl_label_segment **segs, int *n, int *cap, double start, double end,
                     const char *name, int line)
{
    if (!name[0]) /* every reader's rule: a label with no text labels nothing */
        return 0;
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 32;
        sl_label_segment *ns = realloc(*segs, (size_t)nc * sizeof *ns);
        if (!ns)
            return -1;
        *segs = ns;
        *cap = nc;
    }
    char *copy = sl_label_name_kept(name); /* (macOS's NFD and Linux's NFC, one name) */
    if (!copy)
        return -1;
    (*segs)[(*n)++] = (sl_label_segment){.start = start, .end = end, .name = copy, .line = line};
    return 0;
}

void sl_label_segments_free(sl_label_segment *segs, int n)
{
    if (!segs)
        return;
    for (int i = 0; i < n; i++)
        free(segs[i].name);
    free(segs);
}

int sl_keyed_entry_cmp(const void *a, const void *b)
{
    const sl_keyed_entry *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->e > y->e) - (x->e < y->e);
}

int sl_fail_bad_time(char *err, size_t errlen, const char *path, int line, const char *text)
{
    char shown[SL_SHOWN_LEN];
    sl_text_shown(shown, text);
    return sl_fail(err, errlen, "%s:%d: bad time '%s' (seconds >= 0 expected)", path, line, shown);
}

int sl_parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = sl_strtod_c(s, &end);
    /* decimal seconds: strtod's hexadecimal floats (0x1p-1) are no label
     * file's times, a typo more likely than meant */
    if (errno || end == s || *end != '\0' || !isfinite(v) || v < 0.0 || strpbrk(s, "xX"))
        return -1;
    *out = v;
    return 0;
}

char *sl_label_name_kept(const char *name)
{
    char *nfc = sl_text_nfc(name);
    if (nfc && strlen(nfc) > SL_MAX_CLASS_NAME && strlen(name) <= SL_MAX_CLASS_NAME) {
        free(nfc);
        return strdup(name);
    }
    return nfc;
}

char *sl_label_list_kept(const char *list)
{
    const size_t cap = 3 * strlen(list) + 1; /* (NFC grows text 3 times at most) */
    char *out = malloc(cap);
    size_t used = 0;
    for (const char *p = list; out;) {
        const size_t len = strcspn(p, ",");
        char *name = strndup(p, len), *kept = name ? sl_label_name_kept(name) : NULL;
        if (kept && used + strlen(kept) + 1 < cap)
            used += (size_t)snprintf(out + used, cap - used, "%s%s", kept, p[len] ? "," : "");
        else {
            free(out);
            out = NULL;
        }
        free(name);
        free(kept);
        if (!p[len])
            break;
        p += len + 1;
    }
    return out;
}

int sl_label_name_unfit(const char *path, int line, const char *name, char *err, size_t errlen)
{
    _Static_assert(SL_MAX_CLASS_NAME == 64, "the message says 64 bytes");
    /* the length of the name as it is kept (sl_segments_push), which in NFC
     * is macOS's NFD of Korean or accented text by half or less */
    char *kept = sl_label_name_kept(name);
    const size_t n = strlen(kept ? kept : name);
    free(kept);
    if (n > 0 && n <= SL_MAX_CLASS_NAME && !strchr(name, '\t'))
        return 0;
    char shown[SL_SHOWN_LEN];
    sl_text_shown(shown, name);
    if (!n)
        return sl_fail(err, errlen, "%s:%d: an empty label name", path, line);
    if (n <= SL_MAX_CLASS_NAME)
        return sl_fail(err, errlen, "%s:%d: label '%s' holds a tab, which no class name may",
                       path, line, shown);
    /* bytes, not characters: say what that makes of a name in another script */
    return sl_fail(err, errlen, "%s:%d: label '%s' is %zu bytes long; a class name holds at "
                   "most 64 bytes of UTF-8 (64 ASCII letters, 32 Cyrillic or Hebrew, 21 CJK)",
                   path, line, shown, n);
}

int sl_one_input(const char *file, char **first, const char *path, int line, const char *format,
                 char *err, size_t errlen)
{
    if (!*first && !(*first = strdup(file)))
        return sl_fail(err, errlen, "%s: out of memory", path);
    if (strcmp(*first, file)) {
        char a[SL_SHOWN_LEN], b[SL_SHOWN_LEN];
        sl_text_shown(a, *first);
        sl_text_shown(b, file);
        return sl_fail(err, errlen, "%s:%d: %s of two files ('%s', '%s'): a label file is one "
                       "input's (seqlabel label -o DIR/ --format %s writes one each)", path, line,
                       strcmp(format, "jsonl") ? "rows" : "lines", a, b, format);
    }
    return 0;
}

int sl_segment_cmp(const void *a, const void *b)
{
    const sl_label_segment *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->line - y->line;
}

int sl_audacity_read(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    *segs = NULL;
    *n = 0;
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return -1;
    sl_label_segment *s = NULL;
    int cnt = 0, cap = 0, line_no = 0, rc = 0;
    char *p = text, *line;
    while (rc == 0 && (line = sl_next_line(&p)) != NULL) {
        line_no++;
        if (line[0] == '\0')
            continue;
        if (line[0] == '\\') /* Audacity's spectral selection line under a label */
            continue;
        if (line_no == 1 && !strncmp(line, "frame\ttime\tlabel\t", 17)) {
            rc = sl_fail(err, errlen, "%s: a frames table (seqlabel label --format frames), "
                         "not labels: label files are segments; seqlabel eval --hyp scores "
                         "frames tables too", path);
            break;
        }
        char *t1 = strchr(line, '\t');
        char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t1 || !t2) {
            rc = sl_fail(err, errlen, "%s:%d: expected start<TAB>end<TAB>label", path, line_no);
            break;
        }
        *t1 = *t2 = '\0';
        /* NAME<TAB>start<TAB>end<TAB>label: several inputs' lines on one stream
         * (seqlabel label a.wav b.wav), said as such, not as a bad time; no
         * label holds a tab, so whatever NAME is (001 too) the line is one */
        char *t3 = strchr(t2 + 1, '\t');
        double x;
        if (t3 && t3[1] && !sl_parse_seconds(t1 + 1, &x)) { /* (a tab ending a label: no) */
            *t3 = '\0';
            if (!sl_parse_seconds(t2 + 1, &x)) {
                rc = sl_fail(err, errlen, "%s:%d: a line of several inputs' labels (NAME<TAB>"
                             "start<TAB>end<TAB>label, as seqlabel label a.wav b.wav writes "
                             "them): a label file is one input's (-o DIR/ writes one each)",
                             path, line_no);
                break;
            }
            *t3 = '\t';
        }
        rc = sl_segment_from_text(path, line_no, line, t1 + 1, t2 + 1, &s, &cnt, &cap, err, errlen);
    }
    free(text);
    return sl_segments_finish(path, s, cnt, rc, segs, n, err, errlen);
}

int sl_segment_from_text(const char *path, int line, const char *start, const char *end,
                         const char *name, sl_label_segment **segs, int *n, int *cap,
                         char *err, size_t errlen)
{
    double a, b;
    if (sl_parse_seconds(start, &a) || sl_parse_seconds(end, &b))
        return sl_fail_bad_time(err, errlen, path, line, sl_parse_seconds(start, &a) ? start : end);
    if (b < a)
        return sl_fail(err, errlen, "%s:%d: segment ends (%.12g s) before it starts (%.12g s)", path,
                       line, b, a);
    if (name[0] && sl_label_name_unfit(path, line, name, err, errlen))
        return -1; /* (none: sl_segments_push takes nothing) */
    if (sl_segments_push(segs, n, cap, a, b, name, line))
        return sl_fail(err, errlen, "%s: out of memory", path);
    return 0;
}

int sl_segments_finish(const char *path, sl_label_segment *s, int cnt, int rc,
                       sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    if (rc == 0) {
        if (cnt > 1) /* qsort's array may not be NULL, which an empty file leaves */
            qsort(s, (size_t)cnt, sizeof *s, sl_segment_cmp);
        /* Point labels (start == end) mark instants, not spans: they label no
         * frame and may sit anywhere, so only spans are checked for overlap. */
        int prev = -1;
        for (int i = 0; i < cnt && rc == 0; i++) {
            if (s[i].end == s[i].start)
                continue;
            if (prev >= 0 && s[i].start < s[prev].end)
                rc = sl_fail(err, errlen,
                          "%s:%d: segment %.12g-%.12g s overlaps the segment %.12g-%.12g s of line %d", path,
                          s[i].line, s[i].start, s[i].end, s[prev].start, s[prev].end,
                          s[prev].line);
            prev = i;
        }
    }
    if (rc) {
        sl_label_segments_free(s, cnt);
        return -1;
    }
    *segs = s;
    *n = cnt;
    return 0;
}

int sl_manifest_entry_segments(const sl_manifest_entry *e, sl_label_segment **segs, int *n,
                               char *err, size_t errlen)
{
    return sl_manifest_entry_segments_ex(e, e->rttm_by_id, segs, n, err, errlen);
}

int sl_manifest_entry_segments_ex(const sl_manifest_entry *e, int by_id,
                                  sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    /* x.TextGrid or x.TextGrid#TIER; x.rttm or x.rttm#CLASS */
    const char *selector;
    const size_t plen = sl_label_path_split(e->labels, &selector);
    const int textgrid = ends_in(e->labels, plen, ".TextGrid"), rttm = sl_is_rttm_path(e->labels);
    if (e->labels[0] != '=' && (textgrid || rttm) && selector && !selector[0])
        return sl_fail(err, errlen, "%s: '#' names no %s (%s#%s)", e->labels,
                       rttm ? "class" : "tier", rttm ? "x.rttm" : "x.TextGrid",
                       rttm ? "speech: every turn as that class" : "words: that tier");
    if (e->labels[0] != '=' && (textgrid || rttm)) {
        char *path = strndup(e->labels, plen), *stem = NULL;
        if (path && rttm)
            stem = sl_rttm_file_id(e->audio);
        int rc = !path || (rttm && !stem) ? sl_fail(err, errlen, "out of memory")
                 : textgrid ? sl_textgrid_read(path, selector, segs, n, err, errlen)
                            : sl_rttm_read_ex(path, stem, selector, by_id, segs, n,
                                              err, errlen);
        free(path);
        free(stem);
        return rc;
    }
    if (e->labels[0] != '=') {
        const char *ext = sl_path_extension_at(e->labels);
        if (!strcasecmp(ext, ".vtt") || !strcasecmp(ext, ".srt"))
            return sl_subtitles_read(e->labels, segs, n, err, errlen);
        if (!strcasecmp(ext, ".jsonl"))
            return sl_jsonl_read(e->labels, segs, n, err, errlen);
        if (!strcasecmp(ext, ".csv"))
            return sl_csv_read(e->labels, segs, n, err, errlen);
        return sl_audacity_read(e->labels, segs, n, err, errlen);
    }
    sl_label_segment *s = calloc(1, sizeof *s);
    if (!s || !(s->name = sl_label_name_kept(e->labels + 1))) { /* (NFD: a macOS folder's) */
        free(s);
        return sl_fail(err, errlen, "out of memory");
    }
    s->start = 0.0;
    s->end = INFINITY; /* label_frames takes every frame; no duration to check */
    s->line = e->line;
    *segs = s;
    *n = 1;
    return 0;
}
