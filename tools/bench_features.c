/* `seqlabel bench features`: frames per second of the feature extractor on one
 * thread, for a synthetic signal (16 kHz, 10 minutes by default) streamed in
 * bounded blocks, warm and with every buffer allocated before timing. The
 * torchaudio side of the comparison is bench/features/run.sh. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tools/bench.h"
#include "tools/cli.h"

#define BLOCK 16000L /* samples per push: 1 s at 16 kHz */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Speech-like test signal: a gliding harmonic tone with a slow envelope plus
 * white noise, so every mel band sees energy. Deterministic (own LCG). */
/* x as raw float32 into path; 0 when written. A file cut short is removed (a
 * device, /dev/null, is written in place and left alone). */
/* The signal written as every output of the command is (cli_output_open:
 * a temporary file renamed into place, another user's link in /tmp refused).
 * 0, or 1 (said). */
static int save_signal(const char *path, const float *x, size_t n)
{
    cli_output o;
    if (cli_output_open(&o, path, "wb") != 0)
        return 1;
    if (fwrite(x, sizeof *x, n, o.fp) != n) {
        cli_error("%s: write failed: %s", path, strerror(errno));
        cli_output_abort(&o);
        return 1;
    }
    return cli_output_commit(&o);
}

static void make_signal(float *x, size_t n, int rate)
{
    uint32_t s = 12345;
    double phase = 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = (double)i / rate;
        double f0 = 150.0 + 60.0 * sin(2 * M_PI * 0.7 * t);
        phase += 2 * M_PI * f0 / rate;
        if (phase > 2 * M_PI)
            phase -= 2 * M_PI;
        double env = 0.5 + 0.5 * sin(2 * M_PI * 2.3 * t);
        double v = env * (0.3 * sin(phase) + 0.15 * sin(3 * phase) + 0.08 * sin(7 * phase));
        s = s * 1664525u + 1013904223u;
        v += 0.01 * (((double)(s >> 8) / 16777216.0) - 0.5);
        x[i] = (float)v;
    }
}

typedef struct {
    double checksum;
    int64_t frames;
} sink;

static int consume(void *user, int64_t index, const float *frame, int dim)
{
    (void)index;
    sink *k = user;
    k->checksum += frame[0] + frame[dim - 1];
    k->frames++;
    return 0;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_features_help(FILE *fp)
{
    fprintf(fp,
            "seqlabel bench features: times the feature extractor on one thread: a synthetic\n"
            "signal pushed in 1-second blocks, warm, buffers preallocated; prints the median\n"
            "of the runs, streamed (each block handed over in a block buffer, as a decoder\n"
            "would) and read straight from the whole signal in RAM.\n"
            "  --seconds S             length of the signal [600]\n"
            "  --mel-bins N            [80]\n"
            "  --sample-rate R         [16000]\n"
            "  --runs K                timed runs, the median is reported [9]\n"
            "  --energy                add log-energy as dimension 0\n"
            "  --mfcc N                N cepstral coefficients instead of log-mel [0: off]\n"
            "  --save-signal FILE      write the signal's float32 samples (bench/features/)\n");
}

int bench_features(int argc, char **argv)
{
    double seconds = 600.0;
    long mel = 80, rate = 16000, runs = 9, ceps = 0;
    int energy = 0;
    const char *save = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: seqlabel bench features [OPTIONS]\n\n");
            bench_features_help(stdout);
            return 0;
        }
        if (!strcmp(a, "--energy")) {
            energy = 1;
            continue;
        }
        static const char *const valued[] = {"--seconds", "--mel-bins", "--sample-rate", "--runs", "--mfcc",
                                             "--save-signal"};
        int known = 0;
        for (size_t o = 0; o < sizeof valued / sizeof valued[0]; o++)
            known |= !strcmp(a, valued[o]);
        if (!known)
            return cli_usage_error("bench features: unknown option %s (see --help)", a);
        if (!v)
            return cli_usage_error("bench features: %s needs a value (see --help)", a);
        i++;
        if (!strcmp(a, "--seconds")) {
            if (cli_parse_float(a, v, 1.0, 36000.0, &seconds) < 0)
                return 2;
        } else if (!strcmp(a, "--mel-bins")) {
            if (cli_parse_int(a, v, SL_MIN_MEL_BINS, SL_MAX_MEL_BINS, &mel) < 0)
                return 2;
        } else if (!strcmp(a, "--sample-rate")) {
            if (cli_parse_int(a, v, SL_MIN_SAMPLE_RATE, SL_MAX_SAMPLE_RATE, &rate) < 0)
                return 2;
        } else if (!strcmp(a, "--runs")) {
            if (cli_parse_int(a, v, 1, 1000, &runs) < 0)
                return 2;
        } else if (!strcmp(a, "--mfcc")) {
            if (cli_parse_int(a, v, 1, 1024, &ceps) < 0)
                return 2;
        } else if (!strcmp(a, "--save-signal")) {
            save = v;
            if (!strcmp(save, "-")) /* (cli_output_open's name for standard output) */
                return cli_usage_error("--save-signal: a file, not standard output, where the "
                                       "report goes");
        } else {
            return cli_usage_error("bench features: unknown option %s (see --help)", a);
        }
    }
    sl_feature_config cfg;
    sl_feature_config_default(&cfg);
    cfg.sample_rate = (int)rate;
    cfg.num_mel_bins = (int)mel;
    cfg.use_energy = energy;
    cfg.num_ceps = (int)ceps;
    char err[SL_ERR_LEN];
    sl_features *f = sl_features_new(&cfg, err, sizeof err);
    if (!f) /* the settings given (out of memory aside): a wrong command line */
        return sl_feature_config_validate(&cfg, NULL, 0) ? cli_usage_error("bench features: %s", err)
                                                         : cli_error("bench features: %s", err);

    size_t n = (size_t)(seconds * (double)rate);
    float *x = malloc(n * sizeof *x);
    double *times = malloc(2 * (size_t)runs * sizeof *times), *cpu = times + runs;
    if (!x || !times) {
        sl_features_free(f);
        return cli_error("bench features: out of memory for %zu samples", n);
    }
    make_signal(x, n, (int)rate);
    if (save && save_signal(save, x, n) != 0) {
        free(x);
        free(times);
        sl_features_free(f);
        return 1;
    }
    sink k = {0, 0};
    /* Warm-up: caches, branch predictors, lazily mapped pages of the library. */
    for (size_t pos = 0; pos < n && pos < (size_t)rate * 20; pos += BLOCK) {
        size_t c = n - pos < (size_t)BLOCK ? n - pos : (size_t)BLOCK;
        sl_features_push(f, x + pos, c, consume, &k, err, sizeof err);
    }
    /* Two ways of feeding the same signal, each timed `runs` times:
     *  streamed: each 1-second block is first copied (untimed) into a
     *    preallocated block buffer, as a decoder or a pipeline hands audio over,
     *    so the timed push reads its input from cache;
     *  in RAM: the pushes read straight from the 10-minute array, so the timed
     *    region also pays for reading 38 MB from memory. */
    float *block = malloc(BLOCK * sizeof *block);
    if (!block)
        return cli_error("bench features: out of memory");
    memset(block, 0, BLOCK * sizeof *block);
    double *t_ram = malloc(2 * (size_t)runs * sizeof *t_ram), *c_ram = t_ram + runs;
    if (!t_ram)
        return cli_error("bench features: out of memory");
    int64_t frames = 0;
    for (long r = 0; r < runs; r++) {
        sl_features_reset(f);
        k.frames = 0;
        double wall = 0.0, cpu_t = 0.0;
        for (size_t pos = 0; pos < n; pos += BLOCK) {
            size_t c = n - pos < (size_t)BLOCK ? n - pos : (size_t)BLOCK;
            memcpy(block, x + pos, c * sizeof *block);
            double t0 = now_s(), c0 = cpu_s();
            if (sl_features_push(f, block, c, consume, &k, err, sizeof err) != 0)
                return cli_error("bench features: %s", err);
            wall += now_s() - t0;
            cpu_t += cpu_s() - c0;
        }
        times[r] = wall;
        cpu[r] = cpu_t;
        frames = k.frames;

        sl_features_reset(f);
        k.frames = 0;
        double t0 = now_s(), c0 = cpu_s();
        for (size_t pos = 0; pos < n; pos += BLOCK) {
            size_t c = n - pos < (size_t)BLOCK ? n - pos : (size_t)BLOCK;
            if (sl_features_push(f, x + pos, c, consume, &k, err, sizeof err) != 0)
                return cli_error("bench features: %s", err);
        }
        t_ram[r] = now_s() - t0;
        c_ram[r] = cpu_s() - c0;
    }
    qsort(times, (size_t)runs, sizeof *times, cmp_double);
    qsort(cpu, (size_t)runs, sizeof *cpu, cmp_double);
    qsort(t_ram, (size_t)runs, sizeof *t_ram, cmp_double);
    qsort(c_ram, (size_t)runs, sizeof *c_ram, cmp_double);
    double med = times[runs / 2], best = times[0];
    printf("bench features: %.0f s of %ld Hz audio, %d dims (%ld mel bins%s%s), %lld frames, one thread, "
           "%ld-sample pushes\n",
           seconds, rate, sl_feature_dim(&cfg), mel, energy ? ", energy" : "", ceps ? ", MFCC" : "",
           (long long)frames, BLOCK);
    printf("  streamed: median of %ld runs: %.4f s = %.0f frames/s = %.0fx real time (best run %.0f frames/s)\n",
           runs, med, frames / med, seconds / med, frames / best);
    /* On a shared machine the thread's CPU time leaves out the time other
     * processes held the core; it is the steadier figure for comparisons. */
    printf("  streamed: median thread CPU time: %.4f s = %.0f frames/s\n", cpu[runs / 2], frames / cpu[runs / 2]);
    printf("  in RAM:   median of %ld runs: %.4f s = %.0f frames/s; thread CPU time %.0f frames/s\n", runs,
           t_ram[runs / 2], frames / t_ram[runs / 2], frames / c_ram[runs / 2]);
    printf("frames_per_second %.0f\n", frames / med);
    printf("cpu_frames_per_second %.0f\n", frames / cpu[runs / 2]);
    free(block);
    free(t_ram);
    printf("checksum %.6g\n", k.checksum);
    free(times);
    free(x);
    sl_features_free(f);
    return 0;
}
