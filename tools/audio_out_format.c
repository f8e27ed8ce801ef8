/* Which libsndfile format an audio output's name asks for: the container its
 * extension names (libsndfile's list; .ogg and .mp3 too), with the input's
 * encoding where it fits, and Asterisk's headerless names with their encoding. */
#include "tools/audio_out_format.h"

#include <string.h>
#include <strings.h>

#include <sndfile.h>

#include "seqlabel.h"
#include "tools/cli.h"
#include "io/io_internal.h"

int cli_output_container(const char *out_path, int *wanted_sub)
{
    const char *dot = cli_extension(out_path);
    int major = 0, count = 0;
    if (wanted_sub)
        *wanted_sub = 0;
    if (!dot)
        return 0;
    dot++;
    /* names libsndfile's list lacks: its Ogg is .oga, its AIFF .aiff, its AU
     * .au, its NIST .wav, its 8SVX .iff, and Opus is an Ogg encoding, which a
     * .opus name asks for whatever the input's; the other names it reads by */
    static const struct { const char *ext; int major, sub; } aliases[] = {
        {"ogg", SF_FORMAT_OGG, 0},         {"mp3", SF_FORMAT_MPEG, 0},
        {"opus", SF_FORMAT_OGG, SF_FORMAT_OPUS}, {"aif", SF_FORMAT_AIFF, 0},
        {"aifc", SF_FORMAT_AIFF, 0},       {"wave", SF_FORMAT_WAV, 0},
        {"bwf", SF_FORMAT_WAV, 0},         {"snd", SF_FORMAT_AU, 0},
        {"sph", SF_FORMAT_NIST, 0},        {"nist", SF_FORMAT_NIST, 0},
        {"8svx", SF_FORMAT_SVX, 0},        {"svx", SF_FORMAT_SVX, 0},
        {"16sv", SF_FORMAT_SVX, 0},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0] && !major; i++)
        if (!strcasecmp(dot, aliases[i].ext)) {
            major = aliases[i].major;
            if (wanted_sub)
                *wanted_sub = aliases[i].sub;
        }
    sf_command(NULL, SFC_GET_FORMAT_MAJOR_COUNT, &count, sizeof count);
    for (int i = 0; i < count && !major; i++) {
        SF_FORMAT_INFO fi = {.format = i};
        if (sf_command(NULL, SFC_GET_FORMAT_MAJOR, &fi, sizeof fi) == 0 && fi.extension &&
            !strcasecmp(dot, fi.extension))
            major = fi.format;
    }
    return major;
}

/* The container OUT's extension names (libsndfile's list; .ogg .mp3 .opus .aif too),
 * with the input's encoding where it fits, else a usual one; 0 when libsndfile
 * cannot write it. No known extension: the input's format. */
int cli_output_format(const char *out_path, int in_format, int rate, int channels)
{
    int wanted_sub;
    int major = cli_output_container(out_path, &wanted_sub);
    if (wanted_sub) {
        SF_INFO t = {.samplerate = rate, .channels = channels, .format = major | wanted_sub};
        return sf_format_check(&t) ? t.format : 0;
    }
    /* the input's own format into its own container, but for MPEG audio
     * libsndfile reads and does not write as it is */
    const int container = in_format & SF_FORMAT_TYPEMASK;
    /* MPEG audio libsndfile reads but writes only as Layer III in an MP3
     * file: inside a WAV (format tag 0x55), or MP1/MP2 into no named
     * container, its coding is chosen as for another container (a WAV) */
    const int layer3 = (in_format & SF_FORMAT_SUBMASK) == SF_FORMAT_MPEG_LAYER_III;
    const int mp3_inside = sl_mp3_coded(in_format) && (container != SF_FORMAT_MPEG || !layer3);
    if (mp3_inside && !major)
        major = SF_FORMAT_WAV;
    if ((!major || major == container) && !mp3_inside)
        return in_format;
    if (!major)
        major = container;
    /* into another container the input's encoding goes only if it is plain
     * samples (a WAV can claim MP3 inside, which libsndfile then cannot write) */
    int sub = in_format ? in_format & SF_FORMAT_SUBMASK : SF_FORMAT_FLOAT; /* 0: GStreamer's float */
    int wide = sub == SF_FORMAT_PCM_24 || sub == SF_FORMAT_PCM_32 || sub == SF_FORMAT_FLOAT ||
               sub == SF_FORMAT_DOUBLE;
    int plain = wide || sub == SF_FORMAT_PCM_S8 || sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_PCM_16;
    /* samples wider than 16 bits keep 24 where the container takes no more
     * (float into FLAC) */
    const int subtypes[] = {plain ? sub : SF_FORMAT_PCM_16, wide ? SF_FORMAT_PCM_24 : SF_FORMAT_PCM_16,
                            SF_FORMAT_PCM_16, SF_FORMAT_VORBIS, SF_FORMAT_MPEG_LAYER_III};
    for (size_t i = 0; i < sizeof subtypes / sizeof subtypes[0]; i++) {
        SF_INFO t = {.samplerate = rate, .channels = channels, .format = major | subtypes[i]};
        if (sf_format_check(&t))
            return t.format;
    }
    return 0;
}

/* Asterisk's headerless names (.gsm .ulaw .alaw .sln16 ...) get the encoding
 * they stand for, mono at their rate; 0 (said) where that cannot be: G.722 is
 * read, not written. -1: not such a name. */
int cli_asterisk_format(const char *name, int rate, int channels)
{
    sl_raw_encoding enc;
    int want_rate;
    if (!sl_raw_format_from_path(name, &enc, &want_rate))
        return -1;
    if (enc == SL_RAW_G722)
        return cli_error("%s: G.722 is read, not written here: name a .sln16 (its samples) or "
                         ".wav", name), 0;
    if (rate != want_rate || channels != 1)
        return cli_error("%s: Asterisk's files of this name are mono at %d Hz; the input is %d "
                         "Hz, %d channel%s", name, want_rate, rate, channels,
                         channels > 1 ? "s" : ""), 0;
    int sub = enc == SL_RAW_ULAW ? SF_FORMAT_ULAW : enc == SL_RAW_ALAW ? SF_FORMAT_ALAW
              : enc == SL_RAW_GSM ? SF_FORMAT_GSM610 : SF_FORMAT_PCM_16;
    return SF_FORMAT_RAW | SF_ENDIAN_LITTLE | sub;
}

int cli_name_read_not_written(const char *path)
{
    sl_raw_encoding enc;
    int rate;
    return sl_audio_name_known(path) && !cli_output_container(path, NULL) &&
           !sl_raw_format_from_path(path, &enc, &rate);
}

const char *cli_cut_extension(const char *in_path)
{
    if (!strcmp(in_path, "-"))
        return ".wav";
    const char *dot = cli_extension(in_path);
    if (!dot)
        return "";
    if (!strcasecmp(dot, ".g722"))
        return ".sln16";
    /* decoded by GStreamer (.m4a), or read by libsndfile under a name it does
     * not write (.mp2): a WAV, named so */
    return cli_name_read_not_written(in_path) ? ".wav" : dot;
}
