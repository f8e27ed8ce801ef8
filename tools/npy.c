/* NumPy .npy format 1.0: "\x93NUMPY", version 1 0, a little-endian uint16
 * header length, then a Python dict literal padded with spaces and ended by
 * '\n' so that the data starts at a multiple of 64 bytes. */
#include "tools/npy.h"

#include <errno.h>
#include <string.h>

int npy_format_header(char *buf, int64_t rows, int cols)
{
    const int prefix = 10; /* magic (6) + version (2) + header length (2) */
    char dict[NPY_HEADER_BYTES];
    int n = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%lld, %d), }",
                     (long long)rows, cols);
    if (n < 0 || prefix + n + 1 > NPY_HEADER_BYTES)
        return -1;
    const int hlen = NPY_HEADER_BYTES - prefix;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)(hlen & 0xff);
    buf[9] = (char)(hlen >> 8);
    memcpy(buf + prefix, dict, (size_t)n);
    memset(buf + prefix + n, ' ', (size_t)(hlen - n - 1));
    buf[NPY_HEADER_BYTES - 1] = '\n';
    return 0;
}

int npy_begin(FILE *fp, int cols)
{
    char h[NPY_HEADER_BYTES];
    if (npy_format_header(h, 0, cols) < 0)
        return -1;
    return fwrite(h, 1, sizeof h, fp) == sizeof h ? 0 : -1;
}

int npy_write_rows(FILE *fp, const float *data, int64_t rows, int cols)
{
    size_t n = (size_t)rows * (size_t)cols;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, data + i, 4);
        u = __builtin_bswap32(u);
        if (fwrite(&u, 4, 1, fp) != 1)
            return -1;
    }
    return 0;
#else
    return fwrite(data, sizeof(float), n, fp) == n ? 0 : -1;
#endif
}

int npy_finish(FILE *fp, int64_t rows, int cols)
{
    char h[NPY_HEADER_BYTES];
    if (npy_format_header(h, rows, cols) < 0) {
        errno = EOVERFLOW;
        return -1;
    }
    if (fflush(fp) != 0 || fseeko(fp, 0, SEEK_SET) != 0)
        return -1;
    if (fwrite(h, 1, sizeof h, fp) != sizeof h)
        return -1;
    return fseeko(fp, 0, SEEK_END) == 0 && fflush(fp) == 0 ? 0 : -1;
}
