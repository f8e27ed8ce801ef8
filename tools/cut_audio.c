/* `seqlabel label --cut` and `--split`: the frames a labelling kept, as audio at
 * the input's rate and channels (in the container OUT's extension names, else
 * the input's, with its encoding where that fits), the rest dropped or
 * silenced; or each run of kept frames as a file of its own. Frame f
 * covers the samples of its time span (sl_frame_start_sample), as the
 * element's gate has it, and samples after the last frame follow it.
 *
 * One pass, like the gate: the reader hands over the input's own samples as it
 * reads them (a tap), and they wait here until the frames covering them are
 * decided, about the labeler's latency later. So standard input and headerless
 * files are cut too, and the queue stays short whatever the input's length. */
#include "tools/cut_audio.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sndfile.h>

#include "io/sample_bytes.h"
#include "tools/cli.h"

#define CUT_RUN 8192 /* sample frames a run of one decision waits at most before it is written */

/* A FLAC cut into a pipe (libsndfile's virtual I/O). At its end libFLAC
 * seeks back to fill in the stream's length and MD5; libsndfile takes a
 * pipe's seek for done, so those bytes were appended and the stream ended in
 * garbage that readers lose sync on. Here a seek that a pipe cannot make
 * fails, and what is written until a seek comes back to the pipe's end is
 * dropped: the stream keeps its length and MD5 unknown, as FLAC allows. */
typedef struct {
    int fd;
    sf_count_t at;   /* bytes written to the pipe */
    sf_count_t seek; /* where libsndfile thinks it is */
} pipe_out;

static sf_count_t pipe_length(void *user)
{
    return ((pipe_out *)user)->at;
}

static sf_count_t pipe_seek(sf_count_t offset, int whence, void *user)
{
    pipe_out *p = user;
    const sf_count_t from = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? p->seek : p->at;
    const sf_count_t to = from + offset;
    p->seek = to;
    if (to == p->at)
        return to;
    errno = ESPIPE;
    return -1;
}

static sf_count_t pipe_read(void *ptr, sf_count_t count, void *user)
{
    (void)ptr, (void)count, (void)user;
    errno = EBADF;
    return -1;
}

static sf_count_t pipe_write(const void *ptr, sf_count_t count, void *user)
{
    pipe_out *p = user;
    if (p->seek != p->at) { /* meant for a place the pipe has passed */
        p->seek += count;
        return count;
    }
    sf_count_t done = 0;
    while (done < count) {
        ssize_t n = write(p->fd, (const char *)ptr + done, (size_t)(count - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += n;
    }
    p->at += done;
    p->seek = p->at;
    return done;
}

static sf_count_t pipe_tell(void *user)
{
    return ((pipe_out *)user)->seek;
}

struct cli_cut {
    /* the file being written: the cut, or the current segment (--split) */
    cli_output o;
    SNDFILE *out;
    pipe_out pipe;            /* a FLAC cut into a pipe: what libsndfile writes through */
    SF_INFO oinfo;
    int *map;                 /* the input's channel map, written again; NULL: none */
    char *path;               /* its name, for messages */
    /* --split only (dir not NULL): DIR/STEM-NNNN_START-END.EXT per run of kept frames */
    char *dir, *stem, *ext;
    char **earlier;           /* pieces of stem an earlier split left in dir, and their */
    ino_t *earlier_ino;       /* files: those still there at the end were not written again */
    int n_earlier;
    int segments;
    int64_t seg_first;        /* the open segment's first frame */
    int64_t max_frames;       /* --split-max: the longest segment (0: no limit) */
    int64_t max_samples;      /* ... in the input's samples */
    float *seg_p;             /* ... and the target's probability of each of its frames */
    int channels, rate, hop, model_rate, silence;
    double *q;                /* samples not yet written or skipped, interleaved */
    int64_t q_off, q_len, q_cap; /* in sample frames: first queued, queued, room */
    int64_t q_start;          /* the input's index of the first queued sample frame */
    int64_t frames;           /* frames decided */
    int64_t written;          /* sample frames written into the file being written */
    int64_t in_frames;        /* the input's length in sample frames; -1: unknown */
    int64_t room;             /* > 0: the sample frames the container's sizes can count */
    const char *room_said;    /* ... in words: "an AIFF file's 4 GiB" */
    int run_keep;             /* the decision of the run of frames being gathered */
    int failed;               /* 1: out of memory, 2: write failed, 3: said already,
                                 4: the container's room (room) would be passed */
    int write_errno;          /* why the write failed (EPIPE: standard output's reader left) */
};

/* A WAV cut of a WAVE_FORMAT_EXTENSIBLE input with a channel mask is one too:
 * libsndfile writes a map into a WAV only as that header's mask (a plain WAV,
 * format tag 1, has no room for it, and a 5.1 input's cut played as 6 unnamed
 * channels). Only a mask read is one that can be written: a CAF's or AIFF's
 * layout in another order (L C R ...) or of speakers a mask has no bit for
 * (Ambisonics) would be written as libsndfile's default mask, other speakers
 * than the input's, so such a WAV cut stays plain, as its map is lost.
 * Encodings WAVEX lacks (ADPCM, GSM) stay plain too. */
static int wav_for_map(const cli_cut *c, int format, int in_format)
{
    SF_INFO x = {.samplerate = c->rate, .channels = c->channels,
                 .format = SF_FORMAT_WAVEX | (format & ~SF_FORMAT_TYPEMASK)};
    const int wav = (format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV;
    const int in = in_format & SF_FORMAT_TYPEMASK;
    const int masked = in == SF_FORMAT_WAVEX || in == SF_FORMAT_RF64;
    return c->map && wav && masked && sf_format_check(&x) ? x.format : format;
}

/* Keeps the input's channel map (in_map: c->channels entries; NULL: none), for
 * every file written. -1 (said) when out of memory. */
static int keep_map(cli_cut *c, const int *in_map)
{
    if (!in_map)
        return 0;
    if (!(c->map = malloc(sizeof *c->map * (size_t)c->channels)))
        return cli_error("out of memory"), -1;
    memcpy(c->map, in_map, sizeof *c->map * (size_t)c->channels);
    return 0;
}

/* The output format for a file named `name`, or -1 (said) when libsndfile
 * cannot write it. */
static int check_format(cli_cut *c, const char *name, int in_format)
{
    c->oinfo = (SF_INFO){.samplerate = c->rate, .channels = c->channels};
    int f = cli_asterisk_format(name, c->rate, c->channels);
    if (f == 0)
        return -1;
    /* a name of audio read here but not written by that name (GStreamer's
     * .m4a, .mka, ...; libsndfile's .mp2, .snd, .sph): the input's container
     * under it (a WAV named .m4a) opens in no player as what it says */
    if (f < 0 && cli_name_read_not_written(name))
        return cli_error("%s: %s is read here, not written: name the cut .wav, .flac, .ogg, "
                         ".opus or .mp3", name, cli_extension(name)), -1;
    c->oinfo.format = wav_for_map(c, f > 0 ? f : cli_output_format(name, in_format, c->rate,
                                                                    c->channels), in_format);
    if ((c->oinfo.format & SF_FORMAT_TYPEMASK) == SF_FORMAT_SD2)
        return cli_error("%s: libsndfile writes Sound Designer II (its resource fork) only to a "
                         "file it opens by name, not to the temporary file a cut is written to: "
                         "name it .aiff, .wav or .flac", name), -1;
    if (sf_format_check(&c->oinfo))
        return 0;
    if (c->oinfo.format == 0 && !cli_output_container(name, NULL))
        return cli_error("%s: not a container libsndfile writes (the input's is none either): "
                         "name it .wav, .flac, .ogg, .mp3, ...", name), -1;
    /* a container libsndfile writes, but in no encoding at this rate and
     * channel count (SDS and HTK are mono): said below */
    cli_error("%s: libsndfile cannot write this format at %d Hz, %d channel%s", name, c->rate,
              c->channels, c->channels > 1 ? "s" : "");
    return -1;
}

/* The sample frames a container other than WAV can count (frame_bytes a
 * frame; room32: what 32-bit byte sizes hold), past which libsndfile writes a
 * file that reads back short or not at all (checked by hand, 2026-12-07), in
 * words in *said; 0: no such limit. */
static int64_t container_room(int major, int64_t frame_bytes, int64_t room32, const char **said)
{
    switch (major) {
    case SF_FORMAT_AIFF: /* the SSND chunk's 32-bit size */
        return *said = "an AIFF file's 4 GiB", room32;
    case SF_FORMAT_SDS: /* 21 bits of sample frames */
        return *said = "an SDS file's 2,097,151 sample frames", ((int64_t)1 << 21) - 1;
    case SF_FORMAT_VOC: /* a block's 24-bit size (type 1 or 9) */
        return *said = "a VOC file's 16 MiB", (((int64_t)1 << 24) - 64) / frame_bytes;
    case SF_FORMAT_HTK: /* a 32-bit count of samples */
        return *said = "an HTK file's 2^31 samples", INT32_MAX;
    default:
        return *said = NULL, 0;
    }
}

/* Starts writing `path` (under a temporary name). -1 when it cannot (said). */
static int open_file(cli_cut *c, const char *path)
{
    free(c->path);
    if (!(c->path = strdup(path)))
        return cli_error("out of memory"), -1;
    if (cli_output_open(&c->o, path, "wb") != 0)
        return -1;
    SF_INFO info = c->oinfo;
    /* A WAV's 32-bit sizes wrap past 4 GiB, and the file reads back short. An
     * input that long is cut into RF64 (libsndfile makes it a WAV again at the
     * end, WAVE_FORMAT_EXTENSIBLE, if the cut stays under 4 GiB); one of unknown
     * length (a stream) into a WAV that stops, said, before its sizes wrap. An
     * AIFF's SSND chunk wraps alike (a 4.4 GB cut read back as 35 s of 1900),
     * and has no 64-bit form: it stops, said, whatever the input's length. */
    SF_INFO rf64 = {.samplerate = info.samplerate, .channels = info.channels,
                    .format = SF_FORMAT_RF64 | (info.format & ~SF_FORMAT_TYPEMASK)};
    const int major = info.format & SF_FORMAT_TYPEMASK, sub = info.format & SF_FORMAT_SUBMASK;
    const int b = sl_sample_bytes(info.format);
    /* a coding of blocks takes at most a byte a sample (ADPCM, GSM, G.72x),
     * DWVW up to its word and a little */
    const int dwvw = sub == SF_FORMAT_DWVW_12 || sub == SF_FORMAT_DWVW_16 ||
                     sub == SF_FORMAT_DWVW_24 || sub == SF_FORMAT_DWVW_N;
    const int64_t frame_bytes = (int64_t)info.channels * (b ? b : dwvw ? 4 : 1);
    const int64_t room = (((int64_t)1 << 32) - ((int64_t)1 << 20)) / frame_bytes;
    const int wav = major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX;
    const int grow = wav && c->in_frames >= room && sf_format_check(&rf64);
    if (grow)
        info = rf64;
    /* a plain WAV's room is said as its own (close_file: room_said NULL) */
    c->room = container_room(major, frame_bytes, room, &c->room_said);
    if (wav && !grow)
        c->room = room;
    c->written = 0;
    struct stat st; /* before libsndfile, which closes a descriptor it fails on */
    const int given_fd = !strcmp(path, "-") || c->o.out.through >= 0; /* /dev/stdout too */
    const int regular = fstat(fileno(c->o.fp), &st) == 0 && S_ISREG(st.st_mode);
    const int piped = given_fd && !regular;
    if (given_fd && regular && (fcntl(fileno(c->o.fp), F_GETFL) & O_APPEND)) {
        /* the header, finished last, would land at the file's end */
        cli_error("%s: a file opened for appending (>>): a cut's header is finished last, in "
                  "place, which appending would put at the file's end (redirect with >)", path);
        cli_output_abort(&c->o);
        return -1;
    }
    /* refused here, before libsndfile writes a byte: an SDS into a pipe is
     * written, but reads back as none; an AIFF's header went out (54 bytes)
     * before libsndfile refused the pipe */
    const char *no_pipe = !piped                     ? NULL
                          : major == SF_FORMAT_SDS  ? "an SDS file written there reads back as none"
                          : major == SF_FORMAT_AIFF ? "an AIFF's sizes are finished last, in place"
                                                    : NULL;
    errno = 0;
    if (no_pipe) {
        c->out = NULL;
    } else if (piped && major == SF_FORMAT_FLAC) {
        static SF_VIRTUAL_IO vio = {pipe_length, pipe_seek, pipe_read, pipe_write, pipe_tell};
        c->pipe = (pipe_out){fileno(c->o.fp), 0, 0};
        c->out = sf_open_virtual(&vio, SFM_WRITE, &info, &c->pipe);
    } else {
        c->out = sf_open_fd(fileno(c->o.fp), SFM_WRITE, &info, 0);
    }
    if (!c->out && piped && !no_pipe && errno == EPIPE) {
        /* the reader left before the header (AU writes it at once): the first
         * frame stops the labelling, and the command ends as by SIGPIPE */
        cli_output_abort(&c->o);
        c->failed = 2;
        c->write_errno = EPIPE;
        return 0;
    }
    if (!c->out && piped) { /* WAV and others finish their header last */
        cli_error("%s: libsndfile cannot write this container into a pipe (%s): write the cut "
                  "to a file (--cut FILE, or standard output redirected to one: > cut.wav), or "
                  "cut FLAC, Ogg or AU audio, which stream", path,
                  no_pipe ? no_pipe : sf_strerror(NULL));
        cli_output_abort(&c->o);
        return -1;
    }
    if (!c->out) {
        cli_error("%s: %s", path, sf_strerror(NULL));
        cli_output_abort(&c->o);
        return -1;
    }
    /* samples beyond full scale (float input) into integer samples: clipped,
     * not wrapped (FLAC wrote silence) */
    sf_command(c->out, SFC_SET_CLIPPING, NULL, SF_TRUE);
    /* before any sample: the header is finished at the end, the map with it
     * (WAVEX, RF64, CAF, AIFF; containers without one refuse it) */
    if (c->map)
        sf_command(c->out, SFC_SET_CHANNEL_MAP_INFO, c->map, (int)sizeof *c->map * c->channels);
    if (grow)
        sf_command(c->out, SFC_RF64_AUTO_DOWNGRADE, NULL, SF_TRUE);
    return 0;
}

/* Ends the file being written: renamed into place as final_path (NULL: its own
 * name), or removed when writing failed. 0, or 1 (said). */
static int close_file(cli_cut *c, const char *final_path)
{
    int rc = 0;
    const char *name = final_path ? final_path : c->path; /* the name the user will look for */
    const int major = c->oinfo.format & SF_FORMAT_TYPEMASK;
    if (!c->failed && c->written == 0 && (major == SF_FORMAT_FLAC || major == SF_FORMAT_MPEG))
        /* nothing kept: FLAC and MP3 write their header only with the first
         * samples, and a 0-byte file is none of theirs (Ogg's is written at
         * once: asked again, it would be written twice) */
        sf_command(c->out, SFC_UPDATE_HEADER_NOW, NULL, 0);
    if (c->failed == 1)
        rc = cli_error("%s: out of memory", name);
    else if (c->failed == 2 && c->write_errno == EPIPE && !strcmp(c->path, "-"))
        rc = 1; /* standard output's reader left: the command ends as by SIGPIPE */
    else if (c->failed == 2)
        /* the system's reason as it says it, not libsndfile's "System error : ..." */
        rc = cli_error("%s: write failed: %s", name,
                       c->write_errno ? strerror(c->write_errno) : sf_strerror(c->out));
    else if (c->failed == 4 && c->room_said)
        rc = cli_error("%s: the cut would pass %s, where its sizes wrap: name it .w64, .rf64, "
                       ".caf or .flac", name, c->room_said);
    else if (c->failed == 4)
        rc = cli_error("%s: the cut would pass a WAV file's 4 GiB, where its sizes wrap (the "
                       "input's length was not known, so it was not begun as RF64): name it "
                       ".rf64, .w64 or .flac", name);
    if (sf_close(c->out) != 0 && rc == 0)
        rc = cli_error("%s: write failed", name);
    c->out = NULL;
    if (rc || c->failed) {
        cli_output_abort(&c->o);
        return 1;
    }
    return cli_output_commit_as(&c->o, final_path) ? 1 : 0;
}

static cli_cut *new_cut(int rate, int channels, int hop, int model_rate, int64_t in_frames)
{
    cli_cut *c = calloc(1, sizeof *c);
    if (!c) {
        cli_error("out of memory");
        return NULL;
    }
    c->channels = channels;
    c->rate = rate;
    c->hop = hop;
    c->model_rate = model_rate;
    c->in_frames = in_frames;
    return c;
}

cli_cut *cli_cut_open(const char *out_path, int in_format, const int *in_map, int64_t in_frames,
                      int rate, int channels, int hop, int model_rate, int silence)
{
    cli_cut *c = new_cut(rate, channels, hop, model_rate, in_frames);
    if (!c)
        return NULL;
    c->silence = silence;
    if (keep_map(c, in_map) != 0 || check_format(c, out_path, in_format) != 0 ||
        open_file(c, out_path) != 0) {
        cli_cut_abort(c);
        return NULL;
    }
    return c;
}

int cli_is_piece_name(const char *name, const char *stem, const char *ext)
{
    const size_t n = strlen(stem), e = strlen(ext), len = strlen(name);
    if (len <= n + e || strncmp(name, stem, n) || name[n] != '-' ||
        strcasecmp(name + len - e, ext))
        return 0;
    const char *p = name + n + 1;
    int digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (digits < 4 || *p++ != '_')
        return 0;
    for (int times = 0; times < 2; times++) { /* START '-' END: digits '.' 3 digits */
        if (!isdigit((unsigned char)*p))
            return 0;
        while (isdigit((unsigned char)*p))
            p++;
        if (p[0] != '.' || !isdigit((unsigned char)p[1]) || !isdigit((unsigned char)p[2]) ||
            !isdigit((unsigned char)p[3]))
            return 0;
        p += 4;
        if (times == 0 && *p++ != '-')
            return 0;
    }
    return p == name + len - e;
}

/* The pieces of stem an earlier split left in dir (their names and inodes,
 * into c), so that those this run does not write again can be said at its
 * end: the pieces of two runs (other settings: other times) mix, and a
 * batch reading the folder takes both. A rerun with the same settings
 * replaces each. -1 (said) when out of memory. */
static int note_earlier_pieces(cli_cut *c)
{
    DIR *d = opendir(c->dir[0] ? c->dir : "/");
    int rc = 0;
    for (struct dirent *e; d && !rc && (e = readdir(d)) != NULL;) {
        char path[4096];
        struct stat st; /* the file a link leads to, which a piece replaces */
        snprintf(path, sizeof path, "%s/%s", c->dir, e->d_name);
        if (!cli_is_piece_name(e->d_name, c->stem, c->ext) || stat(path, &st) != 0)
            continue;
        char **names = realloc(c->earlier, sizeof *names * (size_t)(c->n_earlier + 1));
        ino_t *inos = names ? realloc(c->earlier_ino, sizeof *inos * (size_t)(c->n_earlier + 1))
                            : NULL;
        if (names)
            c->earlier = names;
        if (inos)
            c->earlier_ino = inos;
        if (!names || !inos || !(names[c->n_earlier] = strdup(e->d_name))) {
            cli_error("out of memory");
            rc = -1;
        } else {
            inos[c->n_earlier++] = st.st_ino;
        }
    }
    if (d)
        closedir(d);
    return rc;
}

/* At a split's end: the earlier pieces still there as they were (the same
 * file: this run's pieces are renamed into place, new files). Said, not an
 * error: the pieces written are whole. */
static void say_earlier_pieces_left(const cli_cut *c)
{
    int left = 0;
    const char *first = NULL;
    for (int i = 0; i < c->n_earlier; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", c->dir, c->earlier[i]);
        if (stat(path, &st) == 0 && st.st_ino == c->earlier_ino[i] && !left++)
            first = c->earlier[i];
    }
    if (left)
        cli_error("%s/: %d piece%s of %s%s from an earlier split %s still there, not written "
                  "again by this one (%s%s): the two runs' pieces mix; remove %s", c->dir, left,
                  left == 1 ? "" : "s", c->stem, c->ext, left == 1 ? "is" : "are", first,
                  left > 1 ? ", ..." : "", left == 1 ? "it" : "them");
}

cli_cut *cli_split_open(const char *dir, const char *stem, const char *ext, int in_format,
                        const int *in_map, int64_t in_frames, int rate, int channels, int hop,
                        int model_rate, double max_s)
{
    cli_cut *c = new_cut(rate, channels, hop, model_rate, in_frames);
    if (!c)
        return NULL;
    c->dir = strdup(dir);
    /* pieces are dir/NAME: one '/' between, whatever --split ended with */
    for (size_t n = c->dir ? strlen(c->dir) : 0; n > 0 && c->dir[n - 1] == '/'; n--)
        c->dir[n - 1] = '\0'; /* "/" becomes "", so its pieces are /NAME */
    c->stem = strdup(stem);
    c->ext = strdup(ext);
    c->max_frames = max_s > 0 ? (int64_t)(max_s * model_rate / hop) : 0;
    c->max_samples = (int64_t)(max_s * rate);
    if (max_s > 0 && c->max_frames < 1)
        c->max_frames = 1;
    c->seg_p = c->max_frames ? malloc(sizeof *c->seg_p * (size_t)(c->max_frames + 1)) : NULL;
    char name[300];
    snprintf(name, sizeof name, "%s%s", stem, ext);
    if (!c->dir || !c->stem || !c->ext || (c->max_frames && !c->seg_p)) {
        cli_error("out of memory");
        cli_cut_abort(c);
        return NULL;
    }
    /* a piece's name, its number and times added to the input's, may pass
     * what a file system takes (255 bytes) where the input's did not: said
     * before the first piece, not at the one whose times or number are
     * longest (a stream's length unknown, as of 11 days; a piece a frame at
     * least) */
    const double longest = in_frames >= 0 ? (double)in_frames / rate : 1e6;
    const long long most = (long long)(longest * model_rate / hop) + 1;
    const int piece = snprintf(NULL, 0, "%s-%04lld_%.3f-%.3f%s", stem, most, longest, longest, ext);
    if (piece > NAME_MAX) {
        cli_error("%s/%s-0001_START-END%s: a piece's name would have %d bytes, more than a file "
                  "name may (%d): give the input a shorter name", c->dir, stem, ext, piece,
                  NAME_MAX);
        cli_cut_abort(c);
        return NULL;
    }
    if (keep_map(c, in_map) != 0 || check_format(c, name, in_format) != 0) {
        cli_cut_abort(c);
        return NULL;
    }
    if (note_earlier_pieces(c) != 0) {
        cli_cut_abort(c);
        return NULL;
    }
    return c;
}

void cli_cut_samples(cli_cut *c, const double *frames, long n_frames, int channels)
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
        double *q = realloc(c->q, sizeof *q * (size_t)cap * ch);
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
    double *p = c->q + c->q_off * c->channels;
    if (!c->run_keep && c->silence)
        memset(p, 0, sizeof *p * (size_t)n * (size_t)c->channels);
    if ((c->run_keep || c->silence) && c->out && c->room && c->written + n > c->room) {
        c->failed = 4;
        return;
    }
    if ((c->run_keep || c->silence) && c->out) {
        errno = 0;
        if (sf_writef_double(c->out, p, n) != n) {
            c->failed = 2;
            c->write_errno = errno;
        }
        c->written += n;
    }
    c->q_off += n;
    c->q_len -= n;
    c->q_start += n;
}

static double frame_time(const cli_cut *c, int64_t f)
{
    return (double)f * c->hop / c->model_rate;
}

/* --split: the segment of kept frames from frame seg_first to `end` is complete. */
static void end_segment(cli_cut *c, int64_t end)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%04d_%.3f-%.3f%s", c->dir, c->stem, c->segments,
             frame_time(c, c->seg_first), frame_time(c, end), c->ext);
    if (close_file(c, path) != 0)
        c->failed = 3;
}

/* --split: a segment of kept frames starts at frame `first`; written under a
 * name with its number until its end is known. */
static void start_segment(cli_cut *c, int64_t first)
{
    char path[4096];
    c->segments++;
    c->seg_first = first;
    snprintf(path, sizeof path, "%s/%s-%04d%s", c->dir, c->stem, c->segments, c->ext);
    if (open_file(c, path) != 0)
        c->failed = 3;
}

static int64_t frame_start(const cli_cut *c, int64_t f)
{
    return sl_frame_start_sample(f, c->hop, c->rate, c->model_rate);
}

/* --split-max: the open segment has reached the longest a segment may be (frame
 * `f` would make it longer): it ends at its least likely frame of its last
 * third (the latest of equals), where the next one starts. */
static void split_long_segment(cli_cut *c, int64_t f)
{
    int64_t first = c->seg_first, lo = first + c->max_frames - c->max_frames / 3, at = f;
    for (int64_t g = lo; g < f; g++)
        if (at == f || c->seg_p[g - first] <= c->seg_p[at - first])
            at = g;
    flush_before(c, frame_start(c, at));
    end_segment(c, at);
    if (c->failed)
        return;
    start_segment(c, at);
    memmove(c->seg_p, c->seg_p + (at - first), sizeof *c->seg_p * (size_t)(f - at));
}

/* --split-max: the input ends in a kept segment, which the samples after its
 * last frame (the rest of its window) would make longer than S: it ends, as
 * one that reached S does, at its least likely frame of its last third (the
 * latest of equals), of those that leave the rest no longer than S. None
 * does only where S is shorter than about a window and a half. */
static void split_at_end(cli_cut *c)
{
    const int64_t end = c->q_start + c->q_len, first = c->seg_first, f = c->frames;
    if (end - frame_start(c, first) <= c->max_samples)
        return;
    int64_t at = f;
    for (int64_t g = first + c->max_frames - c->max_frames / 3; g < f; g++)
        if (end - frame_start(c, g) <= c->max_samples &&
            (at == f || c->seg_p[g - first] <= c->seg_p[at - first]))
            at = g;
    if (at == f)
        return;
    flush_before(c, frame_start(c, at));
    end_segment(c, at);
    if (!c->failed)
        start_segment(c, at);
}

int cli_cut_frame(cli_cut *c, int keep, float p)
{
    int64_t f = c->frames;
    int changed = f > 0 && keep != c->run_keep;
    /* the samples before this frame belong to the run before it; with
     * --split-max the last third of a segment's longest waits, for a split */
    int64_t hold = c->max_frames ? c->max_frames / 3 + 1 : 0;
    if (changed)
        flush_before(c, frame_start(c, f));
    else if (f > hold && frame_start(c, f - hold) - c->q_start >= CUT_RUN)
        flush_before(c, frame_start(c, f - hold));
    if (c->dir && changed && c->run_keep && c->out)
        end_segment(c, f);
    if (c->dir && keep && (changed || f == 0) && !c->failed)
        start_segment(c, f);
    else if (c->max_frames && keep && c->out && f - c->seg_first == c->max_frames)
        split_long_segment(c, f);
    if (c->max_frames && keep && c->out)
        c->seg_p[f - c->seg_first] = p;
    c->run_keep = keep;
    c->frames++;
    return c->failed ? -1 : 0;
}

static void free_cut(cli_cut *c)
{
    free(c->q);
    free(c->map);
    free(c->path);
    free(c->dir);
    free(c->stem);
    free(c->ext);
    free(c->seg_p);
    for (int i = 0; i < c->n_earlier; i++)
        free(c->earlier[i]);
    free(c->earlier);
    free(c->earlier_ino);
    free(c);
}

int cli_cut_finish(cli_cut *c)
{
    if (c->dir && c->max_frames && c->run_keep && c->out && !c->failed)
        split_at_end(c);
    flush_before(c, INT64_MAX); /* the last frame's run (none: not kept) takes the rest */
    if (c->out) {
        if (c->dir)
            end_segment(c, c->frames);
        else if (close_file(c, NULL) != 0)
            c->failed = 3;
    }
    if ((c->failed == 1 || c->failed == 2) && !cli_cut_reader_gone(c)) /* not said: no file was open */
        cli_error("%s: %s", c->path ? c->path : c->dir, c->failed == 1 ? "out of memory" : "write failed");
    if (c->dir && !c->failed)
        say_earlier_pieces_left(c);
    int rc = c->failed != 0;
    free_cut(c);
    return rc;
}

void cli_cut_abort(cli_cut *c)
{
    if (!c)
        return;
    if (c->out) {
        sf_close(c->out);
        cli_output_abort(&c->o);
    }
    free_cut(c);
}

int cli_cut_reader_gone(const cli_cut *c)
{
    return c && c->failed == 2 && c->write_errno == EPIPE && c->path && !strcmp(c->path, "-");
}
