/* Label formats against hand-written expected text. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "seqlabel.h"
#include "tests/common/test_files.h"

static void writer(sl_label_writer *w, sl_label_format f)
{
    memset(w, 0, sizeof *w);
    w->format = f;
    w->sample_rate = 16000;
    w->hop = 160;
    w->n_classes = 3;
    w->class_names[0] = "silence";
    w->class_names[1] = "speech";
    w->class_names[2] = "say \"hi\"\\";
    strcpy(w->file_id, "my_file");
}

static const float probs[3] = {0.125f, 0.75f, 0.125f};

/* Skip lists: names trimmed of spaces, --only's complement, an unknown name
 * said with the classes there are (and no crash without an error buffer). */
static void test_skip_lists(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_AUDACITY);
    char err[SL_ERR_LEN];
    assert_int_equal(sl_label_writer_set_skip(&w, " silence ,speech", 0, err, sizeof err), 0);
    assert_true(w.skip[0] && w.skip[1] && !w.skip[2]);
    assert_int_equal(sl_label_writer_set_skip(&w, "speech", 1, err, sizeof err), 0);
    assert_true(w.skip[0] && !w.skip[1] && w.skip[2]);
    assert_int_equal(sl_label_writer_set_skip(&w, "speech, nosuch", 0, err, sizeof err), -1);
    assert_string_equal(err, "no class 'nosuch' (the model's classes: silence, speech, "
                             "say \"hi\"\\)");
    assert_int_equal(sl_label_writer_set_skip(&w, "nosuch", 0, NULL, SL_ERR_LEN), -1);
    /* a class named in its other Unicode form (NFD: e + U+0301) */
    w.class_names[2] = "caf\xc3\xa9";
    assert_int_equal(sl_label_writer_set_skip(&w, "cafe\xcc\x81", 1, err, sizeof err), 0);
    assert_true(w.skip[0] && w.skip[1] && !w.skip[2]);
    assert_int_equal(sl_label_writer_set_skip(&w, "cafe", 1, err, sizeof err), -1);
}

/* A document of a format that has none: nothing, and the buffer says so. */
static void test_no_document(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_AUDACITY);
    char d[16];
    memset(d, '#', sizeof d);
    assert_int_equal(sl_label_format_document(&w, d, sizeof d, NULL, 0, 10), 0);
    assert_string_equal(d, "");
    assert_int_equal(sl_label_format_document(NULL, d, sizeof d, NULL, 0, 10), -1);
}

static void test_parse(void **state)
{
    (void)state;
    sl_label_format f;
    assert_int_equal(sl_label_format_parse("audacity", &f), 0);
    assert_int_equal(f, SL_FORMAT_AUDACITY);
    assert_int_equal(sl_label_format_parse("rttm", &f), 0);
    assert_int_equal(f, SL_FORMAT_RTTM);
    assert_int_equal(sl_label_format_parse("frames", &f), 0);
    assert_int_equal(f, SL_FORMAT_FRAMES);
    assert_int_equal(sl_label_format_parse("jsonl", &f), 0);
    assert_int_equal(f, SL_FORMAT_JSONL);
    assert_int_equal(sl_label_format_parse("csv", &f), 0);
    assert_int_equal(f, SL_FORMAT_CSV);
    assert_int_equal(sl_label_format_parse("xml", &f), -1);
    assert_string_equal(sl_label_format_name(SL_FORMAT_JSONL), "jsonl");
    assert_int_equal(sl_label_format_parse("textgrid", &f), 0);
    assert_int_equal(f, SL_FORMAT_TEXTGRID);
    assert_int_equal(sl_label_format_parse("summary", &f), 0);
    assert_int_equal(f, SL_FORMAT_SUMMARY);
    assert_string_equal(sl_label_format_name(SL_FORMAT_SUMMARY), "summary");
}

static void test_audacity(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_AUDACITY);
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 0);
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    assert_false(sl_label_format_is_per_frame(&w));
    int n = sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "0.120000\t1.500000\tspeech\n");
    assert_int_equal(n, (int)strlen(buf));
    w.skip[1] = 1;
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f), 0);
    /* Truncation follows snprintf: the needed length comes back. */
    w.skip[1] = 0;
    char small[8];
    assert_int_equal(sl_label_format_segment(&w, small, sizeof small, 12, 150, 1, 0.5f), 25);
    assert_string_equal(small, "0.12000");
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 3, 0.5f), -1);
}

static void test_frames(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_FRAMES);
    char buf[256];
    sl_label_format_header(&w, buf, sizeof buf);
    assert_string_equal(buf, "frame\ttime\tlabel\tconfidence\tsilence\tspeech\tsay \"hi\"\\\n");
    assert_true(sl_label_format_is_per_frame(&w));
    sl_label_format_frame(&w, buf, sizeof buf, 7, 1, 0.75f, probs);
    assert_string_equal(buf, "7\t0.070000\tspeech\t0.75\t0.125\t0.75\t0.125\n");
    /* Full precision: 0.1f prints as the float it is. */
    const float p2[3] = {0.1f, 0.2f, 0.7f};
    sl_label_format_frame(&w, buf, sizeof buf, 100, 2, 0.7f, p2);
    assert_string_equal(buf, "100\t1.000000\tsay \"hi\"\\\t0.699999988\t0.100000001\t0.200000003\t0.699999988\n");
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 0, 10, 0, 0.5f), 0);
}

static void test_jsonl(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_JSONL);
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 0);
    sl_label_format_frame(&w, buf, sizeof buf, 7, 2, 0.125f, probs);
    assert_string_equal(buf, "{\"frame\":7,\"time\":0.070000,\"label\":\"say \\\"hi\\\"\\\\\","
                             "\"confidence\":0.125,\"probs\":{\"silence\":0.125,\"speech\":0.75,"
                             "\"say \\\"hi\\\"\\\\\":0.125}}\n");
    w.jsonl_segments = 1;
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 7, 2, 0.125f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 0, 0.5f);
    assert_string_equal(buf, "{\"start\":0.120000,\"end\":1.500000,\"label\":\"silence\","
                             "\"confidence\":0.5,\"start_frame\":12,\"end_frame\":150}\n");
    /* JSON has no NaN or Inf (probabilities the decoder takes as 0): null */
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 0, NAN);
    assert_string_equal(buf, "{\"start\":0.120000,\"end\":1.500000,\"label\":\"silence\","
                             "\"confidence\":null,\"start_frame\":12,\"end_frame\":150}\n");
    w.jsonl_segments = 0;
    const float odd[3] = {NAN, INFINITY, 0.25f};
    sl_label_format_frame(&w, buf, sizeof buf, 7, 1, NAN, odd);
    assert_string_equal(buf, "{\"frame\":7,\"time\":0.070000,\"label\":\"speech\","
                             "\"confidence\":null,\"probs\":{\"silence\":null,\"speech\":null,"
                             "\"say \\\"hi\\\"\\\\\":0.25}}\n");
}

/* Moments as sl_parse_utc reads them, against hand-computed epoch times
 * (2026-12-05T10:00:00Z is 1796464800 s after the epoch); what is not one. */
static void test_parse_utc(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int64_t us;
    } ok[] = {{"2026-12-05T10:00:00Z", 1796464800000000LL},
              {"2026-12-05T11:00:00.5+01:00", 1796464800500000LL},
              {"2026-12-05T05:30:00.000001-0430", 1796464800000001LL},
              {"@1796464800.25", 1796464800250000LL},
              {"@-1.5", -1500000},
              {"@0", 0},
              {"1969-12-31T23:59:58.5Z", -1500000}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int64_t us = 0;
        assert_int_equal(sl_parse_utc(ok[i].s, &us), 0);
        assert_int_equal(us, ok[i].us);
    }
    static const char *const bad[] = {"2026-12-05T10:00:00", "2026-02-30T10:00:00Z",
                                      "2026-13-05T10:00:00Z", "2026-12-05T10:00:00Zx",
                                      "2026-12-05 10:00:00Z", "2026-12-05T10:00:00+25:00",
                                      "@", "@1e12", "@x", "now", "",
                                      /* what date(1) refuses too */
                                      "@1e3", "@0x10", "@.5", "@5.", "@+5", "@ 5", "@inf"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t us = 7;
        assert_int_equal(sl_parse_utc(bad[i], &us), -1);
        assert_int_equal(us, 7);
    }
}

/* A UTC origin (2026-12-31T23:59:59Z is 1798761599 s after the epoch): each time
 * also as UTC, across a day, month and year, microseconds kept; before 1970 too. */
static void test_jsonl_utc(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_JSONL);
    w.utc_origin_us = 1798761599LL * 1000000 + 250;
    char buf[512];
    sl_label_format_frame(&w, buf, sizeof buf, 7, 0, 0.125f, probs);
    assert_null(strstr(buf, "utc")); /* an origin not given: no UTC */
    w.has_utc_origin = 1;
    sl_label_format_frame(&w, buf, sizeof buf, 7, 0, 0.125f, probs);
    assert_string_equal(buf, "{\"frame\":7,\"time\":0.070000,\"utc\":\"2026-12-31T23:59:59.070250Z\","
                             "\"label\":\"silence\",\"confidence\":0.125,\"probs\":{\"silence\":0.125,"
                             "\"speech\":0.75,\"say \\\"hi\\\"\\\\\":0.125}}\n");
    w.jsonl_segments = 1;
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "{\"start\":0.120000,\"end\":1.500000,"
                             "\"start_utc\":\"2026-12-31T23:59:59.120250Z\","
                             "\"end_utc\":\"2027-01-01T00:00:00.500250Z\",\"label\":\"speech\","
                             "\"confidence\":0.5,\"start_frame\":12,\"end_frame\":150}\n");
    w.utc_origin_us = -1500000; /* 1969-12-31T23:59:58.5Z */
    sl_label_format_segment(&w, buf, sizeof buf, 0, 100, 1, 0.5f);
    assert_non_null(strstr(buf, "\"start_utc\":\"1969-12-31T23:59:58.500000Z\","
                                "\"end_utc\":\"1969-12-31T23:59:59.500000Z\""));
    w.utc_origin_us = 0; /* the epoch itself is a moment too */
    sl_label_format_segment(&w, buf, sizeof buf, 0, 100, 1, 0.5f);
    assert_non_null(strstr(buf, "\"start_utc\":\"1970-01-01T00:00:00.000000Z\","
                                "\"end_utc\":\"1970-01-01T00:00:01.000000Z\""));
    writer(&w, SL_FORMAT_SUMMARY);
    w.has_utc_origin = 1;
    w.utc_origin_us = 1796464800LL * 1000000; /* 2026-12-05T10:00:00Z */
    const sl_frame_segment seg = {0, 50, 1};
    sl_label_format_summary(&w, buf, sizeof buf, &seg, 1, 50);
    assert_non_null(strstr(buf, "\"duration\":0.500000,\"start_utc\":\"2026-12-05T10:00:00.000000Z\","
                                "\"classes\":{"));
}

static void test_rttm(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_RTTM);
    char buf[256];
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "SPEAKER my_file 1 0.120000 1.380000 <NA> <NA> speech <NA> <NA>\n");
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 0, 1, 2, 0.5f);
    assert_string_equal(buf, "SPEAKER my_file 1 0.000000 0.010000 <NA> <NA> say_\"hi\"\\ <NA> <NA>\n");
}

/* WebVTT: the header, then a cue per segment, milliseconds rounded, markup
 * characters escaped; over an hour the hours count on. */
static void test_webvtt(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_WEBVTT);
    w.class_names[2] = "a<b&c>";
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 8);
    assert_string_equal(buf, "WEBVTT\n\n");
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "00:00:00.120 --> 00:00:01.500\nspeech\n\n");
    sl_label_format_segment(&w, buf, sizeof buf, 366123, 366124, 2, 0.5f);
    assert_string_equal(buf, "01:01:01.230 --> 01:01:01.240\na&lt;b&amp;c&gt;\n\n");
    w.skip[1] = 1;
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f), 0);
}

/* SubRip: no header, cues numbered from 1 in the order written, ',' before the
 * milliseconds; a skipped class's segment takes no number, and a segment
 * formatted again after a buffer too small for it takes one. */
static void test_srt(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_SRT);
    w.class_names[2] = "music";
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 0);
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "1\n00:00:00,120 --> 00:00:01,500\nspeech\n\n");
    w.skip[0] = 1;
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 150, 160, 0, 0.5f), 0);
    int n = sl_label_format_segment(&w, buf, 8, 366123, 366124, 2, 0.5f);
    assert_int_equal(n, (int)strlen("2\n01:01:01,230 --> 01:01:01,240\nmusic\n\n"));
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 366123, 366124, 2, 0.5f), n);
    assert_string_equal(buf, "2\n01:01:01,230 --> 01:01:01,240\nmusic\n\n");
    sl_label_format_segment(&w, buf, sizeof buf, 366124, 366200, 1, 0.5f);
    assert_string_equal(buf, "3\n01:01:01,240 --> 01:01:02,000\nspeech\n\n");
    assert_int_equal(w.segments_written, 3);
}

/* CSV: a header, a row per segment; a field with a comma, a quote, a line
 * break or a blank at an end quoted, its quotes doubled (RFC 4180); with
 * several files in a stream a file column first, the name as it is. */
static void test_csv(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_CSV);
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 27);
    assert_string_equal(buf, "start,end,label,confidence\n");
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "0.120000,1.500000,speech,0.5\n");
    sl_label_format_segment(&w, buf, sizeof buf, 150, 160, 2, 0.25f);
    assert_string_equal(buf, "1.500000,1.600000,\"say \"\"hi\"\"\\\",0.25\n");
    const char *odd[] = {"a,b", "line\nbreak", " pad", "plain-name"};
    const char *want[] = {"\"a,b\"", "\"line\nbreak\"", "\" pad\"", "plain-name"};
    for (int k = 0; k < 4; k++) {
        w.class_names[0] = odd[k];
        sl_label_format_segment(&w, buf, sizeof buf, 0, 1, 0, 1.0f);
        char expect[64];
        snprintf(expect, sizeof expect, "0.000000,0.010000,%s,1\n", want[k]);
        assert_string_equal(buf, expect);
    }
    w.name_lines = 1;
    strcpy(w.file_name, "talk, part 2");
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 32);
    assert_string_equal(buf, "file,start,end,label,confidence\n");
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "\"talk, part 2\",0.120000,1.500000,speech,0.5\n");
    w.skip[1] = 1;
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f), 0);
}

/* A document formatter refuses overlapping segments and unknown classes. */
static void refuses_bad_segments(const sl_label_writer *w,
                                 int (*format)(const sl_label_writer *, char *, size_t,
                                               const sl_frame_segment *, size_t, int64_t))
{
    char buf[1024];
    const sl_frame_segment overlap[] = {{0, 20, 1}, {10, 30, 1}}, bad[] = {{0, 20, 3}};
    assert_int_equal(format(w, buf, sizeof buf, overlap, 2, 30), -1);
    assert_int_equal(format(w, buf, sizeof buf, bad, 1, 30), -1);
}
/* Praat's long text format, as Praat writes it (trailing spaces included); the
 * skipped class and the time no segment covers are empty intervals, merged. */
static void test_textgrid(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_TEXTGRID);
    w.skip[0] = 1;
    char buf[2048];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 0);
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 0, 5, 1, 0.5f), 0);
    const sl_frame_segment segs[] = {{0, 57, 2}, {57, 602, 1}, {602, 650, 0}, {650, 700, 0}};
    const char *want =
        "File type = \"ooTextFile\"\n"
        "Object class = \"TextGrid\"\n"
        "\n"
        "xmin = 0 \n"
        "xmax = 7.500000 \n"
        "tiers? <exists> \n"
        "size = 1 \n"
        "item []: \n"
        "    item [1]:\n"
        "        class = \"IntervalTier\" \n"
        "        name = \"labels\" \n"
        "        xmin = 0 \n"
        "        xmax = 7.500000 \n"
        "        intervals: size = 3 \n"
        "        intervals [1]:\n"
        "            xmin = 0.000000 \n"
        "            xmax = 0.570000 \n"
        "            text = \"say \"\"hi\"\"\\\" \n"
        "        intervals [2]:\n"
        "            xmin = 0.570000 \n"
        "            xmax = 6.020000 \n"
        "            text = \"speech\" \n"
        "        intervals [3]:\n"
        "            xmin = 6.020000 \n"
        "            xmax = 7.500000 \n"
        "            text = \"\" \n";
    int n = sl_label_format_textgrid(&w, buf, sizeof buf, segs, 4, 750);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));
    /* a segment in the middle: empty intervals before and after it, up to the
     * last segment's end when it is later than end_frame */
    const sl_frame_segment mid[] = {{10, 20, 1}};
    n = sl_label_format_textgrid(&w, buf, sizeof buf, mid, 1, 15);
    assert_non_null(strstr(buf, "xmax = 0.200000 \n        intervals: size = 2 \n"
                                "        intervals [1]:\n            xmin = 0.000000 \n"
                                "            xmax = 0.100000 \n            text = \"\" \n"));
    w.skip[0] = 0;
    n = sl_label_format_textgrid(&w, buf, sizeof buf, mid, 1, 30);
    assert_non_null(strstr(buf, "intervals: size = 3 "));
    assert_non_null(strstr(buf, "intervals [3]:\n            xmin = 0.200000 \n"
                                "            xmax = 0.300000 \n            text = \"\" \n"));
    /* several classes skipped: the first three segments' time is one empty
     * interval, speech alone kept */
    const sl_frame_segment three[] = {{0, 57, 2}, {57, 100, 0}, {100, 120, 2}, {120, 150, 1}};
    w.skip[0] = w.skip[2] = 1;
    n = sl_label_format_textgrid(&w, buf, sizeof buf, three, 4, 150);
    assert_non_null(strstr(buf, "intervals: size = 2 \n        intervals [1]:\n"
                                "            xmin = 0.000000 \n            xmax = 1.200000 \n"
                                "            text = \"\" \n        intervals [2]:\n"
                                "            xmin = 1.200000 \n            xmax = 1.500000 \n"
                                "            text = \"speech\" \n"));
    w.skip[0] = w.skip[2] = 0;
    refuses_bad_segments(&w, sl_label_format_textgrid);
    /* truncation follows snprintf */
    char small[16];
    n = sl_label_format_textgrid(&w, small, sizeof small, mid, 1, 30);
    assert_true(n > 16);
    assert_int_equal(strlen(small), 15);
}

/* The summary: each class's time (frames x 10 ms), its share of the stream and
 * its segments, worked out here by hand; a skipped class is not listed; segments
 * are not written one by one. */
static void test_summary(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_SUMMARY);
    char buf[1024];
    assert_true(sl_label_format_is_document(&w));
    assert_false(sl_label_format_is_per_frame(&w));
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 0, 5, 1, 0.5f), 0);
    /* class 0: 48 + 50 frames in 2 segments, class 1: 545 in 1, class 2: 57 in 1;
     * 750 frames: 7.5 s, of which no segment covers the last 50: 0.5 s */
    const sl_frame_segment segs[] = {{0, 57, 2}, {57, 602, 1}, {602, 650, 0}, {650, 700, 0}};
    const char *want = "{\"file\":\"my_file\",\"duration\":7.500000,\"unlabelled\":0.500000,"
                       "\"classes\":{"
                       "\"silence\":{\"seconds\":0.980000,\"share\":0.130667,\"segments\":2},"
                       "\"speech\":{\"seconds\":5.450000,\"share\":0.726667,\"segments\":1},"
                       "\"say \\\"hi\\\"\\\\\":{\"seconds\":0.570000,\"share\":0.076000,\"segments\":1}}}\n";
    int n = sl_label_format_summary(&w, buf, sizeof buf, segs, 4, 750);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));
    w.skip[0] = 1;
    sl_label_format_summary(&w, buf, sizeof buf, segs, 4, 750);
    assert_null(strstr(buf, "silence"));
    assert_non_null(strstr(buf, "{\"speech\":{\"seconds\":5.450000,"));
    /* a class left out is still labelled time; a gap between segments is not */
    assert_non_null(strstr(buf, "\"duration\":7.500000,\"unlabelled\":0.500000,"));
    const sl_frame_segment gap[] = {{0, 100, 1}, {120, 750, 0}};
    sl_label_format_summary(&w, buf, sizeof buf, gap, 2, 750);
    assert_non_null(strstr(buf, "\"duration\":7.500000,\"unlabelled\":0.200000,\"classes\""));
    sl_label_format_summary(&w, buf, sizeof buf, gap, 1, 100);
    assert_non_null(strstr(buf, "\"duration\":1.000000,\"classes\""));
    refuses_bad_segments(&w, sl_label_format_summary); /* as a TextGrid does */
}

/* A stream played from a seek's target (first_frame 500: 5 s): the TextGrid's
 * tier and the summary's span begin there, not at 0, so the summary's shares
 * are of the time labelled (hand-worked: 2.5 s, 1 s of speech = 0.4); a first
 * segment beginning before that frame moves the start back to it. */
static void test_documents_from_a_seek(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_SUMMARY);
    w.first_frame = 500;
    char buf[2048];
    const sl_frame_segment segs[] = {{500, 600, 1}, {600, 750, 0}};
    sl_label_format_summary(&w, buf, sizeof buf, segs, 2, 750);
    assert_string_equal(buf, "{\"file\":\"my_file\",\"start\":5.000000,\"duration\":2.500000,"
                             "\"classes\":{\"silence\":{\"seconds\":1.500000,\"share\":0.600000,"
                             "\"segments\":1},\"speech\":{\"seconds\":1.000000,\"share\":0.400000,"
                             "\"segments\":1},\"say \\\"hi\\\"\\\\\":{\"seconds\":0.000000,"
                             "\"share\":0.000000,\"segments\":0}}}\n");
    const sl_frame_segment early[] = {{490, 750, 1}};
    sl_label_format_summary(&w, buf, sizeof buf, early, 1, 750);
    assert_non_null(strstr(buf, "\"start\":4.900000,\"duration\":2.600000,"));
    assert_non_null(strstr(buf, "\"share\":1.000000"));

    w.format = SL_FORMAT_TEXTGRID;
    sl_label_format_textgrid(&w, buf, sizeof buf, segs, 2, 800);
    assert_non_null(strstr(buf, "\nxmin = 5.000000 \nxmax = 8.000000 \n"));
    assert_non_null(strstr(buf, "        xmin = 5.000000 \n        xmax = 8.000000 \n"
                                "        intervals: size = 3 \n"));
    assert_non_null(strstr(buf, "intervals [1]:\n            xmin = 5.000000 \n"
                                "            xmax = 6.000000 \n            text = \"speech\" \n"));
    assert_non_null(strstr(buf, "intervals [3]:\n            xmin = 7.500000 \n"
                                "            xmax = 8.000000 \n            text = \"\" \n"));
}

/* An application in a comma-decimal locale (de_DE, made here with localedef:
 * setlocale by a GTK program or a GStreamer host) still gets '.' in JSON and
 * label files, and reads back the times written so: the library's text is
 * the C locale's whatever the thread's. */
static void test_any_locale(void **state)
{
    (void)state;
    char dir[512], cmd[1024], path[1024];
    test_tmp_path(dir, sizeof dir, "sl_locale_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(setenv("LOCPATH", dir, 1), 0);
    locale_t de = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
    assert_non_null(de);
    locale_t old = uselocale(de);
    assert_string_equal(localeconv()->decimal_point, ","); /* this thread writes 1,5 */

    sl_label_writer w;
    writer(&w, SL_FORMAT_JSONL);
    w.jsonl_segments = 1;
    char buf[512];
    sl_label_format_segment(&w, buf, sizeof buf, 150, 275, 1, 0.5f);
    assert_non_null(strstr(buf, "{\"start\":1.500000,\"end\":2.750000,"));
    assert_non_null(strstr(buf, "\"confidence\":0.5"));
    w.format = SL_FORMAT_AUDACITY;
    sl_label_format_segment(&w, buf, sizeof buf, 150, 275, 1, 0.5f);
    assert_string_equal(buf, "1.500000\t2.750000\tspeech\n");
    const sl_frame_segment seg = {500, 650, 1};
    w.format = SL_FORMAT_TEXTGRID;
    w.first_frame = 500;
    sl_label_format_textgrid(&w, buf, sizeof buf, &seg, 1, 650);
    assert_non_null(strstr(buf, "xmin = 5.000000 \nxmax = 6.500000 \n"));

    snprintf(path, sizeof path, "%s/l.txt", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("0.5\t1.25\tspeech\n", fp);
    fclose(fp);
    sl_label_segment *segs = NULL;
    int n = 0;
    char err[SL_ERR_LEN];
    assert_int_equal(sl_audacity_read(path, &segs, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_true(segs[0].start == 0.5 && segs[0].end == 1.25);
    sl_label_segments_free(segs, n);
    snprintf(path, sizeof path, "%s/l.TextGrid", dir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\nxmin = 0\nxmax = 1.5\n"
          "tiers? <exists>\nsize = 1\nitem []:\n    item [1]:\n        class = \"IntervalTier\"\n"
          "        name = \"t\"\n        xmin = 0\n        xmax = 1.5\n"
          "        intervals: size = 1\n        intervals [1]:\n            xmin = 0.25\n"
          "            xmax = 1.5\n            text = \"speech\"\n", fp);
    fclose(fp);
    assert_int_equal(sl_textgrid_read(path, NULL, &segs, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_true(segs[0].start == 0.25 && segs[0].end == 1.5);
    sl_label_segments_free(segs, n);
    int64_t us = 0;
    assert_int_equal(sl_parse_utc("@1.5", &us), 0);
    assert_int_equal(us, 1500000);

    uselocale(old);
    freelocale(de);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A small model for sl_label_writer_init: its classes, rate and hop. */
static sl_model *tiny_model(void)
{
    sl_model_config c;
    sl_model_config_default(&c);
    sl_feature_config f;
    sl_feature_config_default(&f);
    f.num_mel_bins = 8;
    c.n_features = 8;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_layers = 1;
    c.d_ff = 32;
    c.n_classes = 2;
    const float mean[8] = {0}, istd[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    const char *names[2] = {"silence", "speech"};
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&c, &f, mean, istd, names, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

/* The summary's "file" is the name as given, whole, in valid JSON; the RTTM id
 * is one field (sl_rttm_field), cut past 255 bytes between characters: a
 * 299-byte name of 99 three-byte characters, and a name with a Latin-1 byte, a
 * 0xff byte, a vertical tab and a character cut short. */
static void test_file_names(void **state)
{
    (void)state;
    sl_model *m = tiny_model();
    /* a name longer than a path may be: cut at 4095 bytes, before the
     * character that does not fit whole */
    char name[4300] = "x ", want[8192], buf[8192];
    for (int i = 0; i < 1400; i++)
        strcat(name, "\xe6\x97\xa5"); /* U+65E5, 3 bytes */
    assert_int_equal(strlen(name), 4202);
    sl_label_writer w;
    sl_label_writer_init(&w, SL_FORMAT_SUMMARY, m, name);
    name[2 + 1364 * 3] = '\0'; /* 4094 bytes: the 1365th character does not fit whole */
    const sl_frame_segment seg = {0, 100, 1};
    sl_label_format_summary(&w, buf, sizeof buf, &seg, 1, 100);
    snprintf(want, sizeof want,
             "{\"file\":\"%s\",\"duration\":1.000000,\"classes\":{"
             "\"silence\":{\"seconds\":0.000000,\"share\":0.000000,\"segments\":0},"
             "\"speech\":{\"seconds\":1.000000,\"share\":1.000000,\"segments\":1}}}\n", name);
    assert_string_equal(buf, want);
    w.format = SL_FORMAT_RTTM;
    sl_label_format_segment(&w, buf, sizeof buf, 0, 100, 1, 0.5f);
    memcpy(name, "x_", 2);
    snprintf(want, sizeof want, "SPEAKER %s 1 0.000000 1.000000 <NA> <NA> speech <NA> <NA>\n", name);
    assert_string_equal(buf, want);

    /* a no-break space (U+00A0) splits fields for Python's str.split too */
    sl_label_writer_init(&w, SL_FORMAT_RTTM, m, "no\xc2\xa0" "break");
    sl_label_format_segment(&w, buf, sizeof buf, 0, 100, 1, 0.5f);
    assert_string_equal(buf, "SPEAKER no_break 1 0.000000 1.000000 <NA> <NA> speech <NA> <NA>\n");
    /* a '"' first would open a quoted field for CSV readers of a column */
    sl_label_writer_init(&w, SL_FORMAT_RTTM, m, "\"q\"");
    sl_label_format_segment(&w, buf, sizeof buf, 0, 100, 1, 0.5f);
    assert_string_equal(buf, "SPEAKER _q\" 1 0.000000 1.000000 <NA> <NA> speech <NA> <NA>\n");
    sl_label_writer_init(&w, SL_FORMAT_SUMMARY, m, "caf\xe9 m\xc3\xbasica\xff\n\v\xe6\x97");
    sl_label_format_summary(&w, buf, sizeof buf, &seg, 1, 100);
    assert_string_equal(buf, "{\"file\":\"caf\\ufffd m\xc3\xbasica\\ufffd\\u000a\\u000b\\ufffd\\ufffd\","
                             "\"duration\":1.000000,\"classes\":{"
                             "\"silence\":{\"seconds\":0.000000,\"share\":0.000000,\"segments\":0},"
                             "\"speech\":{\"seconds\":1.000000,\"share\":1.000000,\"segments\":1}}}\n");
    /* one field of valid UTF-8: whitespace and other bytes as '_' */
    w.format = SL_FORMAT_RTTM;
    sl_label_format_segment(&w, buf, sizeof buf, 0, 100, 1, 0.5f);
    assert_string_equal(buf, "SPEAKER caf__m\xc3\xbasica_____ 1 0.000000 1.000000 "
                             "<NA> <NA> speech <NA> <NA>\n");
    sl_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),   cmocka_unit_test(test_audacity),
        cmocka_unit_test(test_frames),  cmocka_unit_test(test_jsonl),
        cmocka_unit_test(test_jsonl_utc), cmocka_unit_test(test_parse_utc),
        cmocka_unit_test(test_rttm),    cmocka_unit_test(test_textgrid),
        cmocka_unit_test(test_webvtt), cmocka_unit_test(test_srt), cmocka_unit_test(test_csv),  cmocka_unit_test(test_summary),
        cmocka_unit_test(test_documents_from_a_seek),
        cmocka_unit_test(test_any_locale),
        cmocka_unit_test(test_skip_lists),
        cmocka_unit_test(test_no_document),
        cmocka_unit_test(test_file_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
