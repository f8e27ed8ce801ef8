/* Training checkpoints: one file holding the model file (weights, config,
 * normalisation, classes), the AdamW moments, the generator state and the
 * step, closed by a CRC32. Written to a temporary file, flushed to disk, then
 * renamed over the old one, so an interrupted write (Ctrl-C, crash, full
 * disk) leaves the previous checkpoint intact; a damaged file is refused. A
 * device or FIFO is written as it is, a link's file replaced and its mode kept
 * (common/output_file.h).
 *
 * Layout (little-endian, as the hosts we build for):
 *   "SLCKPT01" | u32 version 1 | u32 0 | u64 model_bytes | model file
 *   | u64 n_params | i64 step | u64 rng[4] | f64 best_score | i64 best_step
 *   | f64 epoch_loss_sum | i64 epoch_loss_steps | u64 settings_hash
 *   | f32 adam_m[n_params] | f32 adam_v[n_params] | u32 crc32(all before) */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "model/trainer_internal.h"
#include "common/errors.h"
#include "common/memory.h"
#include "common/output_file.h"
#include "model/model_internal.h"

#define CKPT_VERSION 1u

static unsigned char *read_all(const char *path, size_t *len, char *err, size_t errlen)
{
    /* A regular file alone, asked of what was opened: a FIFO's blocking open
     * would wait for a writer for ever, a device's read never end. O_NONBLOCK
     * opens either at once (and changes nothing for a regular file). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        sl_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat fst;
    const int stated = fstat(fd, &fst) == 0;
    if (!stated || !S_ISREG(fst.st_mode)) {
        sl_fail(err, errlen, "%s: cannot resume: %s", path,
                !stated ? strerror(errno)
                : S_ISDIR(fst.st_mode) ? "a folder, not a checkpoint file"
                : S_ISCHR(fst.st_mode) || S_ISBLK(fst.st_mode)
                    ? "a device, not a checkpoint file (one is written to a device as it is, "
                      "but read back from a file alone)"
                    : "a FIFO, pipe or socket, not a checkpoint file (one is written to a FIFO "
                      "as it is, but read back from a file alone)");
        close(fd);
        return NULL;
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        sl_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    /* What the file is, asked of its first bytes and its size before it is
     * read whole: a dataset or an archive named by mistake is refused at
     * once, not read into memory first (4 GB of it took 18 s and 4 GB), and a
     * checkpoint is read only into the memory it may take. */
    char magic[8];
    if (fread(magic, 1, 8, fp) != 8 || memcmp(magic, SL_CHECKPOINT_MAGIC, 8)) {
        fclose(fp);
        sl_fail(err, errlen, "%s: not a seqlabel checkpoint", path);
        return NULL;
    }
    const double have = sl_memory_available();
    if (have >= 0 && (double)fst.st_size > have) {
        char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
        fclose(fp);
        sl_fail(err, errlen, "%s: reading this checkpoint takes %s, more than the %s of memory "
                "it may take (the memory available, or SEQLABEL_MEMORY_LIMIT where that is less)",
                path, sl_memory_shown_against(a, (double)fst.st_size, have),
                sl_memory_shown_against(b, have, (double)fst.st_size));
        return NULL;
    }
    unsigned char *buf = NULL;
    long size = -1;
    if (fseek(fp, 0, SEEK_END) == 0)
        size = ftell(fp);
    if (size >= 0 && fseek(fp, 0, SEEK_SET) == 0)
        buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, fp) != (size_t)size) {
        fclose(fp);
        free(buf);
        sl_fail(err, errlen, "%s: cannot read", path);
        return NULL;
    }
    fclose(fp);
    *len = (size_t)size;
    return buf;
}

typedef struct {
    FILE *fp;
    uLong crc;
    int ok;
} crc_writer;

static void put(crc_writer *w, const void *p, size_t n)
{
    if (!w->ok || n == 0)
        return;
    w->crc = crc32(w->crc, p, (uInt)n);
    w->ok = fwrite(p, 1, n, w->fp) == n;
}

/* crc32 takes uInt lengths: feed big blocks in pieces. */
static void put_big(crc_writer *w, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n) {
        size_t k = n > (1u << 30) ? (1u << 30) : n;
        put(w, b, k);
        b += k;
        n -= k;
    }
}

/* The checkpoint's fields after the model, into fp. 1 when all were written. */
static int put_state(FILE *fp, const unsigned char *mbytes, size_t mlen, const sl_model *m,
                     const float *adam_m, const float *adam_v, const sl_train_state *st)
{
    crc_writer w = {fp, crc32(0L, Z_NULL, 0), 1};
    uint32_t ver[2] = {CKPT_VERSION, 0};
    uint64_t ml = mlen, np = sl_model_num_params(m);
    put(&w, SL_CHECKPOINT_MAGIC, 8);
    put(&w, ver, sizeof ver);
    put(&w, &ml, 8);
    put_big(&w, mbytes, mlen);
    put(&w, &np, 8);
    put(&w, &st->step, 8);
    put(&w, st->rng.s, sizeof st->rng.s);
    put(&w, &st->best_score, 8);
    put(&w, &st->best_step, 8);
    put(&w, &st->epoch_loss_sum, 8);
    put(&w, &st->epoch_loss_steps, 8);
    put(&w, &st->settings_hash, 8);
    put_big(&w, adam_m, np * sizeof(float));
    put_big(&w, adam_v, np * sizeof(float));
    uint32_t crc = (uint32_t)w.crc;
    return w.ok && fwrite(&crc, 4, 1, fp) == 1;
}

int sl_checkpoint_save(const char *path, const sl_model *m, const float *adam_m,
                       const float *adam_v, const sl_train_state *st, char *err, size_t errlen)
{
    /* the model file's bytes from memory: no second temporary file to leave */
    unsigned char *mbytes;
    size_t mlen;
    if (sl_model_serialize(m, &mbytes, &mlen, path, err, errlen))
        return -1;
    /* PATH.tmp.<pid>.XXXXXX renamed over PATH (the file its links lead to), a device
     * or FIFO written as it is: common/output_file.h */
    sl_output out;
    int rc = sl_output_open(&out, path, err, errlen);
    FILE *fp = rc == 0 ? fdopen(out.fd, "wb") : NULL;
    if (rc == 0 && !fp) {
        rc = sl_fail(err, errlen, "%s: cannot write the checkpoint: %s", path, strerror(errno));
        sl_output_discard(&out);
    }
    if (fp) {
        out.fd = -1; /* fclose closes it */
        int ok = put_state(fp, mbytes, mlen, m, adam_m, adam_v, st);
        ok = fflush(fp) == 0 && ok;
        /* the rename must not outrun the data (a device or FIFO has no disk) */
        ok = (!out.tmp || fsync(fileno(fp)) == 0) && ok;
        ok = fclose(fp) == 0 && ok;
        if (!ok) {
            rc = sl_fail(err, errlen, "%s: cannot write the checkpoint: %s", path, strerror(errno));
            sl_output_discard(&out);
        } else {
            rc = sl_output_commit(&out, err, errlen);
        }
    }
    sl_output_free(&out);
    free(mbytes);
    return rc;
}

typedef struct {
    const unsigned char *p;
    size_t left;
} cursor;

static int take(cursor *c, void *out, size_t n)
{
    if (c->left < n)
        return -1;
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
    return 0;
}

int sl_checkpoint_load(const char *path, sl_model **mp, float **am, float **av,
                       sl_train_state *st, char *err, size_t errlen)
{
    *mp = NULL;
    *am = *av = NULL;
    size_t len;
    unsigned char *buf = read_all(path, &len, err, errlen);
    if (!buf)
        return -1;
    int rc = 0;
    uint32_t ver[2];
    uint64_t mlen = 0, np = 0;
    cursor c = {buf, len};
    if (len < 8 + 8 + 8 + 4 || memcmp(buf, SL_CHECKPOINT_MAGIC, 8)) {
        rc = sl_fail(err, errlen, "%s: not a seqlabel checkpoint", path);
        goto out;
    }
    uint32_t stored;
    memcpy(&stored, buf + len - 4, 4);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < len - 4;) {
        size_t k = len - 4 - off > (1u << 30) ? (1u << 30) : len - 4 - off;
        crc = crc32(crc, buf + off, (uInt)k);
        off += k;
    }
    if ((uint32_t)crc != stored) {
        rc = sl_fail(err, errlen, "%s: checkpoint is damaged (checksum mismatch)", path);
        goto out;
    }
    c.left -= 4;
    c.p += 8;
    c.left -= 8;
    if (take(&c, ver, sizeof ver) || ver[0] != CKPT_VERSION) {
        rc = sl_fail(err, errlen, "%s: unsupported checkpoint version", path);
        goto out;
    }
    if (take(&c, &mlen, 8) || mlen > c.left) {
        rc = sl_fail(err, errlen, "%s: checkpoint is truncated", path);
        goto out;
    }
    *mp = sl_model_load_memory(c.p, (size_t)mlen, path, err, errlen);
    if (!*mp) {
        rc = -1;
        goto out;
    }
    c.p += mlen;
    c.left -= mlen;
    if (take(&c, &np, 8) || np != sl_model_num_params(*mp) || take(&c, &st->step, 8) ||
        take(&c, st->rng.s, sizeof st->rng.s) || take(&c, &st->best_score, 8) ||
        take(&c, &st->best_step, 8) || take(&c, &st->epoch_loss_sum, 8) ||
        take(&c, &st->epoch_loss_steps, 8) || take(&c, &st->settings_hash, 8) ||
        c.left != 2 * np * sizeof(float)) {
        rc = sl_fail(err, errlen, "%s: checkpoint state does not match its model", path);
        goto out;
    }
    /* The counts are steps taken: never negative, the best and the epoch's
     * within them (the run's own total is the trainer's to hold it to, once
     * the data give it). A step past them (INT64_MAX: step + 1 overflows) is a
     * file made by hand, or damaged with its checksum written anew. */
    if (st->step < 0 || st->best_step < 0 || st->best_step > st->step ||
        st->epoch_loss_steps < 0 || st->epoch_loss_steps > st->step) {
        rc = sl_fail(err, errlen, "%s: damaged checkpoint: step %lld, best at step %lld, %lld "
                     "steps in its epoch (steps taken: none negative, nor past the step)", path,
                     (long long)st->step, (long long)st->best_step,
                     (long long)st->epoch_loss_steps);
        goto out;
    }
    *am = malloc(np * sizeof(float));
    *av = malloc(np * sizeof(float));
    if (!*am || !*av) {
        rc = sl_fail(err, errlen, "%s: out of memory", path);
        goto out;
    }
    take(&c, *am, np * sizeof(float));
    take(&c, *av, np * sizeof(float));
out:
    free(buf);
    if (rc) {
        sl_model_free(*mp);
        free(*am);
        free(*av);
        *mp = NULL;
        *am = *av = NULL;
    }
    return rc;
}

/* The file a checkpoint's name leads to, also through a link to a file not
 * made yet (the first save makes it): its links followed (40 at most), the
 * folder made real. malloc'ed; NULL: out of memory. */
static char *lead_to(const char *path)
{
    char *at = strdup(path);
    for (int hops = 0; at && hops < 40; hops++) {
        char target[4096];
        ssize_t n = readlink(at, target, sizeof target - 1);
        if (n <= 0)
            break;
        target[n] = '\0';
        char *copy = strdup(at), *next = NULL;
        if (copy && target[0] != '/') { /* relative to the link's folder */
            const char *dir = dirname(copy);
            size_t len = strlen(dir) + strlen(target) + 2;
            if ((next = malloc(len)))
                snprintf(next, len, "%s/%s", dir, target);
        } else if (copy) {
            next = strdup(target);
        }
        free(copy);
        free(at);
        at = next;
    }
    if (!at)
        return NULL;
    char *copy = strdup(at), *copy2 = strdup(at), *real = NULL;
    if (copy && copy2) {
        const char *dir = dirname(copy), *base = basename(copy2);
        char *real_dir = realpath(dir, NULL);
        size_t n = strlen(real_dir ? real_dir : dir) + strlen(base) + 2;
        if ((real = malloc(n)))
            snprintf(real, n, "%s/%s", real_dir ? real_dir : dir, base);
        free(real_dir);
    }
    free(copy);
    free(copy2);
    free(at);
    return real;
}

/* The lock's name: .NAME.lock beside the file the checkpoint's name leads to
 * (a link, ./ck and ck: one lock), hidden so that no file of the user's is
 * taken for it (a model named ck.lock). malloc'ed; NULL: out of memory. */
static char *lock_path(const char *path)
{
    char *real = lead_to(path), *lock = NULL; /* FOLDER/NAME, its folder real */
    const char *slash = real ? strrchr(real, '/') : NULL;
    if (slash) {
        const int dir = (int)(slash - real);
        size_t n = strlen(real) + sizeof "/..lock";
        if ((lock = malloc(n)))
            snprintf(lock, n, "%.*s/.%s.lock", dir, real, slash + 1);
    }
    free(real);
    return lock;
}

int sl_checkpoint_lock(const char *path, char **held_lock, char *err, size_t errlen)
{
    char *lock = lock_path(path);
    *held_lock = NULL;
    if (!lock)
        return sl_fail(err, errlen, "out of memory");
    /* the file locked must still be the one of that name: a run ending
     * removes it, and a third run would lock a new one beside the one it had */
    for (int tries = 0; tries < 100; tries++) {
        struct stat was;
        if (lstat(lock, &was) == 0 && (!S_ISREG(was.st_mode) || was.st_size != 0)) {
            sl_fail(err, errlen, "%s: the checkpoint's lock would be %s, which is there and no "
                    "lock (an empty file): move it away", path, lock);
            free(lock);
            return -1;
        }
        int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            sl_fail(err, errlen, "%s: cannot make the checkpoint's lock: %s", lock, strerror(errno));
            free(lock);
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int e = errno;
            close(fd);
            if (e == EWOULDBLOCK)
                sl_fail(err, errlen, "%s: another training run is writing this checkpoint (it "
                        "holds %s): wait for it to end, or name another checkpoint", path, lock);
            else
                sl_fail(err, errlen, "%s: cannot lock: %s", lock, strerror(e));
            free(lock);
            return -1;
        }
        struct stat held, named;
        if (fstat(fd, &held) == 0 && lstat(lock, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            *held_lock = lock; /* the name unlock removes: a link made meanwhile changes none */
            return fd;
        }
        close(fd); /* removed under it: again, with the file of that name now */
    }
    sl_fail(err, errlen, "%s: cannot lock: it is made and removed over and over", lock);
    free(lock);
    return -1;
}

void sl_checkpoint_unlock(int fd, char *lock)
{
    /* removed while held (no run locks the file that goes), and only if it is
     * still the file locked */
    struct stat held, named;
    if (fd >= 0 && lock && fstat(fd, &held) == 0 && lstat(lock, &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino)
        unlink(lock);
    free(lock);
    if (fd >= 0)
        close(fd);
}
