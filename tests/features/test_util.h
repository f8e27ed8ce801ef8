/* Helpers of the feature tests: fixture files and whole-signal extraction. */
#ifndef SL_TEST_FEATURES_UTIL_H
#define SL_TEST_FEATURES_UTIL_H

#include <stddef.h>
#include "seqlabel.h"

/* Reads $SL_FIXTURES/features/<name> as float32; *n gets the count. Fails the test if absent. */
float *fx_read_f32(const char *name, size_t *n);

/* Frames collected by a push callback. */
typedef struct {
    float *data;
    int64_t frames, cap;
    int dim;
} frame_sink;
int sink_frame(void *user, int64_t index, const float *frame, int dim);
void sink_free(frame_sink *s);

/* Extracts x[0..n-1] pushing chunks of the given sizes (cycled); sizes NULL: one push. */
void extract(const sl_feature_config *cfg, const float *x, size_t n, const size_t *sizes,
             size_t n_sizes, frame_sink *out);

#endif
