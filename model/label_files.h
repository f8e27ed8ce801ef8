/* What the trainer's label file readers share (model/manifest.c: Audacity
 * tracks; model/textgrid.c; model/rttm.c). Internal to libseqlabel. */
#ifndef SL_MODEL_LABEL_FILES_H
#define SL_MODEL_LABEL_FILES_H

#include <stddef.h>

#include "seqlabel.h"

/* The whole file, NUL-terminated (it may hold NULs of its own: *len says how
 * long it is). NULL with a message naming the file. */
char *sl_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* Splits the next line off *p in place (strips "\r\n"); NULL at the end. */
char *sl_next_line(char **p);
/* Splits the next tab-separated field off *p in place (*p NULL after the
 * last); NULL when *p is. */
char *sl_next_field(char **p);
/* A strict time in seconds: a finite number >= 0 and the whole string. 0 or -1. */
int sl_parse_seconds(const char *s, double *out);
/* Appends a segment (the name copied) to *segs of *n, growing *cap. -1: out of
 * memory (nothing appended). */
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
/* 1 when a label path names an RTTM file (x.rttm, X.RTTM#CLASS: its lines an
 * entry's by file id). */
int sl_is_rttm_path(const char *labels);
/* The label file of a name: the first of prefix + the n bytes of stem + .txt,
 * .TextGrid or .rttm (and with frames_table, then .tsv: a frames table of
 * `seqlabel label --format frames`) that is a regular file (malloc'ed), or NULL
 * when none is (*out_of_memory then says whether memory ran out). */
char *sl_label_file_of(const char *prefix, const char *stem, size_t n, int frames_table,
                       int *out_of_memory);
/* The length of the folder a manifest's paths are relative to, as a prefix of
 * manifest_path (the manifest itself when it is a folder, else the manifest
 * file's folder; 0: the current one). */
size_t sl_manifest_root_len(const char *manifest_path);
/* The part of path below that folder (root_len from sl_manifest_root_len), or
 * path itself when it lies elsewhere: what names an entry however the manifest
 * was named (data/set.tsv or /home/u/data/set.tsv). */
const char *sl_manifest_below_root(const char *manifest_path, size_t root_len, const char *path);
/* sl_rttm_read and sl_manifest_entry_segments, but with by_id an RTTM file's lines
 * are file_id's by their id alone: one RTTM file for a set of several files (`seqlabel
 * eval --hyp x.rttm`), where a file it never names has no segments (a VAD's leaves
 * out the files where it found nothing) and lines under another id are never its. */
int sl_rttm_read_ex(const char *path, const char *file_id, const char *as_class, int by_id,
                    sl_label_segment **segs, int *n, char *err, size_t errlen);
int sl_manifest_entry_segments_ex(const sl_manifest_entry *e, int by_id,
                                  sl_label_segment **segs, int *n, char *err, size_t errlen);
/* qsort order of segments: by start, then end, then line. */
int sl_segment_cmp(const void *a, const void *b);

#endif
