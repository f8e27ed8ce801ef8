/* What the trainer's label file readers share (model/manifest.c: Audacity
 * tracks; model/textgrid.c; model/rttm.c; model/subtitles.c; model/jsonl.c). Internal to libseqlabel. */
#ifndef SL_MODEL_LABEL_FILES_H
#define SL_MODEL_LABEL_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "seqlabel.h"

/* The whole file, NUL-terminated (it may hold NULs of its own: *len says how
 * long it is). NULL with a message naming the file; also for anything but a
 * regular file (a folder, a device, a FIFO or a pipe: manifests and label
 * files are read more than once). */
char *sl_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* sl_read_file for a text file: NUL bytes refused (UTF-16 named as such), a
 * UTF-8 byte order mark (a Windows editor's) dropped, which would otherwise be
 * the first path's or the first time's bytes, and lines ended by CR alone
 * made lines. */
char *sl_read_text(const char *path, size_t *len, char *err, size_t errlen);
/* Splits the next line off *p in place (strips "\r\n"); NULL at the end. */
char *sl_next_line(char **p);
/* Splits the next tab-separated field off *p in place (*p NULL after the
 * last); NULL when *p is. */
char *sl_next_field(char **p);
/* A label's name as it is kept: in NFC (sl_text_nfc), so that macOS's NFD and
 * Linux's NFC are one name, its bytes too, where that fits a class name's
 * SL_MAX_CLASS_NAME bytes; else as written (NFC makes a few characters
 * longer: U+0958, Hebrew's presentation forms). malloc'ed; NULL: out of memory. */
char *sl_label_name_kept(const char *name);
/* A list of names, "a,b,c", each as it is kept (--classes). malloc'ed. */
char *sl_label_list_kept(const char *list);
/* Whether name can be a label file's class name: 1..SL_MAX_CLASS_NAME bytes
 * as it is kept (sl_label_name_kept), without a tab (the separator of
 * Audacity's and the TSV files). 0 when it
 * can; else -1 and "PATH:LINE: label 'NAME' is N bytes, ..." or "... holds a
 * tab, ...", the name as an error shows file text (sl_text_shown). */
int sl_label_name_unfit(const char *path, int line, const char *name, char *err, size_t errlen);
/* A strict time in seconds: a finite number >= 0 and the whole string. 0 or -1. */
/* "PATH:LINE: bad time 'TEXT' (seconds >= 0 expected)", TEXT as an error shows
 * file text (sl_text_shown): -1. */
int sl_fail_bad_time(char *err, size_t errlen, const char *path, int line, const char *text);
/* An entry and a key that names something of it (a file id, the hypothesis
 * found for it), sorted by key then by the entry's place in the set: entries
 * of one key side by side, to find two of different audio that would share. */
typedef struct {
    char *key;
    const sl_manifest_entry *e;
} sl_keyed_entry;
int sl_keyed_entry_cmp(const void *a, const void *b);
int sl_parse_seconds(const char *s, double *out);
/* A segment of a text label file's line: times start and end (strings, as
 * sl_parse_seconds takes them) and the label name, checked (times >= 0, end not
 * before start, a name that fits, or none) and appended as sl_segments_push does
 * (which takes no segment of no name). 0, or
 * -1 with a message naming path and line. */
int sl_segment_from_text(const char *path, int line, const char *start, const char *end,
                         const char *name, sl_label_segment **segs, int *n, int *cap,
                         char *err, size_t errlen);
/* Appends a segment (the name copied as it is kept: sl_label_name_kept) to *segs of *n,
 * growing *cap; one of no name (a label left empty) labels nothing and is not
 * appended. -1: out of memory (nothing appended). */
int sl_segments_push(sl_label_segment **segs, int *n, int *cap, double start, double end,
                     const char *name, int line);
/* Where path's extension starts (the last '.' of its last part, not a leading
 * one), or its end when it has none. */
const char *sl_path_extension_at(const char *path);
/* An audio file's RTTM file id, the id of its lines in an RTTM file: its name
 * without folder and extension, as sl_label_writer_init makes it one field
 * (sl_rttm_field; malloc'ed; NULL: out of memory). Files of one name in two
 * folders have one id. */
char *sl_rttm_file_id(const char *audio);
/* The length of the file's path in a label path, and in *selector what follows
 * its '#' (NULL: none): x.TextGrid#TIER and x.rttm#CLASS name x.TextGrid and
 * x.rttm and a tier or a class; any other '#' is the file name's own
 * (take#1.TextGrid, run#2.txt). */
size_t sl_label_path_split(const char *labels, const char **selector);
/* 1 when a label path names an RTTM file (x.rttm, X.RTTM#CLASS: its lines an
 * entry's by file id). */
int sl_is_rttm_path(const char *labels);
/* 1 when name ends in an extension sl_label_file_of looks for (any case:
 * x.TXT too), the frames table's .tsv included. */
int sl_label_name_known(const char *name);
/* The label file of a name: prefix + the n bytes of stem + .txt, .TextGrid,
 * .rttm, .vtt, .srt, .jsonl or .csv (and with frames_table .tsv: a frames table of
 * `seqlabel label --format frames`), the extension as listed, in lower case, in
 * upper case or capitalised (.Srt), that
 * is a regular file (malloc'ed), or NULL when none is (*out_of_memory then
 * says whether memory ran out). When a second file is one too, *other is it
 * (malloc'ed; else NULL): which one is meant is the caller's to ask. */
char *sl_label_file_of(const char *prefix, const char *stem, size_t n, int frames_table,
                       int *out_of_memory, char **other);
/* Label files whose names differ from their audio's only in letter case or
 * Unicode normal form (model/label_near.c), which Windows and macOS match and
 * a folder manifest here would not. sl_label_near_of: the label file beside
 * `audio` (a path; its stem the first stem_len bytes) whose stem is the
 * audio's, NFC and case folded (g_free'd; NULL: none). Each folder is read
 * once. */
typedef struct sl_label_near sl_label_near;
sl_label_near *sl_label_near_new(void);
void sl_label_near_free(sl_label_near *n);
char *sl_label_near_of(sl_label_near *n, const char *audio, size_t stem_len);
/* The length of the folder a manifest's paths are relative to, as a prefix of
 * manifest_path (the manifest itself when it is a folder, else the manifest
 * file's folder; 0: the current one). */
size_t sl_manifest_root_len(const char *manifest_path);
/* A manifest entry's audio is a regular file that can be read: 0, or -1 saying
 * why not (missing, unreadable, a folder, a device, a FIFO: whose open would
 * wait for a writer), naming the file. */
int sl_audio_entry_check(const char *audio, char *err, size_t errlen);
/* The part of path below that folder (root_len from sl_manifest_root_len), or
 * path itself when it lies elsewhere: what names an entry however the manifest
 * was named (data/set.tsv or /home/u/data/set.tsv). */
const char *sl_manifest_below_root(const char *manifest_path, size_t root_len, const char *path);
/* path (n bytes) with "." and empty components dropped and ".." taking the
 * one before it (a relative path keeps those it cannot take: "../b/y.wav"),
 * resolved on the text; malloc'ed, NULL when out of memory. */
char *sl_normal_path(const char *path, size_t n);
/* Each entry's audio as a path from the manifest's folder, one key however
 * the folder and the lines are spelt (what --valid-share hashes): a relative
 * line's text with '.',
 * '..' and '//' resolved; an absolute line below the folder the rest of it,
 * the folder found among its ancestors by device and inode; elsewhere the path
 * from the folder's real path. n = m->n strings (malloc'ed), NULL when out of
 * memory; free with sl_manifest_entry_keys_free. */
char **sl_manifest_entry_keys(const sl_manifest *m);
void sl_manifest_entry_keys_free(char **keys, int n);
/* sl_rttm_read and sl_manifest_entry_segments, but with by_id an RTTM file's lines
 * are file_id's by their id alone: one RTTM file for a set of several files (`seqlabel
 * eval --hyp x.rttm`), where a file it never names has no segments (a VAD's leaves
 * out the files where it found nothing) and lines under another id are never its. */
int sl_rttm_read_ex(const char *path, const char *file_id, const char *as_class, int by_id,
                    sl_label_segment **segs, int *n, char *err, size_t errlen);
int sl_manifest_entry_segments_ex(const sl_manifest_entry *e, int by_id,
                                  sl_label_segment **segs, int *n, char *err, size_t errlen);
/* The end of a reader: with rc 0, the segments s[cnt] sorted by start and
 * checked for overlap (point labels, start == end, may sit anywhere) into
 * *segs and *n; else, or on an overlap (naming both lines of path), s freed
 * and -1. */
int sl_segments_finish(const char *path, sl_label_segment *s, int cnt, int rc,
                       sl_label_segment **segs, int *n, char *err, size_t errlen);
/* Without several: the first row's file value (*first, malloc'ed; the caller
 * frees it) must be every row's, a label file being one input's (a stream of
 * several inputs' rows would give the second input's segments an overlap and
 * its frames a wrong index). 0, or -1 naming path, line and both values. */
int sl_one_input(const char *file, char **first, const char *path, int line, const char *format,
                 char *err, size_t errlen);
/* The segments a reader has taken from path so far (grown by
 * sl_segment_from_text or sl_segments_push, ended by sl_segments_finish). */
typedef struct {
    const char *path;
    sl_label_segment *s;
    int cnt, cap;
} sl_segment_list;
/* A row of a CSV label file: its line, its file column's value (NULL: the
 * table has none) and its start, end and label fields as text. */
typedef struct {
    int line;
    const char *file, *start, *end, *label;
} sl_csv_row;
typedef int (*sl_csv_row_fn)(void *user, const sl_csv_row *row, char *err, size_t errlen);
/* fn on each row of the CSV label file at path, in order, until it returns
 * non-zero (sl_csv_read's reading). several 0: rows of two file values are
 * refused (sl_one_input); 1: a stream of several inputs' rows (`seqlabel eval
 * --hyp`). *file_column (may be NULL): whether the header names one. 0, or -1
 * naming the file and line. */
int sl_csv_each(const char *path, int several, int *file_column, sl_csv_row_fn fn, void *user,
                char *err, size_t errlen);
/* One CSV or JSON Lines label file of several inputs' segments, each row
 * naming its input (model/hyp_stream.c). sl_hyp_stream_read reads it once:
 * *out NULL when no row names an input and no CSV header names a file column,
 * or when its rows are frames of one name (one input's file, then); -1 naming
 * the file and line for a file that does not read, a row without a name among
 * named ones, or frames of several names (a stream is read for segments). */
typedef struct sl_hyp_stream sl_hyp_stream;
int sl_hyp_stream_read(const char *path, sl_hyp_stream **out, char *err, size_t errlen);
void sl_hyp_stream_free(sl_hyp_stream *s);
/* name (a path without extension) as the stream's names are compared:
 * '//', '/./' and 'x/..' taken out, and for a JSON Lines file a byte that is
 * not UTF-8 as a JSON writer gives it (U+FFFD); malloc'ed, NULL: out of
 * memory. */
char *sl_hyp_stream_key(const sl_hyp_stream *s, const char *name);
/* How many names its rows give. */
int sl_hyp_stream_names(const sl_hyp_stream *s);
/* Part `part`'s name (0 .. sl_hyp_stream_names - 1), normalised. */
const char *sl_hyp_stream_name(const sl_hyp_stream *s, int part);
/* The part whose name is key (sl_hyp_stream_key's), or -1. */
int sl_hyp_stream_find(const sl_hyp_stream *s, const char *key);
/* A part's segments, sorted and checked for overlaps the first time (the
 * stream's; valid until it is freed). 0, or -1 naming the file and lines. */
int sl_hyp_stream_segments(sl_hyp_stream *s, int part, const sl_label_segment **segs, int *n,
                           char *err, size_t errlen);
/* A line of a JSON Lines label file (model/jsonl.c): a segment's start and
 * end, or a frame's index and time, and its label (valid during the call);
 * prob: the frame's probability of the class asked for (-1: none asked). */
typedef struct {
    int line, is_frame;
    double start, end;
    int64_t frame;
    double time;
    const char *label;
    double prob;
    const char *file; /* its "file" string, NULL when it has none */
} sl_jsonl_row;
typedef int (*sl_jsonl_row_fn)(void *user, const sl_jsonl_row *row, char *err, size_t errlen);
/* fn on each line of the JSON Lines file at path, in order (blank lines
 * skipped), until it returns non-zero; with prob_class, a frame's "probs" must
 * hold that class's. several as sl_csv_each's. 0, or -1 naming the file and
 * line. */
int sl_jsonl_each(const char *path, const char *prob_class, int several, sl_jsonl_row_fn fn,
                  void *user, char *err, size_t errlen);
/* A NIST UEM file's scoring regions (model/uem.c): a line "<file-id> <channel>
 * <onset> <offset>" per region, seconds, ';;' comments. NULL with a message
 * naming the file and line. */
typedef struct sl_uem sl_uem;
sl_uem *sl_uem_read(const char *path, char *err, size_t errlen);
void sl_uem_free(sl_uem *u);
/* Leaves out (-1) each of audio's n frame labels whose centre lies outside its
 * regions (its file id: sl_rttm_file_id, as in RTTM). -1 naming the UEM file
 * and the audio when it has no region for it. */
int sl_uem_crop(const sl_uem *u, const char *audio, int32_t *labels, int64_t n, int hop,
                int rate, char *err, size_t errlen);
/* qsort order of segments: by start, then end, then line. */
int sl_segment_cmp(const void *a, const void *b);

#endif
