/* The element's gate (gate=drop|silence, target-class): what comes out is
 * worked out here from the library's own labels of the same samples (frame i
 * covers the input samples of its hop's time span; a tail past the last frame
 * follows the last frame), never from the element's earlier output. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gst/audio/audio.h>
#include <gst/check/gstharness.h>

#include "gstseqlabelmeta.h"
#include "plugin_test_util.h"

#define SPEECH 1 /* the test model's speech class */
#define GATE_DROP 1    /* the "gate" property's values */
#define GATE_SILENCE 2

/* The labels of the library's labeler with target-class speech (thresholds
 * 0.45 / 0.4), on mono at 16 kHz; keep[f] says whether frame f passes. Returns
 * the frame count. */
static int64_t
reference_keep (const float *mono, int64_t n, guint8 ** keep)
{
  sl_labeler_config cfg;
  pt_frames ref;
  int64_t kept = 0, nf;

  sl_labeler_config_default (&cfg);
  cfg.decoder.target_class = SPEECH;
  cfg.decoder.on_threshold = 0.45f;     /* where the random test model splits its frames */
  cfg.decoder.off_threshold = 0.4f;
  pt_frames_init (&ref);
  pt_reference (mono, n, &cfg, &ref, NULL);
  nf = ref.n;
  *keep = g_new (guint8, nf);
  for (int64_t f = 0; f < nf; f++) {
    assert_int_equal (ref.index[f], f);
    (*keep)[f] = ref.label[f] == SPEECH;
    kept += (*keep)[f];
  }
  /* the signal must give both kinds of frame, or the test proves little */
  printf ("%lld of %lld frames pass\n", (long long) kept, (long long) nf);
  assert_true (kept > nf / 10 && kept < nf - nf / 10);
  pt_frames_free (&ref);
  return nf;
}

/* Whether input sample s (at `per_frame` input samples a frame) passes. */
static gboolean
sample_kept (const guint8 * keep, int64_t nf, int64_t per_frame, int64_t s)
{
  int64_t f = s / per_frame;
  return keep[f < nf ? f : nf - 1];
}

/* Pushes n frames of `channels` 16-bit samples in buffers of varying sizes, a
 * tag event in the middle, then EOS. Returns the harness. */
static GstHarness *
run_gate (int gate, const char *caps, const gint16 * s, int64_t n, int channels,
    int rate, GstBus ** bus)
{
  GstHarness *h = pt_make_harness (bus, caps, "target-class", "speech", "gate", gate,
      "threshold-on", 0.45, "threshold-off", 0.4, NULL);
  uint64_t seed = 7;
  int64_t off = 0;

  while (off < n) {
    int64_t len;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    len = MIN (n - off, 1 + (int64_t) ((seed >> 33) % 3000));
    assert_int_equal (pt_push_s16_at (h, s + channels * off, len, channels, rate, off),
        GST_FLOW_OK);
    off += len;
  }
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  return h;
}

/* gate=silence: every sample comes out, at its own time, the dropped ones as
 * zeros; gate=drop: only the kept samples, each piece at its samples' time,
 * DISCONT after a gap; in both the labels are the library's. The labels on the
 * buffers (GstSeqLabelMeta) are the same frames in both, each once, in order:
 * those of a buffer dropped whole ride on the next piece that passes; only
 * after the last piece that passes has drop fewer (no buffer to ride on). */
static void
test_gate_at_model_rate (void **state)
{
  const int64_t N = 4 * PT_RATE + 77;
  float *x = pt_signal (N, 12);
  gint16 *s = g_new (gint16, N);
  guint8 *keep;
  int64_t nf, kept = 0;
  (void) state;

  for (int64_t i = 0; i < N; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  nf = reference_keep (x, N, &keep);
  for (int64_t i = 0; i < N; i++)
    kept += sample_kept (keep, nf, PT_HOP, i);

  GArray *meta_frames[2] = { g_array_new (FALSE, FALSE, sizeof (GstSeqLabelFrame)),
    g_array_new (FALSE, FALSE, sizeof (GstSeqLabelFrame)) };
  GArray *meta_probs[2] = { g_array_new (FALSE, FALSE, sizeof (gfloat)),
    g_array_new (FALSE, FALSE, sizeof (gfloat)) };
  guint64 latency_ns = 0;
  for (int mode = 0; mode < 2; mode++) {
    GstBus *bus;
    GstHarness *h = run_gate (mode ? GATE_DROP : GATE_SILENCE,
        "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved", s, N, 1,
        PT_RATE, &bus);
    GstBuffer *b;
    int64_t next = 0, got = 0;

    while ((b = gst_harness_try_pull (h)) != NULL) {
      GstMapInfo map;
      int64_t at = (int64_t) gst_util_uint64_scale_round (GST_BUFFER_PTS (b), PT_RATE,
          GST_SECOND);
      int64_t len = (int64_t) (gst_buffer_get_size (b) / sizeof (gint16));
      GstSeqLabelMeta *m = gst_buffer_get_seqlabel_meta (b);
      if (m != NULL) {
        g_array_append_vals (meta_frames[mode], m->frames, m->n_frames);
        assert_int_equal (m->n_classes, PT_K);
        g_array_append_vals (meta_probs[mode], m->probabilities, m->n_frames * PT_K);
      }
      assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
      if (mode == 0) {          /* silence: contiguous, everything */
        assert_int_equal (at, next);
      } else {                  /* drop: a jump is a DISCONT, never backwards */
        assert_true (at >= next);
        assert_int_equal (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DISCONT), at > next);
      }
      for (int64_t i = 0; i < len; i++) {
        gint16 v = ((const gint16 *) map.data)[i];
        gboolean k = sample_kept (keep, nf, PT_HOP, at + i);
        if (mode == 1)
          assert_true (k);
        if (v != (k ? s[at + i] : 0))
          fail_msg ("%s: sample %lld is %d, want %d", mode ? "drop" : "silence",
              (long long) (at + i), v, k ? s[at + i] : 0);
      }
      got += len;
      next = at + len;
      gst_buffer_unmap (b, &map);
      gst_buffer_unref (b);
    }
    assert_int_equal (got, mode ? kept : N);
    if (mode == 1) {            /* drop: a gap for each dropped span; with the pieces they tile */
      GstEvent *ev;
      int64_t gaps = 0;
      while ((ev = gst_harness_try_pull_event (h)) != NULL) {
        if (GST_EVENT_TYPE (ev) == GST_EVENT_GAP) {
          GstClockTime ts, dur;
          int64_t at, len;
          gst_event_parse_gap (ev, &ts, &dur);
          at = (int64_t) gst_util_uint64_scale_round (ts, PT_RATE, GST_SECOND);
          len = (int64_t) gst_util_uint64_scale_round (ts + dur, PT_RATE, GST_SECOND) - at;
          for (int64_t i = at; i < at + len; i++)
            assert_false (sample_kept (keep, nf, PT_HOP, i));
          gaps += len;
        }
        gst_event_unref (ev);
      }
      assert_int_equal (kept + gaps, N);
    }
    assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
    g_object_get (h->element, "latency", &latency_ns, NULL);
    pt_free_harness (h, bus);
  }
  /* silence: all but the frames decided at EOS, with the library's labels;
   * drop: the first of them. A frame on no piece with drop was decided while
   * audio after the last kept frame L was processed: frame f is decided by
   * the time sample (f + 1) * hop + latency - 1 arrives, so f >= L - latency / hop. */
  int64_t last_kept = nf - 1, latency_frames =
      (int64_t) gst_util_uint64_scale_ceil (latency_ns, PT_RATE, GST_SECOND * PT_HOP);
  while (!keep[last_kept])
    last_kept--;
  printf ("metas: %u frames (silence), %u (drop) of %lld; last kept %lld, latency %lld\n",
      meta_frames[0]->len, meta_frames[1]->len, (long long) nf, (long long) last_kept,
      (long long) latency_frames);
  assert_true (meta_frames[0]->len > nf / 2);
  assert_true (meta_frames[1]->len <= meta_frames[0]->len);
  assert_true ((int64_t) meta_frames[1]->len >= last_kept - latency_frames);
  for (guint i = 0; i < meta_frames[0]->len; i++) {
    const GstSeqLabelFrame *a = &g_array_index (meta_frames[0], GstSeqLabelFrame, i);
    assert_int_equal (a->index, i);
    assert_int_equal (a->class_index == SPEECH, keep[i]);
  }
  for (guint i = 0; i < meta_frames[1]->len; i++) {
    const GstSeqLabelFrame *a = &g_array_index (meta_frames[0], GstSeqLabelFrame, i);
    const GstSeqLabelFrame *b = &g_array_index (meta_frames[1], GstSeqLabelFrame, i);
    assert_int_equal (b->index, i);
    assert_int_equal (b->class_index, a->class_index);
    assert_true (b->confidence == a->confidence && b->pts == a->pts);
    for (int k = 0; k < PT_K; k++)
      assert_true (g_array_index (meta_probs[1], gfloat, i * PT_K + k) ==
          g_array_index (meta_probs[0], gfloat, i * PT_K + k));
  }
  for (int mode = 0; mode < 2; mode++) {
    g_array_unref (meta_frames[mode]);
    g_array_unref (meta_probs[mode]);
  }
  g_free (keep);
  g_free (s);
  free (x);
}

/* A buffer holding NaN between two runs of good audio: the gate lets none of
 * it through (silence: zeros in its place; drop: a gap), and each run around
 * it passes as the library labels that run's audio alone. */
static void
test_gate_non_finite_buffer (void **state)
{
  const int64_t A = 2 * PT_RATE, B = PT_RATE / 5, N = 2 * A + B;
  float *x = pt_signal (N, 12);
  guint8 *keep1, *keep2;
  int64_t nf1 = reference_keep (x, A, &keep1), nf2 = reference_keep (x + A + B, A, &keep2);
  (void) state;

  x[A + 50] = NAN;
  for (int mode = 0; mode < 2; mode++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus,
        "audio/x-raw,format=F32LE,rate=16000,channels=1,layout=interleaved",
        "target-class", "speech", "gate", mode ? GATE_DROP : GATE_SILENCE,
        "threshold-on", 0.45, "threshold-off", 0.4, NULL);
    const int64_t at[3] = { 0, A, A + B }, len[3] = { A, B, A };
    GstBuffer *b;
    GstEvent *ev;
    int64_t got = 0, want = 0, gap = 0;

    for (int i = 0; i < 3; i++) {
      b = gst_buffer_new_memdup (x + at[i], (gsize) len[i] * sizeof *x);
      GST_BUFFER_PTS (b) = gst_util_uint64_scale (at[i], GST_SECOND, PT_RATE);
      GST_BUFFER_DURATION (b) = gst_util_uint64_scale (len[i], GST_SECOND, PT_RATE);
      assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
    }
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    for (int64_t i = 0; i < N; i++)
      want += i < A ? sample_kept (keep1, nf1, PT_HOP, i)
          : i >= A + B && sample_kept (keep2, nf2, PT_HOP, i - A - B);
    while ((b = gst_harness_try_pull (h)) != NULL) {
      GstMapInfo map;
      int64_t t = (int64_t) gst_util_uint64_scale_round (GST_BUFFER_PTS (b), PT_RATE,
          GST_SECOND);
      int64_t n = (int64_t) (gst_buffer_get_size (b) / sizeof (float));
      assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
      for (int64_t i = t; i < t + n; i++) {
        float v = ((const float *) map.data)[i - t];
        gboolean k = i < A ? sample_kept (keep1, nf1, PT_HOP, i)
            : i >= A + B && sample_kept (keep2, nf2, PT_HOP, i - A - B);
        if (mode == 1)
          assert_true (k);
        if (!(v == (k ? x[i] : 0.0f)))
          fail_msg ("%s: sample %lld is %g, want %g", mode ? "drop" : "silence",
              (long long) i, v, k ? x[i] : 0.0f);
        got += k;
      }
      gst_buffer_unmap (b, &map);
      gst_buffer_unref (b);
    }
    assert_int_equal (got, want);
    while ((ev = gst_harness_try_pull_event (h)) != NULL) {
      GstClockTime ts, dur;
      if (GST_EVENT_TYPE (ev) == GST_EVENT_GAP) {
        gst_event_parse_gap (ev, &ts, &dur);
        gap += ts == gst_util_uint64_scale (A, GST_SECOND, PT_RATE)
            && dur == gst_util_uint64_scale (B, GST_SECOND, PT_RATE);
      }
      gst_event_unref (ev);
    }
    assert_int_equal (gap, mode);       /* drop: the bad buffer's time is a gap */
    assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
    pt_free_harness (h, bus);
  }
  g_free (keep1);
  g_free (keep2);
  free (x);
}

/* reference_keep of interleaved 16-bit s (n frames of `channels` at `rate`)
 * as the element converts it for the labeler. */
static int64_t
converted_keep (const gint16 * s, int64_t n, int channels, int rate, guint8 ** keep)
{
  GArray *conv = g_array_new (FALSE, FALSE, sizeof (float));
  char err[SL_ERR_LEN];
  sl_converter *c = sl_converter_new (rate, channels, PT_RATE, err, sizeof err);
  int64_t nf;

  assert_non_null (c);
  assert_int_equal (sl_converter_push_s16 (c, s, (size_t) n, pt_append_samples, conv,
          err, sizeof err), 0);
  assert_int_equal (sl_converter_flush (c, pt_append_samples, conv, err, sizeof err), 0);
  nf = reference_keep ((float *) conv->data, conv->len, keep);
  sl_converter_free (c);
  g_array_free (conv, TRUE);
  return nf;
}

/* 48 kHz stereo: the labels are those of the converted stream, a frame
 * covers 480 input samples, and the dropped ones are silent in both channels. */
static void
test_gate_converted (void **state)
{
  const int64_t N = 3 * 48000 + 101;
  float *x = pt_signal (N, 33);
  gint16 *s = g_new (gint16, 2 * N);
  guint8 *keep;
  int64_t nf, next = 0;
  GstBus *bus;
  GstHarness *h;
  GstBuffer *b;
  (void) state;

  for (int64_t i = 0; i < N; i++)
    s[2 * i] = s[2 * i + 1] = (gint16) lrint (x[i] * 32768.0);
  nf = converted_keep (s, N, 2, 48000, &keep);
  h = run_gate (GATE_SILENCE, "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
      s, N, 2, 48000, &bus);
  while ((b = gst_harness_try_pull (h)) != NULL) {
    GstMapInfo map;
    int64_t len = (int64_t) (gst_buffer_get_size (b) / (2 * sizeof (gint16)));
    assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
    for (int64_t i = 0; i < len; i++) {
      gboolean k = sample_kept (keep, nf, 480, next + i);
      for (int ch = 0; ch < 2; ch++)
        assert_int_equal (((const gint16 *) map.data)[2 * i + ch], k ? s[2 * (next + i)] : 0);
    }
    next += len;
    gst_buffer_unmap (b, &map);
    gst_buffer_unref (b);
  }
  assert_int_equal (next, N);
  pt_free_harness (h, bus);
  g_free (keep);
  g_free (s);
  free (x);
}

/* n frames of interleaved stereo s from frame `offset`, as a buffer of two
 * planes (non-interleaved) with its GstAudioMeta. */
static GstBuffer *
planar_buffer (const GstAudioInfo * info, const gint16 * s, int64_t n, int64_t offset)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, (gsize) (2 * n) * sizeof (gint16), NULL);
  GstMapInfo map;
  assert_true (gst_buffer_map (b, &map, GST_MAP_WRITE));
  for (int64_t i = 0; i < n; i++)
    for (int ch = 0; ch < 2; ch++)
      ((gint16 *) map.data)[ch * n + i] = s[2 * (offset + i) + ch];
  gst_buffer_unmap (b, &map);
  assert_non_null (gst_buffer_add_audio_meta (b, info, (gsize) n, NULL));
  GST_BUFFER_PTS (b) = gst_util_uint64_scale_int (offset, GST_SECOND, info->rate);
  GST_BUFFER_DURATION (b) = gst_util_uint64_scale_int (offset + n, GST_SECOND, info->rate) -
      GST_BUFFER_PTS (b);
  return b;
}

/* Non-interleaved stereo at 48 kHz (two channels that differ): the labels are
 * those of the same samples interleaved, and what passes keeps its planes,
 * each channel's own samples where the frame passes, silence (gate=silence)
 * or nothing (gate=drop) where it does not. */
static void
test_gate_non_interleaved (void **state)
{
  const int64_t N = 3 * 48000 + 101;
  const char *caps = "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=non-interleaved";
  float *x = pt_signal (N, 34);
  gint16 *s = g_new (gint16, 2 * N);
  GstAudioInfo info;
  guint8 *keep;
  int64_t nf, kept = 0;
  (void) state;

  for (int64_t i = 0; i < N; i++) {
    s[2 * i] = (gint16) lrint (x[i] * 32768.0);
    s[2 * i + 1] = (gint16) lrint (x[i] * 16384.0) + 3;
  }
  nf = converted_keep (s, N, 2, 48000, &keep);
  for (int64_t i = 0; i < N; i++)
    kept += sample_kept (keep, nf, 480, i);
  {
    GstCaps *cp = gst_caps_from_string (caps);
    assert_true (gst_audio_info_from_caps (&info, cp));
    gst_caps_unref (cp);
  }

  for (int mode = 0; mode < 2; mode++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, caps, "target-class", "speech", "gate",
        mode ? GATE_DROP : GATE_SILENCE, "threshold-on", 0.45, "threshold-off", 0.4, NULL);
    GstBuffer *b;
    int64_t off = 0, next = 0, got = 0;
    for (int k = 0; off < N; k++) {
      int64_t len = MIN (N - off, 1000 + 777 * (k % 4));
      assert_int_equal (gst_harness_push (h, planar_buffer (&info, s, len, off)), GST_FLOW_OK);
      off += len;
    }
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    while ((b = gst_harness_try_pull (h)) != NULL) {
      GstAudioBuffer ab;
      int64_t at = (int64_t) gst_util_uint64_scale_round (GST_BUFFER_PTS (b), 48000,
          GST_SECOND);
      assert_true (gst_audio_buffer_map (&ab, &info, b, GST_MAP_READ));
      assert_int_equal (ab.n_planes, 2);
      if (mode == 0)
        assert_int_equal (at, next);
      else
        assert_true (at >= next);
      for (gsize i = 0; i < ab.n_samples; i++) {
        gboolean k = sample_kept (keep, nf, 480, at + (int64_t) i);
        if (mode == 1)
          assert_true (k);
        for (int ch = 0; ch < 2; ch++) {
          gint16 v = ((const gint16 *) ab.planes[ch])[i];
          if (v != (k ? s[2 * (at + (int64_t) i) + ch] : 0))
            fail_msg ("%s: channel %d sample %lld is %d, want %d", mode ? "drop" : "silence",
                ch, (long long) (at + (int64_t) i), v, k ? s[2 * (at + (int64_t) i) + ch] : 0);
        }
      }
      got += (int64_t) ab.n_samples;
      next = at + (int64_t) ab.n_samples;
      gst_audio_buffer_unmap (&ab);
      gst_buffer_unref (b);
    }
    assert_int_equal (got, mode ? kept : N);
    assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
    pt_free_harness (h, bus);
  }
  g_free (keep);
  g_free (s);
  free (x);
}

/* Counts the samples that pass the probed pad, and where a tag event came. */
typedef struct {
  int64_t samples;
  int64_t tag_at;
} Order;

static GstPadProbeReturn
note_order (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  Order *o = user;
  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    o->samples += (int64_t) (gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info)) / 2);
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_TAG)
    o->tag_at = o->samples;
  return GST_PAD_PROBE_OK;
}

/* A tag event waits behind the audio the gate holds: it comes out after the
 * samples that came in before it, not ahead of them. */
static void
test_gate_keeps_event_order (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 12);
  gint16 *s = g_new (gint16, N);
  Order o = { 0, -1 };
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus,
      "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved",
      "target-class", "speech", "gate", GATE_SILENCE, NULL);
  (void) state;

  for (int64_t i = 0; i < N; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, note_order, &o, NULL);
  assert_int_equal (pt_push_s16_at (h, s, N / 2, 1, PT_RATE, 0), GST_FLOW_OK);
  assert_true (o.samples < N / 2);      /* held: not all labelled yet */
  assert_true (gst_harness_push_event (h, gst_event_new_tag (gst_tag_list_new (GST_TAG_TITLE,
                  "t", NULL))));
  assert_int_equal (o.tag_at, -1);
  assert_int_equal (pt_push_s16_at (h, s + N / 2, N / 2, 1, PT_RATE, N / 2), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  assert_int_equal (o.tag_at, N / 2);
  assert_int_equal (o.samples, N);
  pt_free_harness (h, bus);
  g_free (s);
  free (x);
}

/* An empty buffer among the held ones (first, or mid-stream) holds nothing
 * back: with both modes every sample after it comes out (the thresholds at 0
 * keep every frame), at EOS as before it. */
static void
test_gate_empty_buffer (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 13);
  gint16 *s = g_new (gint16, N);
  (void) state;

  for (int64_t i = 0; i < N; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  for (int mode = 0; mode < 2; mode++)
    for (int first = 0; first < 2; first++) {
      const int64_t at = first ? 0 : N / 2;     /* where the empty buffer comes */
      Order o = { 0, -1 };
      GstBus *bus;
      GstHarness *h = pt_make_harness (&bus,
          "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved",
          "target-class", "speech", "gate", mode ? GATE_DROP : GATE_SILENCE,
          "threshold-on", 0.0, "threshold-off", 0.0, NULL);
      gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER, note_order, &o, NULL);
      if (at > 0)
        assert_int_equal (pt_push_s16_at (h, s, at, 1, PT_RATE, 0), GST_FLOW_OK);
      assert_int_equal (pt_push_s16_at (h, s + at, 0, 1, PT_RATE, at), GST_FLOW_OK);
      assert_int_equal (pt_push_s16_at (h, s + at, N - at, 1, PT_RATE, at), GST_FLOW_OK);
      assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
      assert_int_equal (o.samples, N);
      pt_free_harness (h, bus);
    }
  g_free (s);
  free (x);
}

/* gate=drop closed for 70 s (thresholds at 1: no frame is the target's), then
 * open (at 0, set while playing): the first piece that passes carries the
 * labels of the latest 60 s dropped whole, not of all 70 (a gate closed for
 * hours would hold every label), the last of them the frame before its own. */
static void
test_gate_carries_a_minute (void **state)
{
  const int64_t N = 70 * PT_RATE, M = 2 * PT_RATE, B = PT_RATE / 10;
  float *x = pt_signal (N + M, 15);
  gint16 *s = g_new (gint16, N + M);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus,
      "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved",
      "target-class", "speech", "gate", GATE_DROP, "threshold-on", 1.0, "threshold-off", 1.0,
      NULL);
  GstBuffer *b;
  GstSeqLabelMeta *m;
  (void) state;

  for (int64_t i = 0; i < N + M; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  for (int64_t off = 0; off < N; off += B)
    assert_int_equal (pt_push_s16_at (h, s + off, B, 1, PT_RATE, off), GST_FLOW_OK);
  assert_null (gst_harness_try_pull (h));       /* all dropped */
  g_object_set (h->element, "threshold-on", 0.0, "threshold-off", 0.0, NULL);
  for (int64_t off = N; off < N + M; off += B)
    assert_int_equal (pt_push_s16_at (h, s + off, B, 1, PT_RATE, off), GST_FLOW_OK);
  b = gst_harness_pull (h);
  m = gst_buffer_get_seqlabel_meta (b);
  assert_non_null (m);
  printf ("first piece after 70 s dropped: %u frames, from %" G_GUINT64_FORMAT "\n",
      m->n_frames, m->frames[0].index);
  assert_true (m->n_frames >= 6000 && m->n_frames < 6000 + 200);
  for (guint i = 1; i < m->n_frames; i++)
    assert_int_equal (m->frames[i].index, m->frames[i - 1].index + 1);
  gst_buffer_unref (b);
  pt_free_harness (h, bus);
  g_free (s);
  free (x);
}

/* Behind another element (tiny.slm: 3 classes at 8 kHz), the gate's carried
 * labels join its own meta, not the other's: every meta is one model's, with
 * its probabilities; the first piece after 3 s dropped carries them all in a
 * meta of 4 classes, frame 0 on, one after another. */
static void
test_gate_behind_another_element (void **state)
{
  const int64_t N = 3 * PT_RATE, M = 2 * PT_RATE, B = PT_RATE / 10;
  float *x = pt_signal (N + M, 16);
  gint16 *s = g_new (gint16, N + M);
  /* the paths quoted: a blank in one (a source tree in "My Projects")
   * would end the property's value */
  gchar *launch = g_strdup_printf ("seqlabel model=\"%s/model/tiny.slm\" ! seqlabel name=g "
      "model=\"%s\" target-class=speech gate=drop threshold-on=1 threshold-off=1",
      g_getenv ("SL_FIXTURES"), pt_model_path ());
  GstHarness *h = gst_harness_new_parse (launch);
  GstElement *g = gst_bin_get_by_name (GST_BIN (h->element), "g");
  GstBuffer *b;
  gboolean first = TRUE;
  (void) state;

  for (int64_t i = 0; i < N + M; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  gst_harness_set_src_caps_str (h,
      "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved");
  for (int64_t off = 0; off < N; off += B)
    assert_int_equal (pt_push_s16_at (h, s + off, B, 1, PT_RATE, off), GST_FLOW_OK);
  assert_null (gst_harness_try_pull (h));       /* all dropped */
  g_object_set (g, "threshold-on", 0.0, "threshold-off", 0.0, NULL);
  for (int64_t off = N; off < N + M; off += B)
    assert_int_equal (pt_push_s16_at (h, s + off, B, 1, PT_RATE, off), GST_FLOW_OK);
  while ((b = gst_harness_try_pull (h)) != NULL) {
    gpointer st = NULL;
    GstMeta *meta;
    while ((meta = gst_buffer_iterate_meta_filtered (b, &st,
                gst_seqlabel_meta_api_type ())) != NULL) {
      GstSeqLabelMeta *m = (GstSeqLabelMeta *) meta;
      if (m->probabilities == NULL || (m->n_classes != 3 && m->n_classes != PT_K))
        fail_msg ("a meta of %u frames with %u classes, probabilities %p", m->n_frames,
            m->n_classes, (void *) m->probabilities);
      if (first && m->n_classes == PT_K) {
        printf ("first piece's own meta: %u frames from %" G_GUINT64_FORMAT "\n", m->n_frames,
            m->frames[0].index);
        assert_int_equal (m->frames[0].index, 0);
        for (guint i = 1; i < m->n_frames; i++)
          assert_int_equal (m->frames[i].index, m->frames[i - 1].index + 1);
        first = FALSE;
      }
    }
    gst_buffer_unref (b);
  }
  assert_false (first);
  gst_object_unref (g);
  gst_harness_teardown (h);
  g_free (launch);
  g_free (s);
  free (x);
}

/* Counts the bytes that pass, and where caps of F32 came. */
static GstPadProbeReturn
note_caps (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  int64_t *bytes = user;        /* [0]: so far, [1]: when the F32 caps came */
  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    bytes[0] += (int64_t) gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_CAPS) {
    GstCaps *caps;
    gst_event_parse_caps (GST_PAD_PROBE_INFO_EVENT (info), &caps);
    if (strstr (gst_structure_get_string (gst_caps_get_structure (caps, 0), "format"), "F32"))
      bytes[1] = bytes[0];
  }
  return GST_PAD_PROBE_OK;
}

/* New caps while audio is held (another sample format): the run ends, the
 * audio held in the old format goes out before the new caps, and every sample
 * comes out (silence mode) in the format it came in. */
static void
test_gate_caps_change (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 12);
  gint16 *s = g_new (gint16, N / 2);
  int64_t bytes[2] = { 0, -1 };
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus,
      "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved",
      "target-class", "speech", "gate", GATE_SILENCE, NULL);
  GstBuffer *b;
  (void) state;

  for (int64_t i = 0; i < N / 2; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, note_caps, bytes, NULL);
  assert_int_equal (pt_push_s16_at (h, s, N / 2, 1, PT_RATE, 0), GST_FLOW_OK);
  assert_true (bytes[0] < N);   /* some held */
  gst_harness_set_src_caps_str (h,
      "audio/x-raw,format=F32LE,rate=16000,channels=1,layout=interleaved");
  assert_int_equal (bytes[1], N);       /* all N/2 16-bit samples before the F32 caps */
  b = gst_buffer_new_memdup (x + N / 2, (gsize) (N / 2) * sizeof (float));
  GST_BUFFER_PTS (b) = GST_SECOND;
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  assert_int_equal (bytes[0], N + (N / 2) * (int64_t) sizeof (float));
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  pt_free_harness (h, bus);
  g_free (s);
  free (x);
}

/* The gate holds a frame's audio until it is labelled: one hop more latency.
 * Without a target class it refuses to start, naming what is missing. */
static void
test_gate_latency_and_settings (void **state)
{
  GstClockTime plain, gated;
  GstElement *el;
  GstBus *bus;
  (void) state;

  for (int i = 0; i < 2; i++) {
    el = gst_element_factory_make ("seqlabel", NULL);
    g_object_set (el, "model", pt_model_path (), "target-class", "speech", NULL);
    gst_util_set_object_arg (G_OBJECT (el), "gate", i ? "drop" : "none");
    assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
    g_object_get (el, "latency", i ? &gated : &plain, NULL);
    gst_element_set_state (el, GST_STATE_NULL);
    gst_object_unref (el);
  }
  assert_int_equal (gated - plain, 10 * GST_MSECOND);

  el = gst_element_factory_make ("seqlabel", NULL);
  bus = gst_bus_new ();
  g_object_set (el, "model", pt_model_path (), NULL);
  gst_util_set_object_arg (G_OBJECT (el), "gate", "drop");
  gst_element_set_bus (el, bus);
  assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    GError *e = NULL;
    assert_non_null (msg);
    gst_message_parse_error (msg, &e, NULL);
    assert_non_null (strstr (e->message, "gate needs target-class"));
    g_error_free (e);
    gst_message_unref (msg);
  }
  gst_element_set_state (el, GST_STATE_NULL);
  gst_element_set_bus (el, NULL);
  gst_object_unref (el);
  gst_object_unref (bus);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_gate_at_model_rate),
    cmocka_unit_test (test_gate_converted),
    cmocka_unit_test (test_gate_non_interleaved),
    cmocka_unit_test (test_gate_keeps_event_order),
    cmocka_unit_test (test_gate_empty_buffer),
    cmocka_unit_test (test_gate_non_finite_buffer),
    cmocka_unit_test (test_gate_behind_another_element),
    cmocka_unit_test (test_gate_carries_a_minute),
    cmocka_unit_test (test_gate_caps_change),
    cmocka_unit_test (test_gate_latency_and_settings),
  };
  pt_init ();
  return cmocka_run_group_tests (tests, NULL, NULL);
}
