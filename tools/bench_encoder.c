/* `seqlabel bench encoder`: frames per second and GFLOP/s of the encoder forward
 * pass for d_model 64/128/256 x 2/4/6 layers x windows of 128/256/512 frames, on
 * 1 and 2 threads (OpenBLAS's threads, and the encoder's own: sl_encoder_set_threads
 * with OpenBLAS on one thread), and the measured single-thread cblas_sgemm GFLOP/s
 * on a large square product (the roofline); where the AVX-512 kernel runs, also
 * its ceiling: 512-bit FMAs without loads, and the kernel on warm operands; where
 * the AMX kernel runs, that kernel on the same and larger shapes. Models: 80 log-mel inputs, 4 heads,
 * d_ff = 4 d_model, 4 classes, post-norm ReLU, whole-window attention, PyTorch's
 * default initialisation. bench/encoder/run.sh runs the same models in PyTorch in
 * the same run and prints the ratios. */
#include "common/blas_threads.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/gemm.h"
#include "model/gemm_amx.h"
#include "tools/bench.h"
#include "tools/cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Parses "64,128,256" into v (at most max values, none empty). Returns the
 * count or -1 (said). */
static int parse_list(const char *opt, const char *s, long lo, long hi, int *v, int max)
{
    char items[8][CLI_ITEM_LEN];
    int n = max <= 8 ? cli_list_items(s, items, max) : -1;
    if (n < 0) {
        cli_error("%s: '%s' is not a list of 1 to %d integers (a,b,c)", opt, s, max);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long x;
        if (cli_parse_int(opt, items[i], lo, hi, &x))
            return -1;
        v[i] = (int)x;
    }
    return n;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Median wall and process-CPU seconds of one call of fn over `reps` timed
 * batches of ~min_s each. CPU time (all threads of the process) is the steadier
 * figure on a shared machine whose load swings the wall time. */
typedef void (*work_fn)(void *);
static double median_seconds(work_fn fn, void *arg, int reps, double min_s, double *cpu_median)
{
    fn(arg); /* warm: first touch of every buffer, thread start */
    double t0 = now_s();
    fn(arg);
    double one = now_s() - t0;
    int inner = one > 0 ? (int)(min_s / one) + 1 : 1;
    double times[32], cpu[32];
    if (reps > 32)
        reps = 32;
    for (int r = 0; r < reps; r++) {
        double c0 = cpu_s();
        t0 = now_s();
        for (int i = 0; i < inner; i++)
            fn(arg);
        times[r] = (now_s() - t0) / inner;
        cpu[r] = (cpu_s() - c0) / inner;
    }
    qsort(times, (size_t)reps, sizeof times[0], cmp_double);
    qsort(cpu, (size_t)reps, sizeof cpu[0], cmp_double);
    if (cpu_median)
        *cpu_median = cpu[reps / 2];
    return times[reps / 2];
}

typedef struct {
    int n;
    float *a, *b, *c;
} sgemm_job;

static void run_sgemm(void *arg)
{
    sgemm_job *j = arg;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, j->n, j->n, j->n, 1.0f, j->a, j->n,
                j->b, j->n, 0.0f, j->c, j->n);
}

/* The AVX-512 kernel alone (model/gemm.h), and the AMX one (model/gemm_amx.h)
 * where it runs, to read the encoder's figures against: a product whose
 * operands all sit in L1 (8 x 32 outputs over k = 256, one register tile), a
 * feed-forward chunk as the encoder runs it at d_model 256 (192 rows x 1024
 * outputs over 256, weights from L2), and the Q/K/V projection of a 512-frame
 * window at d_model 256 (512 x 768 x 256). GFLOP/s count 2 M N K either way. */
typedef struct {
    int M, N, K, amx;
    float *a, *p, *c;
} kernel_job;

static void run_kernel(void *arg)
{
    kernel_job *j = arg;
    if (j->amx)
        sl_gemm_amx(j->c, j->N, j->a, j->K, j->p, j->M, j->N, j->K, 1.0f, 0, NULL, 0);
    else
        sl_gemm_packed(j->c, j->N, j->a, j->K, j->p, j->M, j->N, j->K, 1.0f, 0, NULL, 0);
}

static double kernel_gflops(int M, int N, int K, int amx, int reps)
{
    kernel_job j = {M, N, K, amx, NULL, NULL, NULL};
    size_t np = amx ? sl_gemm_amx_packed_size(N, K) : sl_gemm_packed_size(N, K);
    float *w = malloc(sizeof(float) * (size_t)N * K);
    j.a = aligned_alloc(64, (sizeof(float) * (size_t)M * K + 63) & ~(size_t)63);
    j.p = aligned_alloc(64, (sizeof(float) * np + 63) & ~(size_t)63);
    j.c = aligned_alloc(64, (sizeof(float) * (size_t)M * N + 63) & ~(size_t)63);
    double g = 0;
    if (w && j.a && j.p && j.c) {
        for (size_t i = 0; i < (size_t)M * K; i++)
            j.a[i] = (float)(i % 7) * 0.01f;
        for (size_t i = 0; i < (size_t)N * K; i++)
            w[i] = (float)(i % 5) * 0.01f;
        if (amx)
            sl_gemm_amx_pack_nt(j.p, w, K, N, K);
        else
            sl_gemm_pack_nt(j.p, w, K, N, K);
        double cpu;
        median_seconds(run_kernel, &j, reps, 0.05, &cpu);
        g = 2.0 * M * N * K / cpu / 1e9;
    }
    free(w);
    free(j.a);
    free(j.p);
    free(j.c);
    return g;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* 512-bit FMA throughput without loads: 16 independent accumulators. */
__attribute__((target("avx512f"))) static void run_fma(void *arg)
{
    float *out = arg;
    __m512 a[16];
    for (int i = 0; i < 16; i++)
        a[i] = _mm512_set1_ps((float)i * 0.001f);
    const __m512 b = _mm512_set1_ps(0.9999f), c = _mm512_set1_ps(1e-5f);
    for (int n = 0; n < 100000; n++)
        for (int i = 0; i < 16; i++)
            a[i] = _mm512_fmadd_ps(a[i], b, c);
    float s = 0;
    for (int i = 0; i < 16; i++)
        s += _mm512_reduce_add_ps(a[i]);
    *out = s;
}
#define FMA_FLOPS (100000.0 * 16 * 32)
#endif

typedef struct {
    sl_encoder *e;
    const float *feats;
    float *probs;
    int T;
} encoder_job;

static void run_encoder(void *arg)
{
    encoder_job *j = arg;
    sl_encoder_forward(j->e, j->feats, j->T, NULL, j->probs);
}

void bench_encoder_help(FILE *fp)
{
    fprintf(fp,
            "seqlabel bench encoder: encoder forward speed (frames/s, GFLOP/s) on\n"
            "random-weight models, and the single-thread cblas_sgemm roofline. Prints a TSV\n"
            "table; frames_per_cpu_s divides by the process's CPU time (all threads),\n"
            "steadier on a busy machine.\n"
            "  --d-model LIST          [64,128,256]\n"
            "  --layers LIST           [2,4,6]\n"
            "  --windows LIST          frames per window [128,256,512]\n"
            "  --threads LIST          OpenBLAS threads [1,2]\n"
            "  --heads N               attention heads; d_ff is 4 x d_model [4]\n"
            "  --band L,R              banded attention [the whole window]\n"
            "  --reps N                timed repetitions, the median is reported [5]\n"
            "  --min-time S            seconds per repetition [0.05]\n");
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: seqlabel bench encoder [OPTIONS]\n\n");
    bench_encoder_help(fp);
}

int bench_encoder(int argc, char **argv)
{
    int dms[8] = {64, 128, 256}, n_dm = 3;
    int layers[8] = {2, 4, 6}, n_layers = 3;
    int wins[8] = {128, 256, 512}, n_wins = 3;
    int threads[8] = {1, 2}, n_threads = 2;
    int band[2] = {-1, -1};
    long heads = 4, reps = 5;
    double min_time = 0.05;
    for (int i = 1; i < argc; i += 2) { /* each option and its value */
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!v) {
            usage(stderr);
            return cli_usage_error("option %s needs a value or is unknown", a);
        } else if (!strcmp(a, "--d-model")) {
            ok = (n_dm = parse_list(a, v, 2, 4096, dms, 8)) > 0;
        } else if (!strcmp(a, "--layers")) {
            ok = (n_layers = parse_list(a, v, 1, SL_MAX_LAYERS, layers, 8)) > 0;
        } else if (!strcmp(a, "--windows")) {
            ok = (n_wins = parse_list(a, v, 1, SL_MAX_WINDOW, wins, 8)) > 0;
        } else if (!strcmp(a, "--threads")) {
            ok = (n_threads = parse_list(a, v, 1, SL_MAX_THREADS, threads, 8)) > 0;
        } else if (!strcmp(a, "--band")) {
            int n = parse_list(a, v, -1, SL_MAX_WINDOW, band, 2);
            if (n == 1)
                cli_error("--band: '%s' is not two numbers of frames (LEFT,RIGHT)", v);
            ok = n == 2;
        } else if (!strcmp(a, "--heads")) {
            ok = !cli_parse_int(a, v, 1, SL_MAX_HEADS, &heads);
        } else if (!strcmp(a, "--reps")) {
            ok = !cli_parse_int(a, v, 1, 32, &reps);
        } else if (!strcmp(a, "--min-time")) {
            ok = !cli_parse_float(a, v, 0.0, 60.0, &min_time);
        } else {
            usage(stderr);
            return cli_usage_error("unknown option '%s'", a);
        }
        if (!ok) /* the value's fault said */
            return 2;
    }

    /* Roofline: one thread, 1024^3. */
    sl_blas_set_threads(1);
    sgemm_job sj = {1024, NULL, NULL, NULL};
    size_t nn = (size_t)sj.n * sj.n;
    sj.a = malloc(nn * sizeof(float));
    sj.b = malloc(nn * sizeof(float));
    sj.c = malloc(nn * sizeof(float));
    if (!sj.a || !sj.b || !sj.c)
        return cli_error("out of memory");
    for (size_t i = 0; i < nn; i++) {
        sj.a[i] = (float)(i % 7) * 0.1f;
        sj.b[i] = (float)(i % 5) * 0.1f;
    }
    double ts = median_seconds(run_sgemm, &sj, (int)reps, 0.2, NULL);
    printf("# roofline: single-thread cblas_sgemm 1024x1024x1024: %.1f GFLOP/s\n",
           2.0 * sj.n * sj.n * sj.n / ts / 1e9);
    const int amx = sl_gemm_amx_available();
    const char *kernel = sl_gemm_avx512() ? "AVX-512" : "AVX2";
    printf("# encoder matrix products: %s\n",
           amx ? "AMX bf16x3 kernel (model/gemm_amx.c; attention with a band or d_k < 32: "
                 "AVX-512, model/gemm.c)"
           : sl_gemm_avx512()    ? "AVX-512 kernels (model/gemm.c)"
           : sl_gemm_available() ? "AVX2 kernels (model/gemm.c; AVX-512's results)"
                                 : "cblas_sgemm");
    if (sl_gemm_available()) {
#ifdef FMA_FLOPS
        if (sl_gemm_avx512()) {
            float sink;
            double fcpu;
            median_seconds(run_fma, &sink, (int)reps, 0.05, &fcpu);
            printf("# 512-bit FMA peak (no loads): %.1f GFLOP/s\n", FMA_FLOPS / fcpu / 1e9);
        }
#endif
        printf("# %s kernel, CPU time: operands in L1 (8 x 32 x 256): %.1f GFLOP/s; "
               "d_model 256 feed-forward chunk (192 x 1024 x 256): %.1f GFLOP/s; "
               "512 x 768 x 256: %.1f GFLOP/s\n", kernel,
               kernel_gflops(8, 32, 256, 0, (int)reps), kernel_gflops(192, 1024, 256, 0, (int)reps),
               kernel_gflops(512, 768, 256, 0, (int)reps));
    }
    if (amx)
        printf("# AMX bf16x3 kernel, CPU time, fp32-equivalent flops: 8 x 32 x 256: %.1f GFLOP/s; "
               "192 x 1024 x 256: %.1f GFLOP/s; 512 x 768 x 256: %.1f GFLOP/s\n",
               kernel_gflops(8, 32, 256, 1, (int)reps), kernel_gflops(192, 1024, 256, 1, (int)reps),
               kernel_gflops(512, 768, 256, 1, (int)reps));
    free(sj.a);
    free(sj.b);
    free(sj.c);

    printf("d_model\tlayers\twindow\tthreads\tthreaded_by\tframes_per_s\tgflop_per_s\tms_per_window\t"
           "frames_per_cpu_s\n");
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const char *names[4] = {"silence", "speech", "music", "noise"};
    for (int di = 0; di < n_dm; di++)
        for (int li = 0; li < n_layers; li++) {
            sl_model_config c;
            sl_model_config_default(&c);
            c.n_features = sl_feature_dim(&fc);
            c.d_model = dms[di];
            c.n_heads = (int)heads;
            c.d_ff = 4 * dms[di];
            c.n_layers = layers[li];
            c.n_classes = 4;
            c.band_left = band[0];
            c.band_right = band[1];
            c.max_window = 0;
            for (int wi = 0; wi < n_wins; wi++)
                c.max_window = wins[wi] > c.max_window ? wins[wi] : c.max_window;
            if (c.stream_window > c.max_window) {
                c.stream_window = c.max_window;
                c.stream_left = c.stream_lookahead = 0;
            }
            char err[SL_ERR_LEN];
            sl_model *m = sl_model_create(&c, &fc, NULL, NULL, names, err, sizeof err);
            if (!m)
                return cli_error("%s", err);
            sl_model_init_params(m, 42);
            sl_encoder *e = sl_encoder_new(m, c.max_window, err, sizeof err);
            float *feats = malloc(sizeof(float) * (size_t)c.max_window * c.n_features);
            float *probs = malloc(sizeof(float) * (size_t)c.max_window * c.n_classes);
            if (!e || !feats || !probs)
                return cli_error("out of memory");
            uint32_t s = 1;
            for (size_t i = 0; i < (size_t)c.max_window * c.n_features; i++) {
                s = s * 1664525u + 1013904223u;
                feats[i] = (float)(s >> 8) / 16777216.0f * 2.0f - 1.0f;
            }
            for (int wi = 0; wi < n_wins; wi++)
                for (int ti = 0; ti < n_threads; ti++)
                    for (int mode = 0; mode < (threads[ti] > 1 ? 2 : 1); mode++) {
                        /* mode 0: OpenBLAS threads; 1: the encoder's own threads */
                        sl_blas_set_threads(mode ? 1 : threads[ti]);
                        if (sl_encoder_set_threads(e, mode ? threads[ti] : 1, err, sizeof err))
                            return cli_error("%s", err);
                        encoder_job ej = {e, feats, probs, wins[wi]};
                        double cpu;
                        double t = median_seconds(run_encoder, &ej, (int)reps, min_time, &cpu);
                        printf("%d\t%d\t%d\t%d\t%s\t%.0f\t%.1f\t%.3f\t%.0f\n", c.d_model,
                               c.n_layers, wins[wi], threads[ti], mode ? "encoder" : "openblas",
                               wins[wi] / t, sl_encoder_flops(&c, wins[wi]) / t / 1e9, t * 1e3,
                               wins[wi] / cpu);
                        fflush(stdout);
                    }
            free(feats);
            free(probs);
            sl_encoder_free(e);
            sl_model_free(m);
        }
    sl_blas_set_threads(1);
    return 0;
}
