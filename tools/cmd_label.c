/* `seqlabel label FILE...`: a label for every frame of audio files (and of the
 * audio files below folders: tools/input_tree.c), written as an Audacity label
 * track, a per-frame table, JSON Lines, RTTM, TextGrid, WebVTT, SubRip or a
 * summary, and their audio cut or split by class (tools/cut_audio.c). Each file is streamed in
 * blocks through the streaming labeler (the same code the GStreamer element
 * runs), so memory does not grow with the file's length; each output appears
 * (by rename) only when its file was labelled completely. Several files may be
 * labelled at once by worker processes (--jobs: tools/jobs.c). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "common/blas_threads.h"
#include "common/memory.h"
#include "model/model_internal.h" /* sl_labeler_plan */

#include "seqlabel.h"
#include "common/output_file.h"
#include "common/text.h"
#include "io/io_internal.h" /* sl_audio_channel_map */
#include "tools/cli.h"
#include "tools/cut_audio.h"
#include "tools/input_tree.h"
#include "tools/jobs.h"

#define READ_BLOCK 8192 /* samples per read at least: bounded memory, negligible call overhead */

/* Samples per read: with T threads a push must carry T core blocks for the
 * labeler to run them at once (it never holds a ready block back for later). */
static long read_block(const sl_labeler *l, int threads)
{
    int core;
    sl_labeler_window(l, NULL, NULL, NULL, &core);
    long b = (long)threads * core * sl_labeler_frame_shift(l);
    return b > READ_BLOCK ? b : READ_BLOCK;
}

/* Input that arrives as it is made (a pipe, a FIFO, a terminal, a socket),
 * not a file that is all there: `arecord | seqlabel label -`. */
static int arrives_live(const char *path)
{
    struct stat st;
    int ok;
    if (strncmp(path, "fd://", 5) == 0) { /* what the descriptor is: `< file.wav` is a file */
        char *end;
        long fd = strtol(path + 5, &end, 10);
        ok = end != path + 5 && fd >= 0 && fd <= INT_MAX && fstat((int)fd, &st) == 0;
    } else if (sl_audio_is_uri(path)) { /* a stream from the network (file:// is a file) */
        return strncmp(path, "file://", 7) != 0;
    } else {
        ok = strcmp(path, "-") ? stat(path, &st) == 0 : fstat(STDIN_FILENO, &st) == 0;
    }
    return ok && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
}

/* The descriptor live input is read from, for Ctrl-C to end (-1: none, as a
 * network stream's, whose read watches the interrupt flag instead): standard
 * input for "-", else the newest this process holds on the pipe or device at
 * path (the reader's own, not a standard stream that is the same terminal). */
static int live_input_fd(const char *path)
{
    if (strcmp(path, "-") == 0)
        return STDIN_FILENO;
    struct stat want, st;
    DIR *d;
    if (sl_audio_is_uri(path) || stat(path, &want) != 0 || !(d = opendir("/proc/self/fd")))
        return -1;
    int fd = -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char *end;
        long n = strtol(e->d_name, &end, 10);
        if (end != e->d_name && *end == '\0' && n > STDERR_FILENO && n != dirfd(d) &&
            n > fd && fstat((int)n, &st) == 0 && st.st_dev == want.st_dev &&
            st.st_ino == want.st_ino)
            fd = (int)n;
    }
    closedir(d);
    return fd;
}

static void usage(FILE *fp)
{
    fprintf(fp,
        "usage: seqlabel label FILE... [OPTIONS]\n"
        "\n"
        "Labels every 10 ms frame of each FILE with the model's classes. FILE is any\n"
        "format libsndfile reads (any rate and channel count: downmixed to mono and\n"
        "resampled to the model's rate), any other that GStreamer decodes (.m4a .mp4\n"
        ".mkv .webm .wma ..., a video's sound), a URI GStreamer reads (http://...\n"
        "a radio stream, labelled as it arrives; fd://0: any media on standard\n"
        "input), a headerless telephony file that Asterisk names by its extension\n"
        "(.gsm .g722 .ulaw .alaw .sln .sln16 ...), '-' for standard input (WAV, or\n"
        "raw samples with --raw-format), or a folder: every audio file below it (by\n"
        "extension; with --raw-format its .raw and .pcm files), the outputs in -o DIR\n"
        "(and --cut DIR, --split DIR) in folders that mirror its tree.\n"
        "\n"
        "output:\n"
        "  -o, --output PATH       a file (one input), or a folder (PATH exists as one or\n"
        "                          ends in '/'; made if missing): one output per input\n"
        "                          named after it (.txt .tsv .jsonl .rttm .TextGrid\n"
        "                          .vtt .json .srt .csv).\n"
        "                          Default: standard output, where several inputs'\n"
        "                          audacity, frames, csv and jsonl lines name their\n"
        "                          file first (a column; jsonl: a \"file\" key: its name as\n"
        "                          in -o DIR, without extension), as rttm and summary\n"
        "                          lines do. Files are written under a\n"
        "                          temporary name and renamed when complete: a failure\n"
        "                          leaves no partial file; an output that is the input\n"
        "                          itself is refused\n"
        "  --format F              the output's format [the one -o FILE's extension\n"
        "                          names (.txt .tsv .jsonl .rttm .TextGrid .vtt .json\n"
        "                          .srt .csv, in the order below), else audacity; .xml\n"
        "                          .ass ... are refused]:\n"
        "    audacity              segments 'start<TAB>end<TAB>label' (Audacity: File >\n"
        "                          Import > Labels)\n"
        "    frames                TSV, one line per frame: frame, time, label,\n"
        "                          confidence and every class probability (%%.9g)\n"
        "    jsonl                 one JSON object per frame (--segments: per segment)\n"
        "    rttm                  a line per segment: 'SPEAKER <file> 1 <start> <dur>\n"
        "                          <NA> <NA> <label> <NA> <NA>'\n"
        "    textgrid              Praat TextGrid, one interval tier (also for ELAN);\n"
        "                          written whole when the input ends\n"
        "    webvtt                subtitles, a cue per segment (players, browsers)\n"
        "    summary               a JSON line per input when it ends: the duration its\n"
        "                          frames cover (15-25 ms short of the file's: the\n"
        "                          last window must fit) and each class's seconds,\n"
        "                          share and segments\n"
        "    srt                   SubRip subtitles, a numbered cue per segment\n"
        "    csv                   a CSV table of segments (spreadsheets, databases):\n"
        "                          header 'start,end,label,confidence', a row each\n"
        "  --segments              jsonl: one object per segment instead of per frame\n"
        "  --time-origin T         jsonl and summary: times as UTC too (\"utc\",\n"
        "                          \"start_utc\", \"end_utc\"), T being when the input\n"
        "                          began: now (when it is opened: live input, a radio\n"
        "                          stream), file (as the input says: a Broadcast WAVE\n"
        "                          file's origination date and time, local time: TZ),\n"
        "                          @SECONDS since 1970, or ISO 8601 with its zone\n"
        "                          (2026-12-05T10:00:00Z, ...T11:00:00+01:00)\n"
        "  --skip LIST             segment formats: leave out segments of these classes\n"
        "                          (e.g. silence, or silence,noise; textgrid: empty\n"
        "                          intervals; summary: not listed)\n"
        "  --only LIST             segment formats: only segments of these classes (e.g.\n"
        "                          --target speech --only speech: a VAD's segments)\n"
        "  --cut OUT               with --target: write the target class's audio of the\n"
        "                          input (a file, or '-' with the labels in -o FILE) to\n"
        "                          OUT, the rest dropped (the element's gate=drop), at\n"
        "                          the input's rate and channels, in the container OUT's\n"
        "                          extension names (.wav .flac .ogg .opus .aif ...;\n"
        "                          else the input's). A directory (several inputs): each\n"
        "                          input's cut under its own name ('-': stdin.wav)\n"
        "  --cut-silence           with --cut: the rest kept as silence (gate=silence)\n"
        "  --split DIR             with --target: each segment of the target class as a\n"
        "                          file of its own, DIR/NAME-0001_START-END.EXT (NAME and\n"
        "                          EXT the input's, START and END in seconds); in the\n"
        "                          input's format; --cut may be given too\n"
        "  --split-max S           with --split: no file longer than S seconds (0.1 or\n"
        "                          more); a longer segment is split at its least likely\n"
        "                          frame in the last third of S (for speech recognisers\n"
        "                          that take 30 s at most)\n"
        "\n"
        "model and windows:\n"
        "  --model PATH            model file [$SEQLABEL_MODEL, else the installed\n"
        "                          default %s,\n"
        "                          else, uninstalled, the source tree's\n"
        "                          model/default.slm]\n"
        "  --threads N             encoder threads; labels do not depend on it [1]\n"
        "  -j, --jobs N            label N inputs at a time, each in a process of its own\n"
        "                          (0: one per CPU it may use); the outputs, standard\n"
        "                          output too, are those of one at a time, in the\n"
        "                          inputs' order [1].\n"
        "                          On standard output, an input's labels come once it\n"
        "                          is done, and one that fails leaves none\n"
        "  --keep-existing         with -o DIR: an input whose output is there already\n"
        "                          (and its cut, with --cut DIR) is not labelled again:\n"
        "                          outputs are written whole or not at all, so a batch\n"
        "                          stopped part way resumes where it stopped\n"
        "  --left-context N        encoder window: frames of left context [the model's]\n"
        "  --lookahead N           frames of lookahead (latency) [the model's]\n"
        "  --window N              frames per encoder window [the model's]\n"
        "  --max-latency S         live input: labels final at most S seconds after\n"
        "                          their audio (the decoder's delay included): the\n"
        "                          model's window kept whole, its core shrunk, so more\n"
        "                          work per frame (0.015: a window per frame) [the\n"
        "                          model's own latency]; not with the three above\n"
        "  --clip-edges            cut the first and last windows short at the ends of\n"
        "                          the stream instead of filling them out with the\n"
        "                          model's silence frame (the labeling of seqlabel before\n"
        "                          2026-11-30)\n"
        "\n"
        "decoder (docs/labeling.md):\n"
        "  --smoothing none|viterbi\n"
        "                          viterbi: every label change costs --switch-penalty\n"
        "                          nats, decided --smoothing-lag frames late, so that\n"
        "                          flicker makes no segments; none: each frame's most\n"
        "                          probable class [viterbi]\n"
        "  --switch-penalty X      [5]\n"
        "  --smoothing-lag N       frames [5; under --max-latency, as many of 5 as it\n"
        "                          leaves]\n"
        "  --min-duration SPEC     per-class minimum segment durations in seconds, e.g.\n"
        "                          speech=0.2,music=0.5 (*=0.3: every class not named;\n"
        "                          shorter runs take the label before them; a stream's\n"
        "                          first segment is kept)\n"
        "  --target CLASS          voice-activity use: hysteresis on CLASS's probability\n"
        "  --on-threshold X        CLASS starts at p >= X [0.5]\n"
        "  --off-threshold X       ... and ends at p < X [0.35]\n"
        "  --pad-before S          CLASS segments start S seconds earlier [0]\n"
        "  --pad-after S           ... and end S seconds later [0]\n"
        "  --padding S             both (the element's property)\n"
        "  The element's property names work too:\n"
        "  --min-durations, --target-class, --threshold-on, --threshold-off,\n"
        "  --num-threads, --skip-classes, --only-classes\n"
        "\n"
        "input:\n"
        "  --channel N             label channel N alone (1 the first; a stereo call's\n"
        "                          two sides one run each), not the mean of all [0:\n"
        "                          the mean]; RTTM's channel column and --cut/--split\n"
        "                          (that channel's audio) follow it\n"
        "  --audio-stream N        read the file's audio stream N (1 the first) [1]: a\n"
        "                          film's other language, a podcast's other track\n"
        "                          (files GStreamer decodes: MKV, MP4, ...)\n"
        "  --stall-timeout S       input GStreamer decodes that gives no audio, no\n"
        "                          error and no end for S seconds fails, naming it\n"
        "                          (a network stream or mount that hangs); 0: wait\n"
        "                          for ever [30 for a file, none for a URI or pipe]\n"
        "  --raw-format ENC        headerless input: s16le|f32le|ulaw|alaw|gsm|g722\n"
        "                          (G.722: 64 kbit/s, files only), with --raw-rate\n"
        "  --raw-rate R            sample rate of headerless input\n"
        "  --raw-channels C        channels of headerless input [1]\n"
        "  -q, --quiet             no progress line (shown only when stderr is a\n"
        "                          terminal, not TERM=dumb)\n"
        "  -h, --help              this text\n"
        "\n"
        "Live input (a pipe, FIFO or terminal: arecord -f S16_LE -r 16000 | seqlabel\n"
        "label - --format jsonl) is read 0.1 s at a time and the labels on standard\n"
        "output appear as they become final: at most the model's latency + 0.1 s after\n"
        "their audio (with --threads 1, the default; input at another rate adds the\n"
        "resampler's delay); with --max-latency S read a hop at a time, at most S +\n"
        "0.01 s. Ctrl-C or SIGTERM (systemctl stop) ends live input: what was read is\n"
        "labelled to its end and the output kept; a second ends the command. An error\n"
        "that ends live input (a network stream that fails) keeps its labels too\n"
        "(exit 1).\n"
        "\n"
        "Errors (missing model, unreadable, corrupt or empty file or folder, NaN/Inf\n"
        "samples) print one line naming the file; the other files are still labelled and\n"
        "the exit status is 1. A wrong command line (an unknown option, a bad value)\n"
        "exits 2.\n",
        /* the source tree's path is not said: it would be the build machine's
         * in the manual page made from this text (not reproducible) */
        sl_installed_model_path());
}

enum {
    OPT_FORMAT = 256, OPT_SEGMENTS, OPT_TIME_ORIGIN, OPT_SKIP, OPT_MODEL, OPT_THREADS, OPT_LEFT, OPT_LOOKAHEAD,
    OPT_WINDOW, OPT_RAW, OPT_RAW_RATE, OPT_RAW_CH,
    OPT_CLIP_EDGES, OPT_CUT, OPT_CUT_SILENCE, OPT_SPLIT, OPT_SPLIT_MAX, OPT_JOBS, OPT_ONLY,
    OPT_KEEP_EXISTING,
    OPT_CHANNEL, OPT_MAX_LATENCY,
    OPT_AUDIO_STREAM, OPT_STALL,
};

static const struct option long_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"segments", no_argument, NULL, OPT_SEGMENTS},
    {"time-origin", required_argument, NULL, OPT_TIME_ORIGIN},
    {"skip", required_argument, NULL, OPT_SKIP},
    {"only", required_argument, NULL, OPT_ONLY},
    {"model", required_argument, NULL, OPT_MODEL},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"left-context", required_argument, NULL, OPT_LEFT},
    {"lookahead", required_argument, NULL, OPT_LOOKAHEAD},
    {"clip-edges", no_argument, NULL, OPT_CLIP_EDGES},
    {"window", required_argument, NULL, OPT_WINDOW},
    {"max-latency", required_argument, NULL, OPT_MAX_LATENCY},
    CLI_DECODER_LONG_OPTIONS, /* with the element's names of those options */
    /* The GStreamer element's property names, so a setting copies across. */
    {"num-threads", required_argument, NULL, OPT_THREADS},
    {"skip-classes", required_argument, NULL, OPT_SKIP},
    {"only-classes", required_argument, NULL, OPT_ONLY},
    {"raw-format", required_argument, NULL, OPT_RAW},
    {"raw-rate", required_argument, NULL, OPT_RAW_RATE},
    {"raw-channels", required_argument, NULL, OPT_RAW_CH},
    {"channel", required_argument, NULL, OPT_CHANNEL},
    {"audio-stream", required_argument, NULL, OPT_AUDIO_STREAM},
    {"stall-timeout", required_argument, NULL, OPT_STALL},
    {"cut", required_argument, NULL, OPT_CUT},
    {"cut-silence", no_argument, NULL, OPT_CUT_SILENCE},
    {"split", required_argument, NULL, OPT_SPLIT},
    {"split-max", required_argument, NULL, OPT_SPLIT_MAX},
    {"jobs", required_argument, NULL, 'j'},
    {"keep-existing", no_argument, NULL, OPT_KEEP_EXISTING},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct {
    const char *out_path, *model_path, *skip, *only, *cut_path, *split_dir;
    double split_max; /* --split-max seconds, 0: none */
    int cut_silence;
    sl_label_format format;
    int segments, quiet, jobs;
    int keep_existing; /* --keep-existing: inputs whose outputs exist are not labelled again */
    /* --time-origin now or file: each input's own opening or recording */
    enum { ORIGIN_NONE, ORIGIN_GIVEN, ORIGIN_NOW, ORIGIN_FILE } utc_from;
    int64_t utc_origin_us; /* --time-origin's moment (ORIGIN_GIVEN) */
    sl_labeler_config cfg; /* its decoder is `decoder`'s, once the model is known */
    cli_decoder decoder;
    sl_audio_options audio;
    unsigned char skipped[SL_MAX_CLASSES]; /* --skip/--only, read once: 1 for a class left out */
    /* several inputs on standard output in a format whose lines would not say
     * their file (Audacity, frames, JSON Lines): each line names it, and the
     * frames table has one header (sl_label_writer.name_lines) */
    int name_lines;
} label_args;

/* label_one's return when standard output's reader went away (`| head`):
 * nothing said; the command then ends as SIGPIPE ends one (label_inputs). */
#define READER_GONE 2

/* Why a write just failed (stdio may leave errno unset: EIO then). */
static int write_errno(void) { return errno ? errno : EIO; }

/* Writes each frame/segment as text; remembers the first write error. */
typedef struct {
    FILE *fp;
    int terminal; /* fp is a terminal (standard output, -o /dev/tty): a progress line there goes first */
    sl_label_writer w;
    char *buf;
    size_t cap;
    int failed; /* the errno of the first write that failed; 0: none did */
    /* --cut and --split: the audio of the frames labelled `target` (NULL: not
     * cutting, not splitting) */
    cli_cut *cuts[2];
    int target, cut_failed; /* bit c: cuts[c] failed */
    /* TextGrid: the segments, written whole at the end */
    sl_frame_segment *segs;
    size_t n_segs, segs_cap;
    int64_t frames; /* labelled so far: the TextGrid's end, whatever it leaves out */
} text_sink;

static int emit_text(text_sink *t, int n, int (*again)(text_sink *, void *), void *arg)
{
    if (n < 0)
        return -1;
    if ((size_t)n >= t->cap) { /* a long line (many classes): grow once, format again */
        char *b = realloc(t->buf, (size_t)n + 1);
        if (!b)
            return -1;
        t->buf = b;
        t->cap = (size_t)n + 1;
        n = again(t, arg);
    }
    if (t->terminal) /* labels on the terminal come on a line of their own */
        cli_progress_clear();
    if (n > 0 && fwrite(t->buf, 1, (size_t)n, t->fp) != (size_t)n) {
        t->failed = write_errno();
        return -1;
    }
    return 0;
}

typedef struct {
    int64_t index, start, end;
    int label;
    float conf;
    const float *probs;
} text_item;

static int format_frame(text_sink *t, void *arg)
{
    text_item *it = arg;
    return sl_label_format_frame(&t->w, t->buf, t->cap, it->index, it->label, it->conf, it->probs);
}

static int format_segment(text_sink *t, void *arg)
{
    text_item *it = arg;
    return sl_label_format_segment(&t->w, t->buf, t->cap, it->start, it->end, it->label, it->conf);
}

static int format_header(text_sink *t, void *arg)
{
    (void)arg;
    return sl_label_format_header(&t->w, t->buf, t->cap);
}

/* A document format (textgrid, summary) of the input's segments up to frame *arg. */
static int format_document(text_sink *t, void *arg)
{
    return sl_label_format_document(&t->w, t->buf, t->cap, t->segs, t->n_segs, *(int64_t *)arg);
}

static int text_on_frame(void *user, int64_t index, int label, float confidence, const float *probs,
                         int n_classes)
{
    (void)n_classes;
    text_sink *t = user;
    t->frames = index + 1;
    for (int c = 0; c < 2; c++)
        if (t->cuts[c] && cli_cut_frame(t->cuts[c], label == t->target, probs[t->target]) != 0) {
            t->cut_failed |= 1 << c;
            return -1;
        }
    if (!sl_label_format_is_per_frame(&t->w))
        return 0;
    text_item it = {.index = index, .label = label, .conf = confidence, .probs = probs};
    return emit_text(t, format_frame(t, &it), format_frame, &it);
}

static int text_on_segment(void *user, int64_t start, int64_t end, int label, float mean_conf)
{
    text_sink *t = user;
    if (sl_label_format_is_per_frame(&t->w))
        return 0;
    /* a document keeps the skipped classes' segments too: labelled time, which
     * a TextGrid writes as empty intervals and a summary counts in no class */
    if (sl_label_format_is_document(&t->w)) {
        if (t->n_segs == t->segs_cap) {
            size_t cap = t->segs_cap ? 2 * t->segs_cap : 256;
            sl_frame_segment *g = realloc(t->segs, cap * sizeof *g);
            if (!g)
                return -1;
            t->segs = g;
            t->segs_cap = cap;
        }
        t->segs[t->n_segs++] = (sl_frame_segment){start, end, label};
        return 0;
    }
    text_item it = {.start = start, .end = end, .label = label, .conf = mean_conf};
    return emit_text(t, format_segment(t, &it), format_segment, &it);
}

/* The input's channel map for its cut and pieces (malloc'd), so a 5.1 WAV's
 * cut plays as 5.1; NULL where it has none, or the cut is one channel of
 * several (--channel). */
static int *cut_channel_map(const sl_audio_reader *r, int cut_channels)
{
    if (cut_channels != sl_audio_channels(r))
        return NULL;
    int *map = malloc(sizeof *map * (size_t)cut_channels);
    if (map && sl_audio_channel_map(r, map) != 0) {
        free(map);
        map = NULL;
    }
    return map;
}

/* The reader's tap: --cut gets the input's own samples as they are read. */
static void cut_tap(void *user, const double *frames, long n_frames, int channels)
{
    text_sink *t = user;
    if (t->w.channel > 0 && channels > 1) { /* --channel: that one, a piece at a time */
        double one[1024];
        for (long done = 0; done < n_frames;) {
            long n = n_frames - done < 1024 ? n_frames - done : 1024;
            for (long i = 0; i < n; i++)
                one[i] = frames[(done + i) * channels + t->w.channel - 1];
            cut_tap(user, one, n, 1);
            done += n;
        }
        return;
    }
    for (int c = 0; c < 2; c++)
        if (t->cuts[c])
            cli_cut_samples(t->cuts[c], frames, n_frames, channels);
}

/* Each format's extension: of its files in -o DIR, and naming it in -o FILE. */
static const struct {
    sl_label_format format;
    const char *ext;
} extensions[] = {
    {SL_FORMAT_AUDACITY, ".txt"}, {SL_FORMAT_FRAMES, ".tsv"},     {SL_FORMAT_JSONL, ".jsonl"},
    {SL_FORMAT_RTTM, ".rttm"},    {SL_FORMAT_TEXTGRID, ".TextGrid"}, {SL_FORMAT_WEBVTT, ".vtt"},
    {SL_FORMAT_SUMMARY, ".json"}, {SL_FORMAT_SRT, ".srt"},         {SL_FORMAT_CSV, ".csv"},
};

static const char *extension(sl_label_format f)
{
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++)
        if (extensions[i].format == f)
            return extensions[i].ext;
    return ".txt";
}

/* The format whose extension path has (any case); 0 when it has none of them. */
static int format_of_name(const char *path, sl_label_format *f)
{
    const char *ext = cli_extension(path);
    for (size_t i = 0; ext && i < sizeof extensions / sizeof extensions[0]; i++)
        if (!strcasecmp(ext, extensions[i].ext)) {
            *f = extensions[i].format;
            return 1;
        }
    return 0;
}

/* Another extension keeps Audacity's lines (out.lab), but not one that names
 * a format of its own a reader would parse as such: other subtitles, ELAN,
 * XML, NumPy. */
static int names_foreign_format(const char *path)
{
    static const char *const foreign[] = {".ass", ".ssa", ".sbv", ".eaf", ".xml", ".npy"};
    const char *ext = cli_extension(path);
    for (size_t i = 0; ext && i < sizeof foreign / sizeof foreign[0]; i++)
        if (!strcasecmp(ext, foreign[i]))
            return 1;
    return 0;
}

/* A FIFO or a device: what reads it takes what comes, whatever its name says. */
static int is_stream_path(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && !S_ISREG(st.st_mode);
}

/* dir/name+ext, with one '/' between. */
/* dir/name.ext into out; -1 when it does not fit (out then names nothing a
 * caller may write: cut short, it could be another file's path). */
static int in_dir(char *out, size_t len, const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir);
    int w = snprintf(out, len, "%s%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name, ext);
    if (w >= 0 && (size_t)w < len)
        return 0;
    out[0] = '\0';
    return -1;
}

static int is_dir_path(const char *p)
{
    struct stat st;
    size_t n = strlen(p);
    return (n > 0 && p[n - 1] == '/') || (stat(p, &st) == 0 && S_ISDIR(st.st_mode));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The last part of an input's name ("spk1/001": "001"). */
static const char *last_part(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash ? slash + 1 : name;
}

/* The name an input's lines carry in a stream of several. The summary's and
 * RTTM's: its name without folder and extension. The column or key of the
 * others (label_args.name_lines): its name as in -o DIR without extension,
 * the folders below an input folder kept ("spk1/001"), so a tree with a folder
 * per speaker needs no renaming. */
static const char *stream_name(const label_args *a, const cli_input *in)
{
    return a->name_lines ? in->name : last_part(in->name);
}

/* Labels one input into out_path ("-": stdout), cuts its audio into cut_path
 * and splits it into the folder split_dir (each NULL: none). Returns 0 or 1
 * (error printed). */
static int label_one(const label_args *a, sl_model *m, sl_labeler *l, const cli_input *in,
                     const char *out_path, const char *out_said, const char *cut_path,
                     const char *split_dir,
                     float *block, long block_len, int progress)
{
    const char *in_path = in->path;
    const char *out_name = out_said ? out_said : strcmp(out_path, "-") ? out_path : "standard output";
    char err[SL_ERR_LEN];
    const sl_feature_config *fc = sl_model_feature_config(m);
    if (cli_output_is_input(out_path, in_path) ||
        (cut_path && cli_output_is_input(cut_path, in_path)))
        return 1;
    text_sink t = {0};
    sl_audio_options opt = a->audio;
    opt.target_rate = fc->sample_rate;
    opt.tap = cut_path || split_dir ? cut_tap : NULL;
    opt.tap_user = &t;
    opt.interrupt = cli_input_interrupt_flag();
    sl_audio_reader *r = sl_audio_open_ex(in_path, &opt, err, sizeof err);
    if (!r)
        return cli_error("%s", err);
    int64_t recorded_us = 0;
    if (a->utc_from == ORIGIN_FILE && sl_audio_recording_start(r, &recorded_us) != 0) {
        sl_audio_close(r);
        return cli_error("%s: does not say when it was recorded (--time-origin file reads a "
                         "Broadcast WAVE file's origination date and time): give the start as "
                         "--time-origin @SECONDS or ISO 8601", strcmp(in_path, "-") ? in_path : "standard input");
    }

    const char *stem = last_part(in->name);
    sl_label_writer_init(&t.w, a->format, m, stream_name(a, in));
    memcpy(t.w.skip, a->skipped, sizeof t.w.skip);
    t.w.channel = a->audio.channel;
    const int cut_channels = a->audio.channel > 0 ? 1 : sl_audio_channels(r);
    t.w.jsonl_segments = a->segments;
    t.w.name_lines = a->name_lines;
    t.w.has_utc_origin = a->utc_from != ORIGIN_NONE;
    t.w.utc_origin_us = a->utc_from == ORIGIN_FILE ? recorded_us : a->utc_origin_us;
    if (a->utc_from == ORIGIN_NOW) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        t.w.utc_origin_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    }
    t.cap = 4096;
    t.buf = malloc(t.cap);
    cli_output out;
    if (!t.buf) {
        sl_audio_close(r);
        return cli_error("out of memory");
    }
    t.target = a->cfg.decoder.target_class;
    int *in_map = cut_path || split_dir ? cut_channel_map(r, cut_channels) : NULL;
    if (cut_path)
        t.cuts[0] = cli_cut_open(cut_path, sl_audio_file_format(r), in_map,
                                 sl_audio_file_frames(r), sl_audio_file_rate(r),
                                 cut_channels, sl_labeler_frame_shift(l), fc->sample_rate,
                                 a->cut_silence);
    if (split_dir && (!cut_path || t.cuts[0]))
        t.cuts[1] = cli_split_open(split_dir, stem, cli_cut_extension(in_path),
                                   sl_audio_file_format(r), in_map, sl_audio_file_frames(r),
                                   sl_audio_file_rate(r), cut_channels,
                                   sl_labeler_frame_shift(l), fc->sample_rate, a->split_max);
    free(in_map);
    if ((cut_path && !t.cuts[0]) || (split_dir && !t.cuts[1]) ||
        cli_output_open_as(&out, out_path, "w", out_said) != 0) {
        cli_cut_abort(t.cuts[0]);
        cli_cut_abort(t.cuts[1]);
        free(t.buf);
        sl_audio_close(r);
        return 1;
    }
    t.fp = out.fp;
    t.terminal = isatty(fileno(out.fp));
    int to_stdout = out.fp == stdout;
    sl_label_sink sink = {&t, text_on_frame, text_on_segment};
    int rc = 0;
    /* (a frames table of many long class names: a header past the buffer) */
    if (!a->name_lines && emit_text(&t, format_header(&t, NULL), format_header, NULL) &&
        !t.failed)
        t.failed = ENOMEM;

    /* A read waits until its block is full: live input is read 10 hops at a time,
     * so a label comes out at most 0.1 s after the labeler's latency, not a whole
     * block later, and a hop at a time under a latency limit, whose labels wait
     * at most a hop more. Threads share whole blocks, so with more than one the
     * blocks stay whole, but under a latency limit. */
    const int live = arrives_live(in_path);
    const int hop = sl_labeler_frame_shift(l);
    long n_read = block_len;
    if (live && a->cfg.max_latency_s > 0)
        n_read = hop;
    else if (live && a->cfg.num_threads == 1 && block_len > 10 * hop)
        n_read = 10 * hop;
    if (live) /* Ctrl-C: the input ends, its labels are kept */
        cli_interrupt_ends_input(1, live_input_fd(in_path));
    sl_labeler_reset(l);
    int64_t total = sl_audio_file_frames(r);
    int file_rate = sl_audio_file_rate(r);
    double last = 0.0;
    int ended_by_error = 0; /* live input: said, its labels kept, exit 1 */
    int64_t drained = 0;    /* samples read since Ctrl-C */
    for (;;) {
        long got = sl_audio_read(r, block, n_read, err, sizeof err);
        if (got < 0 && live) { /* a stream that fails hours in: as at Ctrl-C */
            ended_by_error = cli_error("%s", err);
            break;
        }
        if (got < 0) {
            rc = cli_error("%s", err);
            break;
        }
        if (got == 0)
            break;
        if (sl_labeler_push(l, block, (size_t)got, &sink, err, sizeof err) != 0) {
            rc = t.failed || t.cut_failed ? 1 : cli_error("%s: %s", in_path, err);
            break;
        }
        /* Standard output shows each block's labels as they are final, not when
         * stdio's buffer fills: `arecord | seqlabel label -` tags live. */
        if (to_stdout && fflush(t.fp) != 0) {
            t.failed = write_errno();
            break;
        }
        /* Ctrl-C made the input /dev/null: the reads go on to its end, so what
         * the resampler holds (up to 0.43 s at 8 kHz) is labelled too; never
         * more than 2 s past it, whatever the input */
        if (live && cli_input_interrupted() &&
            (drained += got) > 2 * (int64_t)sl_labeler_sample_rate(l))
            break;
        if (progress) {
            double tn = now_s();
            if (tn - last > 0.25) {
                last = tn;
                double done = (double)sl_audio_file_position(r) / file_rate;
                char shown[4 * 4096 + 16];
                cli_shown(shown, sizeof shown, in_path);
                if (total > 0)
                    cli_progress_show("%s: %.1f / %.1f s (%.0f%%)", shown, done,
                                      (double)total / file_rate,
                                      100.0 * done * file_rate / (double)total);
                else
                    cli_progress_show("%s: %.1f s", shown, done);
            }
        }
    }
    if (live)
        cli_interrupt_ends_input(0, -1);
    if (!rc && sl_labeler_finish(l, &sink, err, sizeof err) != 0)
        rc = t.failed || t.cut_failed ? 1 : cli_error("%s: %s", in_path, err);
    /* not an error (exit 0), but an empty output should not pass for silence */
    if (!rc && !ended_by_error && t.frames == 0 && !a->quiet)
        cli_error("%s: %.6g s of audio, shorter than one analysis window (%.6g s): no frame to "
                  "label", in_path, (double)sl_audio_file_position(r) / file_rate,
                  (double)sl_labeler_frame_length(l) / sl_labeler_sample_rate(l));
    if (!rc && sl_label_format_is_document(&t.w)) { /* written whole at the end */
        const int need = format_document(&t, &t.frames);
        if (need == SL_TEXT_TOO_LONG)
            rc = cli_error("%s: the %s of %zu segments would pass 2 GiB, more than a document "
                           "is written as: label shorter stretches, or use a line format "
                           "(audacity, rttm, csv, jsonl)", out_name,
                           sl_label_format_name(t.w.format), t.n_segs);
        else if (emit_text(&t, need, format_document, &t.frames) != 0 && !t.failed)
            rc = cli_error("%s: out of memory", out_name);
    }
    cli_progress_clear();
    if (!rc && !t.failed && to_stdout && fflush(t.fp) != 0)
        t.failed = write_errno();
    /* a write that failed (it stopped the labeling, rc 1 unsaid) is said here */
    if (t.failed == EPIPE && to_stdout)
        rc = READER_GONE; /* the cuts' temporary files are removed below */
    else if (t.failed)
        rc = cli_error("%s: write failed: %s", out_name, strerror(t.failed));
    /* the cut's own error (a write failure stopped the labeling) is said here;
     * a cut to standard output whose reader left ends the command as SIGPIPE does */
    for (int c = 0; c < 2; c++) {
        const int gone = cli_cut_reader_gone(t.cuts[c]);
        if (t.cuts[c] && (!rc || (t.cut_failed >> c & 1)))
            rc = cli_cut_finish(t.cuts[c]) || rc;
        else
            cli_cut_abort(t.cuts[c]);
        if (gone)
            rc = READER_GONE;
    }
    if (rc) {
        cli_output_abort(&out);
        sl_labeler_reset(l);
    } else {
        rc = cli_output_commit(&out) || ended_by_error ? 1 : 0;
    }
    free(t.buf);
    free(t.segs);
    sl_audio_close(r);
    return rc;
}

static int parse_args(int argc, char **argv, label_args *a)
{
    memset(a, 0, sizeof *a);
    a->format = SL_FORMAT_AUDACITY;
    sl_labeler_config_default(&a->cfg);
    cli_decoder_init(&a->decoder);
    sl_audio_options_default(&a->audio);
    a->audio.raw_channels = 0; /* not given: 1, once checked below */
    long v;
    double d;
    int c, format_given = 0;
    optind = 1;
    opterr = 0;
    a->jobs = 1;
    while ((c = getopt_long(argc, argv, ":o:j:qh", long_opts, NULL)) != -1) {
        switch (c) {
        case 'o': a->out_path = optarg; break;
        case 'j':
            if (cli_parse_int("--jobs", optarg, 0, 256, &v)) return -1;
            a->jobs = v ? (int)v : cli_cpus(); /* 0: one per CPU it may use */
            break;
        case 'q': a->quiet = 1; break;
        case OPT_KEEP_EXISTING: a->keep_existing = 1; break;
        case 'h': usage(stdout); return 1;
        case OPT_FORMAT:
            if (sl_label_format_parse(optarg, &a->format))
                return cli_error("--format: '%s' is not one of audacity, frames, jsonl, rttm, textgrid, "
                                 "webvtt, summary, srt, csv", optarg), -1;
            format_given = 1;
            break;
        case OPT_SEGMENTS: a->segments = 1; break;
        case OPT_TIME_ORIGIN:
            a->utc_from = !strcmp(optarg, "now")    ? ORIGIN_NOW
                          : !strcmp(optarg, "file") ? ORIGIN_FILE
                                                    : ORIGIN_GIVEN;
            if (a->utc_from == ORIGIN_GIVEN &&
                cli_parse_utc("--time-origin", optarg, &a->utc_origin_us))
                return -1;
            break;
        case OPT_SKIP: a->skip = optarg; break;
        case OPT_ONLY: a->only = optarg; break;
        case OPT_MODEL: a->model_path = optarg; break;
        case OPT_THREADS:
            if (cli_parse_int("--threads", optarg, 1, SL_MAX_THREADS, &v)) return -1;
            a->cfg.num_threads = (int)v;
            break;
        case OPT_LEFT:
            if (cli_parse_int("--left-context", optarg, 0, SL_MAX_WINDOW, &v)) return -1;
            a->cfg.left_context = (int)v;
            break;
        case OPT_MAX_LATENCY:
            if (cli_parse_float("--max-latency", optarg, 1e-6, 3600, &d)) return -1;
            a->cfg.max_latency_s = d;
            break;
        case OPT_LOOKAHEAD:
            if (cli_parse_int("--lookahead", optarg, 0, SL_MAX_WINDOW, &v)) return -1;
            a->cfg.lookahead = (int)v;
            break;
        case OPT_WINDOW:
            if (cli_parse_int("--window", optarg, 1, SL_MAX_WINDOW, &v)) return -1;
            a->cfg.window = (int)v;
            break;
        case OPT_CLIP_EDGES:
            a->cfg.clip_edges = 1;
            break;
        case OPT_CUT: a->cut_path = optarg; break;
        case OPT_CUT_SILENCE: a->cut_silence = 1; break;
        case OPT_SPLIT: a->split_dir = optarg; break;
        case OPT_SPLIT_MAX:
            if (cli_parse_float("--split-max", optarg, 0.1, 1e6, &d)) return -1;
            a->split_max = d;
            break;
        case OPT_RAW:
            if (sl_raw_encoding_from_name(optarg, &a->audio.raw_encoding) < 0)
                return cli_error("--raw-format: '%s' is not one of " SL_CLI_RAW_FORMATS, optarg), -1;
            break;
        case OPT_RAW_RATE:
            if (cli_parse_int("--raw-rate", optarg, 1, 1000000, &v)) return -1;
            a->audio.raw_rate = (int)v;
            break;
        case OPT_RAW_CH:
            if (cli_parse_int("--raw-channels", optarg, 1, 1024, &v)) return -1;
            a->audio.raw_channels = (int)v;
            break;
        case OPT_CHANNEL:
            if (cli_parse_int("--channel", optarg, 0, 1024, &v)) return -1;
            a->audio.channel = (int)v;
            break;
        case OPT_AUDIO_STREAM:
            if (cli_parse_int("--audio-stream", optarg, 1, 1024, &v)) return -1;
            a->audio.stream = (int)v;
            break;
        case OPT_STALL: /* the library's 0 is its default: --stall-timeout 0 is none */
            if (cli_parse_float("--stall-timeout", optarg, 0.0, 1e6, &d)) return -1;
            a->audio.stall_seconds = d > 0.0 ? d : -1.0;
            break;
        case ':':
            return cli_error("option %s needs a value", argv[optind - 1]), -1;
        default:
            if (cli_is_decoder_code(c)) {
                cli_decoder_option o = (cli_decoder_option)(c - CLI_DECODER_CODE);
                if (cli_parse_decoder(o, optarg, CLI_OPTION_AS_GIVEN(argv), &a->decoder))
                    return -1;
                break;
            }
            return cli_error("%s (see seqlabel label --help)", cli_refused_option(argv, long_opts)), -1;
        }
    }
    if (optind >= argc)
        return cli_error("no input files (see seqlabel label --help)"), -1;
    if ((a->out_path && !a->out_path[0]) || (a->cut_path && !a->cut_path[0]) ||
        (a->split_dir && !a->split_dir[0]))
        return cli_error("an output with an empty name (-o, --cut or --split \"\")"), -1;
    /* -o talk.rttm: the name says the format when --format does not (a
     * folder's name says nothing: `-o out.rttm/` and `-o out.rttm` alike) */
    if (!format_given && a->out_path && strcmp(a->out_path, "-") && !is_dir_path(a->out_path) &&
        !format_of_name(a->out_path, &a->format) && names_foreign_format(a->out_path) &&
        !is_stream_path(a->out_path))
        return cli_error("-o %s: '%s' names a format seqlabel does not write (.txt audacity, "
                         ".tsv frames, .jsonl, .rttm, .TextGrid, .vtt webvtt, .json summary, .srt, "
                         ".csv): "
                         "give --format, or another name", a->out_path,
                         cli_extension(a->out_path)), -1;
    /* options that would do nothing are refused, not ignored */
    for (int k = 0; k < 2; k++) {
        const char *list = k ? a->only : a->skip;
        if (list && !list[strspn(list, ", \t")])
            return cli_error("%s \"%s\" names no class", k ? "--only" : "--skip", list), -1;
    }
    if (cli_decoder_check(&a->decoder, 0))
        return -1;
    if (a->segments && a->format != SL_FORMAT_JSONL)
        return cli_error("--segments goes with --format jsonl"), -1;
    if ((a->skip || a->only) && (a->format == SL_FORMAT_FRAMES ||
                                 (a->format == SL_FORMAT_JSONL && !a->segments)))
        return cli_error("%s leaves out segments: --format %s keeps every frame", a->skip ? "--skip"
                         : "--only", sl_label_format_name(a->format)), -1;
    if (a->audio.raw_encoding != SL_RAW_NONE && a->audio.raw_rate <= 0)
        return cli_error("--raw-format needs --raw-rate"), -1;
    if (a->audio.raw_encoding == SL_RAW_NONE && (a->audio.raw_rate > 0 || a->audio.raw_channels))
        return cli_error("%s goes with --raw-format (headerless input; a telephone file "
                         "named .ulaw, .sln16, ... has its rate and channels from its name)",
                         a->audio.raw_rate > 0 ? "--raw-rate" : "--raw-channels"), -1;
    if (!a->audio.raw_channels)
        a->audio.raw_channels = 1;
    if (a->cut_silence && !a->cut_path)
        return cli_error("--cut-silence needs --cut OUT"), -1;
    if (a->cut_path && !a->decoder.target)
        return cli_error("--cut needs --target CLASS, the class whose audio is kept"), -1;
    /* audio and label text on one stream would make both unreadable */
    if (a->cut_path && !strcmp(a->cut_path, "-") && (!a->out_path || !strcmp(a->out_path, "-")))
        return cli_error("--cut -: the labels go to standard output too: give them a file "
                         "(-o FILE, or -o /dev/null to keep none)"), -1;
    if (a->split_dir && !a->decoder.target)
        return cli_error("--split needs --target CLASS, the class whose segments are kept"), -1;
    if (a->split_max > 0 && !a->split_dir)
        return cli_error("--split-max needs --split DIR"), -1;
    if (a->keep_existing && a->split_dir) /* its pieces are many, and their number unknown */
        return cli_error("--keep-existing cannot tell whether --split's pieces are all there: "
                         "not with --split"), -1;
    return 0;
}

/* One run of the command over its inputs: what labelling input i needs. */
typedef struct {
    const label_args *a;
    sl_model *m;
    const char *model_path;
    const cli_input *inputs;
    int n_inputs, to_dir, cut_to_dir, progress;
    /* --jobs onto standard output: each input's labels are written into this
     * private folder as a file named by its number, and copied out in input
     * order by this process (NULL otherwise) */
    char *collect_dir;
    int broken_pipe; /* standard output's reader went away */
    sl_labeler *l; /* the worker's own */
    float *block;
    long block_len;
} label_run;

/* --jobs: each worker holds a labeler of its own, all at once, each within
 * what it may take (sl_labeler_new checks it) but maybe not all together; so
 * they are weighed together against the memory free (SEQLABEL_MEMORY_LIMIT
 * caps each) before any is made. 0, or 1 (said): not a wrong command line,
 * too little memory. */
static int jobs_fit(const label_args *a, const sl_model *m, const char *model_path, int nin)
{
    int workers = a->jobs < nin ? a->jobs : nin; /* as cli_jobs_run starts them */
    workers = workers < CLI_JOBS_MAX ? workers : CLI_JOBS_MAX;
    if (workers < 2)
        return 0;
    char err[SL_ERR_LEN];
    sl_labeler *l = sl_labeler_plan(m, &a->cfg, err, sizeof err);
    if (!l) /* said by run_start, which makes it */
        return 0;
    const double one = (double)sl_labeler_memory_bytes(l), have = sl_memory_free();
    sl_labeler_free(l);
    if (have < 0 || workers * one <= have)
        return 0;
    char sa[SL_MEMORY_SHOWN], sb[SL_MEMORY_SHOWN];
    return cli_error("--jobs %d: %d labelers of %s each (%s) need more than the %s of memory "
                     "free: fewer jobs, or fewer threads", a->jobs, workers,
                     sl_memory_shown(sa, one), model_path, sl_memory_shown(sb, have));
}

/* A labeler and its read block (each --jobs worker makes its own). 0, or 1 (said). */
static int run_start(void *user)
{
    label_run *r = user;
    char err[SL_ERR_LEN];
    r->l = sl_labeler_new(r->m, &r->a->cfg, err, sizeof err);
    r->block_len = r->l ? read_block(r->l, r->a->cfg.num_threads) : 0;
    r->block = r->l ? malloc((size_t)r->block_len * sizeof(float)) : NULL;
    if (r->l && r->block)
        return 0;
    /* no labeler: the options ask what this model cannot do (a wrong command
     * line), or more memory than there is (settings that plan: 1) */
    sl_labeler *planned = r->l ? NULL : sl_labeler_plan(r->m, &r->a->cfg, NULL, 0);
    int rc = r->l ? cli_error("out of memory")
             : planned ? cli_error("%s: %s", r->model_path, err)
                       : cli_usage_error("%s: %s", r->model_path, err);
    sl_labeler_free(planned);
    sl_labeler_free(r->l);
    r->l = NULL;
    return rc;
}

static void run_stop(void *user)
{
    label_run *r = user;
    free(r->block);
    sl_labeler_free(r->l);
    r->block = NULL;
    r->l = NULL;
}

#define ITEM_PATH 4096 /* item_outputs' buffers */

/* Where input i's labels go (-o, a file in -o's folder named after it, or
 * its number in the private folder), and its --cut (the file, or one in the
 * folder named after it), into *out and *cut_path (path and cut hold them).
 * -1 when a path in a folder would be longer than a path may be. */
static int item_outputs(const label_run *r, int i, char *path, char *cut, const char **out,
                        const char **cut_path)
{
    const label_args *a = r->a;
    const cli_input *in = &r->inputs[i];
    int rc = 0;
    *out = a->out_path ? a->out_path : "-";
    *cut_path = a->cut_path;
    if (r->to_dir) {
        rc |= in_dir(path, ITEM_PATH, a->out_path, in->name, extension(a->format));
        *out = path;
    } else if (r->collect_dir) {
        snprintf(path, ITEM_PATH, "%s/%d", r->collect_dir, i);
        *out = path;
    }
    if (r->cut_to_dir) { /* the input's own name (standard input: stdin.wav) */
        rc |= in_dir(cut, ITEM_PATH, a->cut_path, in->name, cli_cut_extension(in->path));
        *cut_path = cut;
    }
    return rc;
}

/* --jobs: input i's worker was ended by a signal of its own (a crash, the OOM
 * killer): said, naming the input, and the temporary files it was writing
 * removed (not --split's pieces, whose names it chose as it went). */
static void run_lost(void *user, int i, long pid, int sig)
{
    label_run *r = user;
    char path[ITEM_PATH], cut[ITEM_PATH];
    const char *outs[2];
    int fits = item_outputs(r, i, path, cut, &outs[0], &outs[1]) == 0;
    cli_error("%s: not labelled: the worker labelling it ended by signal %d (%s)",
              r->inputs[i].path, sig, strsignal(sig));
    for (int k = 0; fits && pid > 0 && k < 2; k++) /* 0: not begun, nothing written */
        if (outs[k] && strcmp(outs[k], "-")) /* its names' X's are random: looked for */
            sl_output_remove_temporaries_of(outs[k], (pid_t)pid);
}

/* Labels input i into its outputs, named after it in their folders (made as
 * the input's name needs). 0, 1 (said), or READER_GONE. */
static int run_input(void *user, int i)
{
    label_run *r = user;
    const label_args *a = r->a;
    const cli_input *in = &r->inputs[i];
    char path[ITEM_PATH], cut[ITEM_PATH], split[4096], said[8400] = "";
    const char *out, *cut_path, *split_dir = NULL;
    if (item_outputs(r, i, path, cut, &out, &cut_path) ||
        (a->split_dir && in_dir(split, sizeof split, a->split_dir, in->name, "")))
        return cli_error("%s: not labelled: its output's path in %s would be longer than %d "
                         "bytes", in->path, r->to_dir && !path[0] ? a->out_path
                                            : r->cut_to_dir && !cut[0] ? a->cut_path
                                                                       : a->split_dir,
                         ITEM_PATH - 1), 1;
    if ((r->to_dir && cli_make_dirs_below(a->out_path, in->name)) ||
        (r->cut_to_dir && cli_make_dirs_below(a->cut_path, in->name)) ||
        (a->split_dir && cli_make_dirs_below(a->split_dir, in->name)))
        return 1;
    if (r->collect_dir) /* a failure there is the input's labels', not a file the user knows */
        snprintf(said, sizeof said, "%s: its labels, held for standard output in %s", in->path,
                 r->collect_dir);
    if (a->split_dir) { /* the folders of the input's name, below --split's */
        in_dir(split, sizeof split, a->split_dir, "", "");
        snprintf(split + strlen(split), sizeof split - strlen(split), "%.*s",
                 (int)(last_part(in->name) - in->name), in->name);
        split_dir = split;
    }
    return label_one(a, r->m, r->l, in, out, said[0] ? said : NULL, cut_path, split_dir, r->block,
                     r->block_len, r->progress);
}

/* --jobs onto standard output: input i's labels, once it and those before it
 * are done (an input that failed has none). 0, or 1 to stop. */
static int run_emit(void *user, int i)
{
    label_run *r = user;
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", r->collect_dir, i);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    int rc = cli_copy_file(fp, stdout) != 0 || fflush(stdout) != 0;
    if (rc && errno == EPIPE)
        r->broken_pipe = 1; /* said as one at a time says it: by SIGPIPE, later */
    else if (rc)
        cli_error("%s: %s", ferror(fp) ? path : "standard output", strerror(errno));
    fclose(fp);
    unlink(path);
    return rc;
}

/* Removes the private folder with what is left in it (inputs after one that
 * never ended, or after a write failed). */
static void run_finish(void *user)
{
    label_run *r = user;
    char path[4096];
    for (int i = 0; i < r->n_inputs; i++) {
        snprintf(path, sizeof path, "%s/%d", r->collect_dir, i);
        unlink(path);
    }
    if (rmdir(r->collect_dir) != 0)
        cli_error("%s: cannot remove this temporary folder: %s", r->collect_dir, strerror(errno));
}

/* Labels the inputs in `jobs` worker processes. */
/* run_jobs's answer when it holds nothing back: the inputs are to be labelled
 * one at a time, in this process */
#define NOT_HELD (-2)

/* Whether the folder's file system has no room for a file (no block, or no
 * inode, free to this user; root may use the blocks kept for it): mkdtemp
 * makes a folder in a full one all the same, and every input held there would
 * then fail. */
static int no_room_in(const char *dir)
{
    struct statvfs fs;
    if (statvfs(dir, &fs) != 0)
        return 0; /* unknown: the writes will say */
    const int root = geteuid() == 0; /* (no blocks or inodes at all: unlimited, ramfs's) */
    return (fs.f_blocks && (root ? fs.f_bfree : fs.f_bavail) == 0) ||
           (fs.f_files && (root ? fs.f_ffree : fs.f_favail) == 0);
}

/* Labels the inputs in worker processes: --jobs, and several inputs onto
 * standard output at --jobs 1 too (one worker), whose labels are held in a
 * temporary folder until each input is done. Where that folder cannot be made
 * and no --jobs was asked for, NOT_HELD (said): the labels are then written
 * as they come, as they were before. */
static int run_jobs(label_run *run, int nin)
{
    const label_args *a = run->a;
    cli_jobs jobs = {run, run_start, run_input, run_stop, NULL, NULL, run_lost};
    char dir[4096];
    if (!run->to_dir) { /* standard output, in input order */
        const char *tmp = cli_tmp_folder();
        snprintf(dir, sizeof dir, "%s/seqlabel-jobs-XXXXXX", tmp);
        int made = mkdtemp(dir) != NULL, e = errno;
        if (made && no_room_in(dir)) {
            rmdir(dir);
            made = 0;
            e = ENOSPC;
        }
        if (!made) {
            if (a->jobs > 1)
                return cli_error("--jobs: cannot make a temporary folder in %s: %s", tmp,
                                 strerror(e));
            cli_error("cannot make a temporary folder in %s to hold each input's labels until it "
                      "is done (%s): they are written as they come, and an input that fails "
                      "leaves its part", tmp, strerror(e));
            return NOT_HELD;
        }
        run->collect_dir = dir;
        jobs.emit = run_emit;
        jobs.finish = run_finish;
    }
    run_stop(run); /* each worker makes its own: threads do not cross fork() */
    /* one worker shows its input's progress line, as one at a time does;
     * several, a count of the inputs done; so does one whose labels this
     * process hands on to the terminal, where the worker's line would be drawn
     * in the middle of them (only the count's drawer writes both there) */
    const int tty = cli_progress_wanted(a->quiet);
    const int labels_to_tty = run->collect_dir && isatty(STDOUT_FILENO);
    run->progress = a->jobs <= 1 && tty && !labels_to_tty;
    /* the worker's progress line, or the count: another process's, which what
     * this one says (the labels it hands on too) clears first */
    cli_progress_shared(tty);
    /* a reader gone (`| head`) fails the copy, which ends the workers */
    return cli_jobs_run(&jobs, nin, a->jobs, tty && (a->jobs > 1 || labels_to_tty));
}

/* Labels the inputs in this process, in order. 0, 1 (an input failed), or 130
 * or 143 (interrupted by SIGINT or SIGTERM with inputs left). */
static int run_one_at_a_time(label_run *run)
{
    int rc = 0;
    run->progress = cli_progress_wanted(run->a->quiet);
    for (int i = 0; i < run->n_inputs && !run->broken_pipe; i++) {
        int one = run_input(run, i);
        run->broken_pipe = one == READER_GONE;
        if (one)
            rc = 1;
        if (cli_input_interrupted()) {
            const int left = run->n_inputs - 1 - i;
            if (left > 0) {
                cli_error("interrupted: %d more input%s not labelled", left, left > 1 ? "s" : "");
                rc = 128 + cli_input_interrupted(); /* as a shell reports an end by it */
            }
            break;
        }
    }
    run_stop(run);
    return rc;
}

static int by_name(const void *x, const void *y)
{
    const cli_input *const *a = x, *const *b = y;
    return strcmp((*a)->name, (*b)->name);
}

/* Whether paths a and b are one file (one listed twice, or by two names):
 * labelled twice, it writes the same outputs twice, as in a stream. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return strcmp(a, "-") && strcmp(b, "-") && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* in[0..n) sorted by name, as pointers (malloc'ed; NULL: out of memory, said). */
static const cli_input **sorted_by_name(const cli_input *in, int n)
{
    const cli_input **sorted = malloc(sizeof *sorted * (size_t)(n ? n : 1));
    if (!sorted) {
        cli_error("out of memory");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        sorted[i] = &in[i];
    qsort(sorted, (size_t)n, sizeof *sorted, by_name);
    return sorted;
}

/* Outputs named after their inputs must not write over each other: two inputs
 * of one name into a folder are refused (2, said, every such pair at once, so
 * that one run finds them all), before anything is written; one file listed
 * twice is not. */
static int check_names(const cli_input *in, int n, const char *dir_out)
{
    const cli_input **sorted = sorted_by_name(in, n);
    if (!sorted)
        return 2;
    int clashes = 0;
    for (int i = 1; i < n; i++)
        if (!strcmp(sorted[i - 1]->name, sorted[i]->name) &&
            !same_file(sorted[i - 1]->path, sorted[i]->path) && ++clashes <= 20)
            cli_error("%s and %s would both write %s.* into %s", sorted[i - 1]->path,
                      sorted[i]->path, sorted[i]->name, dir_out);
    free(sorted);
    if (clashes > 20)
        cli_error("and %d more such pairs", clashes - 20);
    if (clashes)
        cli_error("label such inputs in two runs (into two folders), or give them other names");
    return clashes ? 2 : 0;
}

static int name_cmp(const void *key, const void *elt)
{
    return strcmp(key, (*(const cli_input *const *)elt)->name);
}

/* s without the slashes that end it ("out/" as "out", "/" kept; malloc'd) */
static char *without_end_slashes(const char *s)
{
    char *c = strdup(s);
    for (size_t n = c ? strlen(c) : 0; n > 1 && c[n - 1] == '/'; n--)
        c[n - 1] = '\0';
    return c;
}

/* Whether folder names a and b ("out", "./out/", "$PWD/out", made or not
 * yet) are one. */
static int same_folder(const char *a, const char *b)
{
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    int same = ra && rb && !strcmp(ra, rb);
    if (!ra || !rb) { /* not made yet: the name in its folder, as an output's */
        char *ca = without_end_slashes(a), *cb = without_end_slashes(b);
        same = ca && cb && cli_same_output(ca, cb);
        free(ca);
        free(cb);
    }
    free(ra);
    free(rb);
    return same;
}

/* --cut DIR and --split DIR one folder: an input's cut named as another's
 * piece (y-0001_0.630-3.980 beside y) would be written over by that piece, or
 * it over the piece, after labelling; refused (2, said) before anything is. */
static int check_cuts_against_pieces(const cli_input *in, int n, const char *dir)
{
    const cli_input **sorted = sorted_by_name(in, n);
    if (!sorted)
        return 2;
    int clashes = 0;
    for (int i = 0; i < n; i++) {
        const char *name = in[i].name;
        for (const char *dash = strchr(name, '-'); dash; dash = strchr(dash + 1, '-')) {
            char *stem = strndup(name, (size_t)(dash - name));
            const cli_input *const *of = stem ? bsearch(stem, sorted, (size_t)n, sizeof *sorted,
                                                        name_cmp) : NULL;
            if (of && cli_is_piece_name(name, stem, "") && ++clashes <= 20)
                cli_error("%s: its cut in %s is named as a piece of %s's would be", in[i].path,
                          dir, (*of)->path);
            free(stem);
        }
    }
    free(sorted);
    if (clashes)
        cli_error("give --cut and --split two folders");
    return clashes ? 2 : 0;
}

/* Whether a format's lines name their file in a stream of several: RTTM's and
 * the summary's always, the others whose lines can (label_args.name_lines). */
static int names_its_file(sl_label_format format)
{
    return format == SL_FORMAT_RTTM || format == SL_FORMAT_SUMMARY || format == SL_FORMAT_AUDACITY ||
           format == SL_FORMAT_FRAMES || format == SL_FORMAT_JSONL || format == SL_FORMAT_CSV;
}

/* A name as a JSON reader gets it back: a byte that is not UTF-8, written
 * as \ufffd, is U+FFFD, as the character itself in a name is (malloc'ed;
 * NULL: out of memory). */
static char *json_read_back(const char *s)
{
    const size_t len = strlen(s);
    char *out = malloc(3 * len + 1), *o = out;
    for (size_t i = 0, n; out && i < len; i += n) {
        uint32_t cp;
        n = sl_utf8_char(s + i, len - i, &cp);
        if (n) {
            memcpy(o, s + i, n);
            o += n;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            n = 1;
        }
    }
    if (out)
        *o = '\0';
    return out;
}

/* Several inputs on one stream in a format whose lines name their file: two
 * files whose lines would carry the same name, as read back (RTTM's field
 * with blanks as '_', JSON's string with a byte that is not UTF-8 as U+FFFD,
 * as that character itself is), could not be told apart (eval refuses such an
 * RTTM file), so they are refused (2, said). One file listed twice is that
 * file's lines twice. */
static int check_stream_names(const label_args *a, const cli_input *in, int n, const sl_model *m)
{
    if (n < 2 || !names_its_file(a->format))
        return 0;
    const int json = a->format == SL_FORMAT_JSONL || a->format == SL_FORMAT_SUMMARY;
    char **written = calloc((size_t)n, sizeof *written);
    char **read_back = calloc((size_t)n, sizeof *read_back);
    int rc = written && read_back ? 0 : (cli_error("out of memory"), 1);
    sl_label_writer *w = rc ? NULL : malloc(sizeof *w);
    if (!rc && !w)
        rc = (cli_error("out of memory"), 1);
    for (int i = 0; i < n && !rc; i++) {
        sl_label_writer_init(w, a->format, m, stream_name(a, &in[i]));
        char buf[6 * sizeof w->file_name + 3];
        sl_text t = {buf, sizeof buf, 0};
        if (json)
            sl_text_json_string(&t, w->file_name);
        else /* CSV's field quotes what it must: the name as it is */
            sl_text_put(&t, "%s", a->format == SL_FORMAT_CSV ? w->file_name : w->file_id);
        if (sl_text_finish(&t) < 0 || !(written[i] = strdup(buf)) ||
            !(read_back[i] = json ? json_read_back(w->file_name) : strdup(buf)))
            rc = (cli_error("out of memory"), 1);
    }
    for (int i = 0; i < n && !rc; i++) /* inputs are few next to their labelling */
        for (int j = i + 1; j < n && !rc; j++)
            if (!strcmp(read_back[i], read_back[j]) && !sl_same_file(in[i].path, in[j].path))
                rc = (cli_error("%s and %s would both be %s%s%s in one %s stream: write each "
                                "its own with -o DIR/, or give them other names", in[i].path,
                                in[j].path, json ? "" : "'", written[i], json ? "" : "'",
                                sl_label_format_name(a->format)), 2);
    for (int i = 0; written && read_back && i < n; i++) {
        free(written[i]);
        free(read_back[i]);
    }
    free(written);
    free(read_back);
    free(w);
    return rc;
}

/* Several inputs whose lines name their file share one header (the frames
 * table's), written before any input, so that it heads the stream whichever
 * input fails. 0; 1 for a write that failed (said, or *gone: the reader left). */
static int stream_header(const label_args *a, const sl_model *m, int *gone)
{
    sl_label_writer w;
    char head[64 + SL_MAX_CLASSES * (SL_MAX_CLASS_NAME + 1)];
    sl_label_writer_init(&w, a->format, m, NULL);
    w.name_lines = 1;
    int n = sl_label_format_header(&w, head, sizeof head);
    if (n <= 0 || (fwrite(head, 1, (size_t)n, stdout) == (size_t)n && fflush(stdout) == 0))
        return 0;
    if (errno == EPIPE)
        return *gone = 1;
    return cli_error("standard output: write failed: %s", strerror(errno)), 1;
}

/* The command's work once its inputs are known. */
/* --keep-existing: moves the inputs whose outputs all exist (their labels in
 * -o DIR, their cut in --cut DIR) behind the others, which keep their order,
 * and returns how many others there are: those to label. */
static int drop_labelled(const label_args *a, cli_input *inputs, int nin, int cut_to_dir)
{
    cli_input *order = malloc(sizeof *order * (size_t)(nin ? nin : 1));
    if (!order)
        return nin; /* labelled again: nothing lost */
    int left = 0, done = nin;
    for (int i = 0; i < nin; i++) {
        char path[4096];
        struct stat st;
        int have = in_dir(path, sizeof path, a->out_path, inputs[i].name, extension(a->format)) == 0 &&
                   stat(path, &st) == 0 && S_ISREG(st.st_mode);
        if (have && cut_to_dir)
            have = in_dir(path, sizeof path, a->cut_path, inputs[i].name,
                          cli_cut_extension(inputs[i].path)) == 0 &&
                   stat(path, &st) == 0 && S_ISREG(st.st_mode);
        order[have ? --done : left++] = inputs[i];
    }
    memcpy(inputs, order, sizeof *order * (size_t)nin);
    free(order);
    if (left < nin && !a->quiet)
        cli_error("%d of %d input%s labelled already in %s: not again (--keep-existing)",
                  nin - left, nin, nin > 1 ? "s" : "", a->out_path);
    return left;
}

static int label_inputs(label_args a, cli_input *inputs, int nin)
{
    int to_dir = a.out_path && strcmp(a.out_path, "-") && is_dir_path(a.out_path);
    if (nin > 1 && a.out_path && strcmp(a.out_path, "-") && !to_dir)
        return cli_usage_error("%s: several inputs need -o DIR (an existing folder, or a name "
                               "ending in '/')", a.out_path);
    /* a TextGrid or subtitle file is one document: several would run together
     * (a second header; SubRip's cue numbers starting again) */
    if (nin > 1 && (!a.out_path || !strcmp(a.out_path, "-")) &&
        (a.format == SL_FORMAT_TEXTGRID || a.format == SL_FORMAT_WEBVTT || a.format == SL_FORMAT_SRT))
        return cli_usage_error("--format %s: a document per input, so several inputs go to "
                               "-o DIR, not to standard output", sl_label_format_name(a.format));
    int cut_to_dir = a.cut_path && is_dir_path(a.cut_path);
    /* standard output open on an input (label a.wav b.wav >> b.wav): its labels
     * would be written into it; one input is checked as it is labelled, several
     * here, as their labels are held apart until each is done */
    if (!to_dir && (!a.out_path || !strcmp(a.out_path, "-")) && nin > 1)
        for (int i = 0; i < nin; i++)
            if (cli_output_is_input("-", inputs[i].path))
                return 1;
    /* the labels and the cut into one file would destroy each other */
    if (a.cut_path && !to_dir && !cut_to_dir &&
        cli_same_output(a.out_path ? a.out_path : "-", a.cut_path))
        return cli_usage_error("%s%s and --cut %s are one file: name two", a.out_path ? "-o " : "",
                               a.out_path ? a.out_path : "the labels' standard output", a.cut_path);
    if (nin > 1 && a.cut_path && !cut_to_dir)
        return cli_usage_error("--cut %s: several inputs need --cut DIR (an existing folder, or a "
                               "name ending in '/')", a.cut_path);
    int stdin_uses = 0;
    for (int i = 0; i < nin; i++)
        stdin_uses += !strcmp(inputs[i].path, "-");
    if (stdin_uses > 1)
        return cli_usage_error("standard input ('-') can be labelled only once");
    const char *dir_out = to_dir ? a.out_path : cut_to_dir ? a.cut_path : a.split_dir;
    if (dir_out && check_names(inputs, nin, dir_out))
        return 2;
    if (cut_to_dir && a.split_dir && same_folder(a.cut_path, a.split_dir) &&
        check_cuts_against_pieces(inputs, nin, a.cut_path))
        return 2;
    a.name_lines = nin > 1 && !to_dir && a.format != SL_FORMAT_RTTM && a.format != SL_FORMAT_SUMMARY;
    if (a.keep_existing && !to_dir)
        return cli_usage_error("--keep-existing goes with -o DIR, where outputs are named after "
                               "their inputs");
    if (a.keep_existing && (nin = drop_labelled(&a, inputs, nin, cut_to_dir)) == 0)
        return 0;

    const char *model_path = a.model_path ? a.model_path : sl_default_model_path();
    if (!model_path && sl_source_model_path())
        return cli_error("no model: give --model PATH or set SEQLABEL_MODEL (no default model at %s "
                         "or %s)", sl_installed_model_path(), sl_source_model_path());
    if (!model_path) /* installed: the source tree's is never looked at */
        return cli_error("no model: give --model PATH or set SEQLABEL_MODEL (no default model at "
                         "%s)", sl_installed_model_path());
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    /* the encoder's own threads (--threads) do the splitting; OpenBLAS's
     * would also change the last bits of the probabilities on CPUs without
     * AVX2, whose products are OpenBLAS's */
    sl_blas_set_threads(1);
    int rc = cli_decoder_classes(&a.decoder, m, model_path);
    a.cfg.decoder = a.decoder.cfg;
    if (!rc && a.skip && a.only)
        rc = cli_usage_error("--skip and --only: one or the other");
    if (!rc && a.utc_from != ORIGIN_NONE && !sl_label_format_has_utc(a.format))
        rc = cli_usage_error("--time-origin: %s has no place for UTC times (jsonl and summary "
                             "have)", sl_label_format_name(a.format));
    if (!rc && !to_dir)
        rc = check_stream_names(&a, inputs, nin, m);
    if (!rc && (a.skip || a.only)) { /* read once, copied into each input's writer */
        sl_label_writer w;
        sl_label_writer_init(&w, a.format, m, NULL);
        if (sl_label_writer_set_skip(&w, a.skip ? a.skip : a.only, !a.skip, err, sizeof err) != 0)
            rc = cli_usage_error("%s: %s: %s", a.skip ? "--skip" : "--only", model_path, err);
        memcpy(a.skipped, w.skip, sizeof a.skipped);
    }
    /* output folders are made as needed, once nothing is refused (their
     * subfolders per input later); a folder that cannot be made is a failure
     * of the work (1), not of the command line */
    if (!rc && ((to_dir && cli_make_dir(a.out_path)) || (cut_to_dir && cli_make_dir(a.cut_path)) ||
                (a.split_dir && cli_make_dir(a.split_dir))))
        rc = 1;
    if (rc) {
        sl_model_free(m);
        return rc;
    }
    label_run run = {.a = &a, .m = m, .model_path = model_path, .inputs = inputs, .n_inputs = nin, .to_dir = to_dir,
                     .cut_to_dir = cut_to_dir};
    /* the settings are checked once, here, before any worker starts */
    int started = jobs_fit(&a, m, model_path, nin);
    if (started == 0)
        started = run_start(&run);
    if (started != 0) {
        sl_model_free(m);
        return started;
    }
    /* A reader gone (`| head`) makes writes fail with EPIPE rather than
     * SIGPIPE kill the command half way, which left a cut's temporary file
     * behind (and GStreamer's network sources ignore SIGPIPE for the whole
     * process): the outputs are cleaned up, then the command ends as SIGPIPE
     * ends one (status 141, nothing said). */
    struct sigaction ign = {.sa_handler = SIG_IGN}, prev_pipe;
    sigaction(SIGPIPE, &ign, &prev_pipe);
    if (a.name_lines && stream_header(&a, m, &run.broken_pipe)) {
        rc = 1;
        run_stop(&run);
    } else {
        /* several inputs onto standard output, one at a time too: each input's
         * labels are held until it is done, so one that fails part way leaves
         * nothing in the stream, where its lines would look complete */
        rc = nin > 1 && (a.jobs > 1 || !to_dir) ? run_jobs(&run, nin) : NOT_HELD;
        if (rc == NOT_HELD)
            rc = run_one_at_a_time(&run);
    }
    sigaction(SIGPIPE, &prev_pipe, NULL);
    sl_model_free(m);
    if (run.broken_pipe) {
        raise(SIGPIPE); /* returns only where SIGPIPE was ignored before the command */
        rc = cli_error("standard output: write failed: %s", strerror(EPIPE));
    }
    return rc;
}

int sl_cmd_label(int argc, char **argv)
{
    label_args a;
    int prc = parse_args(argc, argv, &a);
    if (prc)
        return prc > 0 ? 0 : 2;
    cli_input *inputs;
    int nin;
    /* a folder, or a part of one, that could not be read is said, and the
     * rest labelled: exit 1 at the end, as for a file that cannot be read */
    const char *outputs[] = {a.out_path, a.cut_path, a.split_dir};
    const int lost = cli_inputs_expand(argv + optind, argc - optind,
                                       a.audio.raw_encoding != SL_RAW_NONE, outputs, 3, &inputs,
                                       &nin);
    if (lost < 0)
        return 1;
    int rc = nin ? label_inputs(a, inputs, nin) : 1;
    cli_inputs_free(inputs, nin);
    return rc ? rc : lost;
}
