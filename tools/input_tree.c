/* Folders as inputs (tools/input_tree.h): `seqlabel label corpus/ -o labels/`
 * labels every audio file below corpus/ into labels/, mirroring its tree, so
 * files of one name in different folders (spk1/001.wav, spk2/001.wav) keep
 * apart. */
#include "tools/input_tree.h"

#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "seqlabel.h"
#include "tools/cli.h"

/* With --raw-format every input is read as those samples, so a folder stands
 * for its files that say nothing of themselves: .raw and .pcm (a .wav or .gsm
 * beside them would be misread). */
static int is_raw_name(const char *name)
{
    const char *dot = cli_extension(name);
    return dot && (!strcasecmp(dot, ".raw") || !strcasecmp(dot, ".pcm"));
}

typedef struct {
    cli_input *v;
    int n, cap;
} input_list;

static int push(input_list *l, const char *path, const char *name, size_t name_len)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        cli_input *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    cli_input *in = &l->v[l->n];
    in->path = strdup(path);
    in->name = strndup(name, name_len);
    if (!in->path || !in->name) {
        free(in->path);
        free(in->name);
        return -1;
    }
    l->n++;
    return 0;
}

/* The length of name without its extension. */
static size_t without_extension(const char *name)
{
    const char *dot = cli_extension(name);
    return dot ? (size_t)(dot - name) : strlen(name);
}

/* What a URI's outputs and ids are named: standard input for fd://0 ("stdin",
 * as '-'), fdN for another descriptor (its digits alone: fdsrc reads
 * fd://0/../x as descriptor 0, and the rest must not lead an output out of its
 * folder), else the path's last part without query
 * or fragment, percent-decoded (file:///talks/a%20b.wav: "a b.wav") where that
 * makes no '/' or NUL; "stream" for none (http://host/). malloc'ed, NULL: out
 * of memory. */
static char *name_of_uri(const char *uri)
{
    if (!strncmp(uri, "fd://", 5)) {
        int digits = (int)strspn(uri + 5, "0123456789");
        return digits == 1 && uri[5] == '0' ? g_strdup("stdin")
                                            : g_strdup_printf("fd%.*s", digits, uri + 5);
    }
    const char *path = strstr(uri, "://");
    path = path ? path + 3 : uri;
    size_t end = strcspn(path, "?#");
    const char *slash = memrchr(path, '/', end);
    if (!slash) /* http://host: the host alone, no path */
        return g_strdup("stream");
    const char *last = slash + 1;
    size_t len = end - (size_t)(last - path);
    if (len == 0)
        return g_strdup("stream");
    char *raw = g_strndup(last, len);
    char *decoded = g_uri_unescape_string(raw, "/");
    if (decoded && *decoded) {
        g_free(raw);
        return decoded;
    }
    g_free(decoded);
    return raw;
}

/* sl_audio_files_below's callback: the file as an input named by its path
 * below the folder, without extension. */
static int push_found(void *user, const char *path, const char *rel)
{
    if (push(user, path, rel, without_extension(rel)) != 0) {
        cli_error("out of memory");
        return -1;
    }
    return 0;
}

/* A folder by what it is, not by the path it was reached by (a link, a bind
 * mount): its device and inode. */
typedef struct {
    dev_t dev;
    ino_t ino;
} folder_id;

/* A folder's walk: its files go on the list; a part of it that cannot be
 * read is said, as a file that cannot be read is, and the rest is taken. */
typedef struct {
    input_list *list;
    int lost;
    const char *root;        /* the folder walked, as given */
    const folder_id *outputs; /* the run's output folders: their files are no inputs */
    int n_outputs;
    char last[4096];         /* the folder below root of the file before, and */
    int last_left_out;       /* whether it lies in an output folder */
} walk_state;

/* Whether rel's folders below the root (not the root itself: labels written
 * beside the audio) hold one of the run's output folders. */
static int in_output_folder(walk_state *w, const char *rel)
{
    const char *slash = strrchr(rel, '/');
    const size_t len = slash ? (size_t)(slash - rel) : 0;
    if (!w->n_outputs || !len || len >= sizeof w->last)
        return 0;
    if (!strncmp(w->last, rel, len) && w->last[len] == '\0')
        return w->last_left_out; /* a folder's files come one after another */
    memcpy(w->last, rel, len);
    w->last[len] = '\0';
    w->last_left_out = 0;
    char path[8192];
    for (size_t k = 0; k <= len && !w->last_left_out; k++) {
        struct stat st;
        if (k < len && rel[k] != '/')
            continue;
        snprintf(path, sizeof path, "%s/%.*s", w->root, (int)k, rel);
        if (stat(path, &st) != 0)
            continue;
        for (int o = 0; o < w->n_outputs && !w->last_left_out; o++)
            w->last_left_out = st.st_dev == w->outputs[o].dev && st.st_ino == w->outputs[o].ino;
    }
    return w->last_left_out;
}

static int push_walked(void *user, const char *path, const char *rel)
{
    walk_state *w = user;
    return in_output_folder(w, rel) ? 0 : push_found(w->list, path, rel);
}

static int lost_walked(void *user, const char *why)
{
    ((walk_state *)user)->lost = 1;
    cli_error("%s", why);
    return 0;
}

int cli_inputs_expand(char *const *args, int n_args, int raw, const char *const *outputs,
                      int n_outputs, cli_input **inputs, int *n)
{
    input_list l = {0};
    int lost = 0, n_out = 0;
    folder_id out_ids[4];
    for (int k = 0; k < n_outputs && n_out < 4; k++) {
        struct stat st;
        if (outputs[k] && stat(outputs[k], &st) == 0 && S_ISDIR(st.st_mode))
            out_ids[n_out++] = (folder_id){st.st_dev, st.st_ino};
    }
    for (int i = 0; i < n_args; i++) {
        struct stat st;
        if (strcmp(args[i], "-") && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            int before = l.n;
            char err[SL_ERR_LEN] = "";
            /* the run's own output folders below it (a rerun's -o, --cut and
             * --split folders) are left out */
            walk_state *w = calloc(1, sizeof *w);
            if (!w) {
                cli_error("out of memory");
                goto fail;
            }
            *w = (walk_state){&l, 0, args[i], out_ids, n_out, "", 0};
            int rc = sl_audio_files_below_ex(args[i], raw ? is_raw_name : NULL, push_walked,
                                             lost_walked, w, err, sizeof err);
            const int walk_lost = w->lost;
            free(w);
            lost |= walk_lost;
            if (rc != 0) {
                if (rc < 0 && err[0])
                    cli_error("%s", err);
                goto fail;
            }
            if (l.n == before && !walk_lost) {
                if (raw)
                    cli_error("%s: a folder with no .raw or .pcm file in it (--raw-format takes "
                              "those from folders)", args[i]);
                else
                    cli_error("%s: a folder with no audio file in it (by extension: .wav .flac .ogg "
                              ".opus .mp3 .aiff .au .caf ..., .m4a .mp4 .mkv .webm ... and "
                              "Asterisk's .gsm .ulaw .sln ...)",
                              args[i]);
                lost = 1;
            }
            continue;
        }
        char *uri_name = sl_audio_is_uri(args[i]) ? name_of_uri(args[i]) : NULL;
        const char *base = strrchr(args[i], '/');
        base = uri_name ? uri_name
               : strcmp(args[i], "-") ? (base ? base + 1 : args[i]) : "stdin";
        int pushed = push(&l, args[i], base, without_extension(base));
        g_free(uri_name);
        if (pushed != 0) {
            cli_error("out of memory");
            goto fail;
        }
    }
    *inputs = l.v;
    *n = l.n;
    return lost;
fail:
    cli_inputs_free(l.v, l.n);
    return -1;
}

void cli_inputs_free(cli_input *inputs, int n)
{
    for (int i = 0; i < n; i++) {
        free(inputs[i].path);
        free(inputs[i].name);
    }
    free(inputs);
}

/* Makes the folders of path that end at a '/' from byte `from` on (those before
 * it exist). 0, or -1 (said). */
static int make_folders(char *path, size_t from)
{
    for (char *p = path + from; (p = strchr(p, '/')) != NULL; p++) {
        if (p == path)
            continue; /* the root of an absolute path */
        *p = '\0';
        char err[SL_ERR_LEN];
        if (sl_output_folder_check(path, err, sizeof err) != 0)
            return cli_error("%s", err), -1;
        int e = mkdir(path, 0777) != 0 ? errno : 0;
        struct stat st;
        if (e && (e != EEXIST || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
            return cli_error("%s: cannot make this folder: %s", path,
                             strerror(e == EEXIST ? ENOTDIR : e)), -1;
        *p = '/';
    }
    return 0;
}

int cli_make_dirs_below(const char *dir, const char *name)
{
    char path[4096];
    size_t n = strlen(dir);
    snprintf(path, sizeof path, "%s%s", dir, n && dir[n - 1] == '/' ? "" : "/");
    size_t base = strlen(path);
    snprintf(path + base, sizeof path - base, "%s", name);
    return make_folders(path, base);
}

int cli_make_dir(const char *dir)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/", dir) >= sizeof path)
        return cli_error("%s: the path is too long", dir), -1;
    return make_folders(path, 0);
}
