/* Bad training data through `seqlabel train` / `seqlabel eval`: each case must
 * exit 1 with one line on stderr naming the file and line at fault, and must
 * not create the output model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/label_files.h" /* sl_audio_entry_check */
#include "trainer_test_util.h"

static char dir[512];
static const char *seqlabel;

#define TINY "--mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 " \
             "--batch 8 --steps 3 --quiet --no-cache"

static int setup(void **state)
{
    (void)state;
    seqlabel = getenv("SL_SEQLABEL");
    if (!seqlabel)
        return -1;
    tt_mkdtemp(dir, sizeof dir, "badinput");
    tt_make_task_file(dir, "a", 3.0, 1); /* 3 s: labels tone/noise/silence */
    tt_make_task_file(dir, "b", 3.0, 2);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

/* Runs train with `manifest` text (written to m.tsv) and extra options;
 * asserts exit `code` (2: the command line is wrong, 1: what it reads), every
 * expected piece in stderr, one line, no model. */
static void expect_exit(int code, const char *manifest, const char *extra, const char *const *want)
{
    tt_write_text(tt_path(dir, "m.tsv"), manifest);
    unlink(tt_path(dir, "out.slm"));
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/m.tsv' --out '%s/out.slm' " TINY " %s",
             seqlabel, dir, dir, extra ? extra : "");
    char *err = NULL;
    int rc = tt_run(cmd, &err);
    printf("stderr: %s", err);
    assert_int_equal(rc, code);
    for (int i = 0; want[i]; i++)
        if (!strstr(err, want[i]))
            fail_msg("'%s' not in stderr: %s", want[i], err);
    char *nl = strchr(err, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[1], '\0'); /* one line */
    free(err);
    assert_int_equal(access(tt_path(dir, "out.slm"), F_OK), -1);
}

static void expect_failure(const char *manifest, const char *extra, const char *const *want)
{
    expect_exit(1, manifest, extra, want);
}

static void good_manifest_trains(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "good.tsv"), "a.wav\ta.txt\nb.wav\tb.txt\tvalid\n");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/good.tsv' --out '%s/good.slm' " TINY " >/dev/null",
             seqlabel, dir, dir);
    char *err = NULL;
    int rc = tt_run(cmd, &err);
    if (rc)
        fail_msg("%s", err);
    free(err);
    assert_int_equal(access(tt_path(dir, "good.slm"), F_OK), 0);
}

/* A folder as the manifest: train/ and valid/ of folders named after their
 * classes; class folders alone with --valid-share, the same files held out each
 * run; the folder with a loose file is refused, the file named. */
static void folder_manifest_trains(void **state)
{
    (void)state;
    const char *folders[] = {"fm", "fm/train", "fm/train/tone", "fm/train/noise", "fm/valid",
                             "fm/valid/tone"};
    for (size_t k = 0; k < sizeof folders / sizeof folders[0]; k++)
        assert_int_equal(mkdir(tt_path(dir, folders[k]), 0755), 0);
    const char *links[][2] = {{"a.wav", "fm/train/tone/1.wav"}, {"b.wav", "fm/train/noise/2.wav"},
                              {"b.wav", "fm/valid/tone/3.wav"}};
    for (size_t k = 0; k < 3; k++) {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, links[k][0]));
        assert_int_equal(link(from, tt_path(dir, links[k][1])), 0);
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/fm' --out '%s/fm.slm' " TINY " > '%s/fm.report'",
             seqlabel, dir, dir, dir);
    char *err = NULL;
    if (tt_run(cmd, &err))
        fail_msg("%s", err);
    free(err);
    sl_model *m = tt_load_model(dir, "fm");
    assert_int_equal(sl_model_get_config(m)->n_classes, 2);
    assert_string_equal(sl_model_class_name(m, 0), "noise"); /* name order: noise/ before tone/ */
    sl_model_free(m);
    char *report = tt_read_file(tt_path(dir, "fm.report"), NULL);
    assert_non_null(strstr(report, "frames 298 ")); /* the valid folder's one file */
    free(report);
    char from[600];
    /* no valid/ folder: --valid-share holds some files out, the same each run */
    const char *flat[] = {"fs", "fs/tone", "fs/noise"};
    for (size_t k = 0; k < 3; k++)
        assert_int_equal(mkdir(tt_path(dir, flat[k]), 0755), 0);
    for (int k = 0; k < 8; k++) {
        char to[64];
        snprintf(from, sizeof from, "%s", tt_path(dir, k % 2 ? "a.wav" : "b.wav"));
        snprintf(to, sizeof to, "fs/%s/%d.wav", k < 4 ? "tone" : "noise", k);
        assert_int_equal(link(from, tt_path(dir, to)), 0);
    }
    for (int run = 0; run < 2; run++) {
        snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/fs' --valid-share 0.5 --out '%s/fs.slm' " TINY
                 " > '%s/fs%d.report'", seqlabel, dir, dir, dir, run);
        if (tt_run(cmd, &err))
            fail_msg("%s", err);
        free(err);
    }
    report = tt_read_file(tt_path(dir, "fs0.report"), NULL);
    char *again = tt_read_file(tt_path(dir, "fs1.report"), NULL);
    char *frames = strstr(report, "  frames ");
    assert_non_null(frames); /* validated, on whole files of 298 frames */
    long valid_frames = strtol(frames + 9, NULL, 10);
    assert_true(valid_frames > 0 && valid_frames % 298 == 0 && valid_frames < 8 * 298);
    assert_string_equal(report, again);
    free(report);
    free(again);
    /* --valid-group: held out by the key the pattern finds, as the library's
     * sl_manifest_hold_out_groups on the same folder says */
    sl_manifest fs;
    char lib_err[SL_ERR_LEN];
    assert_int_equal(sl_manifest_load(tt_path(dir, "fs"), &fs, lib_err, sizeof lib_err), 0);
    int held = sl_manifest_hold_out_groups(&fs, 0.5, "[0-9]", lib_err, sizeof lib_err);
    sl_manifest_free(&fs);
    assert_true(held > 0 && held < 8); /* else pick another pattern */
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/fs' --valid-share 0.5 --valid-group '[0-9]' "
             "--out '%s/fg.slm' " TINY " > '%s/fg.report'", seqlabel, dir, dir, dir);
    if (tt_run(cmd, &err))
        fail_msg("%s", err);
    free(err);
    report = tt_read_file(tt_path(dir, "fg.report"), NULL);
    frames = strstr(report, "  frames ");
    assert_non_null(frames);
    assert_int_equal(strtol(frames + 9, NULL, 10), held * 298);
    free(report);
    /* 2: options that do not go together, or a pattern that is none; 1: what
     * the run reads */
    const char *group_errors[][2] = {
        {"--valid-group '[0-9]'", "give a share too"},
        {"--valid-share 0.5 --valid-group 'x('", "group pattern 'x(': "},
        {"--valid-share 0.5 --valid-group '[0-3]'", "fs: noise/4.wav: the group pattern '[0-3]' does not match it"},
    };
    for (size_t k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/fs' %s --out '%s/fg2.slm' " TINY, seqlabel,
                 dir, group_errors[k][0], dir);
        assert_int_equal(tt_run(cmd, &err), k < 2 ? 2 : 1);
        if (!strstr(err, group_errors[k][1]))
            fail_msg("%s: %s", group_errors[k][0], err);
        free(err);
    }
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/fs' --valid '%s/fm' --valid-share 0.5 --out "
             "'%s/fs2.slm' " TINY, seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, &err), 2);
    assert_non_null(strstr(err, "one or the other"));
    free(err);

    snprintf(from, sizeof from, "%s", tt_path(dir, "a.wav"));
    assert_int_equal(link(from, tt_path(dir, "fm/loose.wav")), 0);
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/fm' --out '%s/fm2.slm' " TINY, seqlabel, dir, dir);
    assert_int_equal(tt_run(cmd, &err), 1);
    assert_non_null(strstr(err, "fm/loose.wav: no labels"));
    free(err);
}

static void missing_audio(void **state)
{
    (void)state;
    const char *want[] = {"m.tsv:2:", "nope.wav", NULL};
    expect_failure("a.wav\ta.txt\n# comment\n\nnope.wav\ta.txt\n", NULL,
                   (const char *[]){"m.tsv:4:", "nope.wav", NULL});
    expect_failure("a.wav\ta.txt\nnope.wav\ta.txt\n", NULL, want);
}

static void missing_labels(void **state)
{
    (void)state;
    const char *want[] = {"m.tsv:1:", "none.txt", "cannot open", NULL};
    expect_failure("a.wav\tnone.txt\n", NULL, want);
}

static void labels_beyond_the_audio(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "long.txt"), "0.00\t1.00\ttone\n1.00\t2.00\tnoise\n2.00\t3.50\tsilence\n");
    const char *want[] = {"long.txt:3:", "ends after the audio", "a.wav", NULL};
    expect_failure("b.wav\tb.txt\na.wav\tlong.txt\n", NULL, want);
}

static void unknown_class_with_classes_option(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "odd.txt"), "0.00\t1.00\ttone\n1.00\t2.00\tnoise\n2.00\t3.00\tbirds\n");
    const char *want[] = {"odd.txt:3:", "unknown class 'birds'", "tone, noise, silence", NULL};
    expect_failure("a.wav\ta.txt\na.wav\todd.txt\n", "--classes tone,noise,silence", want);
    /* text from a file is shown with its control bytes as \xNN: a terminal
     * escape in a label file never reaches the terminal */
    tt_write_text(tt_path(dir, "esc.txt"), "0.00\t1.00\t\x1b[31mRED\x1b]0;t\x07\n");
    expect_failure("a.wav\tesc.txt\n", "--classes tone,noise,silence",
                   (const char *[]){"esc.txt:1:", "unknown class '\\x1b[31mRED\\x1b]0;t\\x07'", NULL});
    /* a name in another encoding (Shift JIS, from Excel in Japan): suspected */
    tt_write_text(tt_path(dir, "sjis.txt"), "0.00\t1.00\t\x89\xb9\x90\xba\n");
    expect_failure("a.wav\tsjis.txt\n", "--classes tone,noise,silence",
                   (const char *[]){"sjis.txt:1:", "unknown class '\\x89\\xb9\\x90\\xba'",
                                    "Shift JIS? save the labels as UTF-8", NULL});
    tt_write_text(tt_path(dir, "esctime.txt"), "0.00\t1\x1b[2J\ttone\n");
    expect_failure("a.wav\tesctime.txt\n", NULL,
                   (const char *[]){"esctime.txt:1:", "bad time '1\\x1b[2J'", NULL});
    expect_failure("a.wav\ta.txt\t\x1b[2J\n", NULL,
                   (const char *[]){"m.tsv:1:", "unknown split '\\x1b[2J'", NULL});
    /* a long field is cut at 128 bytes, and says so */
    char longer[400] = "0.00\t1";
    memset(longer + strlen(longer), '5', 200);
    strcpy(longer + 206, "x\ttone\n");
    tt_write_text(tt_path(dir, "longtime.txt"), longer);
    expect_failure("a.wav\tlongtime.txt\n", NULL,
                   (const char *[]){"longtime.txt:1:", "bad time '15555", "5555...' (seconds", NULL});
}

/* Label files that are no files: a device is refused, not read until memory
 * runs out (/dev/zero); a folder is said to be one. (A FIFO is read as cat
 * reads one: test_label_readers.) */
static void labels_that_are_no_files(void **state)
{
    (void)state;
    expect_failure("a.wav\t/dev/zero\n", NULL,
                   (const char *[]){"m.tsv:1:", "/dev/zero: cannot read: a device, not a file", NULL});
    assert_int_equal(mkdir(tt_path(dir, "folder.txt"), 0755), 0);
    expect_failure("a.wav\tfolder.txt\n", NULL,
                   (const char *[]){"folder.txt: cannot read: a folder, not a file", NULL});
}

/* A manifest's audio entries are files: a URI (http://, fd://N), which the
 * audio reader would fetch or read, is refused naming the line, by train, eval
 * --model and eval --hyp alike and however the manifest is named (u.tsv from
 * its folder, or DIR/u.tsv), before anything is opened (no network needed). A
 * line "-" is the file of that name, not the standard input. */
static void uri_entries_refused(void **state)
{
    (void)state;
    const char *uris[] = {"http://127.0.0.1:9/a.wav", "fd://0"};
    for (size_t u = 0; u < sizeof uris / sizeof uris[0]; u++) {
        char text[128], want[160];
        snprintf(text, sizeof text, "a.wav\ta.txt\n%s\ta.txt\n", uris[u]);
        tt_write_text(tt_path(dir, "u.tsv"), text);
        snprintf(want, sizeof want, "u.tsv:2: %s: a URI; manifest entries are files", uris[u]);
        for (int named = 0; named < 6; named++) {
            /* even: the manifest named from its folder (no '/'); odd: DIR/u.tsv */
            const char *m = named % 2 ? tt_path(dir, "u.tsv") : "u.tsv";
            char cmd[4096];
            if (named < 2)
                snprintf(cmd, sizeof cmd, "cd '%s' && '%s' train --manifest '%s' --out '%s/u.slm' " TINY,
                         dir, seqlabel, m, dir);
            else if (named < 4)
                snprintf(cmd, sizeof cmd, "cd '%s' && '%s' eval --model '%s/good.slm' --manifest '%s' "
                         "--no-cache", dir, seqlabel, dir, m);
            else
                snprintf(cmd, sizeof cmd, "cd '%s' && '%s' eval --hyp '%s/a.txt' --manifest '%s'", dir,
                         seqlabel, dir, m);
            strcat(cmd, " < /dev/null > /dev/null");
            char *err = NULL;
            const int rc = tt_run(cmd, &err);
            if (rc != 1 || !strstr(err, want))
                fail_msg("%s: exit %d, %s (want '%s')", cmd, rc, err ? err : "", want);
            free(err);
            assert_int_equal(access(tt_path(dir, "u.slm"), F_OK), -1);
        }
    }
    /* "-": no file of that name here, whatever the standard input holds */
    tt_write_text(tt_path(dir, "u.tsv"), "-\ta.txt\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' eval --hyp a.txt --manifest u.tsv < a.wav > /dev/null",
             dir, seqlabel);
    char *err = NULL;
    assert_int_equal(tt_run(cmd, &err), 1);
    if (!strstr(err, "u.tsv:1: ./-: cannot open"))
        fail_msg("%s", err);
    free(err);
}

/* Audio that is no file: a FIFO as a manifest's audio entry (whose open would
 * wait for a writer for ever), a device and a folder are refused at once,
 * naming the line, by train, eval --model and eval --hyp; a FIFO as the
 * checkpoint to resume, too. Each command runs under timeout(1), so that a
 * return of the wait fails the test rather than hanging it. */
static void audio_and_checkpoint_that_are_no_files(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(tt_path(dir, "fifo.wav"), 0644), 0);
    assert_int_equal(mkdir(tt_path(dir, "folder.wav"), 0755), 0);
    const struct {
        const char *audio, *want;
    } cases[] = {
        {"fifo.wav", "fifo.wav: a FIFO, pipe or socket, not an audio file"},
        {"/dev/zero", "/dev/zero: a device, not an audio file"},
        {"folder.wav", "folder.wav: is a directory, not an audio file"},
    };
    char cmd[4096];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[128];
        snprintf(text, sizeof text, "%s\ta.txt\n", cases[k].audio);
        tt_write_text(tt_path(dir, "nf.tsv"), text);
        for (int how = 0; how < 3; how++) {
            if (how == 0)
                snprintf(cmd, sizeof cmd, "timeout 10 '%s' train --manifest '%s/nf.tsv' --out "
                         "'%s/nf.slm' " TINY, seqlabel, dir, dir);
            else if (how == 1)
                snprintf(cmd, sizeof cmd, "timeout 10 '%s' eval --model '%s/good.slm' --manifest "
                         "'%s/nf.tsv' --no-cache", seqlabel, dir, dir);
            else
                snprintf(cmd, sizeof cmd, "timeout 10 '%s' eval --hyp '%s/a.txt' --manifest "
                         "'%s/nf.tsv'", seqlabel, dir, dir);
            strcat(cmd, " < /dev/null > /dev/null");
            char *err = NULL;
            const int rc = tt_run(cmd, &err);
            if (rc != 1 || !strstr(err, "nf.tsv:1: ") || !strstr(err, cases[k].want))
                fail_msg("%s: exit %d (124: timed out), %s (want '%s')", cmd, rc,
                         err ? err : "", cases[k].want);
            free(err);
        }
    }
    /* the checkpoint --resume reads: a FIFO refused, not waited on */
    assert_int_equal(mkfifo(tt_path(dir, "fifo.ckpt"), 0644), 0);
    tt_write_text(tt_path(dir, "nf.tsv"), "a.wav\ta.txt\n");
    snprintf(cmd, sizeof cmd, "timeout 10 '%s' train --manifest '%s/nf.tsv' --out '%s/nf.slm' "
             "--checkpoint '%s/fifo.ckpt' " TINY " --resume < /dev/null > /dev/null", seqlabel,
             dir, dir, dir);
    char *err = NULL;
    const int rc = tt_run(cmd, &err);
    if (rc != 1 || !strstr(err, "fifo.ckpt: cannot resume: a FIFO"))
        fail_msg("%s: exit %d (124: timed out), %s", cmd, rc, err ? err : "");
    free(err);
    assert_int_equal(access(tt_path(dir, "nf.slm"), F_OK), -1);
}

/* Whole-file labels (=NAME): a class the --classes list lacks, and '=' alone,
 * named by the manifest line (there is no label file). */
static void whole_file_label_errors(void **state)
{
    (void)state;
    expect_failure("a.wav\ta.txt\nb.wav\t=birds\n", "--classes tone,noise,silence",
                   (const char *[]){"m.tsv:2:", "unknown class 'birds'", "tone, noise, silence", NULL});
    expect_failure("a.wav\ta.txt\nb.wav\t=\n", NULL,
                   (const char *[]){"m.tsv:2:", "'=' names no class", NULL});
    /* so does a '#' with nothing after it, not a line of the RTTM file */
    tt_write_text(tt_path(dir, "a.rttm"), "SPEAKER a 1 0 1 <NA> <NA> x <NA> <NA>\n");
    expect_failure("a.wav\ta.rttm#\n", NULL,
                   (const char *[]){"m.tsv:1:", "a.rttm#: '#' names no class", NULL});
}

/* A class name no model can hold is said where it stands (file and line), not
 * when the model is made. */
static void bad_class_names(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "utf.txt"), "0\t1\tb\xff" "ad\n");
    expect_failure("a.wav\tutf.txt\n", NULL,
                   (const char *[]){"m.tsv:1:", "utf.txt:1:", "printable UTF-8", NULL});
    /* Windows-1252 text: the bytes shown, the encoding suspected */
    tt_write_text(tt_path(dir, "cp1252.txt"), "0\t1\tcaf\xe9\n");
    expect_failure("a.wav\tcp1252.txt\n", NULL,
                   (const char *[]){"cp1252.txt:1:", "class 'caf\\xe9': ", "Windows-1252",
                                    "save the labels as UTF-8", NULL});
    /* a control character, U+0085, shown whole: both its bytes */
    tt_write_text(tt_path(dir, "c1.txt"), "0\t1\ta\xc2\x85" "b\n");
    expect_failure("a.wav\tc1.txt\n", NULL, (const char *[]){"class 'a\\xc2\\x85b': ", NULL});
    expect_failure("a.wav\t=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
                   NULL, (const char *[]){"m.tsv:1:", "1..64 bytes", NULL});
    /* names RTTM, TextGrid or the command's lists could not give back */
    tt_write_text(tt_path(dir, "space.txt"), "0\t1\tdog bark\n");
    expect_failure("a.wav\tspace.txt\n", NULL,
                   (const char *[]){"m.tsv:1:", "space.txt:1:", "no spaces", "dog_bark", NULL});
    expect_failure("a.wav\t=a,b\n", NULL, (const char *[]){"m.tsv:1:", "no ',' or '='", NULL});
    /* a trailing space is shown by the quotes; Unicode's spaces count too */
    tt_write_text(tt_path(dir, "trail.txt"), "0\t1\tknock \n");
    expect_failure("a.wav\ttrail.txt\n", NULL, (const char *[]){"class 'knock ': ", NULL});
    tt_write_text(tt_path(dir, "nbsp.txt"), "0\t1\tknock\xc2\xa0\n");
    expect_failure("a.wav\tnbsp.txt\n", NULL, (const char *[]){"nbsp.txt:1:", "Unicode's", NULL});
    expect_failure("a.wav\t=speech=0.2\n", NULL, (const char *[]){"no ',' or '='", NULL});
    tt_write_text(tt_path(dir, "quote.txt"), "0\t1\t\"x\n");
    expect_failure("a.wav\tquote.txt\n", NULL,
                   (const char *[]){"quote.txt:1:", "does not begin with '\"'", NULL});
    /* nor the frames table's own columns, which a class's would overwrite */
    expect_failure("a.wav\t=time\n", NULL,
                   (const char *[]){"m.tsv:1:", "none of the frames table's own columns", NULL});
    expect_failure("a.wav\t=confidence\n", NULL, (const char *[]){"own columns", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--classes 'tone,dog bark'",
                (const char *[]){"class 2 ('dog bark'): a class name holds no spaces", NULL});
    /* an invisible format character (U+200F, a right-to-left mark): two names
     * that print alike; shown as bytes, so no override reaches the terminal */
    tt_write_text(tt_path(dir, "rlm.txt"), "0\t1\tabc\n1\t2\t\xe2\x80\x8f" "abc\n");
    expect_failure("a.wav\trlm.txt\n", NULL,
                   (const char *[]){"rlm.txt:2:", "class '\\xe2\\x80\\x8f" "abc': ",
                                    "invisible format characters", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--classes 'tone,x\xe2\x80\xaey'",
                (const char *[]){"class 2 ('x\\xe2\\x80\\xaey'): ", "invisible", NULL});
    /* ... but the joiners of emoji sequences and Persian words are letters' */
    tt_write_text(tt_path(dir, "zwj.txt"), "0\t1\ttone\n1\t2\tnoise\n2\t3\t"
                  "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7\n");
    tt_write_text(tt_path(dir, "zwj.tsv"), "a.wav\tzwj.txt\n");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/zwj.tsv' --out '%s/zwj.slm' " TINY
             " > /dev/null", seqlabel, dir, dir);
    char *err = NULL;
    if (tt_run(cmd, &err))
        fail_msg("%s", err);
    free(err);
    /* a label longer than a class name may be: named, with its length in bytes,
     * which is what the limit counts (22 kanji: 66 bytes) */
    char kanji[128] = "0\t1\t";
    for (int k = 0; k < 22; k++)
        strcat(kanji, "\xe9\x9f\xb3");
    strcat(kanji, "\n");
    tt_write_text(tt_path(dir, "kanji.txt"), kanji);
    expect_failure("a.wav\tkanji.txt\n", NULL,
                   (const char *[]){"kanji.txt:1: label '\xe9\x9f\xb3\xe9\x9f\xb3", "' is 66 bytes long",
                                    "at most 64 bytes of UTF-8", "21 CJK", NULL});
}

/* What the run writes is checked before any audio is read: the model over the
 * manifest, a training file or its labels, the model and the checkpoint as one
 * file, a folder that is not there, a feature cache that is a file; and options
 * that would do nothing (noise settings without noise, a stop without a
 * checkpoint) are refused. */
static void outputs_checked_before_training(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "o.tsv"), "a.wav\ta.txt\n");
    tt_write_text(tt_path(dir, "cachefile"), "");
    tt_write_text(tt_path(dir, "nl.txt"), "# noise\nnz.wav\n");
    tt_write_text(tt_path(dir, "nz.wav"), "RIFF (a noise file the run reads)");
    const char *cases[][3] = {
        {"--out '%s/o.tsv'", "o.tsv: is an input of the run", NULL},
        {"--out '%s/x.slm' --checkpoint '%s/nz.wav' --noise-list '%s/nl.txt'", "nz.wav: is a file of the "
         "noise list", "(line 2)"},
        {"--out '%s/a.wav'", "a.wav: is a file of", "(line 1)"},
        {"--out '%s/a.txt'", "a.txt: is a file of", "(line 1)"},
        {"--out '%s/same' --checkpoint '%s/same'", "one file", NULL},
        {"--out '%s/nowhere/x.slm'", "nowhere", "No such file or directory"},
        {"--out '%s/x.slm' --checkpoint '%s/nowhere/x.ckpt'", "the checkpoint", "nowhere"},
        {"--out '%s/x.slm' --stop-after 3", "--stop-after", "--checkpoint"}};
    const size_t settings = 7; /* the last: options that do not go together (exit 2) */
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char opts[1024], cmd[4096];
        snprintf(opts, sizeof opts, cases[k][0], dir, dir, dir);
        snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/o.tsv' " TINY " %s", seqlabel, dir, opts);
        char *err = NULL, *manifest = NULL;
        int rc = tt_run(cmd, &err);
        printf("%s: %s", opts, err ? err : "");
        assert_int_equal(rc, k >= settings ? 2 : 1);
        assert_non_null(strstr(err, cases[k][1]));
        assert_true(!cases[k][2] || strstr(err, cases[k][2]));
        assert_null(strstr(err, "step ")); /* refused before any training */
        free(err);
        manifest = tt_read_file(tt_path(dir, "o.tsv"), NULL);
        assert_string_equal(manifest, "a.wav\ta.txt\n");
        free(manifest);
        manifest = tt_read_file(tt_path(dir, "nz.wav"), NULL);
        assert_string_equal(manifest, "RIFF (a noise file the run reads)");
        free(manifest);
    }
    /* TINY keeps features in memory: the cache's own case without it */
    char cmd[4096], *err = NULL;
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/o.tsv' --out '%s/x.slm' --cache-dir "
             "'%s/cachefile' --mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 "
             "--batch 8 --steps 3 --quiet", seqlabel, dir, dir, dir);
    int rc = tt_run(cmd, &err);
    tt_expect_refusal("--cache-dir FILE", 1, rc, err, "cachefile", "is a file, not a folder");
    char *wav = tt_read_file(tt_path(dir, "a.wav"), NULL); /* the audio is still audio */
    assert_non_null(wav);
    assert_memory_equal(wav, "RIFF", 4);
    free(wav);
}

static void overlapping_segments(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "over.txt"), "0.00\t1.00\ttone\n2.00\t3.00\tnoise\n0.50\t1.50\tsilence\n");
    const char *want[] = {"over.txt:3:", "overlaps", "line 1", NULL};
    expect_failure("a.wav\tover.txt\n", NULL, want);
}

/* The last line names the best model's file only when it holds it: a resumed
 * run that saved nothing (here: one resumed after its last step, with another
 * --out) says its --out was not written. */
static void best_model_named_truly(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "bv.tsv"), "a.wav\ta.txt\nb.wav\tb.txt\tvalid\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/bv.tsv' --out '%s/b1.slm' --checkpoint "
             "'%s/b.ckpt' " TINY " > '%s/b1.out'", seqlabel, dir, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    char *out = tt_read_file(tt_path(dir, "b1.out"), NULL);
    char want[1024];
    snprintf(want, sizeof want, ": %s/b1.slm\n", dir);
    assert_non_null(strstr(out, "best valid_macro_f1 "));
    assert_non_null(strstr(out, want));
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/bv.tsv' --out '%s/b2.slm' --checkpoint "
             "'%s/b.ckpt' --resume " TINY " > '%s/b2.out'", seqlabel, dir, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    out = tt_read_file(tt_path(dir, "b2.out"), NULL);
    snprintf(want, sizeof want, "saved before the resume to that run's --out: no step since did "
             "better, so %s/b2.slm was not written\n", dir);
    if (!strstr(out, want))
        fail_msg("%s", out);
    free(out);
    assert_int_equal(access(tt_path(dir, "b2.slm"), F_OK), -1);
}

/* sl_train_config_check, the library's own: settings a program filled in
 * wrong are refused with a message, never a crash (class names missing,
 * teachers without a file, out-of-range counts), before any data is read. */
static void config_check_refuses(void **state)
{
    (void)state;
    char err[SL_ERR_LEN];
    sl_train_config c;
    const struct {
        int what;
        const char *want;
    } cases[] = {{0, "class 2: no name"}, {1, "class 1 (''): a class name must be 1..64 bytes"},
                 {2, "teacher 1: no model file named"}, {3, "cosine or linear"},
                 {4, "-1 or more"}, {5, "-1 or more"}, {6, "-1 or more"},
                 {7, "training threads 65 is outside 1..64"},
                 {8, "training threads 0 is outside 1..64"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sl_train_config_default(&c);
        c.train_manifest = "m.tsv";
        c.out_path = "o.slm";
        c.class_names[0] = "speech";
        switch (cases[k].what) {
        case 0: c.n_classes = 2; break;                      /* the second name NULL */
        case 1: c.n_classes = 1; c.class_names[0] = ""; break;
        case 2: c.n_teachers = 1; c.teacher_paths[0] = NULL; break;
        case 3: c.schedule = (sl_lr_schedule)9; break;
        case 4: c.warmup = -5; break;
        case 5: c.checkpoint_every = -1; break;
        case 6: c.max_steps = -3; break;
        case 7: c.num_threads = SL_MAX_THREADS + 1; break;
        case 8: c.num_threads = 0; break;
        }
        err[0] = '\0';
        assert_int_equal(sl_train_config_check(&c, err, sizeof err), -1);
        if (!strstr(err, cases[k].want))
            fail_msg("case %zu: '%s' (want '%s')", k, err, cases[k].want);
    }
    sl_train_config_default(&c);
    c.train_manifest = "m.tsv";
    c.out_path = "o.slm";
    assert_int_equal(sl_train_config_check(&c, err, sizeof err), 0);
}

static void empty_training_split(void **state)
{
    (void)state;
    /* --valid naming no validation entry: refused, not trained without one */
    tt_write_text(tt_path(dir, "novalid.tsv"), "# only a test file\nb.wav\tb.txt\ttest\n");
    char extra[1024];
    snprintf(extra, sizeof extra, "--valid '%s/novalid.tsv'", dir);
    expect_failure("a.wav\ta.txt\n", extra,
                   (const char *[]){"novalid.tsv", "the validation set is empty", NULL});
    const char *want[] = {"m.tsv", "training split is empty", NULL};
    expect_failure("a.wav\ta.txt\tvalid\nb.wav\tb.txt\ttest\n", NULL, want);
    const char *want2[] = {"m.tsv", "training split is empty", NULL};
    expect_failure("# nothing here\n\n", NULL, want2);
    /* --valid-share where every line has its split already: said so */
    expect_failure("a.wav\ta.txt\ttrain\nb.wav\tb.txt\tvalid\n", "--valid-share 0.3",
                   (const char *[]){"every line has one (1 marked valid): leave --valid-share "
                                    "out", NULL});
    /* --valid-share holding out every entry says so */
    expect_failure("a.wav\ta.txt\nb.wav\tb.txt\n", "--valid-share 0.9",
                   (const char *[]){"training split is empty", "once --valid-share held its "
                                    "share out", NULL});
}

static void malformed_lines(void **state)
{
    (void)state;
    expect_failure("a.wav\ta.txt\nb.wav\n", NULL,
                   (const char *[]){"m.tsv:2:", "expected audio<TAB>labels", NULL});
    expect_failure("a.wav\ta.txt\tholdout\n", NULL,
                   (const char *[]){"m.tsv:1:", "unknown split 'holdout' (train, valid or test; "
                                    "validation, val and dev are read as valid)", NULL});
    tt_write_text(tt_path(dir, "badtime.txt"), "0.00\t1.00\ttone\n1.00\tsoon\tnoise\n");
    expect_failure("a.wav\tbadtime.txt\n", NULL,
                   (const char *[]){"badtime.txt:2:", "bad time 'soon'", NULL});
    /* strtod's hexadecimal floats are no label file's times */
    tt_write_text(tt_path(dir, "hex.txt"), "0x0.8p0\t1.00\ttone\n");
    expect_failure("a.wav\thex.txt\n", NULL,
                   (const char *[]){"hex.txt:1:", "bad time '0x0.8p0'", NULL});
    /* an audio file that is not there: the reason, not only that it failed */
    expect_failure("gone.wav\ta.txt\n", NULL,
                   (const char *[]){"m.tsv:1:", "gone.wav: cannot open the audio file: No such "
                                    "file or directory", NULL});
    /* a manifest made on Windows: what is wrong is said (a.wav is there) */
    const char *windows[] = {".\\a.wav\ta.txt\n", "C:/data/a.wav\ta.txt\n", "a.wav\tsub\\a.txt\n"};
    for (int i = 0; i < 3; i++)
        expect_failure(windows[i], NULL,
                       (const char *[]){"m.tsv:1:", "No such file or directory (a Windows path? "
                                        "here folders are separated by '/', with no drive letter)",
                                        NULL});
    /* a missing file in a folder named with a backslash here is no Windows path */
    char err[SL_ERR_LEN];
    assert_int_equal(mkdir(tt_path(dir, "my\\dir"), 0755), 0);
    assert_int_not_equal(sl_audio_entry_check(tt_path(dir, "my\\dir/gone.wav"), err, sizeof err), 0);
    if (!strstr(err, "No such file or directory") || strstr(err, "Windows"))
        fail_msg("%s", err);
    rmdir(tt_path(dir, "my\\dir"));
    tt_write_text(tt_path(dir, "back.txt"), "1.00\t0.50\ttone\n");
    expect_failure("a.wav\tback.txt\n", NULL,
                   (const char *[]){"back.txt:1:", "ends (0.5 s) before it starts", NULL});
    tt_write_text(tt_path(dir, "cols.txt"), "0.00\t1.00\n");
    expect_failure("a.wav\tcols.txt\n", NULL,
                   (const char *[]){"cols.txt:1:", "start<TAB>end<TAB>label", NULL});
}

/* TextGrid labels: a tier that is not there (the ones that are, named), a
 * point tier asked for, intervals out of order (the line), a file cut short,
 * something that is not a TextGrid, Praat's chronological format. */
static void textgrid_errors(void **state)
{
    (void)state;
    const char *head = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n"
                       "0\n3\n<exists>\n2\n\"TextTier\"\n\"bell\"\n0\n3\n0\n";
    char text[1024];
    snprintf(text, sizeof text, "%s\"IntervalTier\"\n\"words\"\n0\n3\n2\n"
             "0\n2\n\"tone\"\n1\n3\n\"noise\"\n", head);
    tt_write_text(tt_path(dir, "order.TextGrid"), text);
    expect_failure("a.wav\torder.TextGrid#phones\n", NULL,
                   (const char *[]){"order.TextGrid", "no interval tier \"phones\"",
                                    "(interval tiers: \"words\")", NULL});
    expect_failure("a.wav\torder.TextGrid#bell\n", NULL,
                   (const char *[]){"order.TextGrid:8:", "\"bell\" is a point tier", NULL});
    expect_failure("a.wav\torder.TextGrid\n", NULL,
                   (const char *[]){"order.TextGrid:20:", "interval 1-3 s is out of order", NULL});
    snprintf(text, sizeof text, "%s\"IntervalTier\"\n\"words\"\n0\n3\n2\n0\n2\n\"to", head);
    tt_write_text(tt_path(dir, "cut.TextGrid"), text);
    expect_failure("a.wav\tcut.TextGrid\n", NULL,
                   (const char *[]){"cut.TextGrid:", "ends before the text", NULL});
    tt_write_text(tt_path(dir, "not.TextGrid"), "0.00\t1.00\ttone\n");
    expect_failure("a.wav\tnot.TextGrid\n", NULL,
                   (const char *[]){"not.TextGrid:", "not a Praat text file", NULL});
    /* Praat's "Save as chronological text file": said as such, with the way out */
    tt_write_text(tt_path(dir, "chrono.TextGrid"),
                  "\"Praat chronological TextGrid text file\"\n0 3   ! Time domain.\n1   ! "
                  "Number of tiers.\n\"IntervalTier\" \"words\" 0 3\n\n1 0 3\n\"tone\"\n");
    expect_failure("a.wav\tchrono.TextGrid\n", NULL,
                   (const char *[]){"chrono.TextGrid:", "Praat's chronological format",
                                    "\"Save as text file\"", NULL});
}

/* A validation split whose labels cover no frame would keep the step-1 model as
 * "best": refused, naming the manifest. */
static void unlabeled_validation(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "none.txt"), "");
    expect_failure("a.wav\ta.txt\nb.wav\tnone.txt\tvalid\n", NULL,
                   (const char *[]){"m.tsv", "validation files have no labeled frames", NULL});
}

/* Runs `command` (in dir) that must succeed, saying `said` and then `end` on
 * standard error. */
static void expect_said(const char *command, const char *said, const char *end)
{
    char cmd[4096], *err = NULL;
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s > /dev/null", dir, seqlabel, command);
    assert_int_equal(tt_run(cmd, &err), 0);
    const char *at = strstr(err, said);
    if (!at || !strstr(at, end))
        fail_msg("%s said: %s", command, err);
    free(err);
}

/* An empty label file (an Audacity export of no label) leaves its recording
 * out of the loss, and eval's figures: said, naming it, not silently. */
static void empty_label_file_said(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "none.txt"), "");
    tt_write_text(tt_path(dir, "e.tsv"), "a.wav\ta.txt\nb.wav\tnone.txt\na.wav\ta.txt\tvalid\n");
    expect_said("train --manifest e.tsv --out e.slm --mel-bins 24 --d-model 32 --heads 2 "
                "--layers 1 --d-ff 64 --window 64 --batch 8 --steps 1 --no-cache",
                "training files with no labelled frame (an empty label file?), left out of "
                "the loss: 1 (the first: ", "b.wav)\n");
    expect_said("eval --model e.slm --manifest e.tsv --no-cache",
                "files with no frame scored (an empty label file? a clip shorter than one "
                "analysis window? or the collar or --uem leaves none), left out of the "
                "figures: 1 (the first: ", "b.wav)\n");
}

static void one_class_only(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "one.txt"), "0.00\t3.00\ttone\n");
    expect_failure("a.wav\tone.txt\n", NULL,
                   (const char *[]){"m.tsv", "at least 2", "--ref-gap CLASS", NULL});
}

/* A class that no training frame holds cannot be learnt: one of the
 * validation labels alone (named where they name it: a typo there), or one
 * --classes adds, is refused, named. */
static void class_without_training_frames(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "bird.txt"), "0.00\t1.00\ttone\n1.00\t3.00\tbird\n");
    expect_failure("a.wav\ta.txt\nb.wav\tbird.txt\tvalid\n", NULL,
                   (const char *[]){"m.tsv: no training frame is of class 'bird' (only the "
                                    "validation labels name it: ", "m.tsv:2: ",
                                    "/bird.txt:2), so", NULL});
    expect_failure("a.wav\ta.txt\n", "--classes tone,noise,silence,hum",
                   (const char *[]){"m.tsv: no training frame is of class 'hum'",
                                    "(--ref-gap hum)", NULL});
    /* ... where --ref-gap names a class not asked for: a wrong command line */
    expect_exit(2, "a.wav\ta.txt\n", "--classes tone,noise,silence --ref-gap hum",
                (const char *[]){"gap class 'hum' is not one of the classes asked for", NULL});
    /* a teacher that gives no soft targets (weight 0) teaches 'hum' nothing */
    char teacher[700];
    snprintf(teacher, sizeof teacher, "--classes tone,noise,silence,hum --teacher '%s' "
             "--distill-weight 0", tt_path(dir, "good.slm"));
    expect_failure("a.wav\ta.txt\n", teacher,
                   (const char *[]){"m.tsv: no training frame is of class 'hum'", NULL});
}

/* --ref-gap: labels that mark one class (a tone from 0 to 1.5 s of 3 s) train
 * two, the rest of the time the gap's class: of the 298 frames (25 ms windows
 * every 10 ms), the 150 whose centres ((t + 0.5) * 0.01 s, docs/training.md)
 * lie before 1.5 s are the tone's, the other 148 the rest's. */
static void gap_class_trains(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "half.txt"), "0.00\t1.50\ttone\n");
    tt_write_text(tt_path(dir, "m.tsv"), "a.wav\thalf.txt\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "{ '%s' train --manifest '%s/m.tsv' --out '%s/gap.slm' --mel-bins 24 "
             "--d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 --batch 8 --steps 3 "
             "--no-cache --ref-gap rest >/dev/null && '%s' info '%s/gap.slm' >&2; }",
             seqlabel, dir, dir, seqlabel, dir);
    char *err = NULL;
    int rc = tt_run(cmd, &err);
    if (rc)
        fail_msg("%s", err);
    if (!strstr(err, "training frames by class: tone 150 (50.3%), rest 148 (49.7%)"))
        fail_msg("no per-class count: %s", err);
    if (!strstr(err, "classes: 2\n  0\ttone\n  1\trest\n"))
        fail_msg("classes: %s", err);
    free(err);
    /* a gap class named in NFD (typed on macOS) is kept in NFC, as labels' names are */
    snprintf(cmd, sizeof cmd, "{ '%s' train --manifest '%s/m.tsv' --out '%s/gap2.slm' --mel-bins 24 "
             "--d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 --batch 8 --steps 3 "
             "--no-cache --ref-gap 'Gera\xcc\x88usch' >/dev/null && '%s' info '%s/gap2.slm' >&2; }",
             seqlabel, dir, dir, seqlabel, dir);
    if (tt_run(cmd, &err))
        fail_msg("%s", err);
    if (!strstr(err, "  1\tGer\xc3\xa4usch\n"))
        fail_msg("classes: %s", err);
    free(err);
}

static void bad_noise_list(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "noise.txt"), "a.wav\n# next is missing\nquiet.wav\n");
    char extra[1024];
    snprintf(extra, sizeof extra, "--noise-list '%s/noise.txt'", dir);
    expect_failure("a.wav\ta.txt\n", extra, (const char *[]){"noise.txt:3:", "quiet.wav", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--noise-list a.wav --snr-range 10,5",
                (const char *[]){"--snr-range", NULL});
    /* noise options without the noise they mix in */
    expect_exit(2, "a.wav\ta.txt\n", "--noise-prob 1",
                (const char *[]){"--noise-prob goes with --noise-list", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--snr-range 0,5",
                (const char *[]){"--snr-range goes with --noise-list", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--augment-gain 6 --mfcc 13",
                (const char *[]){"gain augmentation needs log-mel", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--augment-8bit 0.2 --mfcc 13",
                (const char *[]){"8-bit and EQ augmentation need log-mel", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--augment-8bit 1.5",
                (const char *[]){"--augment-8bit", "[0, 1]", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--augment-eq 6 --mfcc 13",
                (const char *[]){"EQ augmentation need log-mel", NULL});
    expect_exit(2, "a.wav\ta.txt\n", "--augment-eq 25",
                (const char *[]){"--augment-eq", "[0, 20]", NULL});
    /* 24 mel bins here: a band of 13 would hide more than half of them. */
    expect_exit(2, "a.wav\ta.txt\n", "--augment-freq-mask 13",
                (const char *[]){"masks: at most half the 24 feature bins", NULL});
}

static void damaged_checkpoint(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "good2.tsv"), "a.wav\ta.txt\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/good2.tsv' --out '%s/c.slm' --checkpoint '%s/c.ckpt' " TINY
             " > /dev/null", seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    /* Flip one byte in the middle. */
    FILE *fp = fopen(tt_path(dir, "c.ckpt"), "r+b");
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, n / 2, SEEK_SET);
    int ch = fgetc(fp);
    fseek(fp, n / 2, SEEK_SET);
    fputc(ch ^ 0x5a, fp);
    fclose(fp);
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/good2.tsv' --out '%s/c.slm' --checkpoint '%s/c.ckpt' " TINY
             " --resume", seqlabel, dir, dir, dir);
    char *err = NULL;
    assert_int_equal(tt_run(cmd, &err), 1);
    assert_non_null(strstr(err, "c.ckpt"));
    assert_non_null(strstr(err, "damaged"));
    free(err);
    /* a file larger than the memory training may take is weighed before it
     * is read: 200 MB that begin as a checkpoint (sparse) under a 10 MB cap */
    fp = fopen(tt_path(dir, "big.ckpt"), "wb");
    assert_non_null(fp);
    fputs("SLCKPT01", fp);
    assert_int_equal(ftruncate(fileno(fp), 200000000), 0);
    fclose(fp);
    snprintf(cmd, sizeof cmd, "SEQLABEL_MEMORY_LIMIT=10M '%s' train --manifest '%s/good2.tsv' "
             "--out '%s/c.slm' --checkpoint '%s/big.ckpt' " TINY " --resume", seqlabel, dir, dir,
             dir);
    assert_int_equal(tt_run(cmd, &err), 1);
    if (!strstr(err, "big.ckpt: reading this checkpoint takes 200 MB, more than the 10 MB of "
                     "memory it may take"))
        fail_msg("%s", err);
    free(err);
    unlink(tt_path(dir, "big.ckpt"));
}

/* CRC-32 (zlib's: reflected, polynomial 0xEDB88320), bit by bit, as a
 * checkpoint closes with it. */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
    }
    return ~crc;
}

/* dir/c3.ckpt with its step (model/train_checkpoint.c: "SLCKPT01", u32 version,
 * u32 0, u64 model_bytes, the model, u64 n_params, i64 step, ...) set to `step`
 * and its CRC-32 written anew, as dir/p.ckpt. */
static void write_checkpoint_at(int64_t step)
{
    size_t n;
    unsigned char *b = (unsigned char *)tt_read_file(tt_path(dir, "c3.ckpt"), &n);
    assert_non_null(b);
    assert_true(n > 36);
    uint64_t mlen;
    memcpy(&mlen, b + 16, 8); /* little-endian, as the hosts it is written on */
    const size_t at = 24 + (size_t)mlen + 8;
    assert_true(at + 8 + 4 <= n);
    memcpy(b + at, &step, 8);
    const uint32_t crc = crc32_of(b, n - 4);
    memcpy(b + n - 4, &crc, 4);
    FILE *fp = fopen(tt_path(dir, "p.ckpt"), "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
    free(b);
}

/* A checkpoint whose step is out of range, its checksum right (made by hand):
 * INT64_MAX (step + 1 overflowed, then "diverged at step -9223372036854775807")
 * a negative step and one past the run's 3 are refused as damaged, naming the
 * file; the step it was at, written back the same way, resumes (the run done),
 * so the file was patched right. */
static void checkpoint_step_out_of_range(void **state)
{
    (void)state;
    tt_write_text(tt_path(dir, "good3.tsv"), "a.wav\ta.txt\n");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/good3.tsv' --out '%s/c3.slm' --checkpoint "
             "'%s/c3.ckpt' " TINY " > /dev/null", seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    const int64_t steps[] = {INT64_MAX, -3, 4, 3};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        write_checkpoint_at(steps[k]);
        snprintf(cmd, sizeof cmd, "'%s' train --manifest '%s/good3.tsv' --out '%s/c3.slm' --checkpoint "
                 "'%s/p.ckpt' " TINY " --resume > /dev/null", seqlabel, dir, dir, dir);
        char *err = NULL;
        const int rc = tt_run(cmd, &err);
        if (steps[k] == 3) { /* the step it was at, the run done */
            if (rc != 0)
                fail_msg("step 3: exit %d, %s", rc, err ? err : "");
        } else if (rc != 1 || !strstr(err, "p.ckpt: damaged checkpoint")) {
            fail_msg("step %lld: exit %d, %s", (long long)steps[k], rc, err ? err : "");
        }
        free(err);
    }
}

static void eval_reports_and_checks_labels(void **state)
{
    (void)state;
    char cmd[4096];
    tt_write_text(tt_path(dir, "e.tsv"), "a.wav\ta.txt\nb.wav\tb.txt\n");
    tt_write_text(tt_path(dir, "run#2.txt"), "0\t1\ttone\n"); /* '#' in a file's own name */
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e.tsv' --no-cache > '%s/eval.txt'",
             seqlabel, dir, dir, dir);
    char *err = NULL;
    int rc = tt_run(cmd, &err);
    if (rc)
        fail_msg("%s", err);
    free(err);
    char *out = tt_read_file(tt_path(dir, "eval.txt"), NULL);
    /* 2 files x (1 + (48000 - 400) / 160 = 298) frames, every one labeled. */
    assert_non_null(strstr(out, "frames 596 "));
    assert_non_null(strstr(out, "accuracy"));
    assert_non_null(strstr(out, "confusion"));
    free(out);
    /* --json: the same count, as one object on one line */
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e.tsv' --no-cache --json "
             "> '%s/eval.json'", seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    out = tt_read_file(tt_path(dir, "eval.json"), NULL);
    assert_true(out[0] == '{' && strchr(out, '\n') == out + strlen(out) - 1);
    assert_non_null(strstr(out, "{\"frames\":596,"));
    assert_non_null(strstr(out, "\"confusion\":[["));
    free(out);
    tt_write_text(tt_path(dir, "odd2.txt"), "0.00\t1.00\ttone\n1.00\t2.00\tbirds\n");
    tt_write_text(tt_path(dir, "e2.tsv"), "a.wav\ta.txt\na.wav\todd2.txt\n");
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e2.tsv' --no-cache",
             seqlabel, dir, dir);
    assert_int_equal(tt_run(cmd, &err), 1);
    assert_non_null(strstr(err, "odd2.txt:2: unknown class 'birds'"));
    assert_non_null(strstr(err, "e2.tsv:2:"));
    free(err);
    /* An empty label file labels no frame: a report of zeros would pass for a
     * measurement, so eval refuses (and, under UBSan, reading one must not hand
     * qsort a NULL array, as the fuzzer found). */
    tt_write_text(tt_path(dir, "empty.txt"), "");
    tt_write_text(tt_path(dir, "e3.tsv"), "a.wav\tempty.txt\n");
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e3.tsv' --no-cache",
             seqlabel, dir, dir);
    assert_int_equal(tt_run(cmd, &err), 1);
    assert_non_null(strstr(err, "e3.tsv: no frame is labelled"));
    free(err);
    /* nor does a collar that covers every labelled frame (a's and b's labels change
     * within 3 s of every frame): refused as eval --hyp refuses it, not 0 frames */
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e.tsv' --no-cache "
             "--collar 3 --json", seqlabel, dir, dir);
    assert_int_equal(tt_run(cmd, &err), 1);
    if (!strstr(err, "e.tsv: no frame is scored (the collar covers it all)\n"))
        fail_msg("%s", err);
    free(err);
    /* the references as hypotheses, alone in a folder of their own */
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/e-hyp' && cp '%s/a.txt' '%s/b.txt' '%s/e-hyp/'", dir, dir, dir,
             dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s/e-hyp' --manifest '%s/e.tsv' --collar 3", seqlabel,
             dir, dir);
    assert_int_equal(tt_run(cmd, &err), 1);
    if (!strstr(err, "e.tsv: no frame is scored (the label files cover no audio, or the collar "
                "covers it all)\n"))
        fail_msg("%s", err);
    free(err);

    /* --per-file: each file's figures after the set's (the table), or before it,
     * a line each (JSON); the files' frames add up to the set's */
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e.tsv' --no-cache --per-file "
             "> '%s/eval.txt' && '%s' eval --model '%s/good.slm' --manifest '%s/e.tsv' --no-cache --per-file "
             "--json > '%s/eval.json'", seqlabel, dir, dir, dir, seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    out = tt_read_file(tt_path(dir, "eval.txt"), NULL);
    char *files = strstr(out, "files, the worst first:\n");
    assert_non_null(files);
    assert_non_null(strstr(files, "298  "));
    assert_non_null(strstr(files, "/a.wav\n"));
    assert_non_null(strstr(files, "/b.wav\n"));
    free(out);
    out = tt_read_file(tt_path(dir, "eval.json"), NULL);
    char *line2 = strchr(out, '\n') + 1, *line3 = strchr(line2, '\n') + 1;
    assert_true(!strncmp(out, "{\"audio\":\"", 10) && strstr(out, "/a.wav\",\"frames\":298,") < line2);
    assert_true(!strncmp(line2, "{\"audio\":\"", 10) && strstr(line2, "/b.wav\",\"frames\":298,") < line3);
    assert_true(!strncmp(line3, "{\"frames\":596,", 14) && strchr(line3, '\n')[1] == '\0');
    free(out);
    /* a file none of whose frames is scored (its labels empty) has no loss
     * either: null, as its other figures, not a perfect 0 in an average */
    tt_write_text(tt_path(dir, "none.txt"), "");
    tt_write_text(tt_path(dir, "e0.tsv"), "a.wav\ta.txt\nb.wav\tnone.txt\n");
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/e0.tsv' --no-cache "
             "--per-file --json > '%s/eval0.json'", seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    out = tt_read_file(tt_path(dir, "eval0.json"), NULL);
    if (!strstr(out, "/b.wav\",\"frames\":0,\"loss\":null,\"accuracy\":null,"))
        fail_msg("%s", out);
    free(out);
    /* a name with an escape and a newline in the table (a folder's file): shown
     * as messages show them, one row, nothing for the terminal to act on */
    assert_int_equal(mkdir(tt_path(dir, "odd"), 0755), 0);
    assert_int_equal(mkdir(tt_path(dir, "odd/tone"), 0755), 0);
    {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, "a.wav"));
        assert_int_equal(link(from, tt_path(dir, "odd/tone/x\x1b[31m\n.wav")), 0);
    }
    snprintf(cmd, sizeof cmd, "'%s' eval --model '%s/good.slm' --manifest '%s/odd' --no-cache "
             "--per-file > '%s/odd.txt'", seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    out = tt_read_file(tt_path(dir, "odd.txt"), NULL);
    if (!strstr(out, "/tone/x\\x1b[31m\\x0a.wav\n") || strchr(out, '\x1b'))
        fail_msg("%s", out);
    free(out);
    /* --hyp: the figures of label files, and what is refused with them */
    /* the references as the hypotheses (e-hyp/: a.txt, b.txt) */
    snprintf(cmd, sizeof cmd, "'%s' eval --hyp '%s/e-hyp' --manifest '%s/e.tsv' --json > '%s/hyp.json'",
             seqlabel, dir, dir, dir);
    assert_int_equal(tt_run(cmd, NULL), 0);
    out = tt_read_file(tt_path(dir, "hyp.json"), NULL);
    /* the references themselves: every frame right */
    assert_non_null(strstr(out, "{\"frames\":596,\"loss\":null,\"accuracy\":1,"));
    free(out);
    const struct {
        int code; /* 2: the command line is wrong, 1: what it reads */
        const char *args, *want;
    } refused[] = {
        {1, "--hyp '%s/nowhere' --manifest '%s/e.tsv'", "e.tsv:1: "},
        /* one label file for two audio files: each scored against the same labels */
        {1, "--hyp '%s/a.txt' --manifest '%s/e.tsv'", "a.txt: one label file for line 1 ("},
        /* '#' names a tier or class of a TextGrid or RTTM file only: here, the file's own */
        {1, "--hyp '%s/a.txt#words' --manifest '%s/e.tsv'", "a.txt#words: cannot open: No such file"},
        {1, "--hyp '%s/run#2.txt' --manifest '%s/e.tsv'", "run#2.txt: one label file for line 1 ("},
        {2, "--hyp '%s/e-hyp' --manifest '%s/e.tsv' --hyp-gap bird", "--hyp-gap: 'bird' is not one of"},
        {2, "--hyp '%s/e-hyp' --manifest '%s/e.tsv' --classes tone --model good.slm", "one or the other"},
        {1, "--hyp '%s/e-hyp' --manifest '%s/e.tsv' --classes tone", "e.tsv:1: "},
        {2, "--model '%s/good.slm' --manifest '%s/e.tsv' --hyp-gap tone", "--hyp-gap goes with --hyp"},
        {2, "--model '%s/good.slm' --manifest '%s/e.tsv' --sweep bird", "--sweep: "},
        {1, "--hyp '%s/e-hyp' --manifest '%s/e.tsv' --sweep tone", "a.txt: a sweep needs each frame's probability: a frames table"},
        {2, "--hyp '%s/e-hyp' --manifest '%s/e.tsv' --sweep bird", "--sweep: 'bird' is not one of the classes"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        char args[512];
        snprintf(args, sizeof args, refused[k].args, dir, dir);
        snprintf(cmd, sizeof cmd, "'%s' eval %s", seqlabel, args);
        assert_int_equal(tt_run(cmd, &err), refused[k].code);
        if (!strstr(err, refused[k].want))
            fail_msg("eval %s: %s (want '%s')", args, err, refused[k].want);
        free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_manifest_trains),
        cmocka_unit_test(folder_manifest_trains),
        cmocka_unit_test(whole_file_label_errors),
        cmocka_unit_test(bad_class_names),
        cmocka_unit_test(outputs_checked_before_training),
        cmocka_unit_test(missing_audio),
        cmocka_unit_test(missing_labels),
        cmocka_unit_test(labels_beyond_the_audio),
        cmocka_unit_test(unknown_class_with_classes_option),
        cmocka_unit_test(labels_that_are_no_files),
        cmocka_unit_test(uri_entries_refused),
        cmocka_unit_test(audio_and_checkpoint_that_are_no_files),
        cmocka_unit_test(overlapping_segments),
        cmocka_unit_test(textgrid_errors),
        cmocka_unit_test(best_model_named_truly),
        cmocka_unit_test(config_check_refuses),
        cmocka_unit_test(empty_training_split),
        cmocka_unit_test(malformed_lines),
        cmocka_unit_test(unlabeled_validation),
        cmocka_unit_test(empty_label_file_said),
        cmocka_unit_test(one_class_only),
        cmocka_unit_test(class_without_training_frames),
        cmocka_unit_test(gap_class_trains),
        cmocka_unit_test(bad_noise_list),
        cmocka_unit_test(damaged_checkpoint),
        cmocka_unit_test(checkpoint_step_out_of_range),
        cmocka_unit_test(eval_reports_and_checks_labels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
