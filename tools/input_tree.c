/* Folders as inputs (tools/input_tree.h): `seqlabel label corpus/ -o labels/`
 * labels every audio file below corpus/ into labels/, mirroring its tree, so
 * files of one name in different folders (spk1/001.wav, spk2/001.wav) keep
 * apart. */
#include "tools/input_tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "seqlabel.h"
#include "tools/cli.h"

int cli_is_audio_name(const char *name)
{
    static const char *const exts[] = {"wav", "wave", "bwf", "w64", "rf64", "flac", "ogg", "oga",
                                       "opus", "mp3", "mp2", "aif", "aiff", "aifc", "au", "snd",
                                       "caf", "sph", "nist", "voc", "sd2"};
    const char *dot = cli_extension(name);
    if (!dot)
        return 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(dot + 1, exts[i]))
            return 1;
    sl_raw_encoding enc;
    int rate;
    return sl_raw_format_from_path(name, &enc, &rate);
}

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
    int raw; /* folders' inputs by is_raw_name, else by cli_is_audio_name */
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

static int skip_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* Every audio file below root/rel (rel "" or ending in '/'), depth first in
 * name order. -1 when a folder cannot be read or memory runs out (said). */
static int walk(input_list *l, const char *root, const char *rel)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s%s%s", root, root[strlen(root) - 1] == '/' ? "" : "/", rel);
    struct dirent **names;
    int n = scandir(dir, &names, skip_hidden, alphasort);
    if (n < 0)
        return cli_error("%s: cannot read this folder: %s", dir, strerror(errno)), -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[4096], sub[4096];
        if (rc == 0 && ((size_t)snprintf(path, sizeof path, "%s%s", dir, names[i]->d_name) >= sizeof path ||
                        (size_t)snprintf(sub, sizeof sub - 1, "%s%s", rel, names[i]->d_name) >= sizeof sub - 1)) {
            rc = -1;
            cli_error("%s%s: the path is too long", dir, names[i]->d_name);
        }
        struct stat st, link;
        /* folders are entered only as themselves, as find(1) does: a link to a
         * folder (to one above, say) is not followed; links to files are */
        if (rc == 0 && lstat(path, &link) == 0 && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode) && !S_ISLNK(link.st_mode)) {
                strcat(sub, "/"); /* room kept above */
                rc = walk(l, root, sub);
            } else if (S_ISREG(st.st_mode) &&
                       (l->raw ? is_raw_name(names[i]->d_name) : cli_is_audio_name(names[i]->d_name)) &&
                       push(l, path, sub, without_extension(sub)) != 0) {
                rc = -1;
                cli_error("out of memory");
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int cli_inputs_expand(char *const *args, int n_args, int raw, cli_input **inputs, int *n)
{
    input_list l = {.raw = raw};
    for (int i = 0; i < n_args; i++) {
        struct stat st;
        if (strcmp(args[i], "-") && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            int before = l.n;
            if (walk(&l, args[i], "") != 0)
                goto fail;
            if (l.n == before) {
                if (raw)
                    cli_error("%s: a folder with no .raw or .pcm file in it (--raw-format takes "
                              "those from folders)", args[i]);
                else
                    cli_error("%s: a folder with no audio file in it (by extension: .wav .flac .ogg "
                              ".opus .mp3 .aiff .au .caf ... and Asterisk's .gsm .ulaw .sln ...)",
                              args[i]);
                goto fail;
            }
            continue;
        }
        const char *base = strrchr(args[i], '/');
        base = strcmp(args[i], "-") ? (base ? base + 1 : args[i]) : "stdin";
        if (push(&l, args[i], base, without_extension(base)) != 0) {
            cli_error("out of memory");
            goto fail;
        }
    }
    *inputs = l.v;
    *n = l.n;
    return 0;
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
