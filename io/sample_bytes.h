/* Bytes a sample of a libsndfile format's encoding takes, as libsndfile counts
 * them (a frame: channels times this), shared by the reader's truncation check
 * and the command's cut (tools/cut_audio.c); 0 for codings whose blocks hold
 * many frames (ADPCM, GSM, FLAC, Vorbis, ...). */
#ifndef SL_SAMPLE_BYTES_H
#define SL_SAMPLE_BYTES_H

#include <sndfile.h>

static inline int sl_sample_bytes(int format)
{
    switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_S8: case SF_FORMAT_PCM_U8: case SF_FORMAT_ALAW: case SF_FORMAT_ULAW:
        return 1;
    case SF_FORMAT_PCM_16: return 2;
    case SF_FORMAT_PCM_24: return 3;
    case SF_FORMAT_PCM_32: case SF_FORMAT_FLOAT: return 4;
    case SF_FORMAT_DOUBLE: return 8;
    default: return 0;
    }
}

#endif
