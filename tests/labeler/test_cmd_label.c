/* `seqlabel label` end to end: the built command (SL_SEQLABEL) on a WAV file
 * and a random-weight model the test writes, every format parsed back and
 * compared with the library's streaming labeler run here on the same samples;
 * then the bad inputs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sndfile.h>

#include "labeler_test_util.h"
#include "tests/common/test_files.h"

#define NSAMP 24000 /* 148 frames */
#define NFRAMES 148
/* The test model's labels flicker between its classes; with per-frame argmax
 * labels every flicker is a segment, which the tests of segment formats need
 * (the default decoder's Viterbi smooths most of them away). */
#define ARGMAX "--model m.slm --smoothing none"

static const char *seqlabel;
static char dir[256];
static char model_path[512], wav_path[512];
static tu_record ref;      /* the library's labels of the same samples */
static tu_record ref_clip; /* ... with clip_edges */

static void write_wav(const char *path, const float *x, int64_t n, int rate, int channels, int fmt)
{
    SF_INFO info = {0};
    info.samplerate = rate;
    info.channels = channels;
    info.format = SF_FORMAT_WAV | fmt;
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    if (!f)
        fail_msg("%s: %s", path, sf_strerror(NULL));
    assert_int_equal(sf_writef_float(f, x, n), n);
    sf_close(f);
}

static int setup(void **state)
{
    (void)state;
    seqlabel = getenv("SL_SEQLABEL");
    if (!seqlabel) {
        fprintf(stderr, "SL_SEQLABEL is not set (meson test sets it)\n");
        return -1;
    }
    test_tmp_path(dir, sizeof dir, "sl_cmd_label_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(model_path, sizeof model_path, "%s/m.slm", dir);
    snprintf(wav_path, sizeof wav_path, "%s/in.wav", dir);
    sl_model *m = tu_make_model(11, 20, 5, 3);
    char err[SL_ERR_LEN];
    if (sl_model_save(m, model_path, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    float *x = tu_make_signal(NSAMP, 3);
    write_wav(wav_path, x, NSAMP, 16000, 1, SF_FORMAT_FLOAT);

    /* Reference: the library labeler with the model as saved and loaded back. */
    sl_model *m2 = sl_model_load(model_path, err, sizeof err);
    sl_labeler *l = sl_labeler_new(m2, NULL, err, sizeof err);
    tu_record_init(&ref, 1000, 3);
    sl_label_sink sink = tu_record_sink(&ref);
    if (!m2 || !l || sl_labeler_push(l, x, NSAMP, &sink, err, sizeof err) ||
        sl_labeler_finish(l, &sink, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    sl_labeler_free(l);
    /* And with the windows cut short at the ends (--clip-edges). */
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.clip_edges = 1;
    l = sl_labeler_new(m2, &cfg, err, sizeof err);
    tu_record_init(&ref_clip, 1000, 3);
    sink = tu_record_sink(&ref_clip);
    if (!l || sl_labeler_push(l, x, NSAMP, &sink, err, sizeof err) ||
        sl_labeler_finish(l, &sink, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    sl_labeler_free(l);
    sl_model_free(m2);
    sl_model_free(m);
    free(x);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwX '%s' 2> /dev/null; rm -rf '%s'", dir, dir); /* (rodir) */
    if (system(cmd) != 0)
        return -1;
    tu_record_free(&ref);
    tu_record_free(&ref_clip);
    return 0;
}

/* Runs `seqlabel label ARGS` with stderr to dir/err.txt; returns the exit code. */
static int run_label(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' label %s 2> err.txt", dir, seqlabel, args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void sh(const char *what)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s", dir, what);
    if (system(cmd) != 0)
        fail_msg("failed: %s", what);
}

/* The file dir/NAME whole (NULL if it cannot be read), its length in *len
 * (if len is not NULL). */
static char *slurp_n(const char *name, size_t *len)
{
    char path[1024];
    size_t n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (access(path, R_OK) != 0)
        return NULL;
    char *s = (char *)test_read_file(path, &n);
    if (len)
        *len = n;
    return s;
}

static char *slurp(const char *name) { return slurp_n(name, NULL); }

static int exists(const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0;
}

static const char *names[] = {"silence", "speech", "music"};

static int class_of(const char *s, size_t len)
{
    for (int k = 0; k < 3; k++)
        if (strlen(names[k]) == len && !strncmp(s, names[k], len))
            return k;
    fail_msg("unknown label '%.*s'", (int)len, s);
    return -1;
}

/* The frames table dir/NAME holds exactly the frames of `want`. */
static void check_frames_file(const char *name, const tu_record *want)
{
    char *text = slurp(name);
    assert_non_null(text);
    char *line = strtok(text, "\n");
    assert_string_equal(line, "frame\ttime\tlabel\tconfidence\tsilence\tspeech\tmusic");
    int n = 0;
    while ((line = strtok(NULL, "\n"))) {
        long long idx;
        double t;
        char label[64];
        float conf, p[3];
        assert_int_equal(sscanf(line, "%lld\t%lf\t%63s\t%g\t%g\t%g\t%g", &idx, &t, label, &conf,
                                &p[0], &p[1], &p[2]), 7);
        assert_int_equal(idx, n);
        assert_float_equal(t, n * 0.01, 1e-9);
        int k = class_of(label, strlen(label));
        assert_int_equal(k, want->label[n]);
        /* %.9g round-trips float32 exactly: the command's numbers are the library's. */
        assert_true(conf == want->conf[n]);
        for (int c = 0; c < 3; c++)
            assert_true(p[c] == want->probs[n * 3 + c]);
        assert_true(conf == p[k]);
        n++;
    }
    assert_int_equal(n, NFRAMES);
    free(text);
}

static void test_frames_format(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm --format frames -o out.tsv"), 0);
    check_frames_file("out.tsv", &ref);
    /* Success prints nothing on stderr (no progress line: not a terminal). */
    char *e = slurp("err.txt");
    assert_string_equal(e, "");
    free(e);
}

/* A frames header longer than the command's line buffer (40 class names of
 * 64 bytes: 2,600 bytes; 256 such names pass 16 kB) is written whole, and the
 * rows follow it on their own line: it was cut at 4,095 bytes and followed by
 * what lay past the buffer. */
static void test_frames_long_header(void **state)
{
    (void)state;
    static const int counts[] = {40, SL_MAX_CLASSES};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    assert_non_null(m);
    for (int c = 0; c < 2; c++) {
        const int n = counts[c];
        char names[SL_MAX_CLASSES][SL_MAX_CLASS_NAME + 1];
        const char *list[SL_MAX_CLASSES];
        char *want = malloc(64 + (size_t)n * (SL_MAX_CLASS_NAME + 1));
        assert_non_null(want);
        int at = sprintf(want, "frame\ttime\tlabel\tconfidence");
        for (int k = 0; k < n; k++) {
            snprintf(names[k], sizeof names[k], "%03d_%s", k,
                     "a_class_name_of_sixty_four_bytes_as_sound_event_sets_give_it");
            assert_int_equal(strlen(names[k]), SL_MAX_CLASS_NAME);
            list[k] = names[k];
            at += sprintf(want + at, "\t%s", names[k]);
        }
        sprintf(want + at, "\n");
        sl_model *wide = sl_model_with_classes(m, list, n, 5, err, sizeof err);
        assert_non_null(wide);
        char path[600];
        snprintf(path, sizeof path, "%s/wide.slm", dir);
        assert_int_equal(sl_model_save(wide, path, err, sizeof err), 0);
        sl_model_free(wide);
        assert_int_equal(run_label("in.wav --model wide.slm --format frames -o wide.tsv"), 0);
        size_t len = 0;
        char *got = slurp_n("wide.tsv", &len);
        assert_non_null(got);
        const size_t head = strlen(want);
        if (len < head || memcmp(got, want, head) || strlen(got) != len)
            fail_msg("%d classes: the header is not the one wanted (%zu bytes, %zu written)", n,
                     head, len);
        assert_true(len > head && got[head] == '0' && got[head + 1] == '\t'); /* row 0 */
        free(got);
        free(want);
    }
    sl_model_free(m);
}

/* --clip-edges reaches the labeler: the command's frames are the library's with
 * clip_edges, which differ from the default's at the edges. */
static void test_clip_edges(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm --format frames --clip-edges -o clip.tsv"), 0);
    check_frames_file("clip.tsv", &ref_clip);
    int differ = 0;
    for (int64_t i = 0; i < ref.n * 3; i++)
        differ += ref.probs[i] != ref_clip.probs[i];
    assert_true(differ > 0);
}

static void expect_error(const char *args, int code, const char *needle);

static void test_audacity_and_rttm(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm -o out.txt"), 0);
    char *text = slurp("out.txt");
    assert_non_null(text);
    double prev_end = 0.0;
    int nseg = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), nseg++) {
        double a, b;
        char label[64];
        assert_int_equal(sscanf(line, "%lf\t%lf\t%63s", &a, &b, label), 3);
        assert_true(nseg < ref.nseg);
        assert_float_equal(a, ref.seg_start[nseg] * 0.01, 1e-9);
        assert_float_equal(b, ref.seg_end[nseg] * 0.01, 1e-9);
        assert_float_equal(a, prev_end, 1e-9);
        assert_int_equal(class_of(label, strlen(label)), ref.seg_label[nseg]);
        prev_end = b;
    }
    assert_int_equal(nseg, ref.nseg);
    assert_float_equal(prev_end, NFRAMES * 0.01, 1e-9);
    free(text);

    assert_int_equal(run_label("in.wav --model m.slm --format rttm -o out.rttm"), 0);
    text = slurp("out.rttm");
    nseg = 0;
    double total = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), nseg++) {
        double a, d;
        char label[64];
        assert_int_equal(sscanf(line, "SPEAKER in 1 %lf %lf <NA> <NA> %63s <NA> <NA>", &a, &d, label), 3);
        assert_float_equal(a, ref.seg_start[nseg] * 0.01, 1e-9);
        assert_float_equal(d, (ref.seg_end[nseg] - ref.seg_start[nseg]) * 0.01, 1e-6);
        total += d;
    }
    assert_int_equal(nseg, ref.nseg);
    assert_float_equal(total, NFRAMES * 0.01, 1e-5);
    free(text);
    /* ... and the trainer reads it back as the same segments */
    char rttm[600], err[SL_ERR_LEN];
    snprintf(rttm, sizeof rttm, "%s/out.rttm", dir);
    sl_label_segment *segs;
    int n;
    if (sl_rttm_read(rttm, "in", NULL, &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, ref.nseg);
    for (int i = 0; i < n; i++) {
        assert_float_equal(segs[i].start, ref.seg_start[i] * 0.01, 1e-6);
        assert_float_equal(segs[i].end, ref.seg_end[i] * 0.01, 1e-6);
        assert_int_equal(class_of(segs[i].name, strlen(segs[i].name)), ref.seg_label[i]);
    }
    sl_label_segments_free(segs, n);

    /* TextGrid: one interval per segment, the tier from 0 to the last frame;
     * into a directory it is NAME.TextGrid */
    sh("mkdir tg");
    assert_int_equal(run_label("in.wav --model m.slm --format textgrid -o tg/"), 0);
    text = slurp("tg/in.TextGrid");
    assert_non_null(text);
    char want[128];
    snprintf(want, sizeof want, "xmax = %.6f \ntiers? <exists> \nsize = 1 \n", NFRAMES * 0.01);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "intervals: size = %d \n", (int)ref.nseg);
    assert_non_null(strstr(text, want));
    nseg = 0;
    for (char *p = strstr(text, "intervals ["); p; p = strstr(p + 1, "intervals ["), nseg++) {
        int k;
        double a, b;
        char label[64];
        assert_int_equal(sscanf(p, "intervals [%d]:\n xmin = %lf\n xmax = %lf\n text = \"%63[^\"]\"",
                                &k, &a, &b, label), 4);
        assert_int_equal(k, nseg + 1);
        assert_true(nseg < ref.nseg);
        assert_float_equal(a, ref.seg_start[nseg] * 0.01, 1e-9);
        assert_float_equal(b, ref.seg_end[nseg] * 0.01, 1e-9);
        assert_int_equal(class_of(label, strlen(label)), ref.seg_label[nseg]);
    }
    assert_int_equal(nseg, ref.nseg);
    free(text);

    /* WebVTT: the header, then a cue per segment (milliseconds) */
    assert_int_equal(run_label("in.wav --model m.slm --format webvtt -o tg/"), 0);
    text = slurp("tg/in.vtt");
    assert_non_null(text);
    assert_memory_equal(text, "WEBVTT\n\n", 8);
    nseg = 0;
    for (char *p = strstr(text, " --> "); p; p = strstr(p + 5, " --> "), nseg++) {
        int h0, m0, s0, ms0, h1, m1, s1, ms1;
        char label[64];
        assert_int_equal(sscanf(p - 12, "%d:%d:%d.%d --> %d:%d:%d.%d\n%63s", &h0, &m0, &s0, &ms0,
                                &h1, &m1, &s1, &ms1, label), 9);
        assert_true(nseg < ref.nseg);
        assert_int_equal(((h0 * 60 + m0) * 60 + s0) * 1000 + ms0, ref.seg_start[nseg] * 10);
        assert_int_equal(((h1 * 60 + m1) * 60 + s1) * 1000 + ms1, ref.seg_end[nseg] * 10);
        assert_int_equal(class_of(label, strlen(label)), ref.seg_label[nseg]);
    }
    assert_int_equal(nseg, ref.nseg);
    free(text);

    /* SubRip: a cue per segment, numbered from 1, ',' before the milliseconds */
    assert_int_equal(run_label("in.wav --model m.slm --format srt -o tg/"), 0);
    text = slurp("tg/in.srt");
    assert_non_null(text);
    nseg = 0;
    for (char *p = text; *p; nseg++) {
        int k, h0, m0, s0, ms0, h1, m1, s1, ms1, used = 0;
        char label[64];
        assert_int_equal(sscanf(p, "%d\n%d:%d:%d,%d --> %d:%d:%d,%d\n%63s\n%n", &k, &h0, &m0,
                                &s0, &ms0, &h1, &m1, &s1, &ms1, label, &used), 10);
        assert_int_equal(k, nseg + 1);
        assert_true(nseg < ref.nseg);
        assert_int_equal(((h0 * 60 + m0) * 60 + s0) * 1000 + ms0, ref.seg_start[nseg] * 10);
        assert_int_equal(((h1 * 60 + m1) * 60 + s1) * 1000 + ms1, ref.seg_end[nseg] * 10);
        assert_int_equal(class_of(label, strlen(label)), ref.seg_label[nseg]);
        p += used;
    }
    assert_int_equal(nseg, ref.nseg);
    free(text);

    /* -o FILE without --format: its extension names the format (any case), the
     * same bytes as --format gives; another extension keeps Audacity's */
    assert_int_equal(run_label("in.wav --model m.slm -o named.RTTM"), 0);
    assert_int_equal(run_label("in.wav --model m.slm -o named.TextGrid"), 0);
    assert_int_equal(run_label("in.wav --model m.slm -o named.vtt"), 0);
    assert_int_equal(run_label("in.wav --model m.slm -o named.Srt"), 0);
    assert_int_equal(run_label("in.wav --model m.slm -o named.lab"), 0);
    assert_int_equal(run_label("in.wav --model m.slm --format audacity -o given.rttm"), 0);
    sh("cmp named.RTTM out.rttm && cmp named.TextGrid tg/in.TextGrid && cmp named.vtt tg/in.vtt "
       "&& cmp named.Srt tg/in.srt && cmp named.lab out.txt && cmp given.rttm out.txt");
    /* a document per input: several on standard output would run together */
    expect_error("in.wav in.wav --model m.slm --format textgrid", 2, "-o DIR");
    expect_error("in.wav in.wav --model m.slm --format webvtt -o -", 2, "-o DIR");
    expect_error("in.wav in.wav --model m.slm --format srt", 2, "-o DIR");
}

static void test_jsonl(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm --format jsonl -o out.jsonl"), 0);
    char *text = slurp("out.jsonl");
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), n++) {
        long long idx;
        double t;
        char label[64];
        float conf, p[3];
        assert_int_equal(sscanf(line, "{\"frame\":%lld,\"time\":%lf,\"label\":\"%63[^\"]\",\"confidence\":%g,"
                                      "\"probs\":{\"silence\":%g,\"speech\":%g,\"music\":%g}}",
                                &idx, &t, label, &conf, &p[0], &p[1], &p[2]), 7);
        assert_int_equal(idx, n);
        assert_int_equal(class_of(label, strlen(label)), ref.label[n]);
        for (int c = 0; c < 3; c++)
            assert_true(p[c] == ref.probs[n * 3 + c]);
    }
    assert_int_equal(n, NFRAMES);
    free(text);
    assert_int_equal(run_label("in.wav --model m.slm --format jsonl --segments -o seg.jsonl"), 0);
    text = slurp("seg.jsonl");
    n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), n++) {
        double a, b;
        char label[64];
        float conf;
        long long sf, ef;
        assert_int_equal(sscanf(line, "{\"start\":%lf,\"end\":%lf,\"label\":\"%63[^\"]\",\"confidence\":%g,"
                                      "\"start_frame\":%lld,\"end_frame\":%lld}",
                                &a, &b, label, &conf, &sf, &ef), 6);
        assert_int_equal(sf, ref.seg_start[n]);
        assert_int_equal(ef, ref.seg_end[n]);
        double sum = 0;
        for (long long f = sf; f < ef; f++)
            sum += ref.conf[f];
        assert_float_equal(conf, sum / (double)(ef - sf), 1e-6);
    }
    assert_int_equal(n, ref.nseg);
    free(text);
}

/* Standard input, a stereo 44.1 kHz copy (resampled: labels need not match
 * but every frame must be there), several files into a directory. */
static void test_stdin_and_several_files(void **state)
{
    (void)state;
    assert_int_equal(run_label("- --model m.slm --format frames < in.wav > stdin.tsv"), 0);
    assert_int_equal(run_label("in.wav --model m.slm --format frames > file.tsv"), 0);
    char *a = slurp("stdin.tsv"), *b = slurp("file.tsv");
    assert_string_equal(a, b);
    free(a);
    free(b);

    /* Raw s16 from a pipe equals the same samples in a 16-bit WAV. */
    float *x = tu_make_signal(NSAMP, 3);
    short *s16 = malloc(sizeof(short) * NSAMP);
    for (int i = 0; i < NSAMP; i++)
        s16[i] = (short)lrintf(x[i] * 32767.0f);
    char path[600];
    snprintf(path, sizeof path, "%s/in16.wav", dir);
    SF_INFO info = {.samplerate = 16000, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *sf = sf_open(path, SFM_WRITE, &info);
    assert_non_null(sf);
    assert_int_equal(sf_writef_short(sf, s16, NSAMP), NSAMP);
    sf_close(sf);
    snprintf(path, sizeof path, "%s/in16.raw", dir);
    FILE *rf = fopen(path, "wb");
    assert_int_equal(fwrite(s16, sizeof(short), NSAMP, rf), NSAMP); /* little-endian host */
    fclose(rf);
    free(s16);
    assert_int_equal(run_label("in16.wav --model m.slm --format frames -o w16.tsv"), 0);
    assert_int_equal(run_label("- --model m.slm --format frames --raw-format s16le --raw-rate 16000 "
                               "-o raw16.tsv < in16.raw"), 0);
    a = slurp("w16.tsv");
    b = slurp("raw16.tsv");
    assert_string_equal(a, b);
    free(b);
    /* ... and so do they in a file that Asterisk's extension (.sln16) names */
    sh("cp in16.raw in16.sln16");
    assert_int_equal(run_label("in16.sln16 --model m.slm --format frames -o sln16.tsv"), 0);
    b = slurp("sln16.tsv");
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(run_label("- --model m.slm --raw-format mulaw --raw-rate 8000 < in16.raw"), 2);
    a = slurp("err.txt");
    assert_non_null(strstr(a, "'mulaw' is not one of s16le, f32le, ulaw, alaw, gsm, g722"));
    free(a);

    float *st = malloc(sizeof(float) * 2 * 66150);
    for (int i = 0; i < 66150; i++)
        st[2 * i] = st[2 * i + 1] = x[i % NSAMP];
    snprintf(path, sizeof path, "%s/stereo44.wav", dir);
    write_wav(path, st, 66150, 44100, 2, SF_FORMAT_PCM_16);
    free(st);
    free(x);
    sh("mkdir outdir");
    assert_int_equal(run_label("in.wav stereo44.wav --model m.slm --format frames -o outdir/"), 0);
    assert_true(exists("outdir/in.tsv"));
    a = slurp("outdir/stereo44.tsv");
    assert_non_null(a);
    int lines = 0;
    for (char *p = a; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 148 + 1); /* 1.5 s at 16 kHz: 148 frames and the header */
    /* Through a pipe the reader resamples as a stream does (sooner output), and
     * the labels are still the file's to the last byte. */
    assert_int_equal(run_label("- --model m.slm --format frames < stereo44.wav > redir44.tsv"), 0);
    b = slurp("redir44.tsv");
    assert_string_equal(a, b);
    free(b);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cat stereo44.wav | '%s' label - --model m.slm --format frames > pipe44.tsv",
             seqlabel);
    sh(cmd);
    b = slurp("pipe44.tsv");
    assert_string_equal(a, b);
    free(b);
    free(a);
}

/* Frames the library's labeler has completed after the first n samples of x. */
static int64_t frames_final_after(const float *x, int64_t n, double max_latency)
{
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    assert_non_null(m);
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.max_latency_s = max_latency;
    sl_labeler *l = sl_labeler_new(m, &cfg, err, sizeof err);
    assert_non_null(l);
    tu_record r;
    tu_record_init(&r, 4096, 3);
    sl_label_sink sink = tu_record_sink(&r);
    assert_int_equal(sl_labeler_push(l, x, (size_t)n, &sink, err, sizeof err), 0);
    int64_t done = r.n;
    tu_record_free(&r);
    sl_labeler_free(l);
    sl_model_free(m);
    return done;
}

static size_t count_lines(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* Samples the live-input tests write into the command's pipe: LIVE_IN while
 * it stays open, LIVE_ALL in all; reads of live input take LIVE_READ. */
#define LIVE_IN 30000
#define LIVE_READ 1600
#define LIVE_ALL (2 * LIVE_IN)

/* LIVE_ALL samples of s16 (the model's input after its 16-bit rounding in
 * *xq), all of them also in dir/live.raw. */
static short *live_signal(float **xq)
{
    float *x = tu_make_signal(LIVE_ALL, 5);
    short *s16 = malloc(sizeof(short) * LIVE_ALL);
    *xq = malloc(sizeof(float) * LIVE_ALL);
    for (int i = 0; i < LIVE_ALL; i++) {
        s16[i] = (short)lrintf(x[i] * 16000.0f);
        (*xq)[i] = s16[i] / 32768.0f;
    }
    free(x);
    char path[600];
    snprintf(path, sizeof path, "%s/live.raw", dir);
    FILE *rf = fopen(path, "wb");
    assert_int_equal(fwrite(s16, sizeof(short), LIVE_ALL, rf), LIVE_ALL); /* little-endian host */
    fclose(rf);
    return s16;
}

enum { SPAWN_NOHUP = 1, SPAWN_OWN_GROUP = 2 };

/* Starts `seqlabel label ARGS...` in dir with pipes for its standard input and
 * output; with SPAWN_NOHUP as nohup starts it, with SPAWN_OWN_GROUP in a process
 * group of its own (its id the command's), as a shell starts a job. */
static pid_t spawn_label(const char *const *args, int how, int *to_child, int *from_child)
{
    const char *argv[24] = {seqlabel, "label"};
    int n = 2;
    while (*args && n < 23)
        argv[n++] = *args++;
    argv[n] = NULL;
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        /* as a shell at a terminal starts a command, whatever the test's (run in
         * the background, SIGINT and SIGQUIT come ignored, which the command
         * keeps, as a background job does: Ctrl-C would end nothing) */
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        if (how & SPAWN_NOHUP)
            signal(SIGHUP, SIG_IGN);
        if (how & SPAWN_OWN_GROUP)
            setpgid(0, 0);
        if (chdir(dir) == 0)
            execv(seqlabel, (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    *to_child = in[1];
    *from_child = out[0];
    return pid;
}

/* Raw s16 at 16 kHz on standard input, frames out. */
#define LIVE_ARGS "-", "--model", "m.slm", "--format", "frames", "--raw-format", "s16le", \
                  "--raw-rate", "16000"

/* Waits until the child has read everything written into the pipe `to` (it is
 * then inside its reading loop; on Linux FIONREAD tells what a pipe holds from
 * either end). */
static void wait_drained(int to)
{
    int held = 1;
    for (int waited = 0; held > 0 && waited < 600; waited++) {
        assert_int_equal(ioctl(to, FIONREAD, &held), 0);
        if (held > 0)
            poll(NULL, 0, 100);
    }
    assert_int_equal(held, 0);
}

static void write_all(int fd, const void *p, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, (const char *)p + off, len - off);
        assert_true(w > 0);
        off += (size_t)w;
    }
}

/* `seqlabel label ARGS` with no reader of its standard output from the start
 * (`| head` gone): it must end by SIGPIPE, as commands do, saying nothing. */
static void expect_reader_gone(const char *const *args)
{
    int to, from, st = 0;
    pid_t pid = spawn_label(args, 0, &to, &from);
    close(from);
    close(to);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGPIPE)
        fail_msg("%s with its reader gone: exit %d, not SIGPIPE", args[0],
                 WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st));
}

/* Labels reach standard output as they become final, not when the input ends
 * (`arecord | seqlabel label -`): with the input pipe still open after LIVE_IN
 * samples, every frame the library completes from the whole reads among them
 * (the command reads live input 0.1 s at a time; under a latency limit, a hop
 * at a time) is readable, and the whole output is the one of the same samples
 * read from a file. */
static void check_stdout_live(const char *max_latency)
{
    float *xq;
    short *s16 = live_signal(&xq);
    char args[256];
    snprintf(args, sizeof args, "- --model m.slm --format frames --raw-format s16le --raw-rate "
             "16000 %s%s < live.raw > live-file.tsv", max_latency ? "--max-latency " : "",
             max_latency ? max_latency : "");
    assert_int_equal(run_label(args), 0);
    char *whole = slurp("live-file.tsv");
    assert_non_null(whole);
    const int read_len = max_latency ? 160 : LIVE_READ;
    int64_t want = frames_final_after(xq, LIVE_IN / read_len * read_len,
                                      max_latency ? atof(max_latency) : 0) + 1; /* and the header */
    assert_true(want > 100);

    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* a dead child fails the asserts, not the test runner */
    int to, from;
    const char *live_args[] = {LIVE_ARGS, max_latency ? "--max-latency" : NULL, max_latency, NULL};
    pid_t pid = spawn_label(live_args, 0, &to, &from);
    size_t cap = strlen(whole) + 1, got = 0;
    char *buf = calloc(cap, 1);
    /* The first LIVE_IN samples, the pipe kept open; the child reads as the pipe fills. */
    write_all(to, s16, sizeof(short) * LIVE_IN);
    /* Then read until those frames are in (60 s is ample even under valgrind). */
    struct pollfd pf = {.fd = from, .events = POLLIN};
    for (int waited = 0; (int64_t)count_lines(buf, got) < want && waited < 600; waited++) {
        if (poll(&pf, 1, 100) <= 0)
            continue;
        ssize_t r = read(from, buf + got, cap - 1 - got);
        assert_true(r > 0);
        got += (size_t)r;
    }
    if ((int64_t)count_lines(buf, got) != want)
        fail_msg("%d samples in, input open: %zu lines out, want %lld (the frames final by then)",
                 LIVE_IN, count_lines(buf, got), (long long)want);
    assert_memory_equal(buf, whole, got);
    /* The rest of the samples, end of input, the rest of the labels. */
    write_all(to, s16 + LIVE_IN, sizeof(short) * (LIVE_ALL - LIVE_IN));
    close(to);
    for (ssize_t r; got < cap - 1 && (r = read(from, buf + got, cap - 1 - got)) > 0;)
        got += (size_t)r;
    close(from);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    signal(SIGPIPE, old);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(buf, whole);
    free(buf);
    free(whole);
    free(xq);
    free(s16);
}

/* The above with the model's window and under a latency limit of 0.05 s; with
 * no reader left the command ends by SIGPIPE, its cut's temporary file removed. */
static void test_stdout_live(void **state)
{
    (void)state;
    check_stdout_live(NULL);
    check_stdout_live("0.05");
    /* its reader gone, the command ends by SIGPIPE once it has removed the
     * cut's temporary file (SIGPIPE itself used to end it before: left behind) */
    sh("mkdir gone");
    const char *cut[] = {"in.wav", "--model", "m.slm", "--format", "frames", "--target",
                         "music", "--cut", "gone/c.wav", NULL};
    expect_reader_gone(cut);
    sh("test -z \"$(ls -A gone)\"");
    /* a cut to standard output (FLAC streams) whose reader is gone: the same,
     * not "write failed: Broken pipe"; the labels' temporary file removed */
    assert_int_equal(run_label("in.wav --model m.slm --target speech --cut-silence --cut "
                               "in-copy.flac -o in-copy.txt"), 0);
    const char *cut_out[] = {"in-copy.flac", "--model", "m.slm", "--target", "music",
                             "--on-threshold", "0", "--off-threshold", "0", "--cut", "-", "-o",
                             "gone/l.txt", NULL};
    expect_reader_gone(cut_out);
    sh("test -z \"$(ls -A gone)\"");
    /* so too for AU, whose header is written at once: the reader is gone
     * before the first frame */
    assert_int_equal(run_label("in.wav --model m.slm --target speech --cut-silence --cut "
                               "in-copy.au -o in-copy.txt"), 0);
    cut_out[0] = "in-copy.au";
    expect_reader_gone(cut_out);
    sh("test -z \"$(ls -A gone)\"");
}

/* Starts `seqlabel label ARGS...`, writes `len` bytes of `data` to it, waits
 * until it has read them all, sends `sig`, closes its input as a recorder that
 * got the signal too would, and returns its wait status. */
static int signal_after(const char *const *args, int ignore_hup, int sig, const void *data,
                        size_t len)
{
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    int to, from;
    pid_t pid = spawn_label(args, ignore_hup ? SPAWN_NOHUP : 0, &to, &from);
    write_all(to, data, len);
    wait_drained(to);
    assert_int_equal(kill(pid, sig), 0);
    close(to);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(from);
    signal(SIGPIPE, old);
    return st;
}

/* The same with LIVE_ARGS and `-o NAME`, after LIVE_IN samples. */
static int signal_live(const char *name, int ignore_hup, int sig, const short *s16)
{
    char arg[128];
    snprintf(arg, sizeof arg, "--output=%s", name);
    const char *args[] = {LIVE_ARGS, arg, NULL};
    return signal_after(args, ignore_hup, sig, s16, sizeof(short) * LIVE_IN);
}

/* Opens the FIFO dir/name for writing once a reader has it open (60 s at most),
 * blocking afterwards. */
static int open_fifo_writer(const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (int waited = 0; waited < 600; waited++) {
        int fd = open(path, O_WRONLY | O_NONBLOCK);
        if (fd >= 0) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            return fd;
        }
        assert_int_equal(errno, ENXIO); /* no reader yet */
        poll(NULL, 0, 100);
    }
    fail_msg("%s: no reader came", path);
    return -1;
}

/* Sets this process's core size limit to 0 for the commands it starts (SIGQUIT
 * and SIGXCPU end them with a core); returns the limit to put back. */
static struct rlimit no_core_dumps(void)
{
    struct rlimit core;
    assert_int_equal(getrlimit(RLIMIT_CORE, &core), 0);
    struct rlimit none = {0, core.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_CORE, &none), 0);
    return core;
}

/* Starts `seqlabel label ARGS` (in a process group of its own) whose inputs
 * are the FIFOs f1.raw and f2.raw, each then fed LIVE_IN samples of s16 and
 * left open (*w1, *w2) once the command has read them. */
static pid_t spawn_fed_jobs(const char *const *args, const short *s16, int *to, int *from,
                            int *w1, int *w2)
{
    pid_t pid = spawn_label(args, SPAWN_OWN_GROUP, to, from);
    *w1 = open_fifo_writer("f1.raw");
    *w2 = open_fifo_writer("f2.raw");
    write_all(*w1, s16, sizeof(short) * LIVE_IN);
    write_all(*w2, s16, sizeof(short) * LIVE_IN);
    wait_drained(*w1);
    wait_drained(*w2);
    return pid;
}

/* Starts `seqlabel label ARGS` with `head` on its standard input (or in the FIFO
 * dir/fifo when not NULL), kept open as *to, and waits until its first frames are
 * out: it is then in its reading loop, waiting for more. SIGPIPE is ignored until
 * finish_started. */
static pid_t start_until_frames(const char *const *args, const char *fifo, const void *head,
                                size_t head_len, int *to, int *from)
{
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = spawn_label(args, 0, to, from);
    if (fifo) {
        close(*to);
        *to = open_fifo_writer(fifo);
    }
    write_all(*to, head, head_len);
    char out[65536];
    size_t got = 0;
    int lines = 0;
    for (int waited = 0; lines < 3 && waited < 600; waited++) {
        struct pollfd p = {*from, POLLIN, 0};
        if (poll(&p, 1, 100) > 0) {
            ssize_t r = read(*from, out + got, sizeof out - 1 - got);
            assert_true(r > 0);
            got += (size_t)r;
            out[got] = '\0';
            lines = 0;
            for (const char *c = out; (c = strchr(c, '\n')) != NULL; c++)
                lines++;
        }
    }
    assert_true(lines >= 3); /* the header and two frames */
    /* all of head read, and the command asleep (three looks in a row): it waits
     * in its read for what never comes, rather than still labelling the head */
    wait_drained(*to);
    for (int asleep = 0, looks = 0; asleep < 3 && looks < 500; looks++) {
        char path[64], stat[512] = "";
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *fp = fopen(path, "r");
        size_t n = fp ? fread(stat, 1, sizeof stat - 1, fp) : 0;
        if (fp)
            fclose(fp);
        stat[n] = '\0';
        const char *state = strrchr(stat, ')'); /* "pid (comm) S ..." */
        asleep = state && state[1] == ' ' && state[2] == 'S' ? asleep + 1 : 0;
        poll(NULL, 0, 20);
    }
    return pid;
}

/* Waits for it (60 s at most, else fails naming `what`); its exit status. */
static int finish_started(pid_t pid, int to, int from, const char *what)
{
    pid_t done = 0;
    int st = 0;
    for (int waited = 0; done == 0 && waited < 600; waited++)
        if ((done = waitpid(pid, &st, WNOHANG)) == 0)
            poll(NULL, 0, 100);
    close(to);
    close(from);
    signal(SIGPIPE, SIG_DFL);
    if (done != pid)
        fail_msg("%s: the command did not end", what);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* `seqlabel label ARGS` on a stream that stalls (its source sends `head` and then
 * no more, open; on standard input, or through the FIFO dir/fifo): Ctrl-C ends it
 * with exit 0. */
static void interrupt_stalled(const char *const *args, const char *fifo, const void *head,
                              size_t head_len)
{
    int to, from;
    pid_t pid = start_until_frames(args, fifo, head, head_len, &to, &from);
    assert_int_equal(kill(pid, SIGINT), 0);
    assert_int_equal(finish_started(pid, to, from, args[0]), 0);
}

/* Ctrl-C on live input ends the input, not the command: what was read is
 * labelled to its end and the output file kept (a recording's labels survive
 * the Ctrl-C that stops it), equal to the labels of those samples as a file;
 * so does SIGTERM, a service's stop (systemctl stop, docker stop).
 * A hangup the command was started to ignore (nohup) is ignored. */
static void test_interrupt_ends_live_input(void **state)
{
    (void)state;
    float *xq;
    short *s16 = live_signal(&xq);
    free(xq);
    sh("head -c 60000 live.raw > live-head.raw"); /* LIVE_IN samples */
    assert_int_equal(run_label("- --model m.slm --format frames --raw-format s16le --raw-rate 16000 "
                               "< live-head.raw > head-file.tsv"), 0);
    char *want = slurp("head-file.tsv");
    const struct {
        const char *out;
        int ignore_hup, sig;
    } runs[] = {{"interrupted.tsv", 0, SIGINT}, {"terminated.tsv", 0, SIGTERM},
                {"nohup.tsv", 1, SIGHUP}};
    for (int i = 0; i < 3; i++) {
        int st = signal_live(runs[i].out, runs[i].ignore_hup, runs[i].sig, s16);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fail_msg("%s: after signal %d: %s %d (want exit 0)", runs[i].out, runs[i].sig,
                     WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        char *got = slurp(runs[i].out);
        assert_non_null(got);
        assert_string_equal(got, want);
        free(got);
    }
    /* SIGTERM with another input after the live one: the live input's labels
     * kept, onto standard output (held by the one worker of several inputs,
     * which the stop reaches as the command) and into a folder alike, the
     * input after it not begun, exit 143 (128 + SIGTERM, as Ctrl-C's 130) */
    for (int to_dir = 0; to_dir < 2; to_dir++) {
        const char *args[] = {LIVE_ARGS, "in.wav", to_dir ? "--output=two-live/" : NULL, NULL};
        void (*old)(int) = signal(SIGPIPE, SIG_IGN);
        int to, from;
        pid_t pid = spawn_label(args, 0, &to, &from);
        write_all(to, s16, sizeof(short) * LIVE_IN);
        wait_drained(to);
        assert_int_equal(kill(pid, SIGTERM), 0);
        close(to);
        char out[1 << 16];
        size_t got = 0;
        for (ssize_t n; (n = read(from, out + got, sizeof out - 1 - got)) > 0;)
            got += (size_t)n;
        out[got] = '\0';
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        close(from);
        signal(SIGPIPE, old);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 143)
            fail_msg("two inputs, SIGTERM: %s %d (want exit 143)", WIFEXITED(st) ? "exit" : "signal",
                     WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        char *kept = to_dir ? slurp("two-live/stdin.tsv") : out;
        assert_non_null(kept);
        /* the stream's lines name their input first: "stdin\t" */
        size_t k = 0, w = 0;
        for (const char *line = kept; *line; line = strchr(line, '\n') + 1) {
            const char *rest = to_dir ? line : strchr(line, '\t') + 1;
            const size_t len = (size_t)(strchr(rest, '\n') - rest) + 1;
            if (strncmp(want + w, rest, len))
                fail_msg("two inputs, SIGTERM: line %zu differs: %.*s", k, (int)len, rest);
            w += len;
            k++;
        }
        assert_int_equal(w, strlen(want));
        if (to_dir)
            free(kept);
        assert_false(exists("two-live/in.tsv"));
    }
    /* At another rate the resampler holds the last 0.43 s (8 kHz) back: after
     * Ctrl-C it is labelled too, as at the input's end (it was lost) */
    assert_int_equal(run_label("- --model m.slm --format frames --raw-format s16le --raw-rate 8000 "
                               "< live-head.raw > head-8k.tsv"), 0);
    {
        const char *at8k[] = {"-", "--model", "m.slm", "--format", "frames", "--raw-format",
                              "s16le", "--raw-rate", "8000", "-o", "interrupted-8k.tsv", NULL};
        int st = signal_after(at8k, 0, SIGINT, s16, sizeof(short) * LIVE_IN);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        char *got = slurp("interrupted-8k.tsv"), *whole = slurp("head-8k.tsv");
        assert_non_null(got);
        if (strcmp(got, whole))
            fail_msg("8 kHz input ended by Ctrl-C: %zu lines, %zu from the same samples in a file",
                     count_lines(got, strlen(got)), count_lines(whole, strlen(whole)));
        free(got);
        free(whole);
    }
    /* The same while the recorder stalls, its pipe open (no read returns): the
     * Ctrl-C alone ends the input, through a FIFO too */
    const char *stalled[] = {LIVE_ARGS, NULL};
    interrupt_stalled(stalled, NULL, s16, sizeof(short) * LIVE_IN);
    sh("mkfifo live.fifo");
    const char *fifo[] = {"live.fifo", "--model", "m.slm", "--format", "frames",
                          "--raw-format", "s16le", "--raw-rate", "16000", NULL};
    interrupt_stalled(fifo, "live.fifo", s16, sizeof(short) * LIVE_IN);
    /* --cut of live input: Ctrl-C ends the recording and keeps its cut, the one
     * of the same samples from a file. */
    assert_int_equal(run_label("- --model m.slm --raw-format s16le --raw-rate 16000 --target music "
                               "--on-threshold 0.4 --off-threshold 0.4 --cut head-cut.wav "
                               "--cut-silence -o head-cut.txt < live-head.raw"), 0);
    const char *cut_args[] = {"-", "--model", "m.slm", "--raw-format", "s16le", "--raw-rate",
                              "16000", "--target", "music", "--on-threshold", "0.4",
                              "--off-threshold", "0.4", "--cut", "live-cut.wav", "--cut-silence",
                              "-o", "live-cut.txt", NULL};
    int st = signal_after(cut_args, 0, SIGINT, s16, sizeof(short) * LIVE_IN);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    sh("cmp head-cut.wav live-cut.wav && cmp head-cut.txt live-cut.txt && grep -q music head-cut.txt");
    /* SIGTERM keeps the cut as Ctrl-C does; a hangup (the terminal gone) ends
     * the command: neither the labels' nor the cut's temporary file is left
     * (both are open at once) */
    sh("rm live-cut.wav live-cut.txt");
    st = signal_after(cut_args, 0, SIGTERM, s16, sizeof(short) * LIVE_IN);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    sh("cmp head-cut.wav live-cut.wav && cmp head-cut.txt live-cut.txt");
    st = signal_after(cut_args, 0, SIGHUP, s16, sizeof(short) * LIVE_IN);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGHUP);
    sh("test -z \"$(ls | grep '\\.tmp\\.')\"");
    /* so do Ctrl-\\ and a soft CPU-time limit, as their default does (a core) */
    const int core_sigs[2] = {SIGQUIT, SIGXCPU};
    struct rlimit core = no_core_dumps();
    for (int k = 0; k < 2; k++) {
        st = signal_after(cut_args, 0, core_sigs[k], s16, sizeof(short) * LIVE_IN);
        assert_true(WIFSIGNALED(st) && WTERMSIG(st) == core_sigs[k]);
        sh("test -z \"$(ls | grep '\\.tmp\\.')\"");
    }
    assert_int_equal(setrlimit(RLIMIT_CORE, &core), 0);
    /* and a batch queue's warning (SLURM's --signal=USR1@60), as its default */
    const int warn_sigs[2] = {SIGUSR1, SIGUSR2};
    for (int k = 0; k < 2; k++) {
        st = signal_after(cut_args, 0, warn_sigs[k], s16, sizeof(short) * LIVE_IN);
        assert_true(WIFSIGNALED(st) && WTERMSIG(st) == warn_sigs[k]);
        sh("test -z \"$(ls | grep '\\.tmp\\.')\"");
    }
    /* past the file-size limit (sh's ulimit -f: 512-byte blocks) a write fails,
     * said, not SIGXFSZ: exit 1, no temporary file, the older file kept */
    sh("echo older > xfsz.tsv && (ulimit -f 1 && exec \"$SL_SEQLABEL\" label in.wav --model m.slm "
       "--format frames -o xfsz.tsv) 2> xfsz.err; test $? = 1");
    sh("grep -q 'xfsz.tsv: write failed: File too large' xfsz.err && test \"$(cat xfsz.tsv)\" = "
       "older && test -z \"$(ls | grep '\\.tmp\\.')\"");
    /* live input at another rate (8 kHz telephony) is labelled as it comes:
     * with the pipe still open, every frame but those within the resampler's
     * delay and the lookahead (0.43 + 0.1 s) is out, where a whole block of
     * 16384 samples used to be read first (2 s at 8 kHz, the rest waiting) */
    {
        const char *args8k[] = {"-", "--model", "m.slm", "--format", "frames", "--raw-format",
                                "s16le", "--raw-rate", "8000", "--max-latency", "0.1", NULL};
        int to, from;
        pid_t pid = spawn_label(args8k, 0, &to, &from);
        write_all(to, s16, sizeof(short) * LIVE_IN); /* 3.75 s: 375 frames */
        int lines = 0;
        char buf[4096];
        for (struct pollfd p = {from, POLLIN, 0}; lines < 1 + 300 && poll(&p, 1, 30000) > 0;) {
            ssize_t got = read(from, buf, sizeof buf);
            if (got <= 0)
                break;
            for (ssize_t k = 0; k < got; k++)
                lines += buf[k] == '\n';
        }
        close(to);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        close(from);
        if (lines < 1 + 300)
            fail_msg("8 kHz live input: %d frames out of 375 before the pipe closed", lines - 1);
    }
    /* the output's folder renamed while the command writes into it: the rename
     * into place fails, said, and the temporary file goes with it (it was
     * removed by its old path) */
    {
        sh("mkdir -p moving && rm -rf moved");
        const char *args[] = {LIVE_ARGS, "-o", "moving/live.tsv", NULL};
        int to, from;
        pid_t pid = spawn_label(args, 0, &to, &from);
        write_all(to, s16, sizeof(short) * LIVE_IN);
        wait_drained(to);
        sh("mv moving moved");
        close(to);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        close(from);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
        sh("test -z \"$(ls moved)\""); /* ("moving/live.tsv: cannot rename the temporary
                                            file into place: No such file or directory") */
    }
    /* Without nohup a hangup still ends the command and leaves no partial file. */
    st = signal_live("hungup.tsv", 0, SIGHUP, s16);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGHUP);
    assert_false(exists("hungup.tsv"));
    sh("test -z \"$(ls | grep hungup)\"");
    free(want);
    free(s16);

    /* Inputs after the interrupted one are not started: exit 130, and said so. */
    const char *args[] = {"-", "in.wav", "--model", "m.slm", "--format", "frames", "-o", "after/", NULL};
    sh("mkdir after");
    char *wav = slurp("in.wav"); /* a WAV through the pipe: part of it, the rest never comes */
    st = signal_after(args, 0, SIGINT, wav, 60000);
    free(wav);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 130);
    assert_true(exists("after/stdin.tsv"));
    assert_false(exists("after/in.tsv"));
}


/* --jobs N: inputs labelled N at a time give the outputs of one at a time, byte
 * for byte; a bad input among them is said and the others labelled (exit 1).
 * On standard output too: the same bytes in the inputs' order, the private
 * folder they pass through removed, also when the reader goes away (`| head`:
 * the command ends by SIGPIPE, as one at a time does). With live inputs (FIFOs, a
 * worker each, a third input nobody has taken yet): Ctrl-C (SIGINT to the
 * command's process group, as a terminal sends it) ends them, their labels
 * written and equal to those of the same samples from a file, the third not
 * started (exit 130); SIGTERM sent to the command alone reaches its workers and
 * ends it, no temporary file left behind. */
static void test_jobs(void **state)
{
    (void)state;
    sh("mkdir jobs-in jobs-1 jobs-3 jobs-bad jobs-live");
    char path[600];
    for (int k = 0; k < 5; k++) {
        int64_t n = 16000 * (1 + 2 * (k % 3)) + 37 * k;
        float *x = tu_make_signal(n, 100 + (uint64_t)k);
        snprintf(path, sizeof path, "%s/jobs-in/%c.wav", dir, 'a' + k);
        write_wav(path, x, n, 16000, 1, SF_FORMAT_PCM_16);
        free(x);
    }
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format frames -o jobs-1/"), 0);
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format frames -o jobs-3/ -j 3"), 0);
    sh("test $(ls jobs-3 | wc -l) = 5 && diff -r jobs-1 jobs-3");
    /* --keep-existing: a batch stopped part way resumes; an output that is
     * there is not written again (b's, changed here, stays so), one that is
     * not is made as before (d's), one at a time and with jobs */
    for (int jobs = 1; jobs <= 2; jobs++) {
        sh("rm -rf jobs-keep && cp -r jobs-1 jobs-keep && echo changed > jobs-keep/b.tsv && "
           "rm jobs-keep/d.tsv");
        snprintf(path, sizeof path, "jobs-in/*.wav --model m.slm --format frames -o jobs-keep/ "
                 "--keep-existing -j %d", jobs);
        assert_int_equal(run_label(path), 0);
        sh("test \"$(cat jobs-keep/b.tsv)\" = changed && cmp jobs-1/d.tsv jobs-keep/d.tsv && "
           "cmp jobs-1/a.tsv jobs-keep/a.tsv && grep -q '4 of 5 inputs labelled already in "
           "jobs-keep/: not again' err.txt");
    }
    /* on a terminal (script(1) gives one), a line said clears the count of
     * inputs done first rather than running on after it, and the count says
     * done, failed ones among them, not labelled */
    {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "script -qec \"TERM=xterm '%s' label jobs-in/a.wav jobs-absent.wav "
                 "--model m.slm -j 2 -o jobs-tty/\" /dev/null > jobs-tty.out; "
                 "tr '\\r\\033' 'RE' < jobs-tty.out > jobs-tty.txt && "
                 "grep -q 'RE\\[Kseqlabel: jobs-absent.wav: ' jobs-tty.txt && "
                 "grep -q 'R2 of 2 inputs done' jobs-tty.txt", seqlabel);
        sh(cmd);
    }
    /* labels written to that terminal come on a line of their own, the
     * progress line taken away first; where the terminal cannot take it back
     * (TERM=dumb: Emacs' shell, a braille console) none is drawn, and no
     * message carries control codes */
    {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "script -qec \"TERM=xterm '%s' label jobs-in/c.wav --model m.slm\" "
                 "/dev/null > tty-labels.out; tr '\\r\\033' 'RE' < tty-labels.out > tty-labels.txt "
                 "&& grep -q 'c.wav: .*%%)RE\\[K0' tty-labels.txt && ! grep -q '%%)[0-9]' "
                 "tty-labels.txt", seqlabel);
        sh(cmd);
        /* so too for the terminal named another way (-o /dev/stdout); and
         * for several inputs, whose labels the command hands on: a worker's
         * line was drawn in the middle of them, so the command alone draws,
         * a count of the inputs done, between them */
        snprintf(cmd, sizeof cmd, "script -qec \"TERM=xterm '%s' label jobs-in/c.wav --model m.slm "
                 "-o /dev/stdout\" /dev/null > tty-two.out; tr '\\r\\033' 'RE' < tty-two.out > "
                 "tty-two.txt && grep -q 'RE\\[K0' tty-two.txt && ! grep -q '%%)[^R]' tty-two.txt",
                 seqlabel);
        sh(cmd);
        snprintf(cmd, sizeof cmd, "script -qec \"TERM=xterm '%s' label jobs-in/c.wav jobs-in/e.wav "
                 "jobs-in/d.wav --model m.slm --format frames\" /dev/null > tty-three.out; "
                 "tr '\\r\\033' 'RE' < tty-three.out > tty-three.txt && grep -q '^c\t' "
                 "tty-three.txt && grep -q 'R1 of 3 inputs doneRE\\[K' tty-three.txt && "
                 "! grep -q '%%)' tty-three.txt && ! grep -q 'inputs done[^R]' tty-three.txt",
                 seqlabel);
        sh(cmd);
        snprintf(cmd, sizeof cmd, "script -qec \"TERM=dumb '%s' label jobs-in/c.wav jobs-absent.wav "
                 "--model m.slm\" /dev/null > tty-dumb.out; tr '\\r\\033' 'RE' < tty-dumb.out > "
                 "tty-dumb.txt && grep -q '^seqlabel: jobs-absent.wav' tty-dumb.txt && "
                 "grep -q '^c\t' tty-dumb.txt && ! grep -q 'E\\[\\|%%)' tty-dumb.txt", seqlabel);
        sh(cmd);
        /* a line wider than the terminal (a long path) would wrap, and \\r
         * cannot take back the rows above: its start is left out, "..." */
        sh("ln -f jobs-in/c.wav long-long-long-long-long-long-long-long-name.wav");
        snprintf(cmd, sizeof cmd, "script -qec \"stty cols 40; TERM=xterm '%s' label "
                 "long-long-long-long-long-long-long-long-name.wav --model m.slm -o "
                 "tty-long.txt\" /dev/null > tty-long.out; tr '\\r' '\\n' < tty-long.out | "
                 "grep '%%)' > tty-long.lines && grep -q '^\\.\\.\\..*-name.wav: ' tty-long.lines "
                 "&& ! awk 'length($0) > 39' tty-long.lines | grep -q .", seqlabel);
        sh(cmd);
        /* a tab in the name takes the columns to the next stop: made a space */
        sh("ln -f jobs-in/c.wav \"$(printf 'tab\\tt\\ta\\tb\\ts\\tlong-long-long-name.wav')\"");
        snprintf(cmd, sizeof cmd, "script -qec \"stty cols 40; TERM=xterm '%s' label "
                 "tab*name.wav --model m.slm -o tty-long.txt\" /dev/null > tty-tab.out; "
                 "tr '\\r' '\\n' < tty-tab.out | grep '%%)' > tty-tab.lines && "
                 "grep -q '^\\.\\.\\..*-name.wav: ' tty-tab.lines && ! grep -q \"$(printf '\\t')\" "
                 "tty-tab.lines && ! awk 'length($0) > 39' tty-tab.lines | grep -q .", seqlabel);
        sh(cmd);
    }
    /* a worker that cannot make the file holding an input's labels for
     * standard output (descriptors used up) names the input, not that file
     * (/tmp/seqlabel-jobs-X/0); the limit that first fails there is looked for,
     * the command started with no descriptor of this process's but 0-2 */
    {
        int found = 0;
        for (int n = 4; n <= 40 && !found; n++) {
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                if (chdir(dir) != 0)
                    _exit(127);
                int err_fd = open("fd.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
                int null_fd = open("/dev/null", O_WRONLY);
                if (err_fd < 0 || null_fd < 0 || dup2(err_fd, 2) < 0 || dup2(null_fd, 1) < 0)
                    _exit(127);
                for (int fd = 3; fd < 1024; fd++)
                    close(fd);
                struct rlimit lim = {(rlim_t)n, (rlim_t)n};
                setrlimit(RLIMIT_NOFILE, &lim);
                execl(seqlabel, seqlabel, "label", "jobs-in/a.wav", "jobs-in/b.wav", "--model",
                      "m.slm", "-j", "2", (char *)NULL);
                _exit(127);
            }
            int st;
            assert_int_equal(waitpid(pid, &st, 0), pid);
            char *e = slurp("fd.err");
            if (e && strstr(e, "seqlabel-jobs-") && strstr(e, "/0: "))
                fail_msg("the labels' file named, not the input: %s", e);
            found = e && strstr(e, "seqlabel: jobs-in/a.wav: its labels, held for standard "
                                   "output in ") && strstr(e, ": cannot write: Too many open files");
            free(e);
        }
        assert_true(found);
    }
    expect_error("jobs-in/*.wav --model m.slm --keep-existing", 2, "-o DIR");
    expect_error("jobs-in/a.wav --model m.slm -o x.txt --keep-existing", 2, "-o DIR");
    expect_error("jobs-in/a.wav --model m.slm -o jobs-keep/ --target speech --split jobs-split/ "
                 "--keep-existing", 2, "not with --split");
    sh("echo garbage > jobs-in/bad.wav");
    expect_error("jobs-in/*.wav --model m.slm --format frames -o jobs-bad/ --jobs 2", 1, "bad.wav");
    sh("test $(ls jobs-bad | wc -l) = 5 && diff -r jobs-1 jobs-bad");
    sh("mkdir jobs-tmp");
    const char *tmpdir = getenv("TMPDIR");
    char *old_tmpdir = tmpdir ? strdup(tmpdir) : NULL;
    /* in the test folder, by its full path: valgrind, tracing the commands, puts
     * files of its own in $TMPDIR too (their names are not the command's) */
    char tmp_path[600];
    snprintf(tmp_path, sizeof tmp_path, "%s/jobs-tmp", dir);
    setenv("TMPDIR", tmp_path, 1);
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format rttm > jobs-1.rttm"), 1);
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format rttm -j 3 > jobs-3.rttm"), 1);
    sh("test $(cut -d' ' -f2 jobs-1.rttm | uniq | wc -l) = 5 && cmp jobs-1.rttm jobs-3.rttm");
    sh("rm jobs-in/bad.wav");
    /* an input that fails part way (a FLAC cut in half) leaves nothing in a
     * stream of several, one at a time too: its lines would look complete */
    {
        SF_INFO info = {.samplerate = 16000, .channels = 1, .format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16};
        const int64_t n = 3 * 16000;
        float *x = tu_make_signal(n, 200);
        snprintf(path, sizeof path, "%s/jobs-whole.flac", dir);
        SNDFILE *f = sf_open(path, SFM_WRITE, &info);
        assert_non_null(f);
        assert_int_equal(sf_writef_float(f, x, n), n);
        sf_close(f);
        free(x);
    }
    sh("head -c $(($(stat -c %s jobs-whole.flac) / 2)) jobs-whole.flac > jobs-part.flac");
    assert_int_equal(run_label("jobs-in/a.wav jobs-part.flac jobs-in/b.wav --model m.slm "
                               "--format rttm > jobs-part-1.rttm"), 1);
    assert_int_equal(run_label("jobs-in/a.wav jobs-part.flac jobs-in/b.wav --model m.slm "
                               "--format rttm -j 3 > jobs-part-3.rttm"), 1);
    sh("test \"$(cut -d' ' -f2 jobs-part-1.rttm | uniq | tr '\\n' ' ')\" = 'a b ' && "
       "cmp jobs-part-1.rttm jobs-part-3.rttm");
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format frames > jobs-1.tsv"), 0);
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format frames -j 0 > jobs-3.tsv"), 0);
    /* several inputs on one stream: one header, with a file column, and each
     * line names its file first (the jobs' stream and one at a time's alike) */
    sh("(head -n 1 jobs-1/a.tsv | sed 's/^/file\t/'; for f in jobs-1/*.tsv; do "
       "tail -n +2 $f | sed \"s/^/$(basename $f .tsv)\t/\"; done) > jobs-want.tsv && "
       "cmp jobs-want.tsv jobs-1.tsv && cmp jobs-1.tsv jobs-3.tsv && "
       "test -z \"$(ls jobs-tmp | grep seqlabel)\"");
    /* the name is the input's as in -o DIR, a folder tree's below it kept: a
     * 001 in each speaker's folder is two names; two names written alike (a
     * blank is '_' in a column; any byte that is not UTF-8, U+FFFD in JSON)
     * are refused, as in RTTM */
    sh("mkdir -p jobs-tree/spk1 jobs-tree/spk2 jobs-x && cp jobs-in/a.wav jobs-tree/spk1/001.wav && "
       "cp jobs-in/b.wav jobs-tree/spk2/001.wav && cp jobs-in/a.wav 'jobs-x/x y.wav' && "
       "cp jobs-in/b.wav jobs-x/x_y.wav && cp jobs-in/a.wav \"$(printf 'jobs-x/c\\351.wav')\" && "
       "cp jobs-in/b.wav \"$(printf 'jobs-x/c\\350.wav')\" && mkdir jobs-q && "
       "cp jobs-in/a.wav 'jobs-q/\"q\".wav' && cp jobs-in/b.wav jobs-q/r.wav");
    /* a '"' first in a column would open a quoted field for pandas and
     * Python's csv (tab-separated), which would run on across lines */
    assert_int_equal(run_label("jobs-q/ --model m.slm --format frames > jobs-q.tsv"), 0);
    sh("test \"$(cut -f1 jobs-q.tsv | uniq | tr '\\n' ' ')\" = 'file _q\" r '");
    assert_int_equal(run_label("jobs-tree/ --model m.slm > jobs-tree.txt"), 0);
    sh("test \"$(cut -f1 jobs-tree.txt | uniq | tr '\\n' ' ')\" = 'spk1/001 spk2/001 '");
    /* written whole however long (a tree's folders pass a file name's 255
     * bytes; JSON's string 1023): two names that differ only past them are
     * two, and a name is the path below the folder labelled */
    sh("L=$(printf '%0250d' 0) && mkdir -p jobs-long/$L/$L/$L/$L/$L/a jobs-long/$L/$L/$L/$L/$L/b && "
       "cp jobs-in/a.wav jobs-long/$L/$L/$L/$L/$L/a/x.wav && "
       "cp jobs-in/b.wav jobs-long/$L/$L/$L/$L/$L/b/x.wav");
    assert_int_equal(run_label("jobs-long/ --model m.slm > jobs-long.txt"), 0);
    assert_int_equal(run_label("jobs-long/ --model m.slm --format jsonl > jobs-long.jsonl"), 0);
    sh("L=$(printf '%0250d' 0) && test \"$(cut -f1 jobs-long.txt | uniq | tr '\\n' ' ')\" = "
       "\"$L/$L/$L/$L/$L/a/x $L/$L/$L/$L/$L/b/x \" && grep -q \"^{\\\"file\\\":\\\"$L/$L/$L/$L/$L/b/x\\\",\" "
       "jobs-long.jsonl");
    expect_error("'jobs-x/x y.wav' jobs-x/x_y.wav --model m.slm", 2,
                 "would both be 'x_y' in one audacity stream");
    expect_error("jobs-x/c?.wav --model m.slm --format summary", 2,
                 "would both be \"c\\ufffd\" in one summary stream");
    /* so does the character U+FFFD itself, which a JSON reader gets back from
     * "\ufffd" alike (the two streams' lines were told apart by their bytes) */
    sh("mkdir jobs-fffd && cp jobs-in/a.wav \"jobs-fffd/$(printf 'x\\377.wav')\" && "
       "cp jobs-in/b.wav \"jobs-fffd/$(printf 'x\\357\\277\\275.wav')\"");
    expect_error("jobs-fffd/ --model m.slm --format jsonl", 2, "in one jsonl stream");
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm > jobs-1.txt"), 0);
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm -o jobs-1/"), 0);
    sh("for f in jobs-1/*.txt; do sed \"s/^/$(basename $f .txt)\t/\" $f; done | cmp - jobs-1.txt");
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format jsonl --segments -j 2 "
                               "> jobs-3.jsonl"), 0);
    assert_int_equal(run_label("jobs-in/*.wav --model m.slm --format jsonl --segments -o jobs-1/"), 0);
    sh("for f in jobs-1/*.jsonl; do sed \"s/^{/{\\\"file\\\":\\\"$(basename $f .jsonl)\\\",/\" $f; done "
       "| cmp - jobs-3.jsonl");
    /* ten inputs' frames, 234 kB: more than a pipe holds once head has gone */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && ('%s' label jobs-in/*.wav jobs-in/*.wav "
             "--model m.slm --format frames -j 2; echo $? > jobs-rc) | head -c 100 > /dev/null",
             dir, seqlabel);
    assert_int_equal(system(cmd), 0);
    sh("test $(cat jobs-rc) = 141 && test -z \"$(ls jobs-tmp | grep seqlabel)\"");
    /* workers that cannot be set up (no descriptor left for their pipe): said,
     * and the folder made to hold their labels removed */
    sh("(ulimit -n 4 && exec \"$SL_SEQLABEL\" label jobs-in/a.wav jobs-in/b.wav --model m.slm "
       "-j 2) > /dev/null 2> jobs-fds.err; test $? = 1 && grep -q 'cannot set up the workers' "
       "jobs-fds.err && test -z \"$(ls jobs-tmp | grep seqlabel)\"");
    /* no folder to hold the labels in: without --jobs, they are written as
     * they come (said); --jobs N needs it */
    assert_int_equal(run_label("jobs-in/a.wav jobs-in/b.wav --model m.slm > jobs-held.txt"), 0);
    /* (valgrind makes files of its own in $TMPDIR and cannot start without it:
     * scripts/check-memory.sh says so with SL_VALGRIND; every other run checks) */
    if (!getenv("SL_VALGRIND")) {
        setenv("TMPDIR", "/nonexistent/tmp", 1);
        assert_int_equal(run_label("jobs-in/a.wav jobs-in/b.wav --model m.slm > jobs-direct.txt"), 0);
        sh("cmp jobs-held.txt jobs-direct.txt && grep -q 'cannot make a temporary folder in "
           "/nonexistent/tmp to hold each input.s labels until it is done (No such file or "
           "directory): they are written as they come' err.txt");
        expect_error("jobs-in/a.wav jobs-in/b.wav --model m.slm -j 2", 1,
                     "--jobs: cannot make a temporary folder in /nonexistent/tmp: No such file");
        if (old_tmpdir)
            setenv("TMPDIR", old_tmpdir, 1);
        else
            unsetenv("TMPDIR");
    }
    /* nor in a full one, where a folder is still made (tmpfs's take no block;
     * statvfs preloaded to say so): every input held there failed */
    {
        char cmd[2048], preload[1024];
        test_preload_path(preload, sizeof preload, dir, getenv("SL_RAISE_IN_RENAME_LIB"));
        snprintf(cmd, sizeof cmd, "cd '%s' && SL_FULL_DISK=1 LD_PRELOAD='%s' "
                 "ASAN_OPTIONS=\"$ASAN_OPTIONS:verify_asan_link_order=0\" '%s' label jobs-in/a.wav "
                 "jobs-in/b.wav --model m.slm > jobs-full.txt 2> err.txt", dir, preload, seqlabel);
        int st = system(cmd);
        unlink(preload);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        sh("cmp jobs-held.txt jobs-full.txt && grep -q 'to hold each input.s labels until it is "
           "done (No space left on device): they are written as they come' err.txt");
        /* one that counts no block or inode at all (ramfs, an unlimited tmpfs)
         * is no full one: held there, --jobs 2 too */
        test_preload_path(preload, sizeof preload, dir, getenv("SL_RAISE_IN_RENAME_LIB"));
        snprintf(cmd, sizeof cmd, "cd '%s' && SL_FULL_DISK=unlimited LD_PRELOAD='%s' "
                 "ASAN_OPTIONS=\"$ASAN_OPTIONS:verify_asan_link_order=0\" '%s' label jobs-in/a.wav "
                 "jobs-in/b.wav --model m.slm -j 2 > jobs-ramfs.txt 2> err.txt", dir, preload,
                 seqlabel);
        st = system(cmd);
        unlink(preload);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        sh("cmp jobs-held.txt jobs-ramfs.txt && ! grep -q 'temporary folder' err.txt");
    }
    free(old_tmpdir);

    float *xq;
    short *s16 = live_signal(&xq);
    free(xq);
    sh("head -c 60000 live.raw > jobs-head.raw && mkfifo f1.raw f2.raw f3.raw");
    assert_int_equal(run_label("- --model m.slm --format frames --raw-format s16le --raw-rate 16000 "
                               "< jobs-head.raw > jobs-head.tsv"), 0);
    char *want = slurp("jobs-head.tsv");
    const char *args[] = {"f1.raw", "f2.raw", "f3.raw", "--model", "m.slm", "--format", "frames",
                          "--raw-format", "s16le", "--raw-rate", "16000", "-o", "jobs-live/",
                          "-j", "2", NULL};
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        int to, from, w1, w2;
        pid_t pid = spawn_fed_jobs(args, s16, &to, &from, &w1, &w2);
        /* Ctrl-C ends the inputs, which then end (as a recorder stopped by the
         * same Ctrl-C closes them); SIGTERM ends the workers with their inputs
         * still open, so nothing can finish before it arrives */
        int st;
        if (sigs[k] == SIGINT) {
            assert_int_equal(kill(-pid, SIGINT), 0);
            close(w1);
            close(w2);
            assert_int_equal(waitpid(pid, &st, 0), pid);
        } else {
            assert_int_equal(kill(pid, SIGTERM), 0);
            assert_int_equal(waitpid(pid, &st, 0), pid);
            close(w1);
            close(w2);
        }
        close(to);
        close(from);
        sh("test -z \"$(ls jobs-live | grep '\\.tmp\\.')\"");
        if (sigs[k] == SIGINT) {
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 130)
                fail_msg("after SIGINT: %s %d (want exit 130)", WIFEXITED(st) ? "exit" : "signal",
                         WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            for (int f = 1; f <= 2; f++) {
                snprintf(path, sizeof path, "jobs-live/f%d.tsv", f);
                char *got = slurp(path);
                assert_non_null(got);
                assert_string_equal(got, want);
                free(got);
            }
            assert_false(exists("jobs-live/f3.tsv"));
            sh("rm jobs-live/*");
        } else {
            assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
            sh("test -z \"$(ls jobs-live)\"");
        }
    }
    /* Ctrl-\\ (SIGQUIT to the process group) with the labels held for standard
     * output: the workers end, and so does the command, as by SIGQUIT, its
     * folder of held labels removed */
    {
        char quit_tmp[600];
        snprintf(quit_tmp, sizeof quit_tmp, "%s/jobs-quit-tmp", dir);
        sh("mkdir jobs-quit-tmp");
        char *saved_tmpdir = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
        setenv("TMPDIR", quit_tmp, 1);
        struct rlimit core = no_core_dumps();
        const char *quit_args[] = {"f1.raw", "f2.raw", "f3.raw", "--model", "m.slm", "--format",
                                   "frames", "--raw-format", "s16le", "--raw-rate", "16000",
                                   "-j", "2", NULL};
        int to, from, w1, w2;
        pid_t pid = spawn_fed_jobs(quit_args, s16, &to, &from, &w1, &w2);
        sh("test -n \"$(ls jobs-quit-tmp)\""); /* the folder the labels are held in */
        assert_int_equal(kill(-pid, SIGQUIT), 0);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        close(w1);
        close(w2);
        close(to);
        close(from);
        assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGQUIT);
        sh("test -z \"$(ls jobs-quit-tmp)\"");
        assert_int_equal(setrlimit(RLIMIT_CORE, &core), 0);
        if (saved_tmpdir)
            setenv("TMPDIR", saved_tmpdir, 1);
        else
            unsetenv("TMPDIR");
        free(saved_tmpdir);
    }
    free(want);
    free(s16);
}

/* Up to max pids of the processes whose parent is `parent` (from /proc). */
static int children_of(pid_t parent, pid_t *out, int max)
{
    int n = 0;
    DIR *d = opendir("/proc");
    assert_non_null(d);
    for (struct dirent *e; n < max && (e = readdir(d)) != NULL;) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? fopen(path, "r") : NULL;
        size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[got] = 0;
        const char *after = strrchr(buf, ')'); /* the name may hold anything */
        int ppid;
        if (after && sscanf(after + 1, " %*c %d", &ppid) == 1 && ppid == parent)
            out[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

/* Whether process pid has a file named `name` (in any folder) open. */
static int has_open(pid_t pid, const char *name)
{
    char fds[64], link[600], to[600];
    snprintf(fds, sizeof fds, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(fds);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d)) != NULL;) {
        snprintf(link, sizeof link, "%s/%s", fds, e->d_name);
        ssize_t n = readlink(link, to, sizeof to - 1);
        to[n > 0 ? n : 0] = 0;
        const char *slash = strrchr(to, '/');
        found = slash && !strcmp(slash + 1, name);
    }
    if (d)
        closedir(d);
    return found;
}

/* --jobs: a worker ended by a signal of its own (the OOM killer's SIGKILL, a
 * crash) fails its input alone: said, naming it, its temporary file removed,
 * the inputs after it labelled by the worker left (exit 1). The command killed
 * outright (SIGKILL, no handler) takes its workers with it (they get SIGTERM),
 * no temporary file left: they labelled on for nobody before. */
static void test_jobs_worker_killed(void **state)
{
    (void)state;
    float *xq;
    short *s16 = live_signal(&xq);
    free(xq);
    sh("rm -rf jobs-kill && mkdir jobs-kill && rm -f k1.raw k2.raw && mkfifo k1.raw k2.raw && "
       "head -c 60000 live.raw > k3.raw");
    const char *args[] = {"k1.raw", "k2.raw", "k3.raw", "--model", "m.slm", "--format", "frames",
                          "--raw-format", "s16le", "--raw-rate", "16000", "-o", "jobs-kill/",
                          "-j", "2", NULL};
    /* the worker killed (SIGKILL), then sent SIGTERM alone (as kill PID does:
     * not a stop of the command, which was sent nothing), then the same after
     * a SIGINT to the command alone (a stop of it, but by another signal: the
     * worker's input is named, the input after it left, exit 130), then the
     * command killed */
    for (int round = 0; round < 4; round++) {
        const int whole = round == 3, sig = round == 0 ? SIGKILL : SIGTERM;
        int to, from, st, saved = dup(STDERR_FILENO);
        char errs[600];
        snprintf(errs, sizeof errs, "%s/jobs-kill.err", dir);
        int errfd = open(errs, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(errfd, STDERR_FILENO); /* the command's standard error, for a look below */
        pid_t pid = spawn_label(args, 0, &to, &from);
        dup2(saved, STDERR_FILENO);
        close(saved);
        close(errfd);
        int w1 = open_fifo_writer("k1.raw"), w2 = open_fifo_writer("k2.raw");
        write_all(w1, s16, sizeof(short) * LIVE_IN);
        write_all(w2, s16, sizeof(short) * LIVE_IN);
        wait_drained(w1);
        wait_drained(w2);
        pid_t workers[4];
        assert_int_equal(children_of(pid, workers, 4), 2);
        if (!whole) {
            pid_t victim = has_open(workers[0], "k1.raw") ? workers[0] : workers[1];
            assert_true(has_open(victim, "k1.raw"));
            if (round == 2) {
                assert_int_equal(kill(pid, SIGINT), 0);
                poll(NULL, 0, 200);
            }
            assert_int_equal(kill(victim, sig), 0);
            close(w1);
            close(w2);
            assert_int_equal(waitpid(pid, &st, 0), pid);
            const int want = round == 2 ? 130 : 1;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != want)
                fail_msg("%s %d (want exit %d)", WIFEXITED(st) ? "exit" : "signal",
                         WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), want);
            char check[400];
            snprintf(check, sizeof check, "grep -q 'k1.raw: not labelled: the worker labelling "
                     "it ended by signal %d' jobs-kill.err && test \"$(ls jobs-kill)\" = "
                     "\"$(printf %s)\" && rm jobs-kill/*", sig,
                     round == 2 ? "k2.tsv" : "'k2.tsv\\nk3.tsv'");
            sh(check);
        } else {
            assert_int_equal(kill(pid, SIGKILL), 0);
            assert_int_equal(waitpid(pid, &st, 0), pid);
            int alive = 2;
            for (int waited = 0; alive > 0 && waited < 100; waited++) {
                alive = (kill(workers[0], 0) == 0) + (kill(workers[1], 0) == 0);
                if (alive)
                    poll(NULL, 0, 100);
            }
            if (alive) { /* still reading their inputs (kept open) for nobody */
                kill(workers[0], SIGKILL);
                kill(workers[1], SIGKILL);
                fail_msg("%d workers outlived the command by 10 s", alive);
            }
            close(w1);
            close(w2);
            sh("test -z \"$(ls jobs-kill | grep -v '^k[23].tsv$')\"");
        }
        close(to);
        close(from);
    }
    free(s16);
}

/* --jobs 0 is a worker per CPU the command may use: under an affinity of one
 * CPU (taskset -c 0, a container's cpuset), one at a time, which the command
 * does itself, reading the first input while the second waits. It was every
 * CPU online (two workers here). */
static void test_jobs_per_usable_cpu(void **state)
{
    (void)state;
    float *xq;
    short *s16 = live_signal(&xq);
    free(xq);
    sh("rm -rf jobs-cpu && mkdir jobs-cpu && rm -f c1.raw c2.raw && mkfifo c1.raw c2.raw");
    const char *args[] = {"c1.raw", "c2.raw", "--model", "m.slm", "--raw-format", "s16le",
                          "--raw-rate", "16000", "-o", "jobs-cpu/", "-j", "0", NULL};
    cpu_set_t all, one;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all)) {
            CPU_SET(c, &one);
            break;
        }
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0); /* the child's too */
    int to, from, st;
    pid_t pid = spawn_label(args, 0, &to, &from);
    assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
    int w1 = open_fifo_writer("c1.raw");
    write_all(w1, s16, sizeof(short) * LIVE_IN);
    wait_drained(w1);
    pid_t workers[4];
    assert_int_equal(children_of(pid, workers, 4), 0); /* one at a time: by the command */
    close(w1);
    int w2 = open_fifo_writer("c2.raw"); /* the command, done with c1, opens it */
    write_all(w2, s16, sizeof(short) * LIVE_IN);
    close(w2);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    sh("test -s jobs-cpu/c1.txt && test -s jobs-cpu/c2.txt");
    close(to);
    close(from);
    free(s16);
}

/* A folder as input stands for every audio file below it (by extension; hidden
 * ones and other files left out), and the outputs mirror its tree: each the
 * output of that file labelled alone, also with --jobs, and --split's pieces in
 * the same folders. A folder with no audio file is an error; two files that
 * would write one output are refused. With --raw-format, a folder's .raw and
 * .pcm files are its inputs (a WAV or .ulaw file beside them is not). */
static void test_folder_inputs(void **state)
{
    (void)state;
    sh("mkdir -p tree/a tree/b/c tree/.hid tree-out tree-jobs tree-split tree-empty && "
       "cp in.wav tree/a/x.wav && cp in.wav tree/b/x.wav && cp in.wav tree/b/c/y.au.wav && "
       "cp in.wav tree/.hid/z.wav && cp in.wav tree/b/.w.wav && echo notes > tree/a/notes.txt && "
       "ln -s .. tree/b/c/up && ln -s ../../../in.wav tree/b/c/z.wav && mkdir tree/b/d.wav");
    /* a link to a folder above is not followed (no loop), a link to a file is;
     * a folder named like audio is a folder */
    assert_int_equal(run_label("tree --model m.slm --format frames -o tree-out/"), 0);
    assert_int_equal(run_label("in.wav --model m.slm --format frames -o tree-one.tsv"), 0);
    sh("test \"$(cd tree-out && find . -type f | sort | tr '\\n' ' ')\" = "
       "'./a/x.tsv ./b/c/y.au.tsv ./b/c/z.tsv ./b/x.tsv ' && "
       "cmp tree-out/a/x.tsv tree-one.tsv && cmp tree-out/b/x.tsv tree-one.tsv && "
       "cmp tree-out/b/c/y.au.tsv tree-one.tsv && cmp tree-out/b/c/z.tsv tree-one.tsv");
    assert_int_equal(run_label("tree/ --model m.slm --format frames -o tree-jobs -j 0"), 0); /* a worker per CPU */
    sh("diff -r tree-out tree-jobs");
    assert_int_equal(run_label("tree --model m.slm --target music --on-threshold 0.4 "
                               "--off-threshold 0.4 --split tree-split -o tree-out/"), 0);
    sh("ls tree-split/a/x-0001_*.wav tree-split/b/x-0001_*.wav tree-split/b/c/y.au-0001_*.wav "
       "> /dev/null && test -z \"$(ls tree-split | grep -v '^[ab]$')\"");
    expect_error("tree-empty --model m.slm", 1, "tree-empty: a folder with no audio file");
    /* the run's own output folders below the folder labelled are no inputs: the
     * same command run again labels nothing new (its cuts were labelled and
     * cut again into cuts/cuts/ before) */
    sh("mkdir -p own/a && cp in.wav own/a/x.wav");
#define OWN_ARGS "own --model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 " \
                 "--cut own/cuts/ -o own/labels/"
    assert_int_equal(run_label(OWN_ARGS), 0);
    assert_int_equal(run_label(OWN_ARGS " --keep-existing"), 0);
    assert_int_equal(run_label(OWN_ARGS " --split own/pieces"), 0);
    assert_int_equal(run_label(OWN_ARGS " --split own/pieces"), 0);
    sh("test \"$(cd own && find . -type f -name '*.txt' | sort | tr '\\n' ' ')\" = "
       "'./labels/a/x.txt ' && test \"$(cd own && find . -type f -name '*.wav' | "
       "grep -cv '^./pieces/a/x-')\" = 2 && cmp own/a/x.wav in.wav");
    /* a link named as audio that leads nowhere is an input that fails, named,
     * not a file gone missing unsaid; the others are labelled (exit 1) */
    sh("ln -s nowhere.wav tree/a/gone.wav");
    expect_error("tree --model m.slm --format frames -o tree-out/", 1, "tree/a/gone.wav");
    sh("rm tree/a/gone.wav");
    /* a folder below that cannot be read (lost+found, to a user), and an empty
     * folder given beside a file: each said, the rest labelled (exit 1), as
     * past a file that cannot be read (tried as nobody, root reading any folder,
     * or as its owner where the tests are not run as root: mode 000) */
    sh("mkdir -p locked/spk1 locked/lost+found locked/nox && cp in.wav locked/spk1/001.wav && "
       "cp in.wav locked/nox/002.wav && chmod 000 locked/lost+found && chmod 644 locked/nox && "
       "mkdir -m 777 locked-out && chmod 777 .");
    {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "'%s' label locked --model m.slm --format frames -o locked-out/ "
                 "2> locked.err", seqlabel);
        assert_int_equal(test_system_unprivileged(dir, cmd), 1);
        char *e = slurp("locked.err");
        /* one that may be read but not searched (r without x): its files
         * cannot be reached, which is said once, not passed over */
        if (!e || !strstr(e, "locked/lost+found/: cannot read this folder: Permission denied") ||
            !strstr(e, "locked/nox/: cannot reach the files in this folder: Permission denied"))
            fail_msg("%s", e ? e : "nothing said");
        free(e);
    }
    sh("cmp locked-out/spk1/001.tsv tree-one.tsv && chmod 700 locked/lost+found locked/nox && "
       "rm -r locked locked-out locked.err");
    expect_error("in.wav tree-empty --model m.slm --format frames -o both.tsv", 1,
                 "tree-empty: a folder with no audio file");
    sh("cmp both.tsv tree-one.tsv");
    /* every pair of inputs that would write one output, said in one run */
    sh("cp in.wav tree/b/x.flac && cp in.wav tree/a/x.au");
    expect_error("tree --model m.slm -o tree-out/", 2, "would both write b/x.*");
    sh("grep -q 'would both write a/x.\\*' err.txt && "
       "grep -q 'label such inputs in two runs' err.txt && rm tree/a/x.au");
    /* a refused run makes no folder */
    expect_error("tree --model m.slm -o tree-never/", 2, "would both write b/x.*");
    assert_false(exists("tree-never"));
    /* one file listed twice is not refused: the same labels written twice */
    assert_int_equal(run_label("in.wav in.wav --model m.slm -o twice-out/"), 0);
    sh("test \"$(ls twice-out)\" = in.txt && rm -r twice-out");
    /* --cut and --split into one folder: an input whose cut would be named as
     * a piece of another's (the times as such a piece's) is refused before
     * anything is written, and the folder is not made */
    sh("mkdir cutsplit && cp in.wav cutsplit/y.wav && cp in.wav cutsplit/y-0001_0.630-3.980.wav");
    expect_error("cutsplit --model m.slm --target music --cut cs-out/ --split ./cs-out -o cs-labels/", 2,
                 "cutsplit/y-0001_0.630-3.980.wav: its cut in cs-out/ is named as a piece of "
                 "cutsplit/y.wav's would be");
    assert_false(exists("cs-out"));
    sh("rm -r cutsplit");

    /* with --raw-format a folder stands for its .raw and .pcm files only */
    sh("mkdir -p rawtree/b && cp in.wav rawtree/d.wav && cp in.wav rawtree/e.ulaw");
    { /* in.wav's samples without its header (written here: valgrind traces every
       * program the shell runs, and tail(1) does not free its buffer) */
        char from[600], to[600];
        snprintf(from, sizeof from, "%s/in.wav", dir);
        FILE *in = fopen(from, "rb");
        assert_non_null(in);
        const char *raws[2] = {"rawtree/a.raw", "rawtree/b/c.PCM"};
        for (int k = 0; k < 2; k++) {
            snprintf(to, sizeof to, "%s/%s", dir, raws[k]);
            FILE *out = fopen(to, "wb");
            assert_non_null(out);
            assert_int_equal(fseek(in, 44, SEEK_SET), 0);
            char buf[4096];
            size_t got;
            while ((got = fread(buf, 1, sizeof buf, in)) > 0)
                assert_int_equal(fwrite(buf, 1, got, out), got);
            assert_int_equal(fclose(out), 0);
        }
        fclose(in);
    }
    const char *raw = "--model m.slm --raw-format s16le --raw-rate 16000";
    char args[512];
    snprintf(args, sizeof args, "rawtree %s -o rawtree-out/", raw);
    assert_int_equal(run_label(args), 0);
    snprintf(args, sizeof args, "rawtree/a.raw %s -o rawtree-a.txt", raw);
    assert_int_equal(run_label(args), 0);
    sh("test \"$(cd rawtree-out && find . -type f | sort | tr '\\n' ' ')\" = './a.txt ./b/c.txt ' && "
       "cmp rawtree-out/a.txt rawtree-a.txt && cmp rawtree-out/b/c.txt rawtree-a.txt");
    snprintf(args, sizeof args, "tree %s", raw);
    expect_error(args, 1, "tree: a folder with no .raw or .pcm file");
}

/* The lines of `text` whose third tab-separated field is (keep) or is not
 * (!keep) one of the comma-separated names, in order. */
static char *lines_of(const char *text, const char *names, int keep)
{
    char *out = calloc(strlen(text) + 1, 1);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        const char *label = strchr(strchr(line, '\t') + 1, '\t') + 1;
        int len = (int)strcspn(label, "\n"), named = 0;
        for (const char *n = names; *n; n += strcspn(n, ",") + (n[strcspn(n, ",")] == ','))
            named |= (int)strcspn(n, ",") == len && !strncmp(n, label, (size_t)len);
        if (named == keep)
            strncat(out, line, (size_t)(end - line));
        line = end;
    }
    return out;
}

/* --skip LIST leaves out the segments of its classes and --only LIST keeps only
 * those, the others as they are without it; in a TextGrid the left-out time is
 * empty intervals. Unknown classes and both options at once are refused. */
static void test_skip_and_only(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav " ARGMAX " -o so-all.txt"), 0);
    char *all = slurp("so-all.txt");
    const struct {
        const char *opt, *names;
        int keep;
    } cases[] = {{"--skip", "music", 0}, {"--skip", "silence,speech", 0}, {"--only", "silence", 1},
                 {"--only", "speech,music", 1}, /* the test model finds silence and music */
                 {"--skip-classes", "' silence , speech'", 0}, /* the element's name and spaces */
                 {"--only-classes", "music", 1}};
    for (int c = 0; c < 6; c++) {
        char args[256];
        snprintf(args, sizeof args, "in.wav " ARGMAX " %s %s -o so.txt", cases[c].opt, cases[c].names);
        assert_int_equal(run_label(args), 0);
        char names[64]; /* without the quotes and spaces */
        size_t k = 0;
        for (const char *p = cases[c].names; *p; p++)
            if (*p != '\'' && *p != ' ')
                names[k++] = *p;
        names[k] = '\0';
        char *got = slurp("so.txt"), *want = lines_of(all, names, cases[c].keep);
        assert_true(strlen(want) > 0 && strlen(want) < strlen(all));
        assert_string_equal(got, want);
        free(got);
        free(want);
    }
    assert_int_equal(run_label("in.wav " ARGMAX " --only music --format textgrid -o so.TextGrid"), 0);
    sh("grep -q 'text = \"music\"' so.TextGrid && grep -q 'text = \"\"' so.TextGrid && "
       "! grep -q 'text = \"silence\"' so.TextGrid");
    /* the tier covers the whole input however much is left out, also when the
     * last segment or every one is */
    assert_int_equal(run_label("in.wav " ARGMAX " --format textgrid -o so-all.TextGrid"), 0);
    assert_int_equal(run_label("in.wav " ARGMAX " --only speech --format textgrid -o so-none.TextGrid"), 0);
    sh("x=$(grep -m1 xmax so-all.TextGrid) && test \"$x\" != 'xmax = 0.000000 ' && "
       "test \"$(grep -m1 xmax so.TextGrid)\" = \"$x\" && test \"$(grep -m1 xmax so-none.TextGrid)\" = \"$x\" && "
       "grep -q 'intervals: size = 1 ' so-none.TextGrid");
    free(all);
    expect_error("in.wav --model m.slm --only speech,bird", 2,
                 "--only: m.slm: no class 'bird' (the model's classes: silence, speech, music)");
    expect_error("in.wav --model m.slm --only speech --skip music", 2, "one or the other");
}

/* --time-origin: every segment's start_utc (read back with strptime and timegm)
 * is the origin plus its start, the first one hand-written; the origin's
 * forms agree; `now` lies between the clock read before and after the run;
 * the summary's start_utc is the origin, the epoch's (@0) too; bad moments and
 * formats with no place for UTC times are refused. */
static void test_time_origin(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav " ARGMAX " --format jsonl --segments "
                               "--time-origin 2026-12-05T11:00:00.5+01:00 -o tz.jsonl"), 0);
    assert_int_equal(run_label("in.wav " ARGMAX " --format jsonl --segments "
                               "--time-origin @1796464800.5 -o at.jsonl"), 0);
    sh("cmp tz.jsonl at.jsonl");
    char *text = slurp("tz.jsonl");
    assert_non_null(strstr(text, "{\"start\":0.000000,\"end\":"));
    assert_non_null(strstr(text, ",\"start_utc\":\"2026-12-05T10:00:00.500000Z\","));
    int lines = 0;
    for (const char *p = text; (p = strstr(p, "\"start\":")) != NULL; p++, lines++)
        assert_true(fabs(test_utc_seconds(p, "start_utc") - (1796464800.5 + atof(p + 8))) < 1e-6);
    assert_true(lines > 1);
    free(text);
    struct timespec before, after;
    clock_gettime(CLOCK_REALTIME, &before);
    assert_int_equal(run_label("in.wav --model m.slm --format jsonl --time-origin now -o now.jsonl"),
                     0);
    clock_gettime(CLOCK_REALTIME, &after);
    text = slurp("now.jsonl");
    double got = test_utc_seconds(text, "utc");
    assert_true(got >= before.tv_sec + before.tv_nsec * 1e-9 - 1e-6 &&
                got <= after.tv_sec + after.tv_nsec * 1e-9);
    free(text);
    assert_int_equal(run_label("in.wav --model m.slm --format summary "
                               "--time-origin 2026-12-05T10:00:00Z -o tz.json"), 0);
    text = slurp("tz.json");
    assert_non_null(strstr(text, ",\"start_utc\":\"2026-12-05T10:00:00.000000Z\",\"classes\":"));
    free(text);
    /* the epoch is a moment like any other */
    assert_int_equal(run_label("in.wav --model m.slm --format summary --time-origin @0 -o 0.json"),
                     0);
    text = slurp("0.json");
    assert_non_null(strstr(text, ",\"start_utc\":\"1970-01-01T00:00:00.000000Z\",\"classes\":"));
    free(text);
    expect_error("in.wav --model m.slm --time-origin @0", 2,
                 "--time-origin: audacity has no place for UTC times");
    expect_error("in.wav --model m.slm --format jsonl --time-origin 2026-12-05T10:00:00", 2,
                 "--time-origin: '2026-12-05T10:00:00' is not a moment: @SECONDS since 1970, or "
                 "ISO 8601 with its zone");
    expect_error("in.wav --model m.slm --format jsonl --time-origin 2026-02-30T10:00:00Z", 2,
                 "is not a moment");
    expect_error("in.wav --model m.slm --format rttm --time-origin now", 2,
                 "--time-origin: rttm has no place for UTC times (jsonl and summary have)");
}

/* --time-origin file: a Broadcast WAVE file's origination date and time (built
 * by hand, tests/common), local time under TZ (Central European Time: 10:00 is
 * 09:00 UTC in December), the origin of every segment's UTC time, read from a
 * file and through a pipe; a file that says nothing is an error naming it. */
static void test_time_origin_file(void **state)
{
    (void)state;
    char rec[600];
    snprintf(rec, sizeof rec, "%s/rec.wav", dir);
    test_write_bwf(rec, 16000, 16000, "2026-12-05", "10:00:00");
    char *saved = test_set_tz("CET-1CEST,M3.5.0,M10.5.0/3");
    assert_int_equal(run_label("rec.wav --model m.slm --format jsonl --segments "
                               "--time-origin file -o rec.jsonl"), 0);
    assert_int_equal(run_label("- --model m.slm --format summary --time-origin file "
                               "-o rec.json < rec.wav"), 0);
    test_restore_tz(saved);
    char *text = slurp("rec.jsonl");
    assert_non_null(strstr(text, ",\"start_utc\":\"2026-12-05T09:00:00.000000Z\","));
    int lines = 0;
    for (const char *p = text; (p = strstr(p, "\"start\":")) != NULL; p++, lines++)
        assert_true(fabs(test_utc_seconds(p, "start_utc") - (1796461200.0 + atof(p + 8))) < 1e-6);
    assert_true(lines >= 1);
    free(text);
    text = slurp("rec.json");
    assert_non_null(strstr(text, ",\"start_utc\":\"2026-12-05T09:00:00.000000Z\",\"classes\":"));
    free(text);
    expect_error("rec.wav in.wav --model m.slm --format summary --time-origin file -o both/", 1,
                 "in.wav: does not say when it was recorded (--time-origin file reads a "
                 "Broadcast WAVE file's origination date and time)");
}

/* --max-latency reaches the labeler: 0.1 s with the test model's 20-frame
 * window labels as the window and lag it leaves (16 left, a core of 1, 3 ahead,
 * Viterbi's lag of 5: tests/labeler/test_labeler.c's test_max_latency) set by
 * hand; beside a window of one's own, or too short, it is refused. */
static void test_max_latency_option(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm --format frames --max-latency 0.1 -o ml.tsv"), 0);
    assert_int_equal(run_label("in.wav --model m.slm --format frames --window 20 --left-context 16 "
                               "--lookahead 3 --smoothing-lag 5 -o mw.tsv"), 0);
    assert_int_equal(run_label("in.wav --model m.slm --format frames -o own.tsv"), 0);
    sh("cmp ml.tsv mw.tsv && ! cmp -s ml.tsv own.tsv");
    /* settings the labeler refuses are a wrong command line too */
    expect_error("in.wav --model m.slm --max-latency 0.1 --lookahead 2", 2, "one or the other");
    expect_error("in.wav --model m.slm --target music --on-threshold 0.3 --off-threshold 0.6", 2,
                 "--off-threshold 0.6 is above --on-threshold 0.3");
    expect_error("in.wav --model m.slm --max-latency 0.01", 2,
                 "a latency limit of 0.01 s is below the 0.015 s that the analysis window and the "
                 "decoder's delay (0 frames) take");
}

/* --format summary against the command's own segments (the Audacity track of
 * the same run) and frames: each class's seconds the sum of its segments, its
 * segments counted, the duration the frames'; several inputs a line each. */
static void test_summary(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav " ARGMAX " -o sum.txt"), 0);
    assert_int_equal(run_label("in.wav " ARGMAX " --format frames -o sum.tsv"), 0);
    assert_int_equal(run_label("in.wav " ARGMAX " --format summary -o sum.json"), 0);
    char *track = slurp("sum.txt"), *frames = slurp("sum.tsv"), *json = slurp("sum.json");
    const char *names[3] = {"silence", "speech", "music"};
    double seconds[3] = {0};
    int segments[3] = {0}, n_frames = -1; /* the header line */
    for (char *line = track; *line;) {
        double a, b;
        char name[64];
        assert_int_equal(sscanf(line, "%lf\t%lf\t%63s", &a, &b, name), 3);
        for (int k = 0; k < 3; k++)
            if (!strcmp(name, names[k])) {
                seconds[k] += b - a;
                segments[k]++;
            }
        line = strchr(line, '\n') + 1;
    }
    for (const char *c = frames; *c; c++)
        n_frames += *c == '\n';
    char want[256];
    snprintf(want, sizeof want, "{\"file\":\"in\",\"duration\":%.6f,\"classes\":{", n_frames * 0.01);
    if (strncmp(json, want, strlen(want)))
        fail_msg("%s (want it to start %s)", json, want);
    for (int k = 0; k < 3; k++) {
        char key[64];
        snprintf(key, sizeof key, "\"%s\":{\"seconds\":", names[k]);
        const char *at = strstr(json, key);
        assert_non_null(at);
        double got = strtod(at + strlen(key), NULL);
        const char *seg = strstr(at, "\"segments\":");
        printf("%s: %.6f s in %d segments (summary %.6f s, %ld)\n", names[k], seconds[k], segments[k],
               got, strtol(seg + 11, NULL, 10));
        assert_true(fabs(got - seconds[k]) < 5e-6);
        assert_int_equal(strtol(seg + 11, NULL, 10), segments[k]);
    }
    assert_true(segments[0] + segments[2] > 1); /* the test model finds silence and music */
    free(track);
    free(frames);
    free(json);
    assert_int_equal(run_label("in.wav in.wav " ARGMAX " --format summary > sum2.json"), 0);
    sh("test $(wc -l < sum2.json) = 2 && head -1 sum2.json | cmp - sum.json");
}

/* Reads the first n samples of dir/name as 16-bit. */
static void read_shorts(const char *name, short *got, int64_t n)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    SF_INFO info = {0};
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    assert_non_null(f);
    assert_int_equal(sf_readf_short(f, got, n), n);
    sf_close(f);
}

/* --cut writes the container its name's extension names (the encoding kept
 * where that container takes it, else 24-bit for the float input), and the
 * input's otherwise; with --cut-silence every sample is there. (The samples themselves are checked
 * against the element's gate in tests/plugin/test_pipeline.c.) */
static void test_cut_container(void **state)
{
    (void)state;
    const struct {
        const char *name;
        int format;
    } cuts[] = {{"cut.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24},
                {"cut.w64", SF_FORMAT_W64 | SF_FORMAT_FLOAT},
                {"cut.data", SF_FORMAT_WAV | SF_FORMAT_FLOAT},
                /* names outside libsndfile's list: .opus its Ogg Opus, .aif its AIFF */
                {"cut.opus", SF_FORMAT_OGG | SF_FORMAT_OPUS},
                {"cut.aif", SF_FORMAT_AIFF | SF_FORMAT_FLOAT},
                /* begun as RF64, and a plain WAV again under 4 GiB */
                {"cut.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT}};
    for (int i = 0; i < 6; i++) {
        char args[256], path[600];
        snprintf(args, sizeof args, "in.wav --model m.slm --target speech --cut %s --cut-silence "
                 "-o cut.txt", cuts[i].name);
        assert_int_equal(run_label(args), 0);
        snprintf(path, sizeof path, "%s/%s", dir, cuts[i].name);
        SF_INFO info = {0};
        SNDFILE *f = sf_open(path, SFM_READ, &info);
        assert_non_null(f);
        sf_close(f);
        assert_int_equal(info.format, cuts[i].format);
        assert_int_equal(info.samplerate, 16000);
        if (cuts[i].format != (SF_FORMAT_OGG | SF_FORMAT_OPUS)) /* Opus pads its frames */
            assert_int_equal(info.frames, NSAMP);
    }
    /* containers whose sizes count less than the cut: an SDS file's 21 bits of
     * sample frames (2,097,151: 131 s at 16 kHz), past which libsndfile wrote
     * a file that read back as 8.91 s of 140, exit 0: stopped, said */
    {
        const int64_t n = 16000 * 132;
        float *x = calloc((size_t)n, sizeof *x);
        assert_non_null(x);
        char path[600];
        snprintf(path, sizeof path, "%s/long132.wav", dir);
        write_wav(path, x, n, 16000, 1, SF_FORMAT_PCM_16);
        free(x);
        expect_error("long132.wav --model m.slm --target speech --cut-silence --cut long.sds "
                     "-o /dev/null", 1, "long.sds: the cut would pass an SDS file's 2,097,151 "
                     "sample frames, where its sizes wrap: name it .w64");
        sh("test ! -e long.sds && ! ls long.sds.tmp.* 2>/dev/null && rm long132.wav");
        /* stereo into SDS, a mono container: said as the channels it cannot
         * take, not as a container libsndfile does not write */
        float st[3200] = {0};
        snprintf(path, sizeof path, "%s/stereo.wav", dir);
        write_wav(path, st, 1600, 16000, 2, SF_FORMAT_PCM_16);
        expect_error("stereo.wav --model m.slm --target speech --cut st.sds -o /dev/null", 1,
                     "st.sds: libsndfile cannot write this format at 16000 Hz, 2 channels");
        /* into a pipe, where libsndfile writes one it reads back as none: refused */
        assert_int_equal(run_label("in.wav --model m.slm --target speech --cut-silence --cut "
                                   "small.sds -o /dev/null"), 0);
        sh("(\"$SL_SEQLABEL\" label small.sds --model m.slm --target speech --cut-silence --cut - "
           "-o /dev/null 2> sds.err; echo $? > sds.rc) | cat > piped.sds; test \"$(cat sds.rc)\" "
           "= 1 && grep -q '^seqlabel: -: libsndfile cannot write this container into a pipe (an "
           "SDS file written there reads back as none)' sds.err && test ! -s piped.sds && "
           "rm small.sds piped.sds sds.err sds.rc");
        /* nor an AIFF, whose header went out before libsndfile refused the pipe */
        assert_int_equal(run_label("in.wav --model m.slm --target speech --cut-silence --cut "
                                   "small.aiff -o /dev/null"), 0);
        sh("(\"$SL_SEQLABEL\" label small.aiff --model m.slm --target speech --cut-silence --cut "
           "- -o /dev/null 2> aiff.err; echo $? > aiff.rc) | cat > piped.aiff; test \"$(cat "
           "aiff.rc)\" = 1 && grep -q 'cannot write this container into a pipe (an AIFF' aiff.err "
           "&& test ! -s piped.aiff && rm small.aiff piped.aiff aiff.err aiff.rc");
    }
    /* a FLAC cut into a pipe: the length and MD5 that libFLAC goes back for at
     * its end cannot be written there, and are not appended either (readers
     * lost sync on them): the bytes of the cut into a file, less those */
    {
        char fifo[600];
        snprintf(fifo, sizeof fifo, "%s/flac.fifo", dir);
        const int reader = test_fifo_reader(fifo, test_in_dir(dir, "piped.flac"));
        assert_int_equal(run_label("cut.flac --model m.slm --target speech --cut-silence --cut - "
                                   "-o /dev/null > flac.fifo"), 0);
        assert_int_equal(test_fifo_done(reader), 0);
        assert_int_equal(run_label("cut.flac --model m.slm --target speech --cut-silence --cut "
                                   "filed.flac -o /dev/null"), 0);
        sh("test \"$(stat -c %s piped.flac)\" = \"$(stat -c %s filed.flac)\"");
        /* read to their ends: the piped one does not say its length */
        SF_INFO ia = {0}, ib = {0};
        SNDFILE *fa = sf_open(test_in_dir(dir, "piped.flac"), SFM_READ, &ia),
                *fb = sf_open(test_in_dir(dir, "filed.flac"), SFM_READ, &ib);
        assert_non_null(fa);
        assert_non_null(fb);
        int64_t same = 0;
        float a[1024], b[1024];
        for (sf_count_t na, nb; (na = sf_readf_float(fa, a, 1024)) > 0; same += na) {
            nb = sf_readf_float(fb, b, 1024);
            assert_int_equal(na, nb);
            assert_memory_equal(a, b, sizeof *a * (size_t)na);
        }
        assert_int_equal(sf_readf_float(fb, b, 1024), 0);
        assert_int_equal(sf_error(fa), SF_ERR_NO_ERROR);
        assert_int_equal(same, NSAMP);
        sf_close(fa);
        sf_close(fb);
        sh("rm flac.fifo piped.flac filed.flac");
    }
    /* nothing kept: a FLAC, MP3, Ogg Vorbis or WAV of no samples, with its header
     * (once), not 0 bytes */
    const char *empty[] = {"none.flac", "none.mp3", "none.ogg", "none.wav"};
    for (int i = 0; i < 4; i++) {
        char args[256], path[600];
        snprintf(args, sizeof args, "in.wav --model m.slm --target speech --on-threshold 1 "
                 "--off-threshold 1 --cut %s -o none.txt", empty[i]);
        assert_int_equal(run_label(args), 0);
        snprintf(path, sizeof path, "%s/%s", dir, empty[i]);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        SF_INFO info = {0};
        SNDFILE *f = sf_open(path, SFM_READ, &info);
        if (!f || st.st_size == 0)
            fail_msg("%s (%lld bytes): %s", empty[i], (long long)st.st_size, sf_strerror(NULL));
        float one[2];
        assert_int_equal(sf_readf_float(f, one, 1), 0); /* (an MP3 may not say its length) */
        sf_close(f);
    }
    /* float beyond full scale into 16-bit FLAC: clipped, not wrapped (every frame
     * kept: on at p >= 0) */
    float loud[3200];
    for (int i = 0; i < 3200; i++)
        loud[i] = i % 3 == 0 ? 1.5f : i % 3 == 1 ? -1.7f : 0.5f;
    char path[600];
    snprintf(path, sizeof path, "%s/loud.wav", dir);
    write_wav(path, loud, 3200, 16000, 1, SF_FORMAT_FLOAT);
    assert_int_equal(run_label("loud.wav --model m.slm --target speech --on-threshold 0 "
                               "--off-threshold 0 --cut loud.flac -o loud.txt"), 0);
    short got[3200];
    read_shorts("loud.flac", got, 3200);
    for (int i = 0; i < 3200; i++)
        assert_int_equal(got[i], i % 3 == 0 ? 32767 : i % 3 == 1 ? -32768 : 16384);
    /* shorter than one frame: no frame labelled, nothing kept, every sample silent */
    float x[100] = {0.5f};
    snprintf(path, sizeof path, "%s/tiny.wav", dir);
    write_wav(path, x, 100, 16000, 1, SF_FORMAT_PCM_16);
    assert_int_equal(run_label("tiny.wav --model m.slm --target speech --cut tiny.cut.wav "
                               "--cut-silence -o tiny.txt"), 0);
    read_shorts("tiny.cut.wav", got, 100);
    for (int i = 0; i < 100; i++)
        assert_int_equal(got[i], 0);
}

/* --cut keeps every sample exactly, whatever its encoding: 32-bit integers with
 * all their bits and doubles too (the reader's tap hands over doubles; floats
 * would round both to 24 bits), into the input's own format. */
static void test_cut_exact(void **state)
{
    (void)state;
    enum { N = 8000 };
    int *ints = malloc(sizeof *ints * N), *ints_back = malloc(sizeof *ints * N);
    double *doubles = malloc(sizeof *doubles * N), *doubles_back = malloc(sizeof *doubles * N);
    uint32_t seed = 777;
    for (int i = 0; i < N; i++) {
        seed = seed * 1664525u + 1013904223u;
        ints[i] = (int)(seed ^ (seed >> 7)) / 3; /* every bit in use, within +-1/3 full scale */
        doubles[i] = ints[i] / 2147483648.0 + 1e-12 * (i % 7); /* below float's and int32's steps */
    }
    const struct {
        const char *in, *out;
        int format;
    } files[] = {{"int32.wav", "int32.cut.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_32},
                 {"double.wav", "double.cut.wav", SF_FORMAT_WAV | SF_FORMAT_DOUBLE}};
    for (int k = 0; k < 2; k++) {
        char path[600], args[300];
        snprintf(path, sizeof path, "%s/%s", dir, files[k].in);
        SF_INFO info = {.samplerate = 16000, .channels = 1, .format = files[k].format};
        SNDFILE *f = sf_open(path, SFM_WRITE, &info);
        assert_non_null(f);
        assert_int_equal(k ? sf_writef_double(f, doubles, N) : sf_writef_int(f, ints, N), N);
        sf_close(f);
        snprintf(args, sizeof args, "%s --model m.slm --target speech --on-threshold 0 "
                 "--off-threshold 0 --cut %s -o exact.txt", files[k].in, files[k].out);
        assert_int_equal(run_label(args), 0);
        snprintf(path, sizeof path, "%s/%s", dir, files[k].out);
        info = (SF_INFO){0};
        f = sf_open(path, SFM_READ, &info);
        assert_non_null(f);
        assert_int_equal(info.format, files[k].format);
        assert_int_equal(info.frames, N);
        assert_int_equal(k ? sf_readf_double(f, doubles_back, N) : sf_readf_int(f, ints_back, N), N);
        sf_close(f);
        for (int i = 0; i < N; i++)
            if (k ? doubles_back[i] != doubles[i] : ints_back[i] != ints[i])
                fail_msg("%s: sample %d is %.17g, not %.17g", files[k].out, i,
                         k ? doubles_back[i] : ints_back[i], k ? doubles[i] : ints[i]);
    }
    free(ints);
    free(ints_back);
    free(doubles);
    free(doubles_back);
}

/* Whether sample i of the file lies in a `music` segment of the Audacity label
 * file `labels` (samples after the last segment follow it). */
static int in_music(const char *labels, int64_t i)
{
    double t0, t1, last_end = 0.0;
    char name[32];
    int music = 0, last_music = 0, n;
    const char *p = labels;
    while (sscanf(p, "%lf\t%lf\t%31s\n%n", &t0, &t1, name, &n) == 3) {
        last_music = !strcmp(name, "music");
        if (i >= (int64_t)llround(t0 * 16000) && i < (int64_t)llround(t1 * 16000))
            music = last_music;
        last_end = t1;
        p += n;
    }
    return i >= (int64_t)llround(last_end * 16000) ? last_music : music;
}

/* The samples of `name` (in dir unless absolute), which must be `frames` long
 * and, unless 0, of `format`. */
static float *read_floats(const char *name, int format, int64_t frames)
{
    char path[600];
    snprintf(path, sizeof path, "%s%s%s", name[0] == '/' ? "" : dir, name[0] == '/' ? "" : "/", name);
    SF_INFO info = {0};
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    if (!f)
        fail_msg("%s: %s", path, sf_strerror(NULL));
    if (format)
        assert_int_equal(info.format, format);
    assert_int_equal(info.frames, frames);
    float *y = malloc(sizeof *y * (size_t)(frames > 0 ? frames : 1));
    assert_int_equal(sf_readf_float(f, y, frames), frames);
    sf_close(f);
    return y;
}

/* dir/a and dir/b hold the same mono samples in the same format (their bytes may
 * differ: libsndfile's PEAK chunk holds the second it was written). */
static void assert_same_audio(const char *a, const char *b)
{
    char pa[600], pb[600];
    snprintf(pa, sizeof pa, "%s/%s", dir, a);
    snprintf(pb, sizeof pb, "%s/%s", dir, b);
    SF_INFO ia = {0}, ib = {0};
    SNDFILE *fa = sf_open(pa, SFM_READ, &ia), *fb = sf_open(pb, SFM_READ, &ib);
    assert_non_null(fa);
    assert_non_null(fb);
    sf_close(fa);
    sf_close(fb);
    assert_int_equal(ia.format, ib.format);
    assert_int_equal(ia.samplerate, ib.samplerate);
    assert_int_equal(ia.channels, 1);
    assert_int_equal(ib.channels, 1);
    assert_true(ia.frames > 0 && ia.frames == ib.frames);
    float *x = read_floats(a, ia.format, ia.frames), *y = read_floats(b, ib.format, ib.frames);
    assert_memory_equal(x, y, sizeof *x * (size_t)ia.frames);
    free(x);
    free(y);
}

/* --cut reads the input once, as it labels it: standard input and headerless
 * samples are cut too, as the file is, and several inputs into a directory; the
 * samples kept are exactly those of the target class's segments, and
 * --cut-silence zeroes the others. */
static void test_cut_stdin_and_raw(void **state)
{
    (void)state;
    char path[600];
    float *x = read_floats("in.wav", 0, NSAMP);
    snprintf(path, sizeof path, "%s/in.f32", dir);
    FILE *raw = fopen(path, "wb");
    assert_int_equal(fwrite(x, sizeof *x, NSAMP, raw), NSAMP);
    fclose(raw);

    /* this model's music probability hovers near 0.4: many short runs */
#define CUT_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 "
    assert_int_equal(run_label("in.wav " CUT_ARGS "--cut file.wav -o file.txt"), 0);
    assert_int_equal(run_label("- " CUT_ARGS "--cut pipe.wav -o pipe.txt < in.wav"), 0);
    assert_int_equal(run_label("- " CUT_ARGS "--raw-format f32le --raw-rate 16000 --cut raw.wav "
                               "-o raw.txt < in.f32"), 0);
    assert_int_equal(run_label("- " CUT_ARGS "--cut silenced.wav --cut-silence -o silenced.txt "
                               "< in.wav"), 0);
    /* several inputs: --cut DIR, each under its own name, standard input as stdin.wav */
    sh("mkdir cuts");
    assert_int_equal(run_label("in.wav - " CUT_ARGS "--cut cuts -o cuts/ < in.wav"), 0);
#undef CUT_ARGS
    sh("cmp file.txt pipe.txt && cmp file.txt raw.txt && cmp file.txt cuts/in.txt && "
       "cmp file.txt cuts/stdin.txt");
    char *labels = slurp("file.txt");
    int64_t kept = 0, runs = 0;
    for (int64_t i = 0; i < NSAMP; i++) {
        kept += in_music(labels, i);
        runs += i > 0 && in_music(labels, i) != in_music(labels, i - 1);
    }
    assert_true(kept > 0 && kept < NSAMP && runs > 10);
    /* (the bytes differ: a float WAV's PEAK chunk holds the time it was written) */
    const char *cuts[] = {"file.wav", "pipe.wav", "raw.wav", "cuts/in.wav", "cuts/stdin.wav"};
    for (int c = 0; c < 5; c++) {
        float *y = read_floats(cuts[c], SF_FORMAT_WAV | SF_FORMAT_FLOAT, kept);
        for (int64_t i = 0, j = 0; i < NSAMP; i++)
            if (in_music(labels, i) && y[j++] != x[i])
                fail_msg("%s: sample %lld is not the input's", cuts[c], (long long)i);
        free(y);
    }
    float *y = read_floats("silenced.wav", 0, NSAMP);
    for (int64_t i = 0; i < NSAMP; i++)
        assert_true(y[i] == (in_music(labels, i) ? x[i] : 0.0f));
    free(labels);
    free(x);
    free(y);
}

/* Fails unless the audio files a and b (in dir; b of format b_format unless 0)
 * hold the same samples, fewer than the input's but some. */
static void assert_same_cut(const char *a, const char *b, int b_format)
{
    char path[600];
    SF_INFO info = {0};
    snprintf(path, sizeof path, "%s/%s", dir, a);
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    assert_non_null(f);
    sf_close(f);
    assert_true(info.frames > 0 && info.frames < NSAMP);
    float *x = read_floats(a, 0, info.frames), *y = read_floats(b, b_format, info.frames);
    assert_memory_equal(x, y, sizeof *x * (size_t)info.frames);
    free(x);
    free(y);
}

/* --channel K: the labels of channel K alone, byte for byte those of a mono
 * file holding it (frames, and RTTM with K in its channel column), the cut that
 * channel's samples alone, the summary naming it; a channel the file lacks is
 * refused, the file named. */
static void test_one_channel(void **state)
{
    (void)state;
    float *left = read_floats("in.wav", 0, NSAMP), *right = tu_make_signal(NSAMP, 7);
    float *both = malloc(sizeof *both * 2 * NSAMP);
    for (int64_t i = 0; i < NSAMP; i++) {
        both[2 * i] = left[i];
        both[2 * i + 1] = right[i];
    }
    char path[600];
    snprintf(path, sizeof path, "%s/st.wav", dir);
    write_wav(path, both, NSAMP, 16000, 2, SF_FORMAT_FLOAT);
    snprintf(path, sizeof path, "%s/right.wav", dir);
    write_wav(path, right, NSAMP, 16000, 1, SF_FORMAT_FLOAT);
#define CUT_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 "
    assert_int_equal(run_label("in.wav --model m.slm --format frames -o in.tsv"), 0);
    assert_int_equal(run_label("st.wav --model m.slm --format frames --channel 1 -o c1.tsv"), 0);
    assert_int_equal(run_label("st.wav --model m.slm --format frames -o mean.tsv"), 0);
    sh("cmp in.tsv c1.tsv && ! cmp -s in.tsv mean.tsv");
    assert_int_equal(run_label("right.wav " CUT_ARGS "--format rttm -o right.rttm --cut right-cut.wav"), 0);
    assert_int_equal(run_label("st.wav " CUT_ARGS "--channel 2 --format rttm -o c2.rttm --cut c2-cut.wav"), 0);
    char *want = slurp("right.rttm"), *got = slurp("c2.rttm");
    int lines = 0;
    for (char *w = want, *g = got; *w; lines++) {
        assert_int_equal(strncmp(w, "SPEAKER right 1 ", 16), 0);
        assert_int_equal(strncmp(g, "SPEAKER st 2 ", 13), 0);
        char *w_end = strchr(w, '\n'), *g_end = strchr(g, '\n');
        assert_non_null(w_end);
        assert_non_null(g_end);
        assert_int_equal(w_end - (w + 16), g_end - (g + 13));
        assert_memory_equal(w + 16, g + 13, (size_t)(w_end - (w + 16)));
        w = w_end + 1;
        g = g_end + 1;
        assert_true(*w || !*g);
    }
    assert_true(lines > 10);
    free(want);
    free(got);
    assert_same_cut("right-cut.wav", "c2-cut.wav", 0); /* the mono file's cut */
#undef CUT_ARGS
    assert_int_equal(run_label("st.wav --model m.slm --format summary --channel 2 -o c2.json"), 0);
    char *summary = slurp("c2.json");
    assert_non_null(strstr(summary, "{\"file\":\"st\",\"channel\":2,\"duration\":1.480000,"));
    free(summary);
    expect_error("st.wav --model m.slm --channel 3", 1, "st.wav: has 2 channel(s), so no channel 3");
    free(left);
    free(right);
    free(both);
}

#define STALL_BYTES 20000 /* of media/in.mka: its header and first part, then a stall */

/* One request to the test's web server: GET /NAME sends dir/NAME whole, with its
 * length; GET /stall/NAME its first STALL_BYTES, then nothing more for a minute,
 * the connection open; GET /drop/NAME its length and first STALL_BYTES, then
 * closes the connection once the file dir/drop exists (a resume, asked with a
 * Range, gets the same: no seeking); GET /live/NAME sends dir/NAME without
 * its length, as a live stream's server does; GET /fail/NAME answers 500;
 * anything else is 404 Not Found. */
static void http_answer(int c)
{
    char req[2048];
    size_t n = 0;
    req[0] = '\0';
    while (!strstr(req, "\r\n\r\n") && n < sizeof req - 1) {
        ssize_t r = read(c, req + n, sizeof req - 1 - n);
        if (r <= 0)
            return;
        n += (size_t)r;
        req[n] = '\0';
    }
    char name[256];
    if (sscanf(req, "GET /%255s ", name) != 1)
        return;
    if (!strncmp(name, "fail/", 5)) { /* a server that is up, and fails */
        dprintf(c, "HTTP/1.0 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n");
        return;
    }
    int stall = strncmp(name, "stall/", 6) == 0, drop = strncmp(name, "drop/", 5) == 0,
        live = strncmp(name, "live/", 5) == 0;
    size_t len;
    char *body = slurp_n(name + (stall ? 6 : drop || live ? 5 : 0), &len);
    if (!body) {
        dprintf(c, "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        return;
    }
    if (stall) {
        dprintf(c, "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n");
        write_all(c, body, STALL_BYTES);
        sleep(60);
    } else if (live) { /* a live stream's server: no length, the end when it closes */
        dprintf(c, "HTTP/1.0 200 OK\r\nContent-Type: audio/x-wav\r\n\r\n");
        write_all(c, body, len);
    } else if (drop) {
        dprintf(c, "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n"
                   "Content-Length: %zu\r\n\r\n", len);
        write_all(c, body, STALL_BYTES);
        for (int waited = 0; !exists("drop") && waited < 6000; waited++)
            poll(NULL, 0, 10);
    } else {
        dprintf(c, "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n"
                   "Content-Length: %zu\r\n\r\n", len);
        write_all(c, body, len);
    }
    free(body);
}

/* A web server for dir on the loopback, one process a connection (http_answer),
 * in a process group of its own (its id the one returned); its port in *port. */
static pid_t serve_http(int *port)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    assert_true(l >= 0);
    assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(l, 8), 0);
    assert_int_equal(getsockname(l, (struct sockaddr *)&a, &alen), 0);
    *port = ntohs(a.sin_port);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_IGN);
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a test that fails leaves no server running */
        for (;;) {
            int c = accept(l, NULL, NULL);
            if (c < 0)
                continue;
            if (fork() == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                close(l);
                http_answer(c);
                _exit(0);
            }
            close(c);
            while (waitpid(-1, NULL, WNOHANG) > 0) {
            }
        }
    }
    setpgid(pid, pid);
    close(l);
    return pid;
}

/* in16.wav (in.wav's samples in 16 bits, which FLAC holds exactly) and
 * media/in.mka, the same as FLAC in Matroska; made once. */
static void make_media_input(void)
{
    if (exists("media/in.mka"))
        return;
    float *x = read_floats("in.wav", 0, NSAMP);
    char path[600];
    snprintf(path, sizeof path, "%s/in16.wav", dir);
    write_wav(path, x, NSAMP, 16000, 1, SF_FORMAT_PCM_16);
    free(x);
    sh("mkdir -p media && gst-launch-1.0 -q filesrc location=in16.wav ! wavparse ! audioconvert ! "
       "flacenc ! matroskamux ! filesink location=media/in.mka");
}

/* An output whose path in -o DIR/ would be longer than a path may be (a deep
 * input tree into a deep folder) fails its input, naming the folder, rather
 * than being written to the path cut short, which could be another file's. */
static void test_output_path_too_long(void **state)
{
    (void)state;
    char cmd[1024], a[241];
    memset(a, 'a', 240);
    a[240] = '\0';
    snprintf(cmd, sizeof cmd, "A=%s; o=long/deep; for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; "
             "do o=$o/$A; done; mkdir -p $o long/tree/$A/$A/$A/$A/$A && "
             "cp in.wav long/tree/$A/$A/$A/$A/$A/x.wav && echo $o > long/out.path", a);
    sh(cmd);
    assert_int_equal(run_label("long/tree --model m.slm -o \"$(cat long/out.path)/\""), 1);
    char *err = slurp("err.txt");
    if (!strstr(err, "/x.wav: not labelled: its output's path in long/deep/") ||
        !strstr(err, " would be longer than 4095 bytes"))
        fail_msg("%s", err);
    free(err);
    sh("test -z \"$(find long/deep -type f)\" && rm -rf long");
}

/* --stall-timeout: input that GStreamer decodes and that gives nothing (a FIFO
 * held open, never written) fails after S seconds, naming it, where by default
 * such a stream would be waited on for ever; values out of range are a wrong
 * command line. */
static void test_stall_timeout(void **state)
{
    (void)state;
    sh("rm -f stall.fifo && mkfifo stall.fifo");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(run_label("fd://3 --model m.slm --stall-timeout 0.5 -o stall.tsv 3<>stall.fifo"), 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    char *err = slurp("err.txt");
    assert_non_null(err);
    if (!strstr(err, "fd://3: ") || !strstr(err, "no audio, no error and no end for 0.5 s") ||
        waited < 0.45 || waited > 20.0)
        fail_msg("after %.2f s: %s", waited, err);
    free(err);
    assert_false(exists("stall.tsv"));
    assert_int_equal(run_label("in.wav --model m.slm --stall-timeout -1 -o x.tsv"), 2);
    err = slurp("err.txt");
    assert_non_null(strstr(err, "--stall-timeout"));
    free(err);
}

/* `seqlabel ARGS` (run in the test folder) fails with exit 1, its standard
 * error holding want and, when not NULL, also. */
static void expect_fails_saying(const char *args, const char *want, const char *also)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2> err.txt", dir, seqlabel, args);
    const int st = system(cmd);
    char *e = slurp("err.txt");
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || !strstr(e, want) || (also && !strstr(e, also)))
        fail_msg("'%s': status %d, stderr: %s", args, st, e);
    free(e);
}

/* A model whose window asks gigabytes per thread (d_ff 8192 over 65536
 * frames, a file of about half a megabyte): `info` says what one labeler
 * takes, without taking it; more threads than the process may take fail (1),
 * naming the model, the window and both figures, and so do more --jobs
 * workers than the memory free holds together, each of which alone would
 * fit; eval's encoder, and train's activations and its gradients and
 * optimiser moments beyond it fail (1), saying so; all before anything is
 * allocated (else the OOM killer, not an error).
 * SEQLABEL_MEMORY_LIMIT (a cap on each request) stands for the machine's free
 * memory, so that this holds on any machine; a value that is no number of
 * bytes is refused. */
static void test_memory_refused(void **state)
{
    (void)state;
    sl_model_config c;
    sl_model_config_default(&c);
    sl_feature_config f;
    sl_feature_config_default(&f);
    c.n_features = sl_feature_dim(&f);
    c.d_model = 8;
    c.n_heads = 2;
    c.n_layers = 1;
    c.d_ff = 8192;
    c.n_classes = 2;
    c.max_window = c.stream_window = 65536;
    c.stream_left = 16384;
    c.stream_lookahead = 8192;
    const char *names[2] = {"speech", "noise"};
    char err[SL_ERR_LEN], path[600];
    sl_model *m = sl_model_create(&c, &f, NULL, NULL, names, err, sizeof err);
    assert_non_null(m);
    sl_model_init_params(m, 3);
    snprintf(path, sizeof path, "%s/big.slm", dir);
    assert_int_equal(sl_model_save(m, path, err, sizeof err), 0);
    sl_model_free(m);
    setenv("SEQLABEL_MEMORY_LIMIT", "3G", 1);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' info big.slm > info.txt", dir, seqlabel);
    assert_int_equal(system(cmd), 0);
    char *info = slurp("info.txt"), *line = strstr(info, "\n  memory ");
    assert_non_null(line);
    const double one = strtod(line + 9, NULL);
    free(info);
    assert_true(one > 2e9 && one < 3e9); /* one fits, two do not */
    assert_int_equal(run_label("in.wav --model big.slm --threads 2 -o t.tsv"), 1);
    char *e = slurp("err.txt");
    if (!strstr(e, "big.slm: labeler: a window of 65536 frames on 2 threads needs 4.") ||
        !strstr(e, " GB, more than the 3 GB of memory it may take (a shorter window, or fewer "
                   "threads)"))
        fail_msg("%s", e);
    free(e);
    assert_false(exists("t.tsv"));
    /* 256 workers, each of one labeler of one thread that the cap lets by,
     * weighed together against the memory free (600 GB: more than any
     * machine this runs on has) */
    char args[3000] = "";
    for (int i = 0; i < 256; i++)
        strcat(args, "in.wav ");
    strcat(args, "--model big.slm --jobs 256 --format csv > j.csv");
    assert_int_equal(run_label(args), 1);
    e = slurp("err.txt");
    if (!strstr(e, "--jobs 256: 256 labelers of 2.") ||
        !strstr(e, " GB each (big.slm) need more than the ") ||
        !strstr(e, " of memory free: fewer jobs, or fewer threads"))
        fail_msg("%s", e);
    free(e);
    /* eval's encoder and train's activations */
    setenv("SEQLABEL_MEMORY_LIMIT", "1G", 1);
    sh("printf '0\\t0.7\\tspeech\\n0.7\\t1.5\\tnoise\\n' > big.txt && "
       "printf 'in.wav\\tbig.txt\\n' > big.tsv");
    expect_fails_saying("eval --model big.slm --manifest big.tsv --no-cache",
                        "an encoder of window 65536 needs 2.",
                        " GB, more than the 1 GB of memory it may take (a shorter window)");
#define TRAIN_BIG "train --manifest big.tsv --valid big.tsv --out t.slm --steps 1 "
    expect_fails_saying(TRAIN_BIG "--d-model 8 --heads 1 --d-ff 8192 --layers 1 --window 20000 "
                        "--batch 8 --no-cache",
                        "a training step of 8 windows x 20000 frames needs ",
                        " of activations, more than the 1 GB of memory it may take (a smaller "
                        "--batch or --window)");
    assert_false(exists("t.slm"));
    /* a step's activations that fit, but not the gradients, the optimiser's
     * moments and a save's buffer of 18 million parameters (17 bytes each) */
    setenv("SEQLABEL_MEMORY_LIMIT", "200M", 1);
    expect_fails_saying(TRAIN_BIG "--d-model 256 --heads 4 --d-ff 8192 --layers 4 --window 16 "
                        "--batch 2 --no-cache",
                        "training on 1 thread needs 3",
                        " MB more for gradients, optimiser moments and the batch, more than the "
                        "200 MB of memory it may take");
    assert_false(exists("t.slm"));
    /* a file's features, held in memory (all files' with --no-cache): in.wav's
     * 1.5 s at 16 kHz give 150 frames and 2 more at most, of 80 floats */
    setenv("SEQLABEL_MEMORY_LIMIT", "40k", 1);
    expect_fails_saying(TRAIN_BIG "--d-model 8 --heads 1 --layers 1 --no-cache",
                        "big.tsv:1: in.wav: its features need 48.6 kB, more than the 40 kB of "
                        "memory it may take (a cache, without --no-cache, keeps the files "
                        "before it on disk; or cut this file shorter)", NULL);
    assert_false(exists("t.slm"));
    /* with a cache the files before it are on disk: the file alone is too long */
    expect_fails_saying(TRAIN_BIG "--d-model 8 --heads 1 --layers 1 --cache-dir fresh-cache",
                        "in.wav: its features need 48.6 kB, more than the 40 kB of memory it "
                        "may take (cut this file shorter)", NULL);
#undef TRAIN_BIG
    sh("rm -rf fresh-cache");
    setenv("SEQLABEL_MEMORY_LIMIT", "3 GB", 1);
    assert_int_equal(run_label("in.wav --model big.slm -o t.tsv"), 2);
    e = slurp("err.txt");
    if (!strstr(e, "SEQLABEL_MEMORY_LIMIT: '3 GB' is not a number of bytes"))
        fail_msg("%s", e);
    free(e);
    unsetenv("SEQLABEL_MEMORY_LIMIT");
    sh("rm -f big.slm big.tsv big.txt info.txt j.csv");
}

/* fd://0 given a `<` redirect of a regular file is a file, not live input, as
 * `-` given one is: Ctrl-C ends the command, leaving no labels, where it ended
 * the "input" and wrote the labels of its first part as the whole file's
 * (exit 0: a 1220 s file's labels ended at 375-500 s, unsaid). */
static void test_fd_file_not_live(void **state)
{
    (void)state;
    const int64_t n = 16000 * 300; /* 300 s: labelled for a second or more */
    float *x = malloc((size_t)n * sizeof *x);
    assert_non_null(x);
    for (int64_t i = 0; i < n; i++)
        x[i] = 0.3f * sinf(0.05f * (float)i) * (float)((i / 8000) % 2);
    char path[1024];
    snprintf(path, sizeof path, "%s/fd-long.wav", dir);
    write_wav(path, x, n, 16000, 1, SF_FORMAT_PCM_16);
    free(x);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int in = open(path, O_RDONLY);
        int null = open("/dev/null", O_WRONLY);
        if (in < 0 || null < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0 ||
            dup2(null, STDERR_FILENO) < 0 || chdir(dir) != 0)
            _exit(127);
        signal(SIGINT, SIG_DFL); /* as a shell at a terminal starts it */
        execl(seqlabel, seqlabel, "label", "fd://0", "--model", "m.slm", "-o", "fd-int.txt",
              (char *)NULL);
        _exit(127);
    }
    /* Ctrl-C once its output is open (its temporary file is there) */
    char open_yet[1200];
    snprintf(open_yet, sizeof open_yet, "cd '%s' && ls | grep -q '^fd-int.txt.tmp'", dir);
    for (int i = 0; i < 6000 && system(open_yet) != 0; i++)
        usleep(5000);
    assert_int_equal(kill(pid, SIGINT), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGINT)
        fail_msg("fd://0 < file after SIGINT: %s %d (want ended by SIGINT)",
                 WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    sh("test ! -e fd-int.txt && test -z \"$(ls | grep '\\.tmp\\.')\" && rm fd-long.wav");
}

/* A file libsndfile does not read (FLAC in Matroska here) is decoded by
 * GStreamer: its labels are the WAV's byte for byte, also named by a URI and
 * through a pipe (fd://0); a folder takes it in, a cut of it into a folder is
 * a WAV of the same samples as the WAV's cut, --audio-stream reads a second
 * stream, and a cut named in a container libsndfile does not write is refused,
 * as is a URI GStreamer cannot read. */
static void test_gstreamer_input(void **state)
{
    (void)state;
    make_media_input();
#define CUT_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 "
    assert_int_equal(run_label("in16.wav " CUT_ARGS "--format frames -o wav.tsv --cut wav-cut.wav"), 0);
    assert_int_equal(run_label("media/in.mka " CUT_ARGS "--format frames -o mka.tsv"), 0);
    sh("mkdir mcuts && cmp wav.tsv mka.tsv");
    assert_int_equal(run_label("media " CUT_ARGS "--format frames -o mout/ --cut mcuts/"), 0);
    sh("cmp wav.tsv mout/in.tsv");
    /* URIs: a file's, and any media through a pipe (fd://0), read as it arrives */
    char uri[1024];
    snprintf(uri, sizeof uri, "file://%s/media/in.mka " CUT_ARGS "--format frames -o uri.tsv", dir);
    assert_int_equal(run_label(uri), 0);
    assert_int_equal(run_label("fd://0 " CUT_ARGS "--format frames -o fd.tsv < media/in.mka"), 0);
    snprintf(uri, sizeof uri, "cmp wav.tsv uri.tsv && cat media/in.mka | '%s' label fd://0 "
             CUT_ARGS "--format frames > pipe.tsv && cmp wav.tsv fd.tsv && cmp wav.tsv pipe.tsv",
             seqlabel);
    sh(uri);
    /* a WAV stream, whose writer (wavenc, arecord, sox) does not know its length
     * and leaves a placeholder size, promises nothing (labelled, exit 0) */
    snprintf(uri, sizeof uri, "gst-launch-1.0 -q filesrc location=in16.wav ! wavparse ! wavenc ! "
             "fdsink 2> /dev/null | '%s' label fd://0 " CUT_ARGS "--format frames > stream.tsv "
             "&& cmp wav.tsv stream.tsv", seqlabel);
    sh(uri);
    /* ... also through a FIFO named as media, by its path and as a file:// URI */
    for (int by_uri = 0; by_uri < 2; by_uri++) {
        snprintf(uri, sizeof uri, "rm -f stream.mka && mkfifo stream.mka && "
                 "(gst-launch-1.0 -q filesrc location=in16.wav ! wavparse ! wavenc ! fdsink "
                 "2> /dev/null > stream.mka &) && '%s' label %s%s%sstream.mka " CUT_ARGS
                 "--format frames > stream.tsv && cmp wav.tsv stream.tsv", seqlabel,
                 by_uri ? "file://" : "", by_uri ? dir : "", by_uri ? "/" : "");
        sh(uri);
    }
    expect_error("nosuch://x --model m.slm", 1,
                 "nosuch://x: GStreamer cannot read or decode this stream: ");
    /* a missing audio decoder is named whole, beside a video's or alone, and a
     * video alone asks for none (AC-3's decoders ranked out of use) */
    sh("gst-launch-1.0 -q audiotestsrc num-buffers=30 ! audioconvert ! avenc_ac3 ! matroskamux ! "
       "filesink location=ac3.mka && gst-launch-1.0 -q matroskamux name=m ! filesink "
       "location=ac3v.mkv  audiotestsrc num-buffers=30 ! audioconvert ! avenc_ac3 ! m.  "
       "videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48 ! jpegenc ! m.  && "
       "gst-launch-1.0 -q videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48 ! "
       "jpegenc ! matroskamux ! filesink location=v.mkv");
    setenv("GST_PLUGIN_FEATURE_RANK", "a52dec:NONE,avdec_ac3:NONE,avdec_ac3_fixed:NONE", 1);
    expect_error("ac3.mka --model m.slm", 1, "ac3.mka: not an audio file that libsndfile reads, and "
                 "GStreamer cannot decode it: no audio stream in it that the installed GStreamer "
                 "plugins decode (no decoder for AC-3 (ATSC A/52))");
    expect_error("ac3v.mkv --model m.slm", 1, "plugins decode (no decoder for AC-3 (ATSC A/52))");
    expect_error("v.mkv --model m.slm", 1, "v.mkv: not an audio file that libsndfile reads, and "
                 "GStreamer cannot decode it: no audio stream in it (only JPEG, which is not audio)");
    unsetenv("GST_PLUGIN_FEATURE_RANK");
    /* a URI's name: percent-decoded (its RTTM id one field); fd://0 is
     * standard input, named as '-' is */
    sh("cp media/in.mka 'media/a b.mka'");
    snprintf(uri, sizeof uri, "'file://%s/media/a%%20b.mka' --model m.slm --format rttm "
             "> uri.rttm && head -1 uri.rttm | grep -q '^SPEAKER a_b 1 ' && "
             "'%s' label fd://0 --model m.slm --format summary < media/in.mka | "
             "grep -q '^{\"file\":\"stdin\",'", dir, seqlabel);
    assert_int_equal(run_label(uri), 0);
    /* fdsrc reads fd://0/../x as descriptor 0: the name is its digits', and
     * the output stays in its folder */
    sh("mkdir -p esc/out");
    assert_int_equal(run_label("'fd://0/../../escaped' --model m.slm -o esc/out/ < media/in.mka"), 0);
    assert_true(exists("esc/out/stdin.txt"));
    assert_false(exists("esc/escaped.txt"));
    /* a stream that stalls (its source sends no more and stays open): Ctrl-C ends
     * it, what arrived labelled, with the input still open */
    {
        char *mka = slurp("media/in.mka");
        const char *args[] = {"fd://0", "--model", "m.slm", "--format", "frames", NULL};
        interrupt_stalled(args, NULL, mka, STALL_BYTES);
        free(mka);
    }
    /* a file's second audio stream (a film's other language): --audio-stream 2
     * labels it as its own file, here in.wav backwards */
    {
        float *x = read_floats("in.wav", 0, NSAMP);
        for (long i = 0; i < NSAMP / 2; i++) {
            float t = x[i];
            x[i] = x[NSAMP - 1 - i];
            x[NSAMP - 1 - i] = t;
        }
        char path[600];
        snprintf(path, sizeof path, "%s/rev16.wav", dir);
        write_wav(path, x, NSAMP, 16000, 1, SF_FORMAT_PCM_16);
        free(x);
    }
    sh("gst-launch-1.0 -q matroskamux name=m ! filesink location=two.mkv  filesrc "
       "location=in16.wav ! wavparse ! audioconvert ! flacenc ! m.audio_0  filesrc "
       "location=rev16.wav ! wavparse ! audioconvert ! flacenc ! m.audio_1");
    assert_int_equal(run_label("rev16.wav " CUT_ARGS "--format frames -o rev.tsv"), 0);
    assert_int_equal(run_label("two.mkv --audio-stream 2 " CUT_ARGS "--format frames -o two2.tsv"), 0);
    assert_int_equal(run_label("two.mkv " CUT_ARGS "--format frames -o two1.tsv"), 0);
    sh("cmp rev.tsv two2.tsv && cmp wav.tsv two1.tsv && ! cmp -s wav.tsv rev.tsv");
    expect_error("two.mkv --model m.slm --audio-stream 3", 1,
                 "two.mkv: holds 2 audio stream(s), so no audio stream 3");
    /* '-' is libsndfile's: its error points to fd://0 */
    expect_error("- --model m.slm < media/in.mka", 1,
                 "standard input: not an audio file in a format libsndfile reads (headerless "
                 "samples: seqlabel label and features read them given --raw-format and "
                 "--raw-rate; other media: read standard input as fd://0");
    assert_same_cut("wav-cut.wav", "mcuts/in.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT);
    /* a name of media read here, not written: refused whatever the input (a
     * WAV's cut named .m4a was a WAV, which no player opens as one) */
    expect_error("media/in.mka " CUT_ARGS "--cut x.m4a", 1,
                 "x.m4a: .m4a is read here, not written: name the cut .wav, .flac, .ogg, .opus "
                 "or .mp3");
    expect_error("in16.wav " CUT_ARGS "--cut x.m4a", 1, "x.m4a: .m4a is read here");
    expect_error("in16.wav " CUT_ARGS "--cut x.WEBM", 1, "x.WEBM: .WEBM is read here");
    expect_error("in16.wav " CUT_ARGS "--cut x.mp2", 1, "x.mp2: .mp2 is read here");
    /* the other names libsndfile reads by are written as what they name
     * (.snd an AU, .sph a NIST SPHERE file, .wave a WAV: they were WAVs, or
     * refused), and an input of such a name is split into pieces of its own
     * kind, named so */
    assert_int_equal(run_label("in16.wav " CUT_ARGS "--cut x.sph -o /dev/null"), 0);
    assert_int_equal(run_label("in16.wav " CUT_ARGS "--cut x.wave -o /dev/null"), 0);
    {
        SF_INFO got = {0};
        char p[600];
        snprintf(p, sizeof p, "%s/x.sph", dir);
        SNDFILE *f = sf_open(p, SFM_READ, &got);
        assert_non_null(f);
        sf_close(f);
        assert_int_equal(got.format & SF_FORMAT_TYPEMASK, SF_FORMAT_NIST);
        snprintf(p, sizeof p, "%s/x.wave", dir);
        f = sf_open(p, SFM_READ, &got);
        assert_non_null(f);
        sf_close(f);
        assert_int_equal(got.format & SF_FORMAT_TYPEMASK, SF_FORMAT_WAV);
    }
    {
        SF_INFO au = {.samplerate = 16000, .channels = 1, .format = SF_FORMAT_AU | SF_FORMAT_PCM_16};
        char snd[600];
        snprintf(snd, sizeof snd, "%s/in16.snd", dir);
        float *y = read_floats("in16.wav", 0, NSAMP);
        SNDFILE *f = sf_open(snd, SFM_WRITE, &au);
        assert_non_null(f);
        assert_int_equal(sf_writef_float(f, y, NSAMP), NSAMP);
        sf_close(f);
        free(y);
        sh("mkdir snd-parts");
        assert_int_equal(run_label("in16.snd " CUT_ARGS "--split snd-parts -o /dev/null"), 0);
        sh("ls snd-parts | grep -q '^in16-0001_.*\\.snd$' && test -z \"$(ls snd-parts | grep -v "
           "'\\.snd$')\" && test \"$(head -c 4 snd-parts/in16-0001_*)\" = .snd");
    }
    /* SD2, which libsndfile writes only by a name of its own: said before the
     * labelling, not as its "cannot open SD2 file without a file name" after */
    expect_error("in16.wav " CUT_ARGS "--cut x.sd2", 1,
                 "x.sd2: libsndfile writes Sound Designer II (its resource fork) only to a file "
                 "it opens by name");
#undef CUT_ARGS
    assert_false(exists("x.m4a"));
}

/* Network streams: a file served over HTTP is labelled as the file is, byte for
 * byte; a stream that stalls is ended by Ctrl-C, its labels kept; one whose
 * reader is gone ends by SIGPIPE, as from a file; a missing one
 * (404) and a server that is not there are errors that name the URI and why. */
static void test_http_input(void **state)
{
    (void)state;
    make_media_input();
    int port;
    pid_t server = serve_http(&port);
    char args[1024];
#define CUT_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 "
    snprintf(args, sizeof args, "http://127.0.0.1:%d/media/in.mka " CUT_ARGS "--format frames "
             "-o http.tsv", port);
    assert_int_equal(run_label(args), 0);
    assert_int_equal(run_label("in16.wav " CUT_ARGS "--format frames -o http-wav.tsv"), 0);
    sh("cmp http-wav.tsv http.tsv");
#undef CUT_ARGS
    char uri[512];
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d/stall/media/in.mka", port);
    const char *stall[] = {uri, "--model", "m.slm", "--format", "frames", NULL};
    interrupt_stalled(stall, NULL, "", 0);
    /* a stream whose connection fails after its first part (the server closes
     * it, its resume is refused): said, exit 1, and what arrived kept, the
     * cut of it written (the target class at p >= 0: every frame) */
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d/drop/media/in.mka", port);
    const char *drop[] = {uri, "--model", "m.slm", "--format", "frames", "--target", "music",
                          "--on-threshold", "0", "--off-threshold", "0", "--cut", "dropped.wav",
                          NULL};
    {
        int to, from;
        pid_t pid = start_until_frames(drop, NULL, "", 0, &to, &from);
        sh("touch drop");
        assert_int_equal(finish_started(pid, to, from, "a stream whose connection fails"), 1);
        char path[600];
        snprintf(path, sizeof path, "%s/dropped.wav", dir);
        SF_INFO info = {0};
        SNDFILE *f = sf_open(path, SFM_READ, &info);
        assert_non_null(f);
        sf_close(f);
        printf("a stream whose connection fails: %lld of %d samples kept\n",
               (long long)info.frames, NSAMP);
        assert_true(info.frames > 0 && info.frames < NSAMP);
    }
    /* GStreamer's HTTP source ignores SIGPIPE for the process: the command still
     * ends by it when its reader is gone, as with any other input */
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d/media/in.mka", port);
    const char *gone[] = {uri, "--model", "m.slm", "--format", "frames", NULL};
    expect_reader_gone(gone);
    /* a live WAV stream, its writer's placeholder sizes in its header (ffmpeg's
     * and arecord's 0xFFFFFFFF: 67,108 s), its server sending no length, ends
     * when the server closes: no error, as through a pipe (it was "the
     * container promises 67108.86 s ... truncated or damaged", exit 1) */
    sh("cp in16.wav ph.wav && printf '\\377\\377\\377\\377' | dd of=ph.wav bs=1 seek=4 "
       "conv=notrunc status=none && printf '\\377\\377\\377\\377' | dd of=ph.wav bs=1 seek=40 "
       "conv=notrunc status=none");
    snprintf(args, sizeof args, "http://127.0.0.1:%d/live/ph.wav --model m.slm --format frames "
             "-o live.tsv", port);
    assert_int_equal(run_label(args), 0);
    assert_int_equal(run_label("in16.wav --model m.slm --format frames -o live-file.tsv"), 0);
    sh("cmp live.tsv live-file.tsv");
    snprintf(args, sizeof args, "http://127.0.0.1:%d/nosuch.mka --model m.slm", port);
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d/nosuch.mka: GStreamer cannot read or decode "
             "this stream: the server answered 404 Not Found", port);
    expect_error(args, 1, uri);
    /* a server that answers is up: its answer, not "is its server up?" */
    snprintf(args, sizeof args, "http://127.0.0.1:%d/fail/in.mka --model m.slm", port);
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d/fail/in.mka: GStreamer cannot read or decode "
             "this stream: the server answered 500 Internal Server Error", port);
    expect_error(args, 1, uri);
    {
        char *said = slurp("err.txt");
        assert_non_null(said);
        assert_null(strstr(said, "server up?"));
        free(said);
    }
    assert_int_equal(kill(-server, SIGKILL), 0);
    assert_int_equal(waitpid(server, NULL, 0), server);
    snprintf(args, sizeof args, "http://127.0.0.1:%d/media/in.mka --model m.slm", port);
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d/media/in.mka: GStreamer cannot read or "
             "decode this stream: its source (souphttpsrc) stopped without naming the reason: for a "
             "network address, is the host's name right and its server up?", port);
    expect_error(args, 1, uri);
}

/* An RTSP stream (GStreamer's RTSP server serving in16.wav as 16-bit PCM, a
 * process of its own: tests/labeler/rtsp_server.c) is labelled as the file is,
 * byte for byte; a path the server lacks and a server that is not there are
 * errors that name the URI and why. */
static void test_rtsp_input(void **state)
{
    (void)state;
    make_media_input();
    const char *server_exe = getenv("SL_RTSP_SERVER");
    assert_non_null(server_exe);
    char wav[600];
    snprintf(wav, sizeof wav, "%s/in16.wav", dir);
    int out[2];
    assert_int_equal(pipe(out), 0);
    pid_t server = fork();
    assert_true(server >= 0);
    if (server == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a test that fails leaves no server running */
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        execl(server_exe, server_exe, wav, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    char line[32] = {0};
    FILE *fp = fdopen(out[0], "r");
    assert_non_null(fgets(line, sizeof line, fp)); /* the port, once it listens */
    fclose(fp);
    int port = atoi(line);
    assert_true(port > 0);
    char args[1024], want[512];
    snprintf(args, sizeof args, "rtsp://127.0.0.1:%d/audio --model m.slm --format frames "
             "-o rtsp.tsv", port);
    assert_int_equal(run_label(args), 0);
    assert_int_equal(run_label("in16.wav --model m.slm --format frames -o rtsp-wav.tsv"), 0);
    sh("cmp rtsp-wav.tsv rtsp.tsv");
    snprintf(args, sizeof args, "rtsp://127.0.0.1:%d/nosuch --model m.slm", port);
    snprintf(want, sizeof want, "rtsp://127.0.0.1:%d/nosuch: GStreamer cannot read or decode "
             "this stream: Not found", port);
    expect_error(args, 1, want);
    assert_int_equal(kill(server, SIGKILL), 0);
    assert_int_equal(waitpid(server, NULL, 0), server);
    snprintf(args, sizeof args, "rtsp://127.0.0.1:%d/audio --model m.slm", port);
    snprintf(want, sizeof want, "rtsp://127.0.0.1:%d/audio: GStreamer cannot read or decode this "
             "stream: Could not open resource for reading and writing. (Failed to connect. "
             "(Generic error)): for a network address, is the host's name right and its server up?",
             port);
    expect_error(args, 1, want);
}

/* Asterisk's headerless names as cut outputs: the encoding they stand for.
 * Cut whole (the target on at p >= 0), a G.722 prompt into a directory becomes
 * NAME.sln16 and a GSM one NAME.sln, each equal byte for byte to ffmpeg's and
 * sox's own decoding (tests/fixtures/io); a .gsm from 16 kHz audio and a .g722
 * are refused. */
static void test_cut_telephony(void **state)
{
    (void)state;
    const char *fx = getenv("SL_FIXTURES");
    assert_non_null(fx);
    char args[1024];
    sh("mkdir tel");
    snprintf(args, sizeof args, "'%s/io/sweep16k.g722' '%s/io/sweep8k.gsm' --model m.slm "
             "--target music --on-threshold 0 --off-threshold 0 --cut tel/ -o tel/", fx, fx);
    assert_int_equal(run_label(args), 0);
    snprintf(args, sizeof args, "cmp tel/sweep16k.sln16 '%s/io/sweep16k.g722.s16'", fx);
    sh(args);
    snprintf(args, sizeof args, "'%s/io/sweep8k.gsm' --model m.slm --target music --on-threshold 0 "
             "--off-threshold 0 --cut tel/gsm.sln -o tel/gsm.txt", fx);
    assert_int_equal(run_label(args), 0);
    snprintf(args, sizeof args, "cmp tel/gsm.sln '%s/io/sweep8k.gsm.s16'", fx);
    sh(args);
    /* the directory's GSM cut is GSM again, of the same length */
    sh("test $(stat -c %s tel/sweep8k.gsm) = 1650");
    expect_error("in.wav --model m.slm --target music --cut tel/x.gsm -o x.txt", 1,
                 "mono at 8000 Hz; the input is 16000 Hz");
    expect_error("in.wav --model m.slm --target music --cut tel/x.g722 -o x.txt", 1,
                 "G.722 is read, not written");
    sh("test ! -e tel/x.gsm && test ! -e tel/x.g722");
}

/* --split DIR: each run of the target's frames as its own file, named with its
 * number and its segment's times, holding exactly that run's samples (the last
 * one also those after the last frame); standard input's as stdin-NNNN. */
static void test_split(void **state)
{
    (void)state;
    char path[600];
    float *x = read_floats("in.wav", 0, NSAMP);
    sh("mkdir parts");
#define SPLIT_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 --split parts "
    assert_int_equal(run_label("in.wav " SPLIT_ARGS "-o split.txt"), 0);
    /* with --cut too: both from the one pass */
    assert_int_equal(run_label("- " SPLIT_ARGS "--cut split-cut.wav -o split-stdin.txt < in.wav"), 0);
#undef SPLIT_ARGS
    char *labels = slurp("split.txt");
    for (int which = 0; which < 2; which++) {
        snprintf(path, sizeof path, "%s/parts/%s-*.wav", dir, which ? "stdin" : "in");
        glob_t g;
        assert_int_equal(glob(path, 0, NULL, &g), 0); /* sorted: by number */
        size_t k = 0;
        for (int64_t i = 0; i < NSAMP;) {
            if (!in_music(labels, i)) {
                i++;
                continue;
            }
            int64_t end = i;
            while (end < NSAMP && in_music(labels, end))
                end++;
            assert_true(k < g.gl_pathc);
            const char *name = strrchr(g.gl_pathv[k], '/') + 1;
            int number;
            double t0, t1;
            assert_int_equal(sscanf(name + (which ? 6 : 3), "%d_%lf-%lf.wav", &number, &t0, &t1), 3);
            assert_int_equal(number, (int)k + 1);
            assert_int_equal(llround(t0 * 16000), i);
            if (end < NSAMP)
                assert_int_equal(llround(t1 * 16000), end);
            float *y = read_floats(g.gl_pathv[k], SF_FORMAT_WAV | SF_FORMAT_FLOAT, end - i);
            assert_memory_equal(y, x + i, sizeof *x * (size_t)(end - i));
            free(y);
            k++;
            i = end;
        }
        assert_true(k > 5);
        assert_int_equal(k, g.gl_pathc);
        globfree(&g);
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < NSAMP; i++)
        kept += in_music(labels, i);
    float *cut = read_floats("split-cut.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, kept);
    for (int64_t i = 0, j = 0; i < NSAMP; i++)
        if (in_music(labels, i))
            assert_true(cut[j++] == x[i]);
    free(cut);
    /* split again into the folder of these pieces: with the same settings
     * each is replaced, unsaid; with others (other times) the earlier pieces
     * left are said, not mixed with the new ones unsaid; other files there,
     * and another input's pieces, are not counted */
    sh("touch parts/in-notes.wav parts/other-0001_0.000-1.000.wav && ls parts > before.lst");
    assert_int_equal(run_label("in.wav --model m.slm --target music --on-threshold 0.4 "
                               "--off-threshold 0.4 --split parts -o again.txt"), 0);
    sh("test ! -s err.txt && ls parts | cmp - before.lst");
    assert_int_equal(run_label("in.wav --model m.slm --target music --on-threshold 0.4 "
                               "--off-threshold 0.4 --padding 0.05 --split parts -o again.txt"), 0);
    sh("grep -q 'parts/: [0-9]* pieces of in.wav from an earlier split are still "
       "there, not written again by this one (in-0' err.txt");
    /* --split-max 0.5: every frame kept (on at p >= 0), so one segment of the
     * whole file, cut into pieces of at most 50 frames, each at the least likely
     * frame (music's probability, the latest of equals) of its last third (frames
     * 34..49 of a piece), found here from the frames format of the same run */
    /* an input that fails part way (a FLAC cut at 80%): its pieces before the
     * damage are kept whole, its labels are not */
    assert_int_equal(run_label("in.wav --model m.slm --target speech --cut-silence --cut "
                               "whole.flac -o whole.txt"), 0);
    sh("head -c $(($(stat -c %s whole.flac) * 8 / 10)) whole.flac > broken.flac && mkdir broken");
    assert_int_equal(run_label("broken.flac --model m.slm --target music --on-threshold 0 "
                               "--off-threshold 0 --split broken --split-max 0.25 -o broken.txt"), 1);
    sh("test ! -e broken.txt && ls broken/broken-0001_0.000-*.flac > /dev/null && "
       "test -z \"$(ls broken | grep -v '^broken-[0-9]*_[0-9.]*-[0-9.]*\\.flac$')\"");
    sh("mkdir maxed");
    assert_int_equal(run_label("in.wav --model m.slm --target music --on-threshold 0 "
                               "--off-threshold 0 --split maxed --split-max 0.5 --format frames "
                               "-o maxed.tsv"), 0);
    char *frames = slurp("maxed.tsv");
    double p[NFRAMES];
    int nf = 0;
    for (char *line = strchr(frames, '\n') + 1; *line && nf < NFRAMES; line = strchr(line, '\n') + 1) {
        double pr[3];
        assert_int_equal(sscanf(line, "%*d\t%*f\t%*s\t%*f\t%lf\t%lf\t%lf", &pr[0], &pr[1], &pr[2]), 3);
        p[nf++] = pr[2];
    }
    assert_int_equal(nf, NFRAMES);
    free(frames);
    int64_t bounds[NFRAMES];
    int nb = 0;
    for (int f = 0, first = 0; f < NFRAMES; f++)
        if (f - first == 50) {
            int at = f;
            for (int g = first + 50 - 50 / 3; g < f; g++)
                if (at == f || p[g] <= p[at])
                    at = g;
            bounds[nb++] = at;
            first = at;
        }
    snprintf(path, sizeof path, "%s/maxed/in-*.wav", dir);
    glob_t g;
    assert_int_equal(glob(path, 0, NULL, &g), 0);
    assert_int_equal(g.gl_pathc, (size_t)nb + 1);
    for (int k = 0; k <= nb; k++) {
        int64_t a = k ? bounds[k - 1] * 160 : 0, b = k < nb ? bounds[k] * 160 : NSAMP;
        char want[64];
        snprintf(want, sizeof want, "in-%04d_%.3f-%.3f.wav", k + 1, a / 16000.0,
                 k < nb ? b / 16000.0 : NFRAMES * 0.01);
        assert_string_equal(strrchr(g.gl_pathv[k], '/') + 1, want);
        assert_true(b - a <= 50 * 160);
        float *y = read_floats(g.gl_pathv[k], 0, b - a);
        assert_memory_equal(y, x + a, sizeof *x * (size_t)(b - a));
        free(y);
    }
    assert_true(nb >= 2);
    globfree(&g);
    /* --split-max 1.48: the 148 frames fit, but not the 320 samples after
     * them (the rest of the last window): the piece ends at its least likely
     * frame of its last third, the rest no longer than S either */
    sh("mkdir ended");
    assert_int_equal(run_label("in.wav --model m.slm --target music --on-threshold 0 "
                               "--off-threshold 0 --split ended --split-max 1.48 -o /dev/null"), 0);
    int at = NFRAMES;
    for (int f = NFRAMES - NFRAMES / 3; f < NFRAMES; f++)
        if (at == NFRAMES || p[f] <= p[at])
            at = f;
    char want[2][64];
    snprintf(want[0], sizeof want[0], "ended/in-0001_0.000-%.3f.wav", at * 0.01);
    snprintf(want[1], sizeof want[1], "ended/in-0002_%.3f-1.480.wav", at * 0.01);
    snprintf(path, sizeof path, "%s/ended/in-*.wav", dir);
    assert_int_equal(glob(path, 0, NULL, &g), 0);
    assert_int_equal(g.gl_pathc, 2);
    for (int k = 0; k < 2; k++) {
        const int64_t a = k ? at * 160 : 0, b = k ? NSAMP : at * 160;
        assert_string_equal(g.gl_pathv[k] + strlen(dir) + 1, want[k]);
        assert_true(b - a <= 23680);
        float *y = read_floats(g.gl_pathv[k], 0, b - a);
        assert_memory_equal(y, x + a, sizeof *x * (size_t)(b - a));
        free(y);
    }
    globfree(&g);
    /* a piece's name that a file system would refuse (over 255 bytes) where
     * the input's is not: said before any piece, and the input not labelled;
     * one of 255 bytes is written */
    sh("mkdir longs && cp in.wav longs/$(printf 'a%.0s' $(seq 240)).wav && "
       "cp in.wav longs/$(printf 'b%.0s' $(seq 234)).wav");
    expect_error("longs --model m.slm --target music --on-threshold 0 --off-threshold 0 "
                 "--split long-pieces -o long-labels/", 1,
                 "a-0001_START-END.wav: a piece's name would have 261 bytes, more than a file "
                 "name may (255): give the input a shorter name");
    sh("test \"$(ls long-pieces)\" = \"$(printf 'b%.0s' $(seq 234))-0001_0.000-1.480.wav\" && "
       "test \"$(ls long-labels)\" = \"$(printf 'b%.0s' $(seq 234)).txt\" && "
       "rm -r longs long-pieces long-labels");
    /* ... counting the pieces a file's length may give: 120 s, 12,001 frames,
     * a fifth digit (230 + 26 bytes) */
    {
        float *quiet = calloc(120 * 16000, sizeof *quiet);
        char stem[231], wav[1024];
        memset(stem, 'q', 230);
        stem[230] = '\0';
        snprintf(wav, sizeof wav, "%s/%s.wav", dir, stem);
        write_wav(wav, quiet, 120 * 16000, 16000, 1, SF_FORMAT_PCM_16);
        free(quiet);
        char args[600], want[400];
        snprintf(args, sizeof args, "%s.wav --model m.slm --target music --split many -o /dev/null",
                 stem);
        snprintf(want, sizeof want, "%s-0001_START-END.wav: a piece's name would have 256 bytes",
                 stem);
        expect_error(args, 1, want);
        sh("test -z \"$(ls many)\" && rmdir many"); /* no piece */
        assert_int_equal(unlink(wav), 0);
    }
    /* an output whose name a file system would refuse: said before the input
     * is labelled, not at the rename after it */
    {
        char args[600], name[300];
        memset(name, 'o', 260);
        strcpy(name + 260, ".txt");
        snprintf(args, sizeof args, "in.wav --model m.slm -o %s", name);
        expect_error(args, 1, ": a name of 264 bytes, more than a file's may have (255)");
    }
    /* refusals: no target, no directory, with --cut */
    expect_error("in.wav --model m.slm --split parts", 2, "--split needs --target");
    /* output folders are made as needed; a file where one should be is refused */
    assert_int_equal(run_label("in.wav --model m.slm --target music --split new/split -o new/out/ "
                               "--cut new/cut/"), 0);
    sh("ls new/split/in-0001_*.wav new/out/in.txt new/cut/in.wav > /dev/null");
    expect_error("in.wav --model m.slm --target music --split in.wav", 1,
                 "in.wav: cannot make this folder: Not a directory");
    expect_error("in.wav --model m.slm --target music --split-max 30", 2, "--split-max needs --split");
    free(labels);
    free(x);
}

/* The channel map (speaker mask) of `path`, a WAVE_FORMAT_EXTENSIBLE file of
 * float samples, is `want`. */
static void assert_channel_map(const char *path, const int *want, int channels)
{
    SF_INFO info = {0};
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    if (!f)
        fail_msg("%s: %s", path, sf_strerror(NULL));
    int got[8] = {0};
    assert_int_equal(info.channels, channels);
    const int has = sf_command(f, SFC_GET_CHANNEL_MAP_INFO, got, (int)sizeof *got * channels);
    sf_close(f);
    if (!has)
        fail_msg("%s: no channel map (format 0x%x)", path, (unsigned)info.format);
    assert_int_equal(info.format, SF_FORMAT_WAVEX | SF_FORMAT_FLOAT);
    assert_memory_equal(got, want, sizeof *want * (size_t)channels);
}

/* A WAVE_FORMAT_EXTENSIBLE input's channel map stays with its cut and its
 * --split pieces: a 5.1 recording's cut plays as 5.1, a stereo FL|FR one's as
 * that, not as channels of no layout in a plain WAV (format tag 1), as
 * before. */
static void test_cut_channel_map(void **state)
{
    (void)state;
    static const int map51[] = {SF_CHANNEL_MAP_LEFT,      SF_CHANNEL_MAP_RIGHT,
                                SF_CHANNEL_MAP_CENTER,    SF_CHANNEL_MAP_LFE,
                                SF_CHANNEL_MAP_REAR_LEFT, SF_CHANNEL_MAP_REAR_RIGHT},
                     map2[] = {SF_CHANNEL_MAP_LEFT, SF_CHANNEL_MAP_RIGHT};
    const struct {
        const char *stem;
        const int *map;
        int channels;
    } in[] = {{"x51", map51, 6}, {"x2", map2, 2}};
    float *x = read_floats("in.wav", 0, NSAMP);
    float *y = malloc(sizeof *y * (size_t)NSAMP * 6);
    assert_non_null(y);
    sh("mkdir map-parts");
    for (int i = 0; i < 2; i++) {
        const int ch = in[i].channels;
        for (int64_t k = 0; k < NSAMP; k++)
            for (int c = 0; c < ch; c++)
                y[k * ch + c] = x[k];
        char path[600], args[256];
        snprintf(path, sizeof path, "%s/%s.wav", dir, in[i].stem);
        SF_INFO info = {.samplerate = 16000, .channels = ch,
                        .format = SF_FORMAT_WAVEX | SF_FORMAT_FLOAT};
        SNDFILE *f = sf_open(path, SFM_WRITE, &info);
        assert_non_null(f);
        assert_true(sf_command(f, SFC_SET_CHANNEL_MAP_INFO, (void *)in[i].map,
                               (int)sizeof *in[i].map * ch));
        assert_int_equal(sf_writef_float(f, y, NSAMP), NSAMP);
        sf_close(f);
        assert_channel_map(path, in[i].map, ch); /* the input says it */
        snprintf(args, sizeof args, "%s.wav --model m.slm --target music --on-threshold 0.4 "
                 "--off-threshold 0.4 --cut map-%s.wav --split map-parts -o /dev/null",
                 in[i].stem, in[i].stem);
        assert_int_equal(run_label(args), 0);
        snprintf(path, sizeof path, "%s/map-%s.wav", dir, in[i].stem);
        assert_channel_map(path, in[i].map, ch);
        snprintf(path, sizeof path, "%s/map-parts/%s-*.wav", dir, in[i].stem);
        glob_t g;
        assert_int_equal(glob(path, 0, NULL, &g), 0);
        for (size_t k = 0; k < g.gl_pathc; k++)
            assert_channel_map(g.gl_pathv[k], in[i].map, ch);
        globfree(&g);
    }
    /* a layout no mask can hold (a CAF's 5.1 as L C R Ls Rs LFE: a mask's
     * order is L R C LFE ...) is not written as libsndfile's default mask,
     * which names other speakers: its WAV cut is a plain one, as before; its
     * CAF cut keeps it */
    static const int lcr[] = {SF_CHANNEL_MAP_LEFT,      SF_CHANNEL_MAP_CENTER,
                              SF_CHANNEL_MAP_RIGHT,     SF_CHANNEL_MAP_REAR_LEFT,
                              SF_CHANNEL_MAP_REAR_RIGHT, SF_CHANNEL_MAP_LFE};
    for (int64_t k = 0; k < NSAMP; k++)
        for (int c = 0; c < 6; c++)
            y[k * 6 + c] = x[k];
    char path[600];
    snprintf(path, sizeof path, "%s/lcr.caf", dir);
    SF_INFO info = {.samplerate = 16000, .channels = 6, .format = SF_FORMAT_CAF | SF_FORMAT_FLOAT};
    SNDFILE *f = sf_open(path, SFM_WRITE, &info);
    assert_non_null(f);
    assert_true(sf_command(f, SFC_SET_CHANNEL_MAP_INFO, (void *)lcr, (int)sizeof lcr));
    assert_int_equal(sf_writef_float(f, y, NSAMP), NSAMP);
    sf_close(f);
    assert_int_equal(run_label("lcr.caf --model m.slm --target music --on-threshold 0.4 "
                               "--off-threshold 0.4 --cut lcr-cut.wav -o /dev/null"), 0);
    snprintf(path, sizeof path, "%s/lcr-cut.wav", dir);
    memset(&info, 0, sizeof info);
    f = sf_open(path, SFM_READ, &info);
    assert_non_null(f);
    sf_close(f);
    assert_int_equal(info.format, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
    assert_int_equal(run_label("lcr.caf --model m.slm --target music --on-threshold 0.4 "
                               "--off-threshold 0.4 --cut lcr-cut.caf -o /dev/null"), 0);
    int got[6] = {0};
    snprintf(path, sizeof path, "%s/lcr-cut.caf", dir);
    f = sf_open(path, SFM_READ, &info);
    assert_non_null(f);
    assert_true(sf_command(f, SFC_GET_CHANNEL_MAP_INFO, got, (int)sizeof got));
    sf_close(f);
    assert_memory_equal(got, lcr, sizeof lcr);
    free(x);
    free(y);
}

static void expect_error(const char *args, int code, const char *needle)
{
    int rc = run_label(args);
    char *e = slurp("err.txt");
    if (rc != code || !strstr(e, needle))
        fail_msg("'%s': exit %d (want %d), stderr: %s (want '%s')", args, rc, code, e, needle);
    free(e);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    char path[600];
    /* shorter than one window (25 ms): no frame, said (exit 0), unless -q */
    {
        float *x = tu_make_signal(320, 7);
        snprintf(path, sizeof path, "%s/short.wav", dir);
        write_wav(path, x, 320, 16000, 1, SF_FORMAT_PCM_16);
        free(x);
    }
    expect_error("short.wav --model m.slm > short.txt", 0, "short.wav: 0.02 s of audio, shorter "
                 "than one analysis window (0.025 s): no frame to label");
    /* one sample short of a window: said as such, not rounded up to one */
    {
        float *x = tu_make_signal(399, 7);
        snprintf(path, sizeof path, "%s/short399.wav", dir);
        write_wav(path, x, 399, 16000, 1, SF_FORMAT_PCM_16);
        free(x);
    }
    expect_error("short399.wav --model m.slm > short.txt", 0, "short399.wav: 0.0249375 s of "
                 "audio, shorter than one analysis window (0.025 s)");
    assert_int_equal(run_label("short.wav --model m.slm -q > short.txt"), 0);
    sh("test ! -s short.txt && test ! -s err.txt");
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("keep\n", f);
    fclose(f);
    /* A missing input names the file and leaves an existing output untouched. */
    expect_error("missing.wav --model m.slm -o keep.txt", 1, "missing.wav");
    /* A write that fails is said, also one that stops the labelling half way
     * (frames: more than stdio's buffer before the end) */
    expect_error("in.wav --model m.slm --format frames -o /dev/full", 1,
                 "/dev/full: write failed: No space left on device");
    expect_error("in.wav --model m.slm -o /dev/full", 1,
                 "/dev/full: write failed: No space left on device");
    char *k = slurp("keep.txt");
    assert_string_equal(k, "keep\n");
    free(k);
    /* Corrupt audio. */
    snprintf(path, sizeof path, "%s/junk.wav", dir);
    f = fopen(path, "w");
    fputs("RIFF\x10\x00\x00\x00WAVEjunkjunkjunkjunkjunk", f);
    fclose(f);
    expect_error("junk.wav --model m.slm -o junk.txt", 1, "junk.wav");
    assert_false(exists("junk.txt"));
    /* NaN samples: the position, and no output. */
    float x[8000];
    for (int i = 0; i < 8000; i++)
        x[i] = 0.01f * sinf(0.1f * (float)i);
    x[5000] = NAN;
    snprintf(path, sizeof path, "%s/nan.wav", dir);
    write_wav(path, x, 8000, 16000, 1, SF_FORMAT_FLOAT);
    expect_error("nan.wav --model m.slm -o nan.txt", 1, "nan.wav");
    assert_false(exists("nan.txt"));
    /* ... through a pipe, live input: said, exit 1, and what came before the 0.1 s
     * read holding the NaN labelled and kept (4800 samples: 28 frames, as a
     * network stream that fails keeps its hours) */
    snprintf(path, sizeof path, "%s/nan.f32", dir);
    f = fopen(path, "wb");
    assert_int_equal(fwrite(x, sizeof x[0], 8000, f), 8000);
    fclose(f);
    char live_cmd[1024];
    snprintf(live_cmd, sizeof live_cmd, "cat nan.f32 | '%s' label - --model m.slm --raw-format "
             "f32le --raw-rate 16000 -o nanlive.txt 2> nanlive.err; test $? = 1", seqlabel);
    sh(live_cmd);
    char *said = slurp("nanlive.err"), *kept = slurp("nanlive.txt");
    assert_non_null(strstr(said, "standard input: non-finite sample (NaN) at sample 5000"));
    assert_non_null(kept);
    const char *last = strrchr(kept, '\n');
    while (last > kept && last[-1] != '\n')
        last--;
    assert_true(fabs(strtod(strchr(last, '\t') + 1, NULL) - 0.28) < 1e-9);
    free(said);
    free(kept);
    /* One bad file among good ones: the good ones are written, exit 1. */
    sh("mkdir mixed");
    expect_error("in.wav nan.wav --model m.slm -o mixed", 1, "nan.wav");
    assert_true(exists("mixed/in.txt"));
    assert_false(exists("mixed/nan.txt"));
    /* Model and option errors. */
    expect_error("in.wav --model nomodel.slm", 1, "nomodel.slm");
    expect_error("in.wav --model in.wav", 1, "in.wav");
    expect_error("in.wav --model m.slm --format xml", 2, "--format");
    expect_error("in.wav --model m.slm --threads 0", 2, "--threads");
    expect_error("in.wav --model m.slm --target noise", 2, "noise");
    /* A FIFO (or a device: -o /dev/null) is written as it is, not replaced by a
     * renamed temporary file. */
    sh("mkfifo out.fifo && (timeout 20 cat out.fifo > fifo.txt &)");
    assert_int_equal(run_label("in.wav --model m.slm -o out.fifo"), 0);
    /* named as a format seqlabel does not write, a FIFO still takes the lines */
    sh("mkfifo out-fifo.xml && (timeout 20 cat out-fifo.xml > fifo-xml.txt &)");
    assert_int_equal(run_label("in.wav --model m.slm -o out-fifo.xml"), 0);
    sh("test -p out.fifo && ! ls out.fifo.tmp.* 2>/dev/null && "
       "for i in $(seq 100); do test -s fifo.txt && break; sleep 0.1; done; test -s fifo.txt");
    /* --cut: needs a target class, and a directory for several inputs; nothing
     * half-written */
    expect_error("in.wav --model m.slm --cut c.wav", 2, "--cut needs --target");
    expect_error("in.wav --model m.slm --cut-silence", 2, "--cut-silence needs --cut");
    expect_error("in.wav in.wav --model m.slm --target speech --cut c.wav -o mixed", 2,
                 "several inputs need --cut DIR");
    expect_error("nan.wav --model m.slm --target speech --cut c.wav -o nan.txt", 1, "nan.wav");
    assert_false(exists("c.wav"));
    /* the cut on standard output: the labels must go elsewhere, and then the
     * audio there is the cut into a file (threshold 0: every frame is kept) */
    expect_error("in.wav --model m.slm --target speech --cut -", 2,
                 "--cut -: the labels go to standard output too");
    expect_error("in.wav --model m.slm --target speech --cut - -o -", 2, "-o /dev/null");
    assert_int_equal(run_label("in.wav --model m.slm --target speech --on-threshold 0 "
                               "--off-threshold 0 --cut - -o piped.txt > piped.wav"), 0);
    assert_int_equal(run_label("in.wav --model m.slm --target speech --on-threshold 0 "
                               "--off-threshold 0 --cut filed.wav -o filed.txt"), 0);
    sh("cmp piped.txt filed.txt");
    assert_same_audio("piped.wav", "filed.wav");
    /* into a pipe a WAV cannot go (its header is finished last): said, with the ways out */
    sh("mkfifo cut.fifo && (timeout 20 cat cut.fifo > /dev/null &)");
    expect_error("in.wav --model m.slm --target speech --cut - -o piped2.txt > cut.fifo", 1,
                 "-: libsndfile cannot write this container into a pipe");
    /* An output that is the input itself is refused (the rename would replace
     * the audio), also when the input comes on standard input. */
    sh("cp in.wav self.wav");
    expect_error("self.wav --model m.slm -o self.wav", 1, "self.wav: is the input self.wav");
    expect_error("self.wav --model m.slm --target speech --cut ./self.wav -o self.txt", 1,
                 "./self.wav: is the input self.wav");
    expect_error("- --model m.slm -o self.wav < self.wav", 1, "file on standard input");
    /* so is standard output open on the input: it would be written into */
    expect_error("self.wav --model m.slm >> self.wav", 1,
                 "standard output: is the input self.wav itself; not writing into it");
    expect_error("- --model m.slm < self.wav >> self.wav", 1,
                 "standard output: is the file on standard input");
    expect_error("in.wav self.wav --model m.slm >> self.wav", 1,
                 "standard output: is the input self.wav itself");
    expect_error("self.wav in.wav --model m.slm -j 2 >> self.wav", 1,
                 "standard output: is the input self.wav itself");
    sh("cmp in.wav self.wav && ! ls self.txt* 2>/dev/null");
    /* A cut that cannot be written (here: beyond the file size limit, 96 KB of
     * float samples) stops the labelling: it says so, and leaves no file. */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && (trap '' XFSZ; ulimit -f 40; exec '%s' label in.wav "
             "--model m.slm --target speech --cut-silence --cut big.wav -o big.txt) 2> err.txt",
             dir, seqlabel);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    char *e = slurp("err.txt");
    /* the system's reason, as the labels' own failures say it (libsndfile's
     * was "System error : File too large.") */
    if (!strstr(e, "big.wav: write failed: File too large\n"))
        fail_msg("%s", e);
    free(e);
    sh("test -z \"$(ls | grep big)\"");
    expect_error("in.wav --model m.slm --min-duration speech=x", 2, "speech=x");
    /* an output without a name, and class lists that name no class */
    expect_error("in.wav --model m.slm -o ''", 2, "an output with an empty name");
    expect_error("in.wav --model m.slm --only ''", 2, "--only \"\" names no class");
    expect_error("in.wav --model m.slm --skip ,", 2, "--skip \",\" names no class");
    /* a folder's name says no format: -o labels.rttm (a folder) as -o labels.rttm/ */
    sh("mkdir labels.rttm");
    assert_int_equal(run_label("in.wav --model m.slm -o labels.rttm"), 0);
    sh("test -f labels.rttm/in.txt");
    /* options that would do nothing are refused, not ignored */
    expect_error("in.wav --model m.slm --on-threshold 0.3", 2,
                 "--on-threshold goes with --target CLASS");
    expect_error("in.wav --model m.slm --padding=0.2", 2, "--padding goes with --target CLASS");
    expect_error("in.wav --model m.slm --segments", 2, "--segments goes with --format jsonl");
    expect_error("in.wav --model m.slm --skip music --format frames", 2,
                 "--skip leaves out segments: --format frames keeps every frame");
    expect_error("in.wav --model m.slm --only music -o x.jsonl", 2,
                 "--only leaves out segments: --format jsonl keeps every frame");
    expect_error("in.wav --model m.slm --lookahead 100", 2, "window");
    expect_error("in.wav in.wav --model m.slm -o one.txt", 2, "several inputs");
    /* a name whose extension is another format's: not Audacity lines under it */
    expect_error("in.wav --model m.slm -o out.xml", 2, "-o out.xml: '.xml' names a format "
                 "seqlabel does not write");
    expect_error("in.wav --model m.slm -o out.ASS", 2, "'.ASS' names a format");
    assert_int_equal(run_label("in.wav --model m.slm -o out.xml --format frames"), 0);
    /* .csv is the CSV table of segments: the Audacity lines' segments, a header
     * and the mean confidence added, commas between; several inputs on one
     * stream, one header with a file column */
    assert_int_equal(run_label("in.wav --model m.slm -o out.CSV"), 0);
    assert_int_equal(run_label("in.wav --model m.slm -o out-segs.txt"), 0);
    sh("test \"$(head -n 1 out.CSV)\" = start,end,label,confidence && "
       "tail -n +2 out.CSV | cut -d, -f1-3 | tr , '\\t' | cmp - out-segs.txt && "
       "test \"$(tail -n +2 out.CSV | cut -d, -f4 | grep -cvE '^[01](\\.[0-9]+)?(e-[0-9]+)?$')\" = 0");
    assert_int_equal(run_label("in.wav in.wav --model m.slm --format csv > two.csv"), 0);
    sh("test \"$(head -n 1 two.csv)\" = file,start,end,label,confidence && "
       "test $(grep -c '^in,' two.csv) = $((2 * ($(wc -l < out.CSV) - 1)))");
    /* outputs named after their inputs would collide: refused before any is written */
    sh("mkdir -p twins/a twins/b twins/out && cp in.wav twins/a/x.wav && cp in.wav twins/b/x.wav");
    expect_error("twins/a/x.wav twins/b/x.wav --model m.slm -o twins/out/", 2,
                 "twins/a/x.wav and twins/b/x.wav would both write x.* into twins/out/");
    expect_error("twins/a/x.wav twins/b/x.wav --model m.slm --target speech --split twins/out", 2,
                 "would both write x.*");
    /* and in one stream whose lines name their file (RTTM's id, the summary's
     * "file"), where eval could not tell them apart; one file twice is fine */
    expect_error("twins/ --model m.slm --format rttm", 2,
                 "twins/a/x.wav and twins/b/x.wav would both be 'x' in one rttm stream");
    expect_error("twins/a/x.wav twins/b/x.wav --model m.slm --format summary", 2,
                 "would both be \"x\" in one summary stream");
    assert_int_equal(run_label("twins/a/x.wav twins/a/../a/x.wav --model m.slm --format rttm "
                               "> twice.rttm"), 0);
    sh("test -z \"$(ls twins/out)\"");
    expect_error("--model m.slm", 2, "no input");
    expect_error("in.wav --model m.slm --bogus", 2, "--bogus");
    /* Decoder knobs reach the labeler: a huge switch penalty leaves one segment. */
    assert_int_equal(run_label("in.wav --model m.slm --smoothing viterbi --switch-penalty 1000 "
                               "--smoothing-lag 200 -o one_seg.txt"), 0);
    char *t = slurp("one_seg.txt");
    int lines = 0;
    for (char *p = t; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1);
    free(t);
    /* The element's property names set the same knobs: target speech always
     * on (thresholds 0) gives one speech segment, padded or not. */
    assert_int_equal(run_label("in.wav --model m.slm --target-class speech --threshold-on 0 "
                               "--threshold-off 0 --padding 0.1 --num-threads 2 -o vad.txt"), 0);
    t = slurp("vad.txt");
    assert_string_equal(t, "0.000000\t1.480000\tspeech\n");
    free(t);
}

/* Labels in.wav into `out` as the user nobody, which must fail (exit 1) saying `want`. */
static void expect_unprivileged_error(const char *out, const char *want)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' label in.wav --model m.slm -o %s 2> unprivileged.err", seqlabel,
             out);
    assert_int_equal(test_system_unprivileged(dir, cmd), 1);
    char *e = slurp("unprivileged.err");
    if (!e || !strstr(e, want))
        fail_msg("-o %s said: %s (want '%s')", out, e ? e : "nothing", want);
    free(e);
}

/* Outputs over what is there, labels and --cut alike (common/output_file.h):
 * an existing file keeps its mode (0600 stays 0600), a symbolic link stays a
 * link and the file it leads to gets the output, and a file this user may not
 * write is refused, naming it, and kept (tried as nobody: root may write any
 * file, and nobody could still rename a file over it in a folder open to all).
 * The summary names the input as it is called, space and all; RTTM makes it
 * one field. */
static void test_output_files(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm -o plain.txt"), 0);
    sh("printf old > kept.txt && chmod 600 kept.txt");
    assert_int_equal(run_label("in.wav --model m.slm -o kept.txt"), 0);
    sh("test \"$(stat -c %a kept.txt)\" = 600 && cmp kept.txt plain.txt");

    sh("mkdir -p linked && printf old > linked/labels.txt && ln -s linked/labels.txt link.txt && "
       "ln -s linked/cut.wav cut-link.wav");
    assert_int_equal(run_label("in.wav --model m.slm --target speech --cut cut-link.wav "
                               "-o link.txt"), 0);
    sh("test -L link.txt && test -L cut-link.wav && cmp linked/labels.txt plain.txt && "
       "test -s linked/cut.wav && ! ls *.tmp.* linked/*.tmp.* 2>/dev/null");

    /* a mode the file system refuses (vfat; fchmod failing, preloaded): said
     * as such, not as a folder that takes no file, and the file kept */
    {
        char cmd[2048], preload[1024];
        sh("printf old > mode.txt && chmod 600 mode.txt");
        test_preload_path(preload, sizeof preload, dir, getenv("SL_RAISE_IN_RENAME_LIB"));
        snprintf(cmd, sizeof cmd, "cd '%s' && SL_FAIL_FCHMOD=1 LD_PRELOAD='%s' "
                 "ASAN_OPTIONS=\"$ASAN_OPTIONS:verify_asan_link_order=0\" '%s' label in.wav "
                 "--model m.slm -o mode.txt 2> err.txt", dir, preload, seqlabel);
        int st = system(cmd);
        unlink(preload); /* not among the files of the tests after this one */
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
        char *err = slurp("err.txt");
        if (!strstr(err, "mode.txt: cannot write: cannot give its temporary file ") ||
            !strstr(err, "the mode of the file it replaces (600): Operation not permitted"))
            fail_msg("%s", err);
        free(err);
        sh("test \"$(cat mode.txt)\" = old && ! ls mode.txt.tmp.* 2>/dev/null");
    }
    sh("chmod 777 . && printf old > ro.txt && chmod 444 ro.txt");
    expect_unprivileged_error("ro.txt", "ro.txt: cannot write: Permission denied");
    sh("test \"$(cat ro.txt)\" = old && ! ls ro.txt.tmp.* 2>/dev/null");
    /* a file anyone may write in a folder no one may (but root, tried as
     * nobody): `>` would write it, the command needs the folder too, and says so */
    sh("mkdir -m 755 rodir && printf old > rodir/a.txt && chmod 666 rodir/a.txt && "
       "chmod 555 rodir");
    expect_unprivileged_error("rodir/a.txt", "rodir/a.txt: cannot write: cannot create a file in "
                              "'rodir' (an output is written there under a temporary name, then "
                              "renamed over it): Permission denied");
    sh("test \"$(cat rodir/a.txt)\" = old");
    /* through a link in a folder open to all: the folder named is the one the
     * link leads to, where the temporary file goes */
    sh("mkdir -m 777 w && ln -s ../rodir/a.txt w/link.txt");
    expect_unprivileged_error("w/link.txt", "w/link.txt: cannot write: cannot create a file in "
                              "'w/../rodir' (an output");
    /* a file anyone may write, of the user who owns the sticky folder it is in
     * (root's in /tmp), as nobody: `>` writes it, but no rename may replace
     * it (only its owner or the folder's): refused before the labelling, not
     * after it (tried as nobody where the tests run as root) */
    if (geteuid() == 0) {
        sh("mkdir -m 1777 sticky && chmod 1777 sticky && printf old > sticky/f.txt && "
           "chmod 666 sticky/f.txt");
        expect_unprivileged_error("sticky/f.txt", "sticky/f.txt: cannot replace it: another "
                                  "user's file in a folder with the sticky bit (as /tmp), which "
                                  "lets only the file's owner or the folder's replace it");
        sh("test \"$(cat sticky/f.txt)\" = old && ! ls sticky/f.txt.tmp.* 2>/dev/null");
        /* a file:// URI of a file this user may not read: said as by name,
         * not as GStreamer's network trouble */
        {
            sh("cp in.wav secret.wav && chmod 600 secret.wav");
            char cmd[1200];
            snprintf(cmd, sizeof cmd, "'%s' label 'file://%s/secret.wav' --model m.slm "
                     "2> secret.err", seqlabel, dir);
            assert_int_equal(test_system_unprivileged(dir, cmd), 1);
            char *e = slurp("secret.err");
            if (!e || !strstr(e, "secret.wav: cannot open: Permission denied\n"))
                fail_msg("file:// of an unreadable file: %s", e ? e : "nothing said");
            free(e);
        }
        /* ... where the folder takes no new file from this user either, that
         * is the reason: no other name there would do */
        sh("chmod 1755 sticky");
        expect_unprivileged_error("sticky/f.txt", "sticky/f.txt: cannot write: cannot create a "
                                  "file in 'sticky'");
    }

    /* -o and --cut naming one file (by name or through a link) would destroy
     * each other: refused before anything is written */
    sh("printf old > both.txt && ln -s both.txt both-link.wav");
    expect_error("in.wav --model m.slm --target speech -o both.txt --cut both.txt", 2,
                 "are one file");
    expect_error("in.wav --model m.slm --target speech -o both.txt --cut both-link.wav", 2,
                 "are one file");
    sh("test \"$(cat both.txt)\" = old && ! ls both.txt.tmp.* 2>/dev/null");
    /* so are names of one descriptor, or of the file it is open on, standard
     * output given as "-" or by default among them; /dev/null may take both */
    expect_error("in.wav --model m.slm --target speech -o /dev/stdout --cut /dev/fd/1 "
                 "> both-fd.out", 2, "-o /dev/stdout and --cut /dev/fd/1 are one file");
    sh("\"$SL_SEQLABEL\" label in.wav --model m.slm --target speech -o /dev/stdout --cut "
       "/dev/stderr > both-fd.out 2>&1; test $? = 2 && grep -q 'are one file' both-fd.out");
    expect_error("in.wav --model m.slm --target speech --cut /dev/stdout > both-fd.out", 2,
                 "the labels' standard output and --cut /dev/stdout are one file");
    expect_error("in.wav --model m.slm --target speech -o both.txt --cut /dev/stdout "
                 ">> both.txt", 2, "are one file");
    sh("test \"$(cat both.txt)\" = old");
    assert_int_equal(run_label("in.wav --model m.slm --target speech -o /dev/null --cut /dev/null"),
                     0);

    /* --split's pieces, named once their end is known, keep the rule too: the
     * file a link leads to gets the piece, a file's mode is kept */
#define PIECE_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 "
    assert_int_equal(run_label("in.wav " PIECE_ARGS "-o /dev/null --split pieces-ref/"), 0);
    sh("mkdir pieces && p=$(ls pieces-ref | head -1) && test -n \"$p\" && "
       "cp \"pieces-ref/$p\" ref-piece.wav && ln -s ../piece-target.wav \"pieces/$p\"");
    assert_int_equal(run_label("in.wav " PIECE_ARGS "-o /dev/null --split pieces/"), 0);
    sh("p=$(ls pieces-ref | head -1) && test -L \"pieces/$p\" && rm \"pieces/$p\" && "
       "printf old > \"pieces/$p\" && chmod 600 \"pieces/$p\"");
    /* samples, not bytes: a float WAV's PEAK chunk holds the second it was written */
    assert_same_audio("piece-target.wav", "ref-piece.wav");
    assert_int_equal(run_label("in.wav " PIECE_ARGS "-o /dev/null --split pieces/"), 0);
    sh("p=$(ls pieces-ref | head -1) && test \"$(stat -c %a \"pieces/$p\")\" = 600 && "
       "cp \"pieces/$p\" got-piece.wav && ! ls pieces/*.tmp.* 2>/dev/null");
    assert_same_audio("got-piece.wav", "ref-piece.wav");
    /* a link into another file system (tmpfs /dev/shm), where no rename from
     * the folder the piece was written in reaches: the piece still arrives */
    sh("test \"$(stat -c %d /dev/shm)\" != \"$(stat -c %d .)\" && mkdir pieces-far && "
       "p=$(ls pieces-ref | head -1) && far=/dev/shm/seqlabel-piece-$$.wav && "
       "ln -s \"$far\" \"pieces-far/$p\" && echo \"$far\" > far-name.txt");
    assert_int_equal(run_label("in.wav " PIECE_ARGS "-o /dev/null --split pieces-far/"), 0);
    sh("far=$(cat far-name.txt) && cp \"$far\" far-piece.wav && rm \"$far\" && "
       "! ls pieces-far/*.tmp.* /dev/shm/seqlabel-piece-*.tmp.* 2>/dev/null");
    assert_same_audio("far-piece.wav", "ref-piece.wav");

    sh("cp in.wav 'two words.wav'");
    assert_int_equal(run_label("'two words.wav' --model m.slm --format summary -o words.jsonl"), 0);
    assert_int_equal(run_label("'two words.wav' --model m.slm --format rttm -o words.rttm"), 0);
    char *t = slurp("words.jsonl"), *r = slurp("words.rttm");
    const char *json = "{\"file\":\"two words\",", *rttm = "SPEAKER two_words 1 ";
    assert_true(!strncmp(t, json, strlen(json)));
    assert_true(!strncmp(r, rttm, strlen(rttm)));
    free(t);
    free(r);
}

/* Labels in.wav with `args`, which must fail (exit 1) saying `want` about `out`. */
static void expect_refused(const char *args, const char *out, const char *want)
{
    assert_int_equal(run_label(args), 1);
    char *e = slurp("err.txt"), said[600];
    snprintf(said, sizeof said, "%s: %s", out, want);
    if (!e || !strstr(e, said))
        fail_msg("%s said: %s (want '%s')", args, e ? e : "nothing", said);
    free(e);
}

/* In a folder every user may write and only a file's owner remove (sticky,
 * world-writable, as /tmp), another user's symbolic link is not followed and
 * another user's file or FIFO not replaced, also by root, as the kernel's
 * protected_symlinks, protected_regular and protected_fifos would refuse them
 * to the shell's `>`: that user may have put them there for root to write
 * through (a link to /etc/shadow, to a file that does not exist yet) or to be
 * given root's output (the file's owner is kept). Refused before the input is
 * labelled, naming the path, nothing written. The writer's own link there, or
 * one the folder's owner made, is followed as everywhere (docs/labeling.md).
 * The other user's files need root (chown to nobody); as another user only the
 * files followed as ever are tried. */
static void test_output_shared_folder(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm -o ref-shared.txt"), 0);
    sh("rm -rf shared victim && mkdir -m 1777 shared && chmod 1777 shared && mkdir victim && "
       "printf precious > victim/file && chmod 600 victim/file && "
       "ln -s ../victim/file shared/labels.txt && ln -s ../victim/new.txt shared/dangling.txt && "
       "ln -s ../victim/cut.wav shared/cut.wav && printf theirs > shared/theirs.txt && "
       "mkfifo shared/theirs.fifo && ln -s ../victim/mine.txt shared/mine.txt && "
       "printf mine > victim/mine.txt");
    if (geteuid() == 0) {
        sh("chown -h 65534:65534 shared/labels.txt shared/dangling.txt shared/cut.wav "
           "shared/theirs.txt shared/theirs.fifo");
        expect_refused("in.wav --model m.slm -o shared/labels.txt", "shared/labels.txt",
                       "a link another user owns in a shared folder (sticky, world-writable): "
                       "not followed, as the kernel would not");
        expect_refused("in.wav --model m.slm -o shared/dangling.txt", "shared/dangling.txt",
                       "a link another user owns");
        /* a folder so: -o DIR/, the folder of -o FILE, --cut DIR, a feature cache
         * (they were followed, their files written in the folder it led to) */
        sh("ln -s ../victim shared/dir-link && chown -h 65534:65534 shared/dir-link && "
           "printf 'in.wav\\tin-lab.txt\\n' > cache-m.tsv && printf '0\\t1\\tmusic\\n' > in-lab.txt");
        expect_refused("in.wav --model m.slm -o shared/dir-link/", "shared/dir-link",
                       "a link another user owns in a shared folder");
        expect_refused("in.wav --model m.slm -o shared/dir-link/x.txt", "shared/dir-link",
                       "a link another user owns in a shared folder");
        /* anywhere in the path, as the kernel walks it */
        expect_refused("in.wav --model m.slm -o shared/dir-link/sub/x.txt", "shared/dir-link",
                       "a link another user owns in a shared folder");
        expect_refused("in.wav --model m.slm -o shared/dir-link/./x.txt", "shared/dir-link",
                       "a link another user owns in a shared folder");
        /* ... and where a link of the writer's own leads (own-out -> its folder) */
        sh("ln -s shared/dir-link/sub own-out");
        expect_refused("in.wav --model m.slm -o own-out/x.txt", "shared/dir-link",
                       "a link another user owns in a shared folder");
        expect_refused("in.wav --model m.slm --target speech --cut shared/dir-link -o /dev/null",
                       "shared/dir-link", "a link another user owns in a shared folder");
        {
            char cmd[1024];
            snprintf(cmd, sizeof cmd, "for c in shared/dir-link shared/dir-link/cache; do '%s' eval "
                     "--model m.slm --manifest cache-m.tsv --cache-dir $c > /dev/null 2> err.txt; "
                     "test $? = 1 && grep -q 'shared/dir-link: a link another user owns' err.txt || "
                     "exit 1; done && test -z \"$(ls victim | grep -v '^file$\\|^mine.txt$')\"",
                     seqlabel);
            sh(cmd);
        }
        /* every output of the command: bench features' signal too (it was an fopen) */
        {
            char cmd[1024];
            snprintf(cmd, sizeof cmd, "'%s' bench features --seconds 1 --save-signal "
                     "shared/labels.txt > /dev/null 2> err.txt; test $? = 1 && grep -q "
                     "'shared/labels.txt: .*a link another user owns' err.txt", seqlabel);
            sh(cmd);
        }
        expect_refused("in.wav --model m.slm --target speech --cut shared/cut.wav "
                       "-o victim/labels.txt", "shared/cut.wav", "a link another user owns");
        /* a chain: the writer's own link to theirs */
        sh("ln -s labels.txt shared/chain.txt");
        expect_refused("in.wav --model m.slm -o shared/chain.txt", "shared/chain.txt",
                       "shared/labels.txt, where it leads, is a link another user owns");
        expect_refused("in.wav --model m.slm -o shared/theirs.txt", "shared/theirs.txt",
                       "a file another user owns in a shared folder (sticky, world-writable): "
                       "not replaced, as the kernel would not");
        expect_refused("in.wav --model m.slm -o shared/theirs.fifo", "shared/theirs.fifo",
                       "a FIFO another user owns");
        /* reached through the writer's own link in a folder of its own */
        sh("ln -s ../shared/theirs.txt victim/to-theirs.txt");
        expect_refused("in.wav --model m.slm -o victim/to-theirs.txt", "victim/to-theirs.txt",
                       "victim/../shared/theirs.txt, where it leads, is a file another user owns");
        sh("test \"$(cat victim/file)\" = precious && test ! -e victim/new.txt && "
           "test ! -e victim/cut.wav && test ! -e victim/labels.txt && "
           "test \"$(cat shared/theirs.txt)\" = theirs && "
           "test \"$(stat -c %u shared/theirs.txt)\" = 65534 && test -p shared/theirs.fifo && "
           "test -z \"$(ls shared victim | grep '\\.tmp\\.')\"");
        /* the folder's owner's files are its own to give: in a folder of
         * nobody's, nobody's link and file are followed and replaced (the file
         * stays nobody's) */
        sh("rm -rf theirs-dir && mkdir -m 1777 theirs-dir && chmod 1777 theirs-dir && "
           "printf old > theirs-dir/f.txt && ln -s f.txt theirs-dir/l.txt && "
           "chown -h 65534:65534 theirs-dir theirs-dir/f.txt theirs-dir/l.txt");
        assert_int_equal(run_label("in.wav --model m.slm -o theirs-dir/l.txt"), 0);
        sh("cmp theirs-dir/f.txt ref-shared.txt && test \"$(stat -c %u theirs-dir/f.txt)\" = 65534 "
           "&& test -L theirs-dir/l.txt");
        /* not sticky: links and files are the user's to follow and replace */
        sh("chmod 0777 shared");
        assert_int_equal(run_label("in.wav --model m.slm -o shared/theirs.txt"), 0);
        sh("cmp shared/theirs.txt ref-shared.txt && chmod 1777 shared");
    } else {
        print_message("(another user's files in a shared folder: tried as root alone, who may "
                      "give files to nobody)\n");
    }
    /* the writer's own link in the shared folder is followed, as documented */
    assert_int_equal(run_label("in.wav --model m.slm -o shared/mine.txt"), 0);
    sh("test -L shared/mine.txt && cmp victim/mine.txt ref-shared.txt && "
       "test -z \"$(ls shared victim | grep '\\.tmp\\.')\"");
}

/* The temporary file an output is written under has a name no one can foresee
 * (OUT.tmp.<pid>.XXXXXX, X's random) and is made with mode 0600, so another
 * user can neither put a file or link there first nor read the output in it
 * before it has its final mode. What was the name, OUT.tmp.<pid>, found taken
 * by a file or a link (planted by the shell that then becomes the command:
 * one pid) no longer stops the run, nor is the file or the link's file
 * touched; a 0600 file replaced stays 0600. A new output whose mode the file
 * system refuses to set (vfat; fchmod failing, preloaded) keeps the 0600 it
 * was made with, never the umask's wider one. */
/* Names of open descriptors (/dev/stdout, /dev/fd/N) are written through the
 * descriptor, as the shell's redirections are: a `>>` log is appended to and a
 * script's lines around the labels kept, where following /dev/stdout's link and
 * renaming over its file lost both. A closed standard output is no input's
 * descriptor: labels bound for it fail, said, and the input is untouched (the
 * input audio, opened as descriptor 1, used to be overwritten with them). */
static void test_output_descriptors(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm -o fd-ref.txt"), 0);
    sh("cp in.wav fd-in.wav && printf 'old line\\n' > fd-log.txt");
    assert_int_equal(run_label("fd-in.wav --model m.slm -o /dev/stdout >> fd-log.txt"), 0);
    sh("(echo 'old line'; cat fd-ref.txt) | cmp - fd-log.txt");
    assert_int_equal(run_label("fd-in.wav --model m.slm -o /dev/stdout > fd-mid.txt; "
                               "echo footer >> fd-mid.txt"), 0);
    sh("(cat fd-ref.txt; echo footer) | cmp - fd-mid.txt");
    assert_int_equal(run_label("fd-in.wav --model m.slm -o /dev/fd/7 7> fd-7.txt"), 0);
    sh("cmp fd-ref.txt fd-7.txt && ln -sf /dev/stdout fd-link.txt");
    assert_int_equal(run_label("fd-in.wav --model m.slm -o fd-link.txt > fd-via-link.txt"), 0);
    sh("cmp fd-ref.txt fd-via-link.txt && test -L fd-link.txt");
    /* a cut through one: whole when the descriptor is a file from its start;
     * appending would put the header it finishes last at the end: refused */
#define CUT_ARGS "--model m.slm --target music --on-threshold 0.4 --off-threshold 0.4 "
    assert_int_equal(run_label("fd-in.wav " CUT_ARGS "--cut fd-cut.wav -o /dev/null"), 0);
    assert_int_equal(run_label("fd-in.wav " CUT_ARGS "--cut /dev/stdout -o /dev/null "
                               "> fd-cut2.wav"), 0);
    assert_same_audio("fd-cut.wav", "fd-cut2.wav");
    sh("printf x > fd-append.wav");
    expect_error("fd-in.wav " CUT_ARGS "--cut /dev/stdout -o /dev/null >> fd-append.wav", 1,
                 "/dev/stdout: a file opened for appending (>>)");
    sh("test \"$(cat fd-append.wav)\" = x");
    /* closed: said, the input untouched */
    expect_error("fd-in.wav --model m.slm >&-", 1, "standard output: write failed: Bad file "
                 "descriptor");
    expect_error("fd-in.wav --model m.slm -o /dev/stdout >&-", 1,
                 "/dev/stdout: cannot write: descriptor 1 is not open for writing");
    expect_error("fd-in.wav " CUT_ARGS "--cut /dev/stdout -o /dev/null >&-", 1,
                 "/dev/stdout: cannot write: descriptor 1 is not open for writing");
#undef CUT_ARGS
    expect_error("fd-in.wav --model m.slm -o /dev/stdin <&-", 1,
                 "/dev/stdin: cannot write: descriptor 0 is not open for writing");
    sh("cmp in.wav fd-in.wav");
}

static void test_output_tmp_names(void **state)
{
    (void)state;
    assert_int_equal(run_label("in.wav --model m.slm -o tmp-ref.txt"), 0);
    sh("printf old > tmp-out.txt && chmod 600 tmp-out.txt && printf precious > tmp-victim && "
       "rm -f tmp-cut.wav tmp-*.tmp.*");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && printf planted > tmp-out.txt.tmp.$$ && "
             "ln -s tmp-victim tmp-cut.wav.tmp.$$ && exec '%s' label in.wav --model m.slm "
             "--target speech --cut tmp-cut.wav -o tmp-out.txt 2> err.txt", dir, seqlabel);
    int st = system(cmd);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *e = slurp("err.txt");
        fail_msg("exit %d: %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, e ? e : "");
    }
    sh("cmp tmp-out.txt tmp-ref.txt && test \"$(stat -c %a tmp-out.txt)\" = 600 && "
       "test -s tmp-cut.wav && test ! -L tmp-cut.wav && test \"$(cat tmp-victim)\" = precious && "
       "test \"$(cat tmp-out.txt.tmp.*)\" = planted && test -L tmp-cut.wav.tmp.* && "
       "test $(ls | grep -c '^tmp-.*\\.tmp\\.') = 2 && rm tmp-*.tmp.*");
    char preload[1024];
    test_preload_path(preload, sizeof preload, dir, getenv("SL_RAISE_IN_RENAME_LIB"));
    snprintf(cmd, sizeof cmd, "cd '%s' && rm -f tmp-new.txt && umask 022 && SL_FAIL_FCHMOD=1 "
             "LD_PRELOAD='%s' ASAN_OPTIONS=\"$ASAN_OPTIONS:verify_asan_link_order=0\" '%s' label "
             "in.wav --model m.slm -o tmp-new.txt 2> err.txt", dir, preload, seqlabel);
    st = system(cmd);
    unlink(preload);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    sh("cmp tmp-new.txt tmp-ref.txt && test \"$(stat -c %a tmp-new.txt)\" = 600 && "
       "! ls tmp-new.txt.tmp.* 2>/dev/null");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_format),
        cmocka_unit_test(test_frames_long_header),
        cmocka_unit_test(test_clip_edges),
        cmocka_unit_test(test_audacity_and_rttm),
        cmocka_unit_test(test_jsonl),
        cmocka_unit_test(test_stdin_and_several_files),
        cmocka_unit_test(test_stdout_live),
        cmocka_unit_test(test_cut_container),
        cmocka_unit_test(test_cut_exact),
        cmocka_unit_test(test_one_channel),
        cmocka_unit_test(test_gstreamer_input),
        cmocka_unit_test(test_stall_timeout),
        cmocka_unit_test(test_memory_refused),
        cmocka_unit_test(test_output_path_too_long),
        cmocka_unit_test(test_http_input),
        cmocka_unit_test(test_rtsp_input),
        cmocka_unit_test(test_jobs),
        cmocka_unit_test(test_jobs_worker_killed),
        cmocka_unit_test(test_jobs_per_usable_cpu),
        cmocka_unit_test(test_folder_inputs),
        cmocka_unit_test(test_skip_and_only),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_time_origin),
        cmocka_unit_test(test_time_origin_file),
        cmocka_unit_test(test_max_latency_option),
        cmocka_unit_test(test_cut_stdin_and_raw),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_cut_channel_map),
        cmocka_unit_test(test_cut_telephony),
        cmocka_unit_test(test_interrupt_ends_live_input),
        cmocka_unit_test(test_fd_file_not_live),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_output_files),
        cmocka_unit_test(test_output_descriptors),
        cmocka_unit_test(test_output_shared_folder),
        cmocka_unit_test(test_output_tmp_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
