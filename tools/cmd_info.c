/* `seqlabel info MODEL`: everything a model file says about itself. */
#include <stdio.h>
#include <string.h>

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

static void print_latency(const sl_model *m, const sl_labeler_config *cfg, const char *name,
                          const char *with)
{
    char err[SL_ERR_LEN];
    sl_labeler *l = sl_labeler_plan(m, cfg, err, sizeof err);
    if (l)
        printf("  %-18s %lld samples (%.9g s) with %s\n", name,
               (long long)sl_labeler_latency_samples(l),
               (double)sl_labeler_latency_samples(l) / sl_labeler_sample_rate(l), with);
    else
        printf("  %-18s unknown: %s\n", name, err);
    sl_labeler_free(l);
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

int sl_cmd_info(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: seqlabel info MODEL\n\n"
               "Prints every header field of a seqlabel model file (encoder shape, feature\n"
               "settings, normalisation statistics, streaming window), the latency and\n"
               "memory of a labeler with the default settings, its classes, its tensors\n"
               "with their shapes, and the parameter count.\n"
               "\n"
               "  -h, --help  this text\n");
        return 0;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1]) /* a model so named is ./-NAME */
            return cli_usage_error("info: unknown option '%s' (see seqlabel info --help)", argv[i]);
    if (argc != 2)
        return cli_usage_error("info: one MODEL expected, %s (see seqlabel info --help)",
                               argc < 2 ? "none given" : "more given");
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(argv[1], err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    const sl_model_config *c = sl_model_get_config(m);
    const sl_feature_config *f = sl_model_feature_config(m);

    printf("model %s\n", argv[1]);
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
