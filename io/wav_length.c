/* How many frames a WAV file's header promises, where the file holds fewer.
 * libsndfile takes a WAV's length from the file when its data chunk claims
 * more than the file holds, so a file cut short (a copy that stopped, a
 * damaged archive) reads as a whole, shorter one; this reads the claim itself,
 * for the reader's truncation check. */
#include "io/io_internal.h"
#include "common/bytes.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int64_t sl_wav_promised_frames(const char *path, int frame_bytes)
{
    if (frame_bytes <= 0)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    unsigned char head[12], chunk[8];
    int64_t promised = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || read(fd, head, 12) != 12 ||
        memcmp(head, "RIFF", 4) || memcmp(head + 8, "WAVE", 4)) {
        close(fd);
        return -1;
    }
    off_t at = 12;
    /* a few hundred chunks before the data at most; more is not a WAV file */
    for (int n = 0; n < 1000 && pread(fd, chunk, 8, at) == 8; n++) {
        const uint32_t size = sl_le32(chunk + 4);
        if (!memcmp(chunk, "data", 4)) {
            /* 0 and sizes from 2 GiB - 64 KiB up are the placeholders of a
             * header written before the data's length was known (libsndfile's
             * 0, GStreamer's wavenc 0x7FFF0000, sox's 0x7FFFF000, arecord's
             * 0x80000000, ffmpeg's 0xFFFFFFFF); in bytes, not by the fmt
             * chunk's block size, which libsndfile ignores as some writers get
             * it wrong */
            if (size > 0 && size < 0x7FFF0000u && (int64_t)at + 8 + size > (int64_t)st.st_size)
                promised = (int64_t)(size / (uint32_t)frame_bytes);
            break;
        }
        at += 8 + (off_t)size + (size & 1);
    }
    close(fd);
    return promised;
}
