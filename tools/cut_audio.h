/* `seqlabel label --cut`: a labelled file's kept frames as audio. */
#ifndef SL_CUT_AUDIO_H
#define SL_CUT_AUDIO_H

#include <stdint.h>

/* Writes to out_path (atomically) the audio of in_path at its rate and
 * channels, in the container out_path's extension names (else in_path's),
 * where keep[f] is set for frame f of n_frames (frames `hop` samples apart at
 * `model_rate`); the other frames are dropped, or written as silence with
 * `silence`. Returns 0, or 1 with the error printed. */
int cli_cut_audio(const char *in_path, const char *out_path, const unsigned char *keep,
                  int64_t n_frames, int hop, int model_rate, int silence);

#endif
