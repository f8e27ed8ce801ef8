/* Helpers shared by the training tests: fixture files and a small seeded
 * generator for test data. */
#ifndef SL_TRAIN_TEST_UTIL_H
#define SL_TRAIN_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* $SL_FIXTURES/train/<name> into buf. */
const char *train_fixture_path(char *buf, size_t len, const char *name);
/* Whole fixture file, malloc'd; *size gets its length in bytes. Fails the test if absent. */
void *read_fixture(const char *name, size_t *size);
/* Uniform in [-1, 1) from a 64-bit LCG state (deterministic test data). */
double test_uniform(uint64_t *state);

#endif
