/* How many frames a file's header promises, where the file holds fewer.
 * libsndfile takes the length of a WAV (RIFF, RIFX, WAVE_FORMAT_EXTENSIBLE),
 * RF64, W64, AIFF/AIFC or AU file from the file itself when the header's data
 * size claims more than the file holds, so a file cut short (a copy that
 * stopped, a damaged archive) reads as a whole, shorter one; this reads the
 * claim itself, for the reader's truncation check. (A CAF cut short libsndfile
 * refuses at open; FLAC says so itself; an Ogg's length is its last granule.)
 *
 * The data size decides, and only where the data reaches past the file's end:
 * a whole file, whatever else its header says, promises nothing. The claimed
 * bytes are counted in frames as libsndfile counts the bytes it finds, so a
 * file promises no more than libsndfile would read of it whole; a sample count
 * beside them (fact, AIFF's COMM) says only how much of a block coding's last
 * block is audio (frames_of). Placeholders promise nothing: each parser says
 * which sizes writers leave before they know the length. */
#include "io/io_internal.h"
#include "io/sample_bytes.h"
#include "common/bytes.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a header says of its data: where it starts and how many bytes it
 * claims, and for block codings (ADPCM, GSM) the fmt chunk's block size and
 * frames a block, and the fact chunk's (AIFF: COMM's) frame count (0: none). */
typedef struct {
    uint64_t start, bytes;
    uint32_t block_align, block_frames;
    uint64_t fact;
} claim;

/* A few hundred chunks before the data at most; more is no audio file. */
#define MAX_CHUNKS 1000

/* A 64-bit size (RF64's ds64, W64) that promises nothing: 0, or one libsndfile
 * reads as negative (all ones: unknown). */
static int placeholder64(uint64_t size)
{
    return size == 0 || size >= UINT64_C(1) << 63;
}

/* WAV, RIFX (big-endian WAV) and RF64: the chunks before 'data' ('fmt ', 'fact',
 * RF64's 'ds64'), then the data chunk's size. 0 and sizes from 2 GiB - 64 KiB
 * up are the placeholders of a header written before the data's length was
 * known (libsndfile's 0, GStreamer's wavenc 0x7FFF0000, sox's 0x7FFFF000,
 * arecord's 0x80000000, ffmpeg's 0xFFFFFFFF). An RF64 with a ds64 chunk has its
 * size there (the data chunk's is then 0xFFFFFFFF), as libsndfile reads it. */
static int riff_claim(int fd, claim *cl)
{
    unsigned char head[12], chunk[8], body[20];
    if (pread(fd, head, 12, 0) != 12 || memcmp(head + 8, "WAVE", 4))
        return -1;
    const int be = !memcmp(head, "RIFX", 4), rf64 = !memcmp(head, "RF64", 4);
    if (!be && !rf64 && memcmp(head, "RIFF", 4))
        return -1;
    int have_ds64 = 0;
    uint64_t ds64_data = 0;
    off_t at = 12;
    for (int n = 0; n < MAX_CHUNKS && pread(fd, chunk, 8, at) == 8; n++) {
        const uint32_t size = be ? sl_be32(chunk + 4) : sl_le32(chunk + 4);
        const size_t want = size < sizeof body ? size : sizeof body;
        if (!memcmp(chunk, "data", 4)) {
            cl->start = (uint64_t)at + 8;
            if (rf64 && have_ds64) {
                cl->bytes = ds64_data;
                return placeholder64(ds64_data) ? -1 : 0;
            }
            cl->bytes = size;
            return size > 0 && size < 0x7FFF0000u ? 0 : -1;
        }
        if (pread(fd, body, want, at + 8) == (ssize_t)want) {
            if (!memcmp(chunk, "ds64", 4) && want >= 16) {
                have_ds64 = 1;
                ds64_data = sl_le64(body + 8);
            } else if (!memcmp(chunk, "fmt ", 4) && want >= 14) {
                cl->block_align = be ? sl_be16(body + 12) : sl_le16(body + 12);
                /* IMA's and MS ADPCM's samples a block (WAVEX: the same place) */
                if (want >= 20)
                    cl->block_frames = be ? sl_be16(body + 18) : sl_le16(body + 18);
            } else if (!memcmp(chunk, "fact", 4) && want >= 4) {
                cl->fact = be ? sl_be32(body) : sl_le32(body);
            }
        }
        at += 8 + (off_t)size + (size & 1);
    }
    return -1;
}

/* Sony Wave64: chunks named by GUIDs, whose 64-bit sizes count their own 24
 * bytes of name and size, each padded to 8 bytes. */
static const unsigned char w64_riff[16] = {'r', 'i', 'f', 'f', 0x2E, 0x91, 0xCF, 0x11,
                                           0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00};
/* the rest of the GUIDs of 'wave', 'fmt ', 'fact' and 'data' */
static const unsigned char w64_tail[12] = {0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1,
                                           0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A};

static int w64_is(const unsigned char *guid, const char *name)
{
    return !memcmp(guid, name, 4) && !memcmp(guid + 4, w64_tail, 12);
}

static int w64_claim(int fd, claim *cl)
{
    unsigned char head[40], chunk[24], body[20];
    if (pread(fd, head, 40, 0) != 40 || memcmp(head, w64_riff, 16) || !w64_is(head + 24, "wave"))
        return -1;
    off_t at = 40;
    for (int n = 0; n < MAX_CHUNKS && pread(fd, chunk, 24, at) == 24; n++) {
        const uint64_t size = sl_le64(chunk + 16);
        if (w64_is(chunk, "data")) {
            /* sox's streamed W64 says 24 (or 23): no data; libsndfile's the same */
            cl->start = (uint64_t)at + 24;
            cl->bytes = size - 24;
            return size <= 24 || placeholder64(size) ? -1 : 0;
        }
        if (size < 24 || size >= UINT64_C(1) << 62)
            return -1;
        const size_t want = size - 24 < sizeof body ? (size_t)(size - 24) : sizeof body;
        if (pread(fd, body, want, at + 24) == (ssize_t)want) {
            if (w64_is(chunk, "fmt ") && want >= 14) {
                cl->block_align = sl_le16(body + 12);
                if (want >= 20)
                    cl->block_frames = sl_le16(body + 18);
            } else if (w64_is(chunk, "fact") && want >= 8) {
                cl->fact = sl_le64(body);
            }
        }
        at += (off_t)((size + 7) & ~(uint64_t)7);
    }
    return -1;
}

/* AIFF and AIFC: the SSND chunk's size, less its offset and block size fields
 * and the offset's bytes. 0 and sizes from 0x7EFF0000 up promise nothing:
 * GStreamer's aiffmux writes 0x7FFF0008 before it knows the length, sox about
 * 0x7F000000 (2130706432 bytes less a part of a frame, plus 8). */
static int aiff_claim(int fd, claim *cl)
{
    unsigned char head[12], chunk[8], offset[4]; /* SSND's offset; COMM's frames */
    if (pread(fd, head, 12, 0) != 12 || memcmp(head, "FORM", 4) ||
        (memcmp(head + 8, "AIFF", 4) && memcmp(head + 8, "AIFC", 4)))
        return -1;
    off_t at = 12;
    for (int n = 0; n < MAX_CHUNKS && pread(fd, chunk, 8, at) == 8; n++) {
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

/* Sun/NeXT AU (".snd", big-endian; "dns.", little-endian, as libsndfile reads
 * it): the header's data size. 0xFFFFFFFF is AU's own "unknown" (sox's, to a
 * pipe); it, 0 and sizes from 0x7FFF0000 up promise nothing. */
static int au_claim(int fd, claim *cl)
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
    return size > 0 && size < 0x7FFF0000u ? 0 : -1;
}

/* The frames `bytes` of data make, counted as libsndfile counts them (the
 * codecs' reader_init functions), or -1 for a coding not counted here:
 * - a sample's bytes, whatever the header's block align says (some writers get
 *   it wrong, and libsndfile ignores it);
 * - IMA ADPCM and GSM 6.10 (WAV's 65-byte blocks of 320 samples, AIFF's 33 of
 *   160): whole blocks, and a last part of one as a whole (libsndfile decodes
 *   it; but for GSM's one byte over, AIFF's pad byte);
 * - MS ADPCM: whole blocks alone;
 * - AIFC's IMA ADPCM ('ima4'): 34-byte blocks of 64 samples of one channel.
 * A block coding's fact chunk (WAV, W64) says how many of the last block's
 * samples are audio, not padding: its count where it is within the last
 * block (libsndfile writes a stereo IMA file's as half the frames: no
 * promise, so libsndfile's count of the blocks is). AIFF's GSM is cut to
 * the COMM chunk's count, as libsndfile cuts it. */
static int64_t frames_of(const claim *cl, uint64_t bytes, int format, int channels)
{
    const int major = format & SF_FORMAT_TYPEMASK;
    const int wavlike = major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX || major == SF_FORMAT_W64;
    if (sl_sample_bytes(format) > 0)
        return (int64_t)(bytes / ((uint64_t)sl_sample_bytes(format) * (uint64_t)channels));
    uint64_t block = 0, frames = 0, per = 1, over = 0;
    int partial = 1;
    switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_IMA_ADPCM:
        if (major == SF_FORMAT_AIFF)
            block = 34, frames = 64, per = (uint64_t)channels;
        else if (wavlike)
            block = cl->block_align, frames = cl->block_frames;
        break;
    case SF_FORMAT_MS_ADPCM:
        if (wavlike)
            block = cl->block_align, frames = cl->block_frames, partial = 0;
        break;
    case SF_FORMAT_GSM610:
        if (major == SF_FORMAT_AIFF)
            block = 33, frames = 160, over = 1;
        else if (wavlike)
            block = 65, frames = 320;
        break;
    default:
        break;
    }
    if (block == 0 || frames == 0)
        return -1;
    const uint64_t blocks = bytes / block + (partial && bytes % block > over ? 1 : 0);
    if (blocks > (uint64_t)INT64_MAX / frames) /* a W64 size no file holds */
        return INT64_MAX;
    const uint64_t n = blocks * frames / per;
    if (major == SF_FORMAT_AIFF)
        return (int64_t)(over && cl->fact > 0 && cl->fact < n ? cl->fact : n);
    return (int64_t)(cl->fact > 0 && cl->fact <= n && cl->fact + frames > n ? cl->fact : n);
}

int64_t sl_header_promised_frames(const char *path, int format, int channels)
{
    int (*parse)(int, claim *) = NULL;
    switch (format & SF_FORMAT_TYPEMASK) {
    case SF_FORMAT_WAV: case SF_FORMAT_WAVEX: case SF_FORMAT_RF64:
        parse = riff_claim;
        break;
    case SF_FORMAT_W64:
        parse = w64_claim;
        break;
    case SF_FORMAT_AIFF:
        parse = aiff_claim;
        break;
    case SF_FORMAT_AU:
        parse = au_claim;
        break;
    default: /* another container: not read here (docs/io.md says which are) */
        return -1;
    }
    if (channels <= 0)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    claim cl = {0};
    const int found = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? parse(fd, &cl) : -1;
    close(fd);
    /* the whole of the data in the file: nothing is missing */
    if (found < 0 || cl.start > (uint64_t)st.st_size || cl.bytes <= (uint64_t)st.st_size - cl.start)
        return -1;
    return frames_of(&cl, cl.bytes, format, channels);
}
