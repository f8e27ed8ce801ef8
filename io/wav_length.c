/* How many frames a WAV file's header promises. libsndfile takes a WAV's
 * length from the file when its data chunk claims more than the file holds, so
 * a file cut short (a copy that stopped, a damaged archive) reads as a whole,
 * shorter one; this reads the claim itself, for the reader's truncation check. */
#include "io/io_internal.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Coding tags whose block is one frame (PCM, float, A-law, mu-law, extensible). */
static int frame_per_block(unsigned tag)
{
    return tag == 1 || tag == 3 || tag == 6 || tag == 7 || tag == 0xFFFE;
}

int64_t sl_wav_promised_frames(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    unsigned char head[12], chunk[8], fmt[16];
    int64_t promised = -1;
    unsigned block = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || read(fd, head, 12) != 12 ||
        memcmp(head, "RIFF", 4) || memcmp(head + 8, "WAVE", 4)) {
        close(fd);
        return -1;
    }
    off_t at = 12;
    /* a few hundred chunks before the data at most; more is not a WAV file */
    for (int n = 0; n < 1000 && pread(fd, chunk, 8, at) == 8; n++) {
        const uint32_t size = le32(chunk + 4);
        if (!memcmp(chunk, "fmt ", 4) && size >= 16 && pread(fd, fmt, 16, at + 8) == 16) {
            unsigned tag = (unsigned)fmt[0] | (unsigned)fmt[1] << 8;
            block = frame_per_block(tag) ? ((unsigned)fmt[12] | (unsigned)fmt[13] << 8) : 0;
        } else if (!memcmp(chunk, "data", 4)) {
            /* 0 and the largest sizes are the placeholders of a header written
             * before its data's length was known (a recorder's, a pipe's) */
            if (block > 0 && size > 0 && size < 0x7FFFF000u)
                promised = (int64_t)(size / block);
            break;
        }
        at += 8 + (off_t)size + (size & 1);
    }
    close(fd);
    return promised;
}
