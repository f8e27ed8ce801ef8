/* The audio files below a folder (sl_audio_files_below): what a folder stands
 * for as input to `seqlabel label` and as a manifest of `seqlabel train` and
 * `seqlabel eval`. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "seqlabel.h"
#include "io/io_internal.h"

static int skip_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

typedef struct {
    const char *root;
    int (*take)(const char *name);
    int (*fn)(void *user, const char *path, const char *rel);
    int (*lost)(void *user, const char *why);
    void *user;
    char *err;
    size_t errlen;
} walk_job;

/* A part of the tree that cannot be taken, said in j->err: the walk's end
 * (-1), or, where the caller takes such parts one by one, its answer. */
static int part_lost(const walk_job *j)
{
    return j->lost ? j->lost(j->user, j->err ? j->err : "") : -1;
}

/* Folders nested deeper than this are refused rather than walked: the path
 * limit allows some 2,000 levels ("a/a/a/..."), and no tree of audio needs
 * more than a few dozen. */
#define MAX_DEPTH 256

/* Every file below root/rel (rel "" or ending in '/'), depth first in name
 * order. One level's paths live on the heap: a tree someone else made may be
 * as deep as the path limit allows, and recursion must not run out of stack. */
static int walk(const walk_job *j, const char *rel, int depth)
{
    enum { LEN = 4096 };
    struct { char dir[LEN], path[LEN], sub[LEN]; } *b = malloc(sizeof *b);
    if (!b)
        return sl_io_err(j->err, j->errlen, "%s%s: out of memory", j->root, rel), -1;
    char *dir = b->dir, *path = b->path, *sub = b->sub;
    size_t rl = strlen(j->root);
    struct dirent **names = NULL;
    int n = 0, rc = 0, unreachable = 0;
    if ((size_t)snprintf(dir, LEN, "%s%s%s", j->root, rl && j->root[rl - 1] == '/' ? "" : "/",
                         rel) >= LEN)
        rc = (sl_io_err(j->err, j->errlen, "%s%s: the path is too long", j->root, rel),
              part_lost(j));
    else if (depth > MAX_DEPTH)
        rc = (sl_io_err(j->err, j->errlen, "%s: folders nested more than %d deep below %s",
                        dir, MAX_DEPTH, j->root), part_lost(j));
    else if ((n = scandir(dir, &names, skip_hidden, alphasort)) < 0)
        rc = (sl_io_err(j->err, j->errlen, "%s: cannot read this folder: %s", dir,
                        strerror(errno)), part_lost(j));
    for (int i = 0; i < n; i++) {
        if (rc == 0 && ((size_t)snprintf(path, LEN, "%s%s", dir, names[i]->d_name) >= LEN ||
                        (size_t)snprintf(sub, LEN - 1, "%s%s", rel, names[i]->d_name) >= LEN - 1)) {
            sl_io_err(j->err, j->errlen, "%s%s: the path is too long", dir, names[i]->d_name);
            if ((rc = part_lost(j)) == 0)
                goto next;
        }
        struct stat st, link;
        /* folders are entered only as themselves, as find(1) does: a link to a
         * folder (to one above, say) is not followed; links to files are, and
         * one named as audio that leads nowhere is passed on as well, so that
         * its open fails naming it rather than the file going missing unsaid */
        if (rc != 0 || unreachable) {
            /* nothing more of this folder */
        } else if (lstat(path, &link) == 0) {
            int there = stat(path, &st) == 0;
            if (there && S_ISDIR(st.st_mode) && !S_ISLNK(link.st_mode)) {
                strcat(sub, "/"); /* room kept above */
                rc = walk(j, sub, depth + 1);
            } else if ((there ? S_ISREG(st.st_mode) : S_ISLNK(link.st_mode)) &&
                       j->take(names[i]->d_name)) {
                rc = j->fn(j->user, path, sub);
            }
        } else if (errno != ENOENT) { /* (ENOENT: gone since it was listed) */
            /* a folder that may be read but not searched (r without x): its
             * names are there, what they name cannot be reached; said once */
            sl_io_err(j->err, j->errlen, "%s: cannot reach the files in this folder: %s", dir,
                      strerror(errno));
            unreachable = 1;
            rc = part_lost(j);
        }
    next:
        free(names[i]);
    }
    free(names);
    free(b);
    return rc;
}

int sl_audio_files_below(const char *dir, int (*take)(const char *name),
                         int (*fn)(void *user, const char *path, const char *rel), void *user,
                         char *err, size_t errlen)
{
    return sl_audio_files_below_ex(dir, take, fn, NULL, user, err, errlen);
}

int sl_audio_files_below_ex(const char *dir, int (*take)(const char *name),
                            int (*fn)(void *user, const char *path, const char *rel),
                            int (*lost)(void *user, const char *why), void *user, char *err,
                            size_t errlen)
{
    char own[SL_ERR_LEN]; /* where the caller gives no room, lost still hears why */
    walk_job j = {dir, take ? take : sl_audio_name_known, fn, lost, user,
                  err ? err : (lost ? own : NULL), err ? errlen : sizeof own};
    return walk(&j, "", 0);
}
