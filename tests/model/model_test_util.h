/* Helpers shared by the model tests: fixture paths and whole-file reads. */
#ifndef SL_MODEL_TEST_UTIL_H
#define SL_MODEL_TEST_UTIL_H

#include <stddef.h>

#include "seqlabel.h"
#include "tests/common/test_files.h" /* test_read_file */

/* $SL_FIXTURES/model/<name> into buf (PATH_MAX-sized). */
const char *fixture_path(char *buf, size_t len, const char *name);
/* Whole gzip file, decompressed. */
unsigned char *read_gz(const char *path, size_t *size);
/* A fixture's float32 file; *n gets the count of floats. */
float *read_f32(const char *name, size_t *n);
/* A model fixture NAME.slm.gz, loaded from memory. */
sl_model *load_gz_model(const char *name);
/* max |a - b| / max(1, |b|) over n values. */
double max_rel_diff(const float *a, const float *b, size_t n);

#endif
