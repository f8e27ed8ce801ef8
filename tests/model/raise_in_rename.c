/* Preloaded (LD_PRELOAD) into a command by the tests: the signal numbered by
 * $SL_RAISE_IN_RENAME (repeated $SL_RAISE_TIMES times, 1 if unset) arrives as
 * a temporary file ("*.tmp.*") is about to be renamed into place, that is, in
 * the middle of a save, when the temporary file is complete and the output not
 * yet replaced: where a signal ending the command at once leaves it behind
 * unless the command removes it. With $SL_FAIL_FCHMOD set, fchmod fails with
 * EPERM, as on a file system without modes (vfat); with $SL_FULL_DISK set,
 * statvfs says no block is free, as on a full one (a folder is still made
 * there: tmpfs's take no block), or with it "unlimited" no block or inode at
 * all, as ramfs and an unlimited tmpfs say. */
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The signal, where `from` is a temporary file. */
static void raise_before(const char *from)
{
    const char *sig = getenv("SL_RAISE_IN_RENAME"), *times = getenv("SL_RAISE_TIMES");
    if (sig && strstr(from, ".tmp."))
        for (int i = times ? atoi(times) : 1; i > 0; i--)
            raise(atoi(sig));
}

int rename(const char *from, const char *to)
{
    raise_before(from);
    int (*real)(const char *, const char *);
    *(void **)&real = dlsym(RTLD_NEXT, "rename");
    return real ? real(from, to) : -1;
}

/* The writer renames through its temporary file's folder (common/output_file.c) */
int renameat(int from_dir, const char *from, int to_dir, const char *to)
{
    raise_before(from);
    int (*real)(int, const char *, int, const char *);
    *(void **)&real = dlsym(RTLD_NEXT, "renameat");
    return real ? real(from_dir, from, to_dir, to) : -1;
}

int fchmod(int fd, mode_t mode)
{
    if (getenv("SL_FAIL_FCHMOD")) {
        errno = EPERM;
        return -1;
    }
    int (*real)(int, mode_t);
    *(void **)&real = dlsym(RTLD_NEXT, "fchmod");
    return real ? real(fd, mode) : -1;
}

int statvfs(const char *path, struct statvfs *buf)
{
    int (*real)(const char *, struct statvfs *);
    *(void **)&real = dlsym(RTLD_NEXT, "statvfs");
    int rc = real ? real(path, buf) : -1;
    const char *full = getenv("SL_FULL_DISK");
    if (rc == 0 && full)
        buf->f_bfree = buf->f_bavail = 0;
    if (rc == 0 && full && !strcmp(full, "unlimited"))
        buf->f_blocks = buf->f_files = buf->f_ffree = buf->f_favail = 0;
    return rc;
}
