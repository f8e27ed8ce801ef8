/* Helpers of the labeler tests: a small random-weight model built in memory,
 * a deterministic test signal, and a sink that records everything. */
#ifndef LABELER_TEST_UTIL_H
#define LABELER_TEST_UTIL_H

#include <stdint.h>

#include "seqlabel.h"

/* Classes silence, speech, music; 23 mel bins at 16 kHz; d_model 16, 2 heads,
 * 2 layers; stream window `window` with `left` and `lookahead` frames. Random
 * weights from `seed` and non-trivial normalisation statistics. */
sl_model *tu_make_model(uint64_t seed, int window, int left, int lookahead);

/* n samples: noise whose loudness and colour change every ~0.3 s, so that the
 * encoder's output (and the labels) vary along the signal. */
float *tu_make_signal(int64_t n, uint64_t seed);

typedef struct {
    int64_t n, cap;
    int K;
    int64_t *index;
    int *label;
    float *conf;
    float *probs;        /* n x K */
    int64_t *emitted_at; /* value of `samples` when the frame came out */
    int64_t samples;     /* set by the test before each push */
    int64_t nseg;
    int64_t *seg_start, *seg_end;
    int *seg_label;
} tu_record;

void tu_record_init(tu_record *r, int64_t cap, int K);
void tu_record_clear(tu_record *r);
void tu_record_free(tu_record *r);
sl_label_sink tu_record_sink(tu_record *r);
/* Fails the test unless both recorded the same frames, labels, bitwise equal
 * probabilities and the same segments. */
void tu_record_assert_equal(const tu_record *a, const tu_record *b);

#endif
