/* The streaming labeler: same labels whatever the push sizes and thread count,
 * windows equal to a direct sl_encoder_forward on windows cut by hand, every
 * frame exactly once, the latency it reports is the latency it has. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "labeler_test_util.h"

/* Model window 20 = 5 left + 12 core + 3 lookahead. */
#define WIN 20
#define LEFT 5
#define LOOK 3
#define CORE (WIN - LEFT - LOOK)
#define NSAMP 24000 /* 1.5 s: 148 frames, 13 core blocks, the last one short */

typedef struct {
    sl_model *m;
    float *x;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->m = tu_make_model(7, WIN, LEFT, LOOK);
    f->x = tu_make_signal(NSAMP, 99);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sl_model_free(f->m);
    free(f->x);
    free(f);
    return 0;
}

static sl_labeler *make(const sl_model *m, const sl_labeler_config *cfg)
{
    char err[SL_ERR_LEN];
    sl_labeler *l = sl_labeler_new(m, cfg, err, sizeof err);
    if (!l)
        fail_msg("%s", err);
    return l;
}

/* Labels x[0..n) in pushes whose sizes come from `sizes` (cycled; 0 = all at
 * once) and finishes. */
static void label_in_pushes(sl_labeler *l, const float *x, int64_t n, const int *sizes, int nsizes,
                            tu_record *r)
{
    char err[SL_ERR_LEN];
    sl_label_sink sink = tu_record_sink(r);
    tu_record_clear(r);
    int64_t pos = 0;
    for (int i = 0; pos < n; i++) {
        int64_t b = nsizes ? sizes[i % nsizes] : n;
        if (b > n - pos)
            b = n - pos;
        r->samples = pos + b;
        if (sl_labeler_push(l, x + pos, (size_t)b, &sink, err, sizeof err) != 0)
            fail_msg("push: %s", err);
        pos += b;
    }
    r->samples = INT64_MAX;
    if (sl_labeler_finish(l, &sink, err, sizeof err) != 0)
        fail_msg("finish: %s", err);
}

static void decoder_with_every_stage(sl_labeler_config *cfg)
{
    sl_labeler_config_default(cfg);
    cfg->decoder.smoothing = SL_SMOOTH_VITERBI;
    cfg->decoder.switch_penalty = 0.02f;
    cfg->decoder.smoothing_lag = 4;
    cfg->decoder.min_duration_s[0] = 0.03f;
    cfg->decoder.target_class = 1;
    cfg->decoder.on_threshold = 0.47f;
    cfg->decoder.off_threshold = 0.43f;
    cfg->decoder.pad_before_s = 0.02f;
    cfg->decoder.pad_after_s = 0.01f;
}

static void check_push_sizes(fixture *f, int silence_edges)
{
    sl_labeler_config cfg;
    decoder_with_every_stage(&cfg);
    cfg.clip_edges = !silence_edges;
    sl_labeler *l = make(f->m, &cfg);
    tu_record whole, other;
    tu_record_init(&whole, 1000, 3);
    tu_record_init(&other, 1000, 3);
    label_in_pushes(l, f->x, NSAMP, NULL, 0, &whole);
    assert_int_equal(whole.n, sl_feature_num_frames(sl_model_feature_config(f->m), NSAMP));
    /* The signal is not labelled all alike. */
    if (whole.nseg < 4)
        fail_msg("only %lld segments", (long long)whole.nseg);

    int one = 1;
    label_in_pushes(l, f->x, NSAMP, &one, 1, &other);
    tu_record_assert_equal(&whole, &other);

    int sizes[64];
    uint64_t s = 5;
    for (int i = 0; i < 64; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int kind = (int)((s >> 33) % 4);
        sizes[i] = kind == 0 ? 1 : kind == 1 ? (int)((s >> 40) % 7) + 1
                 : kind == 2 ? (int)((s >> 40) % 400) + 1 : (int)((s >> 40) % 5000) + 1;
    }
    label_in_pushes(l, f->x, NSAMP, sizes, 64, &other);
    tu_record_assert_equal(&whole, &other);
    /* The push size that matches the hop exactly, and one prime size. */
    int hop = 160, prime = 997;
    label_in_pushes(l, f->x, NSAMP, &hop, 1, &other);
    tu_record_assert_equal(&whole, &other);
    label_in_pushes(l, f->x, NSAMP, &prime, 1, &other);
    tu_record_assert_equal(&whole, &other);
    sl_labeler_free(l);
    tu_record_free(&whole);
    tu_record_free(&other);
}

static void test_push_sizes(void **state)
{
    check_push_sizes(*state, 0);
    check_push_sizes(*state, 1);
}

static void check_threads(fixture *f, int silence_edges)
{
    sl_labeler_config cfg;
    decoder_with_every_stage(&cfg);
    cfg.clip_edges = !silence_edges;
    tu_record one, more;
    tu_record_init(&one, 1000, 3);
    tu_record_init(&more, 1000, 3);
    sl_labeler *l = make(f->m, &cfg);
    label_in_pushes(l, f->x, NSAMP, NULL, 0, &one);
    sl_labeler_free(l);
    for (int t = 2; t <= 3; t++) {
        cfg.num_threads = t;
        l = make(f->m, &cfg);
        label_in_pushes(l, f->x, NSAMP, NULL, 0, &more);
        tu_record_assert_equal(&one, &more);
        int sz = 1234;
        label_in_pushes(l, f->x, NSAMP, &sz, 1, &more);
        tu_record_assert_equal(&one, &more);
        sl_labeler_free(l);
    }
    tu_record_free(&one);
    tu_record_free(&more);
}

static void test_threads(void **state)
{
    check_threads(*state, 0);
    check_threads(*state, 1);
}

/* The reference: features of the whole signal, normalised here, cut into the
 * windows the design describes (docs/encoder.md), each run through its own encoder. */
typedef struct {
    float *frames;
    int64_t n;
    int dim;
} frame_store;

static int store_frame(void *user, int64_t index, const float *frame, int dim)
{
    frame_store *s = user;
    assert_int_equal(index, s->n);
    memcpy(s->frames + (size_t)s->n * dim, frame, (size_t)dim * sizeof(float));
    s->dim = dim;
    s->n++;
    return 0;
}

/* With silence_edges, window frames outside [0, N) are the features of a window
 * of zeros, normalised here. */
static void check_windows_by_hand(fixture *f, int silence_edges)
{
    const sl_feature_config *fc = sl_model_feature_config(f->m);
    const sl_model_config *mc = sl_model_get_config(f->m);
    int F = mc->n_features, K = mc->n_classes;
    char err[SL_ERR_LEN];
    sl_features *fe = sl_features_new(fc, err, sizeof err);
    assert_non_null(fe);
    frame_store st = {malloc(sizeof(float) * 200 * F), 0, 0};
    /* the model's input: the samples rounded to the 16-bit grid (ties to even) */
    float *xq = malloc(sizeof(float) * NSAMP);
    for (int i = 0; i < NSAMP; i++)
        xq[i] = (float)(fmin(fmax(nearbyint(f->x[i] * 32768.0), -32768.0), 32767.0) / 32768.0);
    assert_int_equal(sl_features_push(fe, xq, NSAMP, store_frame, &st, err, sizeof err), 0);
    free(xq);
    sl_features_free(fe);
    int64_t N = st.n;
    assert_int_equal(N, 148);
    const float *mean = sl_model_norm_mean(f->m), *istd = sl_model_norm_inv_std(f->m);
    for (int64_t t = 0; t < N; t++)
        for (int d = 0; d < F; d++)
            st.frames[t * F + d] = (st.frames[t * F + d] - mean[d]) * istd[d];

    float silence[64];
    assert_true(F <= 64);
    float zeros[400] = {0};
    frame_store zs = {silence, 0, 0};
    fe = sl_features_new(fc, err, sizeof err);
    assert_int_equal(sl_features_push(fe, zeros, 400, store_frame, &zs, err, sizeof err), 0);
    sl_features_free(fe);
    assert_int_equal(zs.n, 1);
    for (int d = 0; d < F; d++)
        silence[d] = (silence[d] - mean[d]) * istd[d];

    float *ref = malloc(sizeof(float) * N * K);
    float probs[WIN * 3], win[WIN * 64];
    sl_encoder *enc = sl_encoder_new(f->m, WIN, err, sizeof err);
    assert_non_null(enc);
    int blocks = 0;
    for (int64_t k = 0; k * CORE < N; k++, blocks++) {
        int64_t ws = k * CORE - LEFT, we = (k + 1) * CORE + LOOK;
        if (!silence_edges) {
            ws = ws < 0 ? 0 : ws;
            we = we > N ? N : we;
        }
        for (int64_t t = ws; t < we; t++)
            memcpy(win + (t - ws) * F, t < 0 || t >= N ? silence : st.frames + t * F,
                   sizeof(float) * F);
        assert_int_equal(sl_encoder_forward(enc, win, (int)(we - ws), NULL, probs), 0);
        for (int64_t t = k * CORE; t < (k + 1) * CORE && t < N; t++)
            memcpy(ref + t * K, probs + (t - ws) * K, sizeof(float) * K);
    }
    assert_int_equal(blocks, 13); /* 12 blocks of 12 and one of 4 frames */
    sl_encoder_free(enc);

    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.decoder.smoothing = SL_SMOOTH_NONE;
    cfg.clip_edges = !silence_edges;
    sl_labeler *l = make(f->m, &cfg);
    tu_record r;
    tu_record_init(&r, 1000, 3);
    int sz = 3333;
    label_in_pushes(l, f->x, NSAMP, &sz, 1, &r);
    assert_int_equal(r.n, N);
    for (int64_t t = 0; t < N; t++) {
        int arg = 0;
        for (int k = 0; k < K; k++) {
            if (fabsf(r.probs[t * K + k] - ref[t * K + k]) > 1e-6f)
                fail_msg("frame %lld class %d: %g vs %g", (long long)t, k, r.probs[t * K + k],
                         ref[t * K + k]);
            if (ref[t * K + k] > ref[t * K + arg])
                arg = k;
        }
        assert_int_equal(r.label[t], arg);
    }
    sl_labeler_free(l);
    tu_record_free(&r);
    free(ref);
    free(st.frames);
}

static void test_windows_by_hand(void **state)
{
    check_windows_by_hand(*state, 0);
}

static void test_silence_edges_by_hand(void **state)
{
    check_windows_by_hand(*state, 1);
}

/* sl_frame_start_sample is floor(f * hop * rate / model_rate), exactly, also
 * where f * hop * rate passes 2^63 (a 1 s hop at 384 kHz wraps within two
 * years of frames; 10^13 frames of 10 ms at 44.1 kHz here). */
static void test_frame_start_sample(void **state)
{
    (void)state;
    for (int64_t f = 0; f < 2000; f += 7)
        assert_int_equal(sl_frame_start_sample(f, 160, 44100, 16000), f * 160 * 44100 / 16000);
    assert_int_equal(sl_frame_start_sample(10000000000000LL, 160, 44100, 16000),
                     4410000000000000LL);
    /* 3e12 frames of 1 s at 384 kHz: 1.152e18 samples, past 2^63 as a product */
    assert_int_equal(sl_frame_start_sample(3000000000000LL, 16000, 384000, 16000),
                     1152000000000000000LL);
    assert_int_equal(sl_frame_start_sample(12345, 160, 22050, 16000), 12345LL * 160 * 22050 / 16000);
}

static void test_frame_counts(void **state)
{
    fixture *f = *state;
    const sl_feature_config *fc = sl_model_feature_config(f->m);
    for (int edges = 0; edges <= 1; edges++) {
        sl_labeler_config cfg;
        decoder_with_every_stage(&cfg);
        cfg.num_threads = 2;
        cfg.clip_edges = !edges;
        sl_labeler *l = make(f->m, &cfg);
        tu_record r;
        tu_record_init(&r, 1000, 3);
        const int64_t lengths[] = {0, 1, 399, 400, 559, 560, 400 + 160 * 11, 400 + 160 * 12,
                                   400 + 160 * 14, 400 + 160 * 15, NSAMP};
        const int64_t want[] = {0, 0, 0, 1, 1, 2, 12, 13, 15, 16, 148};
        for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
            int sz = 77;
            label_in_pushes(l, f->x, lengths[i], &sz, 1, &r);
            assert_int_equal(sl_feature_num_frames(fc, lengths[i]), want[i]);
            assert_int_equal(r.n, want[i]);
            for (int64_t t = 0; t < r.n; t++)
                assert_int_equal(r.index[t], t);
            if (r.n) /* segments tile every frame */
                assert_int_equal(r.seg_end[r.nseg - 1], r.n);
            else
                assert_int_equal(r.nseg, 0);
        }
        sl_labeler_free(l);
        tu_record_free(&r);
    }
}

/* latency = frame_length - hop + (core - 1 + lookahead + decoder delay) * hop;
 * here 400 - 160 + (12 - 1 + 3 + (4 + 2 + 2)) * 160 = 3760 samples, and the
 * worst frame really comes out exactly that many samples after its span. */
static void test_latency(void **state)
{
    fixture *f = *state;
    sl_labeler_config cfg;
    decoder_with_every_stage(&cfg); /* lag 4, silence min 3 frames (delay 2), pad before 2 */
    sl_labeler *l = make(f->m, &cfg);
    assert_int_equal(sl_labeler_latency_samples(l), 3760);
    tu_record r;
    tu_record_init(&r, 1000, 3);
    int one = 1;
    label_in_pushes(l, f->x, NSAMP, &one, 1, &r);
    int64_t worst = 0;
    for (int64_t i = 0; i < r.n; i++) {
        if (r.emitted_at[i] == INT64_MAX) /* the tail, emitted by finish */
            continue;
        int64_t late = r.emitted_at[i] - (i + 1) * 160;
        assert_true(late <= 3760);
        if (late > worst)
            worst = late;
    }
    /* The minimum-duration stage holds frames only when a short run of class 0
     * appears; the bound must be reached without it, so allow its 2 frames. */
    assert_true(worst >= 3760 - 2 * 160);
    sl_labeler_free(l);

    /* The default decoder's delay is Viterbi's lag of 5 frames. */
    sl_labeler_config plain;
    sl_labeler_config_default(&plain);
    l = make(f->m, &plain);
    assert_int_equal(sl_labeler_latency_samples(l), 400 - 160 + (12 - 1 + 3 + 5) * 160);
    sl_labeler_free(l);

    /* Without a decoder delay the worst case is exact: the first frame of each
     * block waits for the whole block and its lookahead. */
    plain.decoder.smoothing = SL_SMOOTH_NONE;
    l = make(f->m, &plain);
    assert_int_equal(sl_labeler_latency_samples(l), 400 - 160 + (12 - 1 + 3) * 160);
    label_in_pushes(l, f->x, NSAMP, &one, 1, &r);
    worst = 0;
    for (int64_t i = 0; i < r.n; i++)
        if (r.emitted_at[i] != INT64_MAX && r.emitted_at[i] - (i + 1) * 160 > worst)
            worst = r.emitted_at[i] - (i + 1) * 160;
    assert_int_equal(worst, 400 - 160 + (12 - 1 + 3) * 160);
    sl_labeler_free(l);
    tu_record_free(&r);
}

static void test_window_settings(void **state)
{
    fixture *f = *state;
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    sl_labeler *l = make(f->m, &cfg);
    int w, left, look, core;
    sl_labeler_window(l, &w, &left, &look, &core);
    assert_int_equal(w, WIN);
    assert_int_equal(left, LEFT);
    assert_int_equal(look, LOOK);
    assert_int_equal(core, CORE);
    assert_int_equal(sl_labeler_frame_shift(l), 160);
    assert_int_equal(sl_labeler_frame_length(l), 400);
    assert_int_equal(sl_labeler_sample_rate(l), 16000);
    assert_int_equal(sl_labeler_num_classes(l), 3);
    sl_labeler_free(l);
    /* Less lookahead keeps the core: a smaller window and latency. */
    cfg.lookahead = 1;
    l = make(f->m, &cfg);
    sl_labeler_window(l, &w, &left, &look, &core);
    assert_int_equal(w, LEFT + CORE + 1);
    assert_int_equal(core, CORE);
    assert_int_equal(sl_labeler_latency_samples(l), 240 + (12 - 1 + 1 + 5) * 160); /* lag 5 */
    sl_labeler_free(l);
    /* An explicit window sets the core. */
    cfg.window = 10;
    cfg.left_context = 2;
    l = make(f->m, &cfg);
    sl_labeler_window(l, &w, &left, &look, &core);
    assert_int_equal(core, 7);
    sl_labeler_free(l);
    char err[SL_ERR_LEN] = "";
    cfg.window = 65; /* beyond the model's max_window 64 */
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "maximum window"));
    cfg.window = 4;
    cfg.left_context = 2;
    cfg.lookahead = 2;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    sl_labeler_config_default(&cfg);
    cfg.num_threads = 0;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
}

/* A latency limit (hand-computed windows of the test model's 20 = 5 + 12 + 3).
 * 0.1 s leaves floor((1600 - 240) / 160) = 8 frames beyond a label's own. With
 * argmax the lookahead stays 3, the core is 6 and the left context 11 (latency
 * 1520 samples); with Viterbi's default lag, 5 of them go to the lag (core 1,
 * still 1520); with a lag of 4 given, 4 (core 2); with a minimum duration of 3
 * frames (a delay of 2), 5 to the lag and 1 to the lookahead. 0.05 s leaves 3,
 * all the default lag's (latency 720), or 1 beside that minimum; 0.02 s leaves
 * 0: a causal window per frame and no lag. At or above the model's own latency
 * (0.155 s, 0.205 s with the default lag) the model's window. Its labels are
 * the labels of that window and lag set by hand; a limit beside a window of
 * one's own, or below what the analysis window and the decoder take, is
 * refused. */
static void test_max_latency(void **state)
{
    fixture *f = *state;
    enum { ARGMAX = -2, DEFAULT_LAG = -1 };
    static const struct {
        double limit;
        int lag;     /* ARGMAX, DEFAULT_LAG or frames */
        float min0;  /* class 0's minimum duration, s */
        int lag_used, left, core, look;
        int64_t latency;
    } cases[] = {
        {0.1, ARGMAX, 0, 0, 11, 6, 3, 1520},
        {0.02, ARGMAX, 0, 0, 19, 1, 0, 240},
        {0.1, 4, 0, 4, 15, 2, 3, 1520},
        {0.1, DEFAULT_LAG, 0, 5, 16, 1, 3, 1520},
        {0.1, DEFAULT_LAG, 0.03f, 5, 18, 1, 1, 1520},
        {0.05, DEFAULT_LAG, 0, 3, 19, 1, 0, 720},
        {0.05, DEFAULT_LAG, 0.03f, 1, 19, 1, 0, 720},
        {0.02, DEFAULT_LAG, 0, 0, 19, 1, 0, 240},
        {0.23, ARGMAX, 0, 0, LEFT, CORE, LOOK, 240 + (CORE - 1 + LOOK) * 160},
        {0.23, DEFAULT_LAG, 0, 5, LEFT, CORE, LOOK, 240 + (CORE - 1 + LOOK + 5) * 160},
        {9.0, DEFAULT_LAG, 0, 5, LEFT, CORE, LOOK, 240 + (CORE - 1 + LOOK + 5) * 160},
        /* no limit at all, and one too large for a frame count: the model's own */
        {INFINITY, DEFAULT_LAG, 0, 5, LEFT, CORE, LOOK, 240 + (CORE - 1 + LOOK + 5) * 160},
        {1e17, DEFAULT_LAG, 0, 5, LEFT, CORE, LOOK, 240 + (CORE - 1 + LOOK + 5) * 160},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sl_labeler_config cfg;
        sl_labeler_config_default(&cfg);
        cfg.max_latency_s = cases[k].limit;
        cfg.decoder.min_duration_s[0] = cases[k].min0;
        if (cases[k].lag == ARGMAX)
            cfg.decoder.smoothing = SL_SMOOTH_NONE;
        else
            cfg.decoder.smoothing_lag = cases[k].lag;
        sl_labeler *l = make(f->m, &cfg);
        int w, left, look, core;
        sl_labeler_window(l, &w, &left, &look, &core);
        assert_int_equal(w, WIN);
        assert_int_equal(left, cases[k].left);
        assert_int_equal(core, cases[k].core);
        assert_int_equal(look, cases[k].look);
        assert_int_equal(sl_labeler_latency_samples(l), cases[k].latency);
        tu_record got, want;
        tu_record_init(&got, 1000, 3);
        tu_record_init(&want, 1000, 3);
        label_in_pushes(l, f->x, NSAMP, NULL, 0, &got);
        sl_labeler_free(l);
        cfg.max_latency_s = 0;
        cfg.window = WIN;
        cfg.left_context = cases[k].left;
        cfg.lookahead = cases[k].look;
        cfg.decoder.smoothing_lag = cases[k].lag_used;
        l = make(f->m, &cfg);
        label_in_pushes(l, f->x, NSAMP, NULL, 0, &want);
        sl_labeler_free(l);
        tu_record_assert_equal(&got, &want);
        tu_record_free(&got);
        tu_record_free(&want);
    }
    char err[SL_ERR_LEN] = "";
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.max_latency_s = 0.1;
    cfg.lookahead = 1;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "one or the other"));
    sl_labeler_config_default(&cfg);
    cfg.max_latency_s = 0.01;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "a latency limit of 0.01 s is below the 0.015 s"));
    cfg.max_latency_s = NAN;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "a latency limit of nan s: 0 (none) or more expected"));
    cfg.max_latency_s = -1;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "a latency limit of -1 s: 0 (none) or more expected"));
    sl_labeler_config_default(&cfg);
    cfg.left_context = -2;
    assert_null(sl_labeler_new(f->m, &cfg, err, sizeof err));
    assert_non_null(strstr(err, "left context -2, lookahead -1: each -1 (the model's)"));
}

/* Models learn from 16-bit audio, so the labeler rounds float input to the
 * 16-bit grid: a signal under half a step is digital silence to it, and one
 * beyond full scale is clipped there, as a 16-bit file would hold them. */
static void test_input_on_16bit_grid(void **state)
{
    fixture *f = *state;
    float *x = calloc(NSAMP, sizeof *x);
    float *whisper = malloc(sizeof(float) * NSAMP);
    float *loud = malloc(sizeof(float) * NSAMP), *clipped = malloc(sizeof(float) * NSAMP);
    for (int i = 0; i < NSAMP; i++) {
        whisper[i] = 0.49f / 32768.0f * sinf(0.3f * (float)i);
        loud[i] = 3.0f * sinf(0.05f * (float)i);
        clipped[i] = loud[i] > 1.0f ? 32767.0f / 32768.0f : loud[i] < -1.0f ? -1.0f : loud[i];
    }
    const float *pairs[2][2] = {{whisper, x}, {loud, clipped}};
    for (int k = 0; k < 2; k++) {
        sl_labeler *l = make(f->m, NULL);
        tu_record a, b;
        tu_record_init(&a, 1000, 3);
        tu_record_init(&b, 1000, 3);
        label_in_pushes(l, pairs[k][0], NSAMP, NULL, 0, &a);
        label_in_pushes(l, pairs[k][1], NSAMP, NULL, 0, &b);
        tu_record_assert_equal(&a, &b);
        tu_record_free(&a);
        tu_record_free(&b);
        sl_labeler_free(l);
    }
    free(x);
    free(whisper);
    free(loud);
    free(clipped);
}

static void test_s16_and_bad_samples(void **state)
{
    fixture *f = *state;
    int16_t *s = malloc(sizeof(int16_t) * NSAMP);
    float *x = malloc(sizeof(float) * NSAMP);
    for (int i = 0; i < NSAMP; i++) {
        long v = lrintf(f->x[i] * 32768.0f);
        s[i] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
        x[i] = (float)s[i] / 32768.0f;
    }
    sl_labeler *l = make(f->m, NULL);
    tu_record a, b;
    tu_record_init(&a, 1000, 3);
    tu_record_init(&b, 1000, 3);
    label_in_pushes(l, f->x, NSAMP, NULL, 0, &a); /* float input, rounded by the labeler */
    sl_label_sink sink = tu_record_sink(&b);
    char err[SL_ERR_LEN];
    tu_record_clear(&b);
    assert_int_equal(sl_labeler_push_s16(l, s, 5000, &sink, err, sizeof err), 0);
    assert_int_equal(sl_labeler_push_s16(l, s + 5000, NSAMP - 5000, &sink, err, sizeof err), 0);
    assert_int_equal(sl_labeler_samples_pushed(l), NSAMP);
    assert_int_equal(sl_labeler_finish(l, &sink, err, sizeof err), 0);
    tu_record_assert_equal(&a, &b);

    /* A NaN or an infinity is refused with its position (not rounded to full
     * scale); reset makes the labeler usable again. */
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        x[1000] = bad[k];
        err[0] = '\0';
        assert_true(sl_labeler_push(l, x, NSAMP, &sink, err, sizeof err) < 0);
        assert_non_null(strstr(err, k ? "(Inf) at sample 1000" : "(NaN) at sample 1000"));
        sl_labeler_reset(l);
    }
    /* refused whole: a NaN far into a push leaves nothing of it taken */
    x[1000] = (float)s[1000] / 32768.0f;
    x[NSAMP - 7] = NAN;
    assert_true(sl_labeler_push(l, x, 3000, &sink, err, sizeof err) == 0);
    assert_true(sl_labeler_push(l, x + 3000, NSAMP - 3000, &sink, err, sizeof err) < 0);
    char want[64];
    snprintf(want, sizeof want, "(NaN) at sample %d;", NSAMP - 7);
    assert_non_null(strstr(err, want));
    assert_int_equal(sl_labeler_samples_pushed(l), 3000);
    x[NSAMP - 7] = (float)s[NSAMP - 7] / 32768.0f;
    sl_labeler_reset(l);
    x[1000] = (float)s[1000] / 32768.0f;
    label_in_pushes(l, x, NSAMP, NULL, 0, &b);
    tu_record_assert_equal(&a, &b);
    sl_labeler_free(l);
    tu_record_free(&a);
    tu_record_free(&b);
    free(s);
    free(x);
}

/* A sink that, at frame `at`, stops its push (stop) or calls back into its
 * labeler (push, finish and reset), recording what those calls return. */
typedef struct {
    sl_labeler *l;
    tu_record *r;
    sl_label_sink inner;
    int64_t at, last;
    int stop, in_order, stop_segments;
    int push_rc, finish_rc;
    char push_err[SL_ERR_LEN];
} meddler;

static int meddle(void *user, int64_t index, int label, float conf, const float *probs, int K)
{
    meddler *m = user;
    m->in_order &= index == m->last + 1;
    m->last = index;
    if (index == m->at) {
        if (m->stop)
            return -7;
        const float z[160] = {0};
        char err[SL_ERR_LEN];
        m->push_rc = sl_labeler_push(m->l, z, 160, NULL, m->push_err, sizeof m->push_err);
        m->finish_rc = sl_labeler_finish(m->l, NULL, err, sizeof err);
        sl_labeler_reset(m->l);
    }
    return m->inner.on_frame(m->inner.user, index, label, conf, probs, K);
}

static int meddle_segment(void *user, int64_t start, int64_t end, int label, float conf)
{
    meddler *m = user;
    if (m->stop_segments)
        return 5;
    return m->inner.on_segment(m->inner.user, start, end, label, conf);
}

/* Misuse gives an error, never a corrupt labeler: a callback calling back into
 * its labeler (a push or finish there returns -1, a reset does nothing, and
 * the outer push goes on as if none had come); pushing after a sink stopped a
 * push, before the reset the header asks for (each call -1 until then, then
 * the labels of a fresh start); NULL samples; no model. */
static void test_misuse(void **state)
{
    fixture *f = *state;
    sl_labeler *l = make(f->m, NULL);
    tu_record want, got;
    tu_record_init(&want, 1000, 3);
    tu_record_init(&got, 1000, 3);
    label_in_pushes(l, f->x, NSAMP, NULL, 0, &want);
    char err[SL_ERR_LEN];

    tu_record_clear(&got);
    got.samples = INT64_MAX;
    meddler m = {l, &got, tu_record_sink(&got), 50, -1, 0, 1, 0, 0, 0, ""};
    sl_label_sink sink = {&m, meddle, meddle_segment};
    assert_int_equal(sl_labeler_push(l, f->x, NSAMP, &sink, err, sizeof err), 0);
    assert_int_equal(sl_labeler_finish(l, &sink, err, sizeof err), 0);
    assert_int_equal(m.push_rc, -1);
    assert_int_equal(m.finish_rc, -1);
    assert_non_null(strstr(m.push_err, "called from its own sink's callback"));
    assert_true(m.in_order);
    tu_record_assert_equal(&want, &got);

    /* a sink stops a push: the push says so; then -1 until a reset */
    m = (meddler){l, &got, tu_record_sink(&got), 50, -1, 1, 1, 0, 0, 0, ""};
    strcpy(err, "an earlier message");
    assert_int_equal(sl_labeler_push(l, f->x, NSAMP, &sink, err, sizeof err), -7);
    assert_string_equal(err, "labeler: stopped by its sink (a callback returned -7)");
    assert_int_equal(sl_labeler_push(l, f->x, 160, &sink, err, sizeof err), -1);
    assert_non_null(strstr(err, "reset it first"));
    assert_int_equal(sl_labeler_finish(l, &sink, err, sizeof err), -1);
    assert_non_null(strstr(err, "reset it first"));
    sl_labeler_reset(l);
    label_in_pushes(l, f->x, NSAMP, NULL, 0, &got);
    tu_record_assert_equal(&want, &got);
    /* so too where the sink stops the finish (its last segment) */
    m = (meddler){l, &got, tu_record_sink(&got), -5, -1, 0, 1, 0, 0, 0, ""};
    assert_int_equal(sl_labeler_push(l, f->x, NSAMP, &sink, err, sizeof err), 0);
    m.stop_segments = 1;
    assert_int_equal(sl_labeler_finish(l, &sink, err, sizeof err), 5);
    assert_string_equal(err, "labeler: stopped by its sink (a callback returned 5)");
    assert_int_equal(sl_labeler_push(l, f->x, 160, &sink, err, sizeof err), -1);
    assert_non_null(strstr(err, "reset it first"));
    sl_labeler_reset(l);
    label_in_pushes(l, f->x, NSAMP, NULL, 0, &got);
    tu_record_assert_equal(&want, &got);

    assert_int_equal(sl_labeler_push(l, NULL, 10, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "10 samples pushed from NULL"));
    assert_int_equal(sl_labeler_push(l, NULL, 0, NULL, err, sizeof err), 0);
    assert_null(sl_labeler_new(NULL, NULL, err, sizeof err));
    assert_string_equal(err, "labeler: no model given");
    /* _reset takes NULL as _free does (the header's conventions) */
    sl_labeler_reset(NULL);
    sl_decoder_reset(NULL);
    sl_features_reset(NULL);
    sl_converter_reset(NULL);
    sl_metrics_reset(NULL);
    sl_metrics zeroed = {0};
    sl_metrics_reset(&zeroed); /* one never initialised, or freed */
    sl_labeler_free(l);
    tu_record_free(&want);
    tu_record_free(&got);
}

static void test_parse_min_durations(void **state)
{
    fixture *f = *state;
    sl_decoder_config cfg;
    sl_decoder_config_default(&cfg);
    char err[SL_ERR_LEN];
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, "speech=0.2,music=0.5", err, sizeof err), 0);
    assert_float_equal(cfg.min_duration_s[0], 0.0, 0);
    assert_float_equal(cfg.min_duration_s[1], 0.2, 1e-7);
    assert_float_equal(cfg.min_duration_s[2], 0.5, 1e-7);
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, "", err, sizeof err), 0);
    /* blanks around an item, as the class lists take them */
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, " speech=0.3 , music=0.5 ", err,
                                                    sizeof err), 0);
    assert_float_equal(cfg.min_duration_s[1], 0.3, 1e-7);
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, "speech=0.2,music=0.5", err,
                                                    sizeof err), 0);
    /* '*': every class not named, in any order (a VAD's minimum gap, whatever
     * class fills it) */
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, "*=0.4,speech=0.25", err,
                                                    sizeof err), 0);
    assert_float_equal(cfg.min_duration_s[0], 0.4, 1e-7);
    assert_float_equal(cfg.min_duration_s[1], 0.25, 1e-7);
    assert_float_equal(cfg.min_duration_s[2], 0.4, 1e-7);
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, "speech=0.2,music=0.5", err,
                                                    sizeof err), 0);
    assert_float_equal(cfg.min_duration_s[0], 0.4, 1e-7); /* kept: not named */
    cfg.min_duration_s[0] = 0.0f;
    const char *bad[] = {"noise=0.2", "speech", "speech=", "speech=abc", "speech=-1",
                         "*=0.2,*=0.3", "*=x",
                         "speech=0.2,", "=0.2", "speech=0.2;music=1",
                         /* read as 16 s, 0.125 s, and the first dropped: refused as
                          * the command's numbers are */
                         "speech=0x10", "speech=0x1p-3", "speech=0.2,speech=0.5",
                         "speech= 0.2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        if (sl_decoder_parse_min_durations(&cfg, f->m, bad[i], err, sizeof err) != -1)
            fail_msg("'%s' accepted", bad[i]);
        assert_true(strlen(err) > 0);
    }
    /* A refused string leaves the config untouched. */
    assert_float_equal(cfg.min_duration_s[1], 0.2, 1e-7);
    assert_int_equal(sl_decoder_parse_min_durations(&cfg, f->m, "silence=1,noise=2", err, sizeof err), -1);
    assert_float_equal(cfg.min_duration_s[0], 0.0, 0);
    /* a model made before class names were kept free of '=': its class a=b is
     * named, the duration after the last '=' */
    const sl_model_config *mc = sl_model_get_config(f->m);
    const char *names[SL_MAX_CLASSES];
    for (int k = 0; k < mc->n_classes; k++)
        names[k] = k ? sl_model_class_name(f->m, k) : "a=b";
    sl_model *old = sl_model_create(mc, sl_model_feature_config(f->m), sl_model_norm_mean(f->m),
                                    sl_model_norm_inv_std(f->m), names, err, sizeof err);
    assert_non_null(old);
    if (sl_decoder_parse_min_durations(&cfg, old, "a=b=0.3,speech=0.1", err, sizeof err))
        fail_msg("%s", err);
    assert_float_equal(cfg.min_duration_s[0], 0.3, 1e-7);
    assert_float_equal(cfg.min_duration_s[1], 0.1, 1e-7);
    sl_model_free(old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_sizes),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_windows_by_hand),
        cmocka_unit_test(test_silence_edges_by_hand),
        cmocka_unit_test(test_frame_start_sample),
        cmocka_unit_test(test_frame_counts),
        cmocka_unit_test(test_latency),
        cmocka_unit_test(test_window_settings),
        cmocka_unit_test(test_max_latency),
        cmocka_unit_test(test_input_on_16bit_grid),
        cmocka_unit_test(test_s16_and_bad_samples),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_parse_min_durations),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
