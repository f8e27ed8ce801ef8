/* The subtitle (WebVTT, SubRip), JSON Lines and CSV label readers against
 * hand-written files: what each cue or line becomes, what is passed over
 * (WebVTT's header, NOTE and STYLE blocks, markup, other JSON members), and
 * what is refused, naming the file and line. Also that a folder's audio finds
 * such a file of its name as its labels, its extension in any case, and that
 * two such files are refused. */
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

#include "seqlabel.h"
#include "trainer_test_util.h"

typedef int (*reader_fn)(const char *, sl_label_segment **, int *, char *, size_t);

typedef struct {
    double start, end;
    const char *name;
    int line;
} want_seg;

/* Reads text (written to dir/name) with read and checks the segments. */
static void read_as(reader_fn read, const char *dir, const char *name, const char *text,
                    const want_seg *want, int n_want)
{
    tt_write_text(tt_path(dir, name), text);
    sl_label_segment *segs = NULL;
    int n = -1;
    char err[SL_ERR_LEN];
    if (read(tt_path(dir, name), &segs, &n, err, sizeof err))
        fail_msg("%s: %s", name, err);
    if (n != n_want)
        fail_msg("%s: %d segments, want %d", name, n, n_want);
    for (int i = 0; i < n; i++)
        if (fabs(segs[i].start - want[i].start) > 1e-9 || fabs(segs[i].end - want[i].end) > 1e-9 ||
            strcmp(segs[i].name, want[i].name) || segs[i].line != want[i].line)
            fail_msg("%s: segment %d is %g-%g '%s' (line %d), want %g-%g '%s' (line %d)", name, i,
                     segs[i].start, segs[i].end, segs[i].name, segs[i].line, want[i].start,
                     want[i].end, want[i].name, want[i].line);
    sl_label_segments_free(segs, n);
}

/* Reads text with read and checks that it is refused with a message holding
 * name and `want`. */
static void refused_as(reader_fn read, const char *dir, const char *name, const char *text,
                       const char *want)
{
    tt_write_text(tt_path(dir, name), text);
    sl_label_segment *segs = NULL;
    int n = 0;
    char err[SL_ERR_LEN];
    if (read(tt_path(dir, name), &segs, &n, err, sizeof err) == 0)
        fail_msg("%s: read, want refused with '%s'", name, want);
    if (!strstr(err, name) || !strstr(err, want))
        fail_msg("%s: '%s' lacks '%s'", name, err, want);
    assert_null(segs);
}

static void webvtt(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "vtt");
    /* as `seqlabel label --format webvtt` writes it */
    const want_seg ours[] = {{0, 0.57, "music", 3}, {0.57, 6.01, "speech", 6}};
    read_as(sl_subtitles_read, dir, "ours.vtt",
            "WEBVTT\n\n00:00:00.000 --> 00:00:00.570\nmusic\n\n00:00:00.570 --> 00:00:06.010\n"
            "speech\n\n",
            ours, 2);
    /* a subtitle editor's: a BOM, header metadata, NOTE and STYLE blocks, cue
     * ids and settings, mm:ss times, markup, references, two text lines, CRLF,
     * a cue without text, and cues out of order */
    const want_seg theirs[] = {{1.5, 2.25, "dog bark", 13},
                               {3, 4, "a&b", 22},
                               {62.125, 3723.004, "speech", 18}};
    read_as(sl_subtitles_read, dir, "theirs.vtt",
            "\xef\xbb\xbfWEBVTT - a title\r\nKind: captions\r\n\r\n"
            "NOTE a note\r\nover two lines\r\n\r\n"
            "STYLE\r\n::cue { color: red }\r\n\r\n"
            "00:00.000 --> 00:01.000\r\n\r\n"
            "cue-1\r\n"
            "00:00:01.500 --> 00:00:02.250 align:start line:0\r\n"
            "<v Bob>dog</v>\r\n bark \r\n\r\n"
            "2\r\n01:02.125 --> 01:02:03.004\r\n<c.loud>speech</c>\r\n\r\n"
            "3\r\n00:03.000 --> 00:04.000\r\na&amp;b\r\n",
            theirs, 3);
    /* a cue right after the header, with no blank line (browsers read it),
     * and one right after another's text, as WebVTT's parser reads them */
    const want_seg tight[] = {{0, 1, "speech", 2}, {1, 2, "music", 4}, {2, 3, "noise", 9}};
    read_as(sl_subtitles_read, dir, "tight.vtt",
            "WEBVTT\n00:00.000 --> 00:01.000\nspeech\n00:01.000 --> 00:02.000\nmusic\n\n"
            "NOTE a note\nof two lines\n00:02.000 --> 00:03.000\nnoise\n", tight, 3);
    refused_as(sl_subtitles_read, dir, "plain.vtt", "00:00.000 --> 00:01.000\nspeech\n",
               ":1: not a WebVTT file (it begins with the line 'WEBVTT')");
    refused_as(sl_subtitles_read, dir, "time.vtt", "WEBVTT\n\n00:00.000 --> 00:61.000\nspeech\n",
               ":3: expected a cue's times, 00:01.500 --> 00:02.000");
    refused_as(sl_subtitles_read, dir, "back.vtt", "WEBVTT\n\n00:02.000 --> 00:01.000\nspeech\n",
               ":3: cue ends (1 s) before it starts (2 s)");
    refused_as(sl_subtitles_read, dir, "over.vtt",
               "WEBVTT\n\n00:00.000 --> 00:02.000\nspeech\n\n00:01.000 --> 00:03.000\nmusic\n",
               ":6: segment 1-3 s overlaps the segment 0-2 s of line 3");
    refused_as(sl_subtitles_read, dir, "long.vtt",
               "WEBVTT\n\n00:00.000 --> 00:02.000\n"
               "a class name far longer than sixty-four bytes of text, which no class name is\n",
               ":3: label 'a class name far longer than sixty-four bytes of text, which no class "
               "name is' is 77 bytes long; a class name holds at most 64 bytes");
    tt_rmtree(dir);
}

static void subrip(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "srt");
    const want_seg want[] = {{0.5, 1.75, "speech", 2}, {1.75, 3600, "music", 6}};
    read_as(sl_subtitles_read, dir, "a.srt",
            "1\n00:00:00,500 --> 00:00:01,750\n<i>speech</i>\n\n"
            "2\n00:00:01,750 --> 01:00:00.000 X1:10 X2:20 Y1:5 Y2:9\n{\\an8}music\n\n\n"
            "3\n00:00:05,000 --> 00:00:06,000\n\n",
            want, 2);
    refused_as(sl_subtitles_read, dir, "b.srt", "1\nspeech from 0 to 1\nspeech\n",
               ":2: expected a cue's times, 00:00:01,500 --> 00:00:02,000");
    /* the blank line between cues left out, or holding a space: the next
     * cue's number is no text */
    const want_seg joined[] = {{0, 1, "speech", 2}, {1, 2, "music", 5}, {2, 3, "noise", 9}};
    read_as(sl_subtitles_read, dir, "c.srt",
            "1\n00:00:00,000 --> 00:00:01,000\nspeech\n2\n00:00:01,000 --> 00:00:02,000\nmusic\n"
            " \r\n3\n00:00:02,000 --> 00:00:03,000\nnoise\n",
            joined, 3);
    /* as editors and ffmpeg write them: no number before the first cue's times;
     * a blank line between a cue's times and its text; a class in angle
     * brackets, which is no SubRip tag; lines ended by CR alone */
    const want_seg quirks[] = {{0, 1, "speech", 1}, {1, 2, "<sil>", 4}, {2, 3, "noise", 8}};
    read_as(sl_subtitles_read, dir, "d.srt",
            "00:00:00,000 --> 00:00:01,000\r<b>speech</b>\r\r00:00:01,000 --> 00:00:02,000\r<sil>"
            "\r\r3\r00:00:02,000 --> 00:00:03,000\r\r<font color=\"red\">noise</font>\r",
            quirks, 3);
    /* a class named as a SubRip tag (ASR's sentence marks), as `seqlabel label
     * --format srt` writes it: a cue whose text is one tag alone is read as
     * written; tags around or beside text, or alone on a line of a cue of
     * several, are an editor's markup */
    const want_seg tags[] = {{0, 1, "<s>", 2},    {1, 2, "speech", 6}, {2, 3, "</s>", 10},
                             {3, 4, "speech", 14}, {4, 5, "noise", 20}, {5, 6, "music", 29}};
    read_as(sl_subtitles_read, dir, "t.srt",
            "1\n00:00:00,000 --> 00:00:01,000\n<s>\n\n2\n00:00:01,000 --> 00:00:02,000\n"
            "<s>speech\n\n3\n00:00:02,000 --> 00:00:03,000\n</s>\n\n"
            "4\n00:00:03,000 --> 00:00:04,000\n<i>\nspeech\n</i>\n\n"
            "5\n00:00:04,000 --> 00:00:05,000\nnoise\n<i></i>\n\n"
            "6\n00:00:05,000 --> 00:00:06,000\n<b></b>\n\n"
            "7\n00:00:05,000 --> 00:00:06,000\n{\\an8}\nmusic\n",
            tags, 6);
    /* ... also when the next cue's number follows without a blank line */
    const want_seg joined_tag[] = {{0, 1, "<s>", 2}, {1, 2, "speech", 5}};
    read_as(sl_subtitles_read, dir, "u.srt",
            "1\n00:00:00,000 --> 00:00:01,000\n<s>\n2\n00:00:01,000 --> 00:00:02,000\nspeech\n",
            joined_tag, 2);
    /* a class named with "-->" (SubRip has no escapes): in a cue's text only a
     * whole timing line starts the next cue */
    const want_seg arrows[] = {{0, 1, "-->", 2}, {1, 2, "a-->b", 6}, {2, 3, "speech", 9}};
    read_as(sl_subtitles_read, dir, "v.srt",
            "1\n00:00:00,000 --> 00:00:01,000\n-->\n\n2\n00:00:01,000 --> 00:00:02,000\na-->b\n"
            "3\n00:00:02,000 --> 00:00:03,000\nspeech\n",
            arrows, 3);
    /* times on the millisecond as strtod reads them from an Audacity file:
     * 1.265 is the double nearest 1.265, so a frame centred there falls alike */
    const want_seg ms[] = {{0, 1.265, "speech", 2}, {1.265, 1.515, "music", 6}};
    read_as(sl_subtitles_read, dir, "e.srt",
            "1\n00:00:00,000 --> 00:00:01,265\nspeech\n\n2\n00:00:01,265 --> 00:00:01,515\nmusic\n",
            ms, 2);
    {
        sl_label_segment *segs;
        int n;
        char err[SL_ERR_LEN];
        tt_write_text(tt_path(dir, "e.srt"), "1\n00:00:00,000 --> 00:00:01,265\nspeech\n");
        assert_int_equal(sl_subtitles_read(tt_path(dir, "e.srt"), &segs, &n, err, sizeof err), 0);
        assert_true(segs[0].end == strtod("1.265", NULL));
        sl_label_segments_free(segs, n);
    }
    /* text that no cue's times precede would be lost */
    refused_as(sl_subtitles_read, dir, "f.srt",
               "1\n00:00:00,000 --> 00:00:01,000\nspeech\n\nmusic\n",
               ":5: expected a cue's times, 00:00:01,500 --> 00:00:02,000");
    /* Notepad's "Unicode": UTF-16 */
    FILE *fp = fopen(tt_path(dir, "g.srt"), "wb");
    assert_non_null(fp);
    fwrite("\xff\xfe" "1\0\n\0", 1, 6, fp);
    fclose(fp);
    sl_label_segment *segs = NULL;
    int n = 0;
    char err[SL_ERR_LEN];
    assert_int_not_equal(sl_subtitles_read(tt_path(dir, "g.srt"), &segs, &n, err, sizeof err), 0);
    if (!strstr(err, "g.srt: UTF-16 text: save it as UTF-8"))
        fail_msg("%s", err);
    tt_rmtree(dir);
}

static void json_lines(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "jsonl");
    /* as `seqlabel label --format jsonl --segments` writes them, UTC times
     * and other members passed over; integers are times too */
    const want_seg want[] = {{0, 0.12, "silence", 1}, {0.12, 1.5, "speech", 3}};
    read_as(sl_jsonl_read, dir, "a.jsonl",
            "{\"start\":0.000000,\"end\":0.120000,\"label\":\"silence\",\"confidence\":0.5,"
            "\"start_frame\":0,\"end_frame\":12}\n\n"
            "{\"start\":0.12,\"end\":1.5,\"start_utc\":\"2026-12-05T10:00:00.120000Z\","
            "\"label\":\"speech\"}\n",
            want, 2);
    const want_seg ints[] = {{1, 2, "noise", 1}};
    read_as(sl_jsonl_read, dir, "b.jsonl", "{\"label\":\"noise\",\"end\":2,\"start\":1}", ints, 1);
    /* a segment's label left empty labels nothing, as in every reader; a
     * frame's may not be empty */
    const want_seg ints2[] = {{1, 2, "noise", 2}};
    read_as(sl_jsonl_read, dir, "b2.jsonl",
            "{\"start\":0,\"end\":1,\"label\":\"\"}\n{\"label\":\"noise\",\"end\":2,\"start\":1}",
            ints2, 1);
    refused_as(sl_jsonl_read, dir, "c.jsonl",
               "{\"frame\":0,\"time\":0.000000,\"label\":\"music\",\"probs\":{\"music\":1}}\n",
               ":1: a frame, not a segment");
    refused_as(sl_jsonl_read, dir, "d.jsonl",
               "{\"start\":0,\"end\":1,\"label\":\"a\"}\n{\"start\":1,\"end\":2,\"label\":\"b\"\n",
               ":2: not JSON: ");
    refused_as(sl_jsonl_read, dir, "joined.jsonl",
               "{\"start\":0,\"end\":1,\"label\":\"a\"}{\"start\":1,\"end\":2,\"label\":\"b\"}\n",
               ":1: more after the object (one JSON object a line)");
    refused_as(sl_jsonl_read, dir, "nul.jsonl",
               "{\"start\":0,\"end\":1,\"label\":\"a\\u0000b\"}\n",
               ":1: a NUL character (\\u0000) in a string");
    /* braces and escapes inside strings are text */
    const want_seg odd[] = {{0, 1, "a}{\"\\", 1}};
    read_as(sl_jsonl_read, dir, "odd.jsonl",
            "{\"start\":0,\"end\":1,\"label\":\"a}{\\\"\\\\\"}  \n", odd, 1);
    refused_as(sl_jsonl_read, dir, "e.jsonl", "[0, 1, \"speech\"]\n", ":1: not a JSON object");
    refused_as(sl_jsonl_read, dir, "f.jsonl", "{\"start\":0,\"end\":1,\"label\":7}\n",
               ":1: no \"label\" string");
    refused_as(sl_jsonl_read, dir, "g.jsonl", "{\"start\":0,\"stop\":1,\"label\":\"a\"}\n",
               ":1: expected a segment");
    refused_as(sl_jsonl_read, dir, "h.jsonl", "{\"start\":2,\"end\":1,\"label\":\"a\"}\n",
               ":1: segment ends (1 s) before it starts (2 s)");
    refused_as(sl_jsonl_read, dir, "h2.jsonl", "{\"start\":2.500001,\"end\":2.5,\"label\":\"a\"}\n",
               ":1: segment ends (2.5 s) before it starts (2.500001 s)");
    refused_as(sl_jsonl_read, dir, "i.jsonl",
               "{\"start\":0,\"end\":2,\"label\":\"a\"}\n{\"start\":1,\"end\":3,\"label\":\"b\"}\n",
               ":2: segment 1-3 s overlaps the segment 0-2 s of line 1");
    /* times as they were written (Audacity's six decimals): a segment of a
     * microsecond is not said as a point label */
    refused_as(sl_jsonl_read, dir, "j.jsonl",
               "{\"start\":2,\"end\":3,\"label\":\"a\"}\n"
               "{\"start\":2.5,\"end\":2.500001,\"label\":\"b\"}\n",
               ":2: segment 2.5-2.500001 s overlaps the segment 2-3 s of line 1");
    /* a stream's "file" member: one input's lines are its labels; lines of
     * two (seqlabel label a.wav b.wav --format jsonl) are refused as such,
     * not as b's segment overlapping a's */
    const want_seg one[] = {{0, 1, "a", 1}, {1, 2, "b", 2}};
    read_as(sl_jsonl_read, dir, "one.jsonl",
            "{\"file\":\"x\",\"start\":0,\"end\":1,\"label\":\"a\"}\n"
            "{\"file\":\"x\",\"start\":1,\"end\":2,\"label\":\"b\"}\n", one, 2);
    refused_as(sl_jsonl_read, dir, "two.jsonl",
               "{\"file\":\"x\",\"start\":0,\"end\":1,\"label\":\"a\"}\n"
               "{\"file\":\"y\",\"start\":0,\"end\":1,\"label\":\"a\"}\n",
               ":2: lines of two files ('x', 'y')");
    tt_rmtree(dir);
}

/* CSV: as `seqlabel label --format csv` writes it, and as a spreadsheet saves
 * one (columns in another order and case, CRLF, quoted fields holding commas,
 * quotes and a line break, blank lines, a file column of one name; Excel's
 * "CSV (Macintosh)", rows ended by CR and a cell's line break LF, which was
 * read as a header alone; a locale's semicolons and decimal commas); refused:
 * a header without the columns, rows of another width, two files' rows, an
 * unclosed quote, bad times and overlaps, naming the file and line. */
static void csv_tables(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "csv");
    const want_seg ours[] = {{0, 0.63, "music", 2}, {0.63, 6.02, "speech", 3}};
    read_as(sl_csv_read, dir, "ours.csv",
            "start,end,label,confidence\n0.000000,0.630000,music,0.985454261\n"
            "0.630000,6.020000,speech,0.94742918\n", ours, 2);
    const want_seg theirs[] = {{0.5, 1, "dog, barking", 2}, {1, 2, "say \"hi\"", 4},
                               {2, 3, "two\nlines", 6}};
    read_as(sl_csv_read, dir, "theirs.csv",
            "File,Label,END,Start\r\ntalk,\"dog, barking\",1,0.5\r\n\r\n"
            "talk,\"say \"\"hi\"\"\",2,1\r\n,,,\r\ntalk,\"two\nlines\",3,2", theirs, 3);
    const want_seg mac[] = {{0, 1.23, "silence", 2}, {1.23, 5.005, "speech", 4}};
    read_as(sl_csv_read, dir, "mac.csv",
            "start,end,label,note\r0,1.23,silence,\"first\nnote\"\r1.23,5.005,speech,\r", mac, 2);
    refused_as(sl_csv_read, dir, "mac2.csv", "start,end,label\r0,1,\"a\nb\"\r1,x,b\r",
               ":4: bad time 'x'");
    const want_seg semi[] = {{0, 1.23, "a; b", 2}, {1.23, 5.005, "speech", 3}};
    read_as(sl_csv_read, dir, "semi.csv",
            "\xef\xbb\xbfstart;end;label\r\n0;1,23;\"a; b\"\r\n1,23;5,005;speech\r\n", semi, 2);
    /* a column named with a comma, unquoted as such a spreadsheet writes it,
     * or quoted; a thousands separator refused as written */
    const want_seg semi2[] = {{0.5, 1.25, "speech", 2}};
    read_as(sl_csv_read, dir, "semi2.csv", "start;end;label;note, free\n0,5;1,25;speech;x\n",
            semi2, 1);
    read_as(sl_csv_read, dir, "semi3.csv", "start;end;label;\"note, free\"\n0,5;1,25;speech;x\n",
            semi2, 1);
    refused_as(sl_csv_read, dir, "semi4.csv", "start;end;label\n0;1.234,5;speech\n",
               ":2: bad time '1.234,5'");
    /* the separator found past a blank row (";;;"), and a quote inside a
     * field, which opens no quoted field (only one at its start does) */
    const want_seg semi5[] = {{0.5, 1.5, "speech", 3}};
    read_as(sl_csv_read, dir, "semi5.csv", ";;;\nstart;end;label\n0,5;1,5;speech\n", semi5, 1);
    read_as(sl_csv_read, dir, "semi7.csv", "\"\";\"\";\"\"\nstart;end;label\n0,5;1,5;speech\n", semi5,
            1);
    const want_seg semi6[] = {{0.5, 1.5, "speech", 2}};
    read_as(sl_csv_read, dir, "semi6.csv", "size\"in;start;end;label\n3;0,5;1,5;speech\n", semi6,
            1);
    refused_as(sl_csv_read, dir, "a.csv", "begin,end,label\n0,1,a\n",
               ":1: the header names no start column");
    refused_as(sl_csv_read, dir, "a2.csv", "start,end,Label,label\n0,1,a,b\n",
               ":1: two 'label' columns");
    refused_as(sl_csv_read, dir, "b.csv", "start,end,label\n0,1,a,0.5\n",
               ":2: 4 fields, the header has 3");
    refused_as(sl_csv_read, dir, "c.csv", "file,start,end,label\nx,0,1,a\ny,1,2,a\n",
               ":3: rows of two files ('x', 'y')");
    refused_as(sl_csv_read, dir, "d.csv", "start,end,label\n0,1,\"a\n", ":2: a quoted field that never ends");
    refused_as(sl_csv_read, dir, "e.csv", "start,end,label\n0,x,a\n", ":2: bad time 'x'");
    refused_as(sl_csv_read, dir, "f.csv", "start,end,label\n0,2,a\n\"1\",\"3\",b\n",
               ":3: segment 1-3 s overlaps the segment 0-2 s of line 2");
    refused_as(sl_csv_read, dir, "g.csv", "", ": empty: a CSV label file begins with its header");
    tt_rmtree(dir);
}

static int rttm_of_a(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    return sl_rttm_read(path, "a", NULL, segs, n, err, errlen);
}

/* Lines ended by CR alone (classic Mac OS) are lines to every label reader,
 * not one line whose first turn or label alone is read. */
static void cr_only_lines(void **state)
{
    (void)state;
    char dir[512];
    tt_mkdtemp(dir, sizeof dir, "cr");
    const want_seg want[] = {{0, 1, "x", 1}, {1, 2, "y", 2}, {2, 3, "z", 3}};
    read_as(rttm_of_a, dir, "a.rttm",
            "SPEAKER a 1 0 1 <NA> <NA> x <NA> <NA>\rSPEAKER a 1 1 1 <NA> <NA> y <NA> <NA>\r"
            "SPEAKER a 1 2 1 <NA> <NA> z <NA> <NA>\r", want, 3);
    read_as(sl_audacity_read, dir, "a.txt", "0\t1\tx\r1\t2\ty\r2\t3\tz\r", want, 3);
    /* several inputs' lines on one stream (NAME first): said as such, not as
     * a bad time; a word where a time belongs is still a bad time */
    refused_as(sl_audacity_read, dir, "stream.txt", "talk\t0\t1\tspeech\ntalk\t1\t2\tmusic\n",
               ":1: a line of several inputs' labels (NAME<TAB>start<TAB>end<TAB>label");
    refused_as(sl_audacity_read, dir, "digits.txt", "001\t0.000000\t0.800000\tsilence\n",
               ":1: a line of several inputs' labels (NAME<TAB>start<TAB>end<TAB>label");
    refused_as(sl_audacity_read, dir, "word.txt", "x\t1\t2\n", ":1: bad time 'x'");
    /* seqlabel label --format frames' table, named as labels: said as such */
    refused_as(sl_audacity_read, dir, "frames.tsv",
               "frame\ttime\tlabel\tconfidence\tsilence\tspeech\n"
               "0\t0.000000\tsilence\t0.9\t0.9\t0.1\n",
               "frames.tsv: a frames table (seqlabel label --format frames), not labels");
    refused_as(sl_audacity_read, dir, "tab.txt", "0\t1\t2\t\n",
               ":1: label '2\\x09' holds a tab, which no class name may");
    /* a label left empty (Audacity writes its times and a tab) labels nothing,
     * its times still checked; so does a CSV row's empty label */
    const want_seg around[] = {{0, 1, "x", 1}, {2, 3, "z", 3}};
    read_as(sl_audacity_read, dir, "empty.txt", "0\t1\tx\n1\t2\t\n2\t3\tz\n", around, 2);
    refused_as(sl_audacity_read, dir, "empty2.txt", "0\t1\tx\n1\tq\t\n", ":2: bad time 'q'");
    const want_seg around_csv[] = {{0, 1, "x", 2}, {2, 3, "z", 4}};
    read_as(sl_csv_read, dir, "empty.csv", "start,end,label\n0,1,x\n1,2,\n2,3,z\n", around_csv, 2);
    /* a FIFO or a pipe is refused, not waited on (its open would wait for a
     * writer) nor read twice (the second read of a pipe gives nothing) */
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s/late.txt", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    sl_label_segment *segs = NULL;
    int n = 0, fds[2];
    char err[SL_ERR_LEN], pipe_path[64];
    assert_int_equal(sl_audacity_read(fifo, &segs, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "late.txt: cannot read: a FIFO, pipe or socket, not a file"));
    assert_int_equal(pipe(fds), 0);
    snprintf(pipe_path, sizeof pipe_path, "/dev/fd/%d", fds[0]);
    assert_int_equal(sl_audacity_read(pipe_path, &segs, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot read: a FIFO, pipe or socket, not a file"));
    close(fds[0]);
    close(fds[1]);
    tt_rmtree(dir);
}

/* An RTTM turn's end is the decimal start + duration add up to, as the same
 * end written out reads: 0.085 + 0.070 is 0.155, not 0.15500000000000003,
 * which would take in the frame centred on 0.155 s. Other forms are summed. */
static void rttm_turn_ends_exact(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    tt_mkdtemp(dir, sizeof dir, "rttm-end");
    tt_write_text(tt_path(dir, "a.rttm"),
                  "SPEAKER a 1 0.085 0.070 <NA> <NA> x <NA> <NA>\n"
                  "SPEAKER a 1 1.235 0.5 <NA> <NA> y <NA> <NA>\n"
                  "SPEAKER a 1 2 1e-1 <NA> <NA> z <NA> <NA>\n");
    sl_label_segment *segs = NULL;
    int n = 0;
    if (sl_rttm_read(tt_path(dir, "a.rttm"), "a", NULL, &segs, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 3);
    assert_true(segs[0].end == strtod("0.155", NULL));
    assert_true(segs[1].end == strtod("1.735", NULL));
    assert_true(segs[2].end == 2.0 + 0.1);
    sl_label_segments_free(segs, n);
    tt_rmtree(dir);
}

/* A folder's audio is labelled by a .vtt, .srt or .jsonl of its name, read
 * by the reader of its kind. */
static void folder_finds_them(void **state)
{
    (void)state;
    char dir[512], err[SL_ERR_LEN];
    tt_mkdtemp(dir, sizeof dir, "found");
    const char *kinds[][2] = {{"a.vtt", "WEBVTT\n\n00:00.000 --> 00:00.500\nspeech\n"},
                              {"b.srt", "1\n00:00:00,000 --> 00:00:00,500\nspeech\n"},
                              {"c.jsonl", "{\"start\":0,\"end\":0.5,\"label\":\"speech\"}\n"},
                              {"d.csv", "start,end,label\n0,0.5,speech\n"}};
    for (int k = 0; k < 4; k++) {
        char audio[8];
        snprintf(audio, sizeof audio, "%c.wav", 'a' + k);
        tt_write_text(tt_path(dir, audio), "not read here");
        tt_write_text(tt_path(dir, kinds[k][0]), kinds[k][1]);
    }
    sl_manifest man;
    if (sl_manifest_load(dir, &man, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(man.n, 4);
    for (int k = 0; k < 4; k++) {
        assert_string_equal(man.entries[k].labels, tt_path(dir, kinds[k][0]));
        sl_label_segment *segs = NULL;
        int n = 0;
        if (sl_manifest_entry_segments(&man.entries[k], &segs, &n, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(n, 1);
        assert_true(segs[0].start == 0.0 && segs[0].end == 0.5);
        assert_string_equal(segs[0].name, "speech");
        sl_label_segments_free(segs, n);
    }
    sl_manifest_free(&man);
    /* a link named as audio that leads nowhere is an entry, refused here for
     * want of labels, named: not a file left out unsaid */
    assert_int_equal(symlink("nowhere.wav", tt_path(dir, "z.wav")), 0);
    assert_int_not_equal(sl_manifest_load(dir, &man, err, sizeof err), 0);
    if (!strstr(err, "z.wav: no labels"))
        fail_msg("%s", err);
    remove(tt_path(dir, "z.wav"));
    /* an extension in capitals is found too (as on a manifest line), and
     * capitalised, as some file managers and Windows tools write it */
    const char *const names[] = {"b.srt", "b.SRT", "b.Srt"};
    for (int k = 1; k < 3; k++) {
        char from[600];
        snprintf(from, sizeof from, "%s", tt_path(dir, names[k - 1]));
        assert_int_equal(rename(from, tt_path(dir, names[k])), 0);
        if (sl_manifest_load(dir, &man, err, sizeof err))
            fail_msg("%s", err);
        assert_string_equal(man.entries[1].labels, tt_path(dir, names[k]));
        sl_manifest_free(&man);
    }
    /* two label files of one name: which one is meant is asked, not guessed
     * (the labels written by seqlabel label -o DIR/, and the corrected ones) */
    tt_write_text(tt_path(dir, "a.txt"), "0\t0.5\tspeech\n");
    assert_int_not_equal(sl_manifest_load(dir, &man, err, sizeof err), 0);
    if (!strstr(err, "a.wav: two label files of its name,") || !strstr(err, "a.txt and ") ||
        !strstr(err, "a.vtt: keep the one meant"))
        fail_msg("%s", err);
    tt_rmtree(dir);
    /* a label file whose name differs from its audio's only in case (made on
     * Windows) or Unicode form (macOS writes é as e + U+0301) is asked about,
     * not passed over for the folder's class (the audio trained as all
     * speech); files of other names beside them are not */
    const char *const pairs[][2] = {{"speech/Take1.wav", "speech/take1.txt"},
                                    {"speech/caf\xc3\xa9.wav", "speech/cafe\xcc\x81.TXT"}};
    for (int k = 0; k < 2; k++) {
        tt_mkdtemp(dir, sizeof dir, "near");
        assert_int_equal(mkdir(tt_path(dir, "speech"), 0755), 0);
        tt_write_text(tt_path(dir, "speech/other.wav"), "not read here");
        tt_write_text(tt_path(dir, "speech/notes.txt"), "0\t0.5\tspeech\n");
        tt_write_text(tt_path(dir, pairs[k][0]), "not read here");
        tt_write_text(tt_path(dir, pairs[k][1]), "0\t0.5\tmusic\n");
        assert_int_not_equal(sl_manifest_load(dir, &man, err, sizeof err), 0);
        if (!strstr(err, pairs[k][0]) || !strstr(err, pairs[k][1]) ||
            !strstr(err, "differs from it only in letter case or Unicode form"))
            fail_msg("%s", err);
        remove(tt_path(dir, pairs[k][1]));
        if (sl_manifest_load(dir, &man, err, sizeof err)) /* the folder's class, as before */
            fail_msg("%s", err);
        assert_int_equal(man.n, 2);
        assert_string_equal(man.entries[0].labels, "=speech");
        sl_manifest_free(&man);
        tt_rmtree(dir);
    }
    /* no label file of that name, only a link to nothing or a folder so named;
     * and take1.txt of take1.wav beside Take1.wav, which is take1.wav's: none
     * is Take1.wav's, which goes to its folder's class (review) */
    for (int k = 0; k < 3; k++) {
        tt_mkdtemp(dir, sizeof dir, "near");
        assert_int_equal(mkdir(tt_path(dir, "speech"), 0755), 0);
        tt_write_text(tt_path(dir, "speech/Take1.wav"), "not read here");
        if (k == 0)
            assert_int_equal(symlink("nowhere.txt", tt_path(dir, "speech/take1.txt")), 0);
        else if (k == 1)
            assert_int_equal(mkdir(tt_path(dir, "speech/take1.txt"), 0755), 0);
        else {
            tt_write_text(tt_path(dir, "speech/take1.wav"), "not read here");
            tt_write_text(tt_path(dir, "speech/take1.txt"), "0\t0.5\tmusic\n");
        }
        if (sl_manifest_load(dir, &man, err, sizeof err))
            fail_msg("%d: %s", k, err);
        assert_int_equal(man.n, k == 2 ? 2 : 1);
        for (int i = 0; i < man.n; i++)
            assert_string_equal(man.entries[i].labels,
                                strstr(man.entries[i].audio, "Take1") ? "=speech"
                                : tt_path(dir, "speech/take1.txt"));
        sl_manifest_free(&man);
        tt_rmtree(dir);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(webvtt),
        cmocka_unit_test(subrip),
        cmocka_unit_test(json_lines),
        cmocka_unit_test(csv_tables),
        cmocka_unit_test(folder_finds_them),
        cmocka_unit_test(cr_only_lines),
        cmocka_unit_test(rttm_turn_ends_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
