/* The model object: config validation, the parameter layout (one block of
 * named tensors in PyTorch's layouts), construction, accessors, and PyTorch's
 * default initialisation. The file format lives in model_file.c. */
#include "model/model_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/errors.h"
#include "common/text.h"

/* Largest parameter block accepted (floats): 1 GiB, far above any labeler. */
#define SL_MAX_PARAMS ((size_t)1 << 28)

void sl_model_config_default(sl_model_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->d_model = 128;
    cfg->n_heads = 4;
    cfg->n_layers = 4;
    cfg->d_ff = 512;
    cfg->max_window = 1024;
    cfg->activation = SL_ACT_RELU;
    cfg->norm_first = 0;
    cfg->qkv_bias = 1;
    cfg->scale_input = 0;
    cfg->band_left = -1;
    cfg->band_right = -1;
    cfg->ln_eps = 1e-5f;
    cfg->stream_window = 400;
    cfg->stream_left = 100;
    cfg->stream_lookahead = 50;
}

#define CHECK_RANGE(field, lo, hi)                                                             \
    do {                                                                                       \
        if (cfg->field < (lo) || cfg->field > (hi))                                            \
            return sl_fail(err, errlen, #field " is %d, must be in %d..%d", (int)cfg->field,      \
                        (int)(lo), (int)(hi));                                                 \
    } while (0)

int sl_model_config_validate(const sl_model_config *cfg, char *err, size_t errlen)
{
    CHECK_RANGE(n_features, 1, SL_MAX_DIM);
    CHECK_RANGE(d_model, 2, SL_MAX_DIM);
    CHECK_RANGE(n_heads, 1, SL_MAX_HEADS);
    CHECK_RANGE(n_layers, 1, SL_MAX_LAYERS);
    CHECK_RANGE(d_ff, 1, SL_MAX_DIM);
    CHECK_RANGE(n_classes, 1, SL_MAX_CLASSES);
    CHECK_RANGE(max_window, 1, SL_MAX_WINDOW);
    CHECK_RANGE(activation, SL_ACT_RELU, SL_ACT_GELU);
    CHECK_RANGE(norm_first, 0, 1);
    CHECK_RANGE(qkv_bias, 0, 1);
    CHECK_RANGE(scale_input, 0, 1);
    CHECK_RANGE(band_left, -1, SL_MAX_WINDOW);
    CHECK_RANGE(band_right, -1, SL_MAX_WINDOW);
    if (cfg->d_model % 2)
        return sl_fail(err, errlen, "d_model %d is odd: sinusoidal positions need an even d_model",
                    cfg->d_model);
    if (cfg->d_model % cfg->n_heads)
        return sl_fail(err, errlen, "d_model %d is not a multiple of n_heads %d", cfg->d_model,
                    cfg->n_heads);
    if (!(cfg->ln_eps > 0.0f && cfg->ln_eps < 1.0f))
        return sl_fail(err, errlen, "ln_eps %g must be in (0, 1)", (double)cfg->ln_eps);
    CHECK_RANGE(stream_window, 1, cfg->max_window);
    CHECK_RANGE(stream_left, 0, cfg->stream_window - 1);
    CHECK_RANGE(stream_lookahead, 0, cfg->stream_window - 1);
    if (cfg->stream_left + cfg->stream_lookahead >= cfg->stream_window)
        return sl_fail(err, errlen,
                    "stream_left %d + stream_lookahead %d leave no frame of stream_window %d",
                    cfg->stream_left, cfg->stream_lookahead, cfg->stream_window);
    size_t total;
    sl_param_layout(cfg, NULL, &total);
    if (total > SL_MAX_PARAMS)
        return sl_fail(err, errlen, "%zu parameters exceed the limit of %zu", total, SL_MAX_PARAMS);
    return 0;
}

/* The one definition of the layout: walks the tensors in file order, filling
 * the table and/or binding views. Sizes stay far below overflow because every
 * dimension is at most SL_MAX_DIM and there are at most SL_MAX_LAYERS layers. */
typedef struct {
    sl_tensor_info *table;
    float *block;
    int n;
    size_t off;
} layout_walk;

static float *add_tensor(layout_walk *w, const char *name, int rows, int cols, int ndim)
{
    if (w->table) {
        sl_tensor_info *t = &w->table[w->n];
        snprintf(t->name, sizeof t->name, "%s", name);
        t->ndim = ndim;
        t->shape[0] = rows;
        t->shape[1] = cols;
        t->offset = w->off;
        t->count = (size_t)rows * (size_t)cols;
    }
    float *p = w->block ? w->block + w->off : NULL;
    w->n++;
    w->off += (size_t)rows * (size_t)cols;
    return p;
}

static void walk_layout(const sl_model_config *cfg, layout_walk *w, sl_params *p)
{
    sl_params dummy;
    if (!p)
        p = &dummy;
    memset(p, 0, sizeof *p);
    const int d = cfg->d_model, f = cfg->d_ff;
    char name[SL_MAX_TENSOR_NAME];
    p->input_weight = add_tensor(w, "input_proj.weight", d, cfg->n_features, 2);
    p->input_bias = add_tensor(w, "input_proj.bias", d, 1, 1);
    for (int l = 0; l < cfg->n_layers; l++) {
        sl_layer_params *L = &p->layers[l];
#define T2(field, suffix, r, c)                                                         \
    do {                                                                                \
        snprintf(name, sizeof name, "encoder.layers.%d.%s", l, suffix);                 \
        L->field = add_tensor(w, name, r, c, 2);                                        \
    } while (0)
#define T1(field, suffix, r)                                                            \
    do {                                                                                \
        snprintf(name, sizeof name, "encoder.layers.%d.%s", l, suffix);                 \
        L->field = add_tensor(w, name, r, 1, 1);                                        \
    } while (0)
        T2(in_proj_weight, "self_attn.in_proj_weight", 3 * d, d);
        if (cfg->qkv_bias)
            T1(in_proj_bias, "self_attn.in_proj_bias", 3 * d);
        T2(out_proj_weight, "self_attn.out_proj.weight", d, d);
        T1(out_proj_bias, "self_attn.out_proj.bias", d);
        T2(linear1_weight, "linear1.weight", f, d);
        T1(linear1_bias, "linear1.bias", f);
        T2(linear2_weight, "linear2.weight", d, f);
        T1(linear2_bias, "linear2.bias", d);
        T1(norm1_weight, "norm1.weight", d);
        T1(norm1_bias, "norm1.bias", d);
        T1(norm2_weight, "norm2.weight", d);
        T1(norm2_bias, "norm2.bias", d);
#undef T1
#undef T2
    }
    if (cfg->norm_first) {
        p->final_norm_weight = add_tensor(w, "encoder.norm.weight", d, 1, 1);
        p->final_norm_bias = add_tensor(w, "encoder.norm.bias", d, 1, 1);
    }
    p->classifier_weight = add_tensor(w, "classifier.weight", cfg->n_classes, d, 2);
    p->classifier_bias = add_tensor(w, "classifier.bias", cfg->n_classes, 1, 1);
}

int sl_param_layout(const sl_model_config *cfg, sl_tensor_info *table, size_t *total)
{
    layout_walk w = {table, NULL, 0, 0};
    walk_layout(cfg, &w, NULL);
    if (total)
        *total = w.off;
    return w.n;
}

void sl_params_bind(const sl_model_config *cfg, float *block, sl_params *p)
{
    layout_walk w = {NULL, block, 0, 0};
    walk_layout(cfg, &w, p);
}

/* UTF-8 per RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF; and
 * no control characters, which would break line- and tab-separated outputs. */
int sl_class_name_valid(const char *s, size_t len)
{
    if (len < 1 || len > SL_MAX_CLASS_NAME)
        return 0;
    for (size_t i = 0, n; i < len; i += n) {
        uint32_t cp;
        if (!(n = sl_utf8_char(s + i, len - i, &cp)))
            return 0;
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) /* C0, DEL and C1 controls */
            return 0;
    }
    return 1;
}

const char *sl_class_name_flaw(const char *s, int new_model)
{
    _Static_assert(SL_MAX_CLASS_NAME == 64, "the message says 64 bytes");
    if (!sl_class_name_valid(s, strnlen(s, SL_MAX_CLASS_NAME + 1)))
        return "a class name must be 1..64 bytes of printable UTF-8";
    if (!new_model)
        return NULL;
    for (size_t i = 0, n, len = strlen(s); i < len; i += n) {
        uint32_t cp;
        n = sl_utf8_char(s + i, len - i, &cp); /* valid: checked above */
        if (sl_is_space_char(cp))
            return "a class name holds no spaces, Unicode's (U+00A0, ...) neither (RTTM fields "
                   "and TextGrid text could not keep them): e.g. dog_bark";
        if (sl_is_invisible_format(cp))
            return "a class name holds no invisible format characters (direction marks such as "
                   "U+200F, overrides such as U+202E, the soft hyphen U+00AD, ...): a name "
                   "with one prints as the name without it, and an override reorders the rest "
                   "of a terminal's line";
    }
    if (strpbrk(s, ",="))
        return "a class name holds no ',' or '=' (lists such as --only speech,music and "
               "--min-duration speech=0.2 could not name it)";
    if (s[0] == '"')
        return "a class name does not begin with '\"' (readers of the tab-separated outputs, "
               "pandas and Python's csv, would take it for a quoted field)";
    /* the frames table's own columns, before a column a class */
    static const char *const columns[] = {"file", "frame", "time", "label", "confidence"};
    for (size_t k = 0; k < sizeof columns / sizeof columns[0]; k++)
        if (!strcmp(s, columns[k]))
            return "a class name is none of the frames table's own columns (file, frame, time, "
                   "label, confidence), whose values a class's column of that name would "
                   "overwrite in Python's csv.DictReader";
    return NULL;
}

int sl_norm_bad_dimension(const float *mean, const float *inv_std, int n)
{
    for (int i = 0; i < n; i++)
        if ((mean && !isfinite(mean[i])) ||
            (inv_std && !(isfinite(inv_std[i]) && inv_std[i] > 0.0f)))
            return i;
    return -1;
}

sl_model *sl_model_create(const sl_model_config *cfg, const sl_feature_config *fcfg,
                          const float *norm_mean, const float *norm_inv_std,
                          const char *const *class_names, char *err, size_t errlen)
{
    char why[SL_ERR_LEN];
    if (sl_model_config_validate(cfg, why, sizeof why)) {
        sl_fail(err, errlen, "model config: %s", why);
        return NULL;
    }
    if (sl_feature_config_validate(fcfg, why, sizeof why)) {
        sl_fail(err, errlen, "%s", why);
        return NULL;
    }
    if (sl_feature_dim(fcfg) != cfg->n_features) {
        sl_fail(err, errlen, "the feature settings give %d values per frame, the model takes %d",
             sl_feature_dim(fcfg), cfg->n_features);
        return NULL;
    }
    for (int k = 0; k < cfg->n_classes; k++) {
        const char *s = class_names ? class_names[k] : NULL;
        if (!s || !sl_class_name_valid(s, strnlen(s, SL_MAX_CLASS_NAME + 1))) {
            sl_fail(err, errlen, "class %d: name missing, empty, longer than %d bytes, or not "
                 "printable UTF-8", k, SL_MAX_CLASS_NAME);
            return NULL;
        }
        for (int j = 0; j < k; j++)
            if (!strcmp(class_names[j], s)) {
                sl_fail(err, errlen, "class name '%s' appears twice", s);
                return NULL;
            }
    }
    int bad = sl_norm_bad_dimension(norm_mean, norm_inv_std, cfg->n_features);
    if (bad >= 0) {
        sl_fail(err, errlen, "normalisation statistics of dimension %d are not finite and "
                "positive", bad);
        return NULL;
    }

    sl_model *m = calloc(1, sizeof *m);
    if (!m) {
        sl_fail(err, errlen, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    m->fcfg = *fcfg;
    m->n_tensors = sl_param_layout(cfg, NULL, &m->n_params);
    m->tensors = calloc((size_t)m->n_tensors, sizeof *m->tensors);
    m->params = calloc(m->n_params, sizeof(float));
    m->norm_mean = malloc(sizeof(float) * (size_t)cfg->n_features);
    m->norm_inv_std = malloc(sizeof(float) * (size_t)cfg->n_features);
    m->class_names = calloc((size_t)cfg->n_classes, sizeof *m->class_names);
    if (!m->tensors || !m->params || !m->norm_mean || !m->norm_inv_std || !m->class_names) {
        sl_fail(err, errlen, "out of memory for %zu parameters", m->n_params);
        sl_model_free(m);
        return NULL;
    }
    sl_param_layout(cfg, m->tensors, NULL);
    sl_params_bind(cfg, m->params, &m->views);
    for (int i = 0; i < cfg->n_features; i++) {
        m->norm_mean[i] = norm_mean ? norm_mean[i] : 0.0f;
        m->norm_inv_std[i] = norm_inv_std ? norm_inv_std[i] : 1.0f;
    }
    for (int k = 0; k < cfg->n_classes; k++)
        snprintf(m->class_names[k], sizeof m->class_names[k], "%s", class_names[k]);
    return m;
}

void sl_model_free(sl_model *m)
{
    if (!m)
        return;
    free(m->tensors);
    free(m->params);
    free(m->norm_mean);
    free(m->norm_inv_std);
    free(m->class_names);
    free(m);
}

const sl_model_config *sl_model_get_config(const sl_model *m) { return &m->cfg; }
const sl_feature_config *sl_model_feature_config(const sl_model *m) { return &m->fcfg; }
const float *sl_model_norm_mean(const sl_model *m) { return m->norm_mean; }
const float *sl_model_norm_inv_std(const sl_model *m) { return m->norm_inv_std; }
size_t sl_model_num_params(const sl_model *m) { return m->n_params; }
float *sl_model_params(sl_model *m) { return m->params; }
const float *sl_model_params_const(const sl_model *m) { return m->params; }
int sl_model_num_tensors(const sl_model *m) { return m->n_tensors; }

void sl_quantize_s16(const float *src, float *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float v = nearbyintf(src[i] * 32768.0f); /* ties to even, as sox and libsndfile round */
        v = v > 32767.0f ? 32767.0f : v < -32768.0f ? -32768.0f : v;
        dst[i] = v * (1.0f / 32768.0f);
    }
}

static int keep_first_frame(void *user, int64_t index, const float *frame, int dim)
{
    (void)index;
    memcpy(user, frame, (size_t)dim * sizeof(float));
    return 1; /* stop: one frame is all we need */
}

/* One window of zeros through the model's own front-end (its dither included,
 * from a fresh generator), then its normalisation. */
int sl_model_silence_frame(const sl_model *m, float *out, char *err, size_t errlen)
{
    int n = sl_feature_frame_length(&m->fcfg);
    float *zeros = calloc((size_t)n, sizeof *zeros);
    sl_features *f = zeros ? sl_features_new(&m->fcfg, err, errlen) : NULL;
    int rc = -1;
    if (!zeros)
        sl_fail(err, errlen, "out of memory");
    else if (f && sl_features_push(f, zeros, (size_t)n, keep_first_frame, out, err, errlen) == 1) {
        sl_normalize(out, m->norm_mean, m->norm_inv_std, m->cfg.n_features);
        rc = 0;
    }
    sl_features_free(f);
    free(zeros);
    return rc;
}

void sl_model_set_norm(sl_model *m, const float *mean, const float *inv_std)
{
    memcpy(m->norm_mean, mean, sizeof(float) * (size_t)m->cfg.n_features);
    memcpy(m->norm_inv_std, inv_std, sizeof(float) * (size_t)m->cfg.n_features);
}

int sl_model_set_stream(sl_model *m, int window, int left, int lookahead, char *err, size_t errlen)
{
    sl_model_config c = m->cfg;
    c.stream_window = window;
    c.stream_left = left;
    c.stream_lookahead = lookahead;
    if (sl_model_config_validate(&c, err, errlen))
        return -1;
    m->cfg = c;
    return 0;
}

const char *sl_model_class_name(const sl_model *m, int k)
{
    if (k < 0 || k >= m->cfg.n_classes)
        return NULL;
    return m->class_names[k];
}

int sl_model_class_index(const sl_model *m, const char *name)
{
    for (int k = 0; k < m->cfg.n_classes; k++)
        if (!strcmp(m->class_names[k], name))
            return k;
    /* the name in another Unicode form: "Größe" typed on Linux (NFC) for a
     * class whose labels macOS wrote (NFD) */
    for (int k = 0; k < m->cfg.n_classes; k++)
        if (sl_text_same(m->class_names[k], name))
            return k;
    return -1;
}

const sl_tensor_info *sl_model_tensor(const sl_model *m, int i)
{
    if (i < 0 || i >= m->n_tensors)
        return NULL;
    return &m->tensors[i];
}

int sl_model_find_tensor(const sl_model *m, const char *name)
{
    for (int i = 0; i < m->n_tensors; i++)
        if (!strcmp(m->tensors[i].name, name))
            return i;
    return -1;
}

/* splitmix64: small, seedable, and the same everywhere. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill_uniform(float *p, size_t n, float bound, uint64_t *s)
{
    for (size_t i = 0; i < n; i++) {
        double u = (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
        p[i] = (float)((2.0 * u - 1.0) * bound);
    }
}

static void fill_const(float *p, size_t n, float v)
{
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

void sl_model_init_params(sl_model *m, uint64_t seed)
{
    const sl_model_config *c = &m->cfg;
    const int d = c->d_model, f = c->d_ff;
    const sl_params *p = &m->views;
    uint64_t s = seed;
    float b_in = 1.0f / sqrtf((float)c->n_features), b_d = 1.0f / sqrtf((float)d),
          b_f = 1.0f / sqrtf((float)f);
    fill_uniform(p->input_weight, (size_t)d * c->n_features, b_in, &s);
    fill_uniform(p->input_bias, (size_t)d, b_in, &s);
    for (int l = 0; l < c->n_layers; l++) {
        const sl_layer_params *L = &p->layers[l];
        fill_uniform(L->in_proj_weight, (size_t)3 * d * d, sqrtf(6.0f / (float)(d + 3 * d)), &s);
        if (L->in_proj_bias)
            fill_const(L->in_proj_bias, (size_t)3 * d, 0.0f);
        fill_uniform(L->out_proj_weight, (size_t)d * d, b_d, &s);
        fill_const(L->out_proj_bias, (size_t)d, 0.0f);
        fill_uniform(L->linear1_weight, (size_t)f * d, b_d, &s);
        fill_uniform(L->linear1_bias, (size_t)f, b_d, &s);
        fill_uniform(L->linear2_weight, (size_t)d * f, b_f, &s);
        fill_uniform(L->linear2_bias, (size_t)d, b_f, &s);
        fill_const(L->norm1_weight, (size_t)d, 1.0f);
        fill_const(L->norm1_bias, (size_t)d, 0.0f);
        fill_const(L->norm2_weight, (size_t)d, 1.0f);
        fill_const(L->norm2_bias, (size_t)d, 0.0f);
    }
    if (p->final_norm_weight) {
        fill_const(p->final_norm_weight, (size_t)d, 1.0f);
        fill_const(p->final_norm_bias, (size_t)d, 0.0f);
    }
    fill_uniform(p->classifier_weight, (size_t)c->n_classes * d, b_d, &s);
    fill_uniform(p->classifier_bias, (size_t)c->n_classes, b_d, &s);
}
