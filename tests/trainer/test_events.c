/* Sound event detection metrics (sl_events, `seqlabel eval --events`) against
 * counts worked out by hand from sed_eval's definitions (Mesaros, Heittola and
 * Virtanen 2016): on one 10 s file of three classes, every kind of event
 * outcome (a match by the offset's half-length rule, a missed onset, a
 * substitution, insertions, a deletion) and every kind of 1 s segment
 * (substitutions, insertions); the classes left out; a gap in the system's
 * labels; the collar's edge; and the same file through the command, its
 * references and hypotheses Audacity label tracks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sndfile.h>
#include <sys/stat.h>

#include "seqlabel.h"
#include "trainer_test_util.h"

#define N 1000 /* frames: 10 s */

typedef struct {
    int cls, on, off; /* frames [on, off) */
} run;

/* Reference and system of the worked case (frames of 10 ms):
 *   R1 c0 [0,100)  R2 c1 [100,400)  R3 c0 [400,450)  R4 c2 [450,700)  R5 c0 [700,1000)
 *   S1 c0 [0,130)  S2 c1 [130,300)  S3 c2 [300,330)  S4 c0 [330,460)  S5 c1 [460,690)
 *   S6 c0 [690,1000)
 * Events, collar 20 frames: S1 matches R1 (onset 0; offset 30 off, but within half
 * of R1's 100), S6 matches R5; S2's onset is 30 from R2's, S4's 70 from R3's, S3
 * is R4's class but 150 early; S5 is where R4 is (10 and 10) but of c1: a
 * substitution. Nref 5, Nsys 6, TP 2, S 1, D 5-2-1 = 2, I 6-2-1 = 3: ER 6/5, F1
 * 2*2/(5+6). Class c0: 3 reference, 3 system, 2 hits (F1 2/3, ER 2/3); c1: 1 and
 * 2, none (F1 0, ER 3); c2: 1 and 1, none (F1 0, ER 2); macro F1 2/9.
 * Segments of 100 frames, (reference; system): 0 (c0; c0), 1 (c1; c0 c1),
 * 2 (c1; c1), 3 (c1; c2 c0), 4 (c0 c2; c0 c1), 5 (c2; c1), 6 (c2; c1 c0),
 * 7-9 (c0; c0): Nref 11, Nsys 14, TP 7, S 1+1+1+1 = 4, D 0, I 1+1+1 = 3: ER
 * 7/11, F1 14/25. c0: 5 reference segments, 8 system, 5 hits (F1 10/13, ER 3/5);
 * c1: 3, 5, 2 (F1 1/2, ER 4/3); c2: 3, 1, 0 (F1 0, ER 4/3). */
static const run ref_runs[] = {{0, 0, 100}, {1, 100, 400}, {0, 400, 450}, {2, 450, 700},
                               {0, 700, 1000}};
static const run sys_runs[] = {{0, 0, 130},   {1, 130, 300}, {2, 300, 330},
                               {0, 330, 460}, {1, 460, 690}, {0, 690, 1000}};

static void fill(int32_t *labels, const run *r, int n)
{
    for (int i = 0; i < N; i++)
        labels[i] = -1;
    for (int k = 0; k < n; k++)
        for (int i = r[k].on; i < r[k].off; i++)
            labels[i] = r[k].cls;
}

static int32_t ref[N], sys[N];

/* The worked case counted into ev; scored: which of the 3 classes are events
 * (NULL: all). */
static void worked_case(sl_events *ev, const unsigned char *scored)
{
    fill(ref, ref_runs, 5);
    fill(sys, sys_runs, 6);
    sl_events_init(ev, 3, 20, 100);
    if (scored)
        memcpy(ev->scored, scored, 3);
    assert_int_equal(sl_events_add(ev, ref, sys, N), 0);
}

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-12)

static void test_by_hand(void **state)
{
    (void)state;
    sl_events ev;
    worked_case(&ev, NULL);
    sl_event_figures f;
    sl_events_summary(&ev, &f);
    assert_int_equal(f.event_ref, 5);
    assert_int_equal(f.event_sys, 6);
    near(f.event_precision, 2.0 / 6);
    near(f.event_recall, 2.0 / 5);
    near(f.event_f1, 4.0 / 11);
    near(f.event_substitution_rate, 1.0 / 5);
    near(f.event_deletion_rate, 2.0 / 5);
    near(f.event_insertion_rate, 3.0 / 5);
    near(f.event_error_rate, 6.0 / 5);
    near(f.event_macro_f1, 2.0 / 9);
    const int64_t ev_ref[3] = {3, 1, 1}, ev_sys[3] = {3, 2, 1}, ev_tp[3] = {2, 0, 0};
    for (int c = 0; c < 3; c++) {
        assert_int_equal(ev.ev_ref[c], ev_ref[c]);
        assert_int_equal(ev.ev_sys[c], ev_sys[c]);
        assert_int_equal(ev.ev_tp[c], ev_tp[c]);
    }
    assert_int_equal(ev.segments, 10);
    near(f.segment_precision, 7.0 / 14);
    near(f.segment_recall, 7.0 / 11);
    near(f.segment_f1, 14.0 / 25);
    near(f.segment_error_rate, 7.0 / 11);
    assert_int_equal(ev.seg_s, 4);
    assert_int_equal(ev.seg_d, 0);
    assert_int_equal(ev.seg_i, 3);
    near(f.segment_macro_f1, (10.0 / 13 + 1.0 / 2 + 0.0) / 3);
    const int64_t tp[3] = {5, 2, 0}, fp[3] = {3, 3, 1}, fn[3] = {0, 1, 3};
    for (int c = 0; c < 3; c++) {
        assert_int_equal(ev.seg_tp[c], tp[c]);
        assert_int_equal(ev.seg_fp[c], fp[c]);
        assert_int_equal(ev.seg_fn[c], fn[c]);
    }
    /* a second file adds its counts: the figures stay */
    assert_int_equal(sl_events_add(&ev, ref, sys, N), 0);
    sl_event_figures g;
    sl_events_summary(&ev, &g);
    assert_int_equal(g.event_ref, 10);
    near(g.event_f1, f.event_f1);
    near(g.segment_error_rate, f.segment_error_rate);
}

/* A class without reference events has no error rate (sed_eval divides by its
 * reference count), and one without events either way no F1: '-' and null,
 * not a 0 that reads as perfect; a set without reference events alike. */
static void test_undefined_figures(void **state)
{
    (void)state;
    static const run r[] = {{0, 0, 500}};
    static const run s[] = {{0, 0, 400}, {1, 400, 500}}; /* c1: inserted; c2: none */
    fill(ref, r, 1);
    fill(sys, s, 2);
    sl_events ev;
    sl_events_init(&ev, 3, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, 500), 0);
    const char *names[3] = {"c0", "c1", "c2"};
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    sl_events_print(&ev, names, 0.01, "", fp);
    fclose(fp);
    const char *rows[] = {"\nc1                  0.0000         -          0          1     0.0000           -\n",
                          "\nc2                       -         -          0          0          -           -\n"};
    for (int i = 0; i < 2; i++)
        if (!strstr(text, rows[i]))
            fail_msg("no row '%s' in:\n%s", rows[i], text);
    free(text);
    char json[2048];
    assert_true(sl_events_format_json(&ev, names, 0.01, json, sizeof json) > 0);
    const char *want[] = {"{\"name\":\"c1\",\"event_f1\":0,\"event_error_rate\":null,\"reference\":0,"
                          "\"system\":1,\"segment_f1\":0,\"segment_error_rate\":null}",
                          "{\"name\":\"c2\",\"event_f1\":null,\"event_error_rate\":null,"
                          "\"reference\":0,\"system\":0,\"segment_f1\":null,\"segment_error_rate\":null}"};
    for (int i = 0; i < 2; i++)
        if (!strstr(json, want[i]))
            fail_msg("no '%s' in %s", want[i], json);
    /* no reference event at all: the set's error rates are undefined too */
    fill(ref, r, 0);
    sl_events_init(&ev, 3, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, 500), 0);
    assert_true(sl_events_format_json(&ev, names, 0.01, json, sizeof json) > 0);
    if (!strstr(json, "\"collar_s\":0.2,\"f1\":0,\"precision\":0,\"recall\":null,\"macro_f1\":0,"
                      "\"error_rate\":null,\"substitution_rate\":null,"
                      "\"deletion_rate\":null,\"insertion_rate\":null,\"reference\":0,\"system\":2}"))
        fail_msg("%s", json);
    if (!strstr(json, "\"segments\":{\"segment_s\":1,\"f1\":0,\"precision\":0,\"recall\":null,"))
        fail_msg("%s", json);
    /* no system event: nothing found, so no precision, but a recall of 0 */
    fill(ref, r, 1);
    fill(sys, s, 0);
    sl_events_init(&ev, 3, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, 500), 0);
    assert_true(sl_events_format_json(&ev, names, 0.01, json, sizeof json) > 0);
    if (!strstr(json, "\"collar_s\":0.2,\"f1\":0,\"precision\":null,\"recall\":0,") ||
        !strstr(json, "\"f1\":0,\"precision\":null,\"recall\":0,\"macro_f1\":0,\"error_rate\":1,"
                      "\"segments\":5}"))
        fail_msg("%s", json);
    text = NULL;
    fp = open_memstream(&text, &len);
    sl_events_print(&ev, names, 0.01, "", fp);
    fclose(fp);
    if (!strstr(text, "event_f1 0.0000  precision -  recall 0.0000  macro_f1 0.0000  reference 1  "
                      "system 0\n") ||
        !strstr(text, "segment_f1 0.0000  precision -  recall 0.0000  macro_f1 0.0000  error_rate "
                      "1.0000  segments 5\n"))
        fail_msg("%s", text);
    free(text);
}

static void test_classes_left_out(void **state)
{
    (void)state;
    /* only c0's runs are events: R1 R3 R5 against S1 S4 S6, 2 hits, no
     * substitution (S5 is not an event now); segments of c0 alone: the file's
     * length is the last c0 offset, 1000 */
    sl_events ev;
    worked_case(&ev, (const unsigned char[]){1, 0, 0});
    sl_event_figures f;
    sl_events_summary(&ev, &f);
    assert_int_equal(f.event_ref, 3);
    assert_int_equal(f.event_sys, 3);
    near(f.event_f1, 2.0 / 3);
    near(f.event_error_rate, 2.0 / 3);
    near(f.event_substitution_rate, 0.0);
    near(f.segment_f1, 10.0 / 13);
    near(f.segment_error_rate, 3.0 / 5);
    near(f.event_macro_f1, 2.0 / 3); /* c0 alone */
}

static void test_gap_and_collar(void **state)
{
    (void)state;
    sl_events ev;
    /* the system says nothing over [0,50): S1 is c0 [50,130), onset 50 frames
     * late, no match and no substitution; R1 is missed, S1 inserted */
    fill(ref, ref_runs, 5);
    fill(sys, sys_runs, 6);
    for (int i = 0; i < 50; i++)
        sys[i] = -1;
    sl_events_init(&ev, 3, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, N), 0);
    assert_int_equal(ev.ev_tp[0], 1);
    assert_int_equal(ev.ev_sys[0], 3);
    /* the collar's edge: an onset exactly 20 frames late matches, 21 does not */
    static const run r[] = {{0, 0, 500}, {1, 500, 1000}};
    static const run s20[] = {{0, 0, 520}, {1, 520, 1000}}, s21[] = {{0, 0, 521}, {1, 521, 1000}};
    fill(ref, r, 2);
    fill(sys, s20, 2);
    sl_events_init(&ev, 2, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, N), 0);
    assert_int_equal(ev.ev_tp[1], 1);
    fill(sys, s21, 2);
    sl_events_init(&ev, 2, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, N), 0);
    assert_int_equal(ev.ev_tp[1], 0);
    assert_int_equal(ev.ev_tp[0], 1); /* c0's offset 21 late: within half of 500 */
    /* nothing at all: no event, no segment, figures 0 */
    for (int i = 0; i < N; i++)
        ref[i] = sys[i] = -1;
    sl_events_init(&ev, 2, 20, 100);
    assert_int_equal(sl_events_add(&ev, ref, sys, N), 0);
    sl_event_figures f;
    sl_events_summary(&ev, &f);
    assert_int_equal(ev.segments, 0);
    near(f.event_f1, 0.0);
    near(f.segment_error_rate, 0.0);
}

static char dir[512], hyp[600];

/* The standard output of `seqlabel eval --hyp dir/hyp --manifest dir/MANIFEST
 * --classes c0,c1,c2 OPTIONS`, which must exit 0 (malloc'ed). */
static char *eval_output(const char *manifest, const char *options)
{
    char cmd[4096], *out_path = strdup(tt_path(dir, "out.txt"));
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s' --manifest '%s/%s' --classes c0,c1,c2 %s > '%s'",
             getenv("SL_SEQLABEL"), hyp, dir, manifest, options, out_path);
    assert_int_equal(tt_run(cmd, NULL), 0);
    char *out = tt_read_file(out_path, NULL);
    assert_non_null(out);
    printf("%s", out);
    free(out_path);
    return out;
}

/* Writes the runs as an Audacity label track at path. */
static void write_track(const char *path, const run *r, int n)
{
    static const char *const names[] = {"c0", "c1", "c2"};
    char text[1024];
    size_t len = 0;
    for (int k = 0; k < n; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%.2f\t%.2f\t%s\n",
                                r[k].on / 100.0, r[k].off / 100.0, names[r[k].cls]);
    tt_write_text(path, text);
}

/* The worked case as Audacity label tracks, through `seqlabel eval --hyp`. */
static void test_command(void **state)
{
    (void)state;
    assert_non_null(getenv("SL_SEQLABEL"));
    tt_mkdtemp(dir, sizeof dir, "events");
    SF_INFO info = {.samplerate = 16000, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16};
    SNDFILE *f = sf_open(tt_path(dir, "a.wav"), SFM_WRITE, &info);
    assert_non_null(f);
    static short zeros[160000];
    assert_int_equal(sf_writef_short(f, zeros, 160000), 160000);
    sf_close(f);
    snprintf(hyp, sizeof hyp, "%s/hyp", dir);
    assert_int_equal(mkdir(hyp, 0755), 0);
    write_track(tt_path(dir, "a.txt"), ref_runs, 5);
    write_track(tt_path(hyp, "a.txt"), sys_runs, 6);
    tt_write_text(tt_path(dir, "set.tsv"), "a.wav\ta.txt\n");
    char *out = eval_output("set.tsv", "--events all");
    assert_non_null(strstr(out, "event_f1 0.3636  precision 0.3333  recall 0.4000  macro_f1 0.2222"
                                "  reference 5  system 6"));
    assert_non_null(strstr(out, "event_error_rate 1.2000  substitutions 0.2000  deletions 0.4000"
                                "  insertions 0.6000"));
    assert_non_null(strstr(out, "segment_f1 0.5600  precision 0.5000  recall 0.6364"));
    assert_non_null(strstr(out, "error_rate 0.6364  segments 10"));
    /* class c1: event F1 0, ER 3, 1 reference and 2 system events, segments F1 1/2,
     * ER 4/3 */
    assert_non_null(strstr(out, "c1                  0.0000    3.0000          1          2     0.5000      1.3333"));
    free(out);
    /* --per-file: each file's own events; b's hypothesis is its reference */
    char copy[4096];
    snprintf(copy, sizeof copy, "cp '%s/a.wav' '%s/b.wav'", dir, dir);
    assert_int_equal(tt_run(copy, NULL), 0);
    write_track(tt_path(dir, "b.txt"), ref_runs, 5);
    write_track(tt_path(hyp, "b.txt"), ref_runs, 5);
    tt_write_text(tt_path(dir, "two.tsv"), "a.wav\ta.txt\nb.wav\tb.txt\n");
    out = eval_output("two.tsv", "--events all --per-file");
    /* both: 10 reference events, 11 system, 7 hits */
    assert_non_null(strstr(out, "event_f1 0.6667  precision 0.6364  recall 0.7000"));
    assert_non_null(strstr(out, " 0.3636        998  "));
    assert_non_null(strstr(out, " 1.0000        998  "));
    free(out);
    out = eval_output("two.tsv", "--events all --per-file --json");
    const char *first = strstr(out, "\"events\":{\"f1\":0.363636364,\"error_rate\":1.2,");
    assert_non_null(first);
    assert_non_null(strstr(first, "\"events\":{\"f1\":1,\"error_rate\":0,"));
    free(out);
    /* JSON, classes chosen */
    out = eval_output("set.tsv", "--events c0 --json");
    const char *line = strstr(out, "\n{\"events\":{\"collar_s\":0.2,\"f1\":0.666666667,");
    assert_non_null(line); /* after the frame figures' line */
    assert_non_null(strstr(line, "\"name\":\"c0\""));
    assert_null(strstr(line, "\"name\":\"c1\""));
    free(out);
    /* refusals: a class not among them, a collar without events, a UEM with them */
    char cmd[4096], *err = NULL;
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s' --manifest '%s/set.tsv' --events c9",
             getenv("SL_SEQLABEL"), hyp, dir);
    int rc = tt_run(cmd, &err);
    tt_expect_refusal("--events c9", 2, rc, err, "--events", "'c9'");
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s' --manifest '%s/set.tsv' --event-collar 0.1",
             getenv("SL_SEQLABEL"), hyp, dir);
    rc = tt_run(cmd, &err);
    tt_expect_refusal("--event-collar alone", 2, rc, err, "--event-collar", "--events");
    /* a UEM file's regions would cut events into new ones */
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s' --manifest '%s/set.tsv' --events all --uem x.uem",
             getenv("SL_SEQLABEL"), hyp, dir);
    rc = tt_run(cmd, &err);
    tt_expect_refusal("--uem with --events", 2, rc, err, "--uem", "--events");
    tt_rmtree(dir);
}

/* The figures (from "accuracy" on: all but the loss, which label files lack)
 * of `eval --model` with eval_opts on samples/mixture.wav against the
 * reference `reference` (its text: the mixture's own when NULL), asserted the
 * same as those of `seqlabel label` with label_opts written as frames and
 * scored with `eval --hyp` and hyp_opts. The caller frees them. */
static char *model_as_label(const char *reference, const char *eval_opts, const char *label_opts,
                            const char *hyp_opts)
{
    const char *seqlabel = getenv("SL_SEQLABEL"), *root = getenv("SL_SOURCE_ROOT");
    assert_non_null(seqlabel);
    assert_non_null(root);
    tt_mkdtemp(dir, sizeof dir, "events-model");
    /* the mixture alone (every class, and the most boundaries): five settings
     * of the whole samples/ would take half an hour under valgrind */
    char *set = strdup(tt_path(dir, "set.tsv")), line[4096];
    if (reference) {
        tt_write_text(tt_path(dir, "ref.txt"), reference);
        snprintf(line, sizeof line, "%s/samples/mixture.wav\t%s/ref.txt\n", root, dir);
    } else {
        snprintf(line, sizeof line, "%s/samples/mixture.wav\t%s/samples/mixture.txt\n", root,
                 root);
    }
    tt_write_text(set, line);
    char cmd[4096], *a = strdup(tt_path(dir, "a.json")), *b = strdup(tt_path(dir, "b.json"));
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/model/default.slm' --manifest '%s' "
             "--no-cache %s --events all --json > '%s' && "
             "'%s' label '%s/samples/mixture.wav' --model '%s/model/default.slm' %s -q "
             "--format frames -o '%s/hyp/' && "
             "'%s' eval --hyp '%s/hyp' --model '%s/model/default.slm' --manifest '%s' %s "
             "--events all --json > '%s'",
             seqlabel, root, set, eval_opts, a, seqlabel, root, root, label_opts, dir, seqlabel,
             dir, root, set, hyp_opts, b);
    assert_int_equal(tt_run(cmd, NULL), 0);
    char *x = tt_read_file(a, NULL), *y = tt_read_file(b, NULL);
    assert_non_null(x);
    assert_non_null(y);
    printf("%s%s", eval_opts, x);
    const char *fx = strstr(x, "\"accuracy\""), *fy = strstr(y, "\"accuracy\"");
    assert_non_null(fx);
    assert_non_null(fy);
    assert_non_null(strstr(fx, "\n{\"events\":"));
    assert_string_equal(fx, fy);
    char *seen = strdup(fx);
    free(x);
    free(y);
    free(a);
    free(b);
    free(set);
    tt_rmtree(dir);
    return seen;
}

/* eval --model scores the model's argmax frames, or with the decoder's options
 * (smoothing, minimum durations, a target class's hysteresis and padding) the
 * labels `seqlabel label` gives with the same options (its defaults for the
 * rest): the same frame figures and the same events as those labels written
 * by `seqlabel label` and scored with --hyp. The decoder's options with --hyp
 * are refused. */
static void test_model_events(void **state)
{
    (void)state;
    const char *seqlabel = getenv("SL_SEQLABEL"), *root = getenv("SL_SOURCE_ROOT");
    assert_non_null(seqlabel);
    assert_non_null(root);
    static const char *const pairs[][2] = { /* eval's options, label's */
        {"", "--smoothing none"},
        {"--smoothing viterbi", ""},
        {"--switch-penalty 3 --min-duration speech=0.3,music=0.5",
         "--switch-penalty 3 --min-duration speech=0.3,music=0.5"},
        {"--target speech --on-threshold 0.6 --off-threshold 0.4 --pad-before 0.1 --pad-after 0.2",
         "--target speech --on-threshold 0.6 --off-threshold 0.4 --pad-before 0.1 --pad-after 0.2"},
        /* the element's property names */
        {"--target-class speech --threshold-on 0.6 --threshold-off 0.4 --padding 0.1 "
         "--min-durations speech=0.3",
         "--target speech --on-threshold 0.6 --off-threshold 0.4 --pad-before 0.1 --pad-after 0.1 "
         "--min-duration speech=0.3"},
    };
    enum { N_PAIRS = sizeof pairs / sizeof pairs[0] };
    char *seen[N_PAIRS];
    for (int k = 0; k < N_PAIRS; k++)
        seen[k] = model_as_label(NULL, pairs[k][0], pairs[k][1], "");
    /* different labelings, so each setting was applied */
    for (int k = 1; k < N_PAIRS; k++)
        assert_string_not_equal(seen[k - 1], seen[k]);
    assert_string_not_equal(seen[1], seen[3]);
    for (int k = 0; k < N_PAIRS; k++)
        free(seen[k]);
    char cmd[4096], *err = NULL;
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s/samples' --manifest '%s/samples' --smoothing viterbi",
             seqlabel, root, root);
    int rc = tt_run(cmd, &err);
    tt_expect_refusal("--smoothing with --hyp", 2, rc, err, "--model", "decoded already");
    /* a decoder's sweep labels its own class as the target */
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/model/default.slm' --manifest '%s/samples' "
             "--no-cache --sweep speech --target music", seqlabel, root, root);
    rc = tt_run(cmd, &err);
    tt_expect_refusal("--sweep speech --target music", 2, rc, err, "--sweep speech decodes speech",
                      "--target's music");
    /* thresholds the wrong way round are said as given, not as the sweep's first point */
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/model/default.slm' --manifest '%s/samples' "
             "--no-cache --sweep speech --on-threshold 0.3 --off-threshold 0.4", seqlabel, root,
             root);
    rc = tt_run(cmd, &err);
    tt_expect_refusal("--sweep with off above on", 1, rc, err, "thresholds", "off (0.4) <= on (0.3)");
}

/* Where the references leave time unlabelled (5.96-14 s and the last 0.5 s),
 * eval --model's events are cut away as --hyp cuts the hypothesis's: no
 * insertion there, whatever a collar takes from the frames, with the decoder,
 * and with a sweep, whose table's events are cut too. Before, the model's
 * events there were insertions, a sweep (run on every window) added more, and
 * a collar that left a window's core no scored frame dropped its events. */
static void test_model_events_unlabelled_time(void **state)
{
    (void)state;
    static const char *const reference = "0.00\t0.60\tmusic\n0.60\t5.96\tspeech\n"
                                         "14.00\t19.50\tspeech\n";
    static const char *const cases[][3] = { /* eval --model's options, label's, eval --hyp's */
        {"", "--smoothing none", ""},
        {"--collar 0.5", "--smoothing none", "--collar 0.5"},
        {"--smoothing viterbi", "", ""},
        {"--sweep speech", "--smoothing none", "--sweep speech"},
    };
    enum { N_CASES = sizeof cases / sizeof cases[0] };
    for (int k = 0; k < N_CASES; k++) {
        char *seen = model_as_label(reference, cases[k][0], cases[k][1], cases[k][2]);
        if (k == N_CASES - 1) /* the sweep's table has events */
            assert_non_null(strstr(seen, "\"event_f1\":"));
        free(seen);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_undefined_figures),
        cmocka_unit_test(test_classes_left_out),
        cmocka_unit_test(test_gap_and_collar),
        cmocka_unit_test(test_command),
        cmocka_unit_test(test_model_events),
        cmocka_unit_test(test_model_events_unlabelled_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
