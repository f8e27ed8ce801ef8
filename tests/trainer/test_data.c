/* The trainer's data path, against hand-computed expectations:
 *  - frame labels: frame i takes the segment containing (i + 0.5) * 10 ms;
 *    gaps and point labels label nothing; segment order in the file is free;
 *    "=NAME" in the manifest labels every frame of its file;
 *  - metrics: accuracy, P/R/F1, macro F1 of a hand-made confusion matrix;
 *  - feature cache: cached features are bit-identical to features of the
 *    samples pushed straight into sl_features; a changed mtime, a changed
 *    setting or a damaged entry is recomputed, never trusted;
 *  - evaluation windows: sl_evaluate_manifest sees exactly what sl_labeler
 *    sees (same argmax labels and the same loss from the labeler's probs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "model/label_files.h"
#include "model/trainer_internal.h"
#include "trainer_test_util.h"

static char dir[512];

static int setup(void **state)
{
    (void)state;
    tt_mkdtemp(dir, sizeof dir, "data");
    tt_make_task_file(dir, "one", 1.0, 3); /* 16000 samples: 98 frames */
    tt_make_task_file(dir, "three", 3.0, 4);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

/* A TextGrid of one interval tier named `tier`, its intervals those of the
 * tests' labels (a 0-0.255, b 0.3-0.5), into buf. */
static const char *tier_textgrid(char *buf, size_t len, const char *tier)
{
    snprintf(buf, len, "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n0\n1\n"
             "<exists>\n1\n\"IntervalTier\"\n\"%s\"\n0\n1\n4\n0\n0.255\n\"a\"\n0.255\n"
             "0.3\n\"\"\n0.3\n0.5\n\"b\"\n0.5\n1\n\"\"\n", tier);
    return buf;
}

/* one.wav labelled by the label file `name` holding `label_text`; `ref` is the
 * manifest's labels column (NULL: name). */
static void load_label_file(const char *name, const char *ref, const char *label_text,
                            sl_dataset *ds)
{
    char line[256];
    tt_write_text(tt_path(dir, name), label_text);
    snprintf(line, sizeof line, "one.wav\t%s\n", ref ? ref : name);
    tt_write_text(tt_path(dir, "l.tsv"), line);
    sl_manifest man;
    char err[SL_ERR_LEN];
    assert_int_equal(sl_manifest_load(tt_path(dir, "l.tsv"), &man, err, sizeof err), 0);
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const char *names[] = {"a", "b", "point"};
    if (sl_dataset_load(ds, &man, SL_SPLIT_BIT(SL_SPLIT_NONE), &fc, NULL, names, 3, err, sizeof err))
        fail_msg("%s", err);
    sl_manifest_free(&man);
}

/* The segments of one.wav's manifest line with `labels` in its labels column:
 * 0, or -1 with the message in err. */
static int entry_segments(const char *labels, sl_label_segment **segs, int *n, char *err,
                          size_t errlen)
{
    char line[256];
    snprintf(line, sizeof line, "one.wav\t%s\n", labels);
    tt_write_text(tt_path(dir, "l.tsv"), line);
    sl_manifest man;
    assert_int_equal(sl_manifest_load(tt_path(dir, "l.tsv"), &man, err, errlen), 0);
    int rc = sl_manifest_entry_segments(&man.entries[0], segs, n, err, errlen);
    sl_manifest_free(&man);
    return rc;
}

static void load_labels(const char *label_text, sl_dataset *ds)
{
    load_label_file("l.txt", NULL, label_text, ds);
}

static void check_frame_labels(const sl_dataset *ds)
{
    assert_int_equal(ds->n_files, 1);
    assert_int_equal(ds->frames, 98); /* 1 + (16000 - 400) / 160 */
    const int32_t *y = ds->files[0].labels;
    for (int i = 0; i < 98; i++) {
        int want = i <= 24 ? 0 : i <= 29 ? -1 : i <= 49 ? 1 : -1;
        if (y[i] != want)
            fail_msg("frame %d: label %d, expected %d", i, y[i], want);
    }
    assert_int_equal(ds->labeled, 45);
    assert_int_equal(ds->class_frames[0], 25);
    assert_int_equal(ds->class_frames[1], 20);
    assert_int_equal(ds->class_frames[2], 0);
}

static void frame_labels_follow_centres(void **state)
{
    (void)state;
    sl_dataset ds;
    /* a: centres in [0, 0.255) -> frames 0..24 (frame 25's centre is 0.255);
     * gap 25..29; b: [0.30, 0.50) -> 30..49; the point label labels nothing. */
    load_labels("0.00\t0.255\ta\n0.30\t0.50\tb\n0.50\t0.50\tpoint\n", &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    load_labels("0.50\t0.50\tpoint\n0.30\t0.50\tb\n\\\t100\t200\n0.00\t0.255\ta\n", &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
}

/* The same labels as a Praat TextGrid: long format with a point tier and
 * another interval tier before the chosen one (x.TextGrid#words), the empty
 * intervals labelling nothing; short format (the first interval tier); and
 * Praat's UTF-16 with a byte order mark. The frames are those of the Audacity
 * track above. */
static const char *const LONG_TEXTGRID =
    "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\nxmin = 0 \nxmax = 1 \n"
    "tiers? <exists> \nsize = 3 \nitem []: \n"
    "    item [1]:\n        class = \"TextTier\" \n        name = \"bell\" \n"
    "        xmin = 0 \n        xmax = 1 \n        points: size = 1 \n"
    "        points [1]:\n            number = 0.4 \n            mark = \"ding\" \n"
    "    item [2]:\n        class = \"IntervalTier\" \n        name = \"other\" \n"
    "        xmin = 0 \n        xmax = 1 \n        intervals: size = 1 \n"
    "        intervals [1]:\n            xmin = 0 \n            xmax = 1 \n"
    "            text = \"b\" \n"
    "    item [3]:\n        class = \"IntervalTier\" \n        name = \"words\" \n"
    "        xmin = 0 \n        xmax = 1 \n        intervals: size = 4 \n"
    "        intervals [1]:\n            xmin = 0 \n            xmax = 0.255 \n"
    "            text = \" a \" \n"
    "        intervals [2]:\n            xmin = 0.255 \n            xmax = 0.3 \n"
    "            text = \"\" \n"
    "        intervals [3]:\n            xmin = 0.3 \n            xmax = 0.5 \n"
    "            text = \"b\" \n"
    "        intervals [4]:\n            xmin = 0.5 \n            xmax = 1 \n"
    "            text = \"  \" \n";

static void textgrid_labels(void **state)
{
    (void)state;
    sl_dataset ds;
    load_label_file("one.TextGrid", "one.TextGrid#words", LONG_TEXTGRID, &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    const char *short_tg = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n0\n1\n"
                           "<exists>\n1\n\"IntervalTier\"\n\"words\"\n0\n1\n4\n"
                           "0\n0.255\n\"a\"\n0.255\n0.3\n\"\"\n0.3\n0.5\n\"b\"\n0.5\n1\n\"\"\n";
    load_label_file("short.textgrid", NULL, short_tg, &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    /* a '#' of the file's own name (take#1.TextGrid), and of a tier's: only
     * x.TextGrid#TIER names a tier */
    load_label_file("take#1.TextGrid", NULL, short_tg, &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    load_label_file("take#2.TextGrid", "take#2.TextGrid#words", LONG_TEXTGRID, &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    char one_tier[512];
    load_label_file("take#3.TextGrid", "take#3.TextGrid#words#2",
                    tier_textgrid(one_tier, sizeof one_tier, "words#2"), &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    /* a tier named in the other Unicode form: Praat on macOS saved "Wörter"
     * in NFD, the manifest names it in NFC */
    load_label_file("nfd.TextGrid", "nfd.TextGrid#W\xc3\xb6rter",
                    tier_textgrid(one_tier, sizeof one_tier, "Wo\xcc\x88rter"), &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    /* UTF-16BE with its byte order mark, as Praat saves non-ASCII text */
    FILE *f = fopen(tt_path(dir, "utf16.TextGrid"), "wb");
    fputc(0xFE, f);
    fputc(0xFF, f);
    for (const char *c = short_tg; *c; c++) {
        fputc(0, f);
        fputc(*c, f);
    }
    fclose(f);
    char err[SL_ERR_LEN];
    sl_label_segment *segs;
    int n;
    if (entry_segments("utf16.TextGrid", &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 2);
    assert_string_equal(segs[0].name, "a");
    assert_true(segs[0].start == 0.0 && segs[0].end == 0.255);
    assert_string_equal(segs[1].name, "b");
    assert_true(segs[1].start == 0.3 && segs[1].end == 0.5);
    assert_int_equal(segs[1].line, 21); /* the line of its text */
    sl_label_segments_free(segs, n);
}

/* RTTM: the audio's SPEAKER lines by name (another file's lines and other line
 * types skipped), and with "#a" every turn of class a, overlapping turns merged;
 * both give the frames of the Audacity track above. */
static void rttm_labels(void **state)
{
    (void)state;
    sl_dataset ds;
    load_label_file("one.rttm", NULL,
                    ";; a comment\n"
                    "SPKR-INFO one 1 <NA> <NA> <NA> unknown a <NA> <NA>\n"
                    "SPEAKER one 1 0.300 0.200 <NA> <NA> b <NA> <NA>\n"
                    "SPEAKER other 1 0.255 0.045 <NA> <NA> b <NA> <NA>\n"
                    "SPEAKER one 1 0.000 0.255 <NA> <NA> a <NA> <NA>\n", &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    /* a '#' of the file's own name is no class (take#1.rttm) */
    load_label_file("take#1.rttm", NULL,
                    "SPEAKER take#1 1 0.300 0.200 <NA> <NA> b <NA> <NA>\n"
                    "SPEAKER take#1 1 0.000 0.255 <NA> <NA> a <NA> <NA>\n", &ds);
    check_frame_labels(&ds);
    sl_dataset_free(&ds);
    /* every turn as class a: 0-0.2 and 0.1-0.255 (two at once) and 0.255-0.255
     * merge into one segment, 0-0.255; b's turn is a too */
    load_label_file("two.rttm", "two.rttm#a",
                    "SPEAKER one 1 0.1 0.155 <NA> <NA> spk2 <NA> <NA>\n"
                    "SPEAKER one 1 0 0.2 <NA> <NA> spk1 <NA> <NA>\n"
                    "SPEAKER one 1 0.255 0 <NA> <NA> spk1 <NA> <NA>\n", &ds);
    const int32_t *y = ds.files[0].labels;
    for (int i = 0; i < 98; i++)
        assert_int_equal(y[i], i <= 24 ? 0 : -1);
    sl_dataset_free(&ds);
    /* two speakers at once without one class: refused, naming both lines */
    tt_write_text(tt_path(dir, "both.rttm"), "SPEAKER one 1 0 0.2 <NA> <NA> a <NA> <NA>\n"
                                              "SPEAKER one 1 0.1 0.3 <NA> <NA> b <NA> <NA>\n");
    char err[SL_ERR_LEN];
    sl_label_segment *segs;
    int n;
    assert_int_equal(entry_segments("both.rttm", &segs, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "both.rttm:2: 'b' (0.1-0.4 s) overlaps 'a' of line 1"));
    assert_non_null(strstr(err, "both.rttm#speech"));
    /* ... but one speaker's name in two Unicode forms is one speaker's turns */
    tt_write_text(tt_path(dir, "forms.rttm"),
                  "SPEAKER one 1 0 0.2 <NA> <NA> J\xc3\xbcrgen <NA> <NA>\n"
                  "SPEAKER one 1 0.1 0.3 <NA> <NA> Ju\xcc\x88rgen <NA> <NA>\n");
    if (entry_segments("forms.rttm", &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 1);
    assert_string_equal(segs[0].name, "J\xc3\xbcrgen");
    assert_true(fabs(segs[0].end - 0.4) < 1e-9);
    sl_label_segments_free(segs, n);
    /* one file's turns under another id are that file's; turns of several other
     * files are none of one.wav's; a bad time names its line */
    const struct {
        const char *text, *err;
    } cases[] = {{"SPEAKER renamed 1 0 0.255 <NA> <NA> a <NA> <NA>\n", NULL},
                 /* as `seqlabel label --format rttm` writes touching segments:
                  * 0.57 + 5.44 is 6.0100000000000007 in double, no overlap */
                 {"SPEAKER one 1 0.570000 5.440000 <NA> <NA> a <NA> <NA>\n"
                  "SPEAKER one 1 6.010000 2.790000 <NA> <NA> b <NA> <NA>\n", NULL},
                 /* another file's lines may be of another channel; one file's
                  * (or a renamed recording's) are one channel's */
                 {"SPEAKER one 1 0 0.255 <NA> <NA> a <NA> <NA>\n"
                  "SPEAKER two 2 0 0.2 <NA> <NA> b <NA> <NA>\n"
                  "SPEAKER one 1 0.3 0.2 <NA> <NA> b <NA> <NA>\n", NULL},
                 {"SPEAKER one 1 0 0.255 <NA> <NA> a <NA> <NA>\n"
                  "SPEAKER one 2 0.3 0.2 <NA> <NA> b <NA> <NA>\n",
                  "c.rttm:2: channel 2, where line 1 of the same file is channel 1"},
                 {"SPEAKER renamed 1 0 0.255 <NA> <NA> a <NA> <NA>\n"
                  "SPEAKER renamed 2 0.3 0.2 <NA> <NA> b <NA> <NA>\n",
                  "c.rttm:2: channel 2, where line 1 of the same file is channel 1"},
                 {"SPEAKER x 1 0 0.2 <NA> <NA> a <NA> <NA>\nSPEAKER y 1 0 0.2 <NA> <NA> a <NA> <NA>\n",
                  "no SPEAKER line of file 'one'"},
                 {"SPEAKER one 1 0 soon <NA> <NA> a <NA> <NA>\n", "c.rttm:1: bad time 'soon'"},
                 {"SPEAKER one 1 0 0.2\n", "c.rttm:1: expected SPEAKER <file>"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tt_write_text(tt_path(dir, "c.rttm"), cases[c].text);
        int rc = entry_segments("c.rttm", &segs, &n, err, sizeof err);
        if (cases[c].err) {
            assert_int_equal(rc, -1);
            if (!strstr(err, cases[c].err))
                fail_msg("case %zu: '%s' lacks '%s'", c, err, cases[c].err);
        } else {
            if (rc)
                fail_msg("case %zu: %s", c, err);
            assert_int_equal(n, c == 0 ? 1 : 2);
            assert_string_equal(segs[0].name, "a");
            assert_true(n == 1 || segs[0].end <= segs[1].start);
            sl_label_segments_free(segs, n);
        }
    }
}

/* "=NAME" labels the whole file NAME: every frame of three.wav (298: 1 + (48000 -
 * 400) / 160), its last frame's centre at 2.975 s included, next to a file with a
 * label track. */
static void whole_file_labels(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "l.txt"), "0.00\t0.255\ta\n0.30\t0.50\tb\n");
    tt_write_text(tt_path(dir, "w.tsv"), "one.wav\tl.txt\nthree.wav\t=point\n");
    sl_manifest man;
    char err[SL_ERR_LEN];
    assert_int_equal(sl_manifest_load(tt_path(dir, "w.tsv"), &man, err, sizeof err), 0);
    assert_string_equal(man.entries[1].labels, "=point"); /* a name, not a path */
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const char *names[] = {"a", "b", "point"};
    sl_dataset ds;
    if (sl_dataset_load(&ds, &man, SL_SPLIT_BIT(SL_SPLIT_NONE), &fc, NULL, names, 3, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ds.n_files, 2);
    assert_int_equal(ds.files[1].ff.n_frames, 298);
    for (int i = 0; i < 298; i++)
        assert_int_equal(ds.files[1].labels[i], 2);
    assert_int_equal(ds.labeled, 45 + 298);
    assert_int_equal(ds.class_frames[2], 298);
    sl_dataset_free(&ds);
    /* Without --classes the names come in order of first appearance, this one too. */
    char *found[SL_MAX_CLASSES];
    int n = 0;
    assert_int_equal(sl_dataset_collect_classes(&man, SL_SPLIT_BIT(SL_SPLIT_NONE), 1, found, &n, err,
                                                sizeof err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(found[2], "point");
    for (int k = 0; k < n; k++)
        free(found[k]);
    sl_manifest_free(&man);
}

/* A name in two Unicode forms (Größe from Linux, NFC, and from macOS, o +
 * U+0308, NFD) is one name: label files' names are read in NFC, the class
 * the NFC bytes, whichever form came first; a label in the other form finds a
 * class given in it. A name is held to the 64 bytes in NFC, as it is kept:
 * 9 Korean syllables are 27 bytes, 69 in macOS's NFD. */
static void unicode_forms_are_one_class(void **state)
{
    (void)state;
#define KOREAN_NFD "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab\xe1\x84\x80\xe1\x85\xae\xe1\x86\xa8" \
    "\xe1\x84\x8b\xe1\x85\xa5\xe1\x84\x8b\xe1\x85\xb3\xe1\x86\xb7\xe1\x84\x89\xe1\x85\xa5\xe1\x86\xbc" \
    "\xe1\x84\x83\xe1\x85\xa6\xe1\x84\x8b\xe1\x85\xb5\xe1\x84\x90\xe1\x85\xa5\xe1\x84\x89\xe1\x85\xa6\xe1\x86\xba"
#define KOREAN_NFC "\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4\xec\x9d\x8c\xec\x84\xb1\xeb\x8d\xb0\xec\x9d\xb4" \
    "\xed\x84\xb0\xec\x85\x8b"
    tt_write_text(tt_path(dir, "u.txt"), "0.00\t0.20\tGro\xcc\x88\xc3\x9f" "e\n"
                                         "0.20\t0.40\tGr\xc3\xb6\xc3\x9f" "e\n0.40\t0.50\t" KOREAN_NFD "\n");
    tt_write_text(tt_path(dir, "u.tsv"), "one.wav\tu.txt\n");
    sl_manifest man;
    char err[SL_ERR_LEN], *found[SL_MAX_CLASSES];
    int n = 0;
    assert_int_equal(sl_manifest_load(tt_path(dir, "u.tsv"), &man, err, sizeof err), 0);
    if (sl_dataset_collect_classes(&man, SL_SPLIT_BIT(SL_SPLIT_NONE), 1, found, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 2);
    assert_string_equal(found[0], "Gr\xc3\xb6\xc3\x9f" "e");
    assert_string_equal(found[1], KOREAN_NFC);
    for (int k = 0; k < n; k++)
        free(found[k]);
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const char *names[] = {KOREAN_NFD, "Gro\xcc\x88\xc3\x9f" "e"};
    sl_dataset ds;
    if (sl_dataset_load(&ds, &man, SL_SPLIT_BIT(SL_SPLIT_NONE), &fc, NULL, names, 2, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ds.class_frames[1], 40);
    assert_int_equal(ds.class_frames[0], 10);
    sl_dataset_free(&ds);
    sl_manifest_free(&man);
    /* not a name that merely looks alike: o without its diaeresis */
    assert_int_equal(sl_class_of("Gro\xc3\x9f" "e", names, 2), -1);
    /* a name NFC makes longer than 64 bytes (21 U+0958, 63 bytes, are 126 in
     * NFC, which decomposes it) is kept as written */
    char deva[128] = "0\t1\t";
    for (int k = 0; k < 21; k++)
        strcat(deva, "\xe0\xa5\x98");
    strcat(deva, "\n");
    tt_write_text(tt_path(dir, "deva.txt"), deva);
    sl_label_segment *segs;
    int ns;
    if (entry_segments("deva.txt", &segs, &ns, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ns, 1);
    assert_int_equal(strlen(segs[0].name), 63);
    assert_memory_equal(segs[0].name, deva + 4, 63);
    sl_label_segments_free(segs, ns);
    /* an RTTM's file id in NFC for audio macOS named in NFD */
    tt_write_text(tt_path(dir, "id.rttm"), "SPEAKER caf\xc3\xa9 1 0 0.5 <NA> <NA> a <NA> <NA>\n");
    if (sl_rttm_read(tt_path(dir, "id.rttm"), "cafe\xcc\x81", NULL, &segs, &ns, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ns, 1);
    sl_label_segments_free(segs, ns);
    /* nor is a cut sequence (glib's NFC would read past it) */
    assert_int_equal(sl_class_of("Gr\xc3", names, 2), -1);
#undef KOREAN_NFD
#undef KOREAN_NFC
}

/* A point label (an Audacity marker: start = end) labels nothing, so it names
 * no class either: one class's spans and a marker are one class, refused for
 * training as such, not a model with an output no frame trained. */
static void point_labels_name_no_class(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "m.txt"), "0.00\t0.255\ta\n0.1\t0.1\tcheck this\n0.30\t0.50\tb\n");
    tt_write_text(tt_path(dir, "m.tsv"), "one.wav\tm.txt\n");
    sl_manifest man;
    char err[SL_ERR_LEN], *found[SL_MAX_CLASSES];
    int n = 0;
    assert_int_equal(sl_manifest_load(tt_path(dir, "m.tsv"), &man, err, sizeof err), 0);
    assert_int_equal(sl_dataset_collect_classes(&man, SL_SPLIT_BIT(SL_SPLIT_NONE), 1, found, &n, err,
                                                sizeof err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(found[0], "a");
    assert_string_equal(found[1], "b");
    for (int k = 0; k < n; k++)
        free(found[k]);
    /* ... nor is it an unknown class where the classes are given */
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const char *names[] = {"a", "b"};
    sl_dataset ds;
    if (sl_dataset_load(&ds, &man, SL_SPLIT_BIT(SL_SPLIT_NONE), &fc, NULL, names, 2, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ds.labeled, 45);
    sl_dataset_free(&ds);
    sl_manifest_free(&man);
}

/* Text files a Windows editor saved start with a UTF-8 byte order mark: the
 * manifest's first path, an Audacity file's first time, an RTTM file's first
 * line and a noise list's first file read as if it were not there. */
static void byte_order_marks(void **state)
{
    (void)state;
    const char *bom = "\xEF\xBB\xBF";
    char text[256];
    snprintf(text, sizeof text, "%s0.00\t0.255\ta\n0.30\t0.50\tb\n", bom);
    tt_write_text(tt_path(dir, "bom.txt"), text);
    /* and lines of blanks alone, which an editor leaves, skipped as empty ones */
    snprintf(text, sizeof text, "%sone.wav\tbom.txt\n   \n\t\n", bom);
    tt_write_text(tt_path(dir, "bom.tsv"), text);
    snprintf(text, sizeof text, "%sSPEAKER one 1 0.10 0.20 <NA> <NA> a <NA> <NA>\n", bom);
    tt_write_text(tt_path(dir, "bom.rttm"), text);
    sl_manifest man;
    char err[SL_ERR_LEN];
    if (sl_manifest_load(tt_path(dir, "bom.tsv"), &man, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(man.n, 1);
    assert_string_equal(man.entries[0].audio, tt_path(dir, "one.wav"));
    sl_manifest_free(&man);
    /* a split column may name the validation split as a folder may: dev, val */
    tt_write_text(tt_path(dir, "dev.tsv"), "one.wav\tbom.txt\tdev\none.wav\tbom.txt\tval\n");
    if (sl_manifest_load(tt_path(dir, "dev.tsv"), &man, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(man.n, 2);
    assert_int_equal(man.entries[0].split, SL_SPLIT_VALID);
    assert_int_equal(man.entries[1].split, SL_SPLIT_VALID);
    sl_manifest_free(&man);
    sl_label_segment *segs = NULL;
    int n = 0;
    if (sl_audacity_read(tt_path(dir, "bom.txt"), &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 2);
    assert_true(segs[0].start == 0.0 && segs[0].end == 0.255);
    sl_label_segments_free(segs, n);
    if (sl_rttm_read(tt_path(dir, "bom.rttm"), "one", NULL, &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 1);
    assert_true(segs[0].start == 0.10 && segs[0].end == 0.30); /* the decimal sum */
    sl_label_segments_free(segs, n);
    snprintf(text, sizeof text, "%snz.wav\n", bom);
    tt_write_text(tt_path(dir, "bom.lst"), text);
    size_t len;
    char *list = sl_read_text(tt_path(dir, "bom.lst"), &len, err, sizeof err), *at = list;
    assert_non_null(list);
    char path[1024];
    int line = 0;
    assert_int_equal(sl_noise_list_next(&at, tt_path(dir, "bom.lst"), path, sizeof path, &line), 1);
    assert_string_equal(path, tt_path(dir, "nz.wav"));
    assert_int_equal(sl_noise_list_next(&at, tt_path(dir, "bom.lst"), path, sizeof path, &line), 0);
    free(list);
    /* a line longer than a path may be is said, not split into two paths */
    char *longer = malloc(6000);
    assert_non_null(longer);
    memset(longer, 'a', 5000);
    snprintf(longer + 5000, 1000, ".wav\nnz.wav\n");
    tt_write_text(tt_path(dir, "long.lst"), longer);
    free(longer);
    list = sl_read_text(tt_path(dir, "long.lst"), &len, err, sizeof err);
    at = list;
    line = 0;
    assert_int_equal(sl_noise_list_next(&at, tt_path(dir, "long.lst"), path, sizeof path, &line), -1);
    assert_int_equal(line, 1);
    assert_int_equal(sl_noise_list_next(&at, tt_path(dir, "long.lst"), path, sizeof path, &line), 1);
    assert_int_equal(line, 2);
    free(list);
}

/* A folder as a manifest: each audio file labelled by the label file of its
 * name beside it, else by the folder below the root it lies in (=class), a
 * first folder train/valid/test being its split; hidden files and other files
 * left out, name order. A file with neither is refused, named. */
static void folder_manifests(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    /* made in C, not by a shell: valgrind traces every program a test runs */
    const char *folders[] = {"f", "f/train", "f/train/dog", "f/train/dog/deep", "f/train/cat",
                             "f/valid", "f/valid/dog", "f/test", "f/.hidden"};
    for (size_t k = 0; k < sizeof folders / sizeof folders[0]; k++)
        assert_int_equal(mkdir(tt_path(dir, folders[k]), 0755), 0);
    const char *links[][2] = {{"one.wav", "f/train/dog/d1.wav"}, {"three.wav", "f/train/dog/deep/d2.wav"},
                              {"one.wav", "f/train/cat/c1.wav"}, {"one.wav", "f/valid/dog/d3.wav"},
                              {"three.wav", "f/test/t.wav"}, {"three.txt", "f/test/t.txt"},
                              {"one.wav", "f/.hidden/h.wav"}, {"one.wav", "f/train/cat/c2.wav"}};
    for (size_t k = 0; k < sizeof links / sizeof links[0]; k++) {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, links[k][0]));
        assert_int_equal(link(from, tt_path(dir, links[k][1])), 0);
    }
    tt_write_text(tt_path(dir, "f/train/cat/c2.txt"), "0\t0.5\tbird\n");
    tt_write_text(tt_path(dir, "f/readme.md"), "notes\n");
    sl_manifest man;
    if (sl_manifest_load(tt_path(dir, "f"), &man, err, sizeof err))
        fail_msg("%s", err);
    const struct {
        const char *audio, *labels;
        sl_split split;
    } want[] = {
        {"f/test/t.wav", "f/test/t.txt", SL_SPLIT_TEST},
        {"f/train/cat/c1.wav", "=cat", SL_SPLIT_TRAIN},
        {"f/train/cat/c2.wav", "f/train/cat/c2.txt", SL_SPLIT_TRAIN},
        {"f/train/dog/d1.wav", "=dog", SL_SPLIT_TRAIN},
        {"f/train/dog/deep/d2.wav", "=dog", SL_SPLIT_TRAIN},
        {"f/valid/dog/d3.wav", "=dog", SL_SPLIT_VALID},
    };
    assert_int_equal(man.n, 6);
    for (int i = 0; i < 6; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, want[i].audio);
        assert_string_equal(man.entries[i].audio, path);
        if (want[i].labels[0] == '=') {
            assert_string_equal(man.entries[i].labels, want[i].labels);
        } else {
            snprintf(path, sizeof path, "%s/%s", dir, want[i].labels);
            assert_string_equal(man.entries[i].labels, path);
        }
        assert_int_equal(man.entries[i].split, want[i].split);
    }
    /* the dataset and its classes as from a written manifest */
    char *found[SL_MAX_CLASSES];
    int n = 0;
    assert_int_equal(sl_dataset_collect_classes(&man, SL_SPLIT_BIT(SL_SPLIT_TRAIN), 1, found, &n, err,
                                                sizeof err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(found[0], "cat");
    assert_string_equal(found[1], "bird");
    assert_string_equal(found[2], "dog");
    for (int k = 0; k < n; k++)
        free(found[k]);
    sl_manifest_free(&man);
    /* a file at the top with no label file: refused, named */
    char from[600];
    snprintf(from, sizeof from, "%s", tt_path(dir, "one.wav"));
    assert_int_equal(link(from, tt_path(dir, "f/loose.wav")), 0);
    assert_int_equal(sl_manifest_load(tt_path(dir, "f"), &man, err, sizeof err), -1);
    assert_non_null(strstr(err, "f/loose.wav: no labels: give it a label file of its name beside it (loose.txt"));
    /* labelled, it is still in no split while the others are: refused, named */
    tt_write_text(tt_path(dir, "f/loose.txt"), "0\t0.5\tdog\n");
    assert_int_equal(sl_manifest_load(tt_path(dir, "f"), &man, err, sizeof err), -1);
    assert_non_null(strstr(err, "f: loose.wav lies beside the split folder test/, in none"));
    assert_int_equal(unlink(tt_path(dir, "f/loose.wav")), 0);
    /* validation/ (and val/, dev/) is the validation split, as other tools name it */
    assert_int_equal(mkdir(tt_path(dir, "f/validation"), 0755), 0);
    assert_int_equal(mkdir(tt_path(dir, "f/validation/cat"), 0755), 0);
    assert_int_equal(link(from, tt_path(dir, "f/validation/cat/c9.wav")), 0);
    if (sl_manifest_load(tt_path(dir, "f"), &man, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(man.n, 7);
    assert_int_equal(man.entries[6].split, SL_SPLIT_VALID);
    assert_string_equal(man.entries[6].labels, "=cat");
    sl_manifest_free(&man);
    /* a misspelt split beside the others would train as a class of its own
     * ('Valid', of dogs and cats): refused, named */
    assert_int_equal(mkdir(tt_path(dir, "f/Valid"), 0755), 0);
    assert_int_equal(mkdir(tt_path(dir, "f/Valid/dog"), 0755), 0);
    assert_int_equal(link(from, tt_path(dir, "f/Valid/dog/d9.wav")), 0);
    assert_int_equal(sl_manifest_load(tt_path(dir, "f"), &man, err, sizeof err), -1);
    assert_non_null(strstr(err, "f: Valid/ is not a split folder"));
    assert_non_null(strstr(err, "would train as one class named 'Valid'"));
}

typedef struct {
    int found, lost;
    char why[SL_ERR_LEN];
} walk_count;

static int count_found(void *user, const char *path, const char *rel)
{
    (void)path, (void)rel;
    ((walk_count *)user)->found++;
    return 0;
}

static int count_lost(void *user, const char *why)
{
    walk_count *w = user;
    w->lost++;
    snprintf(w->why, sizeof w->why, "%s", why);
    return 0;
}

/* A folder tree as deep as 256 levels is walked; one deeper is refused, naming
 * it, not walked until the stack runs out (a tree of ~700 levels crashed it). */
static void deep_folders(void **state)
{
    (void)state;
    char path[4096], err[SL_ERR_LEN];
    snprintf(path, sizeof path, "%s", tt_path(dir, "deep"));
    assert_int_equal(mkdir(path, 0755), 0);
    for (int level = 1; level <= 256; level++) {
        strcat(path, "/a");
        assert_int_equal(mkdir(path, 0755), 0);
    }
    char audio[4200], labels[4200];
    snprintf(audio, sizeof audio, "%s/x.wav", path);
    snprintf(labels, sizeof labels, "%s/x.txt", path);
    assert_int_equal(link(tt_path(dir, "one.wav"), audio), 0);
    tt_write_text(labels, "0\t0.5\tdog\n");
    sl_manifest man;
    if (sl_manifest_load(tt_path(dir, "deep"), &man, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(man.n, 1);
    assert_string_equal(man.entries[0].audio, audio);
    sl_manifest_free(&man);
    strcat(path, "/a");
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(sl_manifest_load(tt_path(dir, "deep"), &man, err, sizeof err), -1);
    if (!strstr(err, "/a/a/: folders nested more than 256 deep below ") || !strstr(err, "/deep"))
        fail_msg("%s", err);
    /* a walk that goes on past the parts it cannot take (seqlabel label's
     * folders) hears why, and still finds the file above them */
    walk_count w = {0, 0, ""};
    assert_int_equal(sl_audio_files_below_ex(tt_path(dir, "deep"), NULL, count_found, count_lost,
                                             &w, NULL, 0), 0);
    assert_int_equal(w.found, 1);
    assert_int_equal(w.lost, 1);
    if (!strstr(w.why, "/a/a/: folders nested more than 256 deep below "))
        fail_msg("%s", w.why);
}

/* sl_manifest_hold_out_groups: every file of one key goes one way, the way a
 * file named just by the key would go by path; about the share asked of the
 * keys; a group (...) keys by its text; a path without a key or a bad pattern
 * is an error naming it. */
static void hold_out_by_group(void **state)
{
    (void)state;
    enum { SOURCES = 200, CLIPS = 4 };
    const char *patterns[] = {"src[0-9]+", "/([0-9]+)-[^/]*$"};
    for (int p = 0; p < 2; p++) {
        sl_manifest m = {0}, by_key = {0};
        m.entries = calloc(SOURCES * CLIPS, sizeof *m.entries);
        by_key.entries = calloc(SOURCES, sizeof *by_key.entries);
        assert_non_null(m.entries);
        assert_non_null(by_key.entries);
        for (int k = 0; k < SOURCES * CLIPS; k++) {
            char path[64];
            int src = k / CLIPS;
            if (p == 0)
                snprintf(path, sizeof path, "take%d/src%d_%d.wav", k % CLIPS, src, k % CLIPS);
            else
                snprintf(path, sizeof path, "fold%d/%d-%d-0.wav", k % 3, src, k % CLIPS);
            m.entries[k] = (sl_manifest_entry){.audio = strdup(path), .labels = strdup("=x"),
                                               .line = k + 1};
            if (k % CLIPS == 0) {
                snprintf(path, sizeof path, p == 0 ? "src%d" : "%d", src);
                by_key.entries[src] = (sl_manifest_entry){.audio = strdup(path), .labels = strdup("=x")};
            }
        }
        m.n = SOURCES * CLIPS;
        by_key.n = SOURCES;
        char err[SL_ERR_LEN] = "";
        int held = sl_manifest_hold_out_groups(&m, 0.3, patterns[p], err, sizeof err);
        int held_keys = sl_manifest_hold_out(&by_key, 0.3);
        assert_int_equal(held, held_keys * CLIPS);
        assert_true(held_keys > 40 && held_keys < 80); /* 0.3 of 200: 60 */
        for (int k = 0; k < SOURCES * CLIPS; k++)
            assert_int_equal(m.entries[k].split, by_key.entries[k / CLIPS].split);
        /* by path, some source's clips land on both sides */
        for (int k = 0; k < SOURCES * CLIPS; k++)
            m.entries[k].split = SL_SPLIT_NONE;
        sl_manifest_hold_out(&m, 0.3);
        int mixed = 0;
        for (int src = 0; src < SOURCES; src++)
            for (int c = 1; c < CLIPS; c++)
                mixed += m.entries[src * CLIPS + c].split != m.entries[src * CLIPS].split;
        assert_true(mixed > 0);
        sl_manifest_free(&m);
        sl_manifest_free(&by_key);
    }
    sl_manifest m = {0};
    m.entries = calloc(2, sizeof *m.entries);
    assert_non_null(m.entries);
    m.entries[0] = (sl_manifest_entry){.audio = strdup("src1_a.wav"), .labels = strdup("=x"), .line = 3};
    m.entries[1] = (sl_manifest_entry){.audio = strdup("other.wav"), .labels = strdup("=x"), .line = 4};
    m.n = 2;
    char err[SL_ERR_LEN] = "";
    assert_int_equal(sl_manifest_hold_out_groups(&m, 0.5, "src[0-9]+", err, sizeof err), -1);
    assert_non_null(strstr(err, ":4: other.wav: the group pattern 'src[0-9]+' does not match it"));
    assert_int_equal(sl_manifest_hold_out_groups(&m, 0.5, "src(", err, sizeof err), -1);
    assert_non_null(strstr(err, "group pattern 'src(': "));
    sl_manifest_free(&m);
}

/* sl_manifest_hold_out: about the share asked of the entries without a split,
 * chosen by path (the same whatever the order and however the manifest is
 * named, a path listed twice going one way); entries with a split keep theirs. */
static void hold_out_by_path(void **state)
{
    (void)state;
    enum { N = 400 };
    sl_manifest m[2];
    for (int v = 0; v < 2; v++) {
        memset(&m[v], 0, sizeof m[v]);
        m[v].entries = calloc(N + 1, sizeof *m[v].entries);
        assert_non_null(m[v].entries);
        for (int i = 0; i < N; i++) {
            char path[64];
            int k = v ? N - 1 - i : i; /* the second in reverse order */
            snprintf(path, sizeof path, "clips/%03d.wav", k);
            m[v].entries[i].audio = strdup(path);
            m[v].entries[i].labels = strdup("=x");
            m[v].entries[i].split = k % 10 == 0 ? SL_SPLIT_TEST : SL_SPLIT_NONE;
        }
        m[v].entries[N].audio = strdup(v ? "clips/399.wav" : "clips/000.wav"); /* listed twice */
        m[v].entries[N].labels = strdup("=x");
        m[v].n = N + 1;
    }
    assert_int_equal(sl_manifest_hold_out(&m[0], 0.0), 0);
    int held = sl_manifest_hold_out(&m[0], 0.25);
    assert_int_equal(sl_manifest_hold_out(&m[1], 0.25), held);
    printf("held out %d of %d\n", held, N - N / 10);
    assert_true(held > 60 && held < 120); /* 0.25 of 360: 90 */
    for (int i = 0; i < N; i++) {
        const sl_manifest_entry *a = &m[0].entries[i], *b = &m[1].entries[N - 1 - i];
        assert_string_equal(a->audio, b->audio);
        assert_int_equal(a->split, b->split);
        assert_true(i % 10 == 0 ? a->split == SL_SPLIT_TEST
                                : a->split == SL_SPLIT_NONE || a->split == SL_SPLIT_VALID);
    }
    assert_int_equal(m[1].entries[N].split, m[1].entries[0].split); /* 399 twice */
    /* a larger share holds out the same entries and more */
    sl_manifest_hold_out(&m[1], 0.5);
    int more = 0;
    for (int i = 0; i < N; i++) {
        assert_true(m[0].entries[i].split != SL_SPLIT_VALID ||
                    m[1].entries[N - 1 - i].split == SL_SPLIT_VALID);
        more += m[1].entries[i].split == SL_SPLIT_VALID;
    }
    assert_true(more > held);
    sl_manifest_free(&m[0]);
    sl_manifest_free(&m[1]);
    /* a manifest's entries are chosen by their paths as written in it, however
     * the manifest itself is named */
    char text[4096] = "", other[600];
    for (int i = 0; i < 40; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "clips/%02d.wav\t=x\n", i);
    tt_write_text(tt_path(dir, "h.tsv"), text);
    snprintf(other, sizeof other, "%s/./h.tsv", dir);
    char err[SL_ERR_LEN];
    assert_int_equal(sl_manifest_load(tt_path(dir, "h.tsv"), &m[0], err, sizeof err), 0);
    assert_int_equal(sl_manifest_load(other, &m[1], err, sizeof err), 0);
    assert_string_not_equal(m[0].entries[0].audio, m[1].entries[0].audio);
    held = sl_manifest_hold_out(&m[0], 0.5);
    assert_int_equal(sl_manifest_hold_out(&m[1], 0.5), held);
    assert_true(held > 5 && held < 35);
    for (int i = 0; i < 40; i++)
        assert_int_equal(m[0].entries[i].split, m[1].entries[i].split);
    sl_manifest_free(&m[0]);
    sl_manifest_free(&m[1]);
}

/* The held-out files of one manifest whose lines name absolute paths are the
 * same however the manifest is named (abs.tsv, ./abs.tsv, ../hv/abs.tsv,
 * hv/abs.tsv, its absolute path), and the same as with relative lines, "./"
 * or not: each key is the audio's path from the manifest's folder. So a
 * pattern anchored there (^audio/) matches every spelling. */
static void hold_out_however_named(void **state)
{
    (void)state;
    enum { N = 40 };
    char root[PATH_MAX], hv[PATH_MAX + 8], saved[PATH_MAX], err[SL_ERR_LEN] = "";
    assert_non_null(realpath(dir, root));
    snprintf(hv, sizeof hv, "%s/hv", root);
    assert_int_equal(mkdir(hv, 0755), 0);
    const char *lines[3] = {"%s/audio/f%02d.wav\t=x\n", "audio/f%02d.wav\t=x\n",
                            "./audio/f%02d.wav\t=x\n"};
    const char *names[3] = {"abs.tsv", "rel.tsv", "dot.tsv"};
    for (int v = 0; v < 3; v++) {
        char text[8192] = "";
        for (int i = 0; i < N; i++) {
            size_t at = strlen(text);
            if (v == 0)
                snprintf(text + at, sizeof text - at, lines[v], hv, i);
            else
                snprintf(text + at, sizeof text - at, lines[v], i);
        }
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", hv, names[v]);
        tt_write_text(path, text);
    }
    assert_non_null(getcwd(saved, sizeof saved));
    char abs_named[PATH_MAX + 32];
    snprintf(abs_named, sizeof abs_named, "%s/abs.tsv", hv);
    const char *named[] = {"abs.tsv", "./abs.tsv", "../hv/abs.tsv", abs_named, "rel.tsv", "dot.tsv",
                           "hv/abs.tsv"};
    sl_split want[N];
    int first_held = -1;
    for (size_t k = 0; k < sizeof named / sizeof *named; k++) {
        assert_int_equal(chdir(k + 1 < sizeof named / sizeof *named ? hv : root), 0);
        sl_manifest m;
        if (sl_manifest_load(named[k], &m, err, sizeof err))
            fail_msg("%s", err);
        int held = sl_manifest_hold_out(&m, 0.5);
        if (k == 0) {
            first_held = held;
            assert_true(held > 5 && held < 35);
        }
        for (int i = 0; i < N; i++) {
            if (k == 0)
                want[i] = m.entries[i].split;
            else if (m.entries[i].split != want[i])
                fail_msg("%s: line %d went the other way", named[k], i + 1);
        }
        assert_int_equal(held, first_held);
        for (int i = 0; i < N; i++)
            m.entries[i].split = SL_SPLIT_NONE;
        if (sl_manifest_hold_out_groups(&m, 0.5, "^audio/f([0-9])", err, sizeof err) < 0)
            fail_msg("%s: %s", named[k], err);
        sl_manifest_free(&m);
    }
    /* a folder reached through a link (/home -> /data/home), its absolute
     * lines written through it or not, the manifest named through it or not,
     * from inside it (the shell's $PWD the link): one key, the folder found
     * among each line's ancestors by what it is, not how it is spelt */
    char link[PATH_MAX + 16], via[PATH_MAX + 64], phys[PATH_MAX + 64], text[8192] = "";
    snprintf(link, sizeof link, "%s/hvlink", root);
    assert_int_equal(symlink(hv, link), 0);
    for (int i = 0; i < N; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s/audio/f%02d.wav\t=x\n",
                 link, i);
    snprintf(via, sizeof via, "%s/linked.tsv", link);
    tt_write_text(via, text);
    snprintf(phys, sizeof phys, "%s/abs.tsv", link); /* physical lines, named through the link */
    const char *old_pwd = getenv("PWD");
    char *kept = old_pwd ? strdup(old_pwd) : NULL;
    assert_int_equal(chdir(link), 0);
    setenv("PWD", link, 1);
    const char *linked[] = {"linked.tsv", via, "abs.tsv", phys};
    for (int k = 0; k < 4; k++) {
        sl_manifest m;
        if (sl_manifest_load(linked[k], &m, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(sl_manifest_hold_out(&m, 0.5), first_held);
        for (int i = 0; i < N; i++)
            if (m.entries[i].split != want[i])
                fail_msg("%s: line %d went the other way", linked[k], i + 1);
        sl_manifest_free(&m);
    }
    /* audio beside the manifest's folder: ../audio/x.wav, however the line
     * gives it (relative, or absolute through the link) */
    char sub[PATH_MAX + 16], beside[2][PATH_MAX + 64];
    snprintf(sub, sizeof sub, "%s/sub", hv);
    assert_int_equal(mkdir(sub, 0755), 0);
    for (int v = 0; v < 2; v++) {
        text[0] = '\0';
        for (int i = 0; i < N; i++)
            snprintf(text + strlen(text), sizeof text - strlen(text), v ? "%s/audio/f%02d.wav\t=x\n"
                     : "%s../audio/f%02d.wav\t=x\n", v ? link : "", i);
        snprintf(beside[v], sizeof beside[v], "%s/%s.tsv", sub, v ? "abs" : "rel");
        tt_write_text(beside[v], text);
    }
    sl_split first_beside[N];
    for (int v = 0; v < 2; v++) {
        sl_manifest m;
        if (sl_manifest_load(beside[v], &m, err, sizeof err))
            fail_msg("%s", err);
        sl_manifest_hold_out(&m, 0.5);
        for (int i = 0; i < N; i++) {
            if (v == 0)
                first_beside[i] = m.entries[i].split;
            else if (m.entries[i].split != first_beside[i])
                fail_msg("%s: line %d went the other way", beside[v], i + 1);
        }
        sl_manifest_free(&m);
    }
    if (kept)
        setenv("PWD", kept, 1);
    free(kept);
    assert_int_equal(chdir(saved), 0);
}

static void crops_cover_every_start(void **state)
{
    (void)state;
    sl_dataset ds;
    load_labels("0.00\t0.255\ta\n", &ds);
    assert_int_equal(sl_dataset_prepare_crops(&ds, 64, 0, 0), 0);
    assert_int_equal(ds.crop_starts_cum[1], 98 - 64 + 1);
    int f;
    int64_t s;
    sl_dataset_crop(&ds, 34, &f, &s);
    assert_int_equal(f, 0);
    assert_int_equal(s, 34);
    /* Longer than the file: one crop. */
    assert_int_equal(sl_dataset_prepare_crops(&ds, 200, 0, 0), 0);
    assert_int_equal(ds.crop_starts_cum[1], 1);
    /* Past the edges, as the labeler's windows reach (left context 16 of 64):
     * starts -16 .. 98 - 64 + 47 = 81, i.e. 98 of them, one per frame. */
    assert_int_equal(sl_dataset_prepare_crops(&ds, 64, 16, 64 - 16 - 1), 0);
    assert_int_equal(ds.crop_starts_cum[1], 98);
    sl_dataset_crop(&ds, 0, &f, &s);
    assert_int_equal(s, -16);
    sl_dataset_crop(&ds, 97, &f, &s);
    assert_int_equal(s, 98 - 16 - 1); /* the last crop keeps the left context and one frame */
    assert_int_equal(sl_dataset_prepare_crops(&ds, 200, 16, 200 - 16 - 1), 0);
    assert_int_equal(ds.crop_starts_cum[1], 98);
    sl_dataset_free(&ds);
}

static void metrics_by_hand(void **state)
{
    (void)state;
    sl_metrics mt;
    assert_int_equal(sl_metrics_init(&mt, 3), 0);
    /* rows true, columns predicted; class 2 never occurs. */
    int64_t conf[9] = {3, 1, 0, 2, 4, 0, 0, 0, 0};
    memcpy(mt.confusion, conf, sizeof conf);
    mt.frames = 10;
    mt.loss_sum = 5.0;
    assert_float_equal(sl_metrics_accuracy(&mt), 0.7, 1e-12);
    assert_float_equal(sl_metrics_loss(&mt), 0.5, 1e-12);
    double p, r, f;
    sl_metrics_class(&mt, 0, &p, &r, &f);
    assert_float_equal(p, 0.6, 1e-12);
    assert_float_equal(r, 0.75, 1e-12);
    assert_float_equal(f, 2.0 / 3.0, 1e-12);
    sl_metrics_class(&mt, 1, &p, &r, &f);
    assert_float_equal(p, 0.8, 1e-12);
    assert_float_equal(r, 4.0 / 6.0, 1e-12);
    assert_float_equal(f, 8.0 / 11.0, 1e-12);
    sl_metrics_class(&mt, 2, &p, &r, &f);
    assert_float_equal(f, 0.0, 0.0);
    assert_float_equal(sl_metrics_macro_f1(&mt), (2.0 / 3.0 + 8.0 / 11.0) / 2.0, 1e-12);
    assert_float_equal(sl_metrics_binary_f1(&mt, 1), 8.0 / 11.0, 1e-12);
    /* a k that is no class: figures of 0, as where they are undefined */
    for (int k = -1; k <= 3; k += 4) {
        sl_metrics_class(&mt, k, &p, &r, &f);
        assert_true(p == 0.0 && r == 0.0 && f == 0.0);
        assert_float_equal(sl_metrics_binary_f1(&mt, k), 0.0, 0.0);
    }

    /* The printed report: speech-vs-rest F1 appears because a class is called
     * "speech"; class 1 = speech: 2 * 4 / (6 + 5) = 0.7273. */
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    sl_model_config mc;
    sl_model_config_default(&mc);
    mc.n_features = 80;
    mc.n_classes = 3;
    mc.d_model = 8;
    mc.n_heads = 2;
    mc.n_layers = 1;
    mc.d_ff = 8;
    const char *names[] = {"music", "speech", "noise"};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&mc, &fc, NULL, NULL, names, err, sizeof err);
    assert_non_null(m);
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    sl_metrics_print(&mt, m, "> ", fp);
    fclose(fp);
    printf("%s", text);
    assert_non_null(strstr(text, "> frames 10  loss 0.5000  accuracy 0.7000  macro_f1 0.6970\n"));
    assert_non_null(strstr(text, "> speech_vs_rest_f1 0.7273\n"));
    assert_non_null(strstr(text, "> music               0.6000    0.7500    0.6667          4\n"));
    assert_non_null(strstr(text, "> speech                    2          4          0\n"));
    /* noise neither true nor called: its precision, recall and F1 are undefined */
    assert_non_null(strstr(text, "> noise                    -         -         -          0\n"));
    free(text);
    /* names wider than a column (10) that would read alike cut to one: the
     * columns are numbered, and each row says its number */
    const char *long_names[] = {"door_wood_knock", "door_wood_creaks", "noise"};
    text = NULL;
    fp = open_memstream(&text, &len);
    sl_metrics_print_names(&mt, long_names, "> ", fp);
    fclose(fp);
    printf("%s", text);
    assert_non_null(strstr(text, "> confusion (rows: true class, columns: predicted, by number)\n"
                                 ">                           0          1          2\n"
                                 "> 0 door_wood_knock          3          1          0\n"
                                 "> 1 door_wood_creaks          2          4          0\n"));
    free(text);

    /* The same as JSON, every number written out by hand (%.9g): music P 3/5,
     * R 3/4, F1 2/3; speech P 4/5, R 4/6, F1 8/11; noise all null; a buffer too
     * small gets what fits and the length needed. */
    const char *want =
        "{\"frames\":10,\"loss\":0.5,\"accuracy\":0.7,\"macro_f1\":0.696969697,"
        "\"speech_vs_rest_f1\":0.727272727,\"classes\":["
        "{\"name\":\"music\",\"precision\":0.6,\"recall\":0.75,\"f1\":0.666666667,"
        "\"frames\":4,\"predicted\":5},"
        "{\"name\":\"speech\",\"precision\":0.8,\"recall\":0.666666667,\"f1\":0.727272727,"
        "\"frames\":6,\"predicted\":5},"
        "{\"name\":\"noise\",\"precision\":null,\"recall\":null,\"f1\":null,\"frames\":0,"
        "\"predicted\":0}],\"confusion\":[[3,1,0],[2,4,0],[0,0,0]]}\n";
    char json[1024], small[16];
    assert_int_equal(sl_metrics_format_json(&mt, m, json, sizeof json), (int)strlen(want));
    assert_string_equal(json, want);
    assert_int_equal(sl_metrics_format_json(&mt, m, small, sizeof small), (int)strlen(want));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(strncmp(small, want, sizeof small - 1), 0);
    sl_model_free(m);

    /* a speech class without a frame either way: its F1 is undefined, '-' and
     * null, not a 0 that averages in as a failure */
    const char *no_speech[] = {"music", "noise", "speech"};
    assert_non_null(m = sl_model_create(&mc, &fc, NULL, NULL, no_speech, err, sizeof err));
    fp = open_memstream(&text, &len);
    sl_metrics_print(&mt, m, "> ", fp);
    fclose(fp);
    assert_non_null(strstr(text, "> speech_vs_rest_f1 -\n"));
    free(text);
    assert_true(sl_metrics_format_json(&mt, m, json, sizeof json) > 0);
    assert_non_null(strstr(json, ",\"speech_vs_rest_f1\":null,"));
    sl_model_free(m);
    sl_metrics_free(&mt);
}

/* Features of the WAV straight from libsndfile into sl_features. */
static float *direct_features(const char *wav, const sl_feature_config *fc, int64_t *n)
{
    SF_INFO info = {0};
    SNDFILE *sf = sf_open(wav, SFM_READ, &info);
    assert_non_null(sf);
    float *pcm = malloc((size_t)info.frames * sizeof *pcm);
    assert_int_equal(sf_readf_float(sf, pcm, info.frames), info.frames);
    sf_close(sf);
    char err[SL_ERR_LEN];
    sl_features *f = sl_features_new(fc, err, sizeof err);
    int dim = sl_feature_dim(fc);
    tt_frames s = {malloc((size_t)sl_feature_num_frames(fc, info.frames) * dim * sizeof(float)), 0};
    assert_int_equal(sl_features_push(f, pcm, (size_t)info.frames, tt_collect_frame, &s, err, sizeof err), 0);
    sl_features_free(f);
    free(pcm);
    *n = s.n;
    return s.buf;
}

static int count_entries(const char *cache)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls %s/*.feat 2>/dev/null | wc -l", cache);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (fscanf(p, "%d", &n) != 1)
        n = -1;
    pclose(p);
    return n;
}

static void feature_cache_is_exact_and_invalidated(void **state)
{
    (void)state;
    const char *wav = tt_path(dir, "three.wav");
    const char *cache = tt_path(dir, "cache/sub");
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    int64_t n;
    float *ref = direct_features(wav, &fc, &n);
    assert_int_equal(n, 298);
    char err[SL_ERR_LEN];
    sl_feature_file ff;
    for (int round = 0; round < 2; round++) {
        assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
        assert_int_equal(ff.from_cache, round); /* computed, then read back */
        /* Both times the features are the entry's mapped pages, not a malloc'ed
         * copy: a training set larger than memory loads on a fresh cache too. */
        assert_non_null(ff.map);
        assert_null(ff.owned);
        assert_int_equal(ff.n_frames, n);
        assert_int_equal(ff.n_samples, 48000);
        assert_memory_equal(ff.feats, ref, (size_t)n * 80 * sizeof(float));
        sl_feature_file_free(&ff);
    }
    assert_int_equal(count_entries(cache), 1);
    /* Without a cache the computed copy is what comes back. */
    assert_int_equal(sl_feature_file_load(wav, &fc, NULL, &ff, err, sizeof err), 0);
    assert_null(ff.map);
    assert_non_null(ff.owned);
    assert_memory_equal(ff.feats, ref, (size_t)n * 80 * sizeof(float));
    sl_feature_file_free(&ff);
    /* Another setting: another entry. */
    sl_feature_config fc2 = fc;
    fc2.num_mel_bins = 40;
    assert_int_equal(sl_feature_file_load(wav, &fc2, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.from_cache, 0);
    assert_int_equal(ff.dim, 40);
    sl_feature_file_free(&ff);
    assert_int_equal(count_entries(cache), 2);
    /* New audio of the same size (another seed): the mtime changes, so the key does. */
    struct timespec later[2] = {{0, UTIME_OMIT}, {2000000000, 0}};
    tt_make_task_file(dir, "three", 3.0, 99);
    assert_int_equal(utimensat(AT_FDCWD, wav, later, 0), 0);
    float *ref2 = direct_features(wav, &fc, &n);
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.from_cache, 0);
    assert_memory_equal(ff.feats, ref2, (size_t)n * 80 * sizeof(float));
    assert_memory_not_equal(ff.feats, ref, (size_t)n * 80 * sizeof(float));
    sl_feature_file_free(&ff);
    /* A damaged entry (cut short) is recomputed and rewritten. */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "for f in %s/*.feat; do truncate -s -4 \"$f\"; done", cache);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.from_cache, 0);
    assert_memory_equal(ff.feats, ref2, (size_t)n * 80 * sizeof(float));
    sl_feature_file_free(&ff);
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.from_cache, 1);
    sl_feature_file_free(&ff);
    /* ... and so is one with a bit flipped in its features, or in its header's
     * sample count (its CRC-32 covers both) */
    for (int where = 0; where < 2; where++) {
        snprintf(cmd, sizeof cmd, "for f in %s/*.feat; do printf '\\001' | dd of=\"$f\" bs=1 "
                 "seek=%s conv=notrunc status=none; done", cache,
                 where ? "19" : "$(($(stat -c %s \"$f\") - 1000))");
        assert_int_equal(system(cmd), 0);
        assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
        assert_int_equal(ff.from_cache, 0);
        assert_int_equal(ff.n_samples, 48000);
        assert_memory_equal(ff.feats, ref2, (size_t)n * 80 * sizeof(float));
        sl_feature_file_free(&ff);
        assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
        assert_int_equal(ff.from_cache, 1);
        sl_feature_file_free(&ff);
    }
    free(ref);
    free(ref2);
}

/* The one entry in cache (a .feat file) into path. */
static void only_entry(const char *cache, char *path, size_t len)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls %s/*.feat", cache);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    assert_non_null(fgets(path, (int)len, p));
    path[strcspn(path, "\n")] = '\0';
    pclose(p);
}

/* Rewrites the entry as a forger would: every feature -15 (a "silent" file),
 * its CRC-32 (of the header's first 40 bytes and the features, at byte 40)
 * computed anew, so that every check of its contents passes. */
static void poison_entry(const char *path)
{
    size_t n;
    unsigned char *b = (unsigned char *)tt_read_file(path, &n);
    assert_non_null(b);
    uint32_t plen;
    memcpy(&plen, b + 36, 4);
    const size_t off = (48 + (size_t)plen + 3) & ~(size_t)3;
    assert_true(off < n && (n - off) % sizeof(float) == 0);
    for (size_t at = off; at < n; at += sizeof(float)) {
        const float v = -15.0f;
        memcpy(b + at, &v, sizeof v);
    }
    uLong crc = crc32(crc32(0L, Z_NULL, 0), b, 40);
    crc = crc32(crc, b + off, (uInt)(n - off));
    const uint64_t stored = (uint32_t)crc;
    memcpy(b + 40, &stored, 8);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
    free(b);
}

/* A cache folder others may write (--cache-dir shared): an entry is used only
 * when it is the effective user's (or root's) and no one else may write it.
 * One forged with a right key and CRC-32, owned by another user (nobody, as
 * root) or writable by all, is taken as absent: the features are those
 * without a cache, and the entry is written anew as this user's. (A forged
 * entry of one's own, which only oneself could have made, is read: so the
 * forgery passes every check of the contents.) */
static void feature_cache_trusts_own_entries(void **state)
{
    (void)state;
    tt_make_task_file(dir, "own", 3.0, 7);
    const char *wav = tt_path(dir, "own.wav");
    char cache[600];
    snprintf(cache, sizeof cache, "%s", tt_path(dir, "shared-cache"));
    assert_int_equal(mkdir(cache, 0777), 0);
    assert_int_equal(chmod(cache, 0777), 0); /* open to all, whatever the umask */
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    char err[SL_ERR_LEN];
    sl_feature_file ff;
    assert_int_equal(sl_feature_file_load(wav, &fc, NULL, &ff, err, sizeof err), 0);
    const int64_t n = ff.n_frames;
    const size_t bytes = (size_t)n * (size_t)ff.dim * sizeof(float);
    float *ref = malloc(bytes); /* --no-cache's */
    memcpy(ref, ff.feats, bytes);
    sl_feature_file_free(&ff);
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    sl_feature_file_free(&ff);
    char entry[1024];
    only_entry(cache, entry, sizeof entry);
    struct stat st;
    assert_int_equal(stat(entry, &st), 0);
    assert_int_equal(st.st_mode & 022, 0); /* written for its owner alone */
    /* the forgery passes the checks: one's own is read */
    poison_entry(entry);
    assert_int_equal(chmod(entry, 0644), 0);
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.from_cache, 1);
    assert_int_equal(ff.n_frames, n);
    assert_memory_not_equal(ff.feats, ref, bytes);
    sl_feature_file_free(&ff);
    for (int how = 0; how < 2; how++) {
        if (how == 0) { /* writable by all: anyone could have forged it */
            poison_entry(entry);
            assert_int_equal(chmod(entry, 0666), 0);
        } else if (geteuid() == 0) { /* another user's (root may give it away) */
            poison_entry(entry);
            assert_int_equal(chmod(entry, 0644), 0);
            assert_int_equal(chown(entry, 65534, 65534), 0);
        } else {
            printf("not root: an entry of another user not tried\n");
            break;
        }
        assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
        assert_int_equal(ff.from_cache, 0);
        assert_int_equal(ff.n_frames, n);
        assert_memory_equal(ff.feats, ref, bytes);
        sl_feature_file_free(&ff);
        /* replaced (the folder lets it be): this user's, and read from then on */
        assert_int_equal(stat(entry, &st), 0);
        assert_int_equal(st.st_uid, geteuid());
        assert_int_equal(st.st_mode & 022, 0);
        assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
        assert_int_equal(ff.from_cache, 1);
        assert_memory_equal(ff.feats, ref, bytes);
        sl_feature_file_free(&ff);
    }
    free(ref);
}

/* A cache that takes no entry only costs time, but the next run's: the load
 * says why (each entry's name is a folder here, so renaming onto it fails as a
 * full disk's write would), the features are those computed, and train says
 * how many files were left out of the cache and why. */
static void feature_cache_write_failure_said(void **state)
{
    (void)state;
    tt_make_task_file(dir, "uncached", 3.0, 11);
    const char *wav = tt_path(dir, "uncached.wav");
    char cache[600];
    snprintf(cache, sizeof cache, "%s", tt_path(dir, "cache-of-folders"));
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    int64_t n;
    float *ref = direct_features(wav, &fc, &n);
    const size_t bytes = (size_t)n * 80 * sizeof(float);
    char err[SL_ERR_LEN], entry[1024];
    sl_feature_file ff;
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.cache_error, 0);
    sl_feature_file_free(&ff);
    only_entry(cache, entry, sizeof entry);
    assert_int_equal(unlink(entry), 0);
    assert_int_equal(mkdir(entry, 0755), 0);
    assert_int_equal(sl_feature_file_load(wav, &fc, cache, &ff, err, sizeof err), 0);
    assert_int_equal(ff.from_cache, 0);
    assert_int_equal(ff.cache_error, EISDIR);
    assert_int_equal(ff.n_frames, n);
    assert_memory_equal(ff.feats, ref, bytes);
    sl_feature_file_free(&ff);
    free(ref);

    /* the command: every entry of a first run made a folder, then run again */
    const char *seqlabel = getenv("SL_SEQLABEL");
    assert_non_null(seqlabel);
    tt_make_task_set(dir, "uncached.tsv", "unc", 2, 2.0, 12, NULL);
    char cmd[4096], *out = NULL;
    for (int run = 0; run < 2; run++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s' train --manifest uncached.tsv --out unc.slm "
                 "--cache-dir unc-cache --mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 "
                 "--window 64 --batch 8 --steps 1 > /dev/null", dir, seqlabel);
        assert_int_equal(tt_run(cmd, &out), 0);
        assert_non_null(out);
        if (run == 0) {
            assert_null(strstr(out, "could not be cached"));
            snprintf(cmd, sizeof cmd, "cd '%s/unc-cache' && for f in *.feat; do rm \"$f\" && "
                     "mkdir \"$f\"; done", dir);
            assert_int_equal(system(cmd), 0);
        } else if (!strstr(out, "training set: 2 files' features could not be cached in "
                                "unc-cache (Is a directory): held in memory, and computed again "
                                "next run")) {
            fail_msg("train said: %s", out);
        }
        free(out);
    }
    /* eval too (it said nothing) */
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' eval --model unc.slm --manifest uncached.tsv "
             "--cache-dir unc-cache > /dev/null", dir, seqlabel);
    assert_int_equal(tt_run(cmd, &out), 0);
    if (!strstr(out, "seqlabel eval: 2 files' features could not be cached in unc-cache (Is a "
                     "directory): computed again next run"))
        fail_msg("eval said: %s", out);
    free(out);
}

/* A clip shorter than one analysis window (25 ms: a click of a sound-event
 * set) gives no frame: train says so, naming it, and a class that only such
 * clips hold is refused with that reason, not as one without labelled time. */
static void clips_shorter_than_a_window_said(void **state)
{
    (void)state;
    const char *seqlabel = getenv("SL_SEQLABEL");
    assert_non_null(seqlabel);
    tt_make_task_set(dir, "short.tsv", "sh", 2, 2.0, 13, NULL);
    tt_make_task_file(dir, "click", 0.02, 14); /* 320 samples */
    tt_write_text(tt_path(dir, "blip.txt"), "0.00\t0.02\tblip\n");
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "cd '%s' && cat short.tsv > short1.tsv && "
             "printf 'click.wav\\tclick.txt\\n' >> short1.tsv && "
             "cat short.tsv > short2.tsv && printf 'click.wav\\tblip.txt\\n' >> short2.tsv", dir);
    assert_int_equal(system(cmd), 0);
    for (int k = 1; k <= 2; k++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s' train --manifest short%d.tsv --out short.slm "
                 "--no-cache --mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 "
                 "--window 64 --batch 8 --steps 1 > /dev/null", dir, seqlabel, k);
        const int rc = tt_run(cmd, &out);
        assert_non_null(out);
        if (k == 1 && (rc != 0 || !strstr(out, "training set: 1 file shorter than one analysis "
                                                  "window (25 ms) gives no frame (the first: ")
                       || !strstr(out, "click.wav)")))
            fail_msg("train (exit %d) said: %s", rc, out);
        if (k == 2 && (rc != 1 || !strstr(out, "no training frame is of class 'blip' (1 training "
                                                  "file shorter than one analysis window, 25 ms, "
                                                  "gives no frame: ")))
            fail_msg("train (exit %d) said: %s", rc, out);
        free(out);
    }
}

typedef struct {
    int64_t hist[3];
    double nll;
    int64_t n;
} lab_record;

static int on_frame(void *user, int64_t index, int label, float conf, const float *probs, int K)
{
    (void)index;
    (void)conf;
    (void)K;
    lab_record *r = user;
    r->hist[label]++;
    r->nll -= log((double)probs[0]);
    r->n++;
    return 0;
}

static void evaluation_uses_the_labeler_windows(void **state)
{
    (void)state;
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    fc.num_mel_bins = 24;
    sl_model_config mc;
    sl_model_config_default(&mc);
    mc.n_features = 24;
    mc.n_classes = 3;
    mc.d_model = 16;
    mc.n_heads = 2;
    mc.n_layers = 2;
    mc.d_ff = 32;
    mc.max_window = 64;
    mc.stream_window = 50;
    mc.stream_left = 10;
    mc.stream_lookahead = 7;
    const char *names[] = {"a", "b", "c"};
    float mean[24], istd[24];
    for (int i = 0; i < 24; i++) {
        mean[i] = 8.0f + 0.1f * i;
        istd[i] = 0.3f;
    }
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&mc, &fc, mean, istd, names, err, sizeof err);
    assert_non_null(m);
    sl_model_init_params(m, 77);
    tt_make_task_file(dir, "three", 3.0, 5);
    tt_write_text(tt_path(dir, "all_a.txt"), "0.00\t3.00\ta\n");
    tt_write_text(tt_path(dir, "w.tsv"), "three.wav\tall_a.txt\n");
    sl_metrics mt;
    sl_metrics_init(&mt, 4); /* metrics for other classes than the model's: refused, said */
    assert_int_equal(sl_evaluate_manifest(m, tt_path(dir, "w.tsv"), NULL, &mt, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "metrics for 4 classes: the model has 3"));
    sl_metrics_free(&mt);
    sl_metrics_init(&mt, 3);
    /* more threads than any encoder takes: said before a file is read (the
     * manifest named is not there), as a labeler refuses them */
    sl_eval_options eo;
    sl_eval_options_default(&eo);
    eo.num_threads = SL_MAX_THREADS + 1;
    assert_int_equal(sl_evaluate_manifest(m, tt_path(dir, "absent.tsv"), &eo, &mt, err,
                                          sizeof err), -1);
    assert_non_null(strstr(err, "encoder threads 65 is outside 1..64"));
    sl_labeler_config many;
    sl_labeler_config_default(&many);
    many.num_threads = SL_MAX_THREADS + 1;
    assert_null(sl_labeler_new(m, &many, err, sizeof err));
    assert_non_null(strstr(err, "65 threads is not in [1, 64]"));
    if (sl_evaluate_manifest(m, tt_path(dir, "w.tsv"), NULL, &mt, err,
                             sizeof err))
        fail_msg("%s", err);

    sl_labeler_config lc;
    sl_labeler_config_default(&lc);
    lc.decoder.smoothing = SL_SMOOTH_NONE; /* evaluation scores the argmax frames */
    sl_labeler *l = sl_labeler_new(m, &lc, err, sizeof err);
    assert_non_null(l);
    lab_record rec = {{0, 0, 0}, 0.0, 0};
    sl_label_sink sk = {&rec, on_frame, NULL};
    SF_INFO info = {0};
    SNDFILE *sf = sf_open(tt_path(dir, "three.wav"), SFM_READ, &info);
    float *pcm = malloc((size_t)info.frames * sizeof *pcm);
    sf_readf_float(sf, pcm, info.frames);
    sf_close(sf);
    assert_int_equal(sl_labeler_push(l, pcm, (size_t)info.frames, &sk, err, sizeof err), 0);
    assert_int_equal(sl_labeler_finish(l, &sk, err, sizeof err), 0);
    assert_int_equal(rec.n, 298);
    assert_int_equal(mt.frames, 298);
    for (int k = 0; k < 3; k++)
        assert_int_equal(mt.confusion[k], rec.hist[k]);
    assert_true(rec.hist[0] != 298 && rec.hist[1] != 298 && rec.hist[2] != 298);
    assert_float_equal(mt.loss_sum, rec.nll, 1e-4 * rec.nll);
    free(pcm);
    sl_labeler_free(l);
    sl_metrics_free(&mt);
    sl_model_free(m);
}

/* sl_dataset_load_ex with several threads: the same dataset as one thread, entry by
 * entry (a file listed twice, its cache entry written by two threads at once), and a
 * failure reported for the first failing entry in manifest order. */
static void load_list(const char *tsv, int threads, const char *cache, sl_dataset *ds, int *rc,
                      char *err)
{
    sl_manifest man;
    assert_int_equal(sl_manifest_load(tsv, &man, err, SL_ERR_LEN), 0);
    sl_feature_config fc;
    sl_feature_config_default(&fc);
    const char *names[] = {"tone", "noise", "silence"}; /* tt_make_task_file's */
    *rc = sl_dataset_load_ex(ds, &man, SL_SPLIT_BIT(SL_SPLIT_NONE), &fc, cache, names, 3, NULL,
                             NULL, threads, err, SL_ERR_LEN);
    sl_manifest_free(&man);
}

static void threads_load_the_same_dataset(void **state)
{
    (void)state;
    FILE *f = fopen(tt_path(dir, "many.tsv"), "w");
    assert_non_null(f);
    for (int i = 0; i < 12; i++)
        fprintf(f, "%s.wav\t%s.txt\n", i % 3 ? "three" : "one", i % 3 ? "three" : "one");
    fclose(f);
    char err[SL_ERR_LEN], cache[600];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    sl_dataset one, four;
    int rc;
    load_list(tt_path(dir, "many.tsv"), 1, NULL, &one, &rc, err);
    if (rc)
        fail_msg("%s", err);
    load_list(tt_path(dir, "many.tsv"), 4, cache, &four, &rc, err);
    if (rc)
        fail_msg("%s", err);
    assert_int_equal(four.n_files, 12);
    assert_int_equal(four.frames, one.frames);
    assert_int_equal(four.frames, 4 * 98 + 8 * 298);
    assert_int_equal(four.labeled, one.labeled);
    for (int c = 0; c < 3; c++)
        assert_int_equal(four.class_frames[c], one.class_frames[c]);
    for (int i = 0; i < 12; i++) {
        const sl_data_file *a = &one.files[i], *b = &four.files[i];
        assert_string_equal(a->audio, b->audio);
        assert_int_equal(a->ff.n_frames, b->ff.n_frames);
        size_t n = (size_t)a->ff.n_frames * (size_t)a->ff.dim;
        assert_memory_equal(a->ff.feats, b->ff.feats, n * sizeof *a->ff.feats);
        assert_memory_equal(a->labels, b->labels, (size_t)a->ff.n_frames * sizeof *a->labels);
        /* A file listed again is held once: entries 0 and 1 hold "one" and "three",
         * every later entry borrows their arrays. */
        for (const sl_dataset *d = &one; d; d = d == &one ? &four : NULL) {
            const sl_data_file *df = &d->files[i];
            assert_int_equal(df->borrowed, i >= 2);
            if (i >= 2) {
                const sl_data_file *owner = &d->files[i % 3 ? 1 : 0];
                assert_int_equal(df->first, i % 3 ? 1 : 0);
                assert_ptr_equal(df->ff.feats, owner->ff.feats);
                assert_ptr_equal(df->labels, owner->labels);
            }
        }
    }
    /* The samples for noise mixing are shared the same way. */
    assert_int_equal(sl_dataset_load_pcm(&four, 16000, cache, err, SL_ERR_LEN), 0);
    for (int i = 2; i < 12; i++) {
        assert_ptr_equal(four.files[i].pcm.feats, four.files[i % 3 ? 1 : 0].pcm.feats);
        assert_int_equal(four.files[i].pcm.n_samples, four.files[i].ff.n_samples);
    }
    sl_dataset_free(&one);
    sl_dataset_free(&four);

    /* entries 5 and 9 are not audio: entry 5 (manifest line 5) is named */
    tt_write_text(tt_path(dir, "bad1.wav"), "not audio at all");
    tt_write_text(tt_path(dir, "bad2.wav"), "not audio either");
    f = fopen(tt_path(dir, "bad.tsv"), "w");
    assert_non_null(f);
    for (int i = 1; i <= 12; i++)
        fprintf(f, "%s\tone.txt\n", i == 5 ? "bad1.wav" : i == 9 ? "bad2.wav" : "one.wav");
    fclose(f);
    for (int threads = 1; threads <= 4; threads += 3) {
        sl_dataset ds;
        load_list(tt_path(dir, "bad.tsv"), threads, cache, &ds, &rc, err);
        assert_int_not_equal(rc, 0);
        if (!strstr(err, "bad1.wav") || !strstr(err, ":5") || strstr(err, "bad2.wav"))
            fail_msg("threads %d: %s", threads, err);
        sl_dataset_free(&ds);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frame_labels_follow_centres),
        cmocka_unit_test(whole_file_labels),
        cmocka_unit_test(point_labels_name_no_class),
        cmocka_unit_test(unicode_forms_are_one_class),
        cmocka_unit_test(byte_order_marks),
        cmocka_unit_test(folder_manifests),
        cmocka_unit_test(hold_out_by_path),
        cmocka_unit_test(deep_folders),
        cmocka_unit_test(hold_out_by_group),
        cmocka_unit_test(hold_out_however_named),
        cmocka_unit_test(textgrid_labels),
        cmocka_unit_test(rttm_labels),
        cmocka_unit_test(crops_cover_every_start),
        cmocka_unit_test(metrics_by_hand),
        cmocka_unit_test(threads_load_the_same_dataset),
        cmocka_unit_test(feature_cache_is_exact_and_invalidated),
        cmocka_unit_test(feature_cache_trusts_own_entries),
        cmocka_unit_test(feature_cache_write_failure_said),
        cmocka_unit_test(clips_shorter_than_a_window_said),
        cmocka_unit_test(evaluation_uses_the_labeler_windows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
