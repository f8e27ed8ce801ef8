/* Which libsndfile format an audio output's name asks for (--cut, --split). */
#ifndef SL_AUDIO_OUT_FORMAT_H
#define SL_AUDIO_OUT_FORMAT_H

/* The container out_path's extension names (libsndfile's list; .ogg and .mp3
 * too), with in_format's encoding where it fits, else 24-bit for samples wider
 * than 16 bits, else 16-bit, else the container's own (Vorbis, MP3); 0 when
 * libsndfile cannot write it. No known extension: in_format. */
int cli_output_format(const char *out_path, int in_format, int rate, int channels);
/* The container out_path's extension names (its SF_FORMAT_ major; *wanted_sub,
 * if not NULL: the encoding the name asks for, .opus's, else 0), or 0 for none. */
int cli_output_container(const char *out_path, int *wanted_sub);
/* Asterisk's headerless names (.gsm .ulaw .alaw .sln16 ...): the encoding they
 * stand for, mono at their rate; 0 (said) where that cannot be: G.722 is read,
 * not written. -1: not such a name. */
int cli_asterisk_format(const char *name, int rate, int channels);
/* Whether path's name is one of audio read here (GStreamer's .m4a, .mka;
 * libsndfile's .mp2) that no container is written by (not Asterisk's
 * headerless names, which are). */
int cli_name_read_not_written(const char *path);
/* The extension of the files cut from in_path: its own (G.722's: .sln16, the
 * linear samples it decodes to, as G.722 is not written), standard input's
 * .wav, "" for a name without one. */
const char *cli_cut_extension(const char *in_path);

#endif
