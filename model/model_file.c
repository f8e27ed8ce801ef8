/* The model file (docs/model-format.md): reading, validating, writing.
 *
 * The loader is the library's main attack surface. It reads the file once
 * into memory, checks magic, version and CRC32, then parses with a bounds-
 * checked cursor: every count is validated against the config limits and the
 * bytes actually present BEFORE anything is allocated from it. */
#include "model/model_internal.h"
#include "common/bytes.h"
#include "common/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define SL_MODEL_MAGIC "SEQLABEL"
#define SL_MODEL_VERSION 1u
#define SL_MODEL_CONFIG_FIELDS 17
#define SL_FEATURE_CONFIG_FIELDS 17
#define SL_HEADER_BYTES (4 * (SL_MODEL_CONFIG_FIELDS + SL_FEATURE_CONFIG_FIELDS))
/* Files above this are refused before reading (a labeler is a few MB). */
#define SL_MAX_FILE_BYTES ((size_t)1 << 31)

static void say(char *err, size_t errlen, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    int n = snprintf(err, errlen, "%s: ", *name ? name : "model path ''"); /* (an empty setting) */
    if (n < 0 || (size_t)n >= errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

/* ---- little-endian cursor ------------------------------------------------ */

typedef struct {
    const unsigned char *p;
    size_t left;
} reader;

static int take(reader *r, void *out, size_t n)
{
    if (r->left < n)
        return -1;
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return 0;
}

static int get_u32(reader *r, uint32_t *v)
{
    unsigned char b[4];
    if (take(r, b, 4))
        return -1;
    *v = sl_le32(b);
    return 0;
}

static int get_i32(reader *r, int *v)
{
    uint32_t u;
    if (get_u32(r, &u))
        return -1;
    *v = (int)(int32_t)u;
    return 0;
}

static int get_f32(reader *r, float *v)
{
    uint32_t u;
    if (get_u32(r, &u))
        return -1;
    memcpy(v, &u, 4);
    return 0;
}

typedef struct {
    unsigned char *p;
    size_t len;
} writer;

static void put_u32(writer *w, uint32_t v)
{
    unsigned char *b = w->p + w->len;
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
    w->len += 4;
}

static void put_i32(writer *w, int v) { put_u32(w, (uint32_t)(int32_t)v); }

static void put_f32(writer *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(w, u);
}

static void put_bytes(writer *w, const void *s, size_t n)
{
    memcpy(w->p + w->len, s, n);
    w->len += n;
}

/* ---- the fixed header, one list for reading and writing ------------------ */

/* Field order of the header: the model config, then the feature config. */
#define MODEL_FIELDS(I, F)                                                           \
    I(n_features) I(d_model) I(n_heads) I(n_layers) I(d_ff) I(n_classes) I(max_window) \
    I(activation) I(norm_first) I(qkv_bias) I(scale_input) I(band_left) I(band_right)  \
    F(ln_eps) I(stream_window) I(stream_left) I(stream_lookahead)
#define FEATURE_FIELDS(I, F, U)                                                      \
    I(sample_rate) F(frame_length_ms) F(frame_shift_ms) I(num_mel_bins) F(low_freq)   \
    F(high_freq) I(window) F(preemph) I(remove_dc) F(dither) U(dither_seed)           \
    I(use_energy) F(energy_floor) I(raw_energy) I(num_ceps) F(cepstral_lifter)        \
    F(input_scale)

static int read_header(reader *r, sl_model_config *c, sl_feature_config *f)
{
    int iv;
    memset(c, 0, sizeof *c);
    memset(f, 0, sizeof *f);
#define RI(x) if (get_i32(r, &iv)) return -1; c->x = iv;
#define RF(x) if (get_f32(r, &c->x)) return -1;
    MODEL_FIELDS(RI, RF)
#undef RI
#undef RF
#define RI(x) if (get_i32(r, &iv)) return -1; f->x = iv;
#define RF(x) if (get_f32(r, &f->x)) return -1;
#define RU(x) if (get_u32(r, &f->x)) return -1;
    FEATURE_FIELDS(RI, RF, RU)
#undef RI
#undef RF
#undef RU
    return 0;
}

static void write_header(writer *w, const sl_model_config *c, const sl_feature_config *f)
{
#define WI(x) put_i32(w, (int)c->x);
#define WF(x) put_f32(w, c->x);
    MODEL_FIELDS(WI, WF)
#undef WI
#undef WF
#define WI(x) put_i32(w, (int)f->x);
#define WF(x) put_f32(w, f->x);
#define WU(x) put_u32(w, f->x);
    FEATURE_FIELDS(WI, WF, WU)
#undef WI
#undef WF
#undef WU
}

/* ---- loading ------------------------------------------------------------- */

#define BAD(...)                                  \
    do {                                          \
        say(err, errlen, name, __VA_ARGS__);      \
        goto fail;                                \
    } while (0)

sl_model *sl_model_load_memory(const void *data, size_t size, const char *name, char *err,
                               size_t errlen)
{
    const unsigned char *bytes = data;
    sl_model *m = NULL;
    char why[SL_ERR_LEN];
    char (*names)[SL_MAX_CLASS_NAME + 1] = NULL;
    const char **name_ptrs = NULL;
    unsigned char *seen = NULL;
    if (!name)
        name = "model";

    if (size >= 8 && !memcmp(bytes, SL_CHECKPOINT_MAGIC, 8))
        BAD("a training checkpoint (seqlabel train --checkpoint), not a model: the model "
            "is the file that train's --out wrote");
    if (size < 8 || memcmp(bytes, SL_MODEL_MAGIC, 8))
        BAD("not a seqlabel model file (no '" SL_MODEL_MAGIC "' magic)");
    if (size < 16)
        BAD("truncated: %zu bytes, the fixed header alone takes 16", size);
    uint32_t version = sl_le32(bytes + 8);
    if (version != SL_MODEL_VERSION)
        BAD("model format version %u; this seqlabel reads version %u", version,
            SL_MODEL_VERSION);
    if (size < 16 + SL_HEADER_BYTES + 4)
        BAD("truncated: %zu bytes, shorter than the header", size);
    uint32_t stored_crc = sl_le32(bytes + size - 4);
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
    /* zlib's crc32 takes uInt lengths: feed it in chunks. */
    for (size_t off = 0; off < size - 4;) {
        size_t n = size - 4 - off;
        if (n > (1u << 30))
            n = 1u << 30;
        crc = (uint32_t)crc32(crc, bytes + off, (uInt)n);
        off += n;
    }
    if (crc != stored_crc)
        BAD("checksum mismatch (file is corrupt or truncated): stored %08x, computed %08x",
            stored_crc, crc);

    reader r = {bytes + 12, size - 16}; /* the checksum is not part of the body */
    uint32_t header_bytes;
    get_u32(&r, &header_bytes);
    if (header_bytes != SL_HEADER_BYTES)
        BAD("header size %u, version %u headers are %d bytes", header_bytes, SL_MODEL_VERSION,
            SL_HEADER_BYTES);
    sl_model_config cfg;
    sl_feature_config fcfg;
    if (read_header(&r, &cfg, &fcfg))
        BAD("truncated header");
    if (sl_model_config_validate(&cfg, why, sizeof why))
        BAD("model config: %s", why);
    if (sl_feature_config_validate(&fcfg, why, sizeof why))
        BAD("%s", why);
    if (sl_feature_dim(&fcfg) != cfg.n_features)
        BAD("the feature settings give %d values per frame, the model takes %d",
            sl_feature_dim(&fcfg), cfg.n_features);

    /* Everything the config implies must be present before we allocate for it:
     * norm stats, at least 4 bytes per class, and the parameters themselves. */
    size_t n_params;
    int n_tensors = sl_param_layout(&cfg, NULL, &n_params);
    if (r.left < (size_t)cfg.n_features * 8 + (size_t)cfg.n_classes * 5 + 4 + n_params * 4)
        BAD("truncated: %zu bytes left for statistics, %d class names and %zu parameters",
            r.left, cfg.n_classes, n_params);

    const unsigned char *stats = r.p;
    r.p += (size_t)cfg.n_features * 8;
    r.left -= (size_t)cfg.n_features * 8;

    names = calloc((size_t)cfg.n_classes, sizeof *names);
    name_ptrs = calloc((size_t)cfg.n_classes, sizeof *name_ptrs);
    seen = calloc((size_t)n_tensors, 1);
    if (!names || !name_ptrs || !seen)
        BAD("out of memory");
    for (int k = 0; k < cfg.n_classes; k++) {
        uint32_t len;
        if (get_u32(&r, &len))
            BAD("truncated in class name %d", k);
        if (len < 1 || len > SL_MAX_CLASS_NAME)
            BAD("class name %d has %u bytes; names have 1..%d", k, len, SL_MAX_CLASS_NAME);
        if (take(&r, names[k], len))
            BAD("truncated in class name %d", k);
        names[k][len] = 0;
        if (!sl_class_name_valid(names[k], len))
            BAD("class name %d is not valid UTF-8 text (or holds control characters)", k);
        name_ptrs[k] = names[k];
    }

    /* The statistics: decoded into temporaries checked by sl_model_create. */
    m = NULL;
    {
        float *mean = malloc(sizeof(float) * (size_t)cfg.n_features * 2);
        if (!mean)
            BAD("out of memory");
        float *inv = mean + cfg.n_features;
        reader sr = {stats, (size_t)cfg.n_features * 8};
        for (int i = 0; i < cfg.n_features; i++)
            get_f32(&sr, &mean[i]);
        for (int i = 0; i < cfg.n_features; i++)
            get_f32(&sr, &inv[i]);
        m = sl_model_create(&cfg, &fcfg, mean, inv, name_ptrs, why, sizeof why);
        free(mean);
        if (!m)
            BAD("%s", why);
    }

    uint32_t count;
    if (get_u32(&r, &count))
        BAD("truncated before the tensor count");
    if (count != (uint32_t)n_tensors)
        BAD("%u tensors, this configuration has %d", count, n_tensors);
    for (uint32_t t = 0; t < count; t++) {
        uint32_t len, ndim;
        char tname[SL_MAX_TENSOR_NAME];
        if (get_u32(&r, &len))
            BAD("truncated in tensor %u", t);
        if (len < 1 || len >= SL_MAX_TENSOR_NAME)
            BAD("tensor %u: name of %u bytes", t, len);
        if (take(&r, tname, len))
            BAD("truncated in tensor %u's name", t);
        tname[len] = 0;
        if (memchr(tname, 0, len))
            BAD("tensor %u: name holds a NUL byte", t);
        int idx = sl_model_find_tensor(m, tname);
        if (idx < 0)
            BAD("unexpected tensor '%s' for this configuration", tname);
        if (seen[idx])
            BAD("tensor '%s' appears twice", tname);
        seen[idx] = 1;
        const sl_tensor_info *info = &m->tensors[idx];
        if (get_u32(&r, &ndim))
            BAD("truncated in tensor '%s'", tname);
        if (ndim != (uint32_t)info->ndim)
            BAD("tensor '%s' has %u dimensions, expected %d", tname, ndim, info->ndim);
        for (int k = 0; k < info->ndim; k++) {
            uint32_t dim;
            if (get_u32(&r, &dim))
                BAD("truncated in tensor '%s'", tname);
            if (dim != (uint32_t)info->shape[k])
                BAD("tensor '%s' dimension %d is %u, the configuration says %d", tname, k, dim,
                    info->shape[k]);
        }
        if (r.left / 4 < info->count)
            BAD("truncated in tensor '%s' data", tname);
        float *dst = m->params + info->offset;
        for (size_t i = 0; i < info->count; i++) {
            get_f32(&r, &dst[i]);
            if (!isfinite(dst[i]))
                BAD("tensor '%s' element %zu is %s", tname, i, isnan(dst[i]) ? "NaN" : "infinite");
        }
    }
    if (r.left != 0)
        BAD("%zu unexpected bytes after the last tensor", r.left);
    free(names);
    free(name_ptrs);
    free(seen);
    return m;

fail:
    sl_model_free(m);
    free(names);
    free(name_ptrs);
    free(seen);
    return NULL;
}

sl_model *sl_model_load(const char *path, char *err, size_t errlen)
{
    if (!path) { /* sl_default_model_path() found none */
        const char *installed = sl_installed_model_path();
        say(err, errlen, "seqlabel", "no model: no path given, and no default model (set "
            "SEQLABEL_MODEL to a model file, or install one at %s)",
            installed ? installed : "<datadir>/seqlabel/default.slm");
        return NULL;
    }
    /* not blocking: a FIFO given as the model would wait for a writer for good */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        say(err, errlen, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        say(err, errlen, path, "not a regular file");
        close(fd);
        return NULL;
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        say(err, errlen, path, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > SL_MAX_FILE_BYTES) {
        say(err, errlen, path, "%lld bytes: larger than any model this seqlabel accepts",
            (long long)st.st_size);
        fclose(fp);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf) {
        say(err, errlen, path, "out of memory for %zu bytes", size);
        fclose(fp);
        return NULL;
    }
    size_t got = fread(buf, 1, size, fp);
    int rerr = ferror(fp);
    fclose(fp);
    if (rerr || got != size) {
        say(err, errlen, path, "read error");
        free(buf);
        return NULL;
    }
    sl_model *m = sl_model_load_memory(buf, size, path, err, errlen);
    free(buf);
    return m;
}

/* ---- saving -------------------------------------------------------------- */

static size_t file_size(const sl_model *m)
{
    size_t n = 16 + SL_HEADER_BYTES + (size_t)m->cfg.n_features * 8;
    for (int k = 0; k < m->cfg.n_classes; k++)
        n += 4 + strlen(m->class_names[k]);
    n += 4;
    for (int t = 0; t < m->n_tensors; t++)
        n += 4 + strlen(m->tensors[t].name) + 4 + 4 * (size_t)m->tensors[t].ndim +
             4 * m->tensors[t].count;
    return n + 4;
}

int sl_model_serialize(const sl_model *m, unsigned char **bytes, size_t *len, const char *name,
                       char *err, size_t errlen)
{
    for (size_t i = 0; i < m->n_params; i++)
        if (!isfinite(m->params[i])) {
            say(err, errlen, name, "refusing to save: parameter %zu is not finite", i);
            return -1;
        }
    int bad = sl_norm_bad_dimension(m->norm_mean, m->norm_inv_std, m->cfg.n_features);
    if (bad >= 0) { /* sl_model_set_norm takes what it is given; a loader would refuse it */
        say(err, errlen, name, "refusing to save: the normalisation statistics of dimension %d "
            "are not finite and positive", bad);
        return -1;
    }
    size_t size = file_size(m);
    writer w = {malloc(size), 0};
    if (!w.p) {
        say(err, errlen, name, "out of memory for %zu bytes", size);
        return -1;
    }
    put_bytes(&w, SL_MODEL_MAGIC, 8);
    put_u32(&w, SL_MODEL_VERSION);
    put_u32(&w, SL_HEADER_BYTES);
    write_header(&w, &m->cfg, &m->fcfg);
    for (int i = 0; i < m->cfg.n_features; i++)
        put_f32(&w, m->norm_mean[i]);
    for (int i = 0; i < m->cfg.n_features; i++)
        put_f32(&w, m->norm_inv_std[i]);
    for (int k = 0; k < m->cfg.n_classes; k++) {
        size_t len = strlen(m->class_names[k]);
        put_u32(&w, (uint32_t)len);
        put_bytes(&w, m->class_names[k], len);
    }
    put_u32(&w, (uint32_t)m->n_tensors);
    for (int t = 0; t < m->n_tensors; t++) {
        const sl_tensor_info *info = &m->tensors[t];
        size_t len = strlen(info->name);
        put_u32(&w, (uint32_t)len);
        put_bytes(&w, info->name, len);
        put_u32(&w, (uint32_t)info->ndim);
        for (int k = 0; k < info->ndim; k++)
            put_u32(&w, (uint32_t)info->shape[k]);
        for (size_t i = 0; i < info->count; i++)
            put_f32(&w, m->params[info->offset + i]);
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < w.len;) {
        size_t n = w.len - off > (1u << 30) ? (1u << 30) : w.len - off;
        crc = crc32(crc, w.p + off, (uInt)n);
        off += n;
    }
    put_u32(&w, (uint32_t)crc);
    *bytes = w.p;
    *len = w.len;
    return 0;
}

static int write_all(int fd, const unsigned char *p, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            errno = n < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

int sl_model_save(const sl_model *m, const char *path, char *err, size_t errlen)
{
    unsigned char *bytes;
    size_t len;
    if (sl_model_serialize(m, &bytes, &len, path, err, errlen))
        return -1;
    /* A temporary file renamed over the destination only when complete; a
     * device or FIFO written as it is (common/output_file.h has the rule). */
    sl_output out;
    int rc = sl_output_open(&out, path, err, errlen);
    if (rc == 0 && write_all(out.fd, bytes, len) != 0) {
        say(err, errlen, path, "cannot write: %s", strerror(errno));
        sl_output_discard(&out);
        rc = -1;
    } else if (rc == 0) {
        rc = sl_output_commit(&out, err, errlen);
    }
    sl_output_free(&out);
    free(bytes);
    return rc;
}
