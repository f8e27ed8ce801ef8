/* Small option helpers shared by `seqlabel train` and `seqlabel eval`
 * (header-only: two users, a few lines each). */
#ifndef SL_TRAIN_CLI_H
#define SL_TRAIN_CLI_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"

/* Splits "a,b,c" in place into names; -1 on an empty or too long name. */
static inline int train_cli_split_classes(char *s, const char **names, int *n)
{
    *n = 0;
    for (char *p = s;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        size_t len = strlen(p);
        if (len == 0 || len > SL_MAX_CLASS_NAME || *n == SL_MAX_CLASSES)
            return -1;
        names[(*n)++] = p;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* "L,R" with integers >= -1. */
static inline int train_cli_parse_pair(const char *s, int *a, int *b)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end != ',')
        return -1;
    const char *s2 = end + 1;
    long y = strtol(s2, &end, 10);
    if (errno || end == s2 || *end || x < -1 || y < -1 || x > SL_MAX_WINDOW || y > SL_MAX_WINDOW)
        return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

/* $XDG_CACHE_HOME/seqlabel/features, else ~/.cache/seqlabel/features, else NULL. */
static inline const char *train_cli_default_cache(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(buf, len, "%s/seqlabel/features", xdg);
    else if (home && home[0])
        snprintf(buf, len, "%s/.cache/seqlabel/features", home);
    else
        return NULL;
    return buf;
}

#endif
