#include "common/text.h"

#include "seqlabel.h" /* SL_TEXT_TOO_LONG */

#include <ctype.h>
#include <limits.h>

#include <glib.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* Switches this thread to the C locale (uselocale: the thread's alone, other
 * threads and the process's locale untouched); returns the one to restore. */
static locale_t enter_c_locale(void)
{
    pthread_once(&c_locale_once, make_c_locale);
    return c_locale ? uselocale(c_locale) : (locale_t)0;
}

static void leave_c_locale(locale_t old)
{
    if (old)
        uselocale(old);
}

void sl_text_put(sl_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->buf && t->pos < t->len ? t->len - t->pos : 0;
    locale_t old = enter_c_locale();
    int n = vsnprintf(room ? t->buf + t->pos : NULL, room, fmt, ap);
    leave_c_locale(old);
    va_end(ap);
    if (n > 0)
        t->pos += (size_t)n;
}

double sl_strtod_c(const char *s, char **end)
{
    locale_t old = enter_c_locale();
    double v = strtod(s, end);
    leave_c_locale(old);
    return v;
}

float sl_strtof_c(const char *s, char **end)
{
    locale_t old = enter_c_locale();
    float v = strtof(s, end);
    leave_c_locale(old);
    return v;
}

size_t sl_utf8_char(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (len == 0)
        return 0;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    size_t n;
    uint32_t c, min;
    if ((u[0] & 0xe0) == 0xc0)
        n = 2, c = u[0] & 0x1f, min = 0x80;
    else if ((u[0] & 0xf0) == 0xe0)
        n = 3, c = u[0] & 0x0f, min = 0x800;
    else if ((u[0] & 0xf8) == 0xf0)
        n = 4, c = u[0] & 0x07, min = 0x10000;
    else
        return 0; /* a continuation byte, or 0xf8..0xff */
    if (n > len)
        return 0;
    for (size_t k = 1; k < n; k++) {
        if ((u[k] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (u[k] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

void sl_text_json_string(sl_text *t, const char *s)
{
    sl_text_put(t, "\"");
    for (size_t left = strlen(s); left > 0;) {
        uint32_t cp;
        size_t n = sl_utf8_char(s, left, &cp);
        if (n == 0) { /* no UTF-8, which JSON text must be: the replacement character */
            sl_text_put(t, "\\ufffd");
            n = 1;
        } else if (cp == '"' || cp == '\\')
            sl_text_put(t, "\\%c", (int)cp);
        else if (cp < 0x20)
            sl_text_put(t, "\\u%04x", (unsigned)cp);
        else
            sl_text_put(t, "%.*s", (int)n, s);
        s += n;
        left -= n;
    }
    sl_text_put(t, "\"");
}

char *sl_skip_bom(char *s)
{
    return !strncmp(s, "\xEF\xBB\xBF", 3) ? s + 3 : s;
}

int sl_text_finish(sl_text *t)
{
    if (t->buf && t->len > 0 && t->pos >= t->len)
        t->buf[t->len - 1] = '\0';
    else if (t->buf && t->len > 0)
        t->buf[t->pos] = '\0';
    /* a length an int cannot hold: said, not wrapped (a TextGrid of 20
     * million intervals came back as -1778300118, of 40 million as a short
     * positive length, a document cut short) */
    return t->pos > INT_MAX ? SL_TEXT_TOO_LONG : (int)t->pos;
}

int sl_is_space_char(uint32_t cp)
{
    return cp == ' ' || (cp >= '\t' && cp <= '\r') || (cp >= 0x1c && cp <= 0x1f) || cp == 0x85 ||
           cp == 0xa0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200b) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
           cp == 0x205f || cp == 0x3000 || cp == 0xfeff;
}

int sl_is_invisible_format(uint32_t cp)
{
    /* (the prepended concatenation marks, Arabic's number signs and the
     * like, are format characters that print) */
    static const uint32_t visible[][2] = {{0x200c, 0x200d}, {0x0600, 0x0605}, {0x06dd, 0x06dd},
                                          {0x070f, 0x070f}, {0x0890, 0x0891}, {0x08e2, 0x08e2},
                                          {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
                                          {0xe0020, 0xe007f}};
    if (cp > 0x10ffff || g_unichar_type(cp) != G_UNICODE_FORMAT)
        return 0;
    for (size_t k = 0; k < sizeof visible / sizeof visible[0]; k++)
        if (cp >= visible[k][0] && cp <= visible[k][1])
            return 0;
    return 1;
}

int sl_shows_as_itself(uint32_t cp)
{
    return cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0) && !sl_is_invisible_format(cp);
}

static int ascii(const char *s)
{
    while (*s && !(*s & 0x80))
        s++;
    return !*s;
}

char *sl_text_nfc(const char *s)
{
    if (ascii(s) || !g_utf8_validate(s, -1, NULL))
        return strdup(s);
    char *g = g_utf8_normalize(s, -1, G_NORMALIZE_NFC), *copy = g ? strdup(g) : NULL;
    g_free(g);
    return copy;
}

int sl_text_same(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return 1;
    /* (not both ASCII: NFC maps a few code points, the Kelvin sign, to ASCII) */
    if (ascii(a) && ascii(b))
        return 0;
    char *x = sl_text_nfc(a), *y = sl_text_nfc(b); /* (bytes that are no UTF-8: as they are) */
    const int same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

int sl_text_index(const char *const *names, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(names[k], name))
            return k;
    for (int k = 0; k < n; k++)
        if (sl_text_same(names[k], name))
            return k;
    return -1;
}

void sl_rttm_field(char *dst, size_t size, const char *s)
{
    if (!size)
        return;
    size_t len = strlen(s), in = 0, out = 0;
    while (in < len) {
        uint32_t cp;
        size_t n = sl_utf8_char(s + in, len - in, &cp);
        /* (a '"' first would open a quoted field for CSV readers of a
         * tab-separated column, pandas' and Python's csv, which would then
         * run on across lines) */
        int blank = n && (sl_is_space_char(cp) || (in == 0 && cp == '"'));
        size_t put = n && !blank ? n : 1;
        if (out + put >= size)
            break;
        if (n && !blank)
            memcpy(dst + out, s + in, n);
        else
            dst[out] = '_';
        out += put;
        in += n ? n : 1;
    }
    dst[out] = '\0';
}

int sl_number_as_written(const char *s)
{
    return !isspace((unsigned char)s[0]) && !strpbrk(s, "xX");
}

char *sl_trim_space(char *s)
{
    static const char space[] = " \t\n\r\f\v";
    s += strspn(s, space);
    size_t n = strlen(s);
    while (n && strchr(space, s[n - 1]))
        s[--n] = '\0';
    return s;
}

static locale_t utf8_locale;
static pthread_once_t utf8_locale_once = PTHREAD_ONCE_INIT;

static void make_utf8_locale(void)
{
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

const char *sl_text_field(char *buf, size_t n, const char *s, int width, int max, int right)
{
    /* wcwidth under C.UTF-8 (this thread's alone): CJK two columns, combining
     * marks none; without that locale, a column a character */
    pthread_once(&utf8_locale_once, make_utf8_locale);
    locale_t old = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
    size_t len = strlen(s), used = 0;
    int cols = 0;
    while (used < len) {
        uint32_t cp;
        size_t m = sl_utf8_char(s + used, len - used, &cp);
        int w = m ? (utf8_locale ? wcwidth((wchar_t)cp) : 1) : 1;
        w = w < 0 ? 1 : w;
        m = m ? m : 1; /* a byte that is no UTF-8: one column, as terminals show it */
        if ((max > 0 && cols + w > max) || used + m >= n)
            break;
        used += m;
        cols += w;
    }
    if (old)
        uselocale(old);
    size_t pad = cols < width ? (size_t)(width - cols) : 0;
    if (used + pad >= n)
        pad = n > used + 1 ? n - used - 1 : 0;
    if (right) {
        memset(buf, ' ', pad);
        memcpy(buf + pad, s, used);
    } else {
        memcpy(buf, s, used);
        memset(buf + used, ' ', pad);
    }
    buf[used + pad] = 0;
    return buf;
}

const char *sl_text_figure(char *buf, size_t n, int defined, double v)
{
    snprintf(buf, n, defined ? "%.4f" : "-", v);
    return buf;
}

void sl_text_json_number(sl_text *t, int defined, double v)
{
    if (defined)
        sl_text_put(t, "%.9g", v);
    else
        sl_text_put(t, "null");
}

void sl_text_json_figure(sl_text *t, const char *key, int defined, double v)
{
    sl_text_put(t, "\"%s\":", key);
    sl_text_json_number(t, defined, v);
}

void sl_text_json_next_figure(sl_text *t, const char *key, int defined, double v)
{
    sl_text_put(t, ",");
    sl_text_json_figure(t, key, defined, v);
}

int sl_text_shown(char *buf, const char *s)
{
    sl_text t = {buf, SL_SHOWN_LEN, 0};
    int foreign = 0;
    size_t i = 0, len = strlen(s);
    for (size_t m; i < len && i < 128; i += m) {
        uint32_t cp;
        m = sl_utf8_char(s + i, len - i, &cp);
        if (m && sl_shows_as_itself(cp))
            sl_text_put(&t, "%.*s", (int)m, s + i);
        else /* every byte of a control or format character, or the one foreign byte */
            for (size_t b = 0; b < (m ? m : 1); b++)
                sl_text_put(&t, "\\x%02x", (unsigned char)s[i + b]);
        foreign |= !m;
        m = m ? m : 1;
    }
    if (i < len) /* cut: said, so a long field does not look whole */
        sl_text_put(&t, "...");
    sl_text_finish(&t);
    return foreign;
}
