/* The data size a header of chunks in big-endian order claims
 * (io/header_claim.h): the IFF family's AIFF, AIFC, 8SVX and 16SV, and
 * Apple's CAF. */
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

/* IFF 8SVX (and 16SV, its 16-bit kin as libsndfile writes it): the BODY
 * chunk's size. libsndfile writes 0 there before it knows the length: no
 * promise (sox writes its file whole, at the end). */
int sl_svx_claim(int fd, sl_claim *cl)
{
    unsigned char head[12], chunk[8];
    if (pread(fd, head, 12, 0) != 12 || memcmp(head, "FORM", 4) ||
        (memcmp(head + 8, "8SVX", 4) && memcmp(head + 8, "16SV", 4)))
        return -1;
    off_t at = 12;
    for (int n = 0; n < SL_CLAIM_MAX_CHUNKS && pread(fd, chunk, 8, at) == 8; n++) {
        const uint32_t size = sl_be32(chunk + 4);
        if (!memcmp(chunk, "BODY", 4)) {
            return sl_claim_count32(cl, (uint64_t)at + 8, &cl->bytes, size);
        }
        at += 8 + (off_t)size + (size & 1);
    }
    return -1;
}

/* Apple CAF: after an 8-byte header, chunks of a type and a 64-bit size, not
 * padded; the data chunk's size counts a 4-byte edit count before the
 * samples. -1 (all ones) is CAF's own "unknown", a streaming writer's (which
 * libsndfile 1.2 refuses itself); 4 (no samples) libsndfile's before it knows
 * the length. libsndfile also refuses a file whose data chunk claims more
 * than the whole file (it finds no data chunk), but reads one cut by less
 * than its header and chunk heads (libsndfile's own header: 4 KiB) as far as
 * it goes. */
int sl_caf_claim(int fd, sl_claim *cl)
{
    unsigned char head[8], chunk[12];
    if (pread(fd, head, 8, 0) != 8 || memcmp(head, "caff", 4))
        return -1;
    off_t at = 8;
    for (int n = 0; n < SL_CLAIM_MAX_CHUNKS && pread(fd, chunk, 12, at) == 12; n++) {
        const uint64_t size = sl_be64(chunk + 4);
        if (!memcmp(chunk, "data", 4)) {
            cl->start = (uint64_t)at + 16;
            cl->bytes = size - 4;
            return size > 4 && size < UINT64_C(1) << 62 ? 0 : -1;
        }
        if (size >= UINT64_C(1) << 62)
            return -1;
        at += 12 + (off_t)size;
    }
    return -1;
}
