/* Scoring label files (sl_score_manifest, `seqlabel eval --hyp`) against
 * hand-computed confusion matrices: the frame rule (a frame takes the class of
 * the segment holding its centre), the collar, the class of uncovered time,
 * a UEM file's scoring regions, the ways a hypothesis is found (a folder of Audacity, TextGrid, JSON Lines or
 * WebVTT files, one RTTM file for every entry, x.rttm#class) and one two entries would share, a
 * file at another rate counted as the labeler counts it, the errors, and a
 * threshold sweep's figures. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sndfile.h>

#include "seqlabel.h"
#include "common/text.h"
#include "trainer_test_util.h"

static const char *const classes[3] = {"speech", "music", "silence"};

/* dir/name: `seconds` of a quiet sine at `rate` (what it sounds like does not
 * matter here, only its length). */
static void write_audio(const char *dir, const char *name, double seconds, int rate)
{
    SF_INFO info = {.samplerate = rate, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *f = sf_open(tt_path(dir, name), SFM_WRITE, &info);
    assert_non_null(f);
    int64_t n = (int64_t)llround(seconds * rate);
    for (int64_t i = 0; i < n; i++) {
        float x = 0.1f * sinf(0.05f * (float)i);
        assert_int_equal(sf_writef_float(f, &x, 1), 1);
    }
    sf_close(f);
}

/* sl_eval_options.hyp_root of the calls below (a test sets it and clears it) */
static const char *hyp_root;

/* Scores and checks the confusion matrix (row-major, 3 x 3) and frame count;
 * returns the call's result when it fails (err holds the message). */
static int score_in(const char *dir, const char *manifest, const char *hyp, double collar,
                    int gap, const char *uem, const int64_t *want, char *err, size_t errlen)
{
    sl_metrics mt;
    assert_int_equal(sl_metrics_init(&mt, 3), 0);
    sl_eval_options opt;
    sl_eval_options_default(&opt);
    opt.collar_s = collar;
    opt.gap_class = gap;
    opt.uem = uem;
    opt.hyp_root = hyp_root;
    int rc = sl_score_manifest(tt_path(dir, manifest), hyp, classes, 3, &opt, &mt, err, errlen);
    if (rc == 0) {
        int64_t total = 0;
        for (int k = 0; k < 9; k++) {
            if (mt.confusion[k] != want[k])
                fail_msg("confusion[%d][%d] = %lld, want %lld", k / 3, k % 3,
                         (long long)mt.confusion[k], (long long)want[k]);
            total += want[k];
        }
        assert_int_equal(mt.frames, total);
        assert_int_equal(mt.no_loss, 1);
    }
    sl_metrics_free(&mt);
    return rc;
}

static int score(const char *dir, const char *manifest, const char *hyp, double collar, int gap,
                 const int64_t *want, char *err, size_t errlen)
{
    return score_in(dir, manifest, hyp, collar, gap, NULL, want, err, errlen);
}

static void test_frames_and_collar(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    tt_mkdtemp(dir, sizeof dir, "score");
    /* 1 s at 16 kHz: 1 + (16000 - 400) / 160 = 98 frames, centres 0.005 + 0.01 i */
    write_audio(dir, "a.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "a.ref.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.ref.txt\n");
    mkdir(tt_path(dir, "hyp"), 0755);
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0\t0.4\tspeech\n0.4\t1.0\tmusic\n");
    /* frames 0-39 speech as speech, 40-49 speech as music, 50-97 music */
    const int64_t plain[9] = {40, 10, 0, 0, 48, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, plain, err, sizeof err), 0);
    /* collar 0.05 s = 5 frames around the change at 0.5 s: centres 0.445-0.545
     * (frames 45-54) not scored */
    const int64_t collar[9] = {40, 5, 0, 0, 43, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0.05, -1, collar, err, sizeof err), 0);

    /* a VAD's output: speech only; the rest is the gap's class */
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0.2\t0.4\tspeech\n");
    const int64_t gap[9] = {20, 0, 30, 0, 0, 48, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, 2, gap, err, sizeof err), 0);
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, gap, err, sizeof err), 0);
    assert_non_null(strstr(err, "hyp/a.txt: no label at 0.005 s of"));

    /* a TextGrid in the folder (empty intervals label nothing: the gap's class) */
    remove(tt_path(dir, "hyp/a.txt"));
    tt_write_text(tt_path(dir, "hyp/a.TextGrid"),
                  "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\nxmin = 0\nxmax = 1\n"
                  "tiers? <exists>\nsize = 1\nitem []:\n    item [1]:\n        class = \"IntervalTier\"\n"
                  "        name = \"x\"\n        xmin = 0\n        xmax = 1\n        intervals: size = 2\n"
                  "        intervals [1]:\n            xmin = 0\n            xmax = 0.3\n"
                  "            text = \"music\"\n        intervals [2]:\n            xmin = 0.3\n"
                  "            xmax = 1\n            text = \"\"\n");
    const int64_t tg[9] = {0, 30, 20, 0, 0, 48, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, 2, tg, err, sizeof err), 0);
    /* two hypotheses of one name: which one is meant is asked, not guessed */
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0\t1.0\tspeech\n");
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, 2, tg, err, sizeof err), 0);
    if (!strstr(err, "two hypotheses for") || !strstr(err, "hyp/a.txt and ") ||
        !strstr(err, "hyp/a.TextGrid: keep the one meant"))
        fail_msg("%s", err);
    remove(tt_path(dir, "hyp/a.TextGrid"));

    /* found by its path below the manifest's folder, before its name alone:
     * a tree mirrored by seqlabel label -o DIR/ */
    mkdir(tt_path(dir, "hyp/deep"), 0755);
    tt_write_text(tt_path(dir, "hyp/deep/a.txt"), "0\t1.0\tmusic\n");
    mkdir(tt_path(dir, "deep"), 0755);
    {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, "a.wav"));
        assert_int_equal(link(from, tt_path(dir, "deep/a.wav")), 0);
    }
    tt_write_text(tt_path(dir, "deep.tsv"), "deep/a.wav\ta.ref.txt\n");
    const int64_t deep[9] = {0, 50, 0, 0, 48, 0, 0, 0, 0}; /* hyp/deep/a.txt: all music */
    assert_int_equal(score(dir, "deep.tsv", tt_path(dir, "hyp"), 0, -1, deep, err, sizeof err), 0);
    remove(tt_path(dir, "hyp/deep/a.txt"));
    const int64_t flat[9] = {50, 0, 0, 48, 0, 0, 0, 0, 0}; /* hyp/a.txt: all speech */
    assert_int_equal(score(dir, "deep.tsv", tt_path(dir, "hyp"), 0, -1, flat, err, sizeof err), 0);
    /* an extension in capitals is found too */
    {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, "hyp/a.txt"));
        assert_int_equal(rename(from, tt_path(dir, "hyp/a.TXT")), 0);
    }
    assert_int_equal(score(dir, "deep.tsv", tt_path(dir, "hyp"), 0, -1, flat, err, sizeof err), 0);
    remove(tt_path(dir, "hyp/a.TXT"));
    /* audio beside the manifest's folder (sets/up.tsv: ../corpus/a.wav, its
     * reference ../corpus/a.txt): found by its path past the `..`, never as
     * hyp/../corpus/a.txt, the reference itself (which scored a perfect 1.0) */
    mkdir(tt_path(dir, "sets"), 0755);
    mkdir(tt_path(dir, "corpus"), 0755);
    mkdir(tt_path(dir, "hyp/corpus"), 0755);
    {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, "a.wav"));
        assert_int_equal(link(from, tt_path(dir, "corpus/a.wav")), 0);
    }
    tt_write_text(tt_path(dir, "corpus/a.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "sets/up.tsv"), "../corpus/a.wav\t../corpus/a.txt\n");
    tt_write_text(tt_path(dir, "hyp/corpus/a.txt"), "0\t1.0\tspeech\n");
    assert_int_equal(score(dir, "sets/up.tsv", tt_path(dir, "hyp"), 0, -1, flat, err, sizeof err),
                     0);
    remove(tt_path(dir, "hyp/corpus/a.txt"));
    assert_int_not_equal(score(dir, "sets/up.tsv", tt_path(dir, "hyp"), 0, -1, flat, err,
                               sizeof err), 0);
    assert_non_null(strstr(err, "no hypothesis for"));
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0\t1.0\tspeech\n"); /* by its name alone */
    assert_int_equal(score(dir, "sets/up.tsv", tt_path(dir, "hyp"), 0, -1, flat, err, sizeof err),
                     0);
    remove(tt_path(dir, "hyp/a.txt"));

    /* no hypothesis for an entry; a class outside the list */
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, 2, tg, err, sizeof err), 0);
    assert_non_null(strstr(err, "no hypothesis for"));
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0\t1\tbird\n");
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, 2, tg, err, sizeof err), 0);
    assert_non_null(strstr(err, "hyp/a.txt:1: unknown class 'bird'"));
    tt_rmtree(dir);
}

/* A UEM file's regions: only frames whose centre lies in one are scored, the
 * onset in and the offset out; regions may overlap; the collar comes from the
 * reference's changes alone, not the regions' edges. */
static void test_uem(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    tt_mkdtemp(dir, sizeof dir, "score-uem");
    write_audio(dir, "a.wav", 1.0, 16000); /* 98 frames, centres 0.005 + 0.01 i */
    write_audio(dir, "b.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "a.ref.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.ref.txt\n");
    mkdir(tt_path(dir, "hyp"), 0755);
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0\t0.4\tspeech\n0.4\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "hyp/b.txt"), "0\t1.0\tmusic\n");
    char hyp[600], uem[600];
    snprintf(hyp, sizeof hyp, "%s", tt_path(dir, "hyp"));
    snprintf(uem, sizeof uem, "%s", tt_path(dir, "set.uem"));
    /* [0.305, 0.445): centres 0.305 (frame 30) to 0.435 (43), as doubles the
     * very numbers the bounds read; [0.6, 0.8) and [0.65, 0.7) within it:
     * frames 60-79; b's line is another file's */
    tt_write_text(uem, ";; scoring regions\na 1 0.305 0.445\r\nb 1 0 1\na\t1\t0.6\t0.8\n"
                       "a 1 0.65 0.7\n");
    /* 30-39 speech as speech, 40-43 speech as music, 60-79 music as music */
    const int64_t regions[9] = {10, 4, 0, 0, 20, 0, 0, 0, 0};
    assert_int_equal(score_in(dir, "set.tsv", hyp, 0, -1, uem, regions, err, sizeof err), 0);
    /* collar 0.05 s around the change at 0.5 s leaves out frames 45-54; the
     * region [0.3, 0.6) gives 30-44 and 55-59, none lost to its own edges */
    tt_write_text(uem, "a 1 0.3 0.6\n");
    const int64_t collar[9] = {10, 5, 0, 0, 5, 0, 0, 0, 0};
    assert_int_equal(score_in(dir, "set.tsv", hyp, 0.05, -1, uem, collar, err, sizeof err), 0);

    /* a file without a region, named with the manifest's line; bad lines */
    tt_write_text(tt_path(dir, "two.tsv"), "a.wav\ta.ref.txt\nb.wav\ta.ref.txt\n");
    assert_int_not_equal(score_in(dir, "two.tsv", hyp, 0, -1, uem, collar, err, sizeof err), 0);
    if (!strstr(err, "two.tsv:2: ") || !strstr(err, "set.uem: no region for ") ||
        !strstr(err, "b.wav (file id 'b'"))
        fail_msg("%s", err);
    const char *bad[3][2] = {{"a 1 0.3\n", "set.uem:1: expected <file-id> <channel> <onset> <offset>"},
                             {"a 1 0.5 0.3\n", "set.uem:1: the region ends (0.3) before it begins (0.5)"},
                             {";; none\n", "set.uem: holds no region"}};
    for (int i = 0; i < 3; i++) {
        tt_write_text(uem, bad[i][0]);
        assert_int_not_equal(score_in(dir, "set.tsv", hyp, 0, -1, uem, collar, err, sizeof err), 0);
        if (!strstr(err, bad[i][1]))
            fail_msg("%s: %s", bad[i][0], err);
    }
    /* regions that hold no frame leave nothing to score */
    tt_write_text(uem, "a 1 0.3 0.304\n");
    assert_int_not_equal(score_in(dir, "set.tsv", hyp, 0, -1, uem, collar, err, sizeof err), 0);
    if (!strstr(err, "no frame is scored"))
        fail_msg("%s", err);
    /* events cannot be cropped to regions: refused */
    tt_write_text(uem, "a 1 0.3 0.6\n");
    sl_metrics mt;
    assert_int_equal(sl_metrics_init(&mt, 3), 0);
    sl_events ev;
    sl_events_init(&ev, 3, 20, 100);
    sl_eval_options opt;
    sl_eval_options_default(&opt);
    opt.uem = uem;
    opt.events = &ev;
    assert_int_not_equal(sl_score_manifest(tt_path(dir, "set.tsv"), hyp, classes, 3, &opt, &mt,
                                           err, sizeof err), 0);
    assert_non_null(strstr(err, "set.uem: a UEM file's regions apply to frame figures"));
    sl_metrics_free(&mt);
    tt_rmtree(dir);
}

/* `seqlabel eval ARGS` in dir: its exit status, standard output in *out and
 * standard error in *err (malloc'ed). */
static int eval_in(const char *dir, const char *args, char **out, char **err)
{
    char cmd[4096], out_path[600];
    snprintf(out_path, sizeof out_path, "%s", tt_path(dir, "eval-out.txt"));
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' eval %s > '%s'", dir, getenv("SL_SEQLABEL"), args,
             out_path);
    int rc = tt_run(cmd, err);
    *out = tt_read_file(out_path, NULL);
    assert_non_null(*out);
    return rc;
}

/* Speech-only references and hypotheses (VAD RTTM files), each gap given a
 * class by name, one the references lack (listed with --classes; without, a
 * misspelling is refused, the way named): the references' non-speech is
 * scored, its false alarms counted as md-eval counts them. References: speech
 * [0.2, 0.5): frames 20-49; hypothesis: speech [0, 0.5): frames 0-49. */
static void test_gaps_by_name(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "score-gaps");
    write_audio(dir, "a.wav", 1.0, 16000); /* 98 frames */
    tt_write_text(tt_path(dir, "ref.rttm"), "SPEAKER a 1 0.2 0.3 <NA> <NA> x <NA> <NA>\n");
    tt_write_text(tt_path(dir, "hyp.rttm"), "SPEAKER a 1 0 0.5 <NA> <NA> y <NA> <NA>\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\tref.rttm#speech\n");
    char *out = NULL, *err = NULL;
    /* 30 speech as speech; 20 non-speech called speech, 48 not */
    assert_int_equal(eval_in(dir, "--hyp 'hyp.rttm#speech' --manifest set.tsv --hyp-gap "
                                  "nonspeech --ref-gap nonspeech --classes speech,nonspeech "
                                  "--json", &out, &err), 0);
    if (!strstr(out, "{\"frames\":98,") || !strstr(out, "\"confusion\":[[30,0],[20,48]]}"))
        fail_msg("%s", out);
    free(out), free(err);
    /* the same, the files' own names holding a '#' (their turns named speech) */
    tt_write_text(tt_path(dir, "ref#1.rttm"), "SPEAKER a 1 0.2 0.3 <NA> <NA> speech <NA> <NA>\n");
    tt_write_text(tt_path(dir, "hyp#1.rttm"), "SPEAKER a 1 0 0.5 <NA> <NA> speech <NA> <NA>\n");
    tt_write_text(tt_path(dir, "set#1.tsv"), "a.wav\tref#1.rttm\n");
    assert_int_equal(eval_in(dir, "--hyp 'hyp#1.rttm' --manifest 'set#1.tsv' --hyp-gap "
                                  "nonspeech --ref-gap nonspeech --classes speech,nonspeech "
                                  "--json", &out, &err), 0);
    if (!strstr(out, "{\"frames\":98,") || !strstr(out, "\"confusion\":[[30,0],[20,48]]}"))
        fail_msg("%s", out);
    free(out), free(err);
    assert_int_equal(eval_in(dir, "--hyp 'hyp.rttm#speech' --manifest set.tsv --hyp-gap "
                                  "nonspeech --ref-gap nonspeech", &out, &err), 2);
    if (!strstr(err, "--hyp-gap: 'nonspeech' is not one of the classes the references name "
                     "(speech); to score it as one of its own, list them all: --classes "
                     "speech,nonspeech"))
        fail_msg("%s", err);
    free(out), free(err);
    /* without --ref-gap the references' speech alone is scored */
    assert_int_equal(eval_in(dir, "--hyp 'hyp.rttm#speech' --manifest set.tsv --hyp-gap "
                                  "nonspeech --classes speech,nonspeech --json", &out, &err), 0);
    if (!strstr(out, "{\"frames\":30,") || !strstr(out, "\"confusion\":[[30,0],[0,0]]}"))
        fail_msg("%s", out);
    free(out), free(err);
    /* a hypothesis's class the references lack: refused, the way out named */
    assert_int_equal(eval_in(dir, "--hyp hyp.rttm --manifest set.tsv", &out, &err), 1);
    if (!strstr(err, "unknown class 'y'") || !strstr(err, "--classes names every class"))
        fail_msg("%s", err);
    free(out), free(err);
    /* a file the UEM's regions leave no frame: no figures ('-', null), listed
     * last, not as the worst */
    write_audio(dir, "b.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "two.tsv"), "b.wav\tref.rttm#speech\na.wav\tref.rttm#speech\n");
    tt_write_text(tt_path(dir, "hyp2.rttm"), "SPEAKER a 1 0 0.5 <NA> <NA> y <NA> <NA>\n"
                                             "SPEAKER b 1 0 0.5 <NA> <NA> y <NA> <NA>\n");
    tt_write_text(tt_path(dir, "two.uem"), "a 1 0 1\nb 1 0.3 0.304\n");
    const char *args = "--hyp 'hyp2.rttm#speech' --manifest two.tsv --uem two.uem --per-file "
                       "--hyp-gap nonspeech --classes speech,nonspeech";
    char with_json[512];
    snprintf(with_json, sizeof with_json, "%s --json", args);
    assert_int_equal(eval_in(dir, with_json, &out, &err), 0);
    if (!strstr(out, "b.wav\",\"frames\":0,\"loss\":null,\"accuracy\":null,\"macro_f1\":null,"))
        fail_msg("%s", out);
    free(out), free(err);
    assert_int_equal(eval_in(dir, args, &out, &err), 0);
    const char *rows = strstr(out, "files, the worst first:\n");
    if (!rows || !strstr(rows, "a.wav\n") || !strstr(strstr(rows, "a.wav\n"), "        -         - "))
        fail_msg("%s", out);
    free(out), free(err);
    /* a split that selects no line: said as such, with or without --classes,
     * and named as a manifest may name it (dev: valid) */
    for (int c = 0; c < 3; c++) {
        char args[256];
        snprintf(args, sizeof args, "--hyp 'hyp.rttm#speech' --manifest set.tsv --split %s%s",
                 c == 2 ? "dev" : "test", c ? " --classes speech" : "");
        assert_int_equal(eval_in(dir, args, &out, &err), 1);
        if (!strstr(err, "set.tsv: no entries to evaluate"))
            fail_msg("%s", err);
        free(out), free(err);
    }
    assert_int_equal(eval_in(dir, "--hyp 'hyp.rttm#speech' --manifest set.tsv --split holdout",
                             &out, &err), 2);
    if (!strstr(err, "--split: 'holdout' is not train, valid or test (or validation, val or dev "
                     "for valid)"))
        fail_msg("%s", err);
    free(out), free(err);
    /* --split train takes what training trains on: lines without a split too */
    assert_int_equal(eval_in(dir, "--hyp 'hyp.rttm#speech' --manifest set.tsv --split train "
                                  "--hyp-gap nonspeech --classes speech,nonspeech --json",
                             &out, &err), 0);
    if (!strstr(out, "{\"frames\":30,"))
        fail_msg("%s", out);
    free(out), free(err);
    tt_rmtree(dir);
}

/* Time the references leave unlabelled is not scored, as events either: a
 * hypothesis event there (3-4 s) is no insertion; with --ref-gap it is time
 * of that class, and the event is one. */
static void test_events_in_unlabelled_time(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "score-ev-gap");
    write_audio(dir, "a.wav", 5.0, 16000);
    tt_write_text(tt_path(dir, "a.txt"), "0\t2\tspeech\n");
    mkdir(tt_path(dir, "h"), 0755);
    tt_write_text(tt_path(dir, "h/a.txt"), "0\t2\tspeech\n3\t4\tspeech\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.txt\n");
    char *out, *err;
    assert_int_equal(eval_in(dir, "--hyp h --manifest set.tsv --events all --json", &out, &err), 0);
    if (!strstr(out, "\"insertion_rate\":0,\"reference\":1,\"system\":1}"))
        fail_msg("%s", out);
    free(out), free(err);
    assert_int_equal(eval_in(dir, "--hyp h --manifest set.tsv --events speech --json --ref-gap "
                                  "nonspeech --hyp-gap nonspeech --classes speech,nonspeech",
                             &out, &err), 0);
    if (!strstr(out, "\"insertion_rate\":1,\"reference\":1,\"system\":2}"))
        fail_msg("%s", out);
    free(out), free(err);
    /* an event across unlabelled time is cut there, as the references' are:
     * 1-2.35 s against a dog of 1-2 s and a gap to 2.3 s is a match and the
     * 50 ms after the gap an insertion (docs/training.md); with the gap given
     * a class, one event, 0.35 s late, within half the reference's length */
    tt_write_text(tt_path(dir, "a.txt"), "0\t1\tbg\n1\t2\tdog\n2.3\t5\tbg\n");
    tt_write_text(tt_path(dir, "h/a.txt"), "0\t1\tbg\n1\t2.35\tdog\n2.35\t5\tbg\n");
    assert_int_equal(eval_in(dir, "--hyp h --manifest set.tsv --events dog --json", &out, &err), 0);
    if (!strstr(out, "\"deletion_rate\":0,\"insertion_rate\":1,\"reference\":1,\"system\":2}"))
        fail_msg("%s", out);
    free(out), free(err);
    assert_int_equal(eval_in(dir, "--hyp h --manifest set.tsv --events dog --json --ref-gap bg",
                             &out, &err), 0);
    if (!strstr(out, "\"deletion_rate\":0,\"insertion_rate\":0,\"reference\":1,\"system\":1}"))
        fail_msg("%s", out);
    free(out), free(err);
    tt_rmtree(dir);
}

/* A text whose length passes INT_MAX is said as such (SL_TEXT_TOO_LONG), not
 * given as a wrapped int: a TextGrid of 20 million intervals came back as
 * -1778300118, of 40 million as a short positive length, written cut short.
 * (The library's writers return what sl_text_finish says.) */
static void test_text_past_int_max(void **state)
{
    (void)state;
    sl_text t = {NULL, 0, (size_t)INT_MAX};
    assert_int_equal(sl_text_finish(&t), INT_MAX);
    t.pos = (size_t)INT_MAX + 1;
    assert_int_equal(sl_text_finish(&t), SL_TEXT_TOO_LONG);
    t.pos = ((size_t)1 << 32) + 771699882; /* 40 million intervals' wrap */
    assert_int_equal(sl_text_finish(&t), SL_TEXT_TOO_LONG);
}

/* Class names in UTF-8 keep the text tables in line: a field is filled to its
 * width in terminal columns (a CJK character two, a Cyrillic one one), not in
 * bytes, and a name over its confusion column is cut between characters. */
static void test_utf8_columns(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "score-utf8");
    write_audio(dir, "a.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "a.txt"), "0\t0.5\t風\n0.5\t1.0\tдлинноеимякласса\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.txt\n");
    char *out = NULL, *err = NULL;
    assert_int_equal(eval_in(dir, "--hyp a.txt --manifest set.tsv", &out, &err), 0);
    /* 16 columns, then the figures: 風 (2 columns) and 14 spaces */
    if (!strstr(out, "\n風                  1.0000    1.0000    1.0000         50\n") ||
        !strstr(out, "\nдлинноеимякласса    1.0000    1.0000    1.0000         48\n") ||
        /* the confusion's header: 10 columns each, right-aligned, the long name cut */
        !strstr(out, "\n                         風 длинноеимя\n") ||
        !strstr(out, "\n風                       50          0\n"))
        fail_msg("%s", out);
    free(out), free(err);
    tt_rmtree(dir);
}

typedef struct {
    int n;
    char audio[4][600];
    int64_t frames[4], right[4];
} per_file;

static void on_file(void *user, const sl_metrics *file)
{
    per_file *pf = user;
    assert_true(pf->n < 4);
    snprintf(pf->audio[pf->n], sizeof pf->audio[0], "%s", file->audio);
    pf->frames[pf->n] = file->frames;
    pf->right[pf->n] = file->confusion[0] + file->confusion[4] + file->confusion[8];
    pf->n++;
}

/* One RTTM file for two entries, found by the audio's name (each file's own
 * figures to a callback too); x.rttm#speech takes every turn as speech. */
static void test_rttm(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN], path[600];
    tt_mkdtemp(dir, sizeof dir, "score-rttm");
    write_audio(dir, "a.wav", 1.0, 16000);
    write_audio(dir, "b.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "all.txt"), "0\t1.0\tspeech\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\tall.txt\nb.wav\tall.txt\n");
    tt_write_text(tt_path(dir, "h.rttm"),
                  "SPEAKER b 1 0.000 0.600 <NA> <NA> music <NA> <NA>\n"
                  "SPEAKER a 1 0.000 1.000 <NA> <NA> speech <NA> <NA>\n"
                  "SPEAKER b 1 0.600 0.400 <NA> <NA> speech <NA> <NA>\n");
    /* a: 98 speech; b: frames 0-59 music, 60-97 speech */
    const int64_t want[9] = {98 + 38, 60, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "h.rttm"), 0, -1, want, err, sizeof err), 0);
    /* another tool's references may name a class as no new model may ("dog
     * bark", AudioSet's "Male speech, man speaking"): eval reads them */
    tt_write_text(tt_path(dir, "bark.txt"), "0\t0.5\tdog bark\n0.5\t1.0\tMale speech, man speaking\n");
    tt_write_text(tt_path(dir, "bark.tsv"), "a.wav\tbark.txt\n");
    {
        char *found[SL_MAX_CLASSES];
        int nf = 0;
        if (sl_manifest_classes(tt_path(dir, "bark.tsv"), SL_SPLIT_NONE, found, &nf, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(nf, 2);
        assert_string_equal(found[0], "dog bark");
        assert_string_equal(found[1], "Male speech, man speaking");
        /* and an RTTM file written for such classes (an older model's labels,
         * whitespace as '_') is read back as them */
        tt_write_text(tt_path(dir, "bark.rttm"),
                      "SPEAKER a 1 0.000 0.500 <NA> <NA> dog_bark <NA> <NA>\n"
                      "SPEAKER a 1 0.500 0.500 <NA> <NA> Male_speech,_man_speaking <NA> <NA>\n");
        sl_metrics bm;
        assert_int_equal(sl_metrics_init(&bm, 2), 0);
        sl_eval_options bo;
        sl_eval_options_default(&bo);
        if (sl_score_manifest(tt_path(dir, "bark.tsv"), tt_path(dir, "bark.rttm"),
                              (const char *const *)found, 2, &bo, &bm, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(bm.confusion[1] + bm.confusion[2], 0); /* every frame right */
        assert_true(bm.confusion[0] > 40 && bm.confusion[3] > 40);
        sl_metrics_free(&bm);
        /* but a written form two classes share is named as such, not unknown */
        const char *const twins[2] = {"dog bark", "dog\xc2\xa0" "bark"}; /* a no-break space */
        tt_write_text(tt_path(dir, "twin.txt"), "0\t1.0\tdog bark\n");
        tt_write_text(tt_path(dir, "twin.tsv"), "a.wav\ttwin.txt\n");
        tt_write_text(tt_path(dir, "twin.rttm"), "SPEAKER a 1 0.000 1.000 <NA> <NA> dog_bark <NA> <NA>\n");
        assert_int_equal(sl_metrics_init(&bm, 2), 0);
        assert_int_not_equal(sl_score_manifest(tt_path(dir, "twin.tsv"), tt_path(dir, "twin.rttm"),
                                               twins, 2, &bo, &bm, err, sizeof err), 0);
        if (!strstr(err, "twin.rttm:1: 'dog_bark' is how two classes are written, 'dog bark' and"))
            fail_msg("%s", err);
        sl_metrics_free(&bm);
        free(found[0]);
        free(found[1]);
    }
    /* an audio file's name with a space: its id as the writer makes it, one
     * field (an RTTM file of several ids, so the id must match) */
    write_audio(dir, "c d.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "space.tsv"), "c d.wav\tall.txt\n");
    tt_write_text(tt_path(dir, "space.rttm"), "SPEAKER c_d 1 0.000 1.000 <NA> <NA> speech <NA> <NA>\n"
                                              "SPEAKER a 1 0.000 1.000 <NA> <NA> music <NA> <NA>\n");
    const int64_t c_speech[9] = {98, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(score(dir, "space.tsv", tt_path(dir, "space.rttm"), 0, -1, c_speech, err,
                           sizeof err), 0);
    /* each file's own figures, as they are added up */
    per_file pf = {0};
    sl_metrics mt;
    sl_eval_options opt;
    sl_eval_options_default(&opt);
    opt.on_file = on_file;
    opt.user = &pf;
    assert_int_equal(sl_metrics_init(&mt, 3), 0);
    assert_int_equal(sl_score_manifest(tt_path(dir, "set.tsv"), tt_path(dir, "h.rttm"), classes, 3,
                                       &opt, &mt, err, sizeof err), 0);
    assert_int_equal(pf.n, 2);
    assert_non_null(strstr(pf.audio[0], "/a.wav"));
    assert_non_null(strstr(pf.audio[1], "/b.wav"));
    assert_int_equal(pf.right[0], 98);
    assert_int_equal(pf.frames[0], 98);
    assert_int_equal(pf.right[1], 38);
    assert_int_equal(pf.frames[1], 98);
    sl_metrics_free(&mt);
    snprintf(path, sizeof path, "%s#speech", tt_path(dir, "h.rttm"));
    const int64_t all_speech[9] = {196, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", path, 0, -1, all_speech, err, sizeof err), 0);
    /* A VAD's one file for the set leaves out a file where it found no speech:
     * with the class of uncovered time (silence) that file is all of it; without
     * one it is uncovered time, an error. Its lines go by file id alone: b's are
     * not a's, though they are the only ones. */
    tt_write_text(tt_path(dir, "vad.rttm"), "SPEAKER b 1 0.600 0.400 <NA> <NA> speech <NA> <NA>\n");
    const int64_t b_speech[9] = {38, 0, 98 + 60, 0, 0, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "vad.rttm"), 0, 2, b_speech, err,
                           sizeof err), 0);
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "vad.rttm"), 0, -1, b_speech, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "vad.rttm: no label at 0.005 s of"));
    assert_non_null(strstr(err, "a.wav"));
    /* one that names none of the set's files is refused, gap class or not */
    tt_write_text(tt_path(dir, "other.rttm"), "SPEAKER c 1 0.000 1.000 <NA> <NA> speech <NA> <NA>\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "other.rttm"), 0, 2, b_speech, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "other.rttm: labels none of the set's files"));
    /* so too for a set of one file: another file's lines are not its own */
    tt_write_text(tt_path(dir, "one.tsv"), "a.wav\tall.txt\n");
    assert_int_equal(score(dir, "one.tsv", tt_path(dir, "other.rttm"), 0, 2, b_speech, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "other.rttm: labels none of the set's files"));
    tt_rmtree(dir);
}

/* dir/a/x.wav, b/x.wav and c/y.wav (1 s, 98 frames each), their references
 * (a: 50 frames speech, 48 music; b: music; y: speech) and set.tsv of the three:
 * one name (x) in two folders. */
static void one_name_in_two_folders(const char *dir)
{
    mkdir(tt_path(dir, "a"), 0755);
    mkdir(tt_path(dir, "b"), 0755);
    mkdir(tt_path(dir, "c"), 0755);
    write_audio(dir, "a/x.wav", 1.0, 16000); /* 98 frames each */
    write_audio(dir, "b/x.wav", 1.0, 16000);
    write_audio(dir, "c/y.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "a/x.ref"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "b/x.ref"), "0\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "c/y.ref"), "0\t1.0\tspeech\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a/x.wav\ta/x.ref\nb/x.wav\tb/x.ref\nc/y.wav\tc/y.ref\n");
}

/* Two entries whose audio has one name in two folders (a/x.wav, b/x.wav) have
 * one RTTM file id and one hypothesis found by name alone: each would be scored
 * against the other's labels, so that is refused, naming the manifest, both
 * lines and the id or file. An id the RTTM file never names, a mirrored folder,
 * and one audio listed twice are no such thing, and are scored. */
static void test_one_name_two_entries(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN], want_err[2600];
    tt_mkdtemp(dir, sizeof dir, "score-dup");
    one_name_in_two_folders(dir);
    /* a's turns, exactly right for a: b would take them too (its first 50 frames
     * music as speech) */
    tt_write_text(tt_path(dir, "h.rttm"),
                  "SPEAKER x 1 0.000 0.500 <NA> <NA> speech <NA> <NA>\n"
                  "SPEAKER x 1 0.500 0.500 <NA> <NA> music <NA> <NA>\n"
                  "SPEAKER y 1 0.000 1.000 <NA> <NA> speech <NA> <NA>\n");
    const int64_t right[9] = {50 + 98, 0, 0, 0, 48 + 98, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "h.rttm"), 0, -1, right, err, sizeof err),
                     -1);
    snprintf(want_err, sizeof want_err, "%s/set.tsv: line 1 (%s/a/x.wav) and line 2 (%s/b/x.wav) "
             "would both be scored against the lines of file id 'x' in %s/h.rttm (", dir, dir,
             dir, dir);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* an id the file never names: a VAD's that found nothing in either, each all
     * the gap's class (a's 50 speech and 48 music, b's 98 music as silence) */
    tt_write_text(tt_path(dir, "y.rttm"), "SPEAKER y 1 0.000 1.000 <NA> <NA> speech <NA> <NA>\n");
    const int64_t gap[9] = {98, 0, 50, 0, 0, 48 + 98, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "y.rttm"), 0, 2, gap, err, sizeof err), 0);
    /* one audio listed twice (spelt two ways): its hypothesis is both lines' */
    tt_write_text(tt_path(dir, "twice.tsv"), "a/x.wav\ta/x.ref\na/./x.wav\ta/x.ref\n");
    const int64_t twice[9] = {100, 0, 0, 0, 96, 0, 0, 0, 0};
    assert_int_equal(score(dir, "twice.tsv", tt_path(dir, "h.rttm"), 0, -1, twice, err,
                           sizeof err), 0);
    /* a flat folder: hyp/x.txt is found for both by their name alone */
    mkdir(tt_path(dir, "hyp"), 0755);
    tt_write_text(tt_path(dir, "hyp/x.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "hyp/y.txt"), "0\t1.0\tspeech\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, right, err, sizeof err), -1);
    snprintf(want_err, sizeof want_err, "%s/set.tsv: line 1 (%s/a/x.wav) and line 2 (%s/b/x.wav) "
             "would both be scored against %s/hyp/x.txt, found by their name alone", dir, dir, dir,
             dir);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* mirrored (seqlabel label -o DIR/ on the folder): each its own, every frame right */
    mkdir(tt_path(dir, "hyp/a"), 0755);
    mkdir(tt_path(dir, "hyp/b"), 0755);
    tt_write_text(tt_path(dir, "hyp/a/x.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "hyp/b/x.txt"), "0\t1.0\tmusic\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, right, err, sizeof err), 0);
    /* one reference RTTM for several files goes by file id alone: it names y
     * only, so x has no reference (not scored), not y's turns taken whole;
     * one file however the lines spell it */
    tt_write_text(tt_path(dir, "ref.rttm"), "SPEAKER y 1 0.000 1.000 <NA> <NA> speech <NA> <NA>\n");
    tt_write_text(tt_path(dir, "shared.tsv"), "c/y.wav\tref.rttm\na/x.wav\t./ref.rttm\n");
    char *out = NULL, *eerr = NULL;
    assert_int_equal(eval_in(dir, "--hyp hyp --manifest shared.tsv --classes speech,music --json",
                             &out, &eerr), 0);
    if (!strstr(out, "{\"frames\":98,"))
        fail_msg("%s", out);
    free(out), free(eerr);
    /* and two files of one id there would take the same lines: refused */
    tt_write_text(tt_path(dir, "same-id.tsv"), "a/x.wav\tref.rttm\nb/x.wav\ta/../ref.rttm\n");
    assert_int_equal(eval_in(dir, "--hyp hyp --manifest same-id.tsv --classes speech,music",
                             &out, &eerr), 1);
    if (!strstr(eerr, "same-id.tsv: lines 1 (a/x.wav) and 2 (b/x.wav) would both take the lines "
                      "of file id 'x' in ref.rttm"))
        fail_msg("%s", eerr);
    free(out), free(eerr);
    /* so would they a UEM file's regions for x */
    tt_write_text(tt_path(dir, "x.uem"), "x 1 0 1\ny 1 0 1\n");
    assert_int_equal(eval_in(dir, "--hyp hyp --manifest set.tsv --uem x.uem", &out, &eerr), 1);
    if (!strstr(eerr, "x.uem: a/x.wav and b/x.wav would both take the regions of file id 'x'"))
        fail_msg("%s", eerr);
    free(out), free(eerr);
    /* no hypothesis: every name it looked for is said */
    mkdir(tt_path(dir, "none"), 0755);
    assert_int_equal(eval_in(dir, "--hyp none --manifest set.tsv", &out, &eerr), 1);
    if (!strstr(eerr, "none: no hypothesis for a/x.wav (looked for a/x.txt, .TextGrid, .rttm, "
                      ".vtt, .srt, .jsonl, .csv and .tsv there, and for the same of its end, "
                      "down to x.*)"))
        fail_msg("%s", eerr);
    free(out), free(eerr);
    tt_rmtree(dir);
}

static int count_frame(void *user, int64_t index, int label, float confidence, const float *probs,
                       int n_classes)
{
    (void)index, (void)label, (void)confidence, (void)probs, (void)n_classes;
    (*(int64_t *)user)++;
    return 0;
}

/* A file at 22.05 kHz is scored on the frames the labeler gives it after
 * resampling (counted here by labelling it). */
/* One CSV or JSON Lines stream for the set, as `seqlabel label DIR` writes
 * several inputs to its standard output (a file column: each input's path
 * below DIR without extension), read once with DIR given (--hyp-root): each
 * file of the set takes the rows of its path below DIR, and none where it has
 * none (a VAD's that found nothing); rows of files outside the set are passed
 * over; a file outside DIR is refused. Without DIR such a file is refused for
 * a set of several: its names alone cannot tell a/x.wav given alone from a
 * folder's x.wav. A stream of frames, or a line without a name among named
 * ones, is refused. */
static void test_streams_of_several_inputs(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN], want_err[2600], sub[600];
    tt_mkdtemp(dir, sizeof dir, "score-stream");
    hyp_root = dir;
    one_name_in_two_folders(dir);
    write_audio(dir, "x.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "x.ref"), "0\t1.0\tsilence\n");
    /* a: all speech (48 music frames wrong), b: right, y: right; rows of x
     * (x.wav, outside the set) first; the columns in another order */
    tt_write_text(tt_path(dir, "h.csv"),
                  "label,start,end,file,confidence\n"
                  "silence,0,1,x,0.9\n"
                  "speech,0,1,a/x,0.9\n"
                  "music,0,1,b/x,0.9\n"
                  "speech,0,1,c/y,0.9\n");
    const int64_t by_file[9] = {50 + 98, 0, 0, 48, 98, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "h.csv"), 0, -1, by_file, err, sizeof err),
                     0);
    tt_write_text(tt_path(dir, "h.jsonl"),
                  "{\"file\":\"x\",\"start\":0,\"end\":1,\"label\":\"silence\"}\n"
                  "{\"file\":\"a/x\",\"start\":0,\"end\":1,\"label\":\"speech\"}\n"
                  "{\"file\":\"b/x\",\"start\":0,\"end\":1,\"label\":\"music\"}\n"
                  "{\"file\":\"c/y\",\"start\":0,\"end\":1,\"label\":\"speech\"}\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "h.jsonl"), 0, -1, by_file, err,
                           sizeof err), 0);
    /* x.wav in the set too: x's rows are its own (all 98 silence frames right) */
    tt_write_text(tt_path(dir, "all.tsv"),
                  "a/x.wav\ta/x.ref\nb/x.wav\tb/x.ref\nc/y.wav\tc/y.ref\nx.wav\tx.ref\n");
    const int64_t with_x[9] = {50 + 98, 0, 0, 48, 98, 0, 0, 0, 98};
    assert_int_equal(score(dir, "all.tsv", tt_path(dir, "h.csv"), 0, -1, with_x, err, sizeof err),
                     0);
    /* a VAD's stream, where a/x and b/x had no speech and so no rows: they
     * are all silence, the gap's class, whether x.wav is in the set or not
     * (a/x's 50 speech frames wrong; x.wav's 98 silence ones too) */
    tt_write_text(tt_path(dir, "vad.csv"),
                  "file,start,end,label\nx,0,1,speech\nc/y,0,1,speech\n");
    const int64_t vad_all[9] = {98, 0, 50, 0, 0, 48 + 98, 98, 0, 0};
    assert_int_equal(score(dir, "all.tsv", tt_path(dir, "vad.csv"), 0, 2, vad_all, err,
                           sizeof err), 0);
    const int64_t vad[9] = {98, 0, 50, 0, 0, 48 + 98, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "vad.csv"), 0, 2, vad, err, sizeof err),
                     0);
    /* paths spelt otherwise in the manifest are the same files */
    mkdir(tt_path(dir, "a/b"), 0755);
    tt_write_text(tt_path(dir, "spelt.tsv"), "a//x.wav\ta/x.ref\n./b/./x.wav\tb/x.ref\n"
                                             "c/../c/y.wav\tc/y.ref\na/b/../../c/y.wav\tc/y.ref\n");
    const int64_t spelt[9] = {50 + 98 + 98, 0, 0, 48, 98, 0, 0, 0, 0}; /* y twice */
    assert_int_equal(score(dir, "spelt.tsv", tt_path(dir, "h.csv"), 0, -1, spelt, err,
                           sizeof err), 0);
    /* the folder labelled below the manifest's (c/: y), or where the manifest
     * lies below it (the same rows from a manifest in c/) */
    snprintf(sub, sizeof sub, "%s/c", dir);
    hyp_root = sub;
    tt_write_text(tt_path(dir, "y.tsv"), "c/y.wav\tc/y.ref\n");
    tt_write_text(tt_path(dir, "c/y.tsv"), "y.wav\ty.ref\n");
    tt_write_text(tt_path(dir, "alone.csv"), "file,start,end,label\ny,0,1,speech\n");
    const int64_t y_right[9] = {98, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(score(dir, "y.tsv", tt_path(dir, "alone.csv"), 0, -1, y_right, err,
                           sizeof err), 0);
    assert_int_equal(score(dir, "c/y.tsv", tt_path(dir, "alone.csv"), 0, -1, y_right, err,
                           sizeof err), 0);
    hyp_root = dir;
    assert_int_equal(score(dir, "c/y.tsv", tt_path(dir, "h.csv"), 0, -1, y_right, err,
                           sizeof err), 0);
    /* a link farm outside the folder labelled, its links to files in it */
    mkdir(tt_path(dir, "farm"), 0755);
    assert_int_equal(symlink(tt_path(dir, "c/y.wav"), tt_path(dir, "farm/y.wav")), 0);
    tt_write_text(tt_path(dir, "farm.tsv"), "farm/y.wav\tc/y.ref\n");
    hyp_root = sub;
    assert_int_equal(score(dir, "farm.tsv", tt_path(dir, "alone.csv"), 0, -1, y_right, err,
                           sizeof err), 0);
    /* c/y.wav labelled alone (named y) scored as a file of the folder above:
     * no file y.* there, so whose rows y's are is asked, not c/y taken as a
     * VAD's file without rows */
    hyp_root = dir;
    assert_int_equal(score(dir, "y.tsv", tt_path(dir, "alone.csv"), 0, 2, y_right, err,
                           sizeof err), -1);
    snprintf(want_err, sizeof want_err, "%s/alone.csv: rows named 'y', which is no file's below "
             "--hyp-root %s: is that the folder labelled to write it?", dir, dir);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* a file outside the folder labelled */
    hyp_root = sub;
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "alone.csv"), 0, -1, by_file, err,
                           sizeof err), -1);
    snprintf(want_err, sizeof want_err, "%s/set.tsv: line 1 (%s/a/x.wav) is not below --hyp-root "
             "%s, the folder whose files %s/alone.csv names", dir, dir, sub, dir);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* a folder of label files mirroring the folder labelled (-o DIR/), with a
     * manifest below that folder: with --hyp-root, a/x.wav's labels are
     * hd/a/x.txt, not the folder's x.wav's hd/x.txt that its name alone finds */
    mkdir(tt_path(dir, "hd"), 0755);
    mkdir(tt_path(dir, "hd/a"), 0755);
    tt_write_text(tt_path(dir, "hd/x.txt"), "0\t1.0\tsilence\n");
    tt_write_text(tt_path(dir, "hd/a/x.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "a/ax.tsv"), "x.wav\tx.ref\n");
    const int64_t ax[9] = {50, 0, 0, 0, 48, 0, 0, 0, 0};
    hyp_root = dir;
    assert_int_equal(score(dir, "a/ax.tsv", tt_path(dir, "hd"), 0, -1, ax, err, sizeof err), 0);
    hyp_root = sub; /* a/x.wav lies elsewhere, and so do hd's files: x, a/x */
    assert_int_equal(score(dir, "a/ax.tsv", tt_path(dir, "hd"), 0, -1, ax, err, sizeof err), -1);
    snprintf(want_err, sizeof want_err, "%s/hd: a label file of 'a/x', which is no file's below "
             "--hyp-root %s: is that the folder labelled to write it?", dir, sub);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* ... and a file of the set outside the folder whose files hd holds all */
    mkdir(tt_path(dir, "c/hd"), 0755);
    tt_write_text(tt_path(dir, "c/hd/y.txt"), "0\t1.0\tspeech\n");
    assert_int_equal(score(dir, "a/ax.tsv", tt_path(dir, "c/hd"), 0, -1, ax, err, sizeof err), -1);
    assert_non_null(strstr(err, "/a/x.wav is not below --hyp-root "));
    /* a --hyp-root one folder too deep (a/ of the folder labelled): a/x.wav's
     * path below it is x, but the stream's rows of a/x (and b/x) end with
     * that and name no file in a/: refused, not the folder's x.wav's rows
     * taken */
    char deep[600];
    snprintf(deep, sizeof deep, "%s/a", dir);
    hyp_root = deep;
    assert_int_equal(score(dir, "a/ax.tsv", tt_path(dir, "h.csv"), 0, -1, ax, err, sizeof err),
                     -1);
    if (!strstr(err, "h.csv: rows named '") || /* a/x, b/x or c/y */
        !strstr(err, "', which is no file's below --hyp-root "))
        fail_msg("%s", err);
    /* the same with the folder of label files: a/x.wav's path below a/ is x,
     * and hd/x.txt, the folder's x.wav's labels, would be taken for its own
     * (the 50 speech frames of hd/a/x.txt scored as silence's); hd/a/x.txt
     * names no file a/a/x.*: refused */
    assert_int_equal(score(dir, "a/ax.tsv", tt_path(dir, "hd"), 0, -1, ax, err, sizeof err), -1);
    snprintf(want_err, sizeof want_err, "%s/hd: a label file of 'a/x', which is no file's below "
             "--hyp-root %s: is that the folder labelled to write it?", dir, deep);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* two audio files of one path without extension take no rows together */
    write_audio(dir, "c/y.flac", 1.0, 16000);
    tt_write_text(tt_path(dir, "two.tsv"), "c/y.wav\tc/y.ref\nc/y.flac\tc/y.ref\n");
    hyp_root = dir;
    assert_int_equal(score(dir, "two.tsv", tt_path(dir, "h.csv"), 0, -1, y_right, err,
                           sizeof err), -1);
    snprintf(want_err, sizeof want_err, "%s/two.tsv: line 1 (%s/c/y.wav) and line 2 "
             "(%s/c/y.flac) would both be scored against the same rows of", dir, dir, dir);
    if (!strstr(err, want_err))
        fail_msg("'%s' lacks '%s'", err, want_err);
    /* without the folder: refused for several files; one input's rows for one */
    hyp_root = NULL;
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "h.csv"), 0, -1, by_file, err, sizeof err),
                     -1);
    if (!strstr(err, "h.csv: rows of 4 inputs (a file column, as seqlabel label writes several): "
                     "give --hyp-root DIR, the folder labelled to write it"))
        fail_msg("%s", err);
    tt_write_text(tt_path(dir, "only.csv"), "file,start,end,label\ny,0,1,speech\n");
    assert_int_equal(score(dir, "y.tsv", tt_path(dir, "only.csv"), 0, -1, y_right, err,
                           sizeof err), 0);
    tt_write_text(tt_path(dir, "other.csv"), "file,start,end,label\nb/x,0,1,speech\n");
    assert_int_equal(score(dir, "y.tsv", tt_path(dir, "other.csv"), 0, -1, y_right, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "other.csv: its rows name another input than "));
    /* a header alone, for a set of one: no rows of it either */
    tt_write_text(tt_path(dir, "header.csv"), "file,start,end,label\n");
    assert_int_equal(score(dir, "y.tsv", tt_path(dir, "header.csv"), 0, 2, y_right, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "header.csv: labels none of the set's files"));
    /* no file column, or no line naming its input: one input's, not the set's */
    tt_write_text(tt_path(dir, "one.csv"), "start,end,label\n0,1,speech\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "one.csv"), 0, -1, by_file, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "one.csv: one label file for line 1 ("));
    tt_write_text(tt_path(dir, "one.jsonl"), "{\"start\":0,\"end\":1,\"label\":\"speech\"}\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "one.jsonl"), 0, -1, by_file, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "one.jsonl: one label file for line 1 ("));
    /* frames: a file each; one input's frames, its name on each line, read
     * as one input's file (its first frame speech, the rest the gap's) */
    tt_write_text(tt_path(dir, "a.tsv"), "a/x.wav\ta/x.ref\n");
    tt_write_text(tt_path(dir, "f1.jsonl"),
                  "{\"file\":\"a/x\",\"frame\":0,\"time\":0,\"label\":\"speech\"}\n");
    const int64_t one_frame[9] = {1, 0, 49, 0, 0, 48, 0, 0, 0};
    assert_int_equal(score(dir, "a.tsv", tt_path(dir, "f1.jsonl"), 0, 2, one_frame, err,
                           sizeof err), 0);
    hyp_root = dir;
    assert_int_equal(score(dir, "a.tsv", tt_path(dir, "f1.jsonl"), 0, 2, one_frame, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "--hyp-root goes with a folder of label files, or a CSV or JSON"));
    tt_write_text(tt_path(dir, "f.jsonl"),
                  "{\"file\":\"a/x\",\"frame\":0,\"time\":0,\"label\":\"speech\"}\n"
                  "{\"file\":\"b/x\",\"frame\":0,\"time\":0,\"label\":\"speech\"}\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "f.jsonl"), 0, -1, by_file, err,
                           sizeof err), -1);
    if (!strstr(err, "f.jsonl:1: a frame in a stream of several inputs"))
        fail_msg("%s", err);
    tt_write_text(tt_path(dir, "mixed.jsonl"),
                  "{\"file\":\"c/y\",\"start\":0,\"end\":1,\"label\":\"speech\"}\n"
                  "{\"start\":0,\"end\":1,\"label\":\"speech\"}\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "mixed.jsonl"), 0, -1, by_file, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "mixed.jsonl:2: a line that names no input"));
    /* a file label does not take from a folder (hidden, or no audio file by
     * its name) has no rows because it was never labelled: refused */
    write_audio(dir, ".h.wav", 1.0, 16000);
    write_audio(dir, "rec.dat", 1.0, 16000);
    tt_write_text(tt_path(dir, "skipped.tsv"), ".h.wav\tx.ref\nrec.dat\tx.ref\n");
    assert_int_equal(score(dir, "skipped.tsv", tt_path(dir, "h.csv"), 0, 2, by_file, err,
                           sizeof err), -1);
    if (!strstr(err, "/.h.wav) has no rows in ") ||
        !strstr(err, " does not take it (hidden, or no audio file by its name)"))
        fail_msg("%s", err);
    tt_write_text(tt_path(dir, "skipped.tsv"), "rec.dat\tx.ref\n");
    assert_int_equal(score(dir, "skipped.tsv", tt_path(dir, "h.csv"), 0, 2, by_file, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "/rec.dat) has no rows in "));
    /* a header alone: a VAD's stream that found nothing, every file all the
     * gap's class; rows of no file below the folder: refused */
    tt_write_text(tt_path(dir, "empty.csv"), "file,start,end,label\n");
    const int64_t nothing[9] = {0, 0, 50 + 98, 0, 0, 48 + 98, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "empty.csv"), 0, 2, nothing, err,
                           sizeof err), 0);
    tt_write_text(tt_path(dir, "none.csv"), "file,start,end,label\nz,0,1,speech\n");
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "none.csv"), 0, 2, by_file, err,
                           sizeof err), -1);
    assert_non_null(strstr(err, "none.csv: rows named 'z', which is no file's below --hyp-root"));
    /* a name that is not UTF-8, which a JSON writer gives as U+FFFD (label
     * writes "lat\ufffd" for lat\xe9.wav) */
    write_audio(dir, "lat\xe9.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "lat.tsv"), "lat\xe9.wav\tc/y.ref\n");
    tt_write_text(tt_path(dir, "lat.jsonl"),
                  "{\"file\":\"lat\\ufffd\",\"start\":0,\"end\":1,\"label\":\"speech\"}\n");
    const int64_t lat[9] = {98, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(score(dir, "lat.tsv", tt_path(dir, "lat.jsonl"), 0, -1, lat, err, sizeof err),
                     0);
    hyp_root = NULL;
    tt_rmtree(dir);
}

static void test_other_rate(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    tt_mkdtemp(dir, sizeof dir, "score-rate");
    write_audio(dir, "c.wav", 1.2345, 22050);
    tt_write_text(tt_path(dir, "c.txt"), "0\t1.2345\tmusic\n");
    tt_write_text(tt_path(dir, "set.tsv"), "c.wav\tc.txt\n");

    sl_model *m = sl_model_load(sl_source_model_path(), err, sizeof err);
    assert_non_null(m);
    sl_labeler *l = sl_labeler_new(m, NULL, err, sizeof err);
    assert_non_null(l);
    sl_audio_reader *r = sl_audio_open(tt_path(dir, "c.wav"), 16000, err, sizeof err);
    assert_non_null(r);
    int64_t frames = 0;
    sl_label_sink sink = {&frames, count_frame, NULL};
    float buf[1000];
    long got;
    while ((got = sl_audio_read(r, buf, 1000, err, sizeof err)) > 0)
        assert_int_equal(sl_labeler_push(l, buf, (size_t)got, &sink, err, sizeof err), 0);
    assert_int_equal(sl_labeler_finish(l, &sink, err, sizeof err), 0);
    sl_audio_close(r);
    sl_labeler_free(l);
    sl_model_free(m);
    assert_true(frames > 100);

    const int64_t want[9] = {0, 0, 0, 0, frames, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "c.txt"), 0, -1, want, err, sizeof err), 0);
    tt_rmtree(dir);
}

/* Asserts that the sweep's JSON line holds each of `json` and its text table
 * each of `text` (NULL-ended lists). */
static void assert_sweep_says(const sl_sweep *s, const char *const *json, const char *const *text)
{
    char buf[8192];
    int n = sl_sweep_format_json(s, "speech", buf, sizeof buf);
    assert_true(n > 0 && n < (int)sizeof buf);
    for (; *json; json++)
        if (!strstr(buf, *json))
            fail_msg("the JSON line lacks %s:\n%s", *json, buf);
    memset(buf, 0, sizeof buf);
    FILE *fp = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(fp);
    sl_sweep_print(s, "speech", "", fp);
    fclose(fp);
    for (; *text; text++)
        if (!strstr(buf, *text))
            fail_msg("the table lacks %s:\n%s", *text, buf);
}

/* sl_sweep's figures on counts set by hand: 10 frames of the class (6 at
 * probability 0.9, 2 at 0.4, 2 at 0.1) and 10 others (5 at 0.05, 3 at 0.45,
 * 2 at 0.95). */
static void test_sweep_by_hand(void **state)
{
    (void)state;
    sl_sweep *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->pos[900] = 6, s->pos[400] = 2, s->pos[100] = 2;
    s->neg[50] = 5, s->neg[450] = 3, s->neg[950] = 2;
    double p, r, f, fa, miss;
    /* at 0.5: 6 of the class and 2 others called it */
    sl_sweep_point(s, 500, &p, &r, &f, &fa, &miss);
    assert_true(fabs(p - 0.75) < 1e-12 && fabs(r - 0.6) < 1e-12 && fabs(fa - 0.2) < 1e-12 &&
                fabs(miss - 0.4) < 1e-12 && fabs(f - 2 * 0.75 * 0.6 / 1.35) < 1e-12);
    /* a bin's frames count from its own edge on: at 0.05 all 20 frames are called it */
    sl_sweep_point(s, 50, &p, &r, NULL, &fa, NULL);
    assert_true(p == 0.5 && r == 1.0 && fa == 1.0);
    sl_sweep_point(s, 51, &p, NULL, NULL, &fa, NULL);
    assert_true(fabs(p - 10.0 / 15.0) < 1e-12 && fa == 0.5);
    /* best F1 0.8 from 0.051 to 0.1 (the lowest edge); false alarms and misses
     * closest (0.5 and 0.4) from 0.401 to 0.45 */
    int best, eer;
    sl_sweep_best(s, &best, &eer);
    assert_int_equal(best, 51);
    assert_int_equal(eer, 401);
    const char *json[] = {
        "{\"sweep\":\"speech\",\"best_f1\":0.8,\"best_f1_threshold\":0.051,"
        "\"equal_error_rate\":0.45,\"equal_error_threshold\":0.401,"
        "\"points\":[{\"threshold\":0.05,\"precision\":0.5,\"recall\":1,",
        "{\"threshold\":0.5,\"precision\":0.75,\"recall\":0.6,",
        "{\"threshold\":0.95,\"precision\":0,\"recall\":0,\"f1\":0,"
        "\"false_alarm\":0.2,\"miss\":1}]}\n",
        NULL};
    const char *text[] = {"best f1 0.8000 at threshold 0.051\n", NULL};
    assert_sweep_says(s, json, text);
    free(s);
}

/* The sweep's events by hand, a collar of 1 frame: reference frames
 * 0 0 1 1 1 0 0 1 1 0 (events [2,5) and [7,9)), probabilities of class 1
 * -1 .1 .6 .2 .6 .1 .1 .97 .97 .1 (frame 0 without one).
 * At 0.05 the system's one event [1,10) matches neither (onsets 1 frame off
 * is within the collar, but the offset 10 is neither within 1 of 5 nor of half
 * the event's 3 frames): F1 0, error rate (2 deletions + 1 insertion) / 2 = 1.5.
 * At 0.15: [2,5) and [7,9), both right: 1 and 0. At 0.5: [2,3), [4,5) and
 * [7,9): [2,3)'s offset is 2 from 5, over 1.5, so only [7,9) is right: precision
 * 1/3, recall 1/2, F1 0.4, error rate (1 + 2) / 2 = 1.5. At 0.95: [7,9) alone:
 * F1 2/3, error rate 0.5. Without events the sweep adds none. */
/* A probability on a threshold counts at it, as the decoder (p >= the float
 * threshold) labels it there: a label file's "0.7" at 0.700, at every edge;
 * the float just below it does not. */
static void test_sweep_threshold_ties(void **state)
{
    (void)state;
    for (int b = 1; b < SL_SWEEP_BINS; b++) {
        sl_sweep *s = calloc(1, sizeof *s);
        assert_non_null(s);
        char text[16];
        snprintf(text, sizeof text, "%.3f", b / 1000.0);
        const float on = strtof(text, NULL);
        sl_sweep_count(s, on, 1);
        sl_sweep_count(s, nextafterf(on, 0.0f), 1);
        double r;
        sl_sweep_point(s, b, NULL, &r, NULL, NULL, NULL);
        if (r != 0.5)
            fail_msg("threshold %s: recall %g, want 0.5", text, r);
        sl_sweep_point(s, b + 1, NULL, &r, NULL, NULL, NULL);
        assert_true(r == 0.0);
        if (b == 700) { /* at 0.75 nothing is called the class: no precision */
            const char *json[] = {"{\"threshold\":0.75,\"precision\":null,\"recall\":0,"
                                  "\"f1\":0,\"false_alarm\":null,\"miss\":1}", NULL};
            const char *text[] = {"    0.750         -    0.0000    0.0000           -    1.0000\n",
                                  NULL};
            assert_sweep_says(s, json, text);
        }
        free(s);
    }
}

static void test_sweep_events_by_hand(void **state)
{
    (void)state;
    const int32_t ref[10] = {0, 0, 1, 1, 1, 0, 0, 1, 1, 0};
    const double prob[10] = {-1, 0.1, 0.6, 0.2, 0.6, 0.1, 0.1, 0.97, 0.97, 0.1};
    const struct {
        int point;
        double f1, error_rate;
    } want[4] = {{0, 0, 1.5}, {2, 1, 0}, {9, 0.4, 1.5}, {18, 2.0 / 3, 0.5}};
    sl_sweep *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->target = 1;
    assert_int_equal(sl_sweep_add_events(s, ref, prob, 10), 0); /* no events: nothing */
    assert_null(s->events);
    sl_events like;
    sl_events_init(&like, 2, 1, 5);
    assert_int_equal(sl_sweep_init_events(s, &like), 0);
    assert_int_equal(sl_sweep_add_events(s, ref, prob, 10), 0);
    for (int k = 0; k < 4; k++) {
        sl_event_figures f;
        sl_events_summary(&s->events[want[k].point], &f);
        assert_int_equal(f.event_ref, 2);
        assert_true(fabs(f.event_f1 - want[k].f1) < 1e-12);
        assert_true(fabs(f.event_error_rate - want[k].error_rate) < 1e-12);
    }
    assert_false(s->events[0].scored[0]); /* the class alone */
    /* (no frame counted: every frame figure undefined, and no best) */
    const char *json[] = {"{\"sweep\":\"speech\",\"best_f1\":null,\"best_f1_threshold\":null,"
                          "\"equal_error_rate\":null,\"equal_error_threshold\":null,",
                          "{\"threshold\":0.5,\"precision\":null,\"recall\":null,\"f1\":null,"
                          "\"false_alarm\":null,\"miss\":null,\"event_f1\":0.4,"
                          "\"event_error_rate\":1.5}",
                          NULL};
    const char *text[] = {"miss  event_f1 event_error_rate\n",
                          "    0.500         -         -         -           -         -"
                          "    0.4000           1.5000\n",
                          "best f1 - (no frame of speech)\n",
                          "equal error rate - (no frame of speech)\n",
                          NULL};
    assert_sweep_says(s, json, text);
    sl_sweep_release(NULL); /* as free(NULL) */
    sl_sweep_release(s);
    assert_null(s->events);
    /* without a reference event the error rate is undefined ('-', null), and
     * without an event either way the F1 too (0.6 is called the target at 0.5,
     * nothing at 0.95) */
    const int32_t none[4] = {0, 0, 0, 0};
    const double some[4] = {0.6, 0.6, 0.1, 0.1};
    assert_int_equal(sl_sweep_init_events(s, &like), 0);
    assert_int_equal(sl_sweep_add_events(s, none, some, 4), 0);
    const char *json2[] = {"\"threshold\":0.5,\"precision\":null,\"recall\":null,\"f1\":null,"
                           "\"false_alarm\":null,\"miss\":null,\"event_f1\":0,"
                           "\"event_error_rate\":null}",
                           "\"event_f1\":null,\"event_error_rate\":null}]}", NULL};
    const char *text2[] = {"    0.500         -         -         -           -         -"
                           "    0.0000                -\n",
                           "    0.950         -         -         -           -         -"
                           "         -                -\n", NULL};
    assert_sweep_says(s, json2, text2);
    sl_sweep_release(s);
    free(s);
}

/* A decoder's sweep of class 1 over 10 frames whose class-1 probabilities are
 * p1: no smoothing, the default thresholds (on 0.5, off 0.35), a frame of
 * padding after, events with a collar of a frame; the frames of `scored`
 * counted as sl_eval_frames counts them, `ref` the references for the events
 * (the caller releases and frees it). */
static sl_sweep *decoded_sweep(const int32_t *scored, const int32_t *ref, const double *p1)
{
    float probs[20];
    sl_sweep *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->target = 1;
    for (int k = 0; k < 10; k++) {
        probs[2 * k] = (float)(1 - p1[k]);
        probs[2 * k + 1] = (float)p1[k];
        if (scored[k] >= 0) /* the frames of the class and others */
            sl_sweep_count(s, p1[k], scored[k] == 1);
    }
    sl_decoder_config cfg;
    sl_decoder_config_default(&cfg);
    cfg.smoothing = SL_SMOOTH_NONE;
    cfg.pad_after_s = 0.01f;
    char err[SL_ERR_LEN];
    assert_int_equal(sl_sweep_init_decoder(s, &cfg, 2, 100.0, err, sizeof err), 0);
    sl_events like;
    sl_events_init(&like, 2, 1, 5);
    assert_int_equal(sl_sweep_init_events(s, &like), 0);
    assert_int_equal(sl_sweep_add_decoded(s, scored, ref, probs, 2, 10), 0);
    return s;
}

/* A decoder's sweep by hand: argmax labels, the options' hysteresis gap of
 * 0.15 and one frame of padding after speech (class 1), a collar of 1 frame for
 * the events. Probabilities of class 1: .1 .6 .4 .3 .7 .2 .1 .97 .97 .1;
 * references 0 1 1 1 1 0 0 1 1 0 (events [1,5) and [7,9)), frame 9 not scored.
 * At 0.5 (off 0.35): on at 1, off at 3 (.3), on at 4, off at 5, on at 7, off at
 * 9; padded, frames 1-5 and 7-9: 6 of 6 speech frames and 1 of 3 others (frame 5)
 * called speech, so precision 6/7, recall 1, false alarms 1/3; events [1,6) and
 * [7,10) both within the collar: F1 1, error rate 0. At 0.15 (off 0): on at 1 and
 * never off: frames 5 and 6 false, precision 6/8; one event [1,10), its offset 5
 * off [1,5)'s: F1 0, error rate (2 + 1) / 2. At 0.95 (off 0.8): frames 7-9:
 * precision 1, recall 2/6; [7,10) matches, [1,5) is missed: F1 2/3, error 0.5. */
static void test_sweep_decoded_by_hand(void **state)
{
    (void)state;
    const int32_t ref[10] = {0, 1, 1, 1, 1, 0, 0, 1, 1, 0};
    const int32_t scored[10] = {0, 1, 1, 1, 1, 0, 0, 1, 1, -1};
    const double p1[10] = {0.1, 0.6, 0.4, 0.3, 0.7, 0.2, 0.1, 0.97, 0.97, 0.1};
    { /* a padding below 0 refused, no decoder left */
        sl_sweep bad = {.target = 1};
        sl_decoder_config cfg;
        sl_decoder_config_default(&cfg);
        cfg.pad_after_s = -1;
        char err[SL_ERR_LEN];
        assert_int_equal(sl_sweep_init_decoder(&bad, &cfg, 2, 100.0, err, sizeof err), -1);
        assert_null(bad.decoder);
    }
    sl_sweep *s = decoded_sweep(scored, ref, p1);
    /* the best of the table's points: F1 12/13 from 0.4 to 0.55 (at 0.35 frame 5's
     * .2 holds speech on, and the padding takes frame 6 too), the lowest of them;
     * false alarms and misses closest at 0.6 (on at 1, off at 2: recall 5/6, false
     * alarms 1/3) and 0.65, the lower kept */
    const char *json[] = {
        "{\"threshold\":0.5,\"off_threshold\":0.35,\"precision\":0.857142857,\"recall\":1,"
        "\"f1\":0.923076923,\"false_alarm\":0.333333333,\"miss\":0,\"event_f1\":1,"
        "\"event_error_rate\":0}",
        "{\"threshold\":0.15,\"off_threshold\":0,\"precision\":0.75,\"recall\":1,"
        "\"f1\":0.857142857,\"false_alarm\":0.666666667,\"miss\":0,\"event_f1\":0,"
        "\"event_error_rate\":1.5}",
        "{\"threshold\":0.95,\"off_threshold\":0.8,\"precision\":1,\"recall\":0.333333333,"
        "\"f1\":0.5,\"false_alarm\":0,\"miss\":0.666666667,\"event_f1\":0.666666667,"
        "\"event_error_rate\":0.5}",
        "\"best_f1\":0.923076923,\"best_f1_threshold\":0.4,\"equal_error_rate\":0.25,"
        "\"equal_error_threshold\":0.6,",
        NULL};
    const char *text[] = {"threshold off_threshold precision",
                          "    0.500         0.350    0.8571    1.0000    0.9231      0.3333"
                          "    0.0000    1.0000           0.0000\n",
                          NULL};
    assert_sweep_says(s, json, text);
    sl_sweep_release(s);
    assert_null(s->decoder);
    assert_null(s->events);
    free(s);
}

/* The decoder's sweep in time the references leave unlabelled (frames 5-9):
 * its events there are cut away, as eval --hyp cuts a hypothesis's, so the
 * run it decodes over them (on from 5 at 0.5) is no insertion. At 0.5 (off
 * 0.35, padded by a frame): on at 0, off at 3 (.1), padded to [0,4): 3 of 3
 * target frames and 1 of 2 others called the target (precision 3/4, false
 * alarms 1/2); the event [0,4) matches [0,3) within the collar: F1 1, error
 * rate 0 (before: an insertion, F1 2/3, error rate 1). */
static void test_sweep_decoded_unlabelled_time(void **state)
{
    (void)state;
    const int32_t ref[10] = {1, 1, 1, 0, 0, -1, -1, -1, -1, -1};
    const double p1[10] = {0.9, 0.9, 0.9, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9, 0.9};
    sl_sweep *s = decoded_sweep(ref, ref, p1);
    const char *json[] = {
        "{\"threshold\":0.5,\"off_threshold\":0.35,\"precision\":0.75,\"recall\":1,"
        "\"f1\":0.857142857,\"false_alarm\":0.5,\"miss\":0,\"event_f1\":1,"
        "\"event_error_rate\":0}",
        NULL};
    const char *text[] = {"threshold off_threshold precision", NULL};
    assert_sweep_says(s, json, text);
    sl_sweep_release(s);
    free(s);
}

/* A frames table (`seqlabel label --format frames`) as the hypothesis: its
 * labels scored as segments are, its probabilities swept into hand-computed
 * bins (the collar's frames left out of both), and a malformed table, one off
 * the frame grid, longer than the audio, or a sweep of segments refused. */
/* Speech's probability at frame i of write_table's frames: 0-39 speech at
 * 0.875, 40-49 music with speech 0.25 (the reference's speech ends at 50),
 * 50-89 music with speech 0.125, 90-97 music with 0.75. */
static double table_speech(int i)
{
    return i < 40 ? 0.875 : i < 50 ? 0.25 : i < 90 ? 0.125 : 0.75;
}

static void write_table(const char *path, int frames, int skip, double step, const char *bad_label)
{
    char *text = malloc(100000);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "frame\ttime\tlabel\tconfidence\tspeech\tmusic\tsilence\n");
    for (int i = 0; i < frames; i++) {
        if (i == skip)
            continue;
        double sp = table_speech(i);
        const char *label = i == 7 && bad_label ? bad_label : i < 40 ? "speech" : "music";
        n += (size_t)sprintf(text + n, "%d\t%.6f\t%s\t0.5\t%.9g\t%.9g\t0\n", i, i * step, label, sp,
                             1 - sp);
    }
    tt_write_text(path, text);
    free(text);
}

/* The sweep of speech over the frames write_table wrote (as a table or as
 * JSON Lines) into dir/hyp, without and with a collar: each bin's count by
 * hand. */
/* dir/set.tsv scored against dir/hyp with a sweep of speech, a collar and a gap
 * class: the sweep (the caller frees it), the figures into *mt (initialised
 * here) and the frames the sweep counted into *total. */
static sl_sweep *sweep_scored(const char *dir, double collar, int gap, sl_metrics *mt,
                              int64_t *total)
{
    char err[SL_ERR_LEN];
    assert_int_equal(sl_metrics_init(mt, 3), 0);
    sl_eval_options opt;
    sl_eval_options_default(&opt);
    sl_sweep *sw = calloc(1, sizeof *sw);
    assert_non_null(sw);
    sw->target = 0; /* speech */
    opt.sweep = sw;
    opt.collar_s = collar;
    opt.gap_class = gap;
    if (sl_score_manifest(tt_path(dir, "set.tsv"), tt_path(dir, "hyp"), classes, 3, &opt, mt, err,
                          sizeof err))
        fail_msg("%s", err);
    *total = 0;
    for (int b = 0; b < SL_SWEEP_BINS; b++)
        *total += sw->pos[b] + sw->neg[b];
    return sw;
}

static void sweep_as_written(const char *dir)
{
    for (int c = 0; c < 2; c++) {
        sl_metrics mt;
        int64_t total;
        /* collar 0.05 s: frames 45-54 not scored */
        sl_sweep *sw = sweep_scored(dir, c ? 0.05 : 0, -1, &mt, &total);
        assert_int_equal(total, mt.frames);
        assert_int_equal(sw->pos[875], 40);
        assert_int_equal(sw->pos[250], c ? 5 : 10);
        assert_int_equal(sw->neg[125], c ? 35 : 40);
        assert_int_equal(sw->neg[750], 8);
        double p, r, fa;
        sl_sweep_point(sw, 500, &p, &r, NULL, &fa, NULL); /* 40 right, 8 false alarms */
        assert_true(fabs(p - 40.0 / 48) < 1e-12 && fabs(r - (c ? 40.0 / 45 : 0.8)) < 1e-12 &&
                    fabs(fa - 8.0 / (c ? 43 : 48)) < 1e-12);
        free(sw);
        sl_metrics_free(&mt);
    }
}

/* dir/hyp scored against dir/set.tsv (sl_score_manifest) with the frames'
 * probabilities of names[0] counted into *sw (zeroed here). */
static int score_swept(const char *dir, const char *const *names, int n, sl_metrics *mt,
                       sl_sweep *sw, char *err, size_t errlen)
{
    sl_eval_options opt;
    sl_eval_options_default(&opt);
    *sw = (sl_sweep){.target = 0};
    opt.sweep = sw;
    return sl_score_manifest(tt_path(dir, "set.tsv"), tt_path(dir, "hyp"), names, n, &opt, mt,
                             err, errlen);
}

/* A sweep of dir/set.tsv against dir/hyp is refused: the hypothesis `file`
 * holds segments, no probabilities. */
static void sweep_refused(const char *dir, const char *file)
{
    char err[SL_ERR_LEN], want[256];
    sl_metrics mt;
    assert_int_equal(sl_metrics_init(&mt, 3), 0);
    sl_sweep sw;
    assert_int_not_equal(score_swept(dir, classes, 3, &mt, &sw, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s: a sweep needs each frame's probability", file);
    if (!strstr(err, want))
        fail_msg("'%s' lacks '%s'", err, want);
    sl_metrics_free(&mt);
}

/* A fresh folder holding set.tsv: a.wav, a second (98 frames), speech to
 * 0.5 s and music after (a.ref.txt); and hyp/, empty. */
static void one_second_set(char *dir, size_t len, const char *tag)
{
    tt_mkdtemp(dir, len, tag);
    write_audio(dir, "a.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "a.ref.txt"), "0\t0.5\tspeech\n0.5\t1.0\tmusic\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.ref.txt\n");
    mkdir(tt_path(dir, "hyp"), 0755);
}

static void test_frames_table(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    one_second_set(dir, sizeof dir, "table");
    write_table(tt_path(dir, "hyp/a.tsv"), 98, -1, 0.01, NULL);
    const int64_t want[9] = {40, 10, 0, 0, 48, 0, 0, 0, 0};
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
    sweep_as_written(dir);
    /* a frames table found as x.TSV is read as one */
    {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, "hyp/a.tsv"));
        assert_int_equal(rename(from, tt_path(dir, "hyp/a.TSV")), 0);
        assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
        snprintf(from, sizeof from, "%s", tt_path(dir, "hyp/a.TSV"));
        assert_int_equal(rename(from, tt_path(dir, "hyp/a.tsv")), 0);
    }
    /* a table that stops at frame 60: the rest (frames 60-97, music) is the gap's
     * class at every threshold, in the sweep as in the frame figures */
    write_table(tt_path(dir, "hyp/a.tsv"), 60, -1, 0.01, NULL);
    for (int gap = 0; gap < 3; gap += 2) {
        sl_metrics mt;
        int64_t total;
        sl_sweep *sw = sweep_scored(dir, 0, gap, &mt, &total);
        assert_int_equal(mt.frames, 98);
        assert_int_equal(total, 98);
        /* gap speech: music called speech at every threshold; silence: at none */
        assert_int_equal(sw->neg[gap == 0 ? SL_SWEEP_BINS - 1 : 0], 38);
        assert_int_equal(mt.confusion[1 * 3 + gap], 38);
        sl_metrics_free(&mt);
        free(sw);
    }
    write_table(tt_path(dir, "hyp/a.tsv"), 98, -1, 0.01, NULL);
    /* what is refused, each naming the file (and line) */
    struct {
        int frames, skip;
        double step;
        const char *bad, *want;
    } bad[] = {{98, 3, 0.01, NULL, "hyp/a.tsv:5: expected frame 3 at 0.030000 s"},
               {98, -1, 0.02, NULL, "hyp/a.tsv:3: expected frame 1 at 0.010000 s (the frame grid"},
               {99, -1, 0.01, NULL, "hyp/a.tsv:100: frame 98, but the audio has 98 frames"},
               {98, -1, 0.01, "bird", "hyp/a.tsv:9: label 'bird' is not one of the classes"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_table(tt_path(dir, "hyp/a.tsv"), bad[k].frames, bad[k].skip, bad[k].step, bad[k].bad);
        assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
        if (!strstr(err, bad[k].want))
            fail_msg("'%s' lacks '%s'", err, bad[k].want);
    }
    tt_write_text(tt_path(dir, "hyp/a.tsv"), "start\tend\tlabel\n");
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
    assert_non_null(strstr(err, "hyp/a.tsv:1: not a frames table"));
    /* a sweep needs probabilities: segments are refused */
    remove(tt_path(dir, "hyp/a.tsv"));
    tt_write_text(tt_path(dir, "hyp/a.txt"), "0\t1\tspeech\n");
    sweep_refused(dir, "hyp/a.txt");
    tt_rmtree(dir);
}

/* Class names in another Unicode form (NFD: o + U+0308, as macOS writes
 * text) are the classes' (given in NFC): the references', a frames table's
 * labels and probability column, JSON Lines' labels and probabilities, scored
 * and swept as the same names' bytes would be. */
static void test_unicode_forms(void **state)
{
    (void)state;
#define NFC "Gr\xc3\xb6\xc3\x9f" "e"
#define NFD "Gro\xcc\x88\xc3\x9f" "e"
    static const char *const names[2] = {NFC, "b"};
    /* the format characters that print nothing, not those that print
     * (Arabic's number sign) or join (emoji's ZWJ) */
    assert_true(sl_is_invisible_format(0x202e) && sl_is_invisible_format(0x200f) &&
                sl_is_invisible_format(0xad));
    assert_false(sl_is_invisible_format(0x0600) || sl_is_invisible_format(0x200d) ||
                 sl_is_invisible_format('a'));
    char dir[512], err[SL_ERR_LEN];
    tt_mkdtemp(dir, sizeof dir, "nfd");
    write_audio(dir, "a.wav", 1.0, 16000);
    tt_write_text(tt_path(dir, "a.ref.txt"), "0\t0.5\t" NFD "\n0.5\t1.0\tb\n");
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.ref.txt\n");
    mkdir(tt_path(dir, "hyp"), 0755);
    char *text = malloc(100000);
    assert_non_null(text);
    for (int jsonl = 0; jsonl < 2; jsonl++) {
        size_t n = jsonl ? 0 : (size_t)sprintf(text, "frame\ttime\tlabel\tconfidence\t" NFD "\tb\n");
        for (int i = 0; i < 98; i++) {
            const double p = i < 50 ? 0.875 : 0.125;
            n += (size_t)(jsonl ? sprintf(text + n, "{\"frame\":%d,\"time\":%.6f,\"label\":\"%s\","
                                          "\"probs\":{\"" NFD "\":%g,\"b\":%g}}\n", i, i * 0.01,
                                          i < 50 ? NFD : "b", p, 1 - p)
                                : sprintf(text + n, "%d\t%.6f\t%s\t0.5\t%g\t%g\n", i, i * 0.01,
                                          i < 50 ? NFD : "b", p, 1 - p));
        }
        remove(tt_path(dir, "hyp/a.tsv"));
        tt_write_text(tt_path(dir, jsonl ? "hyp/a.jsonl" : "hyp/a.tsv"), text);
        sl_metrics mt;
        assert_int_equal(sl_metrics_init(&mt, 2), 0);
        sl_sweep sw;
        if (score_swept(dir, names, 2, &mt, &sw, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(mt.confusion[0], 50);
        assert_int_equal(mt.confusion[3], 48);
        assert_int_equal(sw.pos[875], 50);
        assert_int_equal(sw.neg[125], 48);
        sl_metrics_free(&mt);
    }
    free(text);
    /* through the command: the classes in NFD are the same, and a name in
     * both forms is one listed twice */
    char *out, *e;
    if (eval_in(dir, "--hyp hyp --manifest set.tsv --classes " NFD ",b --json", &out, &e))
        fail_msg("%s", e);
    assert_non_null(strstr(out, "\"accuracy\":1,"));
    free(out);
    free(e);
    /* a name over 64 bytes in NFD but not in NFC (9 Korean syllables: 69, 27) */
    if (eval_in(dir, "--hyp hyp --manifest set.tsv --classes " NFD ",b,"
                "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab\xe1\x84\x80\xe1\x85\xae\xe1\x86\xa8"
                "\xe1\x84\x8b\xe1\x85\xa5\xe1\x84\x8b\xe1\x85\xb3\xe1\x86\xb7\xe1\x84\x89\xe1\x85\xa5"
                "\xe1\x86\xbc\xe1\x84\x83\xe1\x85\xa6\xe1\x84\x8b\xe1\x85\xb5\xe1\x84\x90\xe1\x85\xa5"
                "\xe1\x84\x89\xe1\x85\xa6\xe1\x86\xba", &out, &e))
        fail_msg("%s", e);
    free(out);
    free(e);
    assert_int_equal(eval_in(dir, "--hyp hyp --manifest set.tsv --classes " NFD "," NFC ",b", &out,
                             &e), 2);
    assert_non_null(strstr(e, "--classes: class '" NFC "' is listed twice"));
    free(out);
    free(e);
    tt_rmtree(dir);
#undef NFC
#undef NFD
}

/* write_table's frames as `seqlabel label --format jsonl` writes them. */
static void write_jsonl_frames(const char *path, int frames)
{
    char *text = malloc(100000);
    assert_non_null(text);
    size_t n = 0;
    text[0] = '\0';
    for (int i = 0; i < frames; i++) {
        double sp = table_speech(i);
        n += (size_t)sprintf(text + n, "{\"frame\":%d,\"time\":%.6f,\"label\":\"%s\",\"confidence\":"
                             "0.5,\"probs\":{\"speech\":%.9g,\"music\":%.9g,\"silence\":0}}\n", i,
                             i * 0.01, i < 40 ? "speech" : "music", sp, 1 - sp);
    }
    tt_write_text(path, text);
    free(text);
}

/* The other files `seqlabel label` writes are hypotheses too: JSON Lines of
 * frames (swept as a frames table is) or of segments, WebVTT and SubRip; the figures
 * are the frames table's. */
static void test_json_lines_and_subtitles(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    one_second_set(dir, sizeof dir, "jsonl");
    const int64_t want[9] = {40, 10, 0, 0, 48, 0, 0, 0, 0};
    write_jsonl_frames(tt_path(dir, "hyp/a.jsonl"), 98);
    assert_int_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
    sweep_as_written(dir);
    tt_write_text(tt_path(dir, "hyp/a.jsonl"),
                  "{\"start\":0.000000,\"end\":0.400000,\"label\":\"speech\",\"confidence\":0.9,"
                  "\"start_frame\":0,\"end_frame\":40}\n"
                  "{\"start\":0.400000,\"end\":0.980000,\"label\":\"music\",\"confidence\":0.9,"
                  "\"start_frame\":40,\"end_frame\":98}\n");
    if (score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err))
        fail_msg("%s", err);
    /* segments hold no probabilities to sweep */
    sweep_refused(dir, "hyp/a.jsonl");
    /* frames and segments in one file */
    tt_write_text(tt_path(dir, "hyp/a.jsonl"),
                  "{\"frame\":0,\"time\":0.000000,\"label\":\"speech\"}\n"
                  "{\"start\":0.01,\"end\":0.98,\"label\":\"music\"}\n");
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
    assert_non_null(strstr(err, "hyp/a.jsonl:2: a segment among frames"));
    /* frames off the grid, named as a frames table's are */
    tt_write_text(tt_path(dir, "hyp/a.jsonl"), "{\"frame\":1,\"time\":0.01,\"label\":\"speech\"}\n");
    assert_int_not_equal(score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err), 0);
    assert_non_null(strstr(err, "hyp/a.jsonl:1: expected frame 0 at 0.000000 s"));
    remove(tt_path(dir, "hyp/a.jsonl"));
    tt_write_text(tt_path(dir, "hyp/a.vtt"),
                  "WEBVTT\n\n00:00:00.000 --> 00:00:00.400\nspeech\n\n"
                  "00:00:00.400 --> 00:00:00.980\nmusic\n\n");
    if (score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err))
        fail_msg("%s", err);
    /* SubRip, as `seqlabel label --format srt` writes it */
    remove(tt_path(dir, "hyp/a.vtt"));
    tt_write_text(tt_path(dir, "hyp/a.srt"),
                  "1\n00:00:00,000 --> 00:00:00,400\nspeech\n\n"
                  "2\n00:00:00,400 --> 00:00:00,980\nmusic\n\n");
    if (score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err))
        fail_msg("%s", err);
    /* a CSV table, as `seqlabel label --format csv` writes it */
    remove(tt_path(dir, "hyp/a.srt"));
    tt_write_text(tt_path(dir, "hyp/a.csv"),
                  "start,end,label,confidence\n0.000000,0.400000,speech,0.9\n"
                  "0.400000,0.980000,music,0.9\n");
    if (score(dir, "set.tsv", tt_path(dir, "hyp"), 0, -1, want, err, sizeof err))
        fail_msg("%s", err);
    tt_rmtree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_and_collar),
        cmocka_unit_test(test_uem),
        cmocka_unit_test(test_gaps_by_name),
        cmocka_unit_test(test_events_in_unlabelled_time),
        cmocka_unit_test(test_utf8_columns),
        cmocka_unit_test(test_text_past_int_max),
        cmocka_unit_test(test_rttm),
        cmocka_unit_test(test_one_name_two_entries),
        cmocka_unit_test(test_streams_of_several_inputs),
        cmocka_unit_test(test_other_rate),
        cmocka_unit_test(test_sweep_by_hand),
        cmocka_unit_test(test_sweep_threshold_ties),
        cmocka_unit_test(test_sweep_events_by_hand),
        cmocka_unit_test(test_sweep_decoded_by_hand),
        cmocka_unit_test(test_sweep_decoded_unlabelled_time),
        cmocka_unit_test(test_frames_table),
        cmocka_unit_test(test_unicode_forms),
        cmocka_unit_test(test_json_lines_and_subtitles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
