#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"
#include "tests/common/test_files.h"

float *fx_read_f32(const char *name, size_t *n)
{
    char path[1024];
    size_t bytes;
    float *x = (float *)test_read_file(test_fixture_path(path, sizeof path, "features", name), &bytes);
    *n = bytes / sizeof(float);
    return x;
}

int sink_frame(void *user, int64_t index, const float *frame, int dim)
{
    frame_sink *s = user;
    assert_int_equal(index, s->frames); /* indices count up from 0 without gaps */
    if (s->frames == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->data = realloc(s->data, (size_t)(s->cap * dim) * sizeof *s->data);
        assert_non_null(s->data);
    }
    s->dim = dim;
    memcpy(s->data + s->frames * dim, frame, (size_t)dim * sizeof *frame);
    s->frames++;
    return 0;
}

void sink_free(frame_sink *s)
{
    free(s->data);
    memset(s, 0, sizeof *s);
}

void extract(const sl_feature_config *cfg, const float *x, size_t n, const size_t *sizes,
             size_t n_sizes, frame_sink *out)
{
    char err[SL_ERR_LEN];
    memset(out, 0, sizeof *out);
    sl_features *f = sl_features_new(cfg, err, sizeof err);
    if (!f)
        fail_msg("sl_features_new: %s", err);
    size_t pos = 0, k = 0;
    while (pos < n) {
        size_t c = sizes ? sizes[k++ % n_sizes] : n;
        if (c > n - pos)
            c = n - pos;
        if (sl_features_push(f, x + pos, c, sink_frame, out, err, sizeof err) != 0)
            fail_msg("push: %s", err);
        pos += c;
    }
    assert_int_equal(sl_features_samples_seen(f), (int64_t)n);
    sl_features_free(f);
}
