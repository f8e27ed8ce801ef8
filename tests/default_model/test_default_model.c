/* The shipped model (model/default.slm) on the committed samples (samples/<name>.wav):
 * its labels must agree with the expected labels (samples/<name>.txt, made by the
 * corpus' labelling rule from the clean sources, not by any model) on at least
 * 95% of all the samples' frames, and on at least 85% of each file's (a mixture
 * with speech over music and rain is harder than a lone voice). A guard against a broken or truncated
 * model file, a model trained on other classes, and feature drift between
 * training and inference (any change to features/ that the model was not
 * trained with shows up here first). */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "seqlabel.h"
#include "tests/common/test_files.h"

#define MIN_AGREEMENT 0.95      /* over every frame of every sample */
#define MIN_FILE_AGREEMENT 0.85 /* each sample on its own */
#define MAX_FRAMES 4000 /* samples are at most 20 s = 2000 frames */

static char model_path[1024], samples_dir[1024];

typedef struct {
    int labels[MAX_FRAMES];
    int64_t n;
} frame_record;

static int on_frame(void *user, int64_t index, int label, float confidence, const float *probs,
                    int n_classes)
{
    (void)confidence, (void)probs, (void)n_classes;
    frame_record *r = user;
    if (index != r->n || index >= MAX_FRAMES)
        return 1; /* frames out of order or a sample too long: stop, the test fails */
    r->labels[r->n++] = label;
    return 0;
}

/* Labels every frame of one audio file with the model, as `seqlabel label` does. */
static void label_file(const sl_model *m, const char *path, frame_record *rec)
{
    char err[SL_ERR_LEN];
    sl_audio_reader *r = sl_audio_open(path, sl_model_feature_config(m)->sample_rate, err,
                                       sizeof err);
    if (!r)
        fail_msg("%s", err);
    sl_labeler *l = sl_labeler_new(m, NULL, err, sizeof err);
    if (!l)
        fail_msg("%s", err);
    sl_label_sink sink = {.user = rec, .on_frame = on_frame, .on_segment = NULL};
    rec->n = 0;
    float buf[4096];
    long got;
    while ((got = sl_audio_read(r, buf, 4096, err, sizeof err)) > 0)
        if (sl_labeler_push(l, buf, (size_t)got, &sink, err, sizeof err))
            fail_msg("%s: %s", path, err);
    if (got < 0)
        fail_msg("%s", err);
    if (sl_labeler_finish(l, &sink, err, sizeof err))
        fail_msg("%s: %s", path, err);
    sl_labeler_free(l);
    sl_audio_close(r);
}

/* Frame i takes the expected segment containing its centre (i + 0.5) * 10 ms. */
static double agreement(const sl_model *m, const char *labels_path, const frame_record *rec,
                        int *classes_seen, int64_t *covered_out, int64_t *same_out)
{
    char err[SL_ERR_LEN];
    sl_label_segment *segs = NULL;
    int n = 0;
    if (sl_audacity_read(labels_path, &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    const sl_feature_config *fc = sl_model_feature_config(m);
    double hop_s = (double)sl_feature_frame_shift(fc) / (double)fc->sample_rate;
    int64_t covered = 0, same = 0;
    for (int64_t i = 0; i < rec->n; i++) {
        double centre = ((double)i + 0.5) * hop_s;
        for (int k = 0; k < n; k++) {
            if (centre >= segs[k].start && centre < segs[k].end) {
                int want = sl_model_class_index(m, segs[k].name);
                if (want < 0)
                    fail_msg("%s: class '%s' is not one of the model's", labels_path,
                             segs[k].name);
                classes_seen[want] = 1;
                covered++;
                same += rec->labels[i] == want;
                break;
            }
        }
    }
    sl_label_segments_free(segs, n);
    *covered_out += covered;
    *same_out += same;
    if (covered < rec->n * 9 / 10)
        fail_msg("%s covers %lld of %lld frames", labels_path, (long long)covered,
                 (long long)rec->n);
    return (double)same / (double)covered;
}

static sl_model *load_shipped_model(void)
{
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

static void test_model_classes(void **state)
{
    (void)state;
    sl_model *m = load_shipped_model();
    const char *want[] = {"silence", "speech", "music", "noise"};
    assert_int_equal(sl_model_get_config(m)->n_classes, 4);
    for (int k = 0; k < 4; k++)
        assert_string_equal(sl_model_class_name(m, k), want[k]);
    sl_model_free(m);
}

static void test_samples_agree(void **state)
{
    (void)state;
    sl_model *m = load_shipped_model();
    DIR *d = opendir(samples_dir);
    assert_non_null(d);
    struct dirent *e;
    int files = 0, classes_seen[SL_MAX_CLASSES] = {0};
    int64_t covered = 0, same = 0;
    frame_record *rec = malloc(sizeof *rec);
    assert_non_null(rec);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".wav") != 0)
            continue;
        char wav[2048], txt[2048];
        snprintf(wav, sizeof wav, "%s/%s", samples_dir, e->d_name);
        snprintf(txt, sizeof txt, "%s/%.*s.txt", samples_dir, (int)(len - 4), e->d_name);
        label_file(m, wav, rec);
        double a = agreement(m, txt, rec, classes_seen, &covered, &same);
        printf("%-16s %5lld frames  agreement %.4f\n", e->d_name, (long long)rec->n, a);
        if (a < MIN_FILE_AGREEMENT)
            fail_msg("%s: %.4f of the frames agree with %s (at least %.2f expected)", wav, a,
                     txt, MIN_FILE_AGREEMENT);
        files++;
    }
    closedir(d);
    free(rec);
    assert_true(files >= 3);
    double all = (double)same / (double)covered;
    printf("all samples      %5lld frames  agreement %.4f\n", (long long)covered, all);
    if (all < MIN_AGREEMENT)
        fail_msg("%.4f of all sample frames agree with the expected labels (at least %.2f "
                 "expected)", all, MIN_AGREEMENT);
    for (int k = 0; k < 4; k++) /* the samples exercise every class */
        assert_true(classes_seen[k]);
    sl_model_free(m);
}

/* Runs a shell command; its standard output (malloc'ed), failing the test on
 * a non-zero exit. */
static char *run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, len = 0, got;
    char *out = malloc(cap);
    assert_non_null(out);
    while ((got = fread(out + len, 1, cap - 1 - len, p)) > 0) {
        len += got;
        if (len + 1 == cap) /* all of it, however long */
            assert_non_null(out = realloc(out, cap *= 2));
    }
    out[len] = '\0';
    if (pclose(p) != 0) {
        free(out);
        fail_msg("'%s' failed", cmd);
    }
    return out;
}

/* dir/set.tsv: samples/mixture.wav (every class in 20 s) and its labels, the
 * set of the tests below (one sample: under valgrind every command they run is
 * traced, and the model's passes are what costs). */
static void write_mixture_set(const char *dir)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/set.tsv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s/mixture.wav\t%s/mixture.txt\n", samples_dir, samples_dir);
    assert_int_equal(fclose(f), 0);
}

/* Two ways to one figure: `seqlabel eval --model` scores the model's argmax in
 * the labeler's windows; `seqlabel label --smoothing none -o DIR/` then
 * `seqlabel eval --hyp DIR` scores the segments the command wrote, read back
 * from an Audacity label file (and from one RTTM file of two inputs written
 * with --jobs). The
 * confusion matrices must be the same frame for frame, with and without a
 * collar, and in a UEM file's regions. */
static void test_eval_of_labels_equals_eval_of_model(void **state)
{
    (void)state;
    const char *cmd = getenv("SL_SEQLABEL");
    assert_non_null(cmd);
    char tmp[512], line[8192];
    test_tmp_path(tmp, sizeof tmp, "seqlabel-eval-XXXXXX");
    assert_non_null(mkdtemp(tmp));
    write_mixture_set(tmp);
    /* the RTTM holds another file's lines too, as one for a whole set does */
    snprintf(line, sizeof line, "'%s' label -q '%s/mixture.wav' --model '%s' --smoothing none "
             "-o '%s/hyp/' && '%s' label -q '%s/mixture.wav' '%s/noise.wav' --model '%s' "
             "--smoothing none --format rttm -j 2 > '%s/all.rttm'",
             cmd, samples_dir, model_path, tmp, cmd, samples_dir, samples_dir,
             model_path, tmp);
    free(run(line));
    /* a UEM file's regions, at times off the frame grid */
    char uem[600], with_uem[700];
    snprintf(uem, sizeof uem, "%s/set.uem", tmp);
    FILE *f = fopen(uem, "w");
    assert_non_null(f);
    fputs("mixture 1 2.503 7.25\nmixture 1 11.1 16.5\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(with_uem, sizeof with_uem, "0.25 --uem '%s'", uem);
    const char *collars[3] = {"0", "0.25", with_uem};
    long long frames[3];
    for (int c = 0; c < 3; c++) {
        snprintf(line, sizeof line, "'%s' eval --json --no-cache --collar %s --model '%s' "
                 "--manifest '%s/set.tsv'", cmd, collars[c], model_path, tmp);
        char *model_json = run(line);
        const char *fr = strstr(model_json, "\"frames\":");
        assert_non_null(fr);
        frames[c] = strtoll(fr + 9, NULL, 10);
        const char *hyps[2] = {"hyp", "all.rttm"};
        for (int h = 0; h < 2; h++) {
            snprintf(line, sizeof line, "'%s' eval --json --collar %s --hyp '%s/%s' --model '%s' "
                     "--manifest '%s/set.tsv'", cmd, collars[c], tmp, hyps[h], model_path, tmp);
            char *hyp_json = run(line);
            /* the same but the loss, which labels alone do not have */
            const char *a = strstr(model_json, "\"accuracy\""), *b = strstr(hyp_json, "\"accuracy\"");
            assert_non_null(a);
            assert_non_null(b);
            assert_non_null(strstr(hyp_json, "\"loss\":null"));
            if (strcmp(a, b) != 0)
                fail_msg("collar %s, %s:\n%s\n%s", collars[c], hyps[h], model_json, hyp_json);
            free(hyp_json);
        }
        free(model_json);
    }
    /* the regions scored fewer frames than the whole file: 1998 scored without a
     * collar, 1018 of them in the regions at most */
    assert_int_equal(frames[0], 1998);
    assert_true(frames[2] > 0 && frames[2] <= 1018 && frames[2] < frames[1]);
    /* a reference of speech alone (a VAD's RTTM): --ref-gap silence makes the rest
     * silence, scored, every frame counted, the same through --model and --hyp;
     * without it, speech's frames alone: centres in [0.57, 6) and [14, 19.5),
     * frames 57-599 and 1400-1949 */
    char vad[600];
    snprintf(vad, sizeof vad, "%s/vad.tsv", tmp);
    assert_non_null(f = fopen(vad, "w"));
    fprintf(f, "%s/mixture.wav\t%s/speech-only.rttm#speech\n", samples_dir, tmp);
    assert_int_equal(fclose(f), 0);
    snprintf(line, sizeof line, "%s/speech-only.rttm", tmp);
    assert_non_null(f = fopen(line, "w"));
    fputs("SPEAKER mixture 1 0.57 5.43 <NA> <NA> a <NA> <NA>\n"
          "SPEAKER mixture 1 14.00 5.50 <NA> <NA> b <NA> <NA>\n", f);
    assert_int_equal(fclose(f), 0);
    char *json[3];
    for (int k = 0; k < 3; k++) {
        char hyp_dir[700] = "";
        if (k == 1)
            snprintf(hyp_dir, sizeof hyp_dir, "--hyp '%s/hyp' ", tmp);
        snprintf(line, sizeof line, "'%s' eval --json --no-cache %s%s--model '%s' --manifest '%s'",
                 cmd, k < 2 ? "--ref-gap silence " : "", hyp_dir, model_path, vad);
        json[k] = run(line);
    }
    const char *a = strstr(json[0], "\"accuracy\""), *b = strstr(json[1], "\"accuracy\"");
    if (!a || !b || strcmp(a, b) != 0)
        fail_msg("--ref-gap, --model and --hyp:\n%s\n%s", json[0], json[1]);
    assert_non_null(strstr(json[0], "{\"frames\":1998,"));
    assert_non_null(strstr(json[2], "{\"frames\":1093,"));
    for (int k = 0; k < 3; k++)
        free(json[k]);
    snprintf(line, sizeof line, "rm -rf '%s'", tmp);
    assert_int_equal(system(line), 0);
}

/* The number after `key` in text, after the first `after` (NaN when absent). */
static double number_after(const char *text, const char *after, const char *key)
{
    const char *p = strstr(text, after);
    p = p ? strstr(p, key) : NULL;
    return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* Asserts that the sweep's JSON point at `on` holds the frame precision and
 * recall, event F1 and event error rate of `seqlabel label --target speech
 * --on-threshold ON --off-threshold OFF OPTIONS` on the mixture, scored by eval
 * --hyp --events speech, to the last digit. */
static void assert_point_equals_labels(const char *points, const char *on, const char *off,
                                       const char *options, const char *tmp, int k)
{
    const char *cmd = getenv("SL_SEQLABEL");
    char line[8192];
    snprintf(line, sizeof line, "'%s' label -q '%s/mixture.wav' --model '%s' --target speech "
             "--on-threshold %s --off-threshold %s %s -o '%s/t%d/' && '%s' eval --json --hyp "
             "'%s/t%d' --events speech --model '%s' --manifest '%s/set.tsv'", cmd, samples_dir,
             model_path, on, off, options, tmp, k, cmd, tmp, k, model_path, tmp);
    char *labels = run(line);
    char at[64];
    snprintf(at, sizeof at, "{\"threshold\":%s,", on);
    double p = number_after(points, at, "\"precision\":");
    double r = number_after(points, at, "\"recall\":");
    double lp = number_after(labels, "{\"name\":\"speech\"", "\"precision\":");
    double lr = number_after(labels, "{\"name\":\"speech\"", "\"recall\":");
    double ef = number_after(points, at, "\"event_f1\":");
    double er = number_after(points, at, "\"event_error_rate\":");
    double lef = number_after(labels, "{\"events\":", "\"f1\":");
    double ler = number_after(labels, "{\"events\":", "\"error_rate\":");
    printf("on %s off %s %s: sweep precision %.9g recall %.9g events %.9g %.9g, labels %.9g "
           "%.9g events %.9g %.9g\n", on, off, options, p, r, ef, er, lp, lr, lef, ler);
    assert_true(p > 0.5 && r > 0.5);
    assert_true(p == lp && r == lr);
    assert_true(ef > 0 && er > 0);
    assert_true(ef == lef && er == ler);
    free(labels);
}

/* eval --sweep speech against the labels of a VAD: `seqlabel label --target
 * speech` with both thresholds at t calls a frame speech when its probability
 * is at least t, so the sweep's precision and recall at t must be those of its
 * labels scored with eval --hyp, to the last digit, and with --events speech its
 * event F1 and error rate those of the labels' speech events; and eval --hyp of
 * the frames table the command writes sweeps to the model's very figures. With
 * decoder options the sweep's point t is label's with them, --on-threshold t and
 * --off-threshold t - 0.2 (the options' gap). */
static void test_sweep_equals_labels_at_threshold(void **state)
{
    (void)state;
    const char *cmd = getenv("SL_SEQLABEL");
    assert_non_null(cmd);
    char tmp[512], line[8192];
    test_tmp_path(tmp, sizeof tmp, "seqlabel-sweep-XXXXXX");
    assert_non_null(mkdtemp(tmp));
    write_mixture_set(tmp);
    snprintf(line, sizeof line, "'%s' eval --json --no-cache --sweep speech --events speech "
             "--model '%s' --manifest '%s/set.tsv'", cmd, model_path, tmp);
    char *sweep = run(line);
    const char *points = strstr(sweep, "{\"sweep\":\"speech\"");
    assert_non_null(points);
    assert_point_equals_labels(points, "0.3", "0.3", "", tmp, 0);
    assert_point_equals_labels(points, "0.7", "0.7", "", tmp, 1);
    /* without --events the same frame figures, the events' fields left out (NaN: absent) */
    snprintf(line, sizeof line, "'%s' eval --json --no-cache --sweep speech --model '%s' "
             "--manifest '%s/set.tsv'", cmd, model_path, tmp);
    char *plain = run(line);
    const char *plain_points = strstr(plain, "{\"sweep\":\"speech\"");
    assert_non_null(plain_points);
    assert_null(strstr(plain_points, "event_f1"));
    assert_true(number_after(plain_points, "{\"threshold\":0.5,", "\"f1\":") ==
                number_after(points, "{\"threshold\":0.5,", "\"f1\":"));
    assert_true(number_after(plain_points, "\"best_f1\":", "") ==
                number_after(points, "\"best_f1\":", ""));
    free(plain);
    /* the decoder's sweep: Viterbi, the gap, padding and a minimum duration */
    const char *options = "--padding 0.1 --min-duration speech=0.3";
    snprintf(line, sizeof line, "'%s' eval --json --no-cache --sweep speech --events speech "
             "--on-threshold 0.6 --off-threshold 0.4 %s --model '%s' --manifest '%s/set.tsv'",
             cmd, options, model_path, tmp);
    char *decoded = run(line);
    const char *decoded_points = strstr(decoded, "{\"sweep\":\"speech\"");
    assert_non_null(decoded_points);
    assert_non_null(strstr(decoded_points, "{\"threshold\":0.3,\"off_threshold\":0.1,"));
    assert_point_equals_labels(decoded_points, "0.3", "0.1", options, tmp, 2);
    assert_point_equals_labels(decoded_points, "0.7", "0.5", options, tmp, 3);
    free(decoded);
    /* the same sweep from the frames table `seqlabel label --format frames` wrote
     * (its probabilities, %.9g, are the labeler's floats), to the last digit */
    snprintf(line, sizeof line, "'%s' label -q '%s/mixture.wav' --model '%s' --format frames "
             "-o '%s/fr/' && '%s' eval --json --sweep speech --events speech --hyp '%s/fr' "
             "--model '%s' --manifest '%s/set.tsv'", cmd, samples_dir, model_path, tmp, cmd, tmp,
             model_path, tmp);
    char *table = run(line);
    const char *table_points = strstr(table, "{\"sweep\":\"speech\"");
    assert_non_null(table_points);
    /* the sweep's lines alone: the events' after them are of the table's labels */
    size_t len = strcspn(points, "\n");
    if (strcspn(table_points, "\n") != len || strncmp(points, table_points, len) != 0)
        fail_msg("the frames table's sweep differs from the model's:\n%s\n%s", points, table_points);
    free(table);
    free(sweep);
    snprintf(line, sizeof line, "rm -rf '%s'", tmp);
    assert_int_equal(system(line), 0);
}

/* `seqlabel label` gives the same bits whatever OpenBLAS's own thread count:
 * the products of CPUs without AVX2 (the cblas path, SL_NO_AVX512=1 here) are OpenBLAS's,
 * whose threads change their last bits (1,968 of the 1,998 frames' lines of
 * mixture.wav differed by up to 1.1e-6), so the command runs it on one. */
/* `seqlabel label --format frames` of samples/NAME.wav with the shipped model,
 * the environment settings `env` before it (malloc'ed). */
static char *frames_of(const char *env, const char *name)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s '%s' label --model '%s' '%s/%s.wav' --format frames", env,
             getenv("SL_SEQLABEL"), model_path, samples_dir, name);
    return run(cmd);
}

static void test_label_whatever_blas_threads(void **state)
{
    (void)state;
    char *out[2] = {frames_of("SL_NO_AVX512=1 OPENBLAS_NUM_THREADS=1", "mixture"),
                    frames_of("SL_NO_AVX512=1 OPENBLAS_NUM_THREADS=2", "mixture")};
    assert_true(strlen(out[0]) > 100000);
    assert_string_equal(out[0], out[1]);
    free(out[0]);
    free(out[1]);
}

/* The AVX2 kernels (CPUs without AVX-512) give the AVX-512 kernels' results
 * bit for bit: every sample's frames table, each probability printed to 9
 * digits, is the same byte for byte (AMX, a third way, left out). Where the CPU
 * has no AVX-512 both runs are AVX2's. */
static void test_avx2_kernels_as_avx512(void **state)
{
    (void)state;
    const char *samples[] = {"mixture", "speech", "music", "noise"};
    for (int k = 0; k < 4; k++) {
        char *out[2] = {frames_of("SL_NO_AMX=1 SL_GEMM_AVX2=0", samples[k]),
                        frames_of("SL_NO_AMX=1 SL_GEMM_AVX2=1", samples[k])};
        assert_true(strlen(out[0]) > 10000);
        if (strcmp(out[0], out[1]))
            fail_msg("%s.wav: the AVX2 kernels' frames differ from AVX-512's", samples[k]);
        free(out[0]);
        free(out[1]);
    }
}

static double cpu_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Two labeler threads share the encoder's work. The share is CPU time, not
 * speed, so a busy machine changes nothing: with --threads 2 the second thread
 * runs every other block, about half the encoder's work, most of the shipped
 * model's time (under 2% of the process's CPU time when a drain after each
 * 4096-sample piece of a push ran every block alone on the calling thread). */
static void test_threads_share_the_work(void **state)
{
    (void)state;
    sl_model *m = load_shipped_model();
    char path[1100], err[SL_ERR_LEN];
    snprintf(path, sizeof path, "%s/mixture.wav", samples_dir);
    sl_audio_reader *r = sl_audio_open(path, 16000, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    float *x = malloc(sizeof(float) * 20 * 16000);
    const long n = sl_audio_read(r, x, 20 * 16000, err, sizeof err);
    assert_int_equal(n, 20 * 16000);
    sl_audio_close(r);
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.num_threads = 2;
    sl_labeler *l = sl_labeler_new(m, &cfg, err, sizeof err);
    assert_non_null(l);
    sl_label_sink none = {0};
    const double process0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    const double caller0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    for (int k = 0; k < 6; k++) /* two minutes, in 5 s pushes */
        for (long at = 0; at < n; at += 80000)
            assert_int_equal(sl_labeler_push(l, x + at, (size_t)(n - at < 80000 ? n - at : 80000),
                                             &none, err, sizeof err), 0);
    assert_int_equal(sl_labeler_finish(l, &none, err, sizeof err), 0);
    const double process = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - process0;
    const double caller = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - caller0;
    printf("two threads: the caller's %.3f of %.3f CPU-s, the other's share %.2f\n", caller,
           process, (process - caller) / process);
    assert_true(process - caller > 0.2 * process);
    sl_labeler_free(l);
    free(x);
    sl_model_free(m);
}

int main(void)
{
    const char *root = getenv("SL_SOURCE_ROOT");
    if (!root) {
        fprintf(stderr, "SL_SOURCE_ROOT is not set (meson test sets it)\n");
        return 1;
    }
    snprintf(model_path, sizeof model_path, "%s/model/default.slm", root);
    snprintf(samples_dir, sizeof samples_dir, "%s/samples", root);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_classes),
        cmocka_unit_test(test_samples_agree),
        cmocka_unit_test(test_eval_of_labels_equals_eval_of_model),
        cmocka_unit_test(test_sweep_equals_labels_at_threshold),
        cmocka_unit_test(test_label_whatever_blas_threads),
        cmocka_unit_test(test_avx2_kernels_as_avx512),
        cmocka_unit_test(test_threads_share_the_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
