#include "model_test_util.h"
#include "tests/common/test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

const char *fixture_path(char *buf, size_t len, const char *name)
{
    return test_fixture_path(buf, len, "model", name);
}


unsigned char *read_gz(const char *path, size_t *size)
{
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        fail_msg("cannot open %s", path);
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        assert_non_null(buf);
        int got = gzread(gz, buf + n, (unsigned)(cap - n));
        if (got < 0)
            fail_msg("gzread %s failed", path);
        if (got == 0)
            break;
        n += (size_t)got;
    }
    gzclose(gz);
    *size = n;
    return buf;
}

float *read_f32(const char *name, size_t *n)
{
    char path[4096];
    size_t size;
    unsigned char *b = test_read_file(fixture_path(path, sizeof path, name), &size);
    *n = size / 4;
    return (float *)b;
}

sl_model *load_gz_model(const char *name)
{
    char path[4096], file[512], err[SL_ERR_LEN];
    snprintf(file, sizeof file, "%s.slm.gz", name);
    size_t size;
    unsigned char *data = read_gz(fixture_path(path, sizeof path, file), &size);
    sl_model *m = sl_model_load_memory(data, size, file, err, sizeof err);
    free(data);
    if (!m)
        fail_msg("%s", err);
    return m;
}

double max_rel_diff(const float *a, const float *b, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double scale = b[i] > 1.0f || b[i] < -1.0f ? (b[i] < 0 ? -b[i] : b[i]) : 1.0;
        double d = (a[i] - b[i]) / scale;
        d = d < 0 ? -d : d;
        if (!(d <= worst)) /* NaN counts as the worst */
            worst = d != d ? 1e30 : d;
    }
    return worst;
}
