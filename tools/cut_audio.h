/* `seqlabel label --cut`: a labelled input's kept frames as audio, written as
 * the labels come. */
#ifndef SL_CUT_AUDIO_H
#define SL_CUT_AUDIO_H

#include <stdint.h>

#include "tools/audio_out_format.h"

typedef struct cli_cut cli_cut;

/* Opens out_path (under a temporary name) for audio at `rate` Hz with `channels`,
 * in the container out_path's extension names, else `in_format` (the input's
 * libsndfile format), with the input's channel map in_map (`channels` entries,
 * SF_CHANNEL_MAP_*; NULL: none) where the container holds one (a WAV then
 * WAVE_FORMAT_EXTENSIBLE); frames are `hop` samples apart at `model_rate`. The rest
 * is dropped, or written as silence with `silence`. in_frames: the input's
 * length (-1: unknown); a WAV cut of an input that could pass WAV's 4 GiB is
 * written as RF64 (made a WAV again, WAVE_FORMAT_EXTENSIBLE, if it stays under),
 * one of unknown length stops, said, before it would. NULL with the error
 * printed. */
cli_cut *cli_cut_open(const char *out_path, int in_format, const int *in_map, int64_t in_frames,
                      int rate, int channels, int hop, int model_rate, int silence);
/* --split: each run of kept frames as a file of its own,
 * DIR/STEM-NNNN_START-END.EXT (NNNN counts from 0001; START and END in seconds,
 * as the labels have them), in the container EXT names, else `in_format`, with
 * in_map as cli_cut_open's. With
 * max_s > 0 no file is longer than max_s seconds: a longer run is split at its
 * least likely frame (the target's probability) of the last third of max_s. */
cli_cut *cli_split_open(const char *dir, const char *stem, const char *ext, int in_format,
                        const int *in_map, int64_t in_frames, int rate, int channels, int hop,
                        int model_rate, double max_s);
/* Whether name is how --split names a piece of stem's: STEM-NNNN_START-END
 * and ext (the extension in any case; "" for names without one). */
int cli_is_piece_name(const char *name, const char *stem, const char *ext);
/* The input's next samples, in order (from an sl_audio_options.tap). */
void cli_cut_samples(cli_cut *c, const double *frames, long n_frames, int channels);
/* The next frame's decision, and the target's probability p there: its samples
 * are written (keep) or not. 0, or -1 when writing failed (reported by
 * cli_cut_finish). */
int cli_cut_frame(cli_cut *c, int keep, float p);
/* The samples after the last frame follow it; the file is renamed into place.
 * 0, or 1 with the error printed (nothing left behind). Frees c. */
int cli_cut_finish(cli_cut *c);
/* Whether writing failed because standard output's reader left (`--cut - |
 * head`): cli_cut_finish then says nothing, and the command ends as SIGPIPE
 * ends one. */
int cli_cut_reader_gone(const cli_cut *c);
/* Nothing is written; frees c (NULL is fine). */
void cli_cut_abort(cli_cut *c);

#endif
