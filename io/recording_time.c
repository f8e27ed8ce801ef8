/* When a recording began, as its file says: a Broadcast WAVE file's 'bext'
 * chunk (EBU Tech 3285), which recorders and broadcast loggers write. */
#include "io/io_internal.h"

#include <ctype.h>
#include <string.h>
#include <time.h>

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
    if (!sl_civil_time_exists(&tm))
        return -1;
    /* the chunk names no zone: the recorder's clock is taken to be local time
     * here (TZ), as date(1) takes a time without a zone */
    tm.tm_isdst = -1;
    *us = (int64_t)mktime(&tm) * 1000000;
    return 0;
}
