#include "labeler_test_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t next_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 11;
}

static double uniform(uint64_t *s)
{
    return (double)next_rand(s) / (double)(1ULL << 53);
}

sl_model *tu_make_model(uint64_t seed, int window, int left, int lookahead)
{
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    fc.num_mel_bins = 23;
    sl_model_config mc;
    sl_model_config_default(&mc);
    mc.n_features = sl_feature_dim(&fc);
    mc.d_model = 16;
    mc.n_heads = 2;
    mc.n_layers = 2;
    mc.d_ff = 32;
    mc.n_classes = 3;
    mc.max_window = 64;
    mc.stream_window = window;
    mc.stream_left = left;
    mc.stream_lookahead = lookahead;
    float mean[64], inv_std[64];
    uint64_t s = seed;
    for (int i = 0; i < mc.n_features; i++) {
        mean[i] = (float)(8.0 + 4.0 * uniform(&s));
        inv_std[i] = (float)(0.2 + 0.2 * uniform(&s));
    }
    const char *names[] = {"silence", "speech", "music"};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&mc, &fc, mean, inv_std, names, err, sizeof err);
    if (!m)
        fail_msg("model: %s", err);
    sl_model_init_params(m, seed);
    return m;
}

float *tu_make_signal(int64_t n, uint64_t seed)
{
    float *x = malloc((size_t)n * sizeof *x);
    assert_non_null(x);
    uint64_t s = seed;
    double amp = 0.1, smooth = 0.0, prev = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (i % 4801 == 0) {
            amp = 0.001 + 0.5 * uniform(&s) * uniform(&s);
            smooth = 0.95 * uniform(&s); /* low-pass amount: changes the spectrum */
        }
        double v = (uniform(&s) * 2.0 - 1.0) * amp;
        prev = smooth * prev + (1.0 - smooth) * v;
        x[i] = (float)prev;
    }
    return x;
}

void tu_record_init(tu_record *r, int64_t cap, int K)
{
    memset(r, 0, sizeof *r);
    r->cap = cap;
    r->K = K;
    r->index = malloc((size_t)cap * sizeof *r->index);
    r->label = malloc((size_t)cap * sizeof *r->label);
    r->conf = malloc((size_t)cap * sizeof *r->conf);
    r->probs = malloc((size_t)cap * K * sizeof *r->probs);
    r->emitted_at = malloc((size_t)cap * sizeof *r->emitted_at);
    r->seg_start = malloc((size_t)cap * sizeof *r->seg_start);
    r->seg_end = malloc((size_t)cap * sizeof *r->seg_end);
    r->seg_label = malloc((size_t)cap * sizeof *r->seg_label);
}

void tu_record_clear(tu_record *r)
{
    r->n = 0;
    r->nseg = 0;
    r->samples = 0;
}

void tu_record_free(tu_record *r)
{
    free(r->index);
    free(r->label);
    free(r->conf);
    free(r->probs);
    free(r->emitted_at);
    free(r->seg_start);
    free(r->seg_end);
    free(r->seg_label);
}

static int rec_frame(void *user, int64_t index, int label, float confidence, const float *probs,
                     int n_classes)
{
    tu_record *r = user;
    assert_true(r->n < r->cap);
    assert_int_equal(n_classes, r->K);
    r->index[r->n] = index;
    r->label[r->n] = label;
    r->conf[r->n] = confidence;
    memcpy(r->probs + (size_t)r->n * r->K, probs, (size_t)r->K * sizeof(float));
    r->emitted_at[r->n] = r->samples;
    r->n++;
    return 0;
}

static int rec_segment(void *user, int64_t start, int64_t end, int label, float mean_confidence)
{
    tu_record *r = user;
    (void)mean_confidence;
    assert_true(r->nseg < r->cap);
    r->seg_start[r->nseg] = start;
    r->seg_end[r->nseg] = end;
    r->seg_label[r->nseg] = label;
    r->nseg++;
    return 0;
}

sl_label_sink tu_record_sink(tu_record *r)
{
    sl_label_sink s = {r, rec_frame, rec_segment};
    return s;
}

void tu_record_assert_equal(const tu_record *a, const tu_record *b)
{
    assert_int_equal(a->n, b->n);
    for (int64_t i = 0; i < a->n; i++) {
        assert_int_equal(a->index[i], b->index[i]);
        if (a->label[i] != b->label[i])
            fail_msg("frame %lld: label %d vs %d", (long long)i, a->label[i], b->label[i]);
    }
    if (memcmp(a->probs, b->probs, (size_t)a->n * a->K * sizeof(float)) != 0)
        fail_msg("probabilities differ");
    assert_int_equal(a->nseg, b->nseg);
    for (int64_t s = 0; s < a->nseg; s++) {
        assert_int_equal(a->seg_start[s], b->seg_start[s]);
        assert_int_equal(a->seg_end[s], b->seg_end[s]);
        assert_int_equal(a->seg_label[s], b->seg_label[s]);
    }
}
