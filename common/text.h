/* Text built into a caller's buffer the snprintf way: what does not fit is cut
 * off, and the length the whole text needs is counted, so a caller can grow its
 * buffer and format again. Internal to libseqlabel (label formats, metrics). */
#ifndef SL_COMMON_TEXT_H
#define SL_COMMON_TEXT_H

#include <stddef.h>

typedef struct {
    char *buf;
    size_t len;
    size_t pos; /* length needed so far */
} sl_text;

__attribute__((format(printf, 2, 3))) void sl_text_put(sl_text *t, const char *fmt, ...);
/* A JSON string of s, which must be valid UTF-8 (class names are: the model
 * loader checks), so only quotes, backslashes and control characters need
 * escapes. */
void sl_text_json_string(sl_text *t, const char *s);
/* NUL-terminates (within len) and returns the length the whole text needs. */
int sl_text_finish(sl_text *t);

#endif
