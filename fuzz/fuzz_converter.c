/* libFuzzer target: sl_converter, as the element drives it. The first bytes pick
 * the input rate (any from 1 Hz, most refused past 1:256 of 16 kHz), the channel
 * count (1 to 8) and 16-bit or float samples; the rest is the stream, pushed in
 * pieces whose sizes the data also picks, then the tail. */
#include <seqlabel.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int discard(void *user, const float *mono, size_t n)
{
    (void)mono;
    *(size_t *)user += n;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    int rate = 1 + (int)((data[0] | (data[1] << 8) | ((data[2] & 0x0f) << 16)) % 400000);
    int channels = 1 + (data[3] & 7);
    int s16 = data[3] & 8;
    unsigned piece = 1 + data[4];
    data += 5, size -= 5;
    char err[256];
    sl_converter *c = sl_converter_new(rate, channels, 16000, err, sizeof err);
    if (!c)
        return 0;
    size_t frame_bytes = (size_t)channels * (s16 ? 2 : 4), frames = size / frame_bytes, out = 0;
    void *pcm = malloc(frames * frame_bytes + 1);
    memcpy(pcm, data, frames * frame_bytes); /* aligned copy */
    int rc = 0;
    for (size_t done = 0; done < frames && rc == 0; done += piece) {
        size_t n = frames - done < piece ? frames - done : piece;
        rc = s16 ? sl_converter_push_s16(c, (const int16_t *)pcm + done * channels, n, discard,
                                         &out, err, sizeof err)
                 : sl_converter_push(c, (const float *)pcm + done * channels, n, discard, &out,
                                     err, sizeof err);
    }
    if (rc == 0)
        sl_converter_flush(c, discard, &out, err, sizeof err);
    free(pcm);
    sl_converter_free(c);
    return 0;
}
