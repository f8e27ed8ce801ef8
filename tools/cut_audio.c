/* `seqlabel label --cut`: the frames a labelling kept, as audio at the input's
 * rate and channels (in the container OUT's extension names, else the input's,
 * with its encoding where that fits), the rest dropped or silenced. Frame f
 * covers the samples of its time span (sl_frame_start_sample), as the
 * element's gate has it, and samples after the last frame follow it. */
#include "tools/cut_audio.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sndfile.h>

#include "tools/cli.h"

#define CUT_BLOCK 8192 /* sample frames per read */

/* The container OUT's extension names (libsndfile's list; .ogg and .mp3 too),
 * with the input's encoding where it fits, else a usual one; 0 when libsndfile
 * cannot write it. No known extension: the input's format. */
static int output_format(const char *out_path, const SF_INFO *in)
{
    const char *dot = strrchr(out_path, '.');
    const char *slash = strrchr(out_path, '/');
    int major = 0, count = 0;
    if (!dot || (slash && dot < slash))
        return in->format;
    dot++;
    if (!strcasecmp(dot, "ogg"))
        major = SF_FORMAT_OGG;
    else if (!strcasecmp(dot, "mp3"))
        major = SF_FORMAT_MPEG;
    sf_command(NULL, SFC_GET_FORMAT_MAJOR_COUNT, &count, sizeof count);
    for (int i = 0; i < count && !major; i++) {
        SF_FORMAT_INFO fi = {.format = i};
        if (sf_command(NULL, SFC_GET_FORMAT_MAJOR, &fi, sizeof fi) == 0 && fi.extension &&
            !strcasecmp(dot, fi.extension))
            major = fi.format;
    }
    if (!major || major == (in->format & SF_FORMAT_TYPEMASK))
        return in->format;
    /* into another container the input's encoding goes only if it is plain
     * samples (a WAV can claim MP3 inside, which libsndfile then cannot write) */
    int sub = in->format & SF_FORMAT_SUBMASK;
    int plain = sub == SF_FORMAT_PCM_S8 || sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_PCM_16 ||
                sub == SF_FORMAT_PCM_24 || sub == SF_FORMAT_PCM_32 || sub == SF_FORMAT_FLOAT ||
                sub == SF_FORMAT_DOUBLE;
    const int subtypes[] = {plain ? sub : SF_FORMAT_PCM_16, SF_FORMAT_PCM_16, SF_FORMAT_VORBIS,
                            SF_FORMAT_MPEG_LAYER_III};
    for (size_t i = 0; i < sizeof subtypes / sizeof subtypes[0]; i++) {
        SF_INFO t = {.samplerate = in->samplerate, .channels = in->channels,
                     .format = major | subtypes[i]};
        if (sf_format_check(&t))
            return t.format;
    }
    return 0;
}

/* Copies (keep), silences (silence) or skips `n` frames from in to out. */
static int copy_span(SNDFILE *in, SNDFILE *out, double *buf, int channels, int64_t n, int keep,
                     int silence)
{
    while (n > 0) {
        sf_count_t want = n < CUT_BLOCK ? (sf_count_t)n : CUT_BLOCK;
        sf_count_t got = sf_readf_double(in, buf, want);
        if (got <= 0)
            return -1;
        if (!keep)
            memset(buf, 0, sizeof *buf * (size_t)got * (size_t)channels);
        if ((keep || silence) && sf_writef_double(out, buf, got) != got)
            return -2;
        n -= got;
    }
    return 0;
}

int cli_cut_audio(const char *in_path, const char *out_path, const unsigned char *keep,
                  int64_t n_frames, int hop, int model_rate, int silence)
{
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *in = sf_open(in_path, SFM_READ, &info);
    if (!in)
        return cli_error("%s: --cut needs a file libsndfile reads: %s", in_path, sf_strerror(NULL));
    SF_INFO oinfo = info;
    oinfo.frames = 0;
    oinfo.format = output_format(out_path, &info);
    if (!sf_format_check(&oinfo)) {
        sf_close(in);
        return cli_error("%s: libsndfile cannot write this format at %d Hz, %d channel%s", out_path,
                         info.samplerate, info.channels, info.channels > 1 ? "s" : "");
    }
    cli_output o;
    if (cli_output_open(&o, out_path, "wb") != 0) {
        sf_close(in);
        return 1;
    }
    SNDFILE *out = sf_open_fd(fileno(o.fp), SFM_WRITE, &oinfo, 0);
    double *buf = malloc(sizeof *buf * CUT_BLOCK * (size_t)info.channels);
    int rc = 0;
    if (!out || !buf) {
        rc = cli_error("%s: %s", out_path, out ? "out of memory" : sf_strerror(NULL));
    } else {
        /* runs of frames with one decision, mapped onto the file's samples (a
         * file shorter than a frame has none: one run that is not kept) */
        const unsigned char none = 0;
        int64_t nf = n_frames > 0 ? n_frames : 1, f = 0;
        const unsigned char *k = n_frames > 0 ? keep : &none;
        while (rc == 0 && f < nf) {
            int64_t g = f + 1;
            while (g < nf && k[g] == k[f])
                g++;
            int64_t s0 = sl_frame_start_sample(f, hop, info.samplerate, model_rate);
            int64_t s1 = g < nf ? sl_frame_start_sample(g, hop, info.samplerate, model_rate)
                                : (int64_t)info.frames;
            if (s1 > (int64_t)info.frames)
                s1 = (int64_t)info.frames;
            int e = s1 > s0 ? copy_span(in, out, buf, info.channels, s1 - s0, k[f], silence) : 0;
            if (e == -1)
                rc = cli_error("%s: reading samples %lld to %lld failed: %s", in_path,
                               (long long)s0, (long long)s1, sf_strerror(in));
            else if (e == -2)
                rc = cli_error("%s: write failed: %s", out_path, sf_strerror(out));
            f = g;
        }
    }
    free(buf);
    if (out && sf_close(out) != 0 && rc == 0)
        rc = cli_error("%s: write failed", out_path);
    sf_close(in);
    if (rc) {
        cli_output_abort(&o);
        return 1;
    }
    return cli_output_commit(&o) ? 1 : 0;
}
