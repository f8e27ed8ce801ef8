#include "common/text.h"

#include <stdarg.h>
#include <stdio.h>

void sl_text_put(sl_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->pos < t->len ? t->len - t->pos : 0;
    int n = vsnprintf(room ? t->buf + t->pos : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->pos += (size_t)n;
}

void sl_text_json_string(sl_text *t, const char *s)
{
    sl_text_put(t, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sl_text_put(t, "\\%c", c);
        else if (c < 0x20)
            sl_text_put(t, "\\u%04x", c);
        else
            sl_text_put(t, "%c", c);
    }
    sl_text_put(t, "\"");
}

int sl_text_finish(sl_text *t)
{
    if (t->len > 0 && t->pos >= t->len)
        t->buf[t->len - 1] = '\0';
    else if (t->len > 0)
        t->buf[t->pos] = '\0';
    return (int)t->pos;
}
