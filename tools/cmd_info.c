/* `seqlabel info MODEL`: everything a model file says about itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "model/model_internal.h" /* sl_labeler_plan: asked, not allocated */
#include "tools/cli.h"

static const char *window_name(sl_window_type w)
{
    switch (w) {
    case SL_WINDOW_POVEY: return "povey";
    case SL_WINDOW_HANN: return "hann";
    case SL_WINDOW_HAMMING: return "hamming";
    case SL_WINDOW_RECTANGULAR: return "rectangular";
    }
    return "?";
}

static void print_band(const char *name, int v)
{
    if (v < 0)
        printf("  %-18s unlimited\n", name);
    else
        printf("  %-18s %d frames\n", name, v);
}

/* A labeler's latency in samples with cfg and its rate; -1 (why in err, if
 * given) when it cannot be made. */
static long long latency_samples(const sl_model *m, const sl_labeler_config *cfg, int *rate,
                                 char *err, size_t errlen)
{
    sl_labeler *l = sl_labeler_plan(m, cfg, err, errlen);
    long long n = l ? (long long)sl_labeler_latency_samples(l) : -1;
    *rate = l ? sl_labeler_sample_rate(l) : 1;
    sl_labeler_free(l);
    return n;
}

static void print_latency(const sl_model *m, const sl_labeler_config *cfg, const char *name,
                          const char *with)
{
    char err[SL_ERR_LEN];
    int rate;
    const long long n = latency_samples(m, cfg, &rate, err, sizeof err);
    if (n >= 0)
        printf("  %-18s %lld samples (%.9g s) with %s\n", name, n, (double)n / rate, with);
    else
        printf("  %-18s unknown: %s\n", name, err);
}

/* What a labeler allocates with the default settings: a model file of a
 * megabyte may ask for gigabytes (docs/labeling.md, "Memory and work"). */
static void print_memory(const sl_model *m)
{
    char err[SL_ERR_LEN];
    sl_labeler *l = sl_labeler_plan(m, NULL, err, sizeof err);
    if (l)
        printf("  %-18s %zu bytes (%.3g MB) for a labeler with the default settings on one thread\n",
               "memory", sl_labeler_memory_bytes(l), (double)sl_labeler_memory_bytes(l) / 1e6);
    else
        printf("  %-18s unknown: %s\n", "memory", err);
    sl_labeler_free(l);
}

static void print_stats(const char *name, const float *v, int n)
{
    printf("  %-18s", name);
    for (int i = 0; i < n; i++)
        printf(" %.9g", (double)v[i]);
    printf("\n");
}

static void json_int(sl_text *t, const char *key, long long v)
{
    sl_text_put(t, ",\"%s\":%lld", key, v);
}

/* "key":[...] after `sep` */
static void json_floats(sl_text *t, const char *sep, const char *key, const float *v, int n)
{
    sl_text_put(t, "%s\"%s\":[", sep, key);
    for (int i = 0; i < n; i++) {
        sl_text_put(t, i ? "," : "");
        sl_text_json_number(t, 1, (double)v[i]);
    }
    sl_text_put(t, "]");
}

/* --json: the text's fields as one JSON object on one line, the same names
 * (units in the names: _frames, _samples, _s, _hz, _ms, _bytes), for scripts. */
static void info_json(sl_text *t, const char *path, const sl_model *m)
{
    const sl_model_config *c = sl_model_get_config(m);
    const sl_feature_config *f = sl_model_feature_config(m);
    sl_text_put(t, "{\"model\":");
    sl_text_json_string(t, path);
    sl_text_put(t, ",\"encoder\":{\"n_features\":%d", c->n_features);
    json_int(t, "d_model", c->d_model);
    json_int(t, "n_heads", c->n_heads);
    json_int(t, "n_layers", c->n_layers);
    json_int(t, "d_ff", c->d_ff);
    json_int(t, "n_classes", c->n_classes);
    json_int(t, "max_window_frames", c->max_window);
    sl_text_put(t, ",\"activation\":\"%s\",\"norm\":\"%s\",\"qkv_bias\":%s,\"scale_input\":%s",
                c->activation == SL_ACT_GELU ? "gelu" : "relu", c->norm_first ? "pre" : "post",
                c->qkv_bias ? "true" : "false", c->scale_input ? "true" : "false");
    json_int(t, "band_left_frames", c->band_left); /* -1: unlimited */
    json_int(t, "band_right_frames", c->band_right);
    sl_text_json_next_figure(t, "ln_eps", 1, (double)c->ln_eps);
    sl_text_put(t, "},\"streaming\":{\"stream_window_frames\":%d", c->stream_window);
    json_int(t, "stream_left_frames", c->stream_left);
    json_int(t, "stream_lookahead_frames", c->stream_lookahead);
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    int rate;
    long long lat = latency_samples(m, &cfg, &rate, NULL, 0);
    sl_text_put(t, ",\"latency_samples\":%lld", lat);
    sl_text_json_next_figure(t, "latency_s", lat >= 0, (double)lat / rate);
    cfg.decoder.smoothing = SL_SMOOTH_NONE;
    lat = latency_samples(m, &cfg, &rate, NULL, 0);
    sl_text_put(t, ",\"latency_argmax_samples\":%lld", lat);
    sl_text_json_next_figure(t, "latency_argmax_s", lat >= 0, (double)lat / rate);
    sl_labeler *l = sl_labeler_plan(m, NULL, NULL, 0);
    sl_text_put(t, ",\"memory_bytes\":%lld", l ? (long long)sl_labeler_memory_bytes(l) : -1);
    sl_labeler_free(l);
    sl_text_put(t, "},\"features\":{\"sample_rate_hz\":%d", f->sample_rate);
    sl_text_json_next_figure(t, "frame_length_ms", 1, (double)f->frame_length_ms);
    json_int(t, "frame_length_samples", sl_feature_frame_length(f));
    sl_text_json_next_figure(t, "frame_shift_ms", 1, (double)f->frame_shift_ms);
    json_int(t, "frame_shift_samples", sl_feature_frame_shift(f));
    json_int(t, "num_mel_bins", f->num_mel_bins);
    sl_text_json_next_figure(t, "low_freq_hz", 1, (double)f->low_freq);
    sl_text_json_next_figure(t, "high_freq_hz", 1, (double)f->high_freq);
    sl_text_put(t, ",\"window\":\"%s\"", window_name(f->window));
    sl_text_json_next_figure(t, "preemph", 1, (double)f->preemph);
    json_int(t, "remove_dc", f->remove_dc);
    sl_text_json_next_figure(t, "dither", 1, (double)f->dither);
    json_int(t, "dither_seed", f->dither_seed);
    json_int(t, "use_energy", f->use_energy);
    sl_text_json_next_figure(t, "energy_floor", 1, (double)f->energy_floor);
    json_int(t, "raw_energy", f->raw_energy);
    json_int(t, "num_ceps", f->num_ceps);
    sl_text_json_next_figure(t, "cepstral_lifter", 1, (double)f->cepstral_lifter);
    sl_text_json_next_figure(t, "input_scale", 1, (double)f->input_scale);
    json_floats(t, "},\"normalisation\":{", "mean", sl_model_norm_mean(m), c->n_features);
    json_floats(t, ",", "inv_std", sl_model_norm_inv_std(m), c->n_features);
    sl_text_put(t, "},\"classes\":[");
    for (int k = 0; k < c->n_classes; k++) {
        sl_text_put(t, k ? "," : "");
        sl_text_json_string(t, sl_model_class_name(m, k));
    }
    sl_text_put(t, "],\"tensors\":[");
    for (int i = 0; i < sl_model_num_tensors(m); i++) {
        const sl_tensor_info *ti = sl_model_tensor(m, i);
        sl_text_put(t, "%s{\"name\":", i ? "," : "");
        sl_text_json_string(t, ti->name);
        if (ti->ndim == 2)
            sl_text_put(t, ",\"shape\":[%d,%d]}", ti->shape[0], ti->shape[1]);
        else
            sl_text_put(t, ",\"shape\":[%d]}", ti->shape[0]);
    }
    sl_text_put(t, "],\"parameters\":%zu", sl_model_num_params(m));
    sl_text_put(t, ",\"forward_flops_per_window\":%.0f}\n",
                sl_encoder_flops(c, c->stream_window));
}

int sl_cmd_info(int argc, char **argv)
{
    int help = 0, options = 1; /* after "--" no word is an option */
    for (int i = 1; i < argc; i++) {
        options &= strcmp(argv[i], "--") != 0;
        help |= options && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"));
    }
    if (help) {
        printf("usage: seqlabel info [--json] MODEL\n\n"
               "Prints every header field of a seqlabel model file (encoder shape, feature\n"
               "settings, normalisation statistics, streaming window), the latency and\n"
               "memory of a labeler with the default settings, its classes, its tensors\n"
               "with their shapes, and the parameter count.\n"
               "\n"
               "  --json      the same as one JSON object on one line (units in the names:\n"
               "              _frames, _samples, _s, _hz, _ms, _bytes; -1: unlimited or\n"
               "              unknown)\n"
               "  -h, --help  this text\n");
        return 0;
    }
    const char *path = NULL;
    int json = 0, models = 0;
    options = 1;
    for (int i = 1; i < argc; i++)
        if (options && !strcmp(argv[i], "--"))
            options = 0;
        else if (options && !strcmp(argv[i], "--json"))
            json = 1;
        else if (options && argv[i][0] == '-' && argv[i][1]) /* or: ./-NAME, -- -NAME */
            return cli_usage_error("info: unknown option '%s' (see seqlabel info --help)", argv[i]);
        else
            path = argv[i], models++;
    if (models != 1)
        return cli_usage_error("info: one MODEL expected, %s (see seqlabel info --help)",
                               models < 1 ? "none given" : "more given");
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(path, err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    if (json) {
        sl_text count = {0};
        info_json(&count, path, m);
        sl_text t = {malloc(count.pos + 1), count.pos + 1, 0};
        if (t.buf) {
            info_json(&t, path, m);
            fputs(t.buf, stdout);
        }
        free(t.buf);
        sl_model_free(m);
        return t.buf ? 0 : cli_error("out of memory");
    }
    const sl_model_config *c = sl_model_get_config(m);
    const sl_feature_config *f = sl_model_feature_config(m);

    printf("model %s\n", path);
    printf("encoder:\n");
    printf("  %-18s %d\n", "n_features", c->n_features);
    printf("  %-18s %d\n", "d_model", c->d_model);
    printf("  %-18s %d\n", "n_heads", c->n_heads);
    printf("  %-18s %d\n", "n_layers", c->n_layers);
    printf("  %-18s %d\n", "d_ff", c->d_ff);
    printf("  %-18s %d\n", "n_classes", c->n_classes);
    printf("  %-18s %d frames\n", "max_window", c->max_window);
    printf("  %-18s %s\n", "activation", c->activation == SL_ACT_GELU ? "gelu" : "relu");
    printf("  %-18s %s\n", "norm", c->norm_first ? "pre-norm (norm_first) + final LayerNorm"
                                                   : "post-norm");
    printf("  %-18s %s\n", "qkv_bias", c->qkv_bias ? "yes" : "no");
    printf("  %-18s %s\n", "scale_input", c->scale_input ? "yes (x sqrt(d_model))" : "no");
    print_band("band_left", c->band_left);
    print_band("band_right", c->band_right);
    printf("  %-18s %.9g\n", "ln_eps", (double)c->ln_eps);
    printf("streaming:\n");
    printf("  %-18s %d frames\n", "stream_window", c->stream_window);
    printf("  %-18s %d frames\n", "stream_left", c->stream_left);
    printf("  %-18s %d frames\n", "stream_lookahead", c->stream_lookahead);
    /* The latency these give: how long after its audio a frame's label is final
     * (docs/labeling.md), which a live user plans for. */
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    print_latency(m, &cfg, "latency", "the default decoder");
    cfg.decoder.smoothing = SL_SMOOTH_NONE;
    print_latency(m, &cfg, "", "argmax labels (--smoothing none)");
    print_memory(m);
    printf("features:\n");
    printf("  %-18s %d Hz\n", "sample_rate", f->sample_rate);
    /* in samples too, which Kaldi's (int)(rate * ms / 1000) makes them: at
     * 22.05 kHz 10 ms is 220 samples, 9.977 ms, on which every time rests */
    const int win = sl_feature_frame_length(f), hop = sl_feature_frame_shift(f);
    printf("  %-18s %.9g ms (%d samples: %.6g ms)\n", "frame_length", (double)f->frame_length_ms,
           win, 1000.0 * win / f->sample_rate);
    printf("  %-18s %.9g ms (%d samples: %.6g ms)\n", "frame_shift", (double)f->frame_shift_ms,
           hop, 1000.0 * hop / f->sample_rate);
    printf("  %-18s %d\n", "num_mel_bins", f->num_mel_bins);
    printf("  %-18s %.9g Hz\n", "low_freq", (double)f->low_freq);
    printf("  %-18s %.9g Hz%s\n", "high_freq", (double)f->high_freq,
           f->high_freq <= 0 ? " (offset from Nyquist)" : "");
    printf("  %-18s %s\n", "window", window_name(f->window));
    printf("  %-18s %.9g\n", "preemph", (double)f->preemph);
    printf("  %-18s %d\n", "remove_dc", f->remove_dc);
    printf("  %-18s %.9g\n", "dither", (double)f->dither);
    printf("  %-18s %u\n", "dither_seed", f->dither_seed);
    printf("  %-18s %d\n", "use_energy", f->use_energy);
    printf("  %-18s %.9g\n", "energy_floor", (double)f->energy_floor);
    printf("  %-18s %d\n", "raw_energy", f->raw_energy);
    printf("  %-18s %d%s\n", "num_ceps", f->num_ceps, f->num_ceps ? " (MFCC)" : " (log-mel fbank)");
    printf("  %-18s %.9g\n", "cepstral_lifter", (double)f->cepstral_lifter);
    printf("  %-18s %.9g\n", "input_scale", (double)f->input_scale);
    printf("normalisation:\n");
    print_stats("mean", sl_model_norm_mean(m), c->n_features);
    print_stats("inv_std", sl_model_norm_inv_std(m), c->n_features);
    printf("classes: %d\n", c->n_classes);
    for (int k = 0; k < c->n_classes; k++)
        printf("  %d\t%s\n", k, sl_model_class_name(m, k));
    printf("tensors: %d\n", sl_model_num_tensors(m));
    for (int i = 0; i < sl_model_num_tensors(m); i++) {
        const sl_tensor_info *t = sl_model_tensor(m, i);
        if (t->ndim == 2)
            printf("  %-45s %d x %d\n", t->name, t->shape[0], t->shape[1]);
        else
            printf("  %-45s %d\n", t->name, t->shape[0]);
    }
    printf("parameters: %zu (%.2f MB as float32)\n", sl_model_num_params(m),
           (double)sl_model_num_params(m) * 4 / 1e6);
    printf("forward: %.1f MFLOP per %d-frame window\n", sl_encoder_flops(c, c->stream_window) / 1e6,
           c->stream_window);
    sl_model_free(m);
    return 0;
}
