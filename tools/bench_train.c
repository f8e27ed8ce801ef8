/* `seqlabel bench train`: training throughput, frames per second of one full
 * step (forward saving activations, cross-entropy, backward, gradient
 * clipping, AdamW update) on random normalised inputs and random labels, for
 * the trainer's default shape (80 log-mel inputs, d_model 128, 4 heads, 4 layers,
 * d_ff 512, 4 classes, post-norm ReLU) and a batch of 16 windows of 400
 * frames, on 1 and 2 threads (the step's own, as `seqlabel train --threads`
 * uses them). bench/train/run.sh runs the same model
 * and batch in PyTorch in the same run and prints the ratios. */
#include "common/blas_threads.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/train_step.h"
#include "tools/bench.h"
#include "tools/cli.h"
#include "tools/train_cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_train_help(FILE *fp)
{
    fprintf(fp,
            "seqlabel bench train: frames/s of full training steps (forward, loss, backward,\n"
            "clip, AdamW) on the trainer's default shape. Prints a TSV table; the median\n"
            "of the timed steps.\n"
            "  --threads LIST          training-step threads [1,2]\n"
            "  --batch N               windows per step [16]\n"
            "  --window T              frames per window [400]\n"
            "  --d-model N             [128]\n"
            "  --heads N               [4]\n"
            "  --layers N              [4]\n"
            "  --d-ff N                [512]\n"
            "  --band L,R              banded attention [the whole window]\n"
            "  --reps N                timed steps [7]\n");
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: seqlabel bench train [OPTIONS]\n\n");
    bench_train_help(fp);
}

int bench_train(int argc, char **argv)
{
    int threads[8] = {1, 2}, n_threads = 2;
    long batch = 16, window = 400, reps = 7, dm = 128, heads = 4, layers = 4, dff = 512;
    int band[2] = {-1, -1};
    for (int i = 1; i < argc; i += 2) { /* each option and its value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!v) {
            usage(stderr);
            return cli_usage_error("bench train: '%s' needs a value or is unknown", a);
        } else if (!strcmp(a, "--threads")) {
            char items[8][CLI_ITEM_LEN];
            n_threads = cli_list_items(v, items, 8);
            if (n_threads < 0)
                return cli_usage_error("%s: '%s' is not a list of 1 to 8 thread counts (1,2)", a, v);
            for (int t = 0; t < n_threads && !bad; t++) {
                long x;
                bad = cli_parse_int(a, items[t], 1, SL_MAX_THREADS, &x);
                threads[t] = (int)x;
            }
        } else if (!strcmp(a, "--batch")) {
            bad = cli_parse_int(a, v, 1, 4096, &batch);
        } else if (!strcmp(a, "--window")) {
            bad = cli_parse_int(a, v, 1, SL_MAX_WINDOW, &window);
        } else if (!strcmp(a, "--reps")) {
            bad = cli_parse_int(a, v, 1, 1000, &reps);
        } else if (!strcmp(a, "--d-model")) {
            bad = cli_parse_int(a, v, 2, SL_MAX_DIM, &dm);
        } else if (!strcmp(a, "--heads")) {
            bad = cli_parse_int(a, v, 1, SL_MAX_HEADS, &heads);
        } else if (!strcmp(a, "--layers")) {
            bad = cli_parse_int(a, v, 1, SL_MAX_LAYERS, &layers);
        } else if (!strcmp(a, "--d-ff")) {
            bad = cli_parse_int(a, v, 1, SL_MAX_DIM, &dff);
        } else if (!strcmp(a, "--band")) {
            bad = train_cli_parse_pair(v, &band[0], &band[1]);
        } else {
            usage(stderr);
            return cli_usage_error("bench train: unknown option '%s'", a);
        }
        if (bad)
            return cli_usage_error("bench train: bad value for %s", a);
    }
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    sl_model_config c;
    sl_model_config_default(&c);
    c.n_features = sl_feature_dim(&fc);
    c.n_classes = 4;
    c.d_model = (int)dm;
    c.n_heads = (int)heads;
    c.n_layers = (int)layers;
    c.d_ff = (int)dff;
    c.band_left = band[0];
    c.band_right = band[1];
    if (c.max_window < window)
        c.max_window = (int)window;
    if (c.stream_window > c.max_window) {
        c.stream_window = c.max_window;
        c.stream_left = c.stream_lookahead = 0;
    }
    const char *names[4] = {"silence", "speech", "music", "noise"};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&c, &fc, NULL, NULL, names, err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    sl_model_init_params(m, 42);
    const int B = (int)batch, T = (int)window, F = c.n_features;
    size_t np = sl_model_num_params(m);
    sl_train_step *s = sl_train_step_new(m, B, T, err, sizeof err);
    float *x = malloc((size_t)B * T * F * sizeof *x);
    int32_t *y = malloc((size_t)B * T * sizeof *y);
    float *g = malloc(np * sizeof *g), *am = calloc(np, sizeof *am), *av = calloc(np, sizeof *av);
    uint8_t *mask = malloc(np);
    if (!s || !x || !y || !g || !am || !av || !mask)
        return cli_error("%s", s ? "out of memory" : err);
    uint32_t r = 1;
    for (size_t i = 0; i < (size_t)B * T * F; i++) {
        r = r * 1664525u + 1013904223u;
        x[i] = (float)(r >> 8) / 16777216.0f * 4.0f - 2.0f;
    }
    for (size_t i = 0; i < (size_t)B * T; i++) {
        r = r * 1664525u + 1013904223u;
        y[i] = (int32_t)((r >> 16) % 4);
    }
    sl_model_decay_mask(m, mask);
    sl_adamw_config ac = {1e-4f, 0.9f, 0.999f, 1e-8f, 0.01f};
    float *params = sl_model_params(m);
    printf("# seqlabel train step: d_model %d, heads %d, layers %d, d_ff %d, %d inputs, batch %d x %d frames, "
           "%zu parameters\n", c.d_model, c.n_heads, c.n_layers, c.d_ff, F, B, T, np);
    /* cpu_frames_per_s: frames per second of process CPU time (all threads), the
     * steadier figure when other jobs share the cores. */
    printf("threads\tframes_per_s\tms_per_step\tloss\tcpu_frames_per_s\n");
    int64_t step = 0;
    for (int ti = 0; ti < n_threads; ti++) {
        /* The trainer's threading: the step's own threads over whole windows,
         * OpenBLAS on one thread. */
        sl_blas_set_threads(1);
        if (sl_train_step_set_threads(s, threads[ti], err, sizeof err))
            return cli_error("%s", err);
        double times[1000], cpus[1000];
        float loss = 0.0f;
        for (int rep = -1; rep < (int)reps; rep++) { /* rep -1: warm-up */
            double t0 = now_s(), c0 = cpu_s();
            loss = sl_train_step_run(s, m, x, y, NULL, B, T, g, NULL, NULL);
            sl_grad_clip(g, np, 1.0f);
            sl_adamw_update(params, g, am, av, np, ++step, &ac, mask);
            if (rep >= 0) {
                times[rep] = now_s() - t0;
                cpus[rep] = cpu_s() - c0;
            }
        }
        qsort(times, (size_t)reps, sizeof times[0], cmp_double);
        qsort(cpus, (size_t)reps, sizeof cpus[0], cmp_double);
        double t = times[reps / 2], tc = cpus[reps / 2];
        printf("%d\t%.0f\t%.1f\t%.4f\t%.0f\n", threads[ti], (double)B * T / t, t * 1e3, loss,
               (double)B * T / tc);
        fflush(stdout);
    }
    sl_blas_set_threads(1);
    free(x);
    free(y);
    free(g);
    free(am);
    free(av);
    free(mask);
    sl_train_step_free(s);
    sl_model_free(m);
    return 0;
}
