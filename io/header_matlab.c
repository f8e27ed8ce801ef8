/* The frames a MATLAB file's header claims (io/header_claim.h), as
 * libsndfile reads its MAT4 and MAT5 files: a 1x1 "samplerate" matrix, then
 * the samples' matrix, whose rows are the channels and whose columns the
 * frames. Each number is in the byte order the file's start says. libsndfile
 * writes 0 columns before it knows the length: no promise. */
#include "io/header_claim.h"
#include "common/bytes.h"

#include <string.h>
#include <unistd.h>

/* Reading 32-bit fields one after another, in a file's byte order. */
typedef struct {
    int fd, be;
    off_t at;
} cursor;

static int next32(cursor *c, uint32_t *v)
{
    unsigned char b[4];
    if (pread(c->fd, b, 4, c->at) != 4)
        return -1;
    c->at += 4;
    *v = c->be ? sl_be32(b) : sl_le32(b);
    return 0;
}

/* MATLAB 4 (GNU Octave 2.0): each matrix's header is five 32-bit fields (its
 * type, rows, columns, whether imaginary, its name's length), then the name.
 * The first type, a double's, says the byte order: 0 little-endian, 1000
 * big-endian. The sample rate is that matrix's one double. */
int sl_mat4_claim(int fd, sl_claim *cl)
{
    unsigned char type[4];
    if (pread(fd, type, 4, 0) != 4)
        return -1;
    cursor c = {fd, 0, 4};
    if (!memcmp(type, "\0\0\x03\xe8", 4))
        c.be = 1;
    else if (memcmp(type, "\0\0\0\0", 4))
        return -1;
    uint32_t rows, cols, imag, name;
    if (next32(&c, &rows) || next32(&c, &cols) || next32(&c, &imag) || next32(&c, &name) ||
        rows != 1 || cols != 1 || name >= 64)
        return -1;
    c.at += (off_t)name + 8 + 4; /* the name, the rate, the samples' type */
    if (next32(&c, &rows) || next32(&c, &cols) || next32(&c, &imag) || next32(&c, &name) ||
        name >= 64 || cols == 0 || cols > INT32_MAX)
        return -1;
    cl->start = (uint64_t)c.at + name;
    cl->frames = cols;
    return 0;
}

/* A MATLAB 5 array's name: a tagged element of 8-bit characters padded to 8
 * bytes, or a small one (its length in the tag's top half) of 4 bytes. */
static int mat5_skip_name(cursor *c)
{
    uint32_t type, size;
    if (next32(c, &type))
        return -1;
    if (type == 1) { /* miINT8 */
        if (next32(c, &size) || size > 31)
            return -1;
        c->at += (off_t)(size + (8 - size % 8) % 8);
        return 0;
    }
    if ((type & 0xFFFF) == 1 && type >> 16 <= 4) {
        c->at += 4;
        return 0;
    }
    return -1;
}

/* A MATLAB 5 array's head: the miMATRIX tag, the flags' tag and two words,
 * the dimensions' tag, rows and columns, then its name. */
static int mat5_array(cursor *c, uint32_t *rows, uint32_t *cols)
{
    uint32_t type, size, flags;
    if (next32(c, &type) || type != 14 || next32(c, &size) || /* miMATRIX */
        next32(c, &type) || type != 6 || next32(c, &size) ||  /* miUINT32 flags */
        next32(c, &flags) || next32(c, &flags) ||
        next32(c, &type) || type != 5 || next32(c, &size) ||  /* miINT32 dimensions */
        next32(c, rows) || next32(c, cols))
        return -1;
    return mat5_skip_name(c);
}

/* MATLAB 5: a 124-byte text, a version and "IM" (little-endian) or "MI", then
 * tagged elements. Where the first array is 1x1, its value is the sample
 * rate (a double, or a small element of 16 or 32 bits) and the samples are
 * the second array's; where it is not, libsndfile takes it for the samples.
 * The samples' tag (type, size) ends the header. */
int sl_mat5_claim(int fd, sl_claim *cl)
{
    unsigned char order[2];
    if (pread(fd, order, 2, 126) != 2)
        return -1;
    cursor c = {fd, 0, 128};
    if (!memcmp(order, "MI", 2))
        c.be = 1;
    else if (memcmp(order, "IM", 2))
        return -1;
    uint32_t rows, cols, type, size;
    if (mat5_array(&c, &rows, &cols) || next32(&c, &type) || next32(&c, &size))
        return -1;
    if (rows == 1 && cols == 1) {
        if (type == 9) /* miDOUBLE */
            c.at += 8;
        else if (type != 0x00020004 && type != 0x00040006) /* small miUINT16, miUINT32 */
            return -1;
        if (mat5_array(&c, &rows, &cols) || next32(&c, &type) || next32(&c, &size))
            return -1;
    }
    if (cols == 0 || cols > INT32_MAX)
        return -1;
    cl->start = (uint64_t)c.at;
    cl->frames = cols;
    return 0;
}
