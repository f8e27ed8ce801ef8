/* File helpers shared by the cmocka tests. */
#ifndef SL_TEST_FILES_H
#define SL_TEST_FILES_H

#include <stddef.h>

/* $SL_FIXTURES/<area>/<name> (tests/fixtures when unset) into buf. */
const char *test_fixture_path(char *buf, size_t len, const char *area, const char *name);
/* $TMPDIR/pattern (/tmp when TMPDIR is unset or empty) into buf, for mkstemp
 * and mkdtemp: a package build may give its tests a TMPDIR of their own. */
char *test_tmp_path(char *buf, size_t len, const char *pattern);
/* dir/name in one of 8 buffers used in turn: a path stays good for the next 7
 * calls (enough for the arguments of one call). */
const char *test_in_dir(const char *dir, const char *name);
/* lib for LD_PRELOAD, named by a symlink dir/preload.so (made anew) put in buf:
 * the dynamic loader splits LD_PRELOAD at blanks and colons and no quoting
 * escapes them, so a build folder with a blank in its path ("b d") cannot be
 * named there; dir, a test's own folder under $TMPDIR, has none. */
const char *test_preload_path(char *buf, size_t len, const char *dir, const char *lib);
/* 1 when no name in dir holds ".tmp.": no temporary file was left. */
int test_no_tmp_left(const char *dir);
/* Writes text into path (fails the test when it cannot), then gives it mode. */
void test_write_text(const char *path, const char *text, unsigned mode);
/* Whole file into a malloc'd, NUL-terminated buffer; *size gets its length.
 * Fails the test when the file cannot be read. */
unsigned char *test_read_file(const char *path, size_t *size);
/* The UTC time a JSON line gives under `key` ("key":"2026-12-05T10:00:00.07Z")
 * at or after `text`, in seconds since 1970, read back by strptime and timegm
 * (not by the code that wrote it). Fails the test when there is none. */
double test_utc_seconds(const char *text, const char *key);
/* A Broadcast WAVE file built here byte by byte, not by libsndfile (EBU Tech
 * 3285: 'fmt ', a 602-byte version 2 'bext' whose origination date and time are
 * the 10 and 8 characters given, 'data'): n samples of a 440 Hz sine, 16-bit
 * mono at `rate`. Fails the test when it cannot be written. */
/* Sets the time zone (TZ, for this process and the commands it starts) and
 * returns the one before (malloc'd; NULL: none), which test_restore_tz puts
 * back and frees. */
char *test_set_tz(const char *tz);
void test_restore_tz(char *was);
void test_write_bwf(const char *path, int rate, long n, const char *date, const char *time);

/* What root may do and others may not (write over a read-only file, replace
 * /dev/null) is tried as another user. In a child process: gives up root for
 * nobody (65534, no supplementary groups); does nothing for any other user.
 * 0, or -1 when it cannot. */
int test_drop_root(void);
/* `cmd` through /bin/sh in `dir`, as test_drop_root leaves the user; the exit
 * status (128 + signal when killed). Fails the test when it cannot fork. */
int test_system_unprivileged(const char *dir, const char *cmd);
/* A FIFO at `path` and a child process that copies what is written into it to
 * `copy` (giving up after 20 s), for test_fifo_done to wait for. Its pid. */
int test_fifo_reader(const char *path, const char *copy);
/* Waits for that child: 0 when it copied the writer's bytes to their end. */
int test_fifo_done(int pid);

#endif
