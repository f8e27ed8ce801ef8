/* One training step over a batch of B windows of T frames: the encoder forward
 * of encoder.c (same layer functions, so training and inference compute the
 * same function) saving what the backward needs, the weighted cross-entropy,
 * and the backward through every layer into a gradient block laid out like the
 * parameter block.
 *
 * The B windows are stacked as B*T rows for every row-wise step (projections,
 * LayerNorm, feed-forward, classifier), so each linear layer is one sgemm over
 * the whole batch; attention runs per window (positions restart at 0 in each).
 * Every buffer is allocated once for max_B x max_T in sl_train_step_new.
 *
 * Threads (sl_train_step_set_threads) split the batch by windows: thread t
 * runs forward, loss and backward over its own windows, which are its own rows
 * of every activation buffer, into its own gradient block; one barrier, then
 * each thread sums a slice of the parameter range over the blocks in thread
 * order. The loss of each thread's rows is normalised by the whole batch's
 * weight sum (known from the labels alone), so partial losses and gradients
 * simply add up. */
#include "model/train_step.h"
#include "common/memory.h"

#include "model/layers.h"
#include "model/layers_backward.h"
#include "model/model_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one encoder layer's forward saves. Post-norm (norm_first 0):
 *   qkv = in Wqkv; r1 = in + attn Wo; h1 = LN1(r1); ff = act(h1 W1);
 *   r2 = h1 + ff W2; out = LN2(r2).
 * Pre-norm:
 *   h1 = LN1(in); qkv = h1 Wqkv; r1 = in + attn Wo; h2 = LN2(r1);
 *   ff = act(h2 W1); out = r1 + ff W2.
 * `hr` holds r2 (post) or h2 (pre). */

typedef struct {
    float *in;     /* N x d: the layer's input (the previous layer's out) */
    float *h1;     /* N x d */
    float *qkv;    /* N x 3d */
    float *probs;  /* B x H x T x T attention probabilities */
    float *ao;     /* N x d attention output before out_proj */
    float *r1;     /* N x d */
    float *hr;     /* N x d */
    float *ffpre;  /* N x d_ff before the activation */
    float *ffact;  /* N x d_ff after it */
    float *mean1, *rstd1, *mean2, *rstd2; /* N each */
} layer_acts;

typedef struct {
    struct sl_train_step *s;
    int id;
    pthread_t th;
} worker;

struct sl_train_step {
    sl_model_config cfg;
    int max_B, max_T;
    float *pe;            /* max_T x d */
    layer_acts *L;        /* n_layers */
    float *out;           /* N x d: the last layer's output */
    float *fin;           /* N x d: final LayerNorm output (pre-norm) */
    float *fmean, *frstd; /* N */
    float *logits;        /* N x n_classes */
    float *dlogits;       /* N x n_classes */
    /* backward scratch, reused by every layer (rows split between threads) */
    float *dx;            /* N x d: gradient of the current layer's output */
    float *dh;            /* N x d */
    float *dqkv;          /* N x 3d */
    float *dff;           /* N x d_ff */
    float *dS;            /* T x T per thread, dS_stride floats each */
    size_t dS_stride;
    float *dS_threads;    /* n_threads x dS_stride when threads are set (else dS is in block) */
    void *block;          /* the one allocation all of the above live in */

    /* thread pool: n_threads - 1 workers, the caller is thread 0 */
    int n_threads;
    worker *workers;
    float *tgrads;        /* (n_threads - 1) x n_params gradient blocks */
    size_t n_params;
    double part_loss[SL_MAX_THREADS];
    int has_rows[SL_MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t cv_start, cv_done;
    pthread_barrier_t barrier;
    int pool_ready, pending, stop;
    unsigned generation;
    /* the current job */
    const sl_model *m;
    const float *x;
    const int32_t *labels;
    const float *weights;
    const float *soft; /* B x T x n_classes soft targets, or NULL */
    float soft_weight;
    double total_weight;
    int B, T;
    float *grads;
};

sl_train_step *sl_train_step_new(const sl_model *m, int max_B, int max_T, char *err, size_t errlen)
{
    const sl_model_config *c = &m->cfg;
    if (max_B < 1 || max_T < 1 || max_T > c->max_window) {
        if (err && errlen)
            snprintf(err, errlen,
                     "training batch %d x %d is invalid (1 or more windows of 1..%d frames)",
                     max_B, max_T, c->max_window);
        return NULL;
    }
    sl_train_step *s = calloc(1, sizeof *s);
    layer_acts *L = calloc((size_t)(c->n_layers > 0 ? c->n_layers : 1), sizeof *L);
    if (!s || !L) {
        free(s);
        free(L);
        if (err && errlen)
            snprintf(err, errlen, "out of memory for a training step");
        return NULL;
    }
    s->cfg = *c;
    s->max_B = max_B;
    s->max_T = max_T;
    s->L = L;
    s->n_threads = 1;
    s->n_params = m->n_params;

    const size_t N = (size_t)max_B * max_T, d = (size_t)c->d_model, f = (size_t)c->d_ff;
    const size_t nc = (size_t)c->n_classes, H = (size_t)c->n_heads, T = (size_t)max_T;
    /* Two passes over the same list: count the floats, then carve them out of
     * one allocation (each piece rounded to 16 floats, 64-byte aligned). */
    float *base = NULL;
    size_t used = 0;
    for (int pass = 0; pass < 2; pass++) {
        used = 0;
#define CARVE(ptr, count)                                                                     \
    do {                                                                                       \
        size_t n_ = ((size_t)(count) + 15) & ~(size_t)15;                                     \
        (ptr) = base ? base + used : NULL;                                                     \
        used += n_;                                                                            \
    } while (0)
        CARVE(s->pe, T * d);
        for (int l = 0; l < c->n_layers; l++) {
            CARVE(L[l].in, N * d);
            CARVE(L[l].h1, N * d);
            CARVE(L[l].qkv, N * 3 * d);
            CARVE(L[l].probs, (size_t)max_B * sl_attention_scratch(max_T, c->n_heads, 1));
            CARVE(L[l].ao, N * d);
            CARVE(L[l].r1, N * d);
            CARVE(L[l].hr, N * d);
            CARVE(L[l].ffpre, N * f);
            CARVE(L[l].ffact, N * f);
            CARVE(L[l].mean1, N);
            CARVE(L[l].rstd1, N);
            CARVE(L[l].mean2, N);
            CARVE(L[l].rstd2, N);
        }
        CARVE(s->out, N * d);
        CARVE(s->fin, N * d);
        CARVE(s->fmean, N);
        CARVE(s->frstd, N);
        CARVE(s->logits, N * nc);
        CARVE(s->dlogits, N * nc);
        CARVE(s->dx, N * d);
        CARVE(s->dh, N * d);
        CARVE(s->dqkv, N * 3 * d);
        CARVE(s->dff, N * f);
        s->dS_stride = (sl_attention_backward_scratch(max_T) + 15) & ~(size_t)15;
        CARVE(s->dS, s->dS_stride);
#undef CARVE
        (void)H;
        if (pass == 0) {
            /* more than there is would be touched below: the OOM killer, not
             * an error (common/memory.h) */
            const double have = sl_memory_available(), bytes = (double)used * sizeof(float);
            if (have >= 0 && bytes > have) {
                char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
                if (err && errlen)
                    snprintf(err, errlen,
                             "a training step of %d windows x %d frames needs %s of "
                             "activations, more than the %s of memory it may "
                             "take (a smaller --batch or --window)", max_B, max_T,
                             sl_memory_shown_against(a, bytes, have),
                             sl_memory_shown_against(b, have, bytes));
                free(L);
                free(s);
                return NULL;
            }
            if (used > SIZE_MAX / sizeof(float) / 2 ||
                posix_memalign(&s->block, 64, used * sizeof(float))) {
                if (err && errlen)
                    snprintf(err, errlen,
                             "out of memory for a training step of %d windows x %d frames "
                             "(%.0f MB of activations)",
                             max_B, max_T, (double)used * sizeof(float) / 1e6);
                free(L);
                free(s);
                return NULL;
            }
            base = s->block;
            /* touch every page now, not in the first step (first touch of
             * fresh memory costs microseconds per page here) */
            memset(base, 0, used * sizeof(float));
        }
    }
    sl_positional_encoding(s->pe, max_T, c->d_model);
    return s;
}

static void stop_pool(sl_train_step *s)
{
    if (!s->pool_ready)
        return;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv_start);
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < s->n_threads - 1; i++)
        pthread_join(s->workers[i].th, NULL);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv_start);
    pthread_cond_destroy(&s->cv_done);
    pthread_barrier_destroy(&s->barrier);
    s->pool_ready = 0;
    s->stop = 0;
    s->n_threads = 1;
}

void sl_train_step_free(sl_train_step *s)
{
    if (!s)
        return;
    stop_pool(s);
    free(s->workers);
    free(s->tgrads);
    free(s->dS_threads);
    free(s->block);
    free(s->L);
    free(s);
}

/* dst = src (n floats) */
static void copy(float *dst, const float *src, size_t n) { memcpy(dst, src, sizeof(float) * n); }

/* Rows of buffer `buf` (row width w) starting at row r0. */
#define ROWS(buf, r0, w) ((buf) + (size_t)(r0) * (size_t)(w))

/* Forward over windows [b0, b0 + B) of the batch (rows b0*T ..), saving activations. */
static void forward(sl_train_step *s, const sl_params *p, const float *xb, int b0, int B, int T)
{
    const sl_model_config *c = &s->cfg;
    const int d = c->d_model, f = c->d_ff, H = c->n_heads, N = B * T, r0 = b0 * T;
    const float eps = c->ln_eps;
    const size_t Nd = (size_t)N * d, win_probs = sl_attention_scratch(T, H, 1);
    const float scale = c->scale_input ? (float)sqrt((double)d) : 1.0f;
    const float *x = ROWS(xb, r0, c->n_features);
    float *x0 = ROWS(c->n_layers > 0 ? s->L[0].in : s->out, r0, d);

    sl_linear_forward(x0, x, p->input_weight, p->input_bias, N, c->n_features, d, 0);
    for (int b = 0; b < B; b++)
        sl_scale_add_positions(x0 + (size_t)b * T * d, s->pe, scale, T, d);

    for (int l = 0; l < c->n_layers; l++) {
        const sl_layer_params *P = &p->layers[l];
        const layer_acts *S = &s->L[l];
        /* this thread's rows of the layer's buffers */
        layer_acts A = {ROWS(S->in, r0, d), ROWS(S->h1, r0, d), ROWS(S->qkv, r0, 3 * d),
                        S->probs + (size_t)b0 * win_probs, ROWS(S->ao, r0, d), ROWS(S->r1, r0, d),
                        ROWS(S->hr, r0, d), ROWS(S->ffpre, r0, f), ROWS(S->ffact, r0, f),
                        S->mean1 + r0, S->rstd1 + r0, S->mean2 + r0, S->rstd2 + r0};
        float *out = ROWS(l + 1 < c->n_layers ? s->L[l + 1].in : s->out, r0, d);
        const float *src = A.in;
        if (c->norm_first) {
            sl_layernorm_forward(A.h1, A.mean1, A.rstd1, A.in, P->norm1_weight, P->norm1_bias, N,
                                 d, eps);
            src = A.h1;
        }
        sl_linear_forward(A.qkv, src, P->in_proj_weight, P->in_proj_bias, N, d, 3 * d, 0);
        for (int b = 0; b < B; b++)
            sl_attention_forward(A.ao + (size_t)b * T * d, A.probs + (size_t)b * win_probs, 1,
                                 A.qkv + (size_t)b * T * 3 * d, T, d, H, c->band_left,
                                 c->band_right);
        copy(A.r1, A.in, Nd);
        sl_linear_forward(A.r1, A.ao, P->out_proj_weight, P->out_proj_bias, N, d, d, 1);
        const float *ffin;
        if (c->norm_first) {
            sl_layernorm_forward(A.hr, A.mean2, A.rstd2, A.r1, P->norm2_weight, P->norm2_bias, N,
                                 d, eps);
            ffin = A.hr;
        } else {
            sl_layernorm_forward(A.h1, A.mean1, A.rstd1, A.r1, P->norm1_weight, P->norm1_bias, N,
                                 d, eps);
            ffin = A.h1;
        }
        sl_linear_forward(A.ffpre, ffin, P->linear1_weight, P->linear1_bias, N, d, f, 0);
        if (c->activation == SL_ACT_GELU)
            sl_gelu_forward(A.ffact, A.ffpre, (size_t)N * f);
        else
            sl_relu_forward(A.ffact, A.ffpre, (size_t)N * f);
        if (c->norm_first) {
            copy(out, A.r1, Nd);
            sl_linear_forward(out, A.ffact, P->linear2_weight, P->linear2_bias, N, f, d, 1);
        } else {
            copy(A.hr, A.h1, Nd);
            sl_linear_forward(A.hr, A.ffact, P->linear2_weight, P->linear2_bias, N, f, d, 1);
            sl_layernorm_forward(out, A.mean2, A.rstd2, A.hr, P->norm2_weight, P->norm2_bias, N,
                                 d, eps);
        }
    }
    const float *last = ROWS(s->out, r0, d);
    if (c->norm_first) {
        sl_layernorm_forward(ROWS(s->fin, r0, d), s->fmean + r0, s->frstd + r0, last,
                             p->final_norm_weight, p->final_norm_bias, N, d, eps);
        last = ROWS(s->fin, r0, d);
    }
    sl_linear_forward(ROWS(s->logits, r0, c->n_classes), last, p->classifier_weight,
                      p->classifier_bias, N, d, c->n_classes, 0);
}

/* Backward over windows [b0, b0 + B) into the gradient views g (overwritten). */
static void backward(sl_train_step *s, const sl_params *p, const sl_params *g, const float *xb,
                     int b0, int B, int T, float *dS)
{
    const sl_model_config *c = &s->cfg;
    const int d = c->d_model, f = c->d_ff, H = c->n_heads, N = B * T, r0 = b0 * T;
    const size_t win_probs = sl_attention_scratch(T, H, 1);
    float *dx = ROWS(s->dx, r0, d), *dh = ROWS(s->dh, r0, d), *dqkv = ROWS(s->dqkv, r0, 3 * d);
    float *dff = ROWS(s->dff, r0, f);
    const float *out = ROWS(s->out, r0, d);

    /* classifier (and the final LayerNorm of pre-norm) */
    const float *last = c->norm_first ? ROWS(s->fin, r0, d) : out;
    sl_linear_backward(dx, g->classifier_weight, g->classifier_bias,
                       ROWS(s->dlogits, r0, c->n_classes), last, p->classifier_weight, N, d,
                       c->n_classes, 0);
    if (c->norm_first)
        sl_layernorm_backward(dx, g->final_norm_weight, g->final_norm_bias, dx, out,
                              s->fmean + r0, s->frstd + r0, p->final_norm_weight, N, d, 0);

    /* dx: gradient of the current layer's output, becomes that of its input */
    for (int l = c->n_layers - 1; l >= 0; l--) {
        const sl_layer_params *P = &p->layers[l];
        const sl_layer_params *G = &g->layers[l];
        const layer_acts *S = &s->L[l];
        layer_acts A = {ROWS(S->in, r0, d), ROWS(S->h1, r0, d), ROWS(S->qkv, r0, 3 * d),
                        S->probs + (size_t)b0 * win_probs, ROWS(S->ao, r0, d), ROWS(S->r1, r0, d),
                        ROWS(S->hr, r0, d), ROWS(S->ffpre, r0, f), ROWS(S->ffact, r0, f),
                        S->mean1 + r0, S->rstd1 + r0, S->mean2 + r0, S->rstd2 + r0};
        const float *ffin;
        if (c->norm_first) {
            /* out = r1 + act(h2 W1) W2: dx is also d r1 */
            ffin = A.hr;
        } else {
            /* out = LN2(r2), r2 = h1 + ff W2: dx becomes d r2 (= part of d h1) */
            sl_layernorm_backward(dx, G->norm2_weight, G->norm2_bias, dx, A.hr, A.mean2, A.rstd2,
                                  P->norm2_weight, N, d, 0);
            ffin = A.h1;
        }
        sl_linear_backward(dff, G->linear2_weight, G->linear2_bias, dx, A.ffact,
                           P->linear2_weight, N, f, d, 0);
        if (c->activation == SL_ACT_GELU)
            sl_gelu_backward(dff, dff, A.ffpre, (size_t)N * f);
        else
            sl_relu_backward(dff, dff, A.ffpre, (size_t)N * f);
        if (c->norm_first) {
            /* dh = d h2; dx += LN2 backward = d r1 */
            sl_linear_backward(dh, G->linear1_weight, G->linear1_bias, dff, ffin,
                               P->linear1_weight, N, d, f, 0);
            sl_layernorm_backward(dx, G->norm2_weight, G->norm2_bias, dh, A.r1, A.mean2, A.rstd2,
                                  P->norm2_weight, N, d, 1);
        } else {
            /* d h1 = d r2 + dff W1, then through LN1 into d r1 */
            sl_linear_backward(dx, G->linear1_weight, G->linear1_bias, dff, ffin,
                               P->linear1_weight, N, d, f, 1);
            sl_layernorm_backward(dx, G->norm1_weight, G->norm1_bias, dx, A.r1, A.mean1, A.rstd1,
                                  P->norm1_weight, N, d, 0);
        }
        /* dx = d r1 = d in (skip path) + attention branch */
        sl_linear_backward(dh, G->out_proj_weight, G->out_proj_bias, dx, A.ao,
                           P->out_proj_weight, N, d, d, 0);
        for (int b = 0; b < B; b++)
            sl_attention_backward(dqkv + (size_t)b * T * 3 * d, dS, dh + (size_t)b * T * d,
                                  A.qkv + (size_t)b * T * 3 * d, A.probs + (size_t)b * win_probs,
                                  T, d, H, c->band_left, c->band_right);
        if (c->norm_first) {
            sl_linear_backward(dh, G->in_proj_weight, G->in_proj_bias, dqkv, A.h1,
                               P->in_proj_weight, N, d, 3 * d, 0);
            sl_layernorm_backward(dx, G->norm1_weight, G->norm1_bias, dh, A.in, A.mean1, A.rstd1,
                                  P->norm1_weight, N, d, 1);
        } else {
            sl_linear_backward(dx, G->in_proj_weight, G->in_proj_bias, dqkv, A.in,
                               P->in_proj_weight, N, d, 3 * d, 1);
        }
    }
    /* positions are constants; the input scaling scales the gradient */
    const float scale = c->scale_input ? (float)sqrt((double)d) : 1.0f;
    sl_scale_add_positions_backward(dx, dx, scale, (size_t)N * d);
    sl_linear_backward(NULL, g->input_weight, g->input_bias, dx, ROWS(xb, r0, c->n_features),
                       p->input_weight, N, c->n_features, d, 0);
}

/* Thread tid's windows of the current job. */
static void windows_of(const sl_train_step *s, int tid, int *b0, int *b1)
{
    *b0 = (int)((long)s->B * tid / s->n_threads);
    *b1 = (int)((long)s->B * (tid + 1) / s->n_threads);
}

/* One thread's share of a step: forward, loss, backward of its windows, then
 * (after every thread's backward) its slice of the gradient sum. */
static void run_share(sl_train_step *s, int tid)
{
    const sl_model *m = s->m;
    const int T = s->T, nc = s->cfg.n_classes;
    int b0, b1;
    windows_of(s, tid, &b0, &b1);
    float *gblock = tid == 0 ? s->grads : s->tgrads + (size_t)(tid - 1) * s->n_params;
    s->has_rows[tid] = b1 > b0;
    s->part_loss[tid] = 0.0;
    if (b1 > b0) {
        sl_params g;
        sl_params_bind(&m->cfg, gblock, &g);
        forward(s, &m->views, s->x, b0, b1 - b0, T);
        const size_t r0 = (size_t)b0 * T;
        s->part_loss[tid] = sl_soft_cross_entropy_forward_backward(
            s->dlogits + r0 * nc, s->logits + r0 * nc, s->labels + r0, s->weights,
            s->soft ? s->soft + r0 * nc : NULL, s->soft_weight, (b1 - b0) * T, nc,
            s->total_weight, NULL);
        backward(s, &m->views, &g, s->x, b0, b1 - b0, T, s->dS + (size_t)tid * s->dS_stride);
    }
    if (s->n_threads == 1)
        return;
    pthread_barrier_wait(&s->barrier);
    /* grads[i] = sum over threads with rows, in thread order */
    size_t i0 = s->n_params * (size_t)tid / (size_t)s->n_threads;
    size_t i1 = s->n_params * (size_t)(tid + 1) / (size_t)s->n_threads;
    float *dst = s->grads;
    if (!s->has_rows[0])
        memset(dst + i0, 0, sizeof(float) * (i1 - i0));
    for (int t = 1; t < s->n_threads; t++) {
        if (!s->has_rows[t])
            continue;
        const float *src = s->tgrads + (size_t)(t - 1) * s->n_params;
        for (size_t i = i0; i < i1; i++)
            dst[i] += src[i];
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    sl_train_step *s = w->s;
    unsigned seen = 0;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (!s->stop && s->generation == seen)
            pthread_cond_wait(&s->cv_start, &s->mu);
        if (s->stop) {
            pthread_mutex_unlock(&s->mu);
            return NULL;
        }
        seen = s->generation;
        pthread_mutex_unlock(&s->mu);
        run_share(s, w->id);
        pthread_mutex_lock(&s->mu);
        if (--s->pending == 0)
            pthread_cond_signal(&s->cv_done);
        pthread_mutex_unlock(&s->mu);
    }
}

int sl_train_step_set_threads(sl_train_step *s, int n_threads, char *err, size_t errlen)
{
    if (n_threads < 1 || n_threads > SL_MAX_THREADS) {
        if (err && errlen)
            snprintf(err, errlen, "training threads %d is outside 1..%d", n_threads,
                     SL_MAX_THREADS);
        return -1;
    }
    if (n_threads == s->n_threads)
        return 0;
    stop_pool(s);
    free(s->workers);
    free(s->tgrads);
    s->workers = NULL;
    s->tgrads = NULL;
    if (n_threads == 1)
        return 0;
    s->workers = calloc((size_t)n_threads - 1, sizeof *s->workers);
    s->tgrads = malloc(sizeof(float) * s->n_params * (size_t)(n_threads - 1));
    size_t dS_total = s->dS_stride * (size_t)n_threads;
    /* the per-thread score-gradient scratch: thread 0's lives in the block */
    float *dS = malloc(sizeof(float) * dS_total);
    if (!s->workers || !s->tgrads || !dS) {
        free(dS);
        free(s->workers);
        free(s->tgrads);
        s->workers = NULL;
        s->tgrads = NULL;
        if (err && errlen)
            snprintf(err, errlen, "out of memory for %d training threads", n_threads);
        return -1;
    }
    memset(s->tgrads, 0, sizeof(float) * s->n_params * (size_t)(n_threads - 1));
    memset(dS, 0, sizeof(float) * dS_total);
    free(s->dS_threads);
    s->dS_threads = dS;
    s->dS = dS;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv_start, NULL);
    pthread_cond_init(&s->cv_done, NULL);
    pthread_barrier_init(&s->barrier, NULL, (unsigned)n_threads);
    s->generation = 0;
    s->pool_ready = 1;
    int started = 0;
    for (; started < n_threads - 1; started++) {
        s->workers[started].s = s;
        s->workers[started].id = started + 1;
        if (pthread_create(&s->workers[started].th, NULL, worker_main, &s->workers[started]))
            break;
    }
    s->n_threads = started + 1;
    if (started < n_threads - 1) {
        stop_pool(s);
        if (err && errlen)
            snprintf(err, errlen, "cannot start training thread %d", started + 1);
        return -1;
    }
    return 0;
}

int sl_train_step_threads(const sl_train_step *s) { return s->n_threads; }

void sl_train_step_set_soft_targets(sl_train_step *s, const float *soft, float weight)
{
    s->soft = soft;
    s->soft_weight = weight;
}

float sl_train_step_run(sl_train_step *s, const sl_model *m, const float *x, const int32_t *labels,
                        const float *class_weights, int B, int T, float *grads, float *logits_out,
                        int64_t *n_counted)
{
    if (B < 1 || B > s->max_B || T < 1 || T > s->max_T) {
        if (n_counted)
            *n_counted = 0;
        return 0.0f;
    }
    const int N = B * T, nc = s->cfg.n_classes;
    s->m = m;
    s->x = x;
    s->labels = labels;
    s->weights = class_weights;
    s->B = B;
    s->T = T;
    s->grads = grads;
    s->total_weight = sl_cross_entropy_total_weight(labels, class_weights, N, nc, n_counted);
    if (s->n_threads == 1) {
        run_share(s, 0);
    } else {
        pthread_mutex_lock(&s->mu);
        s->pending = s->n_threads - 1;
        s->generation++;
        pthread_cond_broadcast(&s->cv_start);
        pthread_mutex_unlock(&s->mu);
        run_share(s, 0);
        pthread_mutex_lock(&s->mu);
        while (s->pending > 0)
            pthread_cond_wait(&s->cv_done, &s->mu);
        pthread_mutex_unlock(&s->mu);
    }
    if (logits_out)
        copy(logits_out, s->logits, (size_t)N * nc);
    double loss = 0.0;
    for (int t = 0; t < s->n_threads; t++)
        loss += s->part_loss[t];
    return (float)loss;
}
