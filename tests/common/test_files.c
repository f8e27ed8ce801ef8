#include "tests/common/test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

const char *test_fixture_path(char *buf, size_t len, const char *area, const char *name)
{
    const char *dir = getenv("SL_FIXTURES");
    snprintf(buf, len, "%s/%s/%s", dir ? dir : "tests/fixtures", area, name);
    return buf;
}

unsigned char *test_read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    buf[n] = '\0';
    *size = (size_t)n;
    return buf;
}

double test_utc_seconds(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *u = strstr(text, pattern);
    if (!u)
        fail_msg("no %s in %.80s", pattern, text);
    struct tm tm = {0};
    const char *rest = strptime(u + strlen(pattern), "%Y-%m-%dT%H:%M:%S", &tm);
    if (!rest)
        fail_msg("not a UTC time: %.40s", u);
    return (double)timegm(&tm) + strtod(rest, NULL); /* ".070000Z": the fraction */
}
