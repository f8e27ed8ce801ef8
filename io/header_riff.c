/* The data size a RIFF-family header claims (io/header_claim.h): WAV, its
 * big-endian RIFX and WAVE_FORMAT_EXTENSIBLE, RF64, and Sony Wave64. */
#include "io/header_claim.h"
#include "common/bytes.h"

#include <string.h>
#include <unistd.h>

/* A 64-bit size (RF64's ds64, W64) that promises nothing: 0, one libsndfile
 * reads as negative (all ones: unknown), or ffmpeg's INT64_MAX (a recording
 * into a pipe, or killed before its header was put right): any from 2^62
 * bytes (4 EiB) up, which no file holds. */
static int placeholder64(uint64_t size)
{
    return size == 0 || size >= UINT64_C(1) << 62;
}

/* WAV, RIFX (big-endian WAV) and RF64: the chunks before 'data' ('fmt ', 'fact',
 * RF64's 'ds64'), then the data chunk's size. 0 and sizes from 2 GiB - 64 KiB
 * up are the placeholders of a header written before the data's length was
 * known (libsndfile's 0, GStreamer's wavenc 0x7FFF0000, sox's 0x7FFFF000,
 * arecord's 0x80000000, ffmpeg's 0xFFFFFFFF). An RF64 with a ds64 chunk has its
 * size there (the data chunk's is then 0xFFFFFFFF), as libsndfile reads it. */
int sl_riff_claim(int fd, sl_claim *cl)
{
    unsigned char head[12], chunk[8], body[20];
    if (pread(fd, head, 12, 0) != 12 || memcmp(head + 8, "WAVE", 4))
        return -1;
    const int be = !memcmp(head, "RIFX", 4), rf64 = !memcmp(head, "RF64", 4);
    if (!be && !rf64 && memcmp(head, "RIFF", 4))
        return -1;
    int have_ds64 = 0;
    uint64_t ds64_data = 0;
    off_t ds64_at = 0;
    off_t at = 12;
    for (int n = 0; n < SL_CLAIM_MAX_CHUNKS && pread(fd, chunk, 8, at) == 8; n++) {
        const uint32_t size = be ? sl_be32(chunk + 4) : sl_le32(chunk + 4);
        const size_t want = size < sizeof body ? size : sizeof body;
        if (!memcmp(chunk, "data", 4)) {
            cl->start = (uint64_t)at + 8;
            if (rf64 && have_ds64) {
                cl->bytes = ds64_data;
                cl->size_at = (uint64_t)ds64_at + 16, cl->size_len = 8, cl->size_be = 0;
                return placeholder64(ds64_data) ? -1 : 0;
            }
            cl->bytes = size;
            cl->size_at = (uint64_t)at + 4, cl->size_len = 4, cl->size_be = be;
            return size > 0 && size < 0x7FFF0000u ? 0 : -1;
        }
        if (pread(fd, body, want, at + 8) == (ssize_t)want) {
            if (!memcmp(chunk, "ds64", 4) && want >= 16) {
                have_ds64 = 1;
                ds64_at = at;
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

int sl_w64_claim(int fd, sl_claim *cl)
{
    unsigned char head[40], chunk[24], body[20];
    if (pread(fd, head, 40, 0) != 40 || memcmp(head, w64_riff, 16) || !w64_is(head + 24, "wave"))
        return -1;
    off_t at = 40;
    for (int n = 0; n < SL_CLAIM_MAX_CHUNKS && pread(fd, chunk, 24, at) == 24; n++) {
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
