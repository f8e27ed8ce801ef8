/* Helpers of the element tests: a small random-weight model saved to a temp
 * file, a test signal, the library's own labels as the reference, and the
 * element's labels read back from bus messages and buffer metas. */
#ifndef PLUGIN_TEST_UTIL_H
#define PLUGIN_TEST_UTIL_H

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <stdint.h>

#include "seqlabel.h"

#define PT_RATE 16000
#define PT_HOP 160

/* Initialises GStreamer once and checks the seqlabel plugin is found. */
void pt_init(void);

/* Classes silence, speech, music, noise; 23 mel bins at 16 kHz; d_model 16,
 * 2 heads, 2 layers; stream window 24 frames, 6 left, 4 lookahead. Saved once
 * per process in a temporary directory; returns its path. */
const char *pt_model_path(void);
const char *pt_tmp_dir(void);

/* n samples of noise whose loudness and colour change every ~0.3 s, in
 * [-0.5, 0.5] and quantised to k/32768 (so S16 and F32 carry the same values). */
float *pt_signal(int64_t n, uint64_t seed);

typedef struct {
  int64_t n, cap;
  int64_t *index;
  int *label;
  float *conf;
  float *probs;          /* n x PT_K */
  GstClockTime *pts;     /* element side only */
  GstClockTime *dur;
} pt_frames;

#define PT_K 4

void pt_frames_init (pt_frames * f);
void pt_frames_free (pt_frames * f);
void pt_frames_add (pt_frames * f, int64_t index, int label, float conf,
    const float *probs, GstClockTime pts, GstClockTime dur);

/* The library's labels for pcm pushed at once, then finish; cfg may be NULL
 * (defaults). Segments (start, end, label) go to segs when not NULL (3 per). */
void pt_reference (const float *pcm, int64_t n, const sl_labeler_config * cfg,
    pt_frames * out, GArray * segs);
/* The same, pushed in two parts, the switch penalty and the target class's
 * thresholds set to penalty, on, off (sl_labeler_retune) after the first `at`
 * samples. */
void pt_reference_retuned (const float *pcm, int64_t n, const sl_labeler_config * cfg,
    int64_t at, float penalty, float on, float off, pt_frames * out, GArray * segs);

/* Pops every "seqlabel" frame message (those with a "frame" field). */
void pt_collect_frame_messages (GstBus * bus, pt_frames * out);
/* Appends the frames of a buffer's GstSeqLabelMeta (none: nothing). */
void pt_collect_meta (GstBuffer * buf, pt_frames * out);

/* Same frames, labels, bitwise equal confidences and probabilities; and, if
 * the element side has times, frame i of the run starting at t0 at
 * t0 + i * 10 ms. */
void pt_assert_frames_equal (const pt_frames * element, const pt_frames * ref,
    int64_t index_offset, GstClockTime t0);

/* An sl_samples_fn appending to a GArray of float (user). */
int pt_append_samples (void *user, const float *mono, size_t n);

/* Writes a 16-bit PCM WAV of pcm (already k/32768 values), every channel the same. */
void pt_write_wav (const char *path, const float *pcm, int64_t n, int rate, int channels);
/* The same in another libsndfile subformat (SF_FORMAT_PCM_24, _PCM_U8, _FLOAT...). */
void pt_write_wav_as (const char *path, const float *pcm, int64_t n, int rate, int channels,
    int subformat);

/* An element with the test model, per-frame messages, on its own bus (*bus),
 * in a harness with `caps` (NULL: none yet); then the given properties
 * (NULL-terminated name/value pairs), set before it starts. */
GstHarness *pt_make_harness (GstBus ** bus, const char *caps, ...);
void pt_free_harness (GstHarness * h, GstBus * bus);
/* n interleaved 16-bit frames of `channels` channels at `rate`, stamped on
 * that rate's clock from frame `offset`. */
GstFlowReturn pt_push_s16_at (GstHarness * h, const gint16 * s, int64_t n, int channels,
    int rate, int64_t offset);

#endif
