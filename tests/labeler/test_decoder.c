/* The decoder on hand-made probability sequences: every expected label,
 * segment and mean confidence below was worked out by hand from the rules in
 * seqlabel.h (comments show the working), except the Viterbi comparison, whose
 * reference is an independent full-sequence O(T K^2) Viterbi written here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "seqlabel.h"

#define MAXF 4096

typedef struct {
    int n;
    int64_t index[MAXF];
    int label[MAXF];
    float conf[MAXF];
    int64_t emitted_at[MAXF]; /* frames pushed when the frame came out */
    int nseg;
    int64_t seg_start[MAXF], seg_end[MAXF];
    int seg_label[MAXF];
    float seg_conf[MAXF];
    int64_t pushed;
    int stop_after; /* on_frame returns 7 once this many frames came out (0: never) */
} collector;

static int on_frame(void *user, int64_t index, int label, float confidence, const float *probs,
                    int n_classes)
{
    collector *c = user;
    assert_true(c->n < MAXF);
    assert_true(label >= 0 && label < n_classes);
    assert_true(confidence == probs[label]);
    c->index[c->n] = index;
    c->label[c->n] = label;
    c->conf[c->n] = confidence;
    c->emitted_at[c->n] = c->pushed;
    c->n++;
    if (c->stop_after && c->n == c->stop_after)
        return 7;
    return 0;
}

static int on_segment(void *user, int64_t start, int64_t end, int label, float mean_confidence)
{
    collector *c = user;
    assert_true(c->nseg < MAXF);
    c->seg_start[c->nseg] = start;
    c->seg_end[c->nseg] = end;
    c->seg_label[c->nseg] = label;
    c->seg_conf[c->nseg] = mean_confidence;
    c->nseg++;
    return 0;
}

/* Pushes T frames of K probabilities and finishes; checks the generic
 * properties: each frame exactly once, in order, never later than the
 * decoder's delay, segments tiling the frames with matching labels. */
static void run(sl_decoder *d, const float *probs, int T, int K, collector *c)
{
    sl_label_sink sink = {c, on_frame, on_segment};
    memset(c, 0, sizeof *c);
    int delay = sl_decoder_delay_frames(d);
    for (int t = 0; t < T; t++) {
        c->pushed = t + 1;
        assert_int_equal(sl_decoder_push(d, probs + (size_t)t * K, &sink), 0);
    }
    c->pushed = T + 1000000;
    assert_int_equal(sl_decoder_finish(d, &sink), 0);
    assert_int_equal(c->n, T);
    for (int i = 0; i < T; i++) {
        assert_int_equal(c->index[i], i);
        if (c->emitted_at[i] <= T)
            assert_true(c->emitted_at[i] - 1 - i <= delay);
    }
    int64_t pos = 0;
    for (int s = 0; s < c->nseg; s++) {
        assert_int_equal(c->seg_start[s], pos);
        assert_true(c->seg_end[s] > c->seg_start[s]);
        if (s > 0)
            assert_int_not_equal(c->seg_label[s], c->seg_label[s - 1]);
        double sum = 0;
        for (int64_t f = c->seg_start[s]; f < c->seg_end[s]; f++) {
            assert_int_equal(c->label[f], c->seg_label[s]);
            sum += c->conf[f];
        }
        assert_float_equal(c->seg_conf[s], sum / (double)(c->seg_end[s] - c->seg_start[s]), 1e-6);
        pos = c->seg_end[s];
    }
    assert_int_equal(pos, T);
}

static void expect_labels(const collector *c, const int *labels, int T)
{
    for (int i = 0; i < T; i++) {
        if (c->label[i] != labels[i])
            fail_msg("frame %d: label %d, expected %d", i, c->label[i], labels[i]);
    }
}

/* Probabilities of K classes from per-frame argmax labels: the label gets p_hi,
 * the others share the rest. */
static void one_hot(float *probs, const int *labels, int T, int K, float p_hi)
{
    for (int t = 0; t < T; t++)
        for (int k = 0; k < K; k++)
            probs[t * K + k] = k == labels[t] ? p_hi : (1.0f - p_hi) / (float)(K - 1);
}

/* Pushes frames [from, to) of 2-class probabilities. */
static void push_range(sl_decoder *d, const float *probs, int from, int to, const sl_label_sink *sink)
{
    for (int t = from; t < to; t++)
        assert_int_equal(sl_decoder_push(d, probs + 2 * t, sink), 0);
}

/* Probabilities of 2 classes from class 1's. */
static void two_classes(float *probs, const float *p1, int T)
{
    for (int t = 0; t < T; t++) {
        probs[2 * t] = 1.0f - p1[t];
        probs[2 * t + 1] = p1[t];
    }
}

/* The default decoder with per-frame argmax as its first stage, so that the
 * later stages' hand-worked cases see the frames' own labels. */
static void argmax_config(sl_decoder_config *cfg)
{
    sl_decoder_config_default(cfg);
    cfg->smoothing = SL_SMOOTH_NONE;
}

static sl_decoder *make(const sl_decoder_config *cfg, int K)
{
    char err[SL_ERR_LEN];
    sl_decoder *d = sl_decoder_new(cfg, K, 100.0, err, sizeof err);
    if (!d)
        fail_msg("%s", err);
    return d;
}

static void test_argmax_and_segments(void **state)
{
    (void)state;
    const float probs[] = {
        0.7f, 0.2f, 0.1f, /* 0 */
        0.5f, 0.4f, 0.1f, /* 0 */
        0.1f, 0.8f, 0.1f, /* 1 */
        0.3f, 0.3f, 0.4f, /* 2 */
        0.2f, 0.2f, 0.6f, /* 2 */
        0.4f, 0.4f, 0.2f, /* tie 0/1: the lower index, 0 */
    };
    sl_decoder_config cfg;
    argmax_config(&cfg);
    sl_decoder *d = make(&cfg, 3);
    assert_int_equal(sl_decoder_delay_frames(d), 0);
    collector *c = malloc(sizeof *c);
    run(d, probs, 6, 3, c);
    const int want[] = {0, 0, 1, 2, 2, 0};
    expect_labels(c, want, 6);
    assert_int_equal(c->nseg, 4);
    assert_int_equal(c->seg_start[0], 0);
    assert_int_equal(c->seg_end[0], 2);
    assert_float_equal(c->seg_conf[0], 0.6, 1e-6); /* (0.7 + 0.5) / 2 */
    assert_int_equal(c->seg_label[1], 1);
    assert_float_equal(c->seg_conf[1], 0.8, 1e-6);
    assert_int_equal(c->seg_start[2], 3);
    assert_int_equal(c->seg_end[2], 5);
    assert_float_equal(c->seg_conf[2], 0.5, 1e-6); /* (0.4 + 0.6) / 2 */
    assert_int_equal(c->seg_start[3], 5);
    assert_int_equal(c->seg_end[3], 6);
    /* Every frame came out in the push that delivered it (no delay). */
    for (int i = 0; i < 6; i++)
        assert_int_equal(c->emitted_at[i], i + 1);
    /* Reuse after finish starts a new stream at frame 0. */
    run(d, probs, 6, 3, c);
    expect_labels(c, want, 6);
    free(c);
    sl_decoder_free(d);
}

/* Penalty 2 nats, two classes. A single B frame at p=0.6 carries ln(0.6/0.4)
 * = 0.41 nats of evidence, less than the 4 nats of two switches: it becomes A.
 * A run of four B frames at p=0.8 carries 4 ln 4 = 5.55 > 4: it stays B. */
/* A NaN probability counts as 0, in every smoothing: never the label while a
 * class has a number (argmax started from class 0 and kept a NaN there). */
static void test_nan_counts_as_zero(void **state)
{
    (void)state;
    enum { T = 40, K = 3 };
    float probs[T * K];
    int labels[T];
    for (int t = 0; t < T; t++) {
        probs[t * K] = NAN;
        probs[t * K + 1] = t % 2 ? 0.7f : 0.3f;
        probs[t * K + 2] = t % 2 ? 0.3f : 0.7f;
        labels[t] = t % 2 ? 1 : 2;
    }
    for (int smoothing = 0; smoothing < 2; smoothing++) {
        sl_decoder_config cfg;
        argmax_config(&cfg);
        if (smoothing)
            cfg.smoothing = SL_SMOOTH_VITERBI; /* its penalty keeps one label */
        sl_decoder *d = make(&cfg, K);
        collector c;
        run(d, probs, T, K, &c);
        for (int i = 0; i < T; i++)
            if (smoothing ? c.label[i] == 0 : c.label[i] != labels[i])
                fail_msg("smoothing %d, frame %d: label %d", smoothing, i, c.label[i]);
        sl_decoder_free(d);
    }
}

static void test_viterbi_hand(void **state)
{
    (void)state;
    float pb[] = {0.1f, 0.1f, 0.1f, 0.6f, 0.1f, 0.1f, 0.8f, 0.8f, 0.8f, 0.8f, 0.1f, 0.1f,
                  0.1f, 0.9f, 0.9f, 0.1f, 0.1f, 0.1f};
    /* frames 13-14: two B at 0.9: 2 ln 9 = 4.39 > 4, stay B. */
    int T = (int)(sizeof pb / sizeof pb[0]);
    float probs[2 * 32];
    for (int t = 0; t < T; t++) {
        probs[2 * t] = 1.0f - pb[t];
        probs[2 * t + 1] = pb[t];
    }
    sl_decoder_config cfg;
    sl_decoder_config_default(&cfg);
    cfg.smoothing = SL_SMOOTH_VITERBI;
    cfg.switch_penalty = 2.0f;
    cfg.smoothing_lag = 10;
    sl_decoder *d = make(&cfg, 2);
    assert_int_equal(sl_decoder_delay_frames(d), 10);
    collector *c = malloc(sizeof *c);
    run(d, probs, T, 2, c);
    const int want[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0};
    expect_labels(c, want, T);
    /* The fixed lag is exact: frame i comes out when frame i + 10 is pushed. */
    for (int i = 0; i + 10 < T; i++)
        assert_int_equal(c->emitted_at[i], i + 11);
    /* The flicker frame keeps the encoder's probability as its confidence. */
    assert_float_equal(c->conf[3], 0.4, 1e-6);
    sl_decoder_free(d);

    /* Penalty 2.5: two B at 0.9 (4.39 < 5) no longer pay for two switches. */
    cfg.switch_penalty = 2.5f;
    d = make(&cfg, 2);
    run(d, probs, T, 2, c);
    const int want2[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    expect_labels(c, want2, T);
    sl_decoder_free(d);
    free(c);
}

/* Independent reference: the best path over frames [from, to] with an
 * explicit K x K transition cost (pen[t]: a change into frame t), through label
 * `anchor` at `from` (any label where anchor < 0), into out[from..to]. */
static void best_path_priced(const float *p, int from, int to, int K, const double *pen,
                             int anchor, int *out)
{
    int T = to + 1;
    double *s = malloc(sizeof(double) * T * K);
    int *bp = malloc(sizeof(int) * T * K);
    for (int k = 0; k < K; k++)
        s[from * K + k] = anchor < 0 || k == anchor ? log(p[from * K + k]) : -INFINITY;
    for (int t = from + 1; t < T; t++)
        for (int k = 0; k < K; k++) {
            double best = -INFINITY;
            int arg = -1;
            for (int j = 0; j < K; j++) {
                double v = s[(t - 1) * K + j] - (j == k ? 0.0 : pen[t]);
                if (v > best) {
                    best = v;
                    arg = j;
                }
            }
            s[t * K + k] = best + log(p[t * K + k]);
            bp[t * K + k] = arg;
        }
    int k = 0;
    for (int j = 1; j < K; j++)
        if (s[(T - 1) * K + j] > s[(T - 1) * K + k])
            k = j;
    for (int t = T - 1; t >= from; t--) {
        out[t] = k;
        if (t > from)
            k = bp[t * K + k];
    }
    free(s);
    free(bp);
}

/* The same with one penalty for every change. */
static void best_path(const float *p, int from, int to, int K, double pen, int anchor, int *out)
{
    double *each = malloc(sizeof(double) * (size_t)(to + 1));
    for (int t = 0; t <= to; t++)
        each[t] = pen;
    best_path_priced(p, from, to, K, each, anchor, out);
    free(each);
}

/* Random K-class probabilities, continuous (no ties): a current class that
 * changes on one frame in ten gets 1 more than the others' noise of 0.05-1.05,
 * so the evidence for a change often builds over several frames. */
static void random_probs(float *probs, int T, int K, uint64_t *x)
{
    int cur = 0;
    for (int t = 0; t < T; t++) {
        *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
        if ((*x >> 33) % 10 == 0)
            cur = (int)((*x >> 20) % K);
        double v[16], sum = 0;
        for (int k = 0; k < K; k++) {
            *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
            v[k] = 0.05 + (double)(*x >> 40) / (double)(1ULL << 24) + (k == cur ? 1.0 : 0.0);
            sum += v[k];
        }
        for (int k = 0; k < K; k++)
            probs[t * K + k] = (float)(v[k] / sum);
    }
}

/* With a lag as long as the sequence, the fixed-lag decoder is the full
 * Viterbi path. */
static void test_viterbi_matches_full(void **state)
{
    (void)state;
    enum { T = 300, K = 4 };
    float *probs = malloc(sizeof(float) * T * K);
    int ref[T];
    uint64_t x = 12345;
    collector *c = malloc(sizeof *c);
    for (int trial = 0; trial < 5; trial++) {
        random_probs(probs, T, K, &x);
        double pen = 1.0 + trial;
        best_path(probs, 0, T - 1, K, pen, -1, ref);
        sl_decoder_config cfg;
        sl_decoder_config_default(&cfg);
        cfg.smoothing = SL_SMOOTH_VITERBI;
        cfg.switch_penalty = (float)pen;
        cfg.smoothing_lag = T;
        sl_decoder *d = make(&cfg, K);
        run(d, probs, T, K, c);
        expect_labels(c, ref, T);
        sl_decoder_free(d);
    }
    free(c);
    free(probs);
}

/* Independent reference for a shorter lag, by its definition in seqlabel.h:
 * frame t - lag takes its label from the best path over frames 0..t among
 * those through the first frame of the run of labels given out so far; at
 * the end the last lag frames follow the best complete such path. Each call
 * of best_path is a full Viterbi from that frame, O(T^2 K^2) in all. */
static void fixed_lag_reference_priced(const float *p, int T, int K, const double *pen, int lag,
                                       int *out)
{
    int *path = malloc(sizeof(int) * T);
    int run_start = 0, run_label = -1;
    for (int t = lag; t < T; t++) {
        int decided = t - lag;
        best_path_priced(p, run_start, t, K, pen, run_label, path);
        out[decided] = path[decided];
        if (out[decided] != run_label) {
            run_start = decided;
            run_label = out[decided];
        }
    }
    best_path_priced(p, run_start, T - 1, K, pen, run_label, path);
    for (int t = T - lag < 0 ? 0 : T - lag; t < T; t++)
        out[t] = path[t];
    free(path);
}

static void fixed_lag_reference(const float *p, int T, int K, double pen, int lag, int *out)
{
    double *each = malloc(sizeof(double) * (size_t)T);
    for (int t = 0; t < T; t++)
        each[t] = pen;
    fixed_lag_reference_priced(p, T, K, each, lag, out);
    free(each);
}

/* Short lags against that reference: the labels given out are then one path,
 * each change paid for. Before a change bound the later paths, lags of 1 to 8
 * gave labels no path gives, among them single frames of flicker. */
static void test_viterbi_fixed_lag(void **state)
{
    (void)state;
    enum { T = 300, K = 3 };
    const int lags[] = {0, 1, 2, 3, 5, 8};
    const double pens[] = {1.0, 3.0, 5.0};
    float *probs = malloc(sizeof(float) * T * K);
    int ref[T];
    uint64_t x = 777;
    collector *c = malloc(sizeof *c);
    for (size_t l = 0; l < sizeof lags / sizeof lags[0]; l++)
        for (size_t q = 0; q < sizeof pens / sizeof pens[0]; q++)
            for (int trial = 0; trial < 4; trial++) {
                random_probs(probs, T, K, &x);
                fixed_lag_reference(probs, T, K, pens[q], lags[l], ref);
                sl_decoder_config cfg;
                sl_decoder_config_default(&cfg);
                cfg.switch_penalty = (float)pens[q];
                cfg.smoothing_lag = lags[l];
                sl_decoder *d = make(&cfg, K);
                run(d, probs, T, K, c);
                for (int t = 0; t < T; t++)
                    if (c->label[t] != ref[t])
                        fail_msg("lag %d, penalty %g, trial %d, frame %d: label %d, expected %d",
                                 lags[l], pens[q], trial, t, c->label[t], ref[t]);
                sl_decoder_free(d);
            }
    free(c);
    free(probs);
}

/* A penalty retuned mid-stream prices the changes into the frames after it,
 * also when a change given out runs the lag's frames again: against the
 * reference with each frame's own penalty (0.3 and 4 by turns, 20 frames
 * each), lag 8. Without a target class the thresholds are unused, so a retune
 * with off above on (threshold-on set below threshold-off's default) is taken. */
static void test_penalty_retuned_with_restarts(void **state)
{
    (void)state;
    enum { T = 300, K = 3, LAG = 8, EVERY = 20 };
    float *probs = malloc(sizeof(float) * T * K);
    double pen[T];
    int ref[T];
    uint64_t x = 4242;
    char err[SL_ERR_LEN];
    collector *c = calloc(1, sizeof *c);
    sl_label_sink sink = {c, on_frame, on_segment};
    for (int t = 0; t < T; t++)
        pen[t] = t / EVERY % 2 ? 4.0 : 0.3;
    for (int trial = 0; trial < 8; trial++) {
        random_probs(probs, T, K, &x);
        fixed_lag_reference_priced(probs, T, K, pen, LAG, ref);
        sl_decoder_config cfg;
        sl_decoder_config_default(&cfg);
        cfg.switch_penalty = 0.3f;
        cfg.smoothing_lag = LAG;
        sl_decoder *d = make(&cfg, K);
        memset(c, 0, sizeof *c);
        for (int t = 0; t < T; t++) {
            if (t % EVERY == 0 && t > 0 &&
                sl_decoder_retune(d, (float)pen[t], 0.3f, 0.35f, err, sizeof err))
                fail_msg("%s", err);
            assert_int_equal(sl_decoder_push(d, probs + (size_t)t * K, &sink), 0);
        }
        assert_int_equal(sl_decoder_finish(d, &sink), 0);
        assert_int_equal(c->n, T);
        for (int t = 0; t < T; t++)
            if (c->label[t] != ref[t])
                fail_msg("trial %d, frame %d: label %d, expected %d", trial, t, c->label[t], ref[t]);
        sl_decoder_free(d);
    }
    free(c);
    free(probs);
}

/* A pause weighed near even, as the shipped model hears one in
 * samples/speech.wav (6.10-6.40 s; class 1 is speech, its probability against
 * silence's, to three decimals; music and noise stay under 0.06 there and
 * change no path). At the default penalty and lag the best paths of successive
 * frames took turns between "a pause" and "no pause", and frames 13-15 came
 * out as silence, speech, silence: three segments of 10 ms. Now the pause is
 * one run (frames 13-20), and the labels are the reference's. */
static void test_pause_near_even(void **state)
{
    (void)state;
    const float p1[] = {0.977f, 0.953f, 0.879f, 0.821f, 0.871f, 0.784f, 0.674f, 0.608f,
                        0.491f, 0.448f, 0.501f, 0.296f, 0.268f, 0.369f, 0.264f, 0.337f,
                        0.496f, 0.435f, 0.404f, 0.510f, 0.440f, 0.557f, 0.885f, 0.970f,
                        0.994f, 1.000f, 1.000f, 1.000f, 1.000f, 1.000f, 1.000f};
    enum { T = sizeof p1 / sizeof p1[0] };
    float probs[2 * T];
    int ref[T];
    two_classes(probs, p1, T);
    sl_decoder_config cfg;
    sl_decoder_config_default(&cfg);
    sl_decoder *d = make(&cfg, 2);
    collector *c = malloc(sizeof *c);
    run(d, probs, T, 2, c);
    fixed_lag_reference(probs, T, 2, cfg.switch_penalty, 5, ref);
    expect_labels(c, ref, T);
    int runs_of_pause = 0;
    for (int s = 0; s < c->nseg; s++)
        runs_of_pause += c->seg_label[s] == 0;
    assert_int_equal(runs_of_pause, 1);
    free(c);
    sl_decoder_free(d);
}

/* Target class 1 with on 0.6 / off 0.3:
 * p1:    0.5 0.7 0.5 0.35 0.2 0.55 0.65 0.1
 * state: off on  on  on   off off  on   off  -> 0 1 1 1 0 0 1 0
 * (frame 5: argmax says 1 but hysteresis is off, so the best other class, 0). */
static void test_hysteresis(void **state)
{
    (void)state;
    const float p1[] = {0.5f, 0.7f, 0.5f, 0.35f, 0.2f, 0.55f, 0.65f, 0.1f};
    float probs[16];
    two_classes(probs, p1, 8);
    sl_decoder_config cfg;
    argmax_config(&cfg);
    cfg.target_class = 1;
    cfg.on_threshold = 0.6f;
    cfg.off_threshold = 0.3f;
    sl_decoder *d = make(&cfg, 2);
    collector *c = malloc(sizeof *c);
    run(d, probs, 8, 2, c);
    const int want[] = {0, 1, 1, 1, 0, 0, 1, 0};
    expect_labels(c, want, 8);
    assert_float_equal(c->conf[3], 0.35, 1e-6); /* confidence of the decided label */
    assert_float_equal(c->conf[5], 0.45, 1e-6);
    assert_int_equal(c->nseg, 5);
    assert_float_equal(c->seg_conf[1], (0.7 + 0.5 + 0.35) / 3.0, 1e-6);
    free(c);
    sl_decoder_free(d);
}

/* Thresholds changed as the stream runs, target class 1 of 2, 0.5 / 0.35 at
 * first, 0.7 / 0.5 after frame 1 has been pushed; p1 = 0.6 0.45 0.45 0.45 0.6 0.8.
 * Argmax: f0-1 are decided before the change (f0 0.6 >= 0.5 on, f1 0.45 >= 0.35
 * stays on); then f2 0.45 < 0.5 off, f3-4 below 0.7 stay off, f5 0.8 on:
 * 1 1 0 0 0 1 (unchanged: all 1). Viterbi with no penalty (each frame's argmax)
 * and a lag of 2 still holds f0-1 at the change: f0 0.6 < 0.7 is off too:
 * 0 0 0 0 0 1. Thresholds off > on, on > 1 and a negative penalty are refused and
 * the last settings kept. */
static void test_thresholds_retuned(void **state)
{
    (void)state;
    const float p1[] = {0.6f, 0.45f, 0.45f, 0.45f, 0.6f, 0.8f};
    const int want[2][6] = {{1, 1, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}};
    float probs[12];
    char err[SL_ERR_LEN];
    two_classes(probs, p1, 6);
    for (int lagged = 0; lagged < 2; lagged++) {
        sl_decoder_config cfg;
        argmax_config(&cfg);
        if (lagged) {
            cfg.smoothing = SL_SMOOTH_VITERBI;
            cfg.switch_penalty = 0.0f;
            cfg.smoothing_lag = 2;
        }
        cfg.target_class = 1;
        sl_decoder *d = make(&cfg, 2);
        collector *c = calloc(1, sizeof *c);
        sl_label_sink sink = {c, on_frame, on_segment};
        const float pen = cfg.switch_penalty;
        push_range(d, probs, 0, 2, &sink);
        assert_int_equal(c->n, lagged ? 0 : 2);
        assert_int_equal(sl_decoder_retune(d, pen, 0.7f, 0.5f, err, sizeof err), 0);
        assert_int_equal(sl_decoder_retune(d, pen, 0.3f, 0.4f, err, sizeof err), -1);
        assert_non_null(strstr(err, "0 <= off (0.4) <= on (0.3) <= 1"));
        assert_int_equal(sl_decoder_retune(d, pen, 1.5f, 0.5f, err, sizeof err), -1);
        assert_int_equal(sl_decoder_retune(d, -1.0f, 0.6f, 0.5f, err, sizeof err), -1);
        assert_non_null(strstr(err, "switch penalty -1 is not in [0, 1e6]"));
        push_range(d, probs, 2, 6, &sink);
        assert_int_equal(sl_decoder_finish(d, &sink), 0);
        assert_int_equal(c->n, 6);
        expect_labels(c, want[lagged], 6);
        assert_int_equal(sl_decoder_delay_frames(d), lagged ? 2 : 0);
        free(c);
        sl_decoder_free(d);
    }
}

/* The switch penalty changed as the stream runs: 2 classes, a lag of 10 (so every
 * label comes from the whole best path at the end), class 1's probability 0.2 but
 * for 0.9 at frames 4-5. Each step's changes are priced by the penalty in force
 * when its frame is pushed. Class 1 at frames 4-5 gains 2 ln(0.9 / 0.1) = 4.39
 * nats over class 0 and costs two changes, at the steps of frames 4 and 6
 * (staying in class 1 to the end instead costs 2 ln(0.8 / 0.2) = 2.77 for frames
 * 6-7; an earlier change 1.39 a frame). Penalty 5 throughout: 10 > 4.39, all 0.
 * Penalty 5 lowered to 1 before frame 4: 2 < 4.39, so 0 0 0 0 1 1 0 0. Penalty 1
 * raised to 5 there: the best with class 1 is a change at frame 3 (priced 1) and
 * none back, 4.39 - 1 - 1.39 - 2.77 < 0: all 0. */
static void test_penalty_retuned(void **state)
{
    (void)state;
    const float p1[] = {0.2f, 0.2f, 0.2f, 0.2f, 0.9f, 0.9f, 0.2f, 0.2f};
    const float first[3] = {5.0f, 5.0f, 1.0f}, then[3] = {5.0f, 1.0f, 5.0f};
    const int want[3][8] = {{0}, {0, 0, 0, 0, 1, 1, 0, 0}, {0}};
    float probs[16];
    char err[SL_ERR_LEN];
    two_classes(probs, p1, 8);
    for (int run = 0; run < 3; run++) {
        sl_decoder_config cfg;
        sl_decoder_config_default(&cfg);
        cfg.switch_penalty = first[run];
        cfg.smoothing_lag = 10;
        sl_decoder *d = make(&cfg, 2);
        collector *c = calloc(1, sizeof *c);
        sl_label_sink sink = {c, on_frame, on_segment};
        push_range(d, probs, 0, 4, &sink);
        assert_int_equal(c->n, 0); /* every frame still in the lag */
        int rc = sl_decoder_retune(d, then[run], cfg.on_threshold, cfg.off_threshold, err,
                                   sizeof err);
        assert_int_equal(rc, 0);
        push_range(d, probs, 4, 8, &sink);
        assert_int_equal(sl_decoder_finish(d, &sink), 0);
        assert_int_equal(c->n, 8);
        expect_labels(c, want[run], 8);
        assert_int_equal(sl_decoder_delay_frames(d), 10);
        free(c);
        sl_decoder_free(d);
    }
}

/* Minimum durations at 100 frames/s: class 1 0.03 s = 3 frames, class 2
 * 0.02 s = 2 frames.
 * in:  0 0 1 1 0 2 2 0 1 1 1 2 0 0
 * f2-3: run of 1 ends after 2 < 3 frames -> becomes the accepted 0;
 * f5-6: 2 reaches 2 frames -> accepted; f7: 0 has no minimum -> accepted;
 * f8-10: 1 reaches 3 -> accepted; f11: 2 lasts 1 < 2 -> becomes 1.
 * out: 0 0 0 0 0 2 2 0 1 1 1 1 0 0 */
static void test_min_durations(void **state)
{
    (void)state;
    const int in[] = {0, 0, 1, 1, 0, 2, 2, 0, 1, 1, 1, 2, 0, 0};
    float probs[14 * 3];
    one_hot(probs, in, 14, 3, 0.8f);
    sl_decoder_config cfg;
    argmax_config(&cfg);
    cfg.min_duration_s[1] = 0.03f;
    cfg.min_duration_s[2] = 0.02f;
    sl_decoder *d = make(&cfg, 3);
    assert_int_equal(sl_decoder_delay_frames(d), 2);
    collector *c = malloc(sizeof *c);
    run(d, probs, 14, 3, c);
    const int want[] = {0, 0, 0, 0, 0, 2, 2, 0, 1, 1, 1, 1, 0, 0};
    expect_labels(c, want, 14);
    assert_int_equal(c->nseg, 5);
    const int64_t ss[] = {0, 5, 7, 8, 12}, se[] = {5, 7, 8, 12, 14};
    for (int s = 0; s < 5; s++) {
        assert_int_equal(c->seg_start[s], ss[s]);
        assert_int_equal(c->seg_end[s], se[s]);
    }
    /* Relabelled frames carry the probability of their new label: segment 0 has
     * frames 0,1,4 at 0.8 and frames 2,3 at 0.1. */
    assert_float_equal(c->seg_conf[0], (3 * 0.8 + 2 * 0.1) / 5.0, 1e-6);
    /* Frame 2 waited until frame 4 (pushed 5th) showed its run was too short. */
    assert_int_equal(c->emitted_at[2], 5);

    /* A run still waiting at end of stream becomes the accepted label; a first
     * run is accepted at once even when short. */
    const int in2[] = {1, 0, 0, 0, 1, 1};
    one_hot(probs, in2, 6, 3, 0.8f);
    run(d, probs, 6, 3, c);
    const int want2[] = {1, 0, 0, 0, 0, 0};
    expect_labels(c, want2, 6);
    free(c);
    sl_decoder_free(d);
}

/* Target 1, thresholds 0.5/0.5, pad 0.02 s before (2 frames), 0.01 s after (1).
 * stage 2: 0 0 0 0 0 1 1 0 0 0 0 1 0 0 0
 * padded:  0 0 0 1 1 1 1 1 0 1 1 1 1 0 0 */
static void test_padding(void **state)
{
    (void)state;
    const float p1[] = {0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.9f, 0.9f, 0.1f,
                        0.1f, 0.1f, 0.1f, 0.9f, 0.1f, 0.1f, 0.1f};
    float probs[30];
    two_classes(probs, p1, 15);
    sl_decoder_config cfg;
    argmax_config(&cfg);
    cfg.target_class = 1;
    cfg.on_threshold = 0.5f;
    cfg.off_threshold = 0.5f;
    cfg.pad_before_s = 0.02f;
    cfg.pad_after_s = 0.01f;
    sl_decoder *d = make(&cfg, 2);
    assert_int_equal(sl_decoder_delay_frames(d), 2);
    collector *c = malloc(sizeof *c);
    run(d, probs, 15, 2, c);
    const int want[] = {0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0};
    expect_labels(c, want, 15);
    assert_int_equal(c->nseg, 5);
    assert_int_equal(c->seg_start[1], 3);
    assert_int_equal(c->seg_end[1], 8);
    assert_float_equal(c->seg_conf[1], (0.1 + 0.1 + 0.9 + 0.9 + 0.1) / 5.0, 1e-6);
    assert_int_equal(c->seg_start[3], 9);
    assert_int_equal(c->seg_end[3], 13);
    /* Padding before is a delay of exactly 2 frames. */
    for (int i = 0; i + 2 < 15; i++)
        assert_int_equal(c->emitted_at[i], i + 3);
    free(c);
    sl_decoder_free(d);
}

/* Seconds become the fewest whole frames that last as long, whatever side of
 * a half frame they fall (a float's 0.015 is just below it, 0.025 just above):
 * a minimum keeps no run shorter than itself, a padding covers at least itself.
 * Seen in the delays, a minimum's frames - 1 and padding before's frames. */
static void test_seconds_to_whole_frames(void **state)
{
    (void)state;
    const float s[] = {0.01f, 0.011f, 0.015f, 0.019f, 0.02f, 0.025f, 0.3f, 0.305f, 3600.0f};
    const int frames[] = {1, 2, 2, 2, 2, 3, 30, 31, 360000};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        sl_decoder_config cfg;
        argmax_config(&cfg);
        cfg.min_duration_s[1] = s[i];
        sl_decoder *d = make(&cfg, 2);
        if (sl_decoder_delay_frames(d) != frames[i] - 1)
            fail_msg("minimum %g s: %d frames, expected %d", s[i], sl_decoder_delay_frames(d) + 1,
                     frames[i]);
        sl_decoder_free(d);
        argmax_config(&cfg);
        cfg.target_class = 1;
        cfg.pad_before_s = s[i];
        d = make(&cfg, 2);
        if (sl_decoder_delay_frames(d) != frames[i])
            fail_msg("padding %g s: %d frames, expected %d", s[i], sl_decoder_delay_frames(d),
                     frames[i]);
        sl_decoder_free(d);
    }
    /* a minimum of 0.015 s: a run of 1 frame (0.01 s) is not kept */
    const int in[] = {0, 0, 1, 0, 0, 1, 1, 0};
    float probs[8 * 2];
    one_hot(probs, in, 8, 2, 0.8f);
    sl_decoder_config cfg;
    argmax_config(&cfg);
    cfg.min_duration_s[1] = 0.015f;
    sl_decoder *d = make(&cfg, 2);
    collector *c = malloc(sizeof *c);
    run(d, probs, 8, 2, c);
    const int want[] = {0, 0, 0, 0, 0, 1, 1, 0};
    expect_labels(c, want, 8);
    free(c);
    sl_decoder_free(d);
}

/* All stages at once: the delay is the sum of the stage delays. */
static void test_delay_sum_and_errors(void **state)
{
    (void)state;
    sl_decoder_config cfg;
    sl_decoder_config_default(&cfg);
    cfg.smoothing = SL_SMOOTH_VITERBI;
    cfg.smoothing_lag = 7;
    cfg.min_duration_s[0] = 0.05f;  /* 5 frames */
    cfg.target_class = 1;
    cfg.pad_before_s = 0.03f;       /* 3 frames */
    sl_decoder *d = make(&cfg, 2);
    assert_int_equal(sl_decoder_delay_frames(d), 7 + 4 + 3);
    sl_decoder_free(d);

    char err[SL_ERR_LEN] = "";
    sl_decoder_config bad = cfg;
    bad.target_class = 2;
    assert_null(sl_decoder_new(&bad, 2, 100.0, err, sizeof err));
    assert_non_null(strstr(err, "target class"));
    bad = cfg;
    bad.off_threshold = 0.9f;
    bad.on_threshold = 0.5f;
    assert_null(sl_decoder_new(&bad, 2, 100.0, err, sizeof err));
    assert_non_null(strstr(err, "threshold"));
    bad = cfg;
    bad.min_duration_s[1] = NAN;
    assert_null(sl_decoder_new(&bad, 2, 100.0, err, sizeof err));
    assert_null(sl_decoder_new(&cfg, 0, 100.0, err, sizeof err));
    assert_null(sl_decoder_new(&cfg, 2, 1e6, err, sizeof err));
    assert_string_equal(err, "decoder: frame rate 1e+06 is not in (0, 1e6) frames a second");
}

/* The defaults: Viterbi at penalty 5 with a lag of SL_SMOOTHING_LAG_DEFAULT (5)
 * frames. One frame at 0.9 has a margin of ln 9 = 2.2 nats, less than the two
 * switches it would cost (10), and is smoothed away; six at 0.9 (13.2 > 10)
 * stay. A lag below -1 is refused. */
static void test_defaults(void **state)
{
    (void)state;
    float pb[19] = {0.1f, 0.1f, 0.1f, 0.9f, 0.1f, 0.1f, 0.1f, 0.9f, 0.9f, 0.9f,
                    0.9f, 0.9f, 0.9f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    float probs[2 * 19];
    for (int t = 0; t < 19; t++) {
        probs[2 * t] = 1.0f - pb[t];
        probs[2 * t + 1] = pb[t];
    }
    sl_decoder_config cfg;
    sl_decoder_config_default(&cfg);
    assert_int_equal(cfg.smoothing, SL_SMOOTH_VITERBI);
    assert_float_equal(cfg.switch_penalty, 5.0, 0);
    sl_decoder *d = make(&cfg, 2);
    assert_int_equal(sl_decoder_delay_frames(d), 5);
    collector *c = malloc(sizeof *c);
    run(d, probs, 19, 2, c);
    const int want[] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
    expect_labels(c, want, 19);
    for (int i = 0; i + 5 < 19; i++)
        assert_int_equal(c->emitted_at[i], i + 6);
    assert_int_equal(c->nseg, 3);
    free(c);
    sl_decoder_free(d);
    char err[SL_ERR_LEN] = "";
    cfg.smoothing_lag = -2;
    assert_null(sl_decoder_new(&cfg, 2, 100.0, err, sizeof err));
    assert_non_null(strstr(err, "lag -2 out of range"));
}

/* A sink that returns non-zero stops the push with that value. */
static void test_sink_stop(void **state)
{
    (void)state;
    sl_decoder_config cfg;
    argmax_config(&cfg);
    sl_decoder *d = make(&cfg, 2);
    collector *c = calloc(1, sizeof *c);
    c->stop_after = 2;
    sl_label_sink sink = {c, on_frame, on_segment};
    const float p[2] = {0.9f, 0.1f};
    assert_int_equal(sl_decoder_push(d, p, &sink), 0);
    assert_int_equal(sl_decoder_push(d, p, &sink), 7);
    free(c);
    sl_decoder_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_argmax_and_segments),
        cmocka_unit_test(test_nan_counts_as_zero),
        cmocka_unit_test(test_viterbi_hand),
        cmocka_unit_test(test_viterbi_matches_full),
        cmocka_unit_test(test_viterbi_fixed_lag),
        cmocka_unit_test(test_pause_near_even),
        cmocka_unit_test(test_penalty_retuned_with_restarts),
        cmocka_unit_test(test_hysteresis),
        cmocka_unit_test(test_thresholds_retuned),
        cmocka_unit_test(test_penalty_retuned),
        cmocka_unit_test(test_min_durations),
        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_seconds_to_whole_frames),
        cmocka_unit_test(test_delay_sum_and_errors),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_sink_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
