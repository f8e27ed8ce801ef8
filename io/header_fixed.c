/* The data size a header of fixed fields claims (io/header_claim.h): Sun/NeXT
 * AU, NIST SPHERE, Creative VOC, AVR, Psion WVE, Akai MPC 2000 and
 * FastTracker 2 XI, each read where libsndfile reads it. */
#include "io/header_claim.h"
#include "common/bytes.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Sun/NeXT AU (".snd", big-endian; "dns.", little-endian, as libsndfile reads
 * it): the header's data size. 0xFFFFFFFF is AU's own "unknown" (sox's, to a
 * pipe); it, 0 and sizes from 0x7FFF0000 up promise nothing. */
int sl_au_claim(int fd, sl_claim *cl)
{
    unsigned char head[12];
    if (pread(fd, head, 12, 0) != 12)
        return -1;
    const int be = !memcmp(head, ".snd", 4);
    if (!be && memcmp(head, "dns.", 4))
        return -1;
    const uint32_t offset = be ? sl_be32(head + 4) : sl_le32(head + 4);
    const uint32_t size = be ? sl_be32(head + 8) : sl_le32(head + 8);
    cl->start = offset;
    cl->bytes = size;
    cl->size_at = 8, cl->size_len = 4, cl->size_be = be;
    return size > 0 && size < 0x7FFF0000u ? 0 : -1;
}

/* NIST SPHERE: a text header of "key -type value" lines, ended by "end_head",
 * in the first 1024 bytes. The samples start after the header's own length
 * (its second line; 1024 where that is no number), and "sample_count" counts
 * frames. A writer that does not know the length leaves it out (sox) or
 * writes 0 (libsndfile, before it has written the samples): no promise. */
int sl_nist_claim(int fd, sl_claim *cl)
{
    char head[1024 + 2]; /* "end_head" at the end, and the byte after it */
    const ssize_t got = pread(fd, head, 1024, 0);
    if (got < 8)
        return -1;
    head[got] = 0;
    char *end = strstr(head, "end_head");
    if (end) /* keys after it are no header's, as libsndfile reads it */
        end[strlen("end_head") + 1] = 0;
    if (strncmp(head, "NIST_1A\n", 8))
        return -1;
    int offset = 1024;
    if (sscanf(head, "NIST_1A\n%d\n", &offset) != 1)
        offset = 1024;
    const char *count = strstr(head, "sample_count -i ");
    long long frames = 0;
    if (offset < 0 || !count || sscanf(count, "sample_count -i %lld", &frames) != 1 || frames <= 0)
        return -1;
    cl->start = (uint64_t)offset;
    cl->frames = (uint64_t)frames;
    return 0;
}

/* Creative VOC: blocks after a 26-byte header, each a type byte and a 24-bit
 * little-endian size. libsndfile itself refuses an 8-bit file (a sound block,
 * type 1, after an extended one, type 8, for stereo) whose block reaches past
 * the file's end; a type 9 block (16-bit, A-law, mu-law) it reads as far as
 * the file goes: its size counts 12 bytes of fields before the samples, and
 * libsndfile's own writer (12 then) promises nothing. Text (5) and repeat (6)
 * blocks before it are stepped over as libsndfile steps (a repeat block's
 * count read, its size not). Past 16 MiB the size wraps, to less than the
 * file holds: no promise either. (sox's size is 8 bytes short of its
 * samples: a cut of more than that and the end byte is still seen.) */
int sl_voc_claim(int fd, sl_claim *cl)
{
    unsigned char head[26], block[4];
    if (pread(fd, head, 26, 0) != 26 || memcmp(head, "Creative Voice File\x1a", 20))
        return -1;
    off_t at = 26;
    for (int n = 0; n < SL_CLAIM_MAX_CHUNKS && pread(fd, block, 4, at) == 4; n++) {
        const uint32_t size = block[1] | (uint32_t)block[2] << 8 | (uint32_t)block[3] << 16;
        if (block[0] == 5) {
            at += 4 + (off_t)size;
        } else if (block[0] == 6) {
            at += 6;
        } else if (block[0] == 9 && size > 12) {
            cl->start = (uint64_t)at + 16;
            cl->bytes = size - 12;
            return 0;
        } else {
            return -1;
        }
    }
    return -1;
}

/* AVR (Audio Visual Research): a 128-byte big-endian header whose length at
 * byte 26 counts frames (libsndfile's and sox's, whatever the channels). 0,
 * sox's before it knows the length, promises nothing (libsndfile then takes
 * the file's). */
int sl_avr_claim(int fd, sl_claim *cl)
{
    unsigned char head[30];
    if (pread(fd, head, 30, 0) != 30 || memcmp(head, "2BIT", 4))
        return -1;
    return sl_claim_count32(cl, 128, &cl->frames, sl_be32(head + 26));
}

/* Psion WVE: "ALawSoundFile**", a version, then the A-law bytes' count
 * (big-endian), the samples from byte 32. sox writes 0 where it does not know
 * the length (or it is past 4 GiB): no promise. */
int sl_wve_claim(int fd, sl_claim *cl)
{
    unsigned char head[22];
    if (pread(fd, head, 22, 0) != 22 || memcmp(head, "ALawSoundFile**\0", 16))
        return -1;
    return sl_claim_count32(cl, 32, &cl->bytes, sl_be32(head + 18));
}

/* Akai MPC 2000 sample: bytes 1 and 4, a 17-byte name, level, tune and a
 * stereo flag, then 32-bit little-endian fields of which the third (byte 30)
 * counts frames; 16-bit samples from byte 42. libsndfile writes 0 there
 * before it knows the length: no promise. */
int sl_mpc2k_claim(int fd, sl_claim *cl)
{
    unsigned char head[42];
    if (pread(fd, head, 42, 0) != 42 || head[0] != 1 || head[1] != 4)
        return -1;
    return sl_claim_count32(cl, 42, &cl->frames, sl_le32(head + 30));
}

/* FastTracker 2 XI instrument: 298 bytes of instrument, then 40 bytes a sample
 * header (up to 16), the first's length in bytes first, then the samples.
 * libsndfile reads the first sample alone. Its writer leaves 0 there, which
 * promises nothing, unless told to update the header (SFC_UPDATE_HEADER_NOW),
 * then writes the frame count: for 16-bit samples half their bytes, so such
 * a file cut short is seen only once it holds less than half. */
int sl_xi_claim(int fd, sl_claim *cl)
{
    unsigned char head[302];
    if (pread(fd, head, 302, 0) != 302 || memcmp(head, "Extended Instrument:", 20))
        return -1;
    const int count = (int16_t)sl_le16(head + 296);
    const int32_t size = (int32_t)sl_le32(head + 298);
    if (count < 1 || count > 16 || size <= 0)
        return -1;
    cl->start = 298 + 40 * (uint64_t)count;
    cl->bytes = (uint64_t)size;
    return 0;
}
