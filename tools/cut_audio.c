/* `seqlabel label --cut`: the frames a labelling kept, as audio at the input's
 * rate and channels (in the container OUT's extension names, else the input's,
 * with its encoding where that fits), the rest dropped or silenced. Frame f
 * covers the samples of its time span (sl_frame_start_sample), as the
 * element's gate has it, and samples after the last frame follow it.
 *
 * One pass, like the gate: the reader hands over the input's own samples as it
 * reads them (a tap), and they wait here until the frames covering them are
 * decided, about the labeler's latency later. So standard input and headerless
 * files are cut too, and the queue stays short whatever the input's length. */
#include "tools/cut_audio.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sndfile.h>

#include "tools/cli.h"

#define CUT_RUN 8192 /* sample frames a run of one decision waits at most before it is written */

/* The container OUT's extension names (libsndfile's list; .ogg and .mp3 too),
 * with the input's encoding where it fits, else a usual one; 0 when libsndfile
 * cannot write it. No known extension: the input's format. */
static int output_format(const char *out_path, int in_format, int rate, int channels)
{
    const char *dot = strrchr(out_path, '.');
    const char *slash = strrchr(out_path, '/');
    int major = 0, count = 0;
    if (!dot || (slash && dot < slash))
        return in_format;
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
    if (!major || major == (in_format & SF_FORMAT_TYPEMASK))
        return in_format;
    /* into another container the input's encoding goes only if it is plain
     * samples (a WAV can claim MP3 inside, which libsndfile then cannot write) */
    int sub = in_format & SF_FORMAT_SUBMASK;
    int plain = sub == SF_FORMAT_PCM_S8 || sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_PCM_16 ||
                sub == SF_FORMAT_PCM_24 || sub == SF_FORMAT_PCM_32 || sub == SF_FORMAT_FLOAT ||
                sub == SF_FORMAT_DOUBLE;
    const int subtypes[] = {plain ? sub : SF_FORMAT_PCM_16, SF_FORMAT_PCM_16, SF_FORMAT_VORBIS,
                            SF_FORMAT_MPEG_LAYER_III};
    for (size_t i = 0; i < sizeof subtypes / sizeof subtypes[0]; i++) {
        SF_INFO t = {.samplerate = rate, .channels = channels, .format = major | subtypes[i]};
        if (sf_format_check(&t))
            return t.format;
    }
    return 0;
}

struct cli_cut {
    cli_output o;
    SNDFILE *out;
    const char *path;
    int channels, rate, hop, model_rate, silence;
    float *q;                 /* samples not yet written or skipped, interleaved */
    int64_t q_off, q_len, q_cap; /* in sample frames: first queued, queued, room */
    int64_t q_start;          /* the input's index of the first queued sample frame */
    int64_t frames;           /* frames decided */
    int run_keep;             /* the decision of the run of frames being gathered */
    int failed;               /* 1: out of memory, 2: write failed */
};

cli_cut *cli_cut_open(const char *out_path, int in_format, int rate, int channels, int hop,
                      int model_rate, int silence)
{
    SF_INFO oinfo = {.samplerate = rate, .channels = channels};
    oinfo.format = output_format(out_path, in_format, rate, channels);
    if (!sf_format_check(&oinfo)) {
        cli_error("%s: libsndfile cannot write this format at %d Hz, %d channel%s", out_path,
                  rate, channels, channels > 1 ? "s" : "");
        return NULL;
    }
    cli_cut *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    *c = (cli_cut){.path = out_path, .channels = channels, .rate = rate, .hop = hop,
                   .model_rate = model_rate, .silence = silence};
    if (cli_output_open(&c->o, out_path, "wb") != 0) {
        free(c);
        return NULL;
    }
    c->out = sf_open_fd(fileno(c->o.fp), SFM_WRITE, &oinfo, 0);
    if (!c->out) {
        cli_error("%s: %s", out_path, sf_strerror(NULL));
        cli_cut_abort(c);
        return NULL;
    }
    /* float input beyond full scale into integer samples: clipped, not wrapped
     * (FLAC wrote silence) */
    sf_command(c->out, SFC_SET_CLIPPING, NULL, SF_TRUE);
    return c;
}

void cli_cut_samples(cli_cut *c, const float *frames, long n_frames, int channels)
{
    if (c->failed || n_frames <= 0 || channels != c->channels)
        return;
    const size_t ch = (size_t)c->channels;
    if (c->q_off > 0 && c->q_off + c->q_len + n_frames > c->q_cap) {
        memmove(c->q, c->q + c->q_off * (int64_t)ch, sizeof *c->q * (size_t)c->q_len * ch);
        c->q_off = 0;
    }
    if (c->q_len + n_frames > c->q_cap) {
        int64_t cap = 2 * (c->q_len + n_frames);
        float *q = realloc(c->q, sizeof *q * (size_t)cap * ch);
        if (!q) {
            c->failed = 1;
            return;
        }
        c->q = q;
        c->q_cap = cap;
    }
    memcpy(c->q + (c->q_off + c->q_len) * (int64_t)ch, frames, sizeof *frames * (size_t)n_frames * ch);
    c->q_len += n_frames;
}

/* Writes (run_keep), silences (--cut-silence) or skips the queued samples before
 * input sample `end`. */
static void flush_before(cli_cut *c, int64_t end)
{
    int64_t n = end - c->q_start;
    if (n > c->q_len)
        n = c->q_len;
    if (n <= 0 || c->failed)
        return;
    float *p = c->q + c->q_off * c->channels;
    if (!c->run_keep && c->silence)
        memset(p, 0, sizeof *p * (size_t)n * (size_t)c->channels);
    if ((c->run_keep || c->silence) && sf_writef_float(c->out, p, n) != n)
        c->failed = 2;
    c->q_off += n;
    c->q_len -= n;
    c->q_start += n;
}

int cli_cut_frame(cli_cut *c, int keep)
{
    /* the samples before this frame belong to the run before it */
    int64_t start = sl_frame_start_sample(c->frames, c->hop, c->rate, c->model_rate);
    if (c->frames > 0 && (keep != c->run_keep || start - c->q_start >= CUT_RUN))
        flush_before(c, start);
    c->run_keep = keep;
    c->frames++;
    return c->failed ? -1 : 0;
}

int cli_cut_finish(cli_cut *c)
{
    flush_before(c, INT64_MAX); /* the last frame's run (none: not kept) takes the rest */
    int rc = 0;
    if (c->failed == 1)
        rc = cli_error("%s: out of memory", c->path);
    else if (c->failed)
        rc = cli_error("%s: write failed: %s", c->path, sf_strerror(c->out));
    if (sf_close(c->out) != 0 && rc == 0)
        rc = cli_error("%s: write failed", c->path);
    c->out = NULL;
    if (rc)
        cli_output_abort(&c->o);
    else
        rc = cli_output_commit(&c->o) ? 1 : 0;
    free(c->q);
    free(c);
    return rc;
}

void cli_cut_abort(cli_cut *c)
{
    if (!c)
        return;
    if (c->out)
        sf_close(c->out);
    cli_output_abort(&c->o);
    free(c->q);
    free(c);
}
