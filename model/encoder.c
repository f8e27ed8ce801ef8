/* The encoder forward pass for inference: the layers of layers.c applied to a
 * window of T frames, with every buffer allocated once in sl_encoder_new.
 * The computation is the one tools/reference_model.py defines in PyTorch.
 *
 * Threads: sl_encoder_set_threads splits each window's frames between threads
 * the encoder owns. Every row-wise step (projections, LayerNorm, feed-forward,
 * classifier) runs on the thread's own rows; only attention needs the keys and
 * values of all rows, so there is one barrier per layer, after the Q/K/V
 * projection. The Q/K/V buffer alternates between two copies from layer to
 * layer, so a thread that runs ahead into the next layer never overwrites keys
 * another thread is still reading. Rows are split at multiples of the attention
 * block (SL_ATTN_BLOCK, see layers.h), which keeps the results bit-identical
 * for any thread count (a test checks it). */
#include "model/gemm.h"
#include "model/gemm_amx.h"
#include "model/layers.h"
#include "model/model_internal.h"
#include "common/memory.h"
#include "common/errors.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows per pass of a layer's row-wise part (out_proj to the last LayerNorm): a
 * multiple of SL_ATTN_BLOCK (OpenBLAS's row unrolling divides it, so the cblas
 * path gives the same bits as over all rows). */
#define SL_ENCODER_CHUNK 192

typedef struct {
    sl_encoder *e;
    int id;
    pthread_t th;
} worker;

/* Weights packed for model/gemm.h's AVX-512 kernel, or for model/gemm_amx.h's
 * AMX kernel where it runs (NULL pointers: cblas). */
typedef struct {
    float *in_proj, *out_proj, *linear1, *linear2;
    /* with shared packed keys (whole-window attention): in_proj's query rows
     * and in_bias's query part (NULL without biases) scaled by 1/sqrt(dk) */
    float *in_bias;
} packed_layer;

typedef struct {
    float *input, *classifier;
    packed_layer layers[SL_MAX_LAYERS];
} packed_weights;

struct sl_encoder {
    const sl_model *m;
    int max_T;
    float *pe;      /* max_T x d positional table */
    float *x;       /* T x d residual stream */
    float *h;       /* T x d normalised input (pre-norm) */
    float *qkv[2];  /* T x 3d, alternating between layers */
    float *ao;      /* T x d attention output before out_proj */
    float *ff;      /* T x d_ff */
    float *att;     /* attention score scratch, att_stride floats per thread */
    size_t att_stride;
    float *pack;    /* packed keys and values per thread, pack_stride floats each */
    size_t pack_stride;
    float *kv[2];   /* whole-window attention, AVX-512 or AMX path: every head's keys and
                       values packed once for all threads, alternating like qkv */
    int shared_kv;  /* kv in use: rows split at multiples of SL_GEMM_PANEL */
    float *logits;  /* T x n_classes, when the caller wants only probabilities */
    float *wblock;  /* the packed weights' storage */
    int amx;        /* the weights are packed for (and multiplied by) gemm_amx.h */
    int amx_att;    /* kv too (whole-window attention with d_k >= 32; below that the
                       tiles' 32-deep k and the 32-column panels of V would be at
                       least half zeros: AVX-512 is faster) */
    packed_weights pw;

    /* thread pool (n_threads - 1 workers; the caller's thread is number 0) */
    int n_threads;
    worker *workers;
    pthread_mutex_t mu;
    pthread_cond_t cv_start, cv_done;
    pthread_barrier_t layer_barrier;
    int pool_ready;
    unsigned generation;
    int pending;
    int stop;
    /* the current job */
    const float *feats;
    int T;
    float *out_logits, *out_probs;
};

static int set_err(char *err, size_t errlen, const char *msg, int v)
{
    if (err && errlen)
        snprintf(err, errlen, msg, v);
    return -1;
}

/* Every buffer starts on a cache line: the AVX-512 kernels load 64-byte vectors,
 * and one that straddles two lines costs two accesses (glibc's malloc gives
 * 16-byte alignment; misaligned panels cost the products ~8%). */
static size_t floats_bytes(size_t n) { return n ? (sizeof(float) * n + 63) & ~(size_t)63 : 64; }
static float *alloc_floats(size_t n) { return aligned_alloc(64, floats_bytes(n)); }

static void free_buffers(sl_encoder *e)
{
    free(e->pe);
    free(e->x);
    free(e->h);
    free(e->qkv[0]);
    free(e->qkv[1]);
    free(e->ao);
    free(e->ff);
    free(e->att);
    free(e->pack);
    free(e->kv[0]);
    free(e->kv[1]);
    free(e->logits);
    free(e->wblock);
}

/* in_bias copies rounded to 16 floats, so every packed matrix after them
 * starts on a cache line as well */
static size_t in_bias_floats(int d) { return ((size_t)3 * d + 15) & ~(size_t)15; }

static size_t packed_weight_floats(const sl_model_config *c, int amx)
{
    size_t (*size)(int, int) = amx ? sl_gemm_amx_packed_size : sl_gemm_packed_size;
    const int d = c->d_model, f = c->d_ff;
    return size(d, c->n_features) + size(c->n_classes, d) +
           (size_t)c->n_layers * (size(3 * d, d) + size(d, d) + size(f, d) + size(d, f) +
                                  in_bias_floats(d));
}

/* The floats of every buffer an encoder of window max_T holds: one account for
 * sl_encoder_new, which allocates them, and sl_encoder_memory_bytes. */
typedef struct {
    size_t act;     /* T x d: pe, x, h and ao, each */
    size_t qkv;     /* T x 3d: two of them */
    size_t ff, att, logits;
    int packed;     /* AVX-512 kernels: the buffers below too */
    size_t pack;    /* one thread's packed keys and values */
    int shared_kv;  /* kv: two of n_heads x pack */
    int amx;
    size_t weights; /* the packed weight matrices */
} encoder_plan;

static encoder_plan plan_encoder(const sl_model_config *c, int max_T)
{
    const size_t T = (size_t)max_T, d = (size_t)c->d_model;
    encoder_plan p = {
        .act = T * d,
        .qkv = T * 3 * d,
        .ff = T * (size_t)c->d_ff,
        .att = (sl_attention_scratch(max_T, c->n_heads, 0) + 15) & ~(size_t)15,
        .logits = T * (size_t)c->n_classes,
        .packed = sl_gemm_available(),
    };
    if (p.packed) {
        p.pack = sl_attention_pack_scratch(max_T, c->d_model, c->n_heads);
        p.shared_kv = c->band_left < 0 && c->band_right < 0;
        p.amx = sl_gemm_amx_available();
        p.weights = packed_weight_floats(c, p.amx);
    }
    return p;
}

size_t sl_encoder_memory_bytes(const sl_model *m, int max_T)
{
    const sl_model_config *c = &m->cfg;
    if (max_T < 1 || max_T > c->max_window)
        return 0;
    const encoder_plan p = plan_encoder(c, max_T);
    size_t b = sizeof(sl_encoder) + 4 * floats_bytes(p.act) + 2 * floats_bytes(p.qkv) +
               floats_bytes(p.ff) + floats_bytes(p.att) + floats_bytes(p.logits);
    if (p.packed)
        b += floats_bytes(p.pack) + floats_bytes(p.weights) +
             (p.shared_kv ? 2 * floats_bytes((size_t)c->n_heads * p.pack) : 0);
    return b;
}

/* Packs every weight matrix once (the kernels want panels of 32 output columns).
 * The encoder thus holds a copy of the weights: parameters changed after
 * sl_encoder_new need a new encoder. */
static int pack_weights(sl_encoder *e)
{
    const sl_model_config *c = &e->m->cfg;
    const sl_params *p = &e->m->views;
    const int d = c->d_model, f = c->d_ff;
    size_t (*size)(int, int) = e->amx ? sl_gemm_amx_packed_size : sl_gemm_packed_size;
    void (*pack)(float *, const float *, int, int, int) =
        e->amx ? sl_gemm_amx_pack_nt : sl_gemm_pack_nt;
    const size_t nb = in_bias_floats(d);
    e->wblock = alloc_floats(packed_weight_floats(c, e->amx));
    float *scaled = e->shared_kv ? malloc(sizeof(float) * (size_t)3 * d * d) : NULL;
    if (!e->wblock || (e->shared_kv && !scaled)) {
        free(scaled);
        return -1;
    }
    float *at = e->wblock;
#define PACK(dst, w, N, K)                                                                \
    do {                                                                                  \
        dst = at;                                                                         \
        pack(at, w, K, N, K);                                                             \
        at += size(N, K);                                                                 \
    } while (0)
    PACK(e->pw.input, p->input_weight, d, c->n_features);
    PACK(e->pw.classifier, p->classifier_weight, c->n_classes, d);
    for (int l = 0; l < c->n_layers; l++) {
        const sl_layer_params *L = &p->layers[l];
        packed_layer *P = &e->pw.layers[l];
        if (e->shared_kv) {
            /* queries scaled here instead of every score later: the same bits
             * where 1/sqrt(dk) is a power of two (dk = 4^i), within an ulp
             * of the query otherwise */
            const float qs = (float)(1.0 / sqrt((double)(d / c->n_heads)));
            for (size_t i = 0; i < (size_t)3 * d * d; i++)
                scaled[i] = i < (size_t)d * d ? L->in_proj_weight[i] * qs : L->in_proj_weight[i];
            PACK(P->in_proj, scaled, 3 * d, d);
            if (L->in_proj_bias) {
                P->in_bias = at;
                for (int j = 0; j < 3 * d; j++)
                    at[j] = j < d ? L->in_proj_bias[j] * qs : L->in_proj_bias[j];
            }
        } else {
            PACK(P->in_proj, L->in_proj_weight, 3 * d, d);
        }
        at += nb;
        PACK(P->out_proj, L->out_proj_weight, d, d);
        PACK(P->linear1, L->linear1_weight, f, d);
        PACK(P->linear2, L->linear2_weight, d, f);
    }
#undef PACK
    free(scaled);
    return 0;
}

/* out[n x N] (+)= in[n x K] W^T + b, through the packed weights when there are
 * (bias, and ReLU when relu != 0, applied inside the product). Returns 1 if it
 * applied the ReLU. */
static int linear(const sl_encoder *e, float *out, const float *in, const float *w,
                  const float *packed, const float *b, int n, int K, int N, int accumulate,
                  int relu)
{
    if (!packed) {
        sl_linear_forward(out, in, w, b, n, K, N, accumulate);
        return 0;
    }
    if (e->amx)
        sl_gemm_amx(out, N, in, K, packed, n, N, K, 1.0f, accumulate, b, relu);
    else
        sl_gemm_packed(out, N, in, K, packed, n, N, K, 1.0f, accumulate, b, relu);
    return relu;
}

sl_encoder *sl_encoder_new(const sl_model *m, int max_T, char *err, size_t errlen)
{
    const sl_model_config *c = &m->cfg;
    if (max_T < 1 || max_T > c->max_window) {
        if (err && errlen)
            snprintf(err, errlen, "encoder window %d is outside 1..%d (the model's max_window)",
                     max_T, c->max_window);
        return NULL;
    }
    /* more than there is would be touched below: the OOM killer, not an error */
    const double need = (double)sl_encoder_memory_bytes(m, max_T), have = sl_memory_available();
    if (have >= 0 && need > have) {
        char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
        if (err && errlen)
            snprintf(err, errlen, "an encoder of window %d needs %s, more than the %s of memory "
                     "it may take (a shorter window)", max_T,
                     sl_memory_shown_against(a, need, have),
                     sl_memory_shown_against(b, have, need));
        return NULL;
    }
    sl_encoder *e = calloc(1, sizeof *e);
    if (!e) {
        set_err(err, errlen, "out of memory for an encoder of window %d", max_T);
        return NULL;
    }
    e->m = m;
    e->max_T = max_T;
    e->n_threads = 1;
    const encoder_plan p = plan_encoder(c, max_T);
    e->pe = alloc_floats(p.act);
    e->x = alloc_floats(p.act);
    e->h = alloc_floats(p.act);
    e->qkv[0] = alloc_floats(p.qkv);
    e->qkv[1] = alloc_floats(p.qkv);
    e->ao = alloc_floats(p.act);
    e->ff = alloc_floats(p.ff);
    e->att_stride = p.att;
    e->att = alloc_floats(e->att_stride);
    e->logits = alloc_floats(p.logits);
    int packed = p.packed;
    if (packed) {
        e->pack_stride = p.pack;
        e->pack = alloc_floats(e->pack_stride);
        e->shared_kv = p.shared_kv;
        e->amx = p.amx;
        e->amx_att = e->amx && e->shared_kv && c->d_model / c->n_heads >= 32;
        if (e->shared_kv) {
            size_t kvn = (size_t)c->n_heads * e->pack_stride;
            e->kv[0] = alloc_floats(kvn);
            e->kv[1] = alloc_floats(kvn);
            if (e->kv[0] && e->kv[1]) {
                memset(e->kv[0], 0, sizeof(float) * kvn);
                memset(e->kv[1], 0, sizeof(float) * kvn);
            }
        }
    }
    if (!e->pe || !e->x || !e->h || !e->qkv[0] || !e->qkv[1] || !e->ao || !e->ff || !e->att ||
        !e->logits || (packed && (!e->pack || (e->shared_kv && (!e->kv[0] || !e->kv[1])) ||
                                  pack_weights(e)))) {
        free_buffers(e);
        free(e);
        set_err(err, errlen, "out of memory for an encoder of window %d", max_T);
        return NULL;
    }
    /* Touch every page now (first touch costs microseconds per page here), so the
     * first window runs as fast as the others: bounded latency from the start. */
    memset(e->x, 0, sizeof(float) * p.act);
    memset(e->h, 0, sizeof(float) * p.act);
    memset(e->qkv[0], 0, sizeof(float) * p.qkv);
    memset(e->qkv[1], 0, sizeof(float) * p.qkv);
    memset(e->ao, 0, sizeof(float) * p.act);
    memset(e->ff, 0, sizeof(float) * p.ff);
    memset(e->att, 0, sizeof(float) * e->att_stride);
    memset(e->logits, 0, sizeof(float) * p.logits);
    if (e->pack)
        memset(e->pack, 0, sizeof(float) * e->pack_stride);
    sl_positional_encoding(e->pe, max_T, c->d_model);
    return e;
}

static void stop_pool(sl_encoder *e)
{
    if (!e->pool_ready)
        return;
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    pthread_cond_broadcast(&e->cv_start);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_threads - 1; i++)
        pthread_join(e->workers[i].th, NULL);
    free(e->workers);
    e->workers = NULL;
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv_start);
    pthread_cond_destroy(&e->cv_done);
    pthread_barrier_destroy(&e->layer_barrier);
    e->pool_ready = 0;
    e->stop = 0;
    e->n_threads = 1;
}

void sl_encoder_free(sl_encoder *e)
{
    if (!e)
        return;
    stop_pool(e);
    free_buffers(e);
    free(e);
}

int sl_encoder_max_T(const sl_encoder *e) { return e->max_T; }
int sl_encoder_threads(const sl_encoder *e) { return e->n_threads; }

/* The forward pass over this thread's rows [r0, r1) of the current job. */
static void forward_rows(sl_encoder *e, int tid, int r0, int r1)
{
    const sl_model_config *c = &e->m->cfg;
    const sl_params *p = &e->m->views;
    const int d = c->d_model, f = c->d_ff, nc = c->n_classes, T = e->T;
    const float eps = c->ln_eps;
    const int n = r1 - r0;
    const size_t rd = (size_t)r0 * d;
    float *x = e->x + rd, *h = e->h + rd, *ao = e->ao + rd, *ff = e->ff + (size_t)r0 * f;
    float *att = e->att + (size_t)tid * e->att_stride;
    float *pack = e->pack ? e->pack + (size_t)tid * e->pack_stride : NULL;
    const packed_weights *pw = &e->pw;

    if (n > 0) {
        linear(e, x, e->feats + (size_t)r0 * c->n_features, p->input_weight, pw->input,
               p->input_bias, n, c->n_features, d, 0, 0);
        sl_scale_add_positions(x, e->pe + rd, c->scale_input ? (float)sqrt((double)d) : 1.0f,
                               n, d);
    }
    for (int l = 0; l < c->n_layers; l++) {
        const sl_layer_params *L = &p->layers[l];
        float *qkv = e->qkv[l & 1];
        if (n > 0) {
            const float *src = x;
            if (c->norm_first) {
                sl_layernorm_forward(h, NULL, NULL, x, L->norm1_weight, L->norm1_bias, n, d, eps);
                src = h;
            }
            linear(e, qkv + (size_t)r0 * 3 * d, src, L->in_proj_weight, pw->layers[l].in_proj,
                   e->shared_kv ? pw->layers[l].in_bias : L->in_proj_bias, n, d, 3 * d, 0, 0);
            if (e->shared_kv) /* this thread's share of the packed keys and values */
                sl_attention_pack_rows(e->kv[l & 1], qkv, T, d, c->n_heads, r0, r1, e->amx_att);
        }
        if (e->n_threads > 1)
            pthread_barrier_wait(&e->layer_barrier); /* every row's keys and values ready */
        if (n == 0)
            continue;
        if (e->shared_kv)
            sl_attention_forward_rows_packed(e->ao, att, e->kv[l & 1], qkv, T, d, c->n_heads, r0,
                                             r1, e->amx_att);
        else
            sl_attention_forward_rows(e->ao, att, pack, qkv, T, d, c->n_heads, c->band_left,
                                      c->band_right, r0, r1);
        /* The rest of the layer is row-wise: take it SL_ENCODER_CHUNK rows at a
         * time, so that the chunk's feed-forward activations (chunk x d_ff, the
         * same scratch rows for every chunk) stay in L2 between the two
         * products instead of going to L3 and back (T x d_ff is 2 MB at d_model
         * 256, 512 frames; a chunk of 192 rows, 768 KB). 192 rather than 96: each
         * weight panel is then reused by 24 row tiles per load instead of 12
         * (+1-3% on 512- and 1000-frame windows). Chunks start at multiples of
         * 48 rows, so the bits do not change (see rows_of). */
        for (int c0 = 0, cn; c0 < n; c0 += cn) {
            /* the last chunk takes the rest when it is under 2 chunks: a
             * short tail reuses each weight panel too few times (with chunks
             * of 96: +2-5% on windows of 128 and 256) */
            cn = n - c0 < 2 * SL_ENCODER_CHUNK ? n - c0 : SL_ENCODER_CHUNK;
            float *xc = x + (size_t)c0 * d, *hc = h + (size_t)c0 * d;
            linear(e, xc, ao + (size_t)c0 * d, L->out_proj_weight, pw->layers[l].out_proj,
                   L->out_proj_bias, cn, d, d, 1, 0);
            const float *src = xc;
            if (c->norm_first) {
                sl_layernorm_forward(hc, NULL, NULL, xc, L->norm2_weight, L->norm2_bias, cn, d,
                                     eps);
                src = hc;
            } else {
                sl_layernorm_forward(xc, NULL, NULL, xc, L->norm1_weight, L->norm1_bias, cn, d,
                                     eps);
            }
            const int relu = c->activation == SL_ACT_RELU;
            const int relu_done = linear(e, ff, src, L->linear1_weight, pw->layers[l].linear1,
                                         L->linear1_bias, cn, d, f, 0, relu);
            if (!relu)
                sl_gelu_forward(ff, ff, (size_t)cn * f);
            else if (!relu_done)
                sl_relu_forward(ff, ff, (size_t)cn * f);
            linear(e, xc, ff, L->linear2_weight, pw->layers[l].linear2, L->linear2_bias, cn, f, d, 1,
                   0);
            if (!c->norm_first)
                sl_layernorm_forward(xc, NULL, NULL, xc, L->norm2_weight, L->norm2_bias, cn, d,
                                     eps);
        }
    }
    if (n == 0)
        return;
    if (c->norm_first)
        sl_layernorm_forward(x, NULL, NULL, x, p->final_norm_weight, p->final_norm_bias, n, d,
                             eps);
    float *out = (e->out_logits ? e->out_logits : e->logits) + (size_t)r0 * nc;
    linear(e, out, x, p->classifier_weight, pw->classifier, p->classifier_bias, n, d, nc, 0, 0);
    if (e->out_probs) {
        float *probs = e->out_probs + (size_t)r0 * nc;
        for (size_t i = 0; i < (size_t)n * nc; i++)
            probs[i] = out[i];
        sl_softmax_rows(probs, n, nc);
    }
}

/* Thread tid's rows: whole attention blocks, as evenly as they divide. With
 * shared packed keys (AVX-512 or AMX path, whole-window attention) every row's result
 * is the same bits whatever rows a thread has, and threads pack whole panels
 * of keys: rows go in multiples of SL_GEMM_PANEL instead (1000 frames on two
 * threads: 512 + 488 rows instead of 480 + 520). */
static void rows_of(const sl_encoder *e, int tid, int *r0, int *r1)
{
    const int unit = e->shared_kv ? SL_GEMM_PANEL : SL_ATTN_BLOCK;
    int blocks = (e->T + unit - 1) / unit;
    int b0 = (int)((long)blocks * tid / e->n_threads);
    int b1 = (int)((long)blocks * (tid + 1) / e->n_threads);
    *r0 = b0 * unit < e->T ? b0 * unit : e->T;
    *r1 = b1 * unit < e->T ? b1 * unit : e->T;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    sl_encoder *e = w->e;
    unsigned seen = 0;
    for (;;) {
        pthread_mutex_lock(&e->mu);
        while (!e->stop && e->generation == seen)
            pthread_cond_wait(&e->cv_start, &e->mu);
        if (e->stop) {
            pthread_mutex_unlock(&e->mu);
            return NULL;
        }
        seen = e->generation;
        pthread_mutex_unlock(&e->mu);
        int r0, r1;
        rows_of(e, w->id, &r0, &r1);
        forward_rows(e, w->id, r0, r1);
        pthread_mutex_lock(&e->mu);
        if (--e->pending == 0)
            pthread_cond_signal(&e->cv_done);
        pthread_mutex_unlock(&e->mu);
    }
}

int sl_encoder_set_threads(sl_encoder *e, int n_threads, char *err, size_t errlen)
{
    if (n_threads < 1 || n_threads > SL_MAX_THREADS)
        return sl_fail(err, errlen, "encoder threads %d is outside 1..%d", n_threads,
                       SL_MAX_THREADS);
    if (n_threads == e->n_threads)
        return 0;
    stop_pool(e);
    if (n_threads == 1)
        return 0;
    /* per-thread scratch, each thread's part on a cache line (the strides are
     * multiples of 16 floats); the contents need not survive */
    const double more = (double)sizeof(float) * (n_threads - 1) *
                        ((double)e->att_stride + (e->pack ? (double)e->pack_stride : 0)),
                 have = sl_memory_available();
    if (have >= 0 && more > have) {
        char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
        if (err && errlen)
            snprintf(err, errlen, "%d encoder threads need %s more, more than the %s of memory "
                     "it may take", n_threads, sl_memory_shown_against(a, more, have),
                     sl_memory_shown_against(b, have, more));
        return -1;
    }
    float *att = alloc_floats(e->att_stride * (size_t)n_threads);
    if (!att)
        return set_err(err, errlen, "out of memory for %d encoder threads", n_threads);
    free(e->att);
    e->att = att;
    memset(att, 0, sizeof(float) * e->att_stride * (size_t)n_threads);
    if (e->pack) {
        float *pack = alloc_floats(e->pack_stride * (size_t)n_threads);
        if (!pack)
            return set_err(err, errlen, "out of memory for %d encoder threads", n_threads);
        free(e->pack);
        e->pack = pack;
        memset(pack, 0, sizeof(float) * e->pack_stride * (size_t)n_threads);
    }
    e->workers = calloc((size_t)n_threads - 1, sizeof *e->workers);
    if (!e->workers)
        return set_err(err, errlen, "out of memory for %d encoder threads", n_threads);
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv_start, NULL);
    pthread_cond_init(&e->cv_done, NULL);
    pthread_barrier_init(&e->layer_barrier, NULL, (unsigned)n_threads);
    e->generation = 0;
    e->pool_ready = 1;
    int started = 0;
    for (; started < n_threads - 1; started++) {
        e->workers[started].e = e;
        e->workers[started].id = started + 1;
        if (pthread_create(&e->workers[started].th, NULL, worker_main, &e->workers[started]))
            break;
    }
    e->n_threads = started + 1;
    if (started < n_threads - 1) {
        stop_pool(e);
        return set_err(err, errlen, "cannot start encoder thread %d", started + 1);
    }
    return 0;
}

int sl_encoder_forward(sl_encoder *e, const float *feats, int T, float *logits, float *probs)
{
    if (T < 1 || T > e->max_T || (!logits && !probs))
        return -1;
    e->feats = feats;
    e->T = T;
    e->out_logits = logits;
    e->out_probs = probs;
    if (e->n_threads == 1) {
        forward_rows(e, 0, 0, T);
        return 0;
    }
    pthread_mutex_lock(&e->mu);
    e->pending = e->n_threads - 1;
    e->generation++;
    pthread_cond_broadcast(&e->cv_start);
    pthread_mutex_unlock(&e->mu);
    int r0, r1;
    rows_of(e, 0, &r0, &r1);
    forward_rows(e, 0, r0, r1);
    pthread_mutex_lock(&e->mu);
    while (e->pending > 0)
        pthread_cond_wait(&e->cv_done, &e->mu);
    pthread_mutex_unlock(&e->mu);
    return 0;
}

double sl_encoder_flops(const sl_model_config *c, int T)
{
    /* Multiply-adds count 2; attention counts only the keys it computes. */
    double d = c->d_model, f = c->d_ff, t = T;
    double keys = 0;
    for (int r0 = 0; r0 < T; r0 += SL_ATTN_BLOCK) {
        int r1 = r0 + SL_ATTN_BLOCK < T ? r0 + SL_ATTN_BLOCK : T, k0, k1;
        sl_attention_key_range(r0, r1, T, c->band_left, c->band_right, &k0, &k1);
        keys += (double)(r1 - r0) * (k1 - k0);
    }
    double per_layer = 2 * t * d * 3 * d + 2 * 2 * keys * d + 2 * t * d * d + 2 * 2 * t * d * f;
    return 2 * t * c->n_features * d + c->n_layers * per_layer + 2 * t * d * c->n_classes;
}
