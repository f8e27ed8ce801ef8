/* Features of whole audio files for the trainer, computed with the same
 * streaming extractor as inference (sl_features) and kept in an on-disk cache
 * so that epochs and runs after the first do not decode and resample again.
 * See trainer_internal.h for the keying and safety rules. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "model/model_internal.h"
#include "model/trainer_internal.h"
#include "common/errors.h"
#include "common/memory.h"
#include "common/output_file.h"

/* features (02: of samples on the 16-bit grid; 03: resampled by libsoxr; 04:
 * MP3s without a Xing/Info tag read whole, io/mp3_gapless.c; 05: a CRC-32;
 * 06: MP3s joined by `cat` read whole) */
#define CACHE_MAGIC "SLFEAT07"
#define PCM_MAGIC "SLPCM006"   /* samples at one rate (noise augmentation; 002: libsoxr; 006: as 07) */
/* magic 8, key 8, n_samples 8, n_frames 8, dim 4, path_len 4, CRC-32 4 (zlib's,
 * of the 40 bytes before it and the data: a damaged entry, a flipped bit
 * included, is computed again), reserved 4 */
#define CACHE_HEADER 48

/* FNV-1a, 64 bits: a cache key, not a security boundary (entries are also
 * checked against the stored path). */
static void fnv(uint64_t *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        *h ^= p[i];
        *h *= 1099511628211ull;
    }
}
static void fnv_i64(uint64_t *h, int64_t v) { fnv(h, &v, sizeof v); }
static void fnv_f(uint64_t *h, float v) { fnv(h, &v, sizeof v); }

static uint64_t cache_key(const char *real, const struct stat *st, const sl_feature_config *c)
{
    uint64_t h = 1469598103934665603ull;
    fnv(&h, CACHE_MAGIC, 8);
    fnv(&h, real, strlen(real) + 1);
    fnv_i64(&h, (int64_t)st->st_size);
    fnv_i64(&h, (int64_t)st->st_mtim.tv_sec);
    fnv_i64(&h, (int64_t)st->st_mtim.tv_nsec);
    fnv_i64(&h, (int64_t)st->st_ino);
    fnv_i64(&h, (int64_t)st->st_dev);
    /* Field by field: struct padding bytes are unspecified. */
    fnv_i64(&h, c->sample_rate);
    fnv_f(&h, c->frame_length_ms);
    fnv_f(&h, c->frame_shift_ms);
    fnv_i64(&h, c->num_mel_bins);
    fnv_f(&h, c->low_freq);
    fnv_f(&h, c->high_freq);
    fnv_i64(&h, c->window);
    fnv_f(&h, c->preemph);
    fnv_i64(&h, c->remove_dc);
    fnv_f(&h, c->dither);
    fnv_i64(&h, c->dither_seed);
    fnv_i64(&h, c->use_energy);
    fnv_f(&h, c->energy_floor);
    fnv_i64(&h, c->raw_energy);
    fnv_i64(&h, c->num_ceps);
    fnv_f(&h, c->cepstral_lifter);
    fnv_f(&h, c->input_scale);
    return h;
}

/* A file's features or samples are held in memory while they are computed
 * (all of them with --no-cache, where the files before it hold theirs too):
 * refused, naming the file, before the pages that would not fit are touched,
 * as pages touched beyond the memory there is bring the OOM killer, not an
 * error. `floats` more are asked for; 0 when they fit. */
static int room_for(const char *audio, const char *what, int held, int64_t floats, char *err,
                    size_t errlen)
{
    const double need = (double)floats * sizeof(float), have = sl_memory_available();
    if (have < 0 || need <= have)
        return 0;
    char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
    return sl_fail(err, errlen, "%s: its %s need %s, more than the %s of memory it may take "
                   "(%scut this file shorter)", audio, what,
                   sl_memory_shown_against(a, need, have), sl_memory_shown_against(b, have, need),
                   held ? "a cache, without --no-cache, keeps the files before it on disk; or " : "");
}

/* The capacity a full buffer of cap values grows to, where the file's length
 * says it takes est values (-1: unknown), or -1 when that is refused (said).
 * A known length is weighed once, whole; an unknown one (or a file longer
 * than it said), a doubling at a time from `first`. */
static int64_t grow_to(const char *audio, const char *what, int held, int64_t cap, int64_t est,
                       int64_t first, char *err, size_t errlen)
{
    const int64_t want = est > cap ? est : (cap ? 2 * cap : first);
    return room_for(audio, what, held, want - cap, err, errlen) ? -1 : want;
}

enum { OUT_OF_MEMORY = 1, REFUSED = 2 }; /* collect_frame's answers (said) */
typedef struct {
    float *buf;
    int64_t n, cap, est; /* est: the frames the file's length gives, -1 when unknown */
    int dim;
    const char *audio;
    int held;            /* kept in memory for good (no cache): the files before it too */
    char *err;
    size_t errlen;
} frame_sink;

static int collect_frame(void *user, int64_t index, const float *frame, int dim)
{
    (void)index;
    frame_sink *s = user;
    if (s->n == s->cap) {
        const int64_t nc = grow_to(s->audio, "features", s->held, s->cap * dim, s->est * dim,
                                   4096 * dim, s->err, s->errlen);
        if (nc < 0)
            return REFUSED;
        float *nb = realloc(s->buf, (size_t)nc * sizeof *nb);
        if (!nb)
            return OUT_OF_MEMORY;
        s->buf = nb;
        s->cap = nc / dim;
    }
    memcpy(s->buf + (size_t)s->n * (size_t)dim, frame, (size_t)dim * sizeof *frame);
    s->n++;
    return 0;
}

static int compute_features(const char *audio, const void *fc_arg, int held,
                            sl_feature_file *out, char *err, size_t errlen)
{
    const sl_feature_config *fc = fc_arg;
    sl_audio_reader *r = sl_audio_open(audio, fc->sample_rate, err, errlen);
    if (!r)
        return -1;
    sl_features *f = sl_features_new(fc, err, errlen);
    enum { BLOCK = 16384 };
    float *pcm = malloc(BLOCK * sizeof *pcm);
    /* the frames the file's length gives, at most (-1: unknown) */
    const int64_t file_frames = sl_audio_file_frames(r);
    const int64_t est = file_frames < 0 ? -1
        : (int64_t)((double)file_frames * fc->sample_rate / sl_audio_file_rate(r) /
                    sl_feature_frame_shift(fc)) + 2;
    frame_sink sink = {NULL, 0, 0, est, sl_feature_dim(fc), audio, held, err, errlen};
    int rc = (!f || !pcm) ? -1 : 0;
    if (f && !pcm)
        sl_fail(err, errlen, "%s: out of memory", audio);
    int64_t samples = 0;
    while (rc == 0) {
        long got = sl_audio_read(r, pcm, BLOCK, err, errlen);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got == 0)
            break;
        samples += got;
        sl_quantize_s16(pcm, pcm, (size_t)got); /* as the labeler does (model_internal.h) */
        int prc = sl_features_push(f, pcm, (size_t)got, collect_frame, &sink, err, errlen);
        if (prc == REFUSED)
            rc = -1;
        else if (prc > 0)
            rc = sl_fail(err, errlen, "%s: out of memory", audio);
        else if (prc < 0) {
            /* The extractor names no file: add it. */
            char msg[SL_ERR_LEN];
            snprintf(msg, sizeof msg, "%s", err ? err : "");
            rc = sl_fail(err, errlen, "%s: %s", audio, msg);
        }
    }
    free(pcm);
    sl_features_free(f);
    sl_audio_close(r);
    if (rc) {
        free(sink.buf);
        return -1;
    }
    out->owned = sink.buf;
    out->feats = sink.buf;
    out->n_frames = sink.n;
    out->dim = sink.dim;
    out->n_samples = samples;
    return 0;
}

static int mkdir_p(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(buf, 0777) && errno != EEXIST)
        return -1;
    return 0;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* zlib's CRC-32 of an entry's first 40 header bytes and its n bytes of data
 * (in pieces: zlib's length argument is 32-bit). */
static uint32_t entry_crc(const unsigned char *head, const void *data, size_t n)
{
    const unsigned char *p = data;
    uLong crc = crc32(crc32(0L, Z_NULL, 0), head, 40);
    for (size_t done = 0; done < n;) {
        uInt piece = n - done > (1u << 30) ? 1u << 30 : (uInt)(n - done);
        crc = crc32(crc, p + done, piece);
        done += piece;
    }
    return (uint32_t)crc;
}

/* An entry this process may trust: a regular file of its effective user (or
 * root) that no one else may write. In a cache folder others may write
 * (--cache-dir shared, world-writable), another user could plant an entry with
 * a right key and CRC-32 (no protection against a forger) and so poison the
 * features, or cut short an entry of theirs while it is mapped (SIGBUS);
 * such an entry is taken as absent, and computed again. */
static int entry_trusted(const struct stat *st)
{
    return S_ISREG(st->st_mode) && (st->st_uid == geteuid() || st->st_uid == 0) &&
           !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Maps a cache entry if it is exactly what we want; 0 on success. */
static int try_read(const char *entry, const char *magic, uint64_t key, const char *real, int dim,
                    sl_feature_file *out)
{
    /* not through a link, nor waiting on a FIFO planted at the name: what was
     * opened is then asked whose it is */
    int fd = open(entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat st;
    size_t plen = strlen(real);
    if (fstat(fd, &st) || !entry_trusted(&st) || (size_t)st.st_size < CACHE_HEADER + plen) {
        close(fd);
        return -1;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return -1;
    const unsigned char *p = map;
    uint64_t n_frames = get64(p + 24);
    uint32_t fdim = (uint32_t)get64(p + 32) & 0xffffffffu;
    uint32_t flen = (uint32_t)(get64(p + 32) >> 32);
    size_t off = (CACHE_HEADER + plen + 3) & ~(size_t)3;
    if (memcmp(p, magic, 8) || get64(p + 8) != key || (int)fdim != dim || flen != plen ||
        memcmp(p + CACHE_HEADER, real, plen) || n_frames > (uint64_t)1 << 40 ||
        off + n_frames * (uint64_t)dim * sizeof(float) != len ||
        entry_crc(p, p + off, len - off) != (get64(p + 40) & 0xffffffffu)) {
        munmap(map, len);
        return -1;
    }
    out->map = map;
    out->map_len = len;
    out->feats = (const float *)(p + off);
    out->n_frames = (int64_t)n_frames;
    out->dim = dim;
    out->n_samples = (int64_t)get64(p + 16);
    out->from_cache = 1;
    return 0;
}

/* Best effort: a cache that cannot be written only costs time (said by the
 * caller). 0 when written, else the errno that stopped it. */
static int try_write(const char *entry, const char *magic, uint64_t key, const char *real,
                      const sl_feature_file *f)
{
    size_t plen = strlen(real);
    size_t off = (CACHE_HEADER + plen + 3) & ~(size_t)3;
    char tmp[4200];
    /* pid and a per-process count: two threads may write the same entry (a file
     * listed twice) without sharing a temporary; the last rename wins, same bytes. */
    static atomic_ulong serial;
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lu", entry, (long)getpid(),
                 atomic_fetch_add(&serial, 1)) >= (int)sizeof tmp)
        return ENAMETOOLONG;
    /* a new file of its own: in a cache folder others may write, a link or a
     * file planted at the name is never written through. Writable by its
     * owner alone, as try_read trusts no other entry (the umask may take
     * more). Renamed over an entry another user planted where the folder lets
     * it be (without the sticky bit); where it does not, the features are
     * used as computed, and computed again next time. */
    /* watched while it is written: a signal that ends the program
     * (sl_output_remove_temporaries) leaves no part of an entry behind */
    sl_output_watch(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!fp) {
        const int why = errno;
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        sl_output_unwatch(tmp); /* (not made: none of ours to remove) */
        return why;
    }
    unsigned char head[CACHE_HEADER] = {0};
    memcpy(head, magic, 8);
    put64(head + 8, key);
    put64(head + 16, (uint64_t)f->n_samples);
    put64(head + 24, (uint64_t)f->n_frames);
    put64(head + 32, (uint64_t)(uint32_t)f->dim | ((uint64_t)plen << 32));
    put64(head + 40, entry_crc(head, f->feats, (size_t)f->n_frames * (size_t)f->dim * sizeof(float)));
    static const char zeros[4] = {0};
    int ok = fwrite(head, 1, sizeof head, fp) == sizeof head &&
             fwrite(real, 1, plen, fp) == plen &&
             fwrite(zeros, 1, off - CACHE_HEADER - plen, fp) == off - CACHE_HEADER - plen &&
             fwrite(f->feats, sizeof(float), (size_t)f->n_frames * (size_t)f->dim, fp) ==
                 (size_t)f->n_frames * (size_t)f->dim;
    int why = ok ? 0 : errno;
    if (fclose(fp) && !why)
        why = errno;
    if (!why && rename(tmp, entry))
        why = errno;
    if (why)
        unlink(tmp);
    sl_output_unwatch(tmp);
    return why;
}

/* One kind of cache entry: log-mel features of a config, or samples at a rate. */
typedef struct {
    const char *magic;
    const char *ext;
    const sl_feature_config *key_cfg; /* the settings the entry depends on */
    uint64_t key_salt;
    int dim;
    /* held: no cache, the result kept in memory for good */
    int (*compute)(const char *audio, const void *arg, int held, sl_feature_file *out, char *err,
                   size_t errlen);
    const void *arg;
} cache_kind;

/* The entry for `audio` when it is valid, else computed (and stored when a
 * cache directory is given). The key covers the path, size, mtime and settings. */
static int cached_load(const char *audio, const char *cache_dir, const cache_kind *k,
                       sl_feature_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(audio, &st))
        return sl_fail(err, errlen, "%s: cannot open: %s", audio, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return sl_fail(err, errlen, "%s: is a directory, not an audio file", audio);
    /* a FIFO's open would wait for a writer, a device's read never end (a
     * noise list's entries come here unchecked, a manifest's checked before) */
    if (!S_ISREG(st.st_mode))
        return sl_fail(err, errlen, "%s: a %s, not an audio file: what training reads is files",
                       audio, S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device"
                                                                        : "FIFO, pipe or socket");
    if (!cache_dir || !cache_dir[0])
        return k->compute(audio, k->arg, 1, out, err, errlen);
    /* a cache folder in /tmp that another user made a link of, to a folder
     * of this one's: not followed (its entries would be written there) */
    if (sl_output_folder_check(cache_dir, err, errlen) != 0)
        return -1;
    char *real = realpath(audio, NULL);
    if (!real)
        return sl_fail(err, errlen, "%s: cannot resolve: %s", audio, strerror(errno));
    uint64_t key = cache_key(real, &st, k->key_cfg) ^ k->key_salt;
    char entry[4096];
    int rc;
    if (snprintf(entry, sizeof entry, "%s/%016llx.%s", cache_dir, (unsigned long long)key, k->ext) >=
        (int)sizeof entry) {
        rc = k->compute(audio, k->arg, 0, out, err, errlen);
        out->cache_error = ENAMETOOLONG;
    } else if (try_read(entry, k->magic, key, real, k->dim, out) == 0) {
        rc = 0;
    } else {
        rc = k->compute(audio, k->arg, 0, out, err, errlen);
        /* Once written, the entry replaces the computed copy: mapped pages are
         * the kernel's to drop and reread, so a training set larger than the
         * memory still loads on a fresh cache (malloc'ed copies of 65,000
         * files' features outgrew 24 GB). The bytes are the same. */
        sl_feature_file mapped;
        memset(&mapped, 0, sizeof mapped);
        int why = 0;
        if (rc == 0 && (why = mkdir_p(cache_dir) ? errno : 0) == 0 &&
            (why = try_write(entry, k->magic, key, real, out)) == 0 &&
            try_read(entry, k->magic, key, real, k->dim, &mapped) == 0) {
            sl_feature_file_free(out);
            *out = mapped;
            out->from_cache = 0; /* computed by this call */
        }
        if (rc == 0)
            out->cache_error = why;
    }
    free(real);
    return rc;
}

int sl_feature_file_load(const char *audio, const sl_feature_config *fc, const char *cache_dir,
                         sl_feature_file *out, char *err, size_t errlen)
{
    const cache_kind k = {CACHE_MAGIC, "feat", fc, 0, sl_feature_dim(fc), compute_features, fc};
    return cached_load(audio, cache_dir, &k, out, err, errlen);
}

static int compute_pcm(const char *audio, const void *rate_arg, int held, sl_feature_file *out,
                       char *err, size_t errlen)
{
    int rate = *(const int *)rate_arg;
    sl_audio_reader *r = sl_audio_open(audio, rate, err, errlen);
    if (!r)
        return -1;
    const int64_t file_frames = sl_audio_file_frames(r);
    const int64_t est = file_frames < 0 ? -1
        : (int64_t)((double)file_frames * rate / sl_audio_file_rate(r)) + 2;
    int64_t cap = 0, n = 0;
    float *buf = NULL;
    int rc = 0;
    while (rc == 0) {
        if (n == cap) {
            const int64_t nc = grow_to(audio, "samples", held, cap, est, 1 << 16, err, errlen);
            float *nb = nc < 0 ? NULL : realloc(buf, (size_t)nc * sizeof *nb);
            if (!nb) {
                rc = nc < 0 ? -1 : sl_fail(err, errlen, "%s: out of memory", audio);
                break;
            }
            buf = nb;
            cap = nc;
        }
        long got = sl_audio_read(r, buf + n, (long)(cap - n), err, errlen);
        if (got < 0)
            rc = -1;
        else if (got == 0)
            break;
        else
            n += got;
    }
    sl_audio_close(r);
    if (rc) {
        free(buf);
        return -1;
    }
    out->owned = buf;
    out->feats = buf;
    out->n_frames = n;
    out->n_samples = n;
    out->dim = 1;
    return 0;
}

int sl_pcm_file_load(const char *audio, int rate, const char *cache_dir, sl_feature_file *out,
                     char *err, size_t errlen)
{
    sl_feature_config only_rate;
    memset(&only_rate, 0, sizeof only_rate);
    only_rate.sample_rate = rate;
    const cache_kind k = {PCM_MAGIC, "pcm", &only_rate, 0x50434d50434d5043ull /* "PCM" */, 1,
                          compute_pcm, &rate};
    return cached_load(audio, cache_dir, &k, out, err, errlen);
}

void sl_feature_file_free(sl_feature_file *f)
{
    if (!f)
        return;
    if (f->map)
        munmap(f->map, f->map_len);
    free(f->owned);
    memset(f, 0, sizeof *f);
}
