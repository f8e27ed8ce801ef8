/* Internal to io/: how headerless input is handed to libsndfile. */
#ifndef SL_IO_INTERNAL_H
#define SL_IO_INTERNAL_H

#include "seqlabel.h"

#include <sndfile.h>
#include <soxr.h>
#include <stddef.h>

#define SL_AUDIO_MAX_CHANNELS 1024

/* An error message into err (may be NULL), made one line. */
void sl_io_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A libsndfile open and the reason it failed, as one step (io/sndfile_open.c):
 *     sl_sf_open_begin(locked);
 *     sf = sl_sf_open_end(sf_open(...), &failed, locked);
 * where `locked` serializes it with every other open in the process (one
 * outside the lock resets the reason another reads): every open of the
 * library is, but those that may wait on a writer (io/audio_reader.c,
 * open_sndfile). */
typedef struct {
    int code;      /* sf_error(NULL) of the open that failed */
    char why[256]; /* its sf_strerror(NULL) */
} sl_sf_failure;
void sl_sf_open_begin(int locked);
SNDFILE *sl_sf_open_end(SNDFILE *sf, sl_sf_failure *failed, int locked);

/* MPEG audio (a libsndfile format): an MP3 file, or its frames inside another
 * container (a WAV of format tag 0x55), whose length is an estimate alike. */
int sl_mp3_coded(int format);

/* Fills info (format, rate, channels) for raw input of opt's encoding; -1 with a
 * message naming `name` when the encoding, rate or channel count cannot be, or
 * when a file's `bytes` of samples (-1: unknown, a pipe's) end mid-sample. */
int sl_raw_sf_info(const sl_audio_options *opt, const char *name, long long bytes, SF_INFO *info,
                   char *err, size_t errlen);

/* Whether path's extension names compressed media (.ogg .oga .ogv .ogx .spx
 * .opus .flac .mp3 .mp2), whose codec libraries inside libsndfile may fail on
 * what GStreamer decodes (FLAC or Speex in Ogg, AAC named .mp3). */
int sl_audio_name_compressed(const char *path);
/* The codec of a headerless Asterisk file that is not decoded here (.g729,
 * .g723, .g726-*, .ilbc, .siren7, .siren14), by the path's extension; else NULL. */
const char *sl_raw_undecoded_codec(const char *path);

/* G.722, which libsndfile does not decode: spandsp decodes the file and
 * libsndfile reads the result as raw 16-bit PCM through its virtual I/O, so
 * everything after the open (blocks, length checks, resampling) is shared.
 * info must come from sl_raw_sf_info. *src is freed with sl_g722_source_free
 * after sf_close. NULL with a message on failure. */
typedef struct sl_g722_source sl_g722_source;
SNDFILE *sl_g722_open(const char *path, const char *name, SF_INFO *info, sl_g722_source **src,
                      char *err, size_t errlen);
void sl_g722_source_free(sl_g722_source *src);

/* Audio that libsndfile does not read (MP4, Matroska, WMA, ...), decoded by
 * GStreamer and read by libsndfile as raw float through its virtual I/O (at the
 * stream's own rate and channels; its length unknown, as a pipe's): the audio
 * stream opt->stream names. *src is freed with sl_media_source_free after
 * sf_close; a non-zero *opt->interrupt ends the decoding as at its end; sl_media_source_error says
 * what stopped the decoding early (NULL: nothing did). NULL with a message
 * naming the file when it cannot be decoded. */
typedef struct sl_media_source sl_media_source;
SNDFILE *sl_media_open(const char *path, const char *name, const sl_audio_options *opt,
                       SF_INFO *info, sl_media_source **src, char *err, size_t errlen);
const char *sl_media_source_error(const sl_media_source *s);
void sl_media_source_free(sl_media_source *s);
/* The local path a file:// URI names (percent-decoded; malloc'd; a host in
 * it aside, as GStreamer's filesrc takes it), or NULL: another URI, or one
 * that names no path (a fragment or query in it). */
char *sl_media_local_path(const char *uri);
/* Has MP3 streams decoded in `pipeline` (a GstElement, a bin) cut their
 * encoder's delay and padding, as read by name (io/mp3_gapless.c). */
struct _GstElement;
void sl_mp3_gapless_watch(struct _GstElement *pipeline);
/* Whether the MP3 file at path states its length (its first frame is a
 * Xing/Info tag, or it is not Layer III); without one, libsndfile's length is
 * libmpg123's estimate from the first frame's bit rate, and reading stops
 * there: a variable-bit-rate file ends early. Files joined by `cat` state the
 * first one's length alone (another's tag or frames follow where it ends). */
int sl_mp3_states_length(const char *path);

/* The two steps of every conversion to mono at another rate (io/converter.c):
 * sl_audio_read and sl_converter share them, so files and streams give the
 * same samples. sl_downmix: the mean of channels (> 1) per frame, or with channel > 0 that
 * channel alone (1-based). */
void sl_downmix(const float *in, long frames, int channels, int channel, float *out);
/* libsoxr, linear phase, float, one thread; `streaming` releases output sooner
 * (smaller DFTs, the same samples). NULL with a message naming `name` when the
 * ratio is beyond 1:256 or soxr refuses. */
soxr_t sl_resampler_new(int in_rate, int out_rate, sl_resample_quality quality, int streaming,
                        const char *name, char *err, size_t errlen);

/* When the recording of a Broadcast WAVE file began: its 'bext' chunk's
 * origination date and time, as local time (TZ), in microseconds since the Unix
 * epoch. 0; -1 when the file has no such chunk or its date is none. */
int sl_bwf_origination(SNDFILE *sf, int64_t *us);

/* The input's channel map (SF_CHANNEL_MAP_*, one per channel) into map
 * (sl_audio_channels ints), as libsndfile reads it: a WAVE_FORMAT_EXTENSIBLE
 * file's mask, CAF's and AIFF's channel layouts. 0; -1 where there is none to
 * write again: the file says none, its mask names fewer speakers than it has
 * channels (the rest left unnamed, which libsndfile refuses to write), or
 * GStreamer decoded it. */
int sl_audio_channel_map(const sl_audio_reader *r, int *map);

/* The frames a file's header promises (io/header_length.c) where its data
 * reaches past the file's end, counted as libsndfile counts them for a file of
 * its `format` and `channels` (SF_INFO's): WAV (RIFX, WAVEX), RF64, W64,
 * AIFF/AIFC, AU, NIST, VOC, 8SVX, CAF, MAT4, MAT5, AVR, WVE, MPC 2000 and XI,
 * of samples of a fixed size, and in WAV and W64 IMA and MS ADPCM and GSM
 * 6.10, AIFC's IMA ADPCM, GSM 6.10 and DWVW, AU's G.721 and G.723, WAV's
 * G.721 and NMS ADPCM. -1 where the file holds the whole data, or the size
 * is a placeholder (written before the length was known), or it is another
 * container or coding, or cannot be read. */
int64_t sl_header_promised_frames(const char *path, int format, int channels);

/* A header's data size that is a placeholder 0 with samples after it: where
 * the field is in the file, its bytes (4 or 8) and whether big-endian, and the
 * data it should claim (the bytes there). */
typedef struct {
    uint64_t at;
    int len, be;
    uint64_t bytes;
} sl_size_field;

/* Fills *field (io/header_length.c) where fd's file, of libsndfile's `format`
 * and `channels`, is a WAV (RIFX, WAVEX), an RF64 or an AU whose data size is 0
 * and at least a frame follows the data's start; -1 where not. */
int sl_header_zero_size(int fd, int format, int channels, sl_size_field *field);

/* Opens fd's file for libsndfile through its virtual I/O (io/sized_source.c),
 * every byte as on disk but field's, which claims field->bytes: a placeholder
 * data size read as the data there. fd is the source's, closed with it, also
 * when the open fails (NULL). *src is freed with sl_sized_source_free after
 * sf_close. */
typedef struct sl_sized_source sl_sized_source;
SNDFILE *sl_sized_open(int fd, const sl_size_field *field, SF_INFO *info, sl_sized_source **src);
void sl_sized_source_free(sl_sized_source *src);

#endif
