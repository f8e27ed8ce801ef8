/* The data size an IFF-family header claims (io/header_claim.h): AIFF and
 * AIFC. */
#include "io/header_claim.h"
#include "common/bytes.h"

#include <string.h>
#include <unistd.h>

/* AIFF and AIFC: the SSND chunk's size, less its offset and block size fields
 * and the offset's bytes. 0 and sizes from 0x7EFF0000 up promise nothing:
 * GStreamer's aiffmux writes 0x7FFF0008 before it knows the length, sox about
 * 0x7F000000 (2130706432 bytes less a part of a frame, plus 8). */
int sl_aiff_claim(int fd, sl_claim *cl)
{
    unsigned char head[12], chunk[8], offset[4]; /* SSND's offset; COMM's frames */
    if (pread(fd, head, 12, 0) != 12 || memcmp(head, "FORM", 4) ||
        (memcmp(head + 8, "AIFF", 4) && memcmp(head + 8, "AIFC", 4)))
        return -1;
    off_t at = 12;
    for (int n = 0; n < SL_CLAIM_MAX_CHUNKS && pread(fd, chunk, 8, at) == 8; n++) {
        const uint32_t size = sl_be32(chunk + 4);
        if (!memcmp(chunk, "COMM", 4) && size >= 6 && pread(fd, offset, 4, at + 10) == 4)
            cl->fact = sl_be32(offset); /* numSampleFrames, after numChannels */
        if (!memcmp(chunk, "SSND", 4)) {
            if (size < 8 || size >= 0x7EFF0000u || pread(fd, offset, 4, at + 8) != 4 ||
                sl_be32(offset) > size - 8)
                return -1;
            cl->start = (uint64_t)at + 16 + sl_be32(offset);
            cl->bytes = size - 8 - sl_be32(offset);
            return 0;
        }
        at += 8 + (off_t)size + (size & 1);
    }
    return -1;
}
