/* The library's one way of reporting a failure: format a one-line message into
 * the caller's (err, errlen) buffer (either may be NULL/0) and return -1.
 * Internal to libseqlabel. */
#ifndef SL_COMMON_ERRORS_H
#define SL_COMMON_ERRORS_H

#include <stddef.h>

int sl_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
