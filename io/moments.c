/* Moments in time: whether a calendar time exists, the moments users give
 * (sl_parse_utc: @SECONDS, ISO 8601 with a zone), and when a recording began as
 * its file says (a Broadcast WAVE file's 'bext' chunk, EBU Tech 3285, which
 * recorders and broadcast loggers write). */
#include "io/io_internal.h"
#include "common/text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 1 when tm (year, month, day, hour, minute, second; UTC) names a moment of the
 * calendar: no February 30th, no hour 24. */
static int civil_time_exists(const struct tm *tm)
{
    /* timegm normalises: February 30th comes back as March 2nd */
    struct tm back = *tm;
    timegm(&back);
    return back.tm_year == tm->tm_year &&
           back.tm_mon == tm->tm_mon && back.tm_mday == tm->tm_mday &&
           back.tm_hour == tm->tm_hour && back.tm_min == tm->tm_min && back.tm_sec == tm->tm_sec;
}

int sl_parse_utc(const char *s, int64_t *us)
{
    struct tm tm = {0};
    int n = 0, zh = 0, zm = 0;
    char sign = 0;
    const char *p = s;
    if (*p == '@') { /* seconds since the epoch, as date(1) takes them: [-]D[.D] */
        const char *q = p + 1 + (p[1] == '-');
        size_t whole = strspn(q, "0123456789");
        int plain = whole > 0 && (q[whole] == '\0' ||
                                  (q[whole] == '.' && q[whole + 1] != '\0' &&
                                   strspn(q + whole + 1, "0123456789") == strlen(q + whole + 1)));
        double v;
        char *end;
        errno = 0;
        v = sl_strtod_c(p + 1, &end);
        if (plain && !errno && end != p + 1 && *end == '\0' && fabs(v) < 1e11) {
            *us = llround(v * 1e6);
            return 0;
        }
    } else if (sscanf(p, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                      &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) == 6 && n == 19) {
        p += n;
        int64_t frac = 0, scale = 1000000;
        if (*p == '.' && isdigit((unsigned char)p[1]))
            for (p++; isdigit((unsigned char)*p); p++)
                if (scale > 1)
                    frac += (*p - '0') * (scale /= 10);
        if (*p == 'Z' && p[1] == '\0')
            sign = '+';
        else if ((*p == '+' || *p == '-') && (sscanf(p + 1, "%2d:%2d%n", &zh, &zm, &n) == 2 ||
                                             sscanf(p + 1, "%2d%2d%n", &zh, &zm, &n) == 2) &&
                 p[1 + n] == '\0' && zh < 24 && zm < 60)
            sign = *p;
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        if (sign && civil_time_exists(&tm)) {
            time_t t = timegm(&tm);
            *us = ((int64_t)t - (sign == '-' ? -1 : 1) * (zh * 3600 + zm * 60)) * 1000000 + frac;
            return 0;
        }
    }
    return -1;
}

/* n digits at s into *v; 0, or -1 when one is no digit. */
static int digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        *v = *v * 10 + (s[i] - '0');
    }
    return 0;
}

int sl_bwf_origination(SNDFILE *sf, int64_t *us)
{
    SF_BROADCAST_INFO bi;
    memset(&bi, 0, sizeof bi);
    if (!sf || sf_command(sf, SFC_GET_BROADCAST_INFO, &bi, sizeof bi) != SF_TRUE)
        return -1;
    /* "yyyy-mm-dd" and "hh:mm:ss"; the standard lets the separators be any
     * character (it recommends - _ : space and .) */
    const char *d = bi.origination_date, *t = bi.origination_time;
    struct tm tm = {0};
    if (digits(d, 4, &tm.tm_year) || digits(d + 5, 2, &tm.tm_mon) || digits(d + 8, 2, &tm.tm_mday) ||
        digits(t, 2, &tm.tm_hour) || digits(t + 3, 2, &tm.tm_min) || digits(t + 6, 2, &tm.tm_sec))
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    if (!civil_time_exists(&tm))
        return -1;
    /* the chunk names no zone: the recorder's clock is taken to be local time
     * here (TZ), as date(1) takes a time without a zone */
    tm.tm_isdst = -1;
    *us = (int64_t)mktime(&tm) * 1000000;
    return 0;
}
