/* `seqlabel bench label`: labels generated WAV files of several lengths (10
 * and 60 minutes by default) the way `seqlabel label` does (reader in blocks ->
 * streaming labeler -> decoder), and prints wall time, frames/s, peak RSS and
 * the encoder-only time for the same windows (interleaved with the labelling,
 * so both see the same load on a shared machine). Each length runs in its own
 * child process, so its peak RSS is its own: constant memory shows as the same
 * figure for every length. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sndfile.h>

#include "common/output_file.h"
#include "tools/bench.h"
#include "tools/cli.h"

#define READ_BLOCK 8192

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The library's default shape (sl_model_config_default) with random weights:
 * what a model trained with `seqlabel train`'s defaults costs. */
static sl_model *random_model(char *err, size_t errlen)
{
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    sl_model_config mc;
    sl_model_config_default(&mc);
    mc.n_features = sl_feature_dim(&fc);
    mc.n_classes = 4;
    const char *names[] = {"silence", "speech", "music", "noise"};
    sl_model *m = sl_model_create(&mc, &fc, NULL, NULL, names, err, errlen);
    if (m)
        sl_model_init_params(m, 1);
    return m;
}

/* A 16-bit mono WAV of `minutes`, written in blocks: 2 s segments of noise,
 * tones and near-silence, so the labels change along the file. */
static int write_test_wav(const char *path, double minutes, int rate)
{
    SF_INFO info = {.samplerate = rate, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    if (!f)
        return cli_error("%s: cannot write: %s", path, sf_strerror(NULL));
    float buf[READ_BLOCK];
    int64_t n = (int64_t)(minutes * 60.0 * rate);
    uint64_t s = 42;
    for (int64_t i = 0; i < n;) {
        int b = n - i < READ_BLOCK ? (int)(n - i) : READ_BLOCK;
        for (int j = 0; j < b; j++, i++) {
            int64_t seg = i / (2 * rate);
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            double noise = (double)(s >> 11) / (double)(1ULL << 53) * 2.0 - 1.0;
            double t = (double)i / rate;
            double v;
            switch (seg % 3) {
            case 0: v = 0.2 * noise; break;
            case 1: v = 0.3 * sin(2 * M_PI * (220.0 + 50.0 * (double)(seg % 7)) * t) + 0.01 * noise; break;
            default: v = 0.001 * noise; break;
            }
            buf[j] = (float)v;
        }
        if (sf_writef_float(f, buf, b) != b) {
            int rc = cli_error("%s: write failed: %s", path, sf_strerror(f));
            sf_close(f);
            remove(path);
            return rc;
        }
    }
    if (sf_close(f) != 0) {
        remove(path);
        return cli_error("%s: write failed", path);
    }
    return 0;
}

typedef struct {
    int64_t frames, segments;
} count_sink;

static int count_frame(void *user, int64_t index, int label, float conf, const float *probs, int k)
{
    (void)index, (void)label, (void)conf, (void)probs, (void)k;
    ((count_sink *)user)->frames++;
    return 0;
}

static int count_segment(void *user, int64_t start, int64_t end, int label, float conf)
{
    (void)start, (void)end, (void)label, (void)conf;
    ((count_sink *)user)->segments++;
    return 0;
}

typedef struct {
    double label_s, encoder_s, label_cpu, encoder_cpu, rss_mb;
    int64_t frames, segments;
    int ok;
} bench_result;

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The encoder alone on the same windows as the labeler, run interleaved with
 * the labelling (after every read block, the windows of the blocks the labeler
 * has finished) so that both see the same machine load: on a shared machine a
 * separate run minutes later measures the neighbours, not the code. Input
 * features are random: the encoder's work does not depend on their values. */
typedef struct {
    sl_encoder *e;
    float *x, *p;
    int W, L, R, C;
    int64_t next_block;
    double wall, cpu;
} encoder_only;

static void encoder_only_catch_up(encoder_only *eo, int64_t frames_done, int64_t total, int at_end)
{
    double w0 = now_s(), c0 = cpu_s();
    for (;; eo->next_block++) {
        int64_t k = eo->next_block;
        if (at_end ? k * eo->C >= total : (k + 1) * eo->C > frames_done)
            break;
        int64_t ws = k * eo->C - eo->L < 0 ? 0 : k * eo->C - eo->L;
        int64_t we = (k + 1) * eo->C + eo->R;
        if (at_end && we > total)
            we = total;
        sl_encoder_forward(eo->e, eo->x, (int)(we - ws), NULL, eo->p);
    }
    eo->wall += now_s() - w0;
    eo->cpu += cpu_s() - c0;
}

/* Runs in the child: label the file as `seqlabel label` does. */
static void measure(const char *path, const sl_model *m, int threads, bench_result *res)
{
    char err[SL_ERR_LEN];
    memset(res, 0, sizeof *res);
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.num_threads = threads;
    sl_labeler *l = sl_labeler_new(m, &cfg, err, sizeof err);
    sl_audio_reader *r = l ? sl_audio_open(path, sl_model_feature_config(m)->sample_rate, err, sizeof err) : NULL;
    /* As `seqlabel label`: reads of threads x core frames, so that threads help. */
    int core = 1;
    if (l)
        sl_labeler_window(l, NULL, NULL, NULL, &core);
    long block_len = (long)threads * core * sl_feature_frame_shift(sl_model_feature_config(m));
    if (block_len < READ_BLOCK)
        block_len = READ_BLOCK;
    float *block = malloc((size_t)block_len * sizeof(float));
    if (!l || !r || !block) {
        cli_error("%s", err);
        return;
    }
    const sl_model_config *mc = sl_model_get_config(m);
    encoder_only eo = {0};
    sl_labeler_window(l, &eo.W, &eo.L, &eo.R, &eo.C);
    eo.e = sl_encoder_new(m, eo.W, err, sizeof err);
    eo.x = malloc(sizeof(float) * (size_t)eo.W * mc->n_features);
    eo.p = malloc(sizeof(float) * (size_t)eo.W * mc->n_classes);
    if (!eo.e || !eo.x || !eo.p) {
        cli_error("encoder: %s", err);
        return;
    }
    uint64_t s = 7;
    for (size_t i = 0; i < (size_t)eo.W * mc->n_features; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        eo.x[i] = (float)((double)(s >> 11) / (double)(1ULL << 53) * 2.0 - 1.0);
    }
    count_sink cs = {0, 0};
    sl_label_sink sink = {&cs, count_frame, count_segment};
    long got;
    for (;;) {
        double w0 = now_s(), c0 = cpu_s();
        got = sl_audio_read(r, block, block_len, err, sizeof err);
        if (got > 0 && sl_labeler_push(l, block, (size_t)got, &sink, err, sizeof err)) {
            cli_error("%s", err);
            return;
        }
        res->label_s += now_s() - w0;
        res->label_cpu += cpu_s() - c0;
        if (got <= 0)
            break;
        encoder_only_catch_up(&eo, cs.frames, 0, 0);
    }
    double w0 = now_s(), c0 = cpu_s();
    if (got < 0 || sl_labeler_finish(l, &sink, err, sizeof err)) {
        cli_error("%s", err);
        return;
    }
    res->label_s += now_s() - w0;
    res->label_cpu += cpu_s() - c0;
    encoder_only_catch_up(&eo, cs.frames, cs.frames, 1);
    res->encoder_s = eo.wall;
    res->encoder_cpu = eo.cpu;
    res->frames = cs.frames;
    res->segments = cs.segments;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    res->rss_mb = (double)ru.ru_maxrss / 1024.0;
    sl_audio_close(r);
    sl_labeler_free(l);
    sl_encoder_free(eo.e);
    free(eo.x);
    free(eo.p);
    free(block);
    res->ok = 1;
}

void bench_label_help(FILE *fp)
{
    fprintf(fp,
            "seqlabel bench label: labels generated 16-bit WAV files of each length (written\n"
            "in a folder of its own made in $TMPDIR or /tmp, removed after) as `seqlabel\n"
            "label` does, each in its own process;\n"
            "prints wall time, frames/s, peak RSS and the encoder-only time on the same\n"
            "windows.\n"
            "  --minutes LIST          lengths of the files [10,60]\n"
            "  --threads N             encoder threads [1]\n"
            "  --model PATH            the model [random weights in the library's default\n"
            "                          shape (d_model 128, 4 layers, 80 mels, 400-frame\n"
            "                          windows), not the shipped model's]\n");
}

int bench_label(int argc, char **argv)
{
    double minutes[8] = {10, 60};
    int nmin = 2, threads = 1;
    const char *model_path = NULL, *tmpdir = getenv("TMPDIR");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: seqlabel bench label [OPTIONS]\n\n");
            bench_label_help(stdout);
            return 0;
        } else if ((!strcmp(argv[i], "--minutes") || !strcmp(argv[i], "--threads") ||
                    !strcmp(argv[i], "--model")) && i + 1 == argc) {
            return cli_usage_error("bench label: %s needs a value", argv[i]);
        } else if (!strcmp(argv[i], "--minutes")) {
            char items[8][CLI_ITEM_LEN];
            if ((nmin = cli_list_items(argv[++i], items, 8)) < 0)
                return cli_usage_error("--minutes: '%s' is not a list of 1 to 8 lengths "
                                       "(10,60)", argv[i]);
            for (int k = 0; k < nmin; k++)
                if (cli_parse_float("--minutes", items[k], 0.01, 600, &minutes[k]))
                    return 2;
        } else if (!strcmp(argv[i], "--threads")) {
            long v;
            if (cli_parse_int("--threads", argv[++i], 1, SL_MAX_THREADS, &v))
                return 2;
            threads = (int)v;
        } else if (!strcmp(argv[i], "--model")) {
            model_path = argv[++i];
        } else {
            return cli_usage_error("bench label: unknown argument '%s' (see --help)", argv[i]);
        }
    }
    char err[SL_ERR_LEN];
    sl_model *m = model_path ? sl_model_load(model_path, err, sizeof err) : random_model(err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    const sl_model_config *mc = sl_model_get_config(m);
    printf("model: %s, d_model %d, %d layers, %d heads, d_ff %d, %d classes; threads %d\n",
           model_path ? model_path : "random weights (default shape)", mc->d_model, mc->n_layers,
           mc->n_heads, mc->d_ff, mc->n_classes, threads);
    {
        sl_labeler *l = sl_labeler_new(m, NULL, err, sizeof err);
        if (!l) {
            sl_model_free(m);
            return cli_error("%s", err);
        }
        int W, L, R, C;
        sl_labeler_window(l, &W, &L, &R, &C);
        printf("windows: %d frames = %d left + %d core + %d lookahead; latency %.3f s\n", W, L, C, R,
               (double)sl_labeler_latency_samples(l) / sl_labeler_sample_rate(l));
        sl_labeler_free(l);
    }
    printf("(label: read + resample + features + encoder + decoder; encoder: the same windows\n"
           " alone, interleaved with the labelling; ratios label/encoder, of CPU and wall time)\n");
    printf("%8s %9s %9s %10s %8s %9s %11s %9s %9s\n", "minutes", "frames", "label_s",
           "frames/s", "rss_MB", "label_cpu", "encoder_cpu", "cpu_ratio", "wall_ratio");
    /* the files in a folder of this run's own (mkdtemp: a new name, mode 0700),
     * not under a name of $TMPDIR another user could foresee and put a link or
     * file at first, for the write to follow */
    const char *tmp = tmpdir && tmpdir[0] ? tmpdir : "/tmp";
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s/seqlabel_bench_XXXXXX", tmp) >= (int)sizeof dir) {
        sl_model_free(m);
        return cli_error("bench label: cannot make a folder in %s: %s", tmp,
                         strerror(ENAMETOOLONG));
    }
    /* the folder and the file in it go with a signal that ends the run (Ctrl-C,
     * or `| head` that closed the report: SIGPIPE) */
    cli_catch_signals();
    struct sigaction end = {.sa_handler = cli_end_by_signal}, old_pipe;
    sigemptyset(&end.sa_mask);
    sigaction(SIGPIPE, &end, &old_pipe);
    sl_output_watch(dir);
    if (!mkdtemp(dir)) {
        int e = errno;
        sl_output_unwatch(dir);
        sigaction(SIGPIPE, &old_pipe, NULL);
        sl_model_free(m);
        return cli_error("bench label: cannot make a folder in %s: %s", tmp, strerror(e));
    }
    int rc = 0;
    char path[4200] = "";
    sl_output_watch(path);
    for (int i = 0; i < nmin; i++) {
        snprintf(path, sizeof path, "%s/%d.wav", dir, i);
        if (write_test_wav(path, minutes[i], sl_model_feature_config(m)->sample_rate)) {
            rc = 1;
            break;
        }
        int fd[2];
        if (pipe(fd)) {
            remove(path);
            rc = cli_error("pipe failed");
            break;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            /* the folder and file are the parent's to remove: a signal that
             * ends this run (a CPU limit, a kill) leaves them to it */
            sl_output_unwatch(path);
            sl_output_unwatch(dir);
            close(fd[0]);
            bench_result res;
            measure(path, m, threads, &res);
            ssize_t w = write(fd[1], &res, sizeof res);
            _exit(w == (ssize_t)sizeof res ? 0 : 1);
        }
        close(fd[1]);
        bench_result res;
        memset(&res, 0, sizeof res);
        ssize_t got = pid > 0 ? read(fd[0], &res, sizeof res) : -1;
        close(fd[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
        remove(path);
        if (got != (ssize_t)sizeof res || !res.ok) {
            rc = cli_error("bench label: the %g-minute run failed", minutes[i]);
            continue;
        }
        printf("%8g %9lld %9.2f %10.0f %8.1f %9.2f %11.2f %9.3f %9.3f\n", minutes[i],
               (long long)res.frames, res.label_s, (double)res.frames / res.label_s, res.rss_mb,
               res.label_cpu, res.encoder_cpu, res.label_cpu / res.encoder_cpu,
               res.label_s / res.encoder_s);
        fflush(stdout);
    }
    sl_output_unwatch(path);
    if (rmdir(dir) != 0) /* each file removed after its run, or not made */
        rc = cli_error("bench label: cannot remove %s: %s", dir, strerror(errno));
    sl_output_unwatch(dir);
    sigaction(SIGPIPE, &old_pipe, NULL);
    sl_model_free(m);
    return rc;
}
