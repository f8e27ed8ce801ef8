/* Audio files: libsndfile decodes, we downmix to mono and (when asked)
 * libsoxr converts the rate. Everything goes through fixed-size blocks
 * allocated at open, so memory does not depend on the file's length and the
 * read path allocates nothing. */
#include "io/io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sndfile.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Samples (frames x channels) per libsndfile read: large enough that the
 * per-call overhead vanishes, small enough to stay in L2. */
#define SL_AUDIO_BLOCK_SAMPLES 16384

struct sl_audio_reader {
    SNDFILE *sf;
    sl_g722_source *g722; /* G.722 input only: what sf reads from */
    sl_media_source *media; /* GStreamer's decoding (MP4, Matroska, ...) only: the same */
    sl_sized_source *sized; /* a data size of 0 read as the file's (reopen_sized): the same */
    char *name;          /* the path, or "standard input", for messages */
    int channels;
    int channel;         /* sl_audio_options.channel */
    int file_rate;
    int out_rate;
    int format;          /* libsndfile's SF_FORMAT_* of the input */
    int seekable;        /* regular file: the header's frame count can be trusted */
    int check_length;    /* a short read before file_frames means truncation */
    int mp3_stated;      /* an MP3 whose Xing/Info tag counts its frames: file_frames
                            is that count, not an estimate, within a frame */
    int64_t file_frames; /* -1 when unknown */
    int64_t promised_frames; /* the header's, where more than file_frames; else 0 */
    int64_t pos;         /* sample frames taken from the file so far */
    int64_t recorded_us; /* when the recording began, as the file says */
    int has_recorded;    /* 1 when it says */
    int file_eof;        /* libsndfile has nothing more */
    int done;            /* everything (including the resampler's tail) delivered */
    /* A read that fails (damage, truncation, a NaN) first hands over the
     * samples before it (the resampler's tail included), then fails, and every
     * read after it fails the same: 1 while those samples go out, 2 after. */
    int failing;
    char failure[SL_ERR_LEN];
    long block_frames;   /* frames per libsndfile read */
    float *block;        /* block_frames x channels, interleaved */
    void (*tap)(void *, const double *, long, int); /* sl_audio_options.tap */
    double *tap_block;   /* with a tap: block_frames x channels as read */
    void *tap_user;
    /* resampling only */
    soxr_t soxr;
    float *mono;         /* block_frames mono samples awaiting the resampler */
    long mono_len, mono_off;
};

void sl_io_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    char said[SL_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(said, sizeof said, fmt, ap);
    va_end(ap);
    /* The contract is one line: libsndfile's texts end in newlines, dropped;
     * one within (a file's name: "n\rx.wav" beside "n x.wav") is shown as
     * \x0a or \x0d, not made a space, which named the other file. */
    size_t end = strlen(said);
    while (end > 0 && strchr(" \n\r", said[end - 1]))
        end--;
    size_t len = 0;
    for (size_t i = 0; i < end; i++) {
        const int shown = said[i] == '\n' || said[i] == '\r';
        if (len + (shown ? 4 : 1) >= errlen) /* cut before what does not fit whole */
            break;
        if (shown)
            len += (size_t)snprintf(err + len, errlen - len, "\\x%02x", (unsigned char)said[i]);
        else
            err[len++] = said[i];
    }
    err[len] = '\0';
}

void sl_audio_options_default(sl_audio_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->target_rate = 0;
    /* BEST: flat (error < 1e-4) up to 7.8 kHz when going from 44.1 to
     * 16 kHz, so the top mel bins keep their content, and still ~1500x real
     * time on one core; MEDIUM and FAST narrow the pass band (docs/io.md has
     * the figures). */
    opt->quality = SL_RESAMPLE_BEST;
    opt->raw_encoding = SL_RAW_NONE;
}

sl_audio_reader *sl_audio_open(const char *path, int target_rate, char *err, size_t errlen)
{
    sl_audio_options opt;
    sl_audio_options_default(&opt);
    opt.target_rate = target_rate;
    return sl_audio_open_ex(path, &opt, err, errlen);
}

void sl_audio_close(sl_audio_reader *r)
{
    if (!r)
        return;
    if (r->sf)
        sf_close(r->sf);
    sl_g722_source_free(r->g722);
    sl_media_source_free(r->media);
    sl_sized_source_free(r->sized);
    if (r->soxr)
        soxr_delete(r->soxr);
    free(r->block);
    free(r->tap_block);
    free(r->mono);
    free(r->name);
    free(r);
}

/* Whether GStreamer may decode the input: not turned off, and no headerless
 * encoding given or known by the name. */
static int gstreamer_may_read(const sl_audio_options *opt)
{
    return !opt->no_gstreamer && opt->raw_encoding == SL_RAW_NONE;
}

/* libsndfile knew the container but could not read what is in it: a WAV of a
 * codec it lacks (unsupported encoding), or compressed media, or a file of a
 * name not its own, whose codec failed (libmpg123 says "not a regular file"
 * of AAC named .mp3). GStreamer may decode those. Its other errors on a file
 * of its own kind (a WAV without a data chunk, a short fmt chunk, no
 * channels) are of a damaged header, which its own message says best, and
 * which GStreamer's lenient parsers might read past. */
static int codec_refused(int sf_code, const char *path)
{
    return sf_code == SF_ERR_UNSUPPORTED_ENCODING ||
           (sf_code > SF_ERR_UNSUPPORTED_ENCODING &&
            (sl_audio_name_compressed(path) || sl_audio_name_known(path) != 1));
}

/* Whether st is the null device's (compared with /dev/null's own). */
static int is_null_device(const struct stat *st)
{
    struct stat null;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
           st->st_rdev == null.st_rdev;
}

/* Whether the pipe fd ends before any byte comes. It waits as the read that
 * follows would, until bytes or the end are there, and looks without taking:
 * libsndfile would only call an empty pipe not audio. */
static int pipe_ends_empty(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int held = 0;
    while (poll(&p, 1, -1) < 0)
        if (errno != EINTR)
            return 0;
    return (p.revents & POLLHUP) && ioctl(fd, FIONREAD, &held) == 0 && held == 0;
}

int sl_mp3_coded(int format)
{
    const int coding = format & SF_FORMAT_SUBMASK;
    return (format & SF_FORMAT_TYPEMASK) == SF_FORMAT_MPEG || coding == SF_FORMAT_MPEG_LAYER_I ||
           coding == SF_FORMAT_MPEG_LAYER_II || coding == SF_FORMAT_MPEG_LAYER_III;
}

/* sf_open for reading, also of a path longer than libsndfile takes (1023
 * bytes, SF_FILENAME_LEN; the system takes PATH_MAX): that one is opened here
 * and handed over by descriptor (which libsndfile closes, also when it fails;
 * its guess by the name's extension, for headerless files, is then not made). */
static SNDFILE *sf_open_path(const char *path, SF_INFO *info)
{
    if (strlen(path) < 1024)
        return sf_open(path, SFM_READ, info);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    return fd < 0 ? NULL : sf_open_fd(fd, SFM_READ, info, SF_TRUE);
}

/* libsndfile reads a WAV (RIFX, WAVEX, RF64) or AU whose data size is 0 as
 * no samples, though that is the placeholder a recorder leaves when it is
 * stopped before it writes the length, the samples after it (and libsndfile
 * reads them where the size is all ones). Such a regular file is opened again
 * with the size its bytes make (io/sized_source.c): the samples of the same
 * file with a correct header. sf where the file is no such one. */
static SNDFILE *reopen_sized(SNDFILE *sf, const char *path, int is_stdin, SF_INFO *info,
                             sl_sized_source **sized)
{
    int fd = is_stdin ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC);
    sl_size_field field;
    if (fd >= 0 && sl_header_zero_size(fd, info->format, info->channels, &field) < 0) {
        close(fd);
        fd = -1;
    }
    SF_INFO whole = {0};
    SNDFILE *again = fd < 0 ? NULL : sl_sized_open(fd, &field, &whole, sized);
    if (!again)
        return sf;
    sf_close(sf);
    *info = whole;
    return again;
}

/* Opens the libsndfile handle; on failure writes a message saying why in the
 * user's terms (missing, a directory, empty, not audio). */
static SNDFILE *open_sndfile(const char *path, const char *name, const sl_audio_options *opt,
                             SF_INFO *info, int *seekable, sl_g722_source **g722,
                             sl_media_source **media, sl_sized_source **sized,
                             int *known_format, char *err, size_t errlen)
{
    int is_stdin = strcmp(path, "-") == 0;
    if (sl_audio_is_uri(path)) { /* a network stream, or file:// */
        *seekable = 0;
        struct stat fd_st; /* fd://N of the null device: empty, as the path is */
        char *end = NULL;
        long fd = !strncmp(path, "fd://", 5) ? strtol(path + 5, &end, 10) : -1;
        if (end && end != path + 5 && !*end && fd >= 0 && fd <= INT_MAX &&
            fstat((int)fd, &fd_st) == 0 && is_null_device(&fd_st)) {
            sl_io_err(err, errlen, "%s: the null device: contains no audio", name);
            return NULL;
        }
        /* a file:// URI of a local file that is not there, or that this user
         * may not read: said as by name (not as GStreamer's network trouble) */
        char *local = sl_media_local_path(path);
        struct stat st;
        if (local && (stat(local, &st) != 0 || access(local, R_OK) != 0)) {
            sl_io_err(err, errlen, "%s: cannot open: %s", name, strerror(errno));
            free(local);
            return NULL;
        }
        SNDFILE *sf = NULL;
        if (!gstreamer_may_read(opt))
            sl_io_err(err, errlen, opt->no_gstreamer
                                       ? "%s: a URI is read through GStreamer, which is turned off here"
                                       : "%s: a URI is read through GStreamer, not as headerless "
                                         "samples (--raw-format)", name);
        else if (!(sf = sl_media_open(path, name, opt, info, media, err, errlen)) && local &&
                 S_ISREG(st.st_mode)) {
            /* GStreamer 1.22's wavparse, pulling from a file, reads no sample of
             * a WAV whose data chunk has an odd size (8-bit or 24-bit mono, an odd
             * count: phone recordings in G.711): the file by name, as libsndfile
             * reads it; GStreamer's word where libsndfile cannot either */
            sl_audio_options by_name = *opt;
            by_name.no_gstreamer = 1;
            char why[SL_ERR_LEN];
            sf = open_sndfile(local, name, &by_name, info, seekable, g722, media, sized,
                              known_format, why, sizeof why);
        }
        free(local);
        return sf;
    }
    struct stat st;
    int have_st = is_stdin ? fstat(STDIN_FILENO, &st) == 0 : stat(path, &st) == 0;
    if (!have_st) {
        sl_io_err(err, errlen, "%s: cannot open: %s", name, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        sl_io_err(err, errlen, "%s: is a directory, not an audio file", name);
        return NULL;
    }
    *seekable = S_ISREG(st.st_mode);
    if (*seekable && st.st_size == 0) {
        sl_io_err(err, errlen, "%s: empty file (0 bytes): contains no audio", name);
        return NULL;
    }
    if (is_stdin && S_ISFIFO(st.st_mode) && pipe_ends_empty(STDIN_FILENO)) {
        sl_io_err(err, errlen, "%s: empty (it ended before its first byte): contains no audio",
                  name);
        return NULL;
    }
    if (!is_stdin && access(path, R_OK) != 0) {
        sl_io_err(err, errlen, "%s: cannot open: %s", name, strerror(errno));
        return NULL;
    }
    memset(info, 0, sizeof *info);
    /* A headerless telephony file is known by its name alone (.gsm, .ulaw, ...) */
    sl_audio_options named = *opt;
    if (opt->raw_encoding == SL_RAW_NONE && !is_stdin &&
        sl_raw_format_from_path(path, &named.raw_encoding, &named.raw_rate)) {
        named.raw_channels = 1;
        opt = &named;
    }
    /* a file's samples: from where standard input stands to its end */
    const off_t raw_at = is_stdin && *seekable ? lseek(STDIN_FILENO, 0, SEEK_CUR) : 0;
    const long long raw_bytes = *seekable && raw_at >= 0 ? (long long)(st.st_size - raw_at) : -1;
    if (opt->raw_encoding != SL_RAW_NONE &&
        sl_raw_sf_info(opt, name, raw_bytes, info, err, errlen) < 0)
        return NULL;
    if (opt->raw_encoding == SL_RAW_G722)
        return sl_g722_open(path, name, info, g722, err, errlen);
    /* libsndfile's GSM 06.10 decoder, whose stream has no length, reads on past
     * the end of a pipe: it made up noise for ever (100 hours of labels a
     * minute, at full CPU) */
    if (opt->raw_encoding == SL_RAW_GSM && !*seekable) {
        sl_io_err(err, errlen, "%s: headerless GSM 06.10 is read from files only (through a "
                  "pipe its end is not seen): name the file, or give it as standard input "
                  "(< talk.gsm)", name);
        return NULL;
    }
    /* a FIFO named as GStreamer's media (`mkfifo talk.mka`): what libsndfile
     * would read of it first is gone for GStreamer, so it goes there at once */
    if (!is_stdin && !*seekable && gstreamer_may_read(opt) && sl_audio_name_known(path) == 2)
        return sl_media_open(path, name, opt, info, media, err, errlen);
    /* /dev/null, the standard input of a cron or systemd job: empty, as a pipe
     * that ends at once */
    if (is_null_device(&st)) {
        sl_io_err(err, errlen, "%s: the null device: contains no audio", name);
        return NULL;
    }
    /* where standard input stands (a file: `< talk.mp3`, or part of it read
     * by a script first), before libsndfile reads its header */
    const off_t stdin_at = is_stdin && *seekable ? lseek(STDIN_FILENO, 0, SEEK_CUR) : -1;
    /* Opens are under the lock (one made outside it would spoil another
     * thread's reason, sl_sf_open_begin), but those that may wait on a writer:
     * standard input that is no file (a recorder slow to send its header, a
     * terminal, a socket would hold every other thread's open) and a FIFO by
     * its name (its open waits for a writer; by name libsndfile takes a
     * headerless .au by its extension). Their reason may be another's. */
    const int locked = is_stdin ? *seekable : !S_ISFIFO(st.st_mode);
    sl_sf_failure failed;
    sl_sf_open_begin(locked);
    SNDFILE *sf = sl_sf_open_end(is_stdin ? sf_open_fd(STDIN_FILENO, SFM_READ, info, 0)
                                          : sf_open_path(path, info), &failed, locked);
    /* standard input from its start only: its header is where the file's is */
    if (sf && info->frames == 0 && *seekable && (!is_stdin || stdin_at == 0))
        sf = reopen_sized(sf, path, is_stdin, info, sized);
    /* an MP3 without a Xing/Info tag: libsndfile would stop at an estimate of
     * its length (a variable-bit-rate file lost most of its audio); GStreamer
     * reads it to its end, where it can decode MP3 (else libsndfile's as before).
     * On standard input from its start, the file is opened anew by /dev/stdin;
     * from further in it cannot be looked at by name, and GStreamer reads on
     * from there (fd://0) whatever its tag says. From a pipe libsndfile
     * estimates nothing and reads an untagged file to its end. */
    /* MP3 inside another container (a WAV of format tag 0x55, as ffmpeg and
     * call recorders write it) has no MP3 file's tags to look at: it goes to
     * GStreamer whole (libsndfile cut a variable-bit-rate one at 17%). */
    const char *file = !is_stdin ? path : stdin_at == 0 ? "/dev/stdin" : "fd://0";
    const int mp3_file = sf && (info->format & SF_FORMAT_TYPEMASK) == SF_FORMAT_MPEG;
    if (sf && *seekable && (!is_stdin || stdin_at >= 0) && gstreamer_may_read(opt) &&
        sl_mp3_coded(info->format) &&
        (stdin_at > 0 || !mp3_file || !sl_mp3_states_length(file))) {
        SF_INFO mp3 = *info;
        const off_t sf_at = stdin_at > 0 ? lseek(STDIN_FILENO, 0, SEEK_CUR) : -1;
        SNDFILE *whole = stdin_at > 0 && lseek(STDIN_FILENO, stdin_at, SEEK_SET) != stdin_at
                             ? NULL : sl_media_open(file, name, opt, info, media, NULL, 0);
        if (whole) {
            sf_close(sf);
            *seekable = 0;
            *known_format = mp3.format; /* still an MP3 (what a --cut keeps) */
            return whole;
        }
        if (sf_at >= 0) /* libsndfile's reading goes on where it was */
            lseek(STDIN_FILENO, sf_at, SEEK_SET);
        *info = mp3;
    }
    if (!sf) {
        const int code = failed.code;
        const char *codec = is_stdin ? NULL : sl_raw_undecoded_codec(path);
        if (codec)
            sl_io_err(err, errlen, "%s: %s audio (Asterisk's headerless format) is not decoded "
                      "here; convert it to WAV first (Asterisk: file convert)", name, codec);
        else if (!is_stdin && *seekable && gstreamer_may_read(opt) &&
                 (code == SF_ERR_UNRECOGNISED_FORMAT ? sl_audio_name_known(path) != 1
                                                     : codec_refused(code, path))) {
            /* a container or codec of GStreamer's: read at the stream's own rate,
             * length unknown until the end, as a pipe's */
            sf = sl_media_open(path, name, opt, info, media, err, errlen);
            *seekable = 0;
            /* GStreamer could not either: libsndfile says it best, but for
             * compressed media (libmpg123's "not a regular file" would mislead) */
            if (!sf && code != SF_ERR_UNRECOGNISED_FORMAT && !sl_audio_name_compressed(path))
                sl_io_err(err, errlen, "%s: %s: %s", name,
                          code == SF_ERR_UNSUPPORTED_ENCODING ? "unreadable audio file"
                                                              : "cannot read as audio", failed.why);
        } else if (code == SF_ERR_UNRECOGNISED_FORMAT)
            /* what libsndfile read of a pipe is gone: GStreamer must have it whole */
            sl_io_err(err, errlen, "%s: not an audio file in a format libsndfile reads "
                      "(headerless samples: seqlabel label and features read them given "
                      "--raw-format and --raw-rate%s)", name,
                      is_stdin ? "; other media: read standard input as fd://0, which "
                                 "GStreamer decodes"
                      : !*seekable ? "; other media through a FIFO: name it .mka, .mp4, "
                                     "... or give it on standard input as fd://0, which "
                                     "GStreamer decodes" : "");
        else if (code == SF_ERR_MALFORMED_FILE || code == SF_ERR_UNSUPPORTED_ENCODING)
            sl_io_err(err, errlen, "%s: unreadable audio file: %s", name, failed.why);
        else if (is_stdin && !*seekable)
            /* libsndfile decodes FLAC (and some others) only from seekable files */
            sl_io_err(err, errlen, "%s: cannot read as audio through a pipe (%s): "
                    "pass the file's name, pipe WAV, or read it as fd://0 (GStreamer)", name,
                    failed.why);
        else
            sl_io_err(err, errlen, "%s: cannot read as audio: %s", name, failed.why);
    }
    return sf;
}

sl_audio_reader *sl_audio_open_ex(const char *path, const sl_audio_options *opt, char *err,
                                  size_t errlen)
{
    if (!path || !opt) {
        sl_io_err(err, errlen, "sl_audio_open: no %s given", !path ? "path" : "options");
        return NULL;
    }
    if (opt->target_rate < 0 || (unsigned)opt->quality > SL_RESAMPLE_FAST) {
        sl_io_err(err, errlen, "%s: output rate %d Hz and resampling quality %d: a rate >= 0 "
                  "(0: the file's) and one of sl_resample_quality expected", path,
                  opt->target_rate, (int)opt->quality);
        return NULL;
    }
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    sl_audio_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name))) {
        sl_io_err(err, errlen, "%s: out of memory", name);
        free(r);
        return NULL;
    }
    SF_INFO info;
    int known_format = 0; /* of a file GStreamer reads though libsndfile knows it */
    r->sf = open_sndfile(path, name, opt, &info, &r->seekable, &r->g722, &r->media, &r->sized,
                         &known_format, err, errlen);
    if (!r->sf)
        goto fail;
    if (info.channels <= 0 || info.channels > SL_AUDIO_MAX_CHANNELS || info.samplerate <= 0) {
        sl_io_err(err, errlen, "%s: unsupported layout: %d channels at %d Hz", name, info.channels,
                info.samplerate);
        goto fail;
    }
    r->channels = info.channels;
    if (opt->channel < 0 || opt->channel > info.channels) {
        sl_io_err(err, errlen, "%s: has %d channel(s), so no channel %d to read", name,
                  info.channels, opt->channel);
        goto fail;
    }
    r->channel = opt->channel;
    if (opt->stream > 1 && !r->media) {
        sl_io_err(err, errlen, "%s: holds one audio stream, so no audio stream %d", name,
                  opt->stream);
        goto fail;
    }
    r->file_rate = info.samplerate;
    r->format = r->media ? known_format : info.format;
    r->has_recorded = !r->media && sl_bwf_origination(r->sf, &r->recorded_us) == 0;
    r->tap = opt->tap;
    r->tap_user = opt->tap_user;
    r->out_rate = opt->target_rate > 0 ? opt->target_rate : info.samplerate;
    /* Through a pipe the header's length may be a placeholder; from a regular
     * file it is what libsndfile found (it already trims overlong headers). */
    r->file_frames = r->seekable && info.frames >= 0 && info.frames != SF_COUNT_MAX ? info.frames : -1;
    /* MPEG frame counts are estimates (in a WAV too); elsewhere a short read
     * is damage. */
    r->check_length = r->file_frames >= 0 && !sl_mp3_coded(info.format);
    /* a WAV, AIFF, AU, ... cut short: libsndfile's count is what the file
     * holds, the header's what it should (the file by name; standard input is
     * not opened again) */
    if (r->check_length && !r->media && strcmp(path, "-")) {
        int64_t promised = sl_header_promised_frames(path, info.format, info.channels);
        if (promised > r->file_frames)
            r->promised_frames = promised;
    }
    /* an MP3 file read by libsndfile whose tag counts its frames (a partial
     * download keeps the whole file's tag): that count is no estimate */
    r->mp3_stated = r->file_frames > 0 && !r->media && strcmp(path, "-") &&
                    info.format == (SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III) &&
                    sl_mp3_states_length(path);
    if (r->file_frames == 0) {
        sl_io_err(err, errlen, "%s: contains no audio (0 samples)", name);
        goto fail;
    }
    r->block_frames = SL_AUDIO_BLOCK_SAMPLES / r->channels;
    if (r->block_frames < 64)
        r->block_frames = 64;
    r->block = malloc(sizeof(float) * (size_t)r->block_frames * (size_t)r->channels);
    if (r->tap)
        r->tap_block = malloc(sizeof(double) * (size_t)r->block_frames * (size_t)r->channels);
    if (!r->block || (r->tap && !r->tap_block)) {
        sl_io_err(err, errlen, "%s: out of memory", name);
        goto fail;
    }
    if (r->out_rate != r->file_rate) {
        /* input that is not a regular file may be arriving live: the stream's
         * resampler, which releases output sooner (the same samples) */
        r->soxr = sl_resampler_new(r->file_rate, r->out_rate, opt->quality, !r->seekable, name, err,
                                   errlen);
        r->mono = malloc(sizeof(float) * (size_t)r->block_frames);
        if (!r->soxr)
            goto fail;
        if (!r->mono) {
            sl_io_err(err, errlen, "%s: out of memory", name);
            goto fail;
        }
    }
    return r;
fail:
    sl_audio_close(r);
    return NULL;
}

int sl_audio_rate(const sl_audio_reader *r) { return r->out_rate; }
int sl_audio_file_rate(const sl_audio_reader *r) { return r->file_rate; }
int sl_audio_channels(const sl_audio_reader *r) { return r->channels; }
int64_t sl_audio_file_frames(const sl_audio_reader *r) { return r->file_frames; }
int sl_audio_file_format(const sl_audio_reader *r) { return r->format; }
int64_t sl_audio_file_position(const sl_audio_reader *r) { return r->pos; }

int sl_audio_channel_map(const sl_audio_reader *r, int *map)
{
    if (r->media || !r->sf ||
        !sf_command(r->sf, SFC_GET_CHANNEL_MAP_INFO, map, (int)sizeof *map * r->channels))
        return -1;
    for (int c = 0; c < r->channels; c++)
        if (map[c] <= SF_CHANNEL_MAP_INVALID || map[c] >= SF_CHANNEL_MAP_MAX)
            return -1;
    return 0;
}

int sl_audio_recording_start(const sl_audio_reader *r, int64_t *us)
{
    if (!r || !r->has_recorded)
        return -1;
    *us = r->recorded_us;
    return 0;
}

/* Reads up to `max` (<= block_frames) frames from the file into dst as mono.
 * Returns the count, 0 at the end of the file, -1 on damage or non-finite
 * samples. */
static long read_mono(sl_audio_reader *r, float *dst, long max, char *err, size_t errlen)
{
    if (r->file_eof)
        return 0;
    if (max > r->block_frames)
        max = r->block_frames;
    const int ch = r->channels;
    float *buf = ch == 1 ? dst : r->block;
    /* The tap gets doubles, which hold every encoding's samples exactly; the
     * labeler the same floats sf_readf_float gives (the cast rounds as
     * libsndfile does: to nearest) */
    sf_count_t got;
    if (r->tap) {
        got = sf_readf_double(r->sf, r->tap_block, max);
        for (sf_count_t i = 0; i < got * ch; i++)
            buf[i] = (float)r->tap_block[i];
    } else {
        got = sf_readf_float(r->sf, buf, max);
    }
    if (got < max) {
        int code = sf_error(r->sf);
        if (code != SF_ERR_NO_ERROR) {
            sl_io_err(err, errlen, "%s: corrupt or unreadable audio data after sample %lld: %s",
                    r->name, (long long)(r->pos + (got > 0 ? got : 0)), sf_strerror(r->sf));
            return -1;
        }
        if (sl_media_source_error(r->media)) {
            sl_io_err(err, errlen, "%s: GStreamer's decoding stopped after sample %lld: %s",
                      r->name, (long long)(r->pos + (got > 0 ? got : 0)),
                      sl_media_source_error(r->media));
            return -1;
        }
    }
    if (got <= 0) {
        r->file_eof = 1;
        if (r->pos == 0) {
            sl_io_err(err, errlen, "%s: contains no audio (0 samples)", r->name);
            return -1;
        }
        if (r->check_length && r->pos < r->file_frames) {
            sl_io_err(err, errlen, "%s: truncated or corrupt: the header promises %lld samples, "
                    "only %lld could be decoded", r->name, (long long)r->file_frames,
                    (long long)r->pos);
            return -1;
        }
        /* a frame short is the decoder's to cut (its delay and padding);
         * more is frames missing */
        if (r->mp3_stated && r->pos + 1152 < r->file_frames) {
            sl_io_err(err, errlen, "%s: truncated: its Xing/Info tag promises %lld samples "
                      "(%.2f s), the file holds %lld (%.2f s)", r->name,
                      (long long)r->file_frames, (double)r->file_frames / r->file_rate,
                      (long long)r->pos, (double)r->pos / r->file_rate);
            return -1;
        }
        if (r->pos < r->promised_frames) {
            sl_io_err(err, errlen, "%s: truncated: the header promises %lld samples (%.2f s), "
                      "the file holds %lld (%.2f s)", r->name, (long long)r->promised_frames,
                      (double)r->promised_frames / r->file_rate, (long long)r->pos,
                      (double)r->pos / r->file_rate);
            return -1;
        }
        return 0;
    }
    const long n = (long)got;
    const long total = n * ch;
    for (long i = 0; i < total; i++) {
        if (!isfinite(buf[i])) {
            /* samples come as float: a double past float's range is Inf here */
            const int dbl = (r->format & SF_FORMAT_SUBMASK) == SF_FORMAT_DOUBLE;
            sl_io_err(err, errlen, "%s: non-finite sample (%s) at sample %lld%s", r->name,
                    isnan(buf[i]) ? "NaN" : dbl ? "Inf, or a double beyond float's 3.4e38" : "Inf",
                    (long long)(r->pos + i / ch),
                    ch > 1 ? " (a multi-channel frame)" : "");
            return -1;
        }
    }
    if (r->tap)
        r->tap(r->tap_user, r->tap_block, n, ch);
    if (ch > 1)
        sl_downmix(buf, n, ch, r->channel, dst);
    r->pos += n;
    return n;
}

/* Reads no more of the file than the `max` samples asked need (at the file's
 * rate, and the resampler's delay on the first read): a whole block read from a
 * live pipe would wait for it to fill (16384 samples: 2 s at 8 kHz) before the
 * samples it already holds could be labelled. soxr's output does not depend on
 * how its input is cut. */
static long read_resampled(sl_audio_reader *r, float *out, long max, char *err, size_t errlen)
{
    long total = 0;
    while (total < max && !r->done) {
        if (r->mono_off == r->mono_len && !r->file_eof) {
            double need = ceil((double)(max - total) * r->file_rate / r->out_rate);
            long want = need < (double)r->block_frames ? (long)need : r->block_frames;
            long n = read_mono(r, r->mono, want > 0 ? want : 1, r->failure, sizeof r->failure);
            if (n < 0) { /* the samples before it, through the resampler's tail, go first */
                r->failing = 1;
                r->file_eof = 1;
                n = 0;
            }
            r->mono_len = n;
            r->mono_off = 0;
        }
        /* All of the file taken: a null input asks soxr for its tail. */
        const int flush = r->file_eof && r->mono_off == r->mono_len;
        const size_t avail = (size_t)(r->mono_len - r->mono_off);
        size_t used = 0, made = 0;
        soxr_error_t e = soxr_process(r->soxr, flush ? NULL : r->mono + r->mono_off,
                                      flush ? 0 : avail, &used, out + total,
                                      (size_t)(max - total), &made);
        if (e) {
            sl_io_err(err, errlen, "%s: resampling failed: %s", r->name, e);
            return -1;
        }
        r->mono_off += (long)used;
        total += (long)made;
        if (made == 0) {
            if (flush)
                r->done = 1; /* the tail is delivered */
            else if (used == 0 && avail > 0) {
                sl_io_err(err, errlen, "%s: the resampler stopped making progress", r->name);
                return -1;
            }
        }
    }
    return total;
}

long sl_audio_read(sl_audio_reader *r, float *out, long max, char *err, size_t errlen)
{
    if (max < 0) { /* 0 would read as the end of the file */
        sl_io_err(err, errlen, "%s: a read of %ld samples", r->name, max);
        return -1;
    }
    if (max == 0)
        return 0;
    long total = 0;
    if (r->failing == 2) {
        total = -1;
    } else if (r->soxr) {
        total = read_resampled(r, out, max, err, errlen);
    } else { /* same rate: fill `out` directly, one block at a time */
        while (total < max && !r->failing) {
            long n = read_mono(r, out + total, max - total, r->failure, sizeof r->failure);
            if (n < 0)
                r->failing = 1;
            if (n <= 0)
                break;
            total += n;
        }
    }
    if (r->failing && total == 0) { /* every sample before the failure handed over */
        r->failing = 2;
        total = -1;
    }
    if (total < 0 && r->failing)
        sl_io_err(err, errlen, "%s", r->failure);
    return total;
}
