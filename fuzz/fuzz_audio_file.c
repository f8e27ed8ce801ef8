/* libFuzzer target: audio files as sl_audio_open reads them. The first byte
 * picks the file name's extension, so one corpus reaches libsndfile's formats
 * and every headerless telephony reader (io/raw_format.c); the rest is the
 * file. The whole file is read at 16 kHz, as `seqlabel label` reads it, so
 * header values (rates, channel counts, lengths) reach the resampler and the
 * downmix. The first byte's top bit adds a tap (`seqlabel label --cut`), which
 * reads the file as doubles. An .mp3 also goes to the check of its first
 * frame (sl_mp3_states_length: an ID3v2 tag's size, frame headers), which
 * sends one without a Xing/Info tag to GStreamer, turned off here. */
#include <seqlabel.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "io/io_internal.h"

/* touches every tapped sample, so that reading past the block is seen */
static void tap(void *user, const double *frames, long n_frames, int channels)
{
    double *sum = user;
    for (long i = 0; i < n_frames * channels; i++)
        *sum += frames[i];
}

static const char *const extensions[] = {"wav", "flac", "ogg", "aiff", "au", "g722", "gsm",
                                         "ulaw", "alaw", "sln", "sln48", "sln12", "mp3"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[64];
    snprintf(path, sizeof path, "/tmp/seqlabel-fuzz-%d.%s", (int)getpid(),
             extensions[(data[0] & 0x7f) % (sizeof extensions / sizeof *extensions)]);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    if ((data[0] & 0x7f) % (sizeof extensions / sizeof *extensions) == 12)
        (void)sl_mp3_states_length(path);
    char err[512];
    double sum = 0;
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.target_rate = 16000;
    opt.tap = data[0] & 0x80 ? tap : NULL;
    opt.tap_user = &sum;
    opt.no_gstreamer = 1; /* GStreamer's decoders are not ours to fuzz, and slow to start */
    sl_audio_reader *r = sl_audio_open_ex(path, &opt, err, sizeof err);
    if (r) {
        float block[4096];
        long total = 0, n;
        /* a header may claim hours of audio; a few seconds show what the readers do */
        while (total < 16000 * 8 && (n = sl_audio_read(r, block, 4096, err, sizeof err)) > 0)
            total += n;
        sl_audio_close(r);
    }
    unlink(path);
    return 0;
}
