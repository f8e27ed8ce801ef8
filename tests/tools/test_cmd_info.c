/* `seqlabel info --json MODEL`: the built command (SL_SEQLABEL) on the shipped
 * default model and on one of another shape (MFCC, a band, relu). The JSON,
 * read by json-glib, must hold what the library says of the model: its shape,
 * feature settings, latency and memory (sl_labeler's), class names, tensors
 * and normalisation statistics, every float as the float itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seqlabel.h"

static char dir[] = "/tmp/sl-info-test-XXXXXX";

/* The command's standard output for `info --json path` (g_free'd). */
static char *info_json(const char *path)
{
    const char *seqlabel = getenv("SL_SEQLABEL");
    assert_non_null(seqlabel);
    char cmd[1024], buf[4096];
    snprintf(cmd, sizeof cmd, "'%s' info --json '%s'", seqlabel, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    GString *out = g_string_new(NULL);
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
        g_string_append_len(out, buf, (gssize)n);
    const int status = pclose(p);
    if (status != 0)
        fail_msg("%s: status %d", cmd, status);
    return g_string_free(out, FALSE);
}

static gint64 member_int(JsonObject *o, const char *section, const char *key)
{
    return json_object_get_int_member(json_object_get_object_member(o, section), key);
}

static void expect_floats(JsonObject *norm, const char *key, const float *want, int n)
{
    JsonArray *a = json_object_get_array_member(norm, key);
    assert_int_equal(json_array_get_length(a), n);
    for (int i = 0; i < n; i++)
        assert_true((float)json_array_get_double_element(a, (guint)i) == want[i]);
}

/* The JSON of path's model says what the library says of it. */
static void same_as_library(const char *path)
{
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(path, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    const sl_model_config *c = sl_model_get_config(m);
    const sl_feature_config *f = sl_model_feature_config(m);
    char *text = info_json(path);
    const char *end = strchr(text, '\n');
    assert_true(end && end[1] == '\0'); /* one line */
    JsonParser *p = json_parser_new();
    GError *e = NULL;
    if (!json_parser_load_from_data(p, text, -1, &e))
        fail_msg("not JSON: %s: %s", e->message, text);
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    assert_string_equal(json_object_get_string_member(o, "model"), path);
    assert_int_equal(member_int(o, "encoder", "d_model"), c->d_model);
    assert_int_equal(member_int(o, "encoder", "n_heads"), c->n_heads);
    assert_int_equal(member_int(o, "encoder", "n_layers"), c->n_layers);
    assert_int_equal(member_int(o, "encoder", "d_ff"), c->d_ff);
    assert_int_equal(member_int(o, "encoder", "band_left_frames"), c->band_left);
    assert_int_equal(member_int(o, "streaming", "stream_window_frames"), c->stream_window);
    assert_int_equal(member_int(o, "streaming", "stream_lookahead_frames"), c->stream_lookahead);
    assert_int_equal(member_int(o, "features", "sample_rate_hz"), f->sample_rate);
    assert_int_equal(member_int(o, "features", "num_ceps"), f->num_ceps);
    assert_int_equal(member_int(o, "features", "frame_shift_samples"), sl_feature_frame_shift(f));
    sl_labeler *l = sl_labeler_new(m, NULL, err, sizeof err);
    assert_non_null(l);
    assert_int_equal(member_int(o, "streaming", "latency_samples"), sl_labeler_latency_samples(l));
    assert_int_equal(member_int(o, "streaming", "memory_bytes"), sl_labeler_memory_bytes(l));
    sl_labeler_free(l);
    JsonArray *classes = json_object_get_array_member(o, "classes");
    assert_int_equal(json_array_get_length(classes), c->n_classes);
    for (int k = 0; k < c->n_classes; k++)
        assert_string_equal(json_array_get_string_element(classes, (guint)k),
                            sl_model_class_name(m, k));
    JsonArray *tensors = json_object_get_array_member(o, "tensors");
    assert_int_equal(json_array_get_length(tensors), sl_model_num_tensors(m));
    const sl_tensor_info *t0 = sl_model_tensor(m, 0);
    JsonObject *first = json_array_get_object_element(tensors, 0);
    assert_string_equal(json_object_get_string_member(first, "name"), t0->name);
    assert_int_equal(json_array_get_int_element(json_object_get_array_member(first, "shape"), 0),
                     t0->shape[0]);
    assert_int_equal(json_object_get_int_member(o, "parameters"), sl_model_num_params(m));
    JsonObject *norm = json_object_get_object_member(o, "normalisation");
    expect_floats(norm, "mean", sl_model_norm_mean(m), c->n_features);
    expect_floats(norm, "inv_std", sl_model_norm_inv_std(m), c->n_features);
    g_object_unref(p);
    g_free(text);
    sl_model_free(m);
}

static void default_model(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/model/default.slm", getenv("SL_SOURCE_ROOT"));
    same_as_library(path);
}

/* MFCC features, a band, relu, a class name JSON must escape */
static void other_shape(void **state)
{
    (void)state;
    sl_model_config c;
    sl_model_config_default(&c);
    sl_feature_config f;
    sl_feature_config_default(&f);
    f.num_ceps = 13;
    f.num_mel_bins = 23;
    c.n_features = sl_feature_dim(&f);
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 1;
    c.d_ff = 32;
    c.n_classes = 2;
    c.band_left = 8;
    c.activation = SL_ACT_RELU;
    const char *names[2] = {"say \"hi\"", "back\\slash"};
    char err[SL_ERR_LEN], path[600];
    sl_model *m = sl_model_create(&c, &f, NULL, NULL, names, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    sl_model_init_params(m, 5);
    snprintf(path, sizeof path, "%s/mfcc.slm", dir);
    assert_int_equal(sl_model_save(m, path, err, sizeof err), 0);
    sl_model_free(m);
    same_as_library(path);
    unlink(path);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_model),
        cmocka_unit_test(other_shape),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
