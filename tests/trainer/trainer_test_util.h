/* Helpers of the trainer tests: a generated labeled task written as WAV files
 * with Audacity label tracks, temporary folders, and running the command. */
#ifndef TRAINER_TEST_UTIL_H
#define TRAINER_TEST_UTIL_H

#include <stdint.h>

#include "seqlabel.h"

/* A fresh temporary folder (under $TMPDIR or /tmp); removed by tt_rmtree. */
void tt_mkdtemp(char *out, size_t len, const char *tag);
void tt_rmtree(const char *dir);
/* dir/name into a rotating static buffer. */
const char *tt_path(const char *dir, const char *name);
void tt_write_text(const char *path, const char *text);
/* Reads a whole file; NULL if absent. */
char *tt_read_file(const char *path, size_t *len);

/* An sl_frame_fn sink: frame `index` into buf (room for every frame), n = frames so far. */
typedef struct {
    float *buf;
    int64_t n;
} tt_frames;
int tt_collect_frame(void *user, int64_t index, const float *frame, int dim);

/* Writes dir/<name>.wav (16 kHz mono, 16-bit) and dir/<name>.txt: `seconds`
 * of segments 0.3-1.0 s long (boundaries on the 10 ms grid), each one of
 * "tone" (a sine of 300-3000 Hz, 0.1-0.5 amplitude), "noise" (white, 0.05-0.3)
 * or "silence" (white, 1e-4), every label exact. Returns the frame count of
 * each class in counts[3] (may be NULL). */
void tt_make_task_file(const char *dir, const char *name, double seconds, uint64_t seed);

/* Writes dir/<manifest> listing files name_0..name_{n-1} (made with
 * tt_make_task_file), with `split` as third column (or none when NULL). */
void tt_make_task_set(const char *dir, const char *manifest, const char *prefix, int n,
                      double seconds, uint64_t seed, const char *split);

/* The small task most command tests train on: dir/tr.tsv (2 x 6 s, split "train",
 * from `seed`), dir/va.tsv (1 x 4 s, "valid", seed + 1) and dir/all.tsv holding
 * both. 0, or -1 when the files cannot be written. */
int tt_make_train_valid(const char *dir, uint64_t seed);

/* Runs `$SL_SEQLABEL train --out dir/<tag>.slm <args> > dir/<tag>.report`; returns the
 * exit status, stderr in *err (malloc'ed; err may be NULL). */
int tt_train(const char *dir, const char *tag, const char *args, char **err);
/* The same, failing the test unless it exits 0. */
void tt_train_ok(const char *dir, const char *tag, const char *args);
/* dir/<tag>.slm, loaded; fails the test when it cannot be. */
sl_model *tt_load_model(const char *dir, const char *tag);

/* The train_loss of dir/<tag>.report's line "epoch E/..."; fails the test without one. */
double tt_epoch_train_loss(const char *dir, const char *tag, int epoch);

/* 1 when dir/a and dir/b hold the same bytes; fails the test when either is
 * missing. */
int tt_same_file(const char *dir, const char *a, const char *b);

/* Checks a refused command: exit status `code` (2: the command line is wrong,
 * 1: what it reads is) and a message on stderr (err, from tt_run; freed here)
 * holding want1 and want2; prints the message. `what` names the command in the
 * failure report. */
void tt_expect_refusal(const char *what, int code, int rc, char *err, const char *want1,
                       const char *want2);

/* Runs the command line `cmd` through /bin/sh, capturing stderr into *err_out
 * (malloc'ed, may be NULL) and returns the exit status (-1 if killed). */
int tt_run(const char *cmd, char **err_out);

#endif
