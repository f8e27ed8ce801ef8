/* How an output file replaces what is at its path: one rule for the library's
 * model and checkpoint writers and the command's labels, features and cuts.
 * The command compiles this file too (tools/meson.build), since it reaches the
 * library itself only through include/seqlabel.h.
 *
 *  - nothing there: written under a temporary name beside it and renamed into
 *    place when complete, so a failure never leaves a partial file;
 *  - a regular file: the same; refused when this user may not write it (as
 *    the shell's `>` would refuse it), and the new file keeps its permission
 *    bits (a 0600 file stays 0600) and, where this user may give them, its
 *    owner and group (root may: root writing a user's file leaves it theirs);
 *  - a symbolic link: the file it leads to is replaced that way (the temporary
 *    file beside that file), so the link stays a link to the new contents;
 *  - a device, FIFO or socket (`/dev/null`): written as it is, in place, since
 *    a rename would replace it (as root, /dev/null itself);
 *  - a name of an open descriptor, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
 *    `/proc/self/fd/N` (or a link to one): written through that descriptor, as
 *    the shell's own redirections do, at its offset (a `>>` log is appended
 *    to, what a script's other commands write around it kept); refused where
 *    it is not open for writing (closed: see tools/seqlabel.c). Opened anew it
 *    would start at 0 and truncate, and its link's file replaced by rename
 *    would lose all of that;
 *  - a directory: refused;
 *  - in a folder anyone may write and only a file's owner may remove files
 *    from (sticky, world-writable: /tmp), another user's link (not followed),
 *    file or FIFO (not replaced), unless that user owns the folder: refused,
 *    root included, as the kernel's protected_symlinks, protected_regular and
 *    protected_fifos refuse them to `>`, whatever those sysctls say (the links
 *    are followed here, and a file replaced by rename, out of their reach).
 * The temporary file is created with mode 0600 (then given the owner and mode
 * it is to have, before anything is written), under a name no one can foresee:
 * TARGET.tmp.<pid>.XXXXXX, X's random (mkostemp; TARGET: the file written;
 * where the suffix would pass NAME_MAX, its name shortened and the suffix
 * .tmp.<pid>.<hash of the whole name>.XXXXXX). A program ending on a signal
 * removes this process's with sl_output_remove_temporaries, and those of a
 * process of its own that died with sl_output_remove_temporaries_of. */
#ifndef SL_COMMON_OUTPUT_FILE_H
#define SL_COMMON_OUTPUT_FILE_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    const char *name; /* the path as given, for messages (borrowed) */
    char *target;     /* the file written: the end of its links, or name itself */
    char *tmp;        /* the temporary name; NULL: target is written in place */
    int through;      /* >= 0: the descriptor a name such as /dev/stdout gives, written
                         through (a duplicate of it); -1: none */
    int tmp_dir;      /* the temporary file's folder, open while the file is (-1: none):
                         it is renamed and removed through this, so a folder renamed
                         meanwhile leaves no temporary file behind */
    int fd;           /* open for writing after sl_output_create, else -1 */
    int keep_mode;    /* 1: a regular file is there, whose permission bits are mode */
    mode_t mode;
    uid_t uid;        /* with keep_mode: that file's owner and group */
    gid_t gid;
    int mode_failed;  /* sl_output_create failed giving the temporary file mode
                         (created, then removed), not creating it */
} sl_output;

/* Decides where `path` is written (nothing is created). 0, or -1 with a message
 * naming path: a directory, a file this user may not write, a loop of links,
 * another user's link or file in a shared folder. */
int sl_output_plan(sl_output *o, const char *path, char *err, size_t errlen);
/* Opens o->fd: the temporary file (created anew, with the kept mode), or the
 * device or FIFO itself. 0, or -1 with a message and errno kept. */
int sl_output_create(sl_output *o, char *err, size_t errlen);
/* sl_output_plan, then sl_output_create: 0, or -1 with a message and o freed. */
int sl_output_open(sl_output *o, const char *path, char *err, size_t errlen);
/* Closes o->fd and renames the temporary file over the target (nothing more in
 * place). 0, or -1 with a message; the temporary file is gone either way. */
int sl_output_commit(sl_output *o, char *err, size_t errlen);
/* Closes o->fd and removes the temporary file, if any. */
void sl_output_discard(sl_output *o);
/* Frees what sl_output_plan allocated (after commit or discard). */
void sl_output_free(sl_output *o);
/* 0 when the folder `path` (one an output goes into, made or written in) is
 * no link another user planted in a shared folder, nor leads through one, by
 * the rule above for an output's own name; -1 with a message naming it (a
 * folder of root's /tmp/NAME/ that is another user's link to a folder of
 * theirs, or of root's, is refused). Each folder of an output's path is
 * checked so as it is made. */
int sl_output_folder_check(const char *path, char *err, size_t errlen);
/* 1 when paths a and b name one file: one name, or one inode (./x, a link,
 * a hard link); what an output may not be of the inputs it is made from. */
int sl_same_file(const char *a, const char *b);
/* The folder a path's last part lies in: "." for a bare name, "/" for one at
 * the root (malloc'ed; NULL: out of memory). */
char *sl_path_folder(const char *path);
/* Removes the temporary files this process is writing, the library's saves
 * and feature cache entries too (created and not yet renamed or removed, and
 * those of sl_output_watch; SL_MAX_THREADS + 32 at a time are watched).
 * Async-signal-safe: for a handler of SIGINT, SIGTERM, SIGHUP. */
void sl_output_remove_temporaries(void);
/* Watches a temporary file (or folder) written other than through sl_output
 * (a feature cache entry, a benchmark's audio), for
 * sl_output_remove_temporaries to remove, files first, folders once empty;
 * `tmp` stays valid until sl_output_unwatch. Watch it before creating it: a
 * signal between would leave it. */
void sl_output_watch(char *tmp);
void sl_output_unwatch(char *tmp);
/* The pattern of the temporary names that process pid writing `path` would use
 * (malloc'd; XXXXXX at their end), NULL when it would use none (in place,
 * refused, out of memory). */
char *sl_output_tmp_pattern_of(const char *path, pid_t pid);
/* Removes the temporary files of that pattern (what a worker that died left
 * writing path): how many. */
int sl_output_remove_temporaries_of(const char *path, pid_t pid);

#endif
