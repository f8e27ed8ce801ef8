#include "common/output_file.h"

#include "seqlabel.h" /* SL_MAX_THREADS */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/errors.h"

/* Links followed before giving up, as the kernel does (ELOOP). */
#define MAX_LINKS 40

/* Where the symbolic link `link` leads (malloc'd): its text, taken from the
 * link's own folder when relative, as the kernel takes it. NULL: errno. */
static char *link_destination(const char *link)
{
    char to[PATH_MAX];
    ssize_t n = readlink(link, to, sizeof to - 1);
    if (n < 0)
        return NULL;
    if ((size_t)n == sizeof to - 1) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    to[n] = '\0';
    const char *slash = strrchr(link, '/');
    size_t dir = to[0] == '/' || !slash ? 0 : (size_t)(slash - link) + 1;
    char *out = malloc(dir + (size_t)n + 1);
    if (!out)
        return NULL;
    memcpy(out, link, dir);
    memcpy(out + dir, to, (size_t)n + 1);
    return out;
}

/* 1 when the folder holding `path` is one many users share: anyone may write
 * in it and only a file's owner (or the folder's) may remove it (sticky,
 * world-writable: /tmp, /var/tmp, /dev/shm); *owner gets the folder's owner. */
static int in_shared_folder(const char *path, uid_t *owner)
{
    char *dir = sl_path_folder(path);
    struct stat st;
    int shared = dir && stat(dir, &st) == 0 &&
                 (st.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
    if (shared)
        *owner = st.st_uid;
    free(dir);
    return shared;
}

/* 1 when `st`, the file or link at `path`, is another user's in a shared
 * folder whose owner it is not either: the kernel's protected_symlinks and
 * protected_regular (Documentation/admin-guide/sysctl/fs.rst) refuse to follow
 * such a link or to open such a file with O_CREAT, also for root, since that
 * user may have put it there for this one to follow or write. The output's
 * links are followed here (lstat, readlink) and its file replaced by rename,
 * which the kernel does not check so: the rule is kept here instead, whatever
 * the sysctls say. */
static int planted(const char *path, const struct stat *st)
{
    uid_t dir_owner;
    return st->st_uid != geteuid() && in_shared_folder(path, &dir_owner) &&
           st->st_uid != dir_owner;
}

/* The descriptor `path` names, as the shell's redirections take such names
 * (bash opens none of them, it duplicates the descriptor): /dev/stdin 0,
 * /dev/stdout 1, /dev/stderr 2, /dev/fd/N, /proc/self/fd/N (and thread-self's,
 * and this process's /proc/PID/fd/N) N; -1 for any other path. */
static int descriptor_named(const char *path)
{
    static const char *const standard[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(path, standard[i]))
            return i;
    char own[64];
    snprintf(own, sizeof own, "/proc/%ld/fd/", (long)getpid());
    const char *const folders[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", own};
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(folders[i]);
        if (strncmp(path, folders[i], n) || path[n] < '0' || path[n] > '9')
            continue;
        char *end;
        errno = 0;
        long fd = strtol(path + n, &end, 10);
        if (!*end && !errno && fd <= INT_MAX)
            return (int)fd;
    }
    return -1;
}

/* The file the symbolic links at `path` end at, or path itself (malloc'd).
 * A link to nothing ends at the name it gives, which is then created, as the
 * shell's `>` creates it. NULL: errno (ELOOP, ENOMEM, EACCES: a link another
 * user planted in a shared folder, not followed, named in *refused). */
static char *follow_links(const char *path, char **refused)
{
    char *cur = strdup(path);
    *refused = NULL;
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (descriptor_named(cur) >= 0 || lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* a missing folder or the like: said when it is created */
        if (hops == MAX_LINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        if (planted(cur, &st)) {
            *refused = cur;
            errno = EACCES;
            return NULL;
        }
        char *next = link_destination(cur);
        free(cur);
        cur = next;
    }
    return NULL;
}

/* Says that `path` (through `link`, a link at or after it) is one planted(). */
static int refuse_planted(const char *path, const char *link, const char *what,
                          const char *done, char *err, size_t errlen)
{
    if (!strcmp(path, link))
        return sl_fail(err, errlen, "%s: %s another user owns in a shared folder (sticky, "
                       "world-writable): not %s, as the kernel would not", path, what, done);
    return sl_fail(err, errlen, "%s: %s, where it leads, is %s another user owns in a shared "
                   "folder (sticky, world-writable): not %s, as the kernel would not", path, link,
                   what, done);
}

/* sl_output_folder_check, `depth` links deep (a link's own path checked so). */
static int folder_check(const char *path, int depth, char *err, size_t errlen)
{
    /* each folder of the path in turn, as the kernel walks it: a planted link
     * anywhere in it (/tmp/NAME/sub, /tmp/NAME/., /tmp/NAME/) leads there */
    char *p = strdup(path);
    if (!p)
        return sl_fail(err, errlen, "%s: out of memory", path);
    const size_t len = strlen(p);
    int rc = 0;
    for (size_t k = 1; k <= len && rc == 0; k++) {
        if ((k < len && p[k] != '/') || p[k - 1] == '/')
            continue;
        const char kept = p[k];
        p[k] = '\0';
        char *refused = NULL, *end = follow_links(p, &refused);
        if (!end && refused)
            rc = refuse_planted(p, refused, "a link", "followed", err, errlen);
        /* a link of this user's own (~/out): the folders of where it leads too
         * (/tmp/NAME/sub, NAME planted) */
        else if (end && strcmp(end, p) && depth < MAX_LINKS)
            rc = folder_check(end, depth + 1, err, errlen);
        free(end);
        free(refused);
        p[k] = kept;
    }
    free(p);
    return rc;
}

int sl_output_folder_check(const char *path, char *err, size_t errlen)
{
    return folder_check(path, 0, err, errlen);
}

/* The pattern of the temporary name, TARGET.tmp.<pid>.XXXXXX, whose X's
 * mkostemp makes random: the name cannot be foreseen (another user cannot put
 * a file or link there first, and a file left there cannot stop a run), while
 * its `.tmp.<pid>.` tells what it is and whose. Where it would pass the
 * file-name limit, TARGET's name is shortened (at a character's start) to make
 * room for the suffix, which then holds a hash of the whole name too: the
 * patterns of two outputs whose names differ only past the cut (x....txt and
 * x....wav) differ. */
#define TMP_RANDOM "XXXXXX"
static char *tmp_name(const char *target, pid_t pid)
{
    char suffix[48];
    int ns = snprintf(suffix, sizeof suffix, ".tmp.%ld." TMP_RANDOM, (long)pid);
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0, base = strlen(target + dir);
    if (base + (size_t)ns > NAME_MAX) {
        uint32_t h = 2166136261u; /* FNV-1a */
        for (const char *c = target + dir; *c; c++)
            h = (h ^ (unsigned char)*c) * 16777619u;
        ns = snprintf(suffix, sizeof suffix, ".tmp.%ld.%08x." TMP_RANDOM, (long)pid,
                      (unsigned)h);
        base = NAME_MAX - (size_t)ns;
        while (base > 0 && (target[dir + base] & 0xC0) == 0x80) /* a UTF-8 continuation */
            base--;
    }
    char *tmp = malloc(dir + base + (size_t)ns + 1);
    if (tmp)
        sprintf(tmp, "%.*s%s", (int)(dir + base), target, suffix);
    return tmp;
}

/* The temporary files this process is writing (their names, owned by their
 * sl_output, or by a caller of sl_output_watch), for
 * sl_output_remove_temporaries to remove when a signal ends it: the library's
 * saves and feature cache entries too, whose names the program cannot know.
 * Lock-free slots, taken and freed by compare-and-swap: any thread, and read
 * by a signal handler. An output past the last slot is written all the same,
 * unwatched. */
#define LIVE_MAX (SL_MAX_THREADS + 32) /* a cache entry per thread, and the outputs */
static _Atomic(char *) live[LIVE_MAX];

void sl_output_watch(char *tmp)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        char *none = NULL;
        if (atomic_compare_exchange_strong(&live[i], &none, tmp))
            return;
    }
}

void sl_output_unwatch(char *tmp)
{
    for (int i = 0; tmp && i < LIVE_MAX; i++) {
        char *was = tmp;
        atomic_compare_exchange_strong(&live[i], &was, NULL);
    }
}

void sl_output_remove_temporaries(void)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        char *tmp = atomic_load(&live[i]);
        if (tmp)
            unlink(tmp); /* async-signal-safe */
    }
    for (int i = 0; i < LIVE_MAX; i++) { /* a folder, once the files in it are gone */
        char *tmp = atomic_load(&live[i]);
        if (tmp)
            rmdir(tmp);
    }
}

/* The mode a new file gets here: 0666 less the umask, read without setting it
 * (umask() sets it, for every thread, while it asks). */
static mode_t new_file_mode(void)
{
    unsigned mask = 0;
    int found = 0;
    FILE *f = fopen("/proc/self/status", "re"); /* Linux 4.7 on */
    char line[256];
    while (f && !found && fgets(line, sizeof line, f))
        found = sscanf(line, "Umask: %o", &mask) == 1;
    if (f)
        fclose(f);
    if (!found) {
        mode_t m = umask(022);
        umask(m);
        mask = m;
    }
    return 0666 & ~(mode_t)mask;
}

int sl_output_plan(sl_output *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->name = path;
    o->fd = -1;
    o->through = -1;
    o->tmp_dir = -1;
    if (!path[0])
        return sl_fail(err, errlen, "an output with an empty name");
    /* refused now, not at the rename after the work (its temporary name is
     * made to fit) */
    const char *slash = strrchr(path, '/');
    const size_t name_len = strlen(slash ? slash + 1 : path);
    if (name_len > NAME_MAX)
        return sl_fail(err, errlen, "%s: a name of %zu bytes, more than a file's may have (%d)",
                       path, name_len, NAME_MAX);
    /* its folder by the same rule (/tmp/NAME/out.txt, NAME another user's link) */
    char *folder = slash ? sl_path_folder(path) : NULL;
    int planted_folder = folder && sl_output_folder_check(folder, err, errlen) != 0;
    free(folder);
    if (planted_folder)
        return -1;
    struct stat st;
    int there = stat(path, &st) == 0; /* through any links */
    if (there && S_ISDIR(st.st_mode))
        return sl_fail(err, errlen, "%s: cannot write: it is a directory", path);
    char *refused;
    if (!(o->target = follow_links(path, &refused))) {
        int rc = refused ? refuse_planted(path, refused, "a link", "followed", err, errlen)
                         : sl_fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        free(refused);
        return rc;
    }
    if ((o->through = descriptor_named(o->target)) >= 0)
        return 0;
    struct stat end; /* the file the links end at, itself */
    const int end_there = lstat(o->target, &end) == 0;
    if (there && !S_ISREG(st.st_mode)) { /* a device, FIFO, socket */
        /* the kernel opens it, following the links again (/dev/stdout's lead
         * where no path does); a FIFO another user put in a shared folder is
         * refused as the kernel's protected_fifos refuses it to `>` */
        if (S_ISFIFO(st.st_mode) && end_there && end.st_dev == st.st_dev &&
            end.st_ino == st.st_ino && planted(o->target, &end)) {
            int rc = refuse_planted(path, o->target, "a FIFO", "written", err, errlen);
            sl_output_free(o);
            return rc;
        }
        free(o->target);
        if (!(o->target = strdup(path)))
            return sl_fail(err, errlen, "%s: out of memory", path);
        return 0;
    }
    if (end_there && S_ISREG(end.st_mode) && planted(o->target, &end)) {
        int rc = refuse_planted(path, o->target, "a file", "replaced", err, errlen);
        sl_output_free(o);
        return rc;
    }
    if (stat(o->target, &st) == 0) {
        /* access(), not the mode bits: it answers as open() would for this
         * user (root writes a 0444 file, as `>` does; nobody writes on a
         * read-only mount) */
        if (access(o->target, W_OK) != 0) {
            int e = errno;
            sl_output_free(o);
            return sl_fail(err, errlen, "%s: cannot write: %s (not replacing it)", path,
                           strerror(e));
        }
        /* a sticky folder lets only the file's owner or its own replace the
         * file (rename(2): EPERM), though this user may write it: refused
         * now, not after the work (a folder the user may not write at all
         * is said as such when the temporary file is made) */
        char *dir = sl_path_folder(o->target);
        struct stat ds;
        const int fixed = dir && stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) &&
                          geteuid() != 0 && geteuid() != st.st_uid && geteuid() != ds.st_uid &&
                          access(dir, W_OK) == 0;
        free(dir);
        if (fixed) {
            sl_output_free(o);
            return sl_fail(err, errlen, "%s: cannot replace it: another user's file in a folder "
                           "with the sticky bit (as /tmp), which lets only the file's owner or "
                           "the folder's replace it; write to another name", path);
        }
        o->keep_mode = 1;
        o->mode = st.st_mode & 0777;
        o->uid = st.st_uid;
        o->gid = st.st_gid;
    }
    if (!(o->tmp = tmp_name(o->target, getpid()))) {
        sl_output_free(o);
        return sl_fail(err, errlen, "%s: out of memory", path);
    }
    return 0;
}

/* The temporary file, created by this call alone (O_EXCL: never one another
 * user put there, nor a link, nor one this process is writing for another
 * output of the same file) under a name made random here, with mode 0600: no
 * other user can open it before it has its final mode (sl_output_create).
 * Watched first: a signal between its creation and the watch would leave it
 * (mkostemp writes the name it tries into tmp; one not created is no file). */
static int create_tmp(char *tmp)
{
    sl_output_watch(tmp);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        sl_output_unwatch(tmp);
        memcpy(tmp + strlen(tmp) - strlen(TMP_RANDOM), TMP_RANDOM, strlen(TMP_RANDOM));
        errno = e;
    }
    return fd;
}

/* A duplicate of o->through, or -1 with a message. */
static int dup_through(const sl_output *o, char *err, size_t errlen)
{
    int flags = fcntl(o->through, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
        int e = flags < 0 ? errno : EBADF;
        sl_fail(err, errlen, "%s: cannot write: descriptor %d is not open for writing", o->name,
                o->through);
        errno = e;
        return -1;
    }
    int fd = fcntl(o->through, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        sl_fail(err, errlen, "%s: cannot write: %s", o->name, strerror(errno));
    return fd;
}

/* The temporary file's folder, opened before the file is made in it (-1 where
 * it cannot be: the file's making then fails and says why, or the file is
 * renamed and removed by its path). */
static int open_tmp_dir(const char *tmp)
{
    char *dir = sl_path_folder(tmp);
    int fd = dir ? open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    free(dir);
    return fd;
}

/* The temporary file's name for the descriptor it is reached through: its
 * name within its folder where the folder is open, else its path. */
static const char *tmp_at(const sl_output *o, int *dir)
{
    const char *slash = strrchr(o->tmp, '/');
    *dir = o->tmp_dir >= 0 ? o->tmp_dir : AT_FDCWD;
    return o->tmp_dir >= 0 && slash ? slash + 1 : o->tmp;
}

/* Removes the temporary file, through its folder's descriptor where there is one. */
static void remove_tmp(sl_output *o)
{
    int dir;
    const char *name = tmp_at(o, &dir);
    unlinkat(dir, name, 0);
}

/* Closes the temporary file's folder. */
static void close_tmp_dir(sl_output *o)
{
    if (o->tmp_dir >= 0)
        close(o->tmp_dir);
    o->tmp_dir = -1;
}

int sl_output_create(sl_output *o, char *err, size_t errlen)
{
    if (o->through >= 0)
        return (o->fd = dup_through(o, err, errlen)) < 0 ? -1 : 0;
    if (o->tmp) {
        close_tmp_dir(o);
        o->tmp_dir = open_tmp_dir(o->tmp);
    }
    o->fd = o->tmp ? create_tmp(o->tmp) : open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    /* the replaced file's owner and group where this user may give them (root
     * may; another user keeps the group when a member of it), as `>` keeps them */
    if (o->fd >= 0 && o->keep_mode && fchown(o->fd, o->uid, o->gid) != 0)
        (void)!fchown(o->fd, (uid_t)-1, o->gid); /* failing: this user's group */
    o->mode_failed = 0;
    /* then the mode, from 0600: the replaced file's, or a new file's (the
     * umask's; where the file system has no modes to give, vfat, whatever it
     * shows) */
    if (o->fd >= 0 && o->tmp && !o->keep_mode)
        (void)!fchmod(o->fd, new_file_mode());
    if (o->fd >= 0 && o->keep_mode && fchmod(o->fd, o->mode) != 0) {
        int e = errno;
        sl_output_discard(o);
        o->mode_failed = 1;
        errno = e;
    }
    if (o->fd < 0) {
        int e = errno;
        close_tmp_dir(o);
        if (o->mode_failed) /* a file system without modes (vfat) refuses it */
            sl_fail(err, errlen, "%s: cannot write: cannot give its temporary file %s the mode "
                    "of the file it replaces (%03o): %s", o->name, o->tmp, (unsigned)o->mode,
                    strerror(e));
        else if (o->tmp) /* the file itself may exist, writable: the temporary failed */
            sl_fail(err, errlen, "%s: cannot write: cannot create its temporary file %s (an "
                    "output is written under it, then renamed over the file): %s", o->name,
                    o->tmp, strerror(e));
        else
            sl_fail(err, errlen, "%s: cannot write: %s", o->name, strerror(e));
        errno = e;
        return -1;
    }
    return 0;
}

int sl_output_open(sl_output *o, const char *path, char *err, size_t errlen)
{
    if (sl_output_plan(o, path, err, errlen))
        return -1;
    if (sl_output_create(o, err, errlen)) {
        sl_output_free(o);
        return -1;
    }
    return 0;
}

int sl_output_commit(sl_output *o, char *err, size_t errlen)
{
    int rc = 0;
    if (o->fd >= 0 && close(o->fd) != 0)
        rc = sl_fail(err, errlen, "%s: write failed: %s", o->name, strerror(errno));
    o->fd = -1;
    int dir = AT_FDCWD;
    const char *name = o->tmp ? tmp_at(o, &dir) : NULL;
    if (rc == 0 && name && renameat(dir, name, AT_FDCWD, o->target) != 0)
        rc = sl_fail(err, errlen, "%s: cannot rename the temporary file into place: %s", o->name,
                     strerror(errno));
    if (rc && o->tmp)
        remove_tmp(o);
    sl_output_unwatch(o->tmp);
    close_tmp_dir(o);
    return rc;
}

void sl_output_discard(sl_output *o)
{
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
    if (o->tmp)
        remove_tmp(o);
    sl_output_unwatch(o->tmp);
    close_tmp_dir(o);
}

void sl_output_free(sl_output *o)
{
    sl_output_unwatch(o->tmp); /* gone by now: committed or discarded */
    free(o->target);
    free(o->tmp);
    o->target = o->tmp = NULL;
}

char *sl_path_folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    return !slash ? strdup(".") : strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

int sl_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return !strcmp(a, b) || (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
                             sa.st_ino == sb.st_ino);
}

char *sl_output_tmp_pattern_of(const char *path, pid_t pid)
{
    sl_output o;
    if (sl_output_plan(&o, path, NULL, 0))
        return NULL;
    char *tmp = o.tmp ? tmp_name(o.target, pid) : NULL;
    sl_output_free(&o);
    return tmp;
}

int sl_output_remove_temporaries_of(const char *path, pid_t pid)
{
    char *pattern = sl_output_tmp_pattern_of(path, pid);
    if (!pattern)
        return 0;
    const char *slash = strrchr(pattern, '/'), *base = slash ? slash + 1 : pattern;
    const size_t len = strlen(base), stem = len - strlen(TMP_RANDOM);
    char *dir = sl_path_folder(pattern);
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1, removed = 0;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    struct stat st;
    /* only names of the pattern: what any other name holds is not ours */
    while (d && (e = readdir(d)))
        if (strlen(e->d_name) == len && !strncmp(e->d_name, base, stem) &&
            fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            unlinkat(fd, e->d_name, 0) == 0)
            removed++;
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
    free(dir);
    free(pattern);
    return removed;
}
