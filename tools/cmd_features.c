/* `seqlabel features FILE -o OUT`: log-mel / MFCC features of an audio file as
 * a frames x dims float32 .npy or TSV. The file is streamed in blocks through
 * the reader and the streaming extractor, so memory does not grow with its
 * length; the output appears (atomically, by rename) only when all went well. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seqlabel.h"
#include "model/model_internal.h" /* sl_quantize_s16 */
#include "tools/cli.h"
#include "tools/npy.h"

#define READ_BLOCK 4096 /* samples per read: bounded memory, negligible call overhead */

typedef enum { FORMAT_AUTO = 0, FORMAT_NPY, FORMAT_TSV } out_format;

static void usage(FILE *fp)
{
    sl_feature_config d;
    sl_feature_config_default(&d);
    fprintf(fp,
        "usage: seqlabel features FILE -o OUT [OPTIONS]\n"
        "\n"
        "Kaldi-compatible log-mel filterbank (or MFCC) features of an audio file,\n"
        "one row per frame (snip_edges framing: 1 + (samples - window) / hop rows;\n"
        "none for audio shorter than one window). FILE is any format libsndfile\n"
        "reads (WAV, FLAC, OGG/Vorbis, AIFF, ...), any other that GStreamer decodes\n"
        "(.m4a .mp4 .mkv .webm ...; a URI: http://..., fd://0), a headerless\n"
        "telephony file named by Asterisk's extensions (.gsm .g722 .ulaw .alaw .sln\n"
        ".sln16 ...) or '-' for standard input; it is downmixed to mono (mean of the\n"
        "channels) and resampled with libsoxr when --sample-rate differs from the\n"
        "file's rate.\n"
        "\n"
        "output:\n"
        "  -o, --output OUT        output file; '-' writes to standard output. Written to\n"
        "                          a temporary file beside OUT and renamed at the end, so\n"
        "                          a failure leaves no partial file and OUT untouched;\n"
        "                          OUT that is the input itself is refused\n"
        "  --format npy|tsv        npy: frames x dims float32 NumPy array (numpy.load);\n"
        "                          tsv: one frame per line, tab-separated, values that\n"
        "                          parse back to the same float32. Default: from OUT's\n"
        "                          extension (.npy; .tsv or .txt); tsv for '-'\n"
        "\n"
        "features (defaults in brackets):\n"
        "  --model M               the features model M takes: its settings, its rate,\n"
        "                          the samples on the 16-bit grid as its labeler and\n"
        "                          trainer round them; before its normalisation (seqlabel\n"
        "                          info --json: normalisation). Not with the other\n"
        "                          options of this list\n"
        "  --sample-rate R         compute features at R Hz [the file's own rate]\n"
        "  --frame-length MS       window length in ms [%g]\n"
        "  --frame-shift MS        hop in ms [%g]\n"
        "  --mel-bins N            mel filterbank bins [%d]\n"
        "  --window NAME           povey|hann|hamming|rectangular [povey]\n"
        "  --low-freq HZ           lowest filterbank frequency [%g]\n"
        "  --high-freq HZ          highest frequency; <= 0 means Nyquist + HZ [%g]\n"
        "  --energy                add log-energy as dimension 0 (Kaldi's use_energy)\n"
        "  --mfcc N                N cepstral coefficients instead of log-mel [off]\n"
        "  --dither X              Gaussian dither, stddev in int16 units [%g = off]\n"
        "  --seed S                seed of the dither generator [%u]\n"
        "\n"
        "input:\n"
        "  --resample-quality Q    best|medium|fast (libsoxr VHQ steep, HQ, LQ) [best]\n"
        "  --raw-format ENC        headerless input: s16le|f32le|ulaw|alaw|gsm|g722\n"
        "                          (G.722: 64 kbit/s, files only), with --raw-rate and\n"
        "                          --raw-channels (default 1; the codecs are mono)\n"
        "  --raw-rate R            sample rate of headerless input\n"
        "  --raw-channels C        channels of headerless input [1]\n"
        "\n"
        "  -h, --help              this text\n"
        "\n"
        "Errors (missing, unreadable or empty file, NaN/Inf samples with their\n"
        "position, missing output directory) print one line naming the file and exit 1.\n",
        d.frame_length_ms, d.frame_shift_ms, d.num_mel_bins, d.low_freq, d.high_freq, d.dither,
        (unsigned)d.dither_seed);
}

enum {
    OPT_FORMAT = 256, OPT_MEL, OPT_WINDOW, OPT_RATE, OPT_FLEN, OPT_FSHIFT, OPT_LOW, OPT_HIGH,
    OPT_ENERGY, OPT_MFCC, OPT_DITHER, OPT_SEED, OPT_QUALITY, OPT_RAW, OPT_RAW_RATE, OPT_RAW_CH,
    OPT_MODEL,
};

static const struct option long_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"mel-bins", required_argument, NULL, OPT_MEL},
    {"window", required_argument, NULL, OPT_WINDOW},
    {"sample-rate", required_argument, NULL, OPT_RATE},
    {"frame-length", required_argument, NULL, OPT_FLEN},
    {"frame-shift", required_argument, NULL, OPT_FSHIFT},
    {"low-freq", required_argument, NULL, OPT_LOW},
    {"high-freq", required_argument, NULL, OPT_HIGH},
    {"energy", no_argument, NULL, OPT_ENERGY},
    {"mfcc", required_argument, NULL, OPT_MFCC},
    {"dither", required_argument, NULL, OPT_DITHER},
    {"seed", required_argument, NULL, OPT_SEED},
    {"resample-quality", required_argument, NULL, OPT_QUALITY},
    {"raw-format", required_argument, NULL, OPT_RAW},
    {"raw-rate", required_argument, NULL, OPT_RAW_RATE},
    {"raw-channels", required_argument, NULL, OPT_RAW_CH},
    {"model", required_argument, NULL, OPT_MODEL},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct {
    const char *in_path, *out_path;
    out_format format;
    sl_feature_config cfg;
    int want_rate; /* 0: the file's own */
    sl_audio_options audio;
    const char *model_path; /* --model: its settings, the 16-bit grid */
    const char *setting;    /* a feature option given, which --model leaves out */
} features_args;

static int parse_window(const char *s, sl_window_type *w)
{
    static const struct {
        const char *name;
        sl_window_type type;
    } names[] = {{"povey", SL_WINDOW_POVEY}, {"hann", SL_WINDOW_HANN},
                 {"hamming", SL_WINDOW_HAMMING}, {"rectangular", SL_WINDOW_RECTANGULAR}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name)) {
            *w = names[i].type;
            return 0;
        }
    cli_error("--window: '%s' is not one of povey, hann, hamming, rectangular", s);
    return -1;
}

static out_format format_from_name(const char *path)
{
    if (!strcmp(path, "-"))
        return FORMAT_TSV;
    const char *dot = cli_extension(path);
    if (!dot)
        return FORMAT_AUTO;
    if (!strcasecmp(dot, ".npy"))
        return FORMAT_NPY;
    if (!strcasecmp(dot, ".tsv") || !strcasecmp(dot, ".txt"))
        return FORMAT_TSV;
    return FORMAT_AUTO;
}

/* Returns 0 to run, 1 on a usage error, -1 after --help. */
static int parse_args(int argc, char **argv, features_args *a)
{
    memset(a, 0, sizeof *a);
    sl_feature_config_default(&a->cfg);
    sl_audio_options_default(&a->audio);
    a->audio.raw_channels = 0; /* not given: 1, once checked below */
    long iv;
    double dv;
    opterr = 0;
    optind = 1;
    int c;
    int at = -1;
    while ((c = getopt_long(argc, argv, ":o:h", long_opts, &at)) != -1) {
        if (c >= OPT_MEL && c <= OPT_SEED && at >= 0)
            a->setting = long_opts[at].name;
        switch (c) {
        case OPT_MODEL:
            a->model_path = optarg;
            break;
        case 'o':
            if (!optarg[0])
                return cli_error("-o: an empty name");
            a->out_path = optarg;
            break;
        case 'h': usage(stdout); return -1;
        case OPT_FORMAT:
            if (!strcmp(optarg, "npy")) a->format = FORMAT_NPY;
            else if (!strcmp(optarg, "tsv")) a->format = FORMAT_TSV;
            else return cli_error("--format: '%s' is not npy or tsv", optarg);
            break;
        case OPT_MEL:
            if (cli_parse_int("--mel-bins", optarg, SL_MIN_MEL_BINS, SL_MAX_MEL_BINS, &iv)) return 1;
            a->cfg.num_mel_bins = (int)iv;
            break;
        case OPT_WINDOW:
            if (parse_window(optarg, &a->cfg.window)) return 1;
            break;
        case OPT_RATE:
            if (cli_parse_int("--sample-rate", optarg, SL_MIN_SAMPLE_RATE, SL_MAX_SAMPLE_RATE, &iv)) return 1;
            a->want_rate = (int)iv;
            break;
        case OPT_FLEN:
            if (cli_parse_float("--frame-length", optarg, 0.1, 10000, &dv)) return 1;
            a->cfg.frame_length_ms = (float)dv;
            break;
        case OPT_FSHIFT:
            if (cli_parse_float("--frame-shift", optarg, 0.1, 10000, &dv)) return 1;
            a->cfg.frame_shift_ms = (float)dv;
            break;
        case OPT_LOW:
            if (cli_parse_float("--low-freq", optarg, 0, 1e6, &dv)) return 1;
            a->cfg.low_freq = (float)dv;
            break;
        case OPT_HIGH:
            if (cli_parse_float("--high-freq", optarg, -1e6, 1e6, &dv)) return 1;
            a->cfg.high_freq = (float)dv;
            break;
        case OPT_ENERGY: a->cfg.use_energy = 1; break;
        case OPT_MFCC:
            if (cli_parse_int("--mfcc", optarg, 1, 4096, &iv)) return 1;
            a->cfg.num_ceps = (int)iv;
            break;
        case OPT_DITHER:
            if (cli_parse_float("--dither", optarg, 0, 1e6, &dv)) return 1;
            a->cfg.dither = (float)dv;
            break;
        case OPT_SEED:
            if (cli_parse_int("--seed", optarg, 0, 4294967295L, &iv)) return 1;
            a->cfg.dither_seed = (uint32_t)iv;
            break;
        case OPT_QUALITY:
            if (!strcmp(optarg, "best")) a->audio.quality = SL_RESAMPLE_BEST;
            else if (!strcmp(optarg, "medium")) a->audio.quality = SL_RESAMPLE_MEDIUM;
            else if (!strcmp(optarg, "fast")) a->audio.quality = SL_RESAMPLE_FAST;
            else return cli_error("--resample-quality: '%s' is not best, medium or fast", optarg);
            break;
        case OPT_RAW:
            if (sl_raw_encoding_from_name(optarg, &a->audio.raw_encoding) < 0)
                return cli_error("--raw-format: '%s' is not one of " SL_CLI_RAW_FORMATS, optarg);
            break;
        case OPT_RAW_RATE:
            if (cli_parse_int("--raw-rate", optarg, 1, 1000000, &iv)) return 1;
            a->audio.raw_rate = (int)iv;
            break;
        case OPT_RAW_CH:
            if (cli_parse_int("--raw-channels", optarg, 1, 1024, &iv)) return 1;
            a->audio.raw_channels = (int)iv;
            break;
        case ':': return cli_error("features: option %s needs a value", argv[optind - 1]);
        default: return cli_error("features: %s (see seqlabel features --help)", cli_refused_option(argv, long_opts));
        }
    }
    if (optind != argc - 1)
        return cli_error(optind >= argc ? "features: no input file (see seqlabel features --help)"
                                        : "features: exactly one input file, please (see --help)");
    a->in_path = argv[optind];
    if (a->model_path && a->setting)
        return cli_error("features: --%s: --model gives the model's own settings (seqlabel "
                         "info MODEL shows them); leave out one or the other", a->setting);
    if (!a->out_path)
        return cli_error("features: no output given: -o OUT (a .npy or .tsv file, or '-')");
    if (a->audio.raw_encoding != SL_RAW_NONE && a->audio.raw_rate <= 0)
        return cli_error("features: --raw-format needs --raw-rate");
    if (a->audio.raw_encoding == SL_RAW_NONE && (a->audio.raw_rate > 0 || a->audio.raw_channels))
        return cli_error("features: %s goes with --raw-format (headerless input)",
                         a->audio.raw_rate > 0 ? "--raw-rate" : "--raw-channels");
    if (!a->audio.raw_channels)
        a->audio.raw_channels = 1;
    if (a->format == FORMAT_AUTO) {
        a->format = format_from_name(a->out_path);
        if (a->format == FORMAT_AUTO)
            return cli_error("%s: cannot tell the format from the name: use --format npy|tsv", a->out_path);
    }
    a->audio.target_rate = a->want_rate;
    return 0;
}

typedef struct {
    FILE *fp;
    out_format format;
    int failed;     /* a write failed: stop pushing */
    int64_t frames; /* rows written */
} frame_sink;

static int write_frame(void *user, int64_t index, const float *frame, int dim)
{
    (void)index;
    frame_sink *s = user;
    s->frames++;
    if (s->format == FORMAT_NPY) {
        if (npy_write_rows(s->fp, frame, 1, dim) != 0)
            s->failed = 1;
    } else {
        /* %.9g: nine significant digits read back as the same float32. */
        for (int j = 0; j < dim; j++)
            if (fprintf(s->fp, j ? "\t%.9g" : "%.9g", (double)frame[j]) < 0)
                s->failed = 1;
        if (fputc('\n', s->fp) == EOF)
            s->failed = 1;
    }
    return s->failed;
}

/* Whether npy, which states its row count in its header, written last, can be
 * written in place: fp is a regular file at its start and not appending (a
 * temporary file; standard output redirected with `>` before anything else
 * was written to it). Otherwise (a pipe; `>>`; a script's lines before it)
 * it is assembled in a spool file and copied after. */
static int seekable(FILE *fp)
{
    struct stat st;
    const int fd = fileno(fp), flags = fcntl(fd, F_GETFL);
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flags >= 0 && !(flags & O_APPEND) &&
           lseek(fd, 0, SEEK_CUR) == 0;
}

/* "NAME: write failed: reason" (errno's, when it has one); returns 1. */
static int write_failed(const char *name)
{
    return cli_error("%s: write failed%s%s", name, errno ? ": " : "", errno ? strerror(errno) : "");
}

int sl_cmd_features(int argc, char **argv)
{
    features_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) /* -1: --help; else a usage error, said */
        return rc < 0 ? 0 : 2;

    char err[SL_ERR_LEN];
    if (a.model_path) { /* its settings and rate; its samples' grid below */
        sl_model *m = sl_model_load(a.model_path, err, sizeof err);
        if (!m)
            return cli_error("%s", err);
        a.cfg = *sl_model_feature_config(m);
        a.want_rate = a.audio.target_rate = a.cfg.sample_rate;
        sl_model_free(m);
    }
    /* settings no rate can take (more cepstra than mel bins) are a wrong
     * command line, said before the input is opened: at the rate asked for,
     * else at none of the usual rates (one of them may fit where 16 kHz's
     * Nyquist and 384 kHz's window length do not: the file's rate decides) */
    static const int rates[] = {16000, 8000, 11025, 22050, 32000, 44100, 48000, 96000, 192000,
                                SL_MAX_SAMPLE_RATE};
    int fits = 0;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0] && !fits; i++) {
        sl_feature_config at = a.cfg;
        at.sample_rate = a.want_rate ? a.want_rate : rates[i];
        fits = sl_feature_config_validate(&at, i ? NULL : err, sizeof err) == 0;
        if (a.want_rate)
            break;
    }
    if (!fits)
        return cli_usage_error("features: %s", err);
    if (cli_output_is_input(a.out_path, a.in_path))
        return 1;
    sl_audio_reader *r = sl_audio_open_ex(a.in_path, &a.audio, err, sizeof err);
    if (!r)
        return cli_error("%s", err);
    a.cfg.sample_rate = sl_audio_rate(r);
    sl_features *feat = sl_features_new(&a.cfg, err, sizeof err);
    if (!feat) {
        /* settings fit for one rate may not fit another: name the file and,
         * when its own rate is the trouble, the way round */
        sl_feature_config at16 = a.cfg;
        at16.sample_rate = 16000;
        const int resampling_helps = !a.want_rate && a.cfg.sample_rate != 16000 &&
                                     sl_feature_config_validate(&at16, NULL, 0) == 0;
        rc = cli_error("features: %s at %d Hz%s: %s%s", a.in_path, a.cfg.sample_rate,
                       a.want_rate ? "" : " (its own rate)", err,
                       resampling_helps ? "; --sample-rate 16000 resamples it" : "");
        sl_audio_close(r);
        return rc;
    }
    const int dim = sl_feature_dim(&a.cfg);

    cli_output out;
    FILE *spool = NULL;
    float *pcm = malloc(sizeof(float) * READ_BLOCK);
    if (!pcm || cli_output_open(&out, a.out_path, "wb") != 0) {
        if (!pcm)
            cli_error("out of memory");
        free(pcm);
        sl_features_free(feat);
        sl_audio_close(r);
        return 1;
    }
    const char *dest_name = strcmp(a.out_path, "-") ? a.out_path : "standard output";
    const char *out_name = dest_name; /* where a write fails */
    char spool_name[4200];
    frame_sink sink = {.fp = out.fp, .format = a.format};
    if (a.format == FORMAT_NPY && !seekable(out.fp)) {
        spool = cli_spool();
        snprintf(spool_name, sizeof spool_name, "%s (a temporary file there assembles the .npy "
                 "output)", cli_tmp_folder());
        if (!spool) {
            rc = cli_error("%s: cannot create a temporary file to assemble the .npy output: %s",
                           cli_tmp_folder(), strerror(errno));
            goto done;
        }
        sink.fp = spool;
        out_name = spool_name; /* where a write fails, up to the copy */
    }
    errno = 0;
    if (a.format == FORMAT_NPY && npy_begin(sink.fp, dim) != 0) {
        rc = write_failed(out_name);
        goto done;
    }
    for (;;) {
        long n = sl_audio_read(r, pcm, READ_BLOCK, err, sizeof err);
        if (n < 0) {
            rc = cli_error("%s", err);
            goto done;
        }
        if (n == 0)
            break;
        if (a.model_path) /* as the model's labeler and trainer take them */
            sl_quantize_s16(pcm, pcm, (size_t)n);
        if (sl_features_push(feat, pcm, (size_t)n, write_frame, &sink, err, sizeof err) != 0) {
            /* the extractor counts the samples it is given: where they are not
             * the file's own (resampled, channels mixed), it is said */
            const int mixed = sl_audio_channels(r) > 1,
                      resampled = sl_audio_file_rate(r) != a.cfg.sample_rate;
            char where[128] = "";
            if (mixed || resampled)
                snprintf(where, sizeof where, " (value and position of the %s%s at %d Hz)",
                         mixed ? "channels' mean" : "samples", resampled ? ", resampled," : "",
                         a.cfg.sample_rate);
            rc = sink.failed ? write_failed(out_name)
                             : cli_error("%s: %s%s", strcmp(a.in_path, "-") ? a.in_path
                                                                         : "standard input",
                                         err, where);
            goto done;
        }
    }
    if (a.format == FORMAT_NPY && npy_finish(sink.fp, sink.frames, dim) != 0) {
        rc = write_failed(out_name);
        goto done;
    }
    if (spool && cli_copy_file(spool, out.fp) != 0)
        rc = write_failed(dest_name);
done:
    if (spool)
        fclose(spool);
    if (rc == 0)
        rc = cli_output_commit(&out);
    else
        cli_output_abort(&out);
    free(pcm);
    sl_features_free(feat);
    sl_audio_close(r);
    return rc;
}
