#include "train_test_util.h"
#include "tests/common/test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

const char *train_fixture_path(char *buf, size_t len, const char *name)
{
    return test_fixture_path(buf, len, "train", name);
}

void *read_fixture(const char *name, size_t *size)
{
    char path[4096];
    train_fixture_path(path, sizeof path, name);
    return test_read_file(path, size);
}

double test_uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}
