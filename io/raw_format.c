/* Headerless audio: the encodings `--raw-format` names, and the telephony
 * files Asterisk names by extension alone (its prompts and music on hold ship
 * as .gsm, .g722, .ulaw, .sln16, ... with no header to say what they hold). */
#include "io/io_internal.h"
#include "io/sample_bytes.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    sl_raw_encoding enc;
    int sf_subtype; /* 0: not libsndfile's (G.722) */
    int mono;       /* a codec: one channel only */
    int rate;       /* a codec's one sample rate; 0: any */
    const char *title;
} ENCODINGS[] = {
    {"s16le", SL_RAW_S16LE, SF_FORMAT_PCM_16, 0, 0, NULL},
    {"f32le", SL_RAW_F32LE, SF_FORMAT_FLOAT, 0, 0, NULL},
    {"ulaw", SL_RAW_ULAW, SF_FORMAT_ULAW, 1, 0, NULL},
    {"alaw", SL_RAW_ALAW, SF_FORMAT_ALAW, 1, 0, NULL},
    {"gsm", SL_RAW_GSM, SF_FORMAT_GSM610, 1, 8000, "GSM 06.10"}, /* 160 samples a 20 ms frame */
    {"g722", SL_RAW_G722, 0, 1, 16000, "G.722"},
};
#define N_ENCODINGS (sizeof ENCODINGS / sizeof ENCODINGS[0])

/* Asterisk's format modules: format_pcm, format_gsm, format_g722, format_sln. */
static const struct {
    const char *ext;
    sl_raw_encoding enc;
    int rate;
} EXTENSIONS[] = {
    {"ulaw", SL_RAW_ULAW, 8000},    {"ul", SL_RAW_ULAW, 8000},      {"mu", SL_RAW_ULAW, 8000},
    {"alaw", SL_RAW_ALAW, 8000},    {"al", SL_RAW_ALAW, 8000},      {"gsm", SL_RAW_GSM, 8000},
    {"g722", SL_RAW_G722, 16000},   {"sln", SL_RAW_S16LE, 8000},    {"sln12", SL_RAW_S16LE, 12000},
    {"sln16", SL_RAW_S16LE, 16000}, {"sln24", SL_RAW_S16LE, 24000}, {"sln32", SL_RAW_S16LE, 32000},
    {"sln44", SL_RAW_S16LE, 44100}, {"sln48", SL_RAW_S16LE, 48000}, {"sln96", SL_RAW_S16LE, 96000},
    {"sln192", SL_RAW_S16LE, 192000},
};

/* Asterisk's other headerless formats: known, so that the error can say what
 * the file is, but not decoded (no Debian package ships sounds in them). */
static const struct {
    const char *ext, *codec;
} UNDECODED[] = {
    {"g729", "G.729"},        {"g723", "G.723.1"},        {"g726-16", "G.726"},
    {"g726-24", "G.726"},     {"g726-32", "G.726"},       {"g726-40", "G.726"},
    {"ilbc", "iLBC"},         {"siren7", "Siren7 (G.722.1)"}, {"siren14", "Siren14 (G.722.1C)"},
};

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot ? dot + 1 : NULL;
}

int sl_audio_name_compressed(const char *path)
{
    static const char *const compressed[] = {"ogg", "oga", "ogv", "ogx", "spx", "opus",
                                             "flac", "mp3", "mp2"};
    const char *ext = extension(path);
    for (size_t i = 0; ext && i < sizeof compressed / sizeof compressed[0]; i++)
        if (!strcasecmp(ext, compressed[i]))
            return 1;
    return 0;
}

const char *sl_raw_undecoded_codec(const char *path)
{
    const char *ext = extension(path);
    for (size_t i = 0; ext && i < sizeof UNDECODED / sizeof UNDECODED[0]; i++)
        if (!strcasecmp(ext, UNDECODED[i].ext))
            return UNDECODED[i].codec;
    return NULL;
}

int sl_raw_encoding_from_name(const char *name, sl_raw_encoding *enc)
{
    for (size_t i = 0; name && i < N_ENCODINGS; i++)
        if (!strcmp(name, ENCODINGS[i].name)) {
            *enc = ENCODINGS[i].enc;
            return 0;
        }
    return -1;
}

int sl_raw_format_from_path(const char *path, sl_raw_encoding *enc, int *rate)
{
    const char *ext = extension(path);
    if (!ext)
        return 0;
    for (size_t i = 0; i < sizeof EXTENSIONS / sizeof EXTENSIONS[0]; i++)
        if (!strcasecmp(ext, EXTENSIONS[i].ext)) {
            *enc = EXTENSIONS[i].enc;
            *rate = EXTENSIONS[i].rate;
            return 1;
        }
    return 0;
}

int sl_audio_is_uri(const char *path)
{
    /* scheme "://": a letter, then letters, digits, '+', '-' or '.' */
    if (!path || !isalpha((unsigned char)path[0]))
        return 0;
    const char *p = path + 1;
    while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
        p++;
    return !strncmp(p, "://", 3);
}

int sl_audio_name_known(const char *path)
{
    /* libsndfile's own (its damaged files its messages say best: GStreamer
     * would only hand 8SVX, AVR, ... to its sndfile element, which at times
     * neither decodes nor fails) */
    static const char *const exts[] = {"wav", "wave", "bwf", "w64", "rf64", "flac", "ogg", "oga",
                                       "opus", "mp3", "mp2", "aif", "aiff", "aifc", "au", "snd",
                                       "caf", "sph", "nist", "voc", "sd2", "8svx", "16sv", "svx",
                                       "avr", "wve", "paf", "pvf", "xi"};
    /* containers and codecs GStreamer decodes (io/media_source.c) */
    static const char *const media[] = {"m4a", "m4b", "mp4", "aac", "mkv", "mka", "webm", "wma",
                                        "wmv", "mov", "avi", "3gp", "amr", "ac3", "mpg", "mpeg"};
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    const char *ext = extension(path);
    if (!ext || ext == name + 1) /* ".hidden" has no extension */
        return 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(ext, exts[i]))
            return 1;
    for (size_t i = 0; i < sizeof media / sizeof media[0]; i++)
        if (!strcasecmp(ext, media[i]))
            return 2;
    sl_raw_encoding enc;
    int rate;
    return sl_raw_format_from_path(path, &enc, &rate);
}

int sl_raw_sf_info(const sl_audio_options *opt, const char *name, long long bytes, SF_INFO *info,
                   char *err, size_t errlen)
{
    size_t i = 0;
    while (i < N_ENCODINGS && ENCODINGS[i].enc != opt->raw_encoding)
        i++;
    if (i == N_ENCODINGS) {
        sl_io_err(err, errlen, "%s: unknown raw sample encoding %d", name, (int)opt->raw_encoding);
        return -1;
    }
    const int max_ch = ENCODINGS[i].mono ? 1 : SL_AUDIO_MAX_CHANNELS;
    if (opt->raw_rate <= 0 || opt->raw_channels <= 0 || opt->raw_channels > max_ch) {
        sl_io_err(err, errlen, "%s: raw %s input needs a sample rate > 0 and %s (got %d Hz, %d)",
                 name, ENCODINGS[i].name, max_ch == 1 ? "one channel" : "1..1024 channels",
                 opt->raw_rate, opt->raw_channels);
        return -1;
    }
    /* a codec of one rate: another would play its frames at the wrong speed */
    if (ENCODINGS[i].rate && opt->raw_rate != ENCODINGS[i].rate) {
        sl_io_err(err, errlen, "%s: %s audio is %d Hz, not %d", name, ENCODINGS[i].title,
                  ENCODINGS[i].rate, opt->raw_rate);
        return -1;
    }
    /* a file that ends mid-sample was cut, or holds another encoding or channel
     * count than given: libsndfile would drop the odd bytes without a word */
    const long long frame_bytes =
        (long long)sl_sample_bytes(ENCODINGS[i].sf_subtype) * opt->raw_channels;
    if (!ENCODINGS[i].mono && bytes > 0 && bytes % frame_bytes) {
        sl_io_err(err, errlen, "%s: %lld bytes are not whole samples of headerless %s audio, "
                  "%d channel%s (%lld bytes each): %lld byte%s left over (a cut file, or "
                  "another encoding or channel count?)", name, bytes, ENCODINGS[i].name,
                  opt->raw_channels, opt->raw_channels == 1 ? "" : "s", frame_bytes,
                  bytes % frame_bytes, bytes % frame_bytes == 1 ? "" : "s");
        return -1;
    }
    info->format = SF_FORMAT_RAW | SF_ENDIAN_LITTLE |
                   (ENCODINGS[i].sf_subtype ? ENCODINGS[i].sf_subtype : SF_FORMAT_PCM_16);
    info->samplerate = opt->raw_rate;
    info->channels = opt->raw_channels;
    return 0;
}
