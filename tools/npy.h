/* A float32 2-D .npy writer (NumPy format 1.0) for streams whose row count is
 * only known at the end: the header is written with room for any row count
 * and rewritten in place by npy_finish (the stream must be seekable). */
#ifndef SL_NPY_H
#define SL_NPY_H

#include <stdint.h>
#include <stdio.h>

/* Total header size in bytes (magic + length + dict + padding): fixed, so the
 * final header fits exactly where the placeholder was. */
#define NPY_HEADER_BYTES 128

/* Writes a placeholder header for a rows x cols '<f4' array (rows = 0). */
int npy_begin(FILE *fp, int cols);
/* Appends rows of cols float32 values, little-endian whatever the host. */
int npy_write_rows(FILE *fp, const float *data, int64_t rows, int cols);
/* Seeks back and writes the real header for `rows` rows; leaves the position
 * at the end of the file. Returns 0, or -1 (errno set) if the stream cannot
 * seek or write. */
int npy_finish(FILE *fp, int64_t rows, int cols);
/* Formats the header into buf (NPY_HEADER_BYTES bytes). -1 if it cannot fit. */
int npy_format_header(char *buf, int64_t rows, int cols);

#endif
