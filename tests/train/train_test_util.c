#include "train_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

const char *train_fixture_path(char *buf, size_t len, const char *name)
{
    const char *dir = getenv("SL_FIXTURES");
    snprintf(buf, len, "%s/train/%s", dir ? dir : "tests/fixtures", name);
    return buf;
}

void *read_fixture(const char *name, size_t *size)
{
    char path[4096];
    train_fixture_path(path, sizeof path, name);
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
    *size = (size_t)n;
    return buf;
}

double test_uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}
