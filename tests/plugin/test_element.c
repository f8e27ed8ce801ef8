/* The seqlabel element in GstHarness and in whole pipelines. The reference is
 * always libseqlabel's labeler run directly on the same samples in one push:
 * the element must give exactly its labels (same frames, labels, bitwise equal
 * confidences and probabilities) with the right timestamps, whatever the
 * buffering, and honour flushes, discontinuities, EOS and caps. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/audio/audio.h>
#include <gst/check/gstharness.h>

#include "gstseqlabel.h"
#include "gstseqlabelmeta.h"
#include "plugin_test_util.h"
#include "tests/common/test_files.h"

#define F32_CAPS "audio/x-raw,format=F32LE,rate=16000,channels=1,layout=interleaved"
#define S16_CAPS "audio/x-raw,format=S16LE,rate=16000,channels=1,layout=interleaved"

static GstClockTime
samples_time (int64_t n)
{
  return gst_util_uint64_scale ((guint64) n, GST_SECOND, PT_RATE);
}



static GstFlowReturn
push_f32 (GstHarness * h, const float *x, int64_t n, int64_t offset)
{
  GstBuffer *b = gst_buffer_new_memdup (x, (gsize) n * sizeof *x);
  GST_BUFFER_PTS (b) = samples_time (offset);
  GST_BUFFER_DURATION (b) = samples_time (offset + n) - samples_time (offset);
  return gst_harness_push (h, b);
}

static GstFlowReturn
push_s16 (GstHarness * h, const float *x, int64_t n, int64_t offset)
{
  gint16 *s = g_new (gint16, n);
  GstBuffer *b;
  for (int64_t i = 0; i < n; i++)
    s[i] = (gint16) lrint (x[i] * 32768.0);
  b = gst_buffer_new_wrapped (s, (gsize) n * sizeof *s);
  GST_BUFFER_PTS (b) = samples_time (offset);
  GST_BUFFER_DURATION (b) = samples_time (offset + n) - samples_time (offset);
  return gst_harness_push (h, b);
}

/* Fails when the element said something went wrong (a warning or an error). */
static void
assert_no_warning (GstBus * bus, const char *what)
{
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  if (m != NULL)
    fail_msg ("%s: %s", what, gst_structure_to_string (gst_message_get_structure (m)));
}

/* The next warning on the bus holds each of the NULL-ended texts. */
static void
assert_warning_says (GstBus * bus, const char *text, ...)
{
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  GError *e = NULL;
  va_list ap;
  assert_non_null (m);
  gst_message_parse_warning (m, &e, NULL);
  va_start (ap, text);
  for (const char *t = text; t != NULL; t = va_arg (ap, const char *))
    if (!strstr (e->message, t))
      fail_msg ("warning '%s' lacks '%s'", e->message, t);
  va_end (ap);
  g_error_free (e);
  gst_message_unref (m);
}

/* Pulls every output buffer: their metas, and their samples as bytes. */
static void
pull_metas (GstHarness * h, pt_frames * metas, GByteArray * bytes)
{
  GstBuffer *b;
  while ((b = gst_harness_try_pull (h)) != NULL) {
    pt_collect_meta (b, metas);
    if (bytes) {
      GstMapInfo map;
      assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
      g_byte_array_append (bytes, map.data, (guint) map.size);
      gst_buffer_unmap (b, &map);
    }
    gst_buffer_unref (b);
  }
}

static int64_t
expected_frames (int64_t n)
{
  /* snip_edges framing: 25 ms windows every 10 ms, independent of the library */
  return n < 400 ? 0 : 1 + (n - 400) / PT_HOP;
}

/* ---------------------------------------------------------------------- */

/* Buffers of random sizes (many of 1..3 samples) vs one buffer vs the
 * library: the same labels, from the messages and from the metas; F32, S16,
 * and 2 encoder threads. The samples come out unchanged. */
static void
test_buffer_sizes (void **state)
{
  const int64_t N = 3 * PT_RATE + 77;
  float *x = pt_signal (N, 1);
  pt_frames ref;
  uint64_t seed = 99;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, NULL);
  assert_int_equal (ref.n, expected_frames (N));

  for (int variant = 0; variant < 4; variant++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, variant == 2 ? S16_CAPS : F32_CAPS,
        "num-threads", variant == 3 ? 2 : 1, NULL);
    GByteArray *bytes = g_byte_array_new ();
    pt_frames msgs, metas, pref;
    int64_t off = 0;

    pt_frames_init (&msgs);
    pt_frames_init (&metas);
    while (off < N) {
      int64_t n;
      if (variant == 0) {
        n = N;
      } else {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        n = (seed >> 33) % 10 < 3 ? 1 + (int64_t) ((seed >> 20) % 3)
            : 1 + (int64_t) ((seed >> 20) % 2500);
      }
      if (n > N - off)
        n = N - off;
      assert_int_equal (variant == 2 ? push_s16 (h, x + off, n, off)
          : push_f32 (h, x + off, n, off), GST_FLOW_OK);
      off += n;
    }
    pull_metas (h, &metas, bytes);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    pull_metas (h, &metas, bytes);
    pt_collect_frame_messages (bus, &msgs);

    /* audio passes unchanged */
    if (variant == 2) {
      assert_int_equal (bytes->len, N * sizeof (gint16));
      for (int64_t i = 0; i < N; i++)
        assert_int_equal (((gint16 *) bytes->data)[i], (gint16) lrint (x[i] * 32768.0));
    } else {
      assert_int_equal (bytes->len, N * sizeof (float));
      assert_memory_equal (bytes->data, x, N * sizeof (float));
    }
    g_byte_array_unref (bytes);

    pt_assert_frames_equal (&msgs, &ref, 0, 0);
    /* the metas hold every frame completed before EOS, in order */
    assert_true (metas.n > 0 && metas.n < ref.n);
    pref = ref;
    pref.n = metas.n;
    pt_assert_frames_equal (&metas, &pref, 0, 0);
    pt_frames_free (&msgs);
    pt_frames_free (&metas);
    pt_free_harness (h, bus);
  }
  pt_frames_free (&ref);
  free (x);
}

/* EOS labels the tail: every frame exactly once, before EOS goes on. */
static void
test_eos_tail (void **state)
{
  const int64_t N = PT_RATE + 123;
  float *x = pt_signal (N, 2);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  pt_frames before, after;
  GstEvent *ev;
  int64_t total = expected_frames (N);
  (void) state;

  pt_frames_init (&before);
  pt_frames_init (&after);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  pt_collect_frame_messages (bus, &before);
  assert_true (before.n > 0 && before.n < total);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &after);
  assert_int_equal (before.n + after.n, total);
  for (int64_t i = 0; i < before.n; i++)
    assert_int_equal (before.index[i], i);
  for (int64_t i = 0; i < after.n; i++)
    assert_int_equal (after.index[i], before.n + i);
  /* EOS is forwarded after the tail (stream-start, caps, segment come first) */
  while ((ev = gst_harness_try_pull_event (h)) != NULL) {
    GstEventType t = GST_EVENT_TYPE (ev);
    gst_event_unref (ev);
    if (t == GST_EVENT_EOS)
      break;
  }
  assert_non_null (ev);
  pt_frames_free (&before);
  pt_frames_free (&after);
  pt_free_harness (h, bus);
  free (x);
}

/* With the base class's qos property set, a QoS event from a late sink goes
 * upstream, for the source to act on, and the element drops no audio for it:
 * every frame is labelled (the base class dropped each buffer before the
 * event's earliest time, frames unlabelled and the run's later ones early). */
static void
test_qos_drops_nothing (void **state)
{
  const int64_t N = PT_RATE + 123;
  float *x = pt_signal (N, 2);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, "qos", TRUE, NULL);
  pt_frames msgs;
  GstEvent *ev;
  int upstream_qos = 0;
  (void) state;

  pt_frames_init (&msgs);
  /* a sink 1 s late at 10 s: buffers before 12 s are late by its count */
  assert_true (gst_harness_push_upstream_event (h, gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW,
              1.0, GST_SECOND, 10 * GST_SECOND)));
  while ((ev = gst_harness_try_pull_upstream_event (h)) != NULL) {
    upstream_qos += GST_EVENT_TYPE (ev) == GST_EVENT_QOS;
    gst_event_unref (ev);
  }
  assert_int_equal (upstream_qos, 1);
  for (int64_t off = 0; off < N; off += 320)
    assert_int_equal (push_f32 (h, x + off, MIN (320, N - off), off), GST_FLOW_OK);
  assert_int_equal (gst_harness_buffers_received (h), (N + 319) / 320);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &msgs);
  assert_int_equal (msgs.n, expected_frames (N));
  for (int64_t i = 0; i < msgs.n; i++)
    assert_int_equal (msgs.index[i], i);
  pt_frames_free (&msgs);
  pt_free_harness (h, bus);
  free (x);
}

/* A segment whose applied rate is not 1 (scaletempo's fast forward: audio at
 * twice its stream's speed) is labelled as it comes, its frames counting its
 * own time from where it began, and the element says so, once: its frames
 * and times are not the stream's, which the messages' stream-time is (a QA
 * pass found them half the stream time apart, unsaid). The same segment
 * again says nothing. */
static void
test_applied_rate_said (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 2);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstSegment seg;
  pt_frames frames;
  (void) state;

  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.applied_rate = 2.0;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_warning_says (bus, "the audio comes at 2 times its stream's speed",
      "their frames and text times count its own time", NULL);
  assert_no_warning (bus, "the same segment again");
  /* scaletempo's reverse: the audio at its speed, reversed */
  seg.applied_rate = -1.0;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_warning_says (bus, "the audio comes reversed, at 1 times its stream's speed (the "
      "segment's applied rate -1", NULL);
  seg.applied_rate = 2.0;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  gst_message_unref (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING));
  /* labelled as it comes: a frame per 10 ms of the audio, from 0 */
  pt_frames_init (&frames);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &frames);
  assert_int_equal (frames.n, expected_frames (N));
  for (int64_t i = 0; i < frames.n; i++)
    assert_int_equal (frames.index[i], i);
  pt_frames_free (&frames);
  pt_free_harness (h, bus);
  free (x);
}

/* A flush (what a seek does) discards the run: after it, the labels are those
 * of a fresh stream, frame indices from 0, nothing left from before. */
static void
test_flush_resets (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 3), *y = pt_signal (PT_RATE, 4);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  pt_frames ref, drop, got;
  GstSegment seg;
  (void) state;

  pt_frames_init (&ref);
  pt_frames_init (&drop);
  pt_frames_init (&got);
  pt_reference (x, N, NULL, &ref, NULL);

  assert_int_equal (push_f32 (h, y, PT_RATE, 0), GST_FLOW_OK);
  pt_collect_frame_messages (bus, &drop);
  assert_true (drop.n > 0);
  assert_true (gst_harness_push_event (h, gst_event_new_flush_start ()));
  assert_true (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  pt_collect_frame_messages (bus, &drop);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  pt_frames_free (&ref);
  pt_frames_free (&drop);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
  free (y);
}

/* A live upstream that can hold 0.2 s and delays by 20 ms. */
static gboolean
live_upstream (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return gst_pad_query_default (pad, parent, query);
  gst_query_set_latency (query, TRUE, 20 * GST_MSECOND, 200 * GST_MSECOND);
  return TRUE;
}

/* The LATENCY answer of the element's src pad (labels: its labels pad) behind
 * live_upstream: min and max. */
static void
query_latency (GstHarness * h, gboolean labels, GstClockTime * min, GstClockTime * max)
{
  GstQuery *q = gst_query_new_latency ();
  GstPad *pad = labels ? gst_element_get_static_pad (h->element, "labels") : NULL;
  gboolean live;

  gst_pad_set_query_function (h->srcpad, live_upstream);
  assert_true (labels ? gst_pad_query (pad, q) : gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, min, max);
  assert_true (live);
  gst_query_unref (q);
  if (pad)
    gst_object_unref (pad);
}

/* Upstream's latency plus the element's, on both pads; the labels pad's "text"
 * pieces (up to 25 frames) add theirs. The maximum grows on the labels pad,
 * whose own queue holds its labels, not on the audio's: a synchronised sink
 * waits in the streaming thread for the audio, which passes at once or through
 * the gate a core block at a time, so a live source (or a queue) must hold
 * what comes meanwhile, and its own maximum says how long it can. */
static void
test_latency_answers (void **state)
{
  const GstClockTime up_min = 20 * GST_MSECOND, up_max = 200 * GST_MSECOND;
  const GstClockTime piece = 25 * 10 * GST_MSECOND;
  (void) state;

  for (int gate = 0; gate < 2; gate++)
    for (int text = 0; text < 2; text++) {
      GstBus *bus;
      GstHarness *h = pt_make_harness (&bus, F32_CAPS, "label-format", text ? 5 : 0,
          "target-class", "speech", "gate", gate ? 2 : 0, NULL);
      GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
      GstClockTime ours, min, max;
      guint64 prop;

      g_object_get (h->element, "latency", &prop, NULL);
      ours = prop;
      query_latency (h, FALSE, &min, &max);
      assert_int_equal (min, up_min + ours);
      assert_int_equal (max, up_max);
      query_latency (h, TRUE, &min, &max);
      assert_int_equal (min, up_min + ours + (text ? piece : 0));
      assert_int_equal (max, up_max + ours + (text ? piece : 0));
      gst_harness_teardown (hl);
      pt_free_harness (h, bus);
    }
}

/* The frame messages posted so far begin with frame 0. */
static void
assert_frame0_out (GstBus * bus)
{
  pt_frames f;
  pt_frames_init (&f);
  pt_collect_frame_messages (bus, &f);
  assert_true (f.n >= 1);
  assert_int_equal (f.index[0], 0);
  pt_frames_free (&f);
}

/* The LATENCY answer is the labeler's latency, and it is real: the latest
 * frame, w, comes out with exactly (w + 1) hops + latency samples pushed, not
 * one sample earlier. The default decoder's Viterbi decides a frame once the 5
 * after it are in, so w is the frame whose fifth successor is the first of the
 * next core (docs/labeling.md, "Latency"): 14 - 5 = 9 with the model's core of
 * 14 frames. Checked with the model's lookahead, one frame of it, and
 * max-latency=0.1, whose window (the test model's 24 frames: 20 left, a core of
 * 1, 3 of lookahead, and the lag's 5) is final 240 + (1 - 1 + 3 + 5) * 160 =
 * 1520 samples after a frame (95 ms), every frame alike (w = 0). */
static void
test_latency (void **state)
{
  (void) state;
  for (int k = 0; k < 3; k++) {
    int lookahead = k == 1 ? 1 : -1;
    double max_latency = k == 2 ? 0.1 : 0.0;
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load (pt_model_path (), err, sizeof err);
    sl_labeler_config cfg;
    sl_labeler *l;
    int64_t lat;
    GstClockTime want, got;
    guint64 prop;
    int w, win, left, look, core;
    GstBus *bus;
    GstHarness *h;
    pt_frames f;
    float *x;

    assert_non_null (m);
    sl_labeler_config_default (&cfg);
    cfg.lookahead = lookahead;
    cfg.max_latency_s = max_latency;
    l = sl_labeler_new (m, &cfg, err, sizeof err);
    assert_non_null (l);
    lat = sl_labeler_latency_samples (l);
    sl_labeler_window (l, &win, &left, &look, &core);
    w = (core - SL_SMOOTHING_LAG_DEFAULT % core) % core;
    sl_labeler_free (l);
    sl_model_free (m);
    if (k == 2)
      assert_int_equal (lat, 1520);
    assert_int_equal (w, k == 2 ? 0 : 9);
    want = gst_util_uint64_scale_ceil ((guint64) lat, GST_SECOND, PT_RATE);

    h = pt_make_harness (&bus, F32_CAPS, "lookahead", lookahead, "max-latency", max_latency,
        NULL);
    got = gst_harness_query_latency (h);
    assert_int_equal (got, want);
    g_object_get (h->element, "latency", &prop, NULL);
    assert_int_equal (prop, want);

    const int64_t due = (int64_t) (w + 1) * PT_HOP + lat;
    x = pt_signal (due, 5);
    pt_frames_init (&f);
    assert_int_equal (push_f32 (h, x, due - 1, 0), GST_FLOW_OK);
    pt_collect_frame_messages (bus, &f);
    assert_int_equal (f.n, w);
    assert_int_equal (push_f32 (h, x + due - 1, 1, due - 1), GST_FLOW_OK);
    pt_collect_frame_messages (bus, &f);
    assert_true (f.n > w);
    assert_int_equal (f.index[w], w);
    pt_frames_free (&f);
    free (x);
    pt_free_harness (h, bus);
  }
}

static void
assert_error_mentions (GstBus * bus, const char *a, const char *b)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *e = NULL;
  gchar *dbg = NULL;

  assert_non_null (msg);
  gst_message_parse_error (msg, &e, &dbg);
  if (strstr (e->message, a) == NULL || strstr (e->message, b) == NULL)
    fail_msg ("error message \"%s\" does not name %s and %s", e->message, a, b);
  g_error_free (e);
  g_free (dbg);
  gst_message_unref (msg);
}

/* A buffer cut inside a sample frame (raw bytes from filesrc behind a
 * capsfilter) is an error naming its size and the frame's, as audioconvert
 * gives one, not labelled with every later sample shifted. */
static void
test_partial_frame_refused (void **state)
{
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  float *x = pt_signal (PT_RATE, 5);
  GstBuffer *b = gst_buffer_new_memdup (x, 1001);
  (void) state;

  GST_BUFFER_PTS (b) = 0;
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_ERROR);
  assert_error_mentions (bus, "a buffer of 1001 bytes",
      "not a whole number of 4-byte sample frames");
  free (x);
  pt_free_harness (h, bus);
}

/* A non-interleaved buffer without the GstAudioMeta GStreamer requires of
 * it: an error that says so (the audio library's map failed with a critical
 * warning, and the error said "cannot map buffer"). */
static void
test_planes_without_meta_refused (void **state)
{
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, "audio/x-raw,format=S16LE,rate=16000,channels=2,"
      "layout=non-interleaved", NULL);
  GstBuffer *b = gst_buffer_new_wrapped (g_malloc0 (6400), 6400);
  (void) state;

  GST_BUFFER_PTS (b) = 0;
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_ERROR);
  assert_error_mentions (bus, "non-interleaved buffer without a GstAudioMeta",
      "planes lie is unknown");
  pt_free_harness (h, bus);
  /* ... in reverse playback too, an untimed one with the gate (it went to
   * the gate unlabelled, and was mapped there) */
  h = pt_make_harness (&bus, "audio/x-raw,format=S16LE,rate=16000,channels=2,"
      "layout=non-interleaved", "target-class", "speech", "gate", 2, NULL);
  {
    GstSegment seg;
    gst_segment_init (&seg, GST_FORMAT_TIME);
    seg.rate = -1.0;
    seg.stop = GST_SECOND;
    assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  b = gst_buffer_new_wrapped (g_malloc0 (6400), 6400);
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_ERROR);
  assert_error_mentions (bus, "non-interleaved buffer without a GstAudioMeta",
      "planes lie is unknown");
  pt_free_harness (h, bus);
}

/* A rate the converter cannot take (beyond 1:256 of the model's): a clear
 * error on the bus that names both rates. */
static void
test_caps_refusal (void **state)
{
  float x[320] = { 0 };
  GstBus *bus;
  GstHarness *h;
  (void) state;

  h = pt_make_harness (&bus, "audio/x-raw,format=F32LE,rate=17,channels=1,layout=interleaved", NULL);
  assert_int_not_equal (push_f32 (h, x, 320, 0), GST_FLOW_OK);
  assert_error_mentions (bus, "17 Hz", "16000");
  pt_free_harness (h, bus);

  /* and what the element asks upstream for: any rate and channel count, so
   * that converters in front keep the stream's own (it converts inside) */
  h = pt_make_harness (&bus, NULL, NULL);
  {
    GstCaps *caps = gst_pad_peer_query_caps (h->srcpad, NULL);
    GstCaps *stereo = gst_caps_from_string ("audio/x-raw,format=S16LE,rate=44100,"
        "channels=2,layout=interleaved");
    assert_true (gst_caps_can_intersect (caps, stereo));
    gst_caps_unref (caps);
    gst_caps_unref (stereo);
  }
  pt_free_harness (h, bus);
}

/* A timestamp jump ends the run (tail labeled) and starts a new one whose
 * frames continue the stream's 10 ms grid at the new time. */
static void
test_discontinuity (void **state)
{
  const int64_t N = PT_RATE;
  float *x1 = pt_signal (N, 6), *x2 = pt_signal (N, 7);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  pt_frames r1, r2, got, metas, a, b;
  (void) state;

  pt_frames_init (&r1);
  pt_frames_init (&r2);
  pt_frames_init (&got);
  pt_reference (x1, N, NULL, &r1, NULL);
  pt_reference (x2, N, NULL, &r2, NULL);
  pt_frames_init (&metas);
  assert_int_equal (push_f32 (h, x1, N, 0), GST_FLOW_OK);
  assert_int_equal (push_f32 (h, x2, N, 5 * PT_RATE), GST_FLOW_OK);
  /* the old run's tail rides on the buffer that revealed the jump */
  pull_metas (h, &metas, NULL);
  assert_true (metas.n >= r1.n);
  a = metas;
  a.n = r1.n;
  pt_assert_frames_equal (&a, &r1, 0, 0);
  pt_frames_free (&metas);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  assert_int_equal (got.n, r1.n + r2.n);
  a = got;
  a.n = r1.n;
  pt_assert_frames_equal (&a, &r1, 0, 0);
  b = got;
  b.index += r1.n;
  b.label += r1.n;
  b.conf += r1.n;
  b.probs += r1.n * PT_K;
  b.pts += r1.n;
  b.dur += r1.n;
  b.n = r2.n;
  pt_assert_frames_equal (&b, &r2, 500, 5 * GST_SECOND);
  pt_frames_free (&r1);
  pt_frames_free (&r2);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x1);
  free (x2);
}

/* Timestamps off the sample count keep one run while they come back within
 * a second (a live source stamping buffers as they come: by 25 ms, or in
 * bursts by 50 to 90 ms): its frames are the library's labels of the whole as
 * one stream. Buffers 60 ms late for a whole second start a new run at their
 * own time: at the buffer of 2.06 s, the first 60 ms late being at 1.06 s
 * (frame 206). */
static void
test_jitter_keeps_the_run (void **state)
{
  const int64_t N = 3 * PT_RATE, B = PT_RATE / 10;
  /* ms off the sample count of each of the first ten buffers (a second) */
  static const int jitter_ms[10] = { 0, 25, 0, -50, -70, -30, 0, 90, 60, 0 };
  float *x = pt_signal (N, 28);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  pt_frames ref, got, a;
  (void) state;

  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_reference (x, 2 * PT_RATE, NULL, &ref, NULL); /* the first run: 2 s */
  for (int64_t off = 0; off < N; off += B) {
    int64_t k = off / B;
    GstBuffer *b = gst_buffer_new_memdup (x + off, (gsize) B * sizeof *x);
    GstClockTimeDiff ms = k < 10 ? jitter_ms[k] : 60;
    GST_BUFFER_PTS (b) = samples_time (off) + ms * GST_MSECOND;
    assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  }
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  assert_true (got.n > ref.n);
  a = got;
  a.n = ref.n;
  pt_assert_frames_equal (&a, &ref, 0, 0);
  assert_int_equal (got.index[ref.n], 206);
  pt_frames_free (&ref);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
}

/* A jump of 0.5 s flagged DISCONT (upstream lost samples) restarts at once,
 * as the audio sinks resync at a discont: the new run at 1.5 s (frame 150);
 * the same jump unflagged waits the second (frame 250, at 2.5 s). */
static void
test_flagged_jump_restarts (void **state)
{
  const int64_t N = PT_RATE, B = PT_RATE / 10;
  float *x = pt_signal (3 * N, 29);
  (void) state;

  for (int flagged = 0; flagged < 2; flagged++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
    pt_frames got;
    int64_t first_of_second_run = -1;

    pt_frames_init (&got);
    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    for (int64_t off = N; off < 3 * N; off += B) {
      GstBuffer *b = gst_buffer_new_memdup (x + off, (gsize) B * sizeof *x);
      GST_BUFFER_PTS (b) = samples_time (off) + GST_SECOND / 2;
      if (flagged && off == N)
        GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
      assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
    }
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    pt_collect_frame_messages (bus, &got);
    for (int64_t i = 1; i < got.n && first_of_second_run < 0; i++)
      if (got.index[i] != got.index[i - 1] + 1)
        first_of_second_run = got.index[i];
    assert_int_equal (first_of_second_run, flagged ? 150 : 250);
    pt_frames_free (&got);
    pt_free_harness (h, bus);
  }
  free (x);
}

/* Buffers holding NaN or Inf: not labelled, one warning and no error; the
 * run ends before them (its tail labelled) and a new one starts after them,
 * each run's labels those of the library on that audio alone; the audio goes
 * on as it came. */
static void
test_non_finite_buffers_skipped (void **state)
{
  const int64_t A = PT_RATE, B = PT_RATE / 5, C = 2 * PT_RATE;   /* good, bad x2, good */
  const int64_t N = A + 2 * B + C;
  float *x = pt_signal (N, 5);
  pt_frames got, first, second, ref1, ref2;
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;
  GByteArray *bytes = g_byte_array_new ();
  GstBus *frames_bus = gst_bus_new ();
  int warnings = 0;
  (void) state;

  pt_frames_init (&ref1);
  pt_frames_init (&ref2);
  pt_reference (x, A, NULL, &ref1, NULL);
  pt_reference (x + A + 2 * B, C, NULL, &ref2, NULL);
  x[A + 17] = NAN;
  x[A + B + 3] = INFINITY;
  assert_int_equal (push_f32 (h, x, A, 0), GST_FLOW_OK);
  assert_int_equal (push_f32 (h, x + A, B, A), GST_FLOW_OK);
  assert_int_equal (push_f32 (h, x + A + B, B, A + B), GST_FLOW_OK);
  assert_int_equal (push_f32 (h, x + A + 2 * B, C, A + 2 * B), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));

  /* one warning for the stretch, no error; the frame messages go on to a bus
   * of their own (popping one type drops the others) */
  while ((msg = gst_bus_pop (bus)) != NULL) {
    assert_int_not_equal (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      assert_int_equal (++warnings, 1);
      gst_message_parse_warning (msg, &error, &debug);
      if (!strstr (error->message, "non-finite sample (NaN)")
          || !strstr (debug, "buffer at 0:00:01.000"))
        fail_msg ("%s (%s)", error->message, debug);
      g_error_free (error);
      g_free (debug);
      gst_message_unref (msg);
    } else {
      gst_bus_post (frames_bus, msg);
    }
  }
  assert_int_equal (warnings, 1);

  pt_frames_init (&got);
  pt_frames_init (&first);
  pt_frames_init (&second);
  pt_collect_frame_messages (frames_bus, &got);
  for (int64_t i = 0; i < got.n; i++)
    pt_frames_add (got.index[i] < (A + 2 * B) / PT_HOP ? &first : &second, got.index[i],
        got.label[i], got.conf[i], got.probs + i * PT_K, got.pts[i], got.dur[i]);
  pt_assert_frames_equal (&first, &ref1, 0, 0);
  pt_assert_frames_equal (&second, &ref2, (A + 2 * B) / PT_HOP, samples_time (A + 2 * B));

  pull_metas (h, &got, bytes);  /* every sample passes, the bad ones too */
  assert_int_equal (bytes->len, N * sizeof (float));
  assert_memory_equal (bytes->data, x, 4 * sizeof (float));
  assert_true (isnan (((const float *) bytes->data)[A + 17]));
  g_byte_array_unref (bytes);
  pt_frames_free (&got);
  pt_frames_free (&first);
  pt_frames_free (&second);
  pt_frames_free (&ref1);
  pt_frames_free (&ref2);
  gst_object_unref (frames_bus);
  pt_free_harness (h, bus);
  free (x);
}

/* threshold-on below threshold-off's default, alone: unused without a target
 * class, so the element starts; with one, an error that says what to set. */
static void
test_thresholds_checked_with_a_target (void **state)
{
  GstElement *el = gst_element_factory_make ("seqlabel", NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *error = NULL;
  (void) state;

  gst_element_set_bus (el, bus);
  g_object_set (el, "model", pt_model_path (), "threshold-on", 0.3, NULL);
  assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (el, GST_STATE_NULL);
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  g_object_set (el, "target-class", "speech", NULL);
  assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  assert_non_null (msg);
  gst_message_parse_error (msg, &error, NULL);
  if (!strstr (error->message, "threshold-off 0.35 is above threshold-on 0.3: set threshold-off"))
    fail_msg ("%s", error->message);
  g_error_free (error);
  gst_message_unref (msg);
  gst_element_set_state (el, GST_STATE_NULL);
  gst_element_set_bus (el, NULL);
  gst_object_unref (bus);
  gst_object_unref (el);
}

/* Caps the element refuses (channel=2 of a mono stream) post one error, not
 * one for each buffer the source pushes them again with. */
static void
test_refused_caps_one_error (void **state)
{
  float x[1000] = { 0 };
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, "channel", 2, NULL);
  GstMessage *msg;
  int errors = 0;
  (void) state;

  for (int k = 0; k < 3; k++)
    assert_int_not_equal (push_f32 (h, x, 1000, 1000 * k), GST_FLOW_OK);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) != NULL) {
    GError *error = NULL;
    gst_message_parse_error (msg, &error, NULL);
    assert_non_null (strstr (error->message, "channel=2, but the input has 1 channel(s)"));
    g_error_free (error);
    gst_message_unref (msg);
    errors++;
  }
  assert_int_equal (errors, 1);
  pt_free_harness (h, bus);
}

/* 44.1 kHz stereo without converters in front: the audio passes unchanged, and
 * the labels are the library's on the stream converted whole (sl_converter,
 * then the labeler), on the 10 ms grid from 0; also with a buffer of no
 * samples after each (an appsrc's, a GAP's), which flushed the resampler
 * mid-run. */
static void
test_converted_input (void **state)
{
  const int64_t N = 2 * 44100 + 333;
  float *x = pt_signal (N, 31);
  gint16 *s = g_new (gint16, 2 * N);
  GByteArray *bytes = g_byte_array_new ();
  char err[SL_ERR_LEN];
  sl_converter *c = sl_converter_new (44100, 2, PT_RATE, err, sizeof err);
  float *mono;
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus,
      "audio/x-raw,format=S16LE,rate=44100,channels=2,layout=interleaved", NULL);
  pt_frames ref, got, metas;
  GArray *conv = g_array_new (FALSE, FALSE, sizeof (float));
  (void) state;

  for (int64_t i = 0; i < N; i++) {
    s[2 * i] = (gint16) lrint (x[i] * 32768.0);
    s[2 * i + 1] = (gint16) (-s[2 * i] / 2);
  }
  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_frames_init (&metas);
  assert_non_null (c);
  /* the reference conversion, in one push */
  assert_int_equal (sl_converter_push_s16 (c, s, (size_t) N, pt_append_samples, conv,
          err, sizeof err), 0);
  assert_int_equal (sl_converter_flush (c, pt_append_samples, conv, err, sizeof err), 0);
  mono = (float *) conv->data;
  assert_int_equal (conv->len, (guint) lround (N * 16000.0 / 44100));
  pt_reference (mono, conv->len, NULL, &ref, NULL);

  for (int64_t off = 0; off < N; off += 1000) {
    assert_int_equal (pt_push_s16_at (h, s + 2 * off, MIN (1000, N - off), 2, 44100, off),
        GST_FLOW_OK);
    assert_int_equal (pt_push_s16_at (h, s, 0, 2, 44100, MIN (off + 1000, N)), GST_FLOW_OK);
  }
  pull_metas (h, &metas, bytes);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  pt_assert_frames_equal (&got, &ref, 0, 0);
  assert_int_equal (bytes->len, (guint) (2 * N * sizeof *s));
  assert_memory_equal (bytes->data, s, bytes->len);

  g_byte_array_unref (bytes);
  g_array_free (conv, TRUE);
  sl_converter_free (c);
  pt_frames_free (&ref);
  pt_frames_free (&got);
  pt_frames_free (&metas);
  pt_free_harness (h, bus);
  g_free (s);
  free (x);
}

/* 64-bit float and big-endian 16-bit at the model's rate: unpacked to the
 * same float samples, so the library's labels of them. */
static void
test_other_formats (void **state)
{
  const int64_t N = PT_RATE + 77;
  float *x = pt_signal (N, 32);
  pt_frames ref;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, NULL);
  for (int variant = 0; variant < 2; variant++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, variant == 0 ?
        "audio/x-raw,format=F64LE,rate=16000,channels=1,layout=interleaved" :
        "audio/x-raw,format=S16BE,rate=16000,channels=1,layout=interleaved", NULL);
    pt_frames got;
    gsize size = (gsize) N * (variant == 0 ? sizeof (double) : sizeof (gint16));
    guint8 *data = g_malloc (size);
    for (int64_t i = 0; i < N; i++) {
      if (variant == 0) {
        ((double *) data)[i] = x[i];
      } else {
        gint16 v = (gint16) lrint (x[i] * 32768.0);
        data[2 * i] = (guint8) ((guint16) v >> 8);
        data[2 * i + 1] = (guint8) (v & 0xff);
      }
    }
    pt_frames_init (&got);
    assert_int_equal (gst_harness_push (h, gst_buffer_new_wrapped (data, size)), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    pt_collect_frame_messages (bus, &got);
    assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
    pt_assert_frames_equal (&got, &ref, 0, 0);
    pt_frames_free (&got);
    pt_free_harness (h, bus);
  }
  pt_frames_free (&ref);
  free (x);
}

/* With a converter the latency adds its delay, and is real: frame 0 is out
 * once 48 kHz input worth hop + both latencies has been pushed. */
static void
test_latency_converted (void **state)
{
  char err[SL_ERR_LEN];
  sl_model *m = sl_model_load (pt_model_path (), err, sizeof err);
  sl_labeler_config cfg;
  sl_labeler *l;
  sl_converter *c = sl_converter_new (48000, 1, PT_RATE, err, sizeof err);
  int64_t lat, in;
  GstClockTime want;
  guint64 prop;
  GstBus *bus;
  GstHarness *h;
  float *x;
  (void) state;

  assert_non_null (m);
  assert_non_null (c);
  sl_labeler_config_default (&cfg);
  l = sl_labeler_new (m, &cfg, err, sizeof err);
  assert_non_null (l);
  lat = sl_labeler_latency_samples (l) + sl_converter_delay (c);
  assert_true (sl_converter_delay (c) > 0);
  sl_labeler_free (l);
  sl_model_free (m);
  sl_converter_free (c);
  want = gst_util_uint64_scale_ceil ((guint64) lat, GST_SECOND, PT_RATE);

  h = pt_make_harness (&bus, "audio/x-raw,format=F32LE,rate=48000,channels=1,layout=interleaved",
      NULL);
  in = 3 * (PT_HOP + lat);
  x = pt_signal (in, 6);
  assert_int_equal (gst_harness_push (h, gst_buffer_new_memdup (x, 480 * sizeof *x)),
      GST_FLOW_OK);
  g_object_get (h->element, "latency", &prop, NULL);
  assert_int_equal (prop, want);
  assert_int_equal (gst_harness_query_latency (h), want);
  assert_int_equal (gst_harness_push (h, gst_buffer_new_memdup (x + 480,
              (gsize) (in - 480) * sizeof *x)), GST_FLOW_OK);
  assert_frame0_out (bus);
  pt_free_harness (h, bus);

  /* past max-latency by the resampler's delay: a warning says so and how to
   * keep within it; at the model's rate, none */
  for (int converted = 1; converted >= 0; converted--) {
    GstMessage *msg;
    h = pt_make_harness (&bus, converted ? "audio/x-raw,format=F32LE,rate=48000,channels=1,"
        "layout=interleaved" : F32_CAPS, "max-latency", 0.1, NULL);
    assert_int_equal (gst_harness_push (h, gst_buffer_new_memdup (x, 480 * sizeof *x)),
        GST_FLOW_OK);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    if (converted) {
      GError *e = NULL;
      assert_non_null (msg);
      gst_message_parse_warning (msg, &e, NULL);
      if (!strstr (e->message, "past max-latency 0.100 s: input at 48000 Hz adds the "
              "resampler's") || !strstr (e->message, "audioresample ! audio/x-raw,rate=16000"))
        fail_msg ("%s", e->message);
      g_error_free (e);
      gst_message_unref (msg);
    } else {
      assert_null (msg);
    }
    pt_free_harness (h, bus);
  }
  free (x);
}

/* A format change mid-stream (F32 -> S16, same rate) keeps the run going. */
static void
test_caps_change_midstream (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 8);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  pt_frames ref, got;
  (void) state;

  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_reference (x, N, NULL, &ref, NULL);
  assert_int_equal (push_f32 (h, x, 12345, 0), GST_FLOW_OK);
  gst_harness_set_src_caps_str (h, S16_CAPS);
  assert_int_equal (push_s16 (h, x + 12345, N - 12345, 12345), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  pt_frames_free (&ref);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
}

/* A new channel count at the same rate keeps the run going: the stream is
 * labelled as the one mono signal it downmixes to (the frames across the
 * change too, from the audio on both sides), first through no converter, then
 * through the stereo downmix, and back; every frame before the second change is
 * on a meta once the first buffer after it is out. */
static void
test_channels_change_midstream (void **state)
{
  const int64_t N = PT_RATE, M = N / 2;
  float *x = pt_signal (N + 2 * M, 10);
  float *stereo = g_new0 (float, 2 * M);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstBuffer *b;
  pt_frames ref, metas, a, got;
  (void) state;

  /* the stereo part's two channels are x: their mean is x, exactly */
  for (int64_t i = 0; i < M; i++)
    stereo[2 * i] = stereo[2 * i + 1] = x[N + i];
  pt_frames_init (&ref);
  pt_frames_init (&metas);
  pt_frames_init (&got);
  pt_reference (x, N + 2 * M, NULL, &ref, NULL);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  gst_harness_set_src_caps_str (h, "audio/x-raw,format=F32LE,rate=16000,channels=2,"
      "layout=interleaved,channel-mask=(bitmask)0x3");
  b = gst_buffer_new_wrapped (stereo, (gsize) (2 * M) * sizeof *stereo);
  GST_BUFFER_PTS (b) = samples_time (N);
  GST_BUFFER_DURATION (b) = samples_time (N + M) - samples_time (N);
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x + N + M, M, N + M), GST_FLOW_OK);
  pull_metas (h, &metas, NULL);
  /* every frame whose window ends before the last change, on a meta */
  assert_true (metas.n >= (N + M - 400) / 160);
  a = ref;
  a.n = metas.n;
  pt_assert_frames_equal (&metas, &a, 0, 0);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  pt_frames_free (&ref);
  pt_frames_free (&metas);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
}

/* Three channels with no channel-mask, as wavparse gives them (and 7, and 9 or
 * more): read as unpositioned, labelled as their mean, not refused. */
static void
test_unpositioned_channels (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 11);
  float *three = g_new0 (float, 3 * N);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus,
      "audio/x-raw,format=F32LE,rate=16000,channels=3,layout=interleaved", NULL);
  GstBuffer *b;
  pt_frames ref, got;
  (void) state;

  for (int64_t i = 0; i < N; i++)
    three[3 * i] = three[3 * i + 1] = three[3 * i + 2] = x[i];
  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_reference (x, N, NULL, &ref, NULL);
  b = gst_buffer_new_wrapped (three, (gsize) (3 * N) * sizeof *three);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = samples_time (N);
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  assert_true (ref.n > 0);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  pt_frames_free (&ref);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
}

typedef struct {
  GArray *samples;
} collected;

static int
collect_samples (void *user, const float *mono, size_t n)
{
  g_array_append_vals (((collected *) user)->samples, mono, (guint) n);
  return 0;
}

/* A new rate mid-stream (16 kHz, then 48 kHz) keeps the run going too: the
 * stream is labelled as the one signal the model's rate makes of it, the
 * 16 kHz part as it is and the 48 kHz part through a converter of its own
 * (resampled here by sl_converter for the reference), frame for frame, with
 * frame times going on from the first part's. */
static void
test_rate_change_midstream (void **state)
{
  const int64_t N = PT_RATE, M = 48000;
  float *x = pt_signal (N, 11), *y = pt_signal (M, 12);
  char err[SL_ERR_LEN];
  sl_converter *c = sl_converter_new (48000, 1, PT_RATE, err, sizeof err);
  collected all = { g_array_new (FALSE, FALSE, sizeof (float)) };
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstBuffer *b;
  pt_frames ref, got;
  (void) state;

  assert_non_null (c);
  g_array_append_vals (all.samples, x, (guint) N);
  assert_int_equal (sl_converter_push (c, y, (size_t) M, collect_samples, &all, err,
          sizeof err), 0);
  assert_int_equal (sl_converter_flush (c, collect_samples, &all, err, sizeof err), 0);
  sl_converter_free (c);
  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_reference ((const float *) (void *) all.samples->data, all.samples->len, NULL, &ref, NULL);

  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  gst_harness_set_src_caps_str (h, "audio/x-raw,format=F32LE,rate=48000,channels=1,"
      "layout=interleaved");
  b = gst_buffer_new_memdup (y, (gsize) M * sizeof *y);
  GST_BUFFER_PTS (b) = GST_SECOND;
  GST_BUFFER_DURATION (b) = GST_SECOND;
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  assert_int_equal (got.n, expected_frames (2 * N));
  assert_null (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR));
  pt_frames_free (&ref);
  pt_frames_free (&got);
  g_array_free (all.samples, TRUE);
  pt_free_harness (h, bus);
  free (x);
  free (y);
}

/* Pushes 2 s of signal in ten buffers through "seqlabel ! AFTER" and checks
 * the metas that come out: the library's frames, each once, in order;
 * with want_buffers, that many buffers. */
static void
metas_behind (const char *after, const char *sink_caps, guint want_buffers)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 9);
  gchar *launch = g_strdup_printf ("seqlabel model=%s ! %s", pt_model_path (), after);
  GstHarness *h = gst_harness_new_parse (launch);
  pt_frames ref, metas, pref;

  pt_frames_init (&ref);
  pt_frames_init (&metas);
  pt_reference (x, N, NULL, &ref, NULL);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  for (int i = 0; i < 10; i++)
    assert_int_equal (push_f32 (h, x + i * (N / 10), N / 10, i * (N / 10)), GST_FLOW_OK);
  if (want_buffers)
    assert_int_equal (gst_harness_buffers_received (h), want_buffers);
  pull_metas (h, &metas, NULL);
  assert_true (metas.n > 0);
  pref = ref;
  pref.n = metas.n;
  pt_assert_frames_equal (&metas, &pref, 0, 0);
  pt_frames_free (&ref);
  pt_frames_free (&metas);
  gst_harness_teardown (h);
  g_free (launch);
  free (x);
}

/* The meta is kept by audioconvert and audioresample (audio tag only). */
static void
test_meta_survives_convert (void **state)
{
  (void) state;
  metas_behind ("audioconvert ! audioresample",
      "audio/x-raw,format=S16LE,rate=8000,channels=1,layout=interleaved", 0);
}

/* A buffer cut into pieces downstream (audiobuffersplit's region copies:
 * 3200 samples into 32 of 100) gives its labels to its first piece alone:
 * every frame once, as on the uncut buffers. */
static void
test_meta_on_first_piece (void **state)
{
  (void) state;
  metas_behind ("audiobuffersplit output-buffer-duration=1/160", NULL, 320);
}

/* GstAudioLevelMeta (the model has `speech`): the buffer's level in -dBov and
 * the voice-activity flag of the latest completed frame. */
static void
test_audio_level_meta (void **state)
{
  const int64_t N = PT_RATE / 2;
  float *x = malloc (N * sizeof *x);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstBuffer *b;
  GstAudioLevelMeta *lm;
  GstSeqLabelMeta *sm;
  (void) state;

  /* a sine of amplitude 0.1: RMS 0.0707 = -23.01 dBov -> level 23 */
  for (int64_t i = 0; i < N; i++)
    x[i] = (float) (0.1 * sin (2.0 * M_PI * 440.0 * i / PT_RATE));
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  b = gst_harness_pull (h);
  lm = gst_buffer_get_audio_level_meta (b);
  assert_non_null (lm);
  assert_int_equal (lm->level, 23);
  sm = gst_buffer_get_seqlabel_meta (b);
  assert_non_null (sm);
  assert_int_equal (lm->voice_activity,
      sm->frames[sm->n_frames - 1].label == g_quark_from_string ("speech"));
  gst_buffer_unref (b);
  pt_free_harness (h, bus);
  free (x);
}

/* The decoder properties reach the library: smoothing, minimum durations,
 * target class with thresholds and padding give the library's labels for the
 * same settings (and differ from the plain argmax, so they were applied). The
 * defaults are docs/element.md's: Viterbi at penalty 5 with the default lag. */
static void
test_decoder_properties (void **state)
{
  const int64_t N = 4 * PT_RATE;
  float *x = pt_signal (N, 12);
  sl_labeler_config cfg, argmax;
  GstBus *bus;
  GstHarness *h;
  pt_frames ref, plain, got;
  int64_t differ = 0;
  (void) state;

  sl_labeler_config_default (&cfg);
  cfg.decoder.smoothing = SL_SMOOTH_VITERBI;
  cfg.decoder.switch_penalty = 2.0f;
  cfg.decoder.smoothing_lag = 7;
  cfg.decoder.min_duration_s[2] = 0.08f;        /* music */
  cfg.decoder.target_class = 1;                 /* speech */
  cfg.decoder.on_threshold = 0.3f;
  cfg.decoder.off_threshold = 0.2f;
  cfg.decoder.pad_before_s = 0.05f;
  cfg.decoder.pad_after_s = 0.05f;
  pt_frames_init (&ref);
  pt_frames_init (&plain);
  pt_frames_init (&got);
  pt_reference (x, N, &cfg, &ref, NULL);
  sl_labeler_config_default (&argmax);
  argmax.decoder.smoothing = SL_SMOOTH_NONE;
  pt_reference (x, N, &argmax, &plain, NULL);
  assert_int_equal (ref.n, plain.n);
  for (int64_t i = 0; i < ref.n; i++)
    differ += ref.label[i] != plain.label[i];
  assert_true (differ > 0);

  {
    GstElement *e = gst_element_factory_make ("seqlabel", NULL);
    gint smoothing, lag;
    gdouble penalty;

    assert_non_null (e);
    g_object_get (e, "smoothing", &smoothing, "smoothing-lag", &lag, "switch-penalty", &penalty,
        NULL);
    assert_int_equal (smoothing, GST_SEQLABEL_SMOOTHING_VITERBI);
    assert_int_equal (lag, -1);
    assert_float_equal (penalty, 5.0, 0);
    gst_object_unref (e);
  }
  h = pt_make_harness (&bus, NULL, "smoothing", 1, "switch-penalty", 2.0,
      "smoothing-lag", 7, "min-durations", "music=0.08", "target-class", "speech",
      "threshold-on", 0.3, "threshold-off", 0.2, "padding", 0.05, NULL);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  pt_frames_free (&ref);
  pt_frames_free (&plain);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
}

/* The library's labels of x with the decoder's penalty and thresholds set to
 * penalty, on, off after the first `at` samples (cfg's before), into ref; they
 * must differ from those of either setting alone, or the test could not tell that
 * the change took effect, nor that it did mid-stream. */
static void
retuned_reference (const float *x, int64_t n, const sl_labeler_config * cfg, int64_t at,
    float penalty, float on, float off, pt_frames * ref)
{
  sl_labeler_config then = *cfg;
  pt_frames before, after;
  int64_t differ_before = 0, differ_after = 0;

  then.decoder.switch_penalty = penalty;
  then.decoder.on_threshold = on;
  then.decoder.off_threshold = off;
  pt_frames_init (&before);
  pt_frames_init (&after);
  pt_reference_retuned (x, n, cfg, at, penalty, on, off, ref, NULL);
  pt_reference (x, n, cfg, &before, NULL);
  pt_reference (x, n, &then, &after, NULL);
  for (int64_t i = 0; i < ref->n; i++) {
    differ_before += ref->label[i] != before.label[i];
    differ_after += ref->label[i] != after.label[i];
  }
  assert_true (differ_before > 0);
  assert_true (differ_after > 0);
  pt_frames_free (&before);
  pt_frames_free (&after);
}

/* Plays x through h, setting the double property names[i] to values[i] before
 * the buffer that starts at sample at[i] (ascending), then EOS; the frames of the
 * bus messages must be ref's. */
static void
assert_retuned_run (GstHarness * h, GstBus * bus, const float *x, int64_t n, int k,
    const int64_t * at, const char *const *names, const double *values,
    const pt_frames * ref)
{
  pt_frames got;
  int64_t from = 0;

  pt_frames_init (&got);
  for (int i = 0; i <= k; i++) {
    int64_t to = i < k ? at[i] : n;
    assert_int_equal (push_f32 (h, x + from, to - from, from), GST_FLOW_OK);
    if (i < k)
      g_object_set (h->element, names[i], values[i], NULL);
    from = to;
  }
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, ref, 0, 0);
  pt_frames_free (&got);
}

/* threshold-on and threshold-off, then switch-penalty, set while playing, between
 * two buffers: the labels are the library's with sl_labeler_retune between the
 * same two pushes (retuned_reference). A pair with off above on, which setting one
 * property before the other gives, is passed over: the last good settings stay
 * (threshold-off 0.45 set before the second buffer, above threshold-on 0.3;
 * threshold-on 0.6 before the third: 0.6 / 0.45 from there). The penalty goes
 * from 0.5 to 9 with no target class (with this test model's target class the
 * other frames' labels come out the same under either), on a signal whose labels
 * the two penalties set apart both before and after the change. */
static void
test_retune_while_playing (void **state)
{
  const int64_t N = 6 * PT_RATE, AT2 = 3 * PT_RATE + 4567;
  const int64_t at[2] = { 2 * PT_RATE + 123, AT2 };
  const char *const thresholds[2] = { "threshold-off", "threshold-on" };
  const char *const penalty[1] = { "switch-penalty" };
  const double raised[2] = { 0.45, 0.6 }, nine[1] = { 9.0 };
  float *x = pt_signal (N, 12), *y = pt_signal (N, 5);
  sl_labeler_config cfg;
  GstBus *bus;
  GstHarness *h;
  pt_frames ref;
  (void) state;

  sl_labeler_config_default (&cfg);
  cfg.decoder.target_class = 1;                 /* speech */
  cfg.decoder.on_threshold = 0.3f;
  cfg.decoder.off_threshold = 0.2f;
  pt_frames_init (&ref);
  retuned_reference (x, N, &cfg, AT2, cfg.decoder.switch_penalty, 0.6f, 0.45f, &ref);
  h = pt_make_harness (&bus, F32_CAPS, "target-class", "speech",
      "threshold-on", 0.3, "threshold-off", 0.2, NULL);
  assert_retuned_run (h, bus, x, N, 2, at, thresholds, raised, &ref);
  pt_free_harness (h, bus);
  pt_frames_free (&ref);

  sl_labeler_config_default (&cfg);
  cfg.decoder.switch_penalty = 0.5f;
  pt_frames_init (&ref);
  retuned_reference (y, N, &cfg, AT2, 9.0f, cfg.decoder.on_threshold,
      cfg.decoder.off_threshold, &ref);
  h = pt_make_harness (&bus, F32_CAPS, "switch-penalty", 0.5, NULL);
  assert_retuned_run (h, bus, y, N, 1, at + 1, penalty, nine, &ref);
  pt_free_harness (h, bus);
  pt_frames_free (&ref);
  free (x);
  free (y);
}

/* Unknown target class, bad min-durations, a missing model file, an unknown
 * class in skip-classes or only-classes, a time-origin that is no moment (with
 * jsonl) or one for a format with no place for it (audacity): the element
 * refuses to start with an error naming the setting and the value. */
static void
test_bad_settings (void **state)
{
  static const char *prop[7] = { "target-class", "min-durations", "model", "skip-classes",
    "only-classes", "time-origin", "time-origin"
  };
  static const char *val[7] = { "laughter", "speech=abc", "/nonexistent/m.slm", "noise,dog",
    "cat", "2026-12-05T10:00:00", "now"
  };
  (void) state;
  for (int i = 0; i < 7; i++) {
    GstElement *el = gst_element_factory_make ("seqlabel", NULL);
    GstBus *bus = gst_bus_new ();
    g_object_set (el, "model", pt_model_path (), NULL);
    g_object_set (el, prop[i], val[i], NULL);
    if (i == 5)
      gst_util_set_object_arg (G_OBJECT (el), "label-format", "jsonl");
    gst_element_set_bus (el, bus);
    assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    assert_error_mentions (bus, i == 2 ? "model" : prop[i], i == 6 ? "audacity" : val[i]);
    gst_element_set_state (el, GST_STATE_NULL);
    gst_element_set_bus (el, NULL);
    gst_object_unref (el);
    gst_object_unref (bus);
  }
}

/* Settings that would do nothing are refused as the command refuses them: a
 * class list of separators alone (every label left out, silently), a class
 * list with a format that keeps every frame, padding without a target class,
 * the Viterbi settings with smoothing=none (each was ignored without a word).
 * The command's ranges are the element's: padding 100 s, switch-penalty 5000
 * and smoothing-lag 20000 start (they were out of range, the defaults used). */
static void
test_settings_that_do_nothing (void **state)
{
  static const char *cases[][5] = {     /* property, value, property, value, error */
    {"only-classes", ", ,", NULL, NULL, "only-classes \", ,\" names no class"},
    {"skip-classes", " ", NULL, NULL, "skip-classes \" \" names no class"},
    {"skip-classes", "silence", "label-format", "frames",
        "skip-classes leaves out segments: label-format frames keeps every frame"},
    {"only-classes", "speech", "label-format", "jsonl",
        "only-classes leaves out segments: label-format jsonl keeps every frame"},
    {"padding", "0.5", NULL, NULL, "padding goes with target-class"},
    {"smoothing", "none", "smoothing-lag", "7",
        "smoothing-lag goes with Viterbi smoothing, not smoothing=none"},
    {"smoothing", "none", "switch-penalty", "9",
        "switch-penalty goes with Viterbi smoothing, not smoothing=none"},
    {"target-class", "speech", "padding", "100", NULL},
    {"switch-penalty", "5000", "smoothing-lag", "20000", NULL},
  };
  (void) state;
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *el = gst_element_factory_make ("seqlabel", NULL);
    GstBus *bus = gst_bus_new ();
    g_object_set (el, "model", pt_model_path (), NULL);
    for (int k = 0; k < 4 && cases[i][k]; k += 2)
      gst_util_set_object_arg (G_OBJECT (el), cases[i][k], cases[i][k + 1]);
    gst_element_set_bus (el, bus);
    if (cases[i][4]) {
      assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
      assert_error_mentions (bus, "seqlabel: ", cases[i][4]);
    } else {
      gchar *got;
      assert_int_not_equal (gst_element_set_state (el, GST_STATE_PAUSED),
          GST_STATE_CHANGE_FAILURE);
      for (int k = 0; k < 4; k += 2) {
        GValue v = G_VALUE_INIT;
        g_object_get_property (G_OBJECT (el), cases[i][k], &v);
        got = g_strdup_value_contents (&v);
        if (G_VALUE_HOLDS_STRING (&v) ? strcmp (g_value_get_string (&v), cases[i][k + 1]) :
            g_ascii_strtod (got, NULL) != g_ascii_strtod (cases[i][k + 1], NULL))
          fail_msg ("%s=%s read back as %s", cases[i][k], cases[i][k + 1], got);
        g_free (got);
        g_value_unset (&v);
      }
    }
    gst_element_set_state (el, GST_STATE_NULL);
    gst_element_set_bus (el, NULL);
    gst_object_unref (el);
    gst_object_unref (bus);
  }
}

/* message-mode=segment: one message per segment, as the library segments
 * them, with the mean confidence of their frames. */
static void
test_segment_messages (void **state)
{
  const int64_t N = 3 * PT_RATE;
  float *x = pt_signal (N, 13);
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (gint64));
  GstBus *bus;
  GstHarness *h;
  GstMessage *msg;
  pt_frames ref;
  guint got = 0;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, segs);
  h = pt_make_harness (&bus, F32_CAPS, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "message-mode", "segment");
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    const GstStructure *st = gst_message_get_structure (msg);
    const gint64 *sg = &g_array_index (segs, gint64, 3 * got);
    guint64 a, b, ts, dur;
    gint cls;
    gdouble conf, mean = 0.0;
    assert_true (gst_structure_has_name (st, "seqlabel"));
    assert_false (gst_structure_has_field (st, "frame"));
    assert_true (got < segs->len / 3);
    assert_true (gst_structure_get_uint64 (st, "start-frame", &a));
    assert_true (gst_structure_get_uint64 (st, "end-frame", &b));
    assert_true (gst_structure_get_uint64 (st, "timestamp", &ts));
    assert_true (gst_structure_get_uint64 (st, "duration", &dur));
    assert_true (gst_structure_get_int (st, "class", &cls));
    assert_true (gst_structure_get_double (st, "confidence", &conf));
    assert_int_equal (a, sg[0]);
    assert_int_equal (b, sg[1]);
    assert_int_equal (cls, sg[2]);
    assert_int_equal (ts, sg[0] * 10 * GST_MSECOND);
    assert_int_equal (dur, (sg[1] - sg[0]) * 10 * GST_MSECOND);
    for (gint64 i = sg[0]; i < sg[1]; i++)
      mean += ref.conf[i];
    mean /= (double) (sg[1] - sg[0]);
    assert_true (fabs (conf - mean) < 1e-5);
    gst_message_unref (msg);
    got++;
  }
  assert_int_equal (got, segs->len / 3);
  g_array_free (segs, TRUE);
  pt_frames_free (&ref);
  pt_free_harness (h, bus);
  free (x);
}

/* segment-starts: a "seqlabel-start" message as each segment begins (its
 * start frame, time and class), right after the message of the segment
 * before it, once the decoder decides its first frame: before the
 * segment's own message, which waits for its end. */
static void
test_segment_start_messages (void **state)
{
  const int64_t N = 3 * PT_RATE;
  float *x = pt_signal (N, 9);  /* three segments */
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (gint64));
  GstBus *bus;
  GstHarness *h;
  GstMessage *msg;
  pt_frames ref;
  guint starts = 0, ends = 0;
  char err[SL_ERR_LEN];
  sl_model *m = sl_model_load (pt_model_path (), err, sizeof err);
  (void) state;

  assert_non_null (m);
  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, segs);
  assert_int_equal (segs->len / 3, 3);
  h = pt_make_harness (&bus, F32_CAPS, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "message-mode", "segment");
  g_object_set (h->element, "segment-starts", TRUE, NULL);
  for (int64_t at = 0; at < N; at += PT_RATE / 10)   /* 0.1 s buffers */
    assert_int_equal (push_f32 (h, x + at, MIN (PT_RATE / 10, N - at), at), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    const GstStructure *st = gst_message_get_structure (msg);
    guint64 a, ts;
    gint cls;
    if (gst_structure_has_name (st, "seqlabel-start")) {
      const gint64 *sg = &g_array_index (segs, gint64, 3 * starts);
      assert_true (starts < segs->len / 3);
      assert_int_equal (ends, starts);  /* the segment before it has ended */
      assert_true (gst_structure_get_uint64 (st, "start-frame", &a));
      assert_true (gst_structure_get_uint64 (st, "timestamp", &ts));
      assert_true (gst_structure_get_int (st, "class", &cls));
      assert_int_equal (a, sg[0]);
      assert_int_equal (ts, sg[0] * 10 * GST_MSECOND);
      assert_int_equal (cls, sg[2]);
      assert_string_equal (gst_structure_get_string (st, "label"),
          sl_model_class_name (m, cls));
      assert_false (gst_structure_has_field (st, "duration"));
      starts++;
    } else {
      assert_true (gst_structure_has_name (st, "seqlabel"));
      assert_int_equal (starts, ends + 1);      /* its start came first */
      ends++;
    }
    gst_message_unref (msg);
  }
  assert_int_equal (starts, segs->len / 3);
  assert_int_equal (ends, segs->len / 3);
  pt_free_harness (h, bus);
  /* with post-messages off: the starts alone */
  h = pt_make_harness (&bus, F32_CAPS, NULL);
  g_object_set (h->element, "segment-starts", TRUE, "post-messages", FALSE, NULL);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  starts = 0;
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    assert_true (gst_structure_has_name (gst_message_get_structure (msg), "seqlabel-start"));
    gst_message_unref (msg);
    starts++;
  }
  assert_int_equal (starts, segs->len / 3);
  sl_model_free (m);
  g_array_free (segs, TRUE);
  pt_frames_free (&ref);
  pt_free_harness (h, bus);
  free (x);
}

/* One message of test_message_mode_switch: its frames' labels are the
 * reference's, a segment's confidence the mean of the frames it names; each
 * frame it names counted in seen; a segment that is not one of the
 * reference's counted in *partial. */
static void
check_mode_message (GstMessage * msg, const pt_frames * ref, GArray * segs, int *seen,
    int *partial)
{
  const GstStructure *st = gst_message_get_structure (msg);
  guint64 a, b;
  gint cls;
  gdouble conf, mean = 0.0;
  gboolean whole = FALSE;

  assert_true (gst_structure_get_int (st, "class", &cls));
  assert_true (gst_structure_get_double (st, "confidence", &conf));
  if (gst_structure_get_uint64 (st, "frame", &a))
    b = a + 1;
  else {
    assert_true (gst_structure_get_uint64 (st, "start-frame", &a));
    assert_true (gst_structure_get_uint64 (st, "end-frame", &b));
    for (guint i = 0; i < segs->len; i += 3)
      whole |= (guint64) g_array_index (segs, gint64, i) == a
          && (guint64) g_array_index (segs, gint64, i + 1) == b;
    *partial += !whole;
  }
  assert_true (a < b && b <= (guint64) ref->n);
  for (guint64 i = a; i < b; i++) {
    assert_int_equal (ref->label[i], cls);
    seen[i]++;
    mean += ref->conf[i];
  }
  assert_true (fabs (conf - mean / (double) (b - a)) < 1e-5);
  gst_message_unref (msg);
}

/* message-mode changed while playing ("can change while playing"): every
 * frame is in exactly one message, with its label, through a switch to frame
 * messages in the middle of a segment (the open segment's frames so far
 * posted as a segment: they were lost) and back (its frames already posted
 * one by one left out of its segment: they came twice); a segment's
 * confidence is the mean of the frames it names. With post-messages off at
 * each switch and on again at the next buffer, the mode changes then: no
 * frame comes twice (most did), and only frames labelled while messages
 * were off in frame mode are missing. */
static void
test_message_mode_switch (void **state)
{
  const int64_t N = 8 * PT_RATE, part = PT_RATE / 2;
  float *x = pt_signal (N, 13);
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (gint64));
  GstBus *bus;
  GstHarness *h;
  GstMessage *msg;
  pt_frames ref;
  int *seen, partial = 0, off_buffers = 0, missing = 0;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, segs);
  seen = g_new0 (int, ref.n);
  for (int pass = 0; pass < 2; pass++) {
    h = pt_make_harness (&bus, F32_CAPS, NULL);
    memset (seen, 0, sizeof *seen * (size_t) ref.n);
    for (int64_t at = 0, k = 0; at < N; at += part, k++) {
      /* frames for the 2nd and 5th seconds, segments else; or every other
       * second, messages off at each switch */
      const gboolean frames = pass ? k % 4 >= 2 : (k >= 2 && k < 4) || (k >= 8 && k < 10);
      const gboolean off = pass && k % 2 == 0 && k > 0;
      gst_util_set_object_arg (G_OBJECT (h->element), "message-mode",
          frames ? "frame" : "segment");
      g_object_set (h->element, "post-messages", !off, NULL);
      off_buffers += off && !frames;
      assert_int_equal (push_f32 (h, x + at, MIN (part, N - at), at), GST_FLOW_OK);
    }
    g_object_set (h->element, "post-messages", TRUE, NULL);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL)
      check_mode_message (msg, &ref, segs, seen, &partial);
    for (int64_t i = 0; i < ref.n; i++) {
      if (seen[i] > 1 || (!pass && seen[i] != 1))
        fail_msg ("pass %d: frame %" G_GINT64_FORMAT " is in %d messages", pass, i, seen[i]);
      missing += !seen[i];
    }
    pt_free_harness (h, bus);
  }
  assert_true (partial >= 1);   /* a switch fell in a segment */
  /* a buffer's frames, and those the labeler still held from the one before */
  assert_true (missing <= off_buffers * (part / PT_HOP + 100));
  g_free (seen);
  g_array_free (segs, TRUE);
  pt_frames_free (&ref);
  free (x);
}

/* ---------------------------------------------------------------------- */
/* the labels pad */

static gchar *
buffer_text (GstBuffer * b)
{
  GstMapInfo map;
  gchar *s;
  gst_buffer_map (b, &map, GST_MAP_READ);
  s = g_strndup ((const gchar *) map.data, map.size);
  gst_buffer_unmap (b, &map);
  return s;
}

/* The labels pad pushes from its own task: wait for its EOS (pulling events
 * blocks up to the harness's timeout), checking the caps on the way. */
static void
wait_eos_gaps (GstHarness * hl, const char *media_type, GArray * gaps)
{
  gboolean caps_seen = FALSE;
  for (;;) {
    GstEvent *ev = gst_harness_pull_event (hl);
    GstEventType t;
    assert_non_null (ev);
    t = GST_EVENT_TYPE (ev);
    if (t == GST_EVENT_GAP && gaps != NULL) { /* with a duration: a skipped class's */
      GstClockTime ts, dur;
      gst_event_parse_gap (ev, &ts, &dur);
      if (GST_CLOCK_TIME_IS_VALID (dur) && dur > 0) {
        g_array_append_val (gaps, ts);
        g_array_append_val (gaps, dur);
      }
    }
    if (t == GST_EVENT_CAPS) {
      GstCaps *caps;
      gst_event_parse_caps (ev, &caps);
      assert_true (gst_structure_has_name (gst_caps_get_structure (caps, 0), media_type));
      caps_seen = TRUE;
    }
    gst_event_unref (ev);
    if (t == GST_EVENT_EOS)
      break;
  }
  assert_true (caps_seen);
}

static void
wait_eos (GstHarness * hl, const char *media_type)
{
  wait_eos_gaps (hl, media_type, NULL);
}

/* A labels pad requested while the audio flows gets its stream-start, caps,
 * segment and a gap with the next buffer, before any label (a segment's may
 * be minutes away): a sink on it prerolls at once. The gap lies before every
 * label that follows (at the decoder's open segment's start): per-frame
 * JSON Lines here, and the segments of the default format. */
static void
test_labels_pad_requested_midrun (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (3 * N, 11);
  static const GstEventType want[] = { GST_EVENT_STREAM_START, GST_EVENT_CAPS,
    GST_EVENT_SEGMENT, GST_EVENT_GAP
  };
  (void) state;

  for (int format = 0; format < 2; format++) {       /* audacity, jsonl */
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, F32_CAPS, "label-format", format, NULL);
    GstHarness *hl;
    GstClockTime gap_ts = GST_CLOCK_TIME_NONE;
    GstBuffer *b;
    GstEvent *ev;
    guint got = 0;

    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    hl = gst_harness_new_with_element (h->element, NULL, "labels");
    assert_int_equal (push_f32 (h, x + N, 16, N), GST_FLOW_OK);
    for (guint k = 0; k < G_N_ELEMENTS (want); k++) {
      ev = NULL;
      /* the pad's own task pushes them: up to 2 s */
      for (int tries = 0; tries < 200 && ev == NULL; tries++) {
        ev = gst_harness_try_pull_event (hl);
        if (ev == NULL)
          g_usleep (10000);
      }
      if (ev == NULL)
        fail_msg ("no %s event on the labels pad", gst_event_type_get_name (want[k]));
      assert_int_equal (GST_EVENT_TYPE (ev), want[k]);
      if (want[k] == GST_EVENT_GAP)
        gst_event_parse_gap (ev, &gap_ts, NULL);
      gst_event_unref (ev);
    }
    assert_true (gap_ts <= GST_SECOND);
    /* the rest of the stream: every label at or after the gap */
    assert_int_equal (push_f32 (h, x + N + 16, 2 * N - 16, N + 16), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    while ((ev = gst_harness_pull_event (hl)) != NULL && GST_EVENT_TYPE (ev) != GST_EVENT_EOS)
      gst_event_unref (ev);
    assert_non_null (ev);
    gst_event_unref (ev);
    while ((b = gst_harness_try_pull (hl)) != NULL) {
      if (GST_BUFFER_PTS (b) < gap_ts)
        fail_msg ("format %d: a label at %" GST_TIME_FORMAT " after the gap at %"
            GST_TIME_FORMAT, format, GST_TIME_ARGS (GST_BUFFER_PTS (b)),
            GST_TIME_ARGS (gap_ts));
      got++;
      gst_buffer_unref (b);
    }
    assert_true (got > 0);
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);
  }
  free (x);
}

/* Audacity lines, one buffer per segment, with the segment's PTS/duration;
 * the lines are formatted here independently of the library. */
static void
test_labels_pad_audacity (void **state)
{
  static const char *names[PT_K] = { "silence", "speech", "music", "noise" };
  const int64_t N = 3 * PT_RATE;
  float *x = pt_signal (N, 10);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, NULL);
  GstHarness *hl;
  pt_frames ref;
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (gint64));
  GstBuffer *b;
  guint nseg, got = 0;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, segs);
  nseg = segs->len / 3;
  assert_true (nseg >= 1);

  gst_element_set_state (h->element, GST_STATE_NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "label-format", "audacity");
  hl = gst_harness_new_with_element (h->element, NULL, "labels");
  gst_harness_play (h);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  for (int i = 0; i < 3; i++)
    assert_int_equal (push_f32 (h, x + i * PT_RATE, PT_RATE, i * PT_RATE), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "text/x-raw");

  while ((b = gst_harness_try_pull (hl)) != NULL) {
    const gint64 *s = &g_array_index (segs, gint64, 3 * got);
    gchar *text = buffer_text (b), *want;
    assert_true (got < nseg);
    want = g_strdup_printf ("%.6f\t%.6f\t%s\n", s[0] * 0.01, s[1] * 0.01, names[s[2]]);
    assert_string_equal (text, want);
    assert_int_equal (GST_BUFFER_PTS (b), s[0] * 10 * GST_MSECOND);
    assert_int_equal (GST_BUFFER_DURATION (b), (s[1] - s[0]) * 10 * GST_MSECOND);
    g_free (text);
    g_free (want);
    gst_buffer_unref (b);
    got++;
  }
  assert_int_equal (got, nseg);
  g_array_free (segs, TRUE);
  pt_frames_free (&ref);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* JSON Lines per frame: one buffer per frame, in order, each one object; with
 * time-origin=now each frame's "utc" is its time after the moment the first
 * audio came (between the clock read before and after). */
static void
test_labels_pad_jsonl (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 11);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, NULL);
  GstHarness *hl;
  GstBuffer *b;
  int64_t got = 0;
  double before, after, origin = 0;
  (void) state;

  gst_element_set_state (h->element, GST_STATE_NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "label-format", "jsonl");
  g_object_set (h->element, "time-origin", "now", NULL);
  hl = gst_harness_new_with_element (h->element, NULL, "labels");
  gst_harness_play (h);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  before = g_get_real_time () / 1e6;
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  after = g_get_real_time () / 1e6;
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  while ((b = gst_harness_try_pull (hl)) != NULL) {
    gchar *text = buffer_text (b);
    size_t len = strlen (text);
    assert_true (len > 2 && text[0] == '{' && text[len - 2] == '}' && text[len - 1] == '\n');
    assert_non_null (strstr (text, "\"label\""));
    if (got == 0)
      origin = test_utc_seconds (text, "utc");
    assert_true (fabs (test_utc_seconds (text, "utc") - (origin + got * 0.01)) < 1e-6);
    assert_int_equal (GST_BUFFER_PTS (b), got * 10 * GST_MSECOND);
    g_free (text);
    gst_buffer_unref (b);
    got++;
  }
  assert_int_equal (got, expected_frames (N));
  assert_true (origin >= before - 1e-6 && origin <= after);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* "text": the bare label in pieces of at most 0.25 s that tile the stream
 * without gaps, each piece's label the label of all its frames. */
static void
test_labels_pad_text (void **state)
{
  static const char *names[PT_K] = { "silence", "speech", "music", "noise" };
  const int64_t N = 3 * PT_RATE + 50;
  float *x = pt_signal (N, 14);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, "label-format", 5, NULL);
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstBuffer *b;
  pt_frames ref;
  int64_t next = 0, pieces = 0;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, NULL);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  for (int i = 0; i < 4; i++) {
    int64_t a = i * N / 4, z = (i + 1) * N / 4;
    assert_int_equal (push_f32 (h, x + a, z - a, a), GST_FLOW_OK);
  }
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "text/x-raw");
  while ((b = gst_harness_try_pull (hl)) != NULL) {
    gchar *text = buffer_text (b);
    int64_t n = (int64_t) (GST_BUFFER_DURATION (b) / (10 * GST_MSECOND));
    assert_int_equal (GST_BUFFER_PTS (b), next * 10 * GST_MSECOND);
    assert_int_equal (GST_BUFFER_DURATION (b), n * 10 * GST_MSECOND);
    assert_in_range (n, 1, 25);
    for (int64_t i = next; i < next + n; i++) {
      assert_true (i < ref.n);
      assert_string_equal (text, names[ref.label[i]]);
    }
    /* a piece shorter than 25 frames ends at a label change or the end */
    if (n < 25 && next + n < ref.n)
      assert_int_not_equal (ref.label[next + n], ref.label[next + n - 1]);
    next += n;
    pieces++;
    g_free (text);
    gst_buffer_unref (b);
  }
  assert_int_equal (next, ref.n);
  assert_true (pieces > ref.n / 25);
  pt_frames_free (&ref);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* skip-classes on the labels pad: the skipped class's time is a gap event
 * and no text, in the "text" pieces and in segment formats alike; buffers and
 * gaps tile the stream, each frame where its label says. */
static void
test_labels_pad_skip (void **state)
{
  static const char *names[PT_K] = { "silence", "speech", "music", "noise" };
  static const int formats[2] = { 5, 0 };       /* text, audacity */
  const int64_t N = 3 * PT_RATE + 50;
  float *x = pt_signal (N, 14);
  pt_frames ref;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, NULL);
  for (int f = 0; f < 2; f++) {
    const int skip = ref.label[0];
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, NULL, "label-format", formats[f],
        "skip-classes", names[skip], NULL);
    GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
    GArray *gaps = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
    guint8 *seen = g_new0 (guint8, ref.n);
    int64_t n_skipped = 0, n_gap = 0;
    GstBuffer *b;

    gst_harness_set_src_caps_str (h, F32_CAPS);
    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    wait_eos_gaps (hl, "text/x-raw", gaps);
    while ((b = gst_harness_try_pull (hl)) != NULL) {
      gchar *text = buffer_text (b);
      int64_t a = (int64_t) (GST_BUFFER_PTS (b) / (10 * GST_MSECOND));
      int64_t z = a + (int64_t) (GST_BUFFER_DURATION (b) / (10 * GST_MSECOND));
      if (f == 1) {             /* "start<TAB>end<TAB>label\n": the label */
        gchar **parts = g_strsplit (g_strchomp (text), "\t", 3);
        g_free (text);
        text = g_strdup (parts[2]);
        g_strfreev (parts);
      }
      for (int64_t i = a; i < z; i++) {
        assert_true (i < ref.n && !seen[i]);
        assert_string_equal (text, names[ref.label[i]]);
        seen[i] = 1;
      }
      g_free (text);
      gst_buffer_unref (b);
    }
    for (guint g = 0; g < gaps->len; g += 2) {
      int64_t a = (int64_t) (g_array_index (gaps, GstClockTime, g) / (10 * GST_MSECOND));
      int64_t z = a + (int64_t) (g_array_index (gaps, GstClockTime, g + 1) / (10 * GST_MSECOND));
      for (int64_t i = a; i < z; i++) {
        assert_true (i < ref.n && !seen[i]);
        assert_int_equal (ref.label[i], skip);
        seen[i] = 2;
        n_gap++;
      }
    }
    for (int64_t i = 0; i < ref.n; i++) {
      assert_int_equal (seen[i], ref.label[i] == skip ? 2 : 1);
      n_skipped += ref.label[i] == skip;
    }
    assert_true (n_skipped > 0 && n_skipped < ref.n && n_gap == n_skipped);
    g_free (seen);
    g_array_free (gaps, TRUE);
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);
  }
  pt_frames_free (&ref);
  free (x);
}

/* ---------------------------------------------------------------------- */
/* segments, seeks, restarts */

static GstFlowReturn
push_f32_untimed (GstHarness * h, const float *x, int64_t n)
{
  return gst_harness_push (h, gst_buffer_new_memdup (x, (gsize) n * sizeof *x));
}

/* The events the labels pad sent until its EOS: the first gap's time (NONE:
 * none). */
static GstClockTime
first_gap_until_eos (GstHarness * hl)
{
  GstClockTime first = GST_CLOCK_TIME_NONE;
  for (;;) {
    GstEvent *ev = gst_harness_pull_event (hl);
    GstEventType t;
    assert_non_null (ev);
    t = GST_EVENT_TYPE (ev);
    if (t == GST_EVENT_GAP && !GST_CLOCK_TIME_IS_VALID (first))
      gst_event_parse_gap (ev, &first, NULL);
    gst_event_unref (ev);
    if (t == GST_EVENT_EOS)
      return first;
  }
}

/* The frame messages posted so far are the library's labels of the n samples
 * of x as one run, from stream frame `offset` at time t0. */
static void
assert_messages_label (GstBus * bus, const float *x, int64_t n, int64_t offset,
    GstClockTime t0)
{
  pt_frames ref, got;

  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_reference (x, n, NULL, &ref, NULL);
  pt_collect_frame_messages (bus, &got);
  pt_assert_frames_equal (&got, &ref, offset, t0);
  pt_frames_free (&ref);
  pt_frames_free (&got);
}

/* A flush forgets the voice activity before it: the first buffer after it,
 * too short for a frame, says no voice though every frame before was speech
 * (the thresholds at 0 make every frame the target's). */
static void
test_flush_forgets_voice_activity (void **state)
{
  float *x = pt_signal (PT_RATE, 26);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, "target-class", "speech",
      "threshold-on", 0.0, "threshold-off", 0.0, NULL);
  GstSegment seg;
  GstBuffer *b;
  (void) state;

  assert_int_equal (push_f32 (h, x, PT_RATE, 0), GST_FLOW_OK);
  b = gst_harness_pull (h);
  assert_true (gst_buffer_get_audio_level_meta (b)->voice_activity);
  gst_buffer_unref (b);
  assert_true (gst_harness_push_event (h, gst_event_new_flush_start ()));
  assert_true (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_int_equal (push_f32 (h, x, 100, 0), GST_FLOW_OK);
  b = gst_harness_pull (h);
  assert_false (gst_buffer_get_audio_level_meta (b)->voice_activity);
  gst_buffer_unref (b);
  pt_free_harness (h, bus);
  free (x);
}

/* A buffer that begins before the segment's start (matroskademux's first after
 * a flushing seek): its frames are numbered from its own stream time, not from
 * 0, and the labels pad's first gap, on which a sink there prerolls, lies
 * within the segment (one before it is clipped away: the pipeline hung). */
static void
test_buffer_before_segment (void **state)
{
  const int64_t N = PT_RATE, at = 95 * PT_HOP;  /* 0.95 s; the segment starts at 1 s */
  float *x = pt_signal (N, 21);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, NULL);
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstSegment seg;
  (void) state;

  gst_harness_set_src_caps_str (h, F32_CAPS);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = seg.time = seg.position = GST_SECOND;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_int_equal (push_f32 (h, x, N, at), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  assert_messages_label (bus, x, N, 95, samples_time (at));
  assert_int_equal (first_gap_until_eos (hl), GST_SECOND);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* The messages' stream and running times of frames and segments that start
 * before the segment's start (matroskademux's first buffer after a seek): the
 * stream time is on the frames' grid, as the labels pad writes it; a running
 * time is NONE only where it would be negative (both were NONE before the
 * segment's start). */
static void
test_message_times_before_segment (void **state)
{
  const int64_t N = PT_RATE, at = 95 * PT_HOP;  /* 0.95 s; the segment starts at 1 s */
  const GstClockTime seg_start = GST_SECOND, seg_time = 5 * GST_SECOND;
  float *x = pt_signal (N, 21);
  (void) state;

  for (int k = 0; k < 4; k++) {
    /* frame and segment messages; a segment base of 0 and of 10 s, with
     * which a running time before the start is not negative */
    const int segment_mode = k & 1;
    const GstClockTime base = k & 2 ? 10 * GST_SECOND : 0;
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
    GstSegment seg;
    GstMessage *msg;
    int seen = 0, before = 0;

    if (segment_mode)
      gst_util_set_object_arg (G_OBJECT (h->element), "message-mode", "segment");
    gst_segment_init (&seg, GST_FORMAT_TIME);
    seg.start = seg.position = seg_start;
    seg.time = seg_time;
    seg.base = base;
    assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
    assert_int_equal (push_f32 (h, x, N, at), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
      const GstStructure *s = gst_message_get_structure (msg);
      guint64 ts, stream_time, running_time, first;

      if (gst_structure_has_name (s, "seqlabel")) {
        assert_true (gst_structure_get_uint64 (s, "timestamp", &ts));
        assert_true (gst_structure_get_uint64 (s, "stream-time", &stream_time));
        assert_true (gst_structure_get_uint64 (s, "running-time", &running_time));
        assert_true (gst_structure_get_uint64 (s, segment_mode ? "start-frame" : "frame",
                &first));
        assert_int_equal (stream_time, ts - seg_start + seg_time);
        assert_int_equal (stream_time, first * 10 * GST_MSECOND);
        assert_int_equal (running_time, ts + base < seg_start ? GST_CLOCK_TIME_NONE
            : ts + base - seg_start);
        seen++;
        before += ts < seg_start;
      }
      gst_message_unref (msg);
    }
    assert_true (before >= 1);  /* a segment mode's first segment starts at 0.95 s */
    if (!segment_mode)
      assert_true (seen > before);
    pt_free_harness (h, bus);
  }
  free (x);
}

/* A segment with only a new end (a live stream's or a growing file's) does
 * not end the run: the labels are those of the whole audio as one stream. */
static void
test_segment_new_stop (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 27);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstSegment seg;
  (void) state;

  assert_int_equal (push_f32 (h, x, N / 2, 0), GST_FLOW_OK);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.stop = seg.duration = 10 * GST_SECOND;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_int_equal (push_f32 (h, x + N / 2, N - N / 2, N / 2), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  assert_messages_label (bus, x, N, 0, 0);
  pt_free_harness (h, bus);
  free (x);
}

/* The summary in b covers `frames` frames from `start` seconds. */
static void
assert_summary_of (GstBuffer * b, double start, int64_t frames)
{
  gchar *text = buffer_text (b), *want;
  want = g_strdup_printf ("\"start\":%.6f,\"duration\":%.6f,", start, (double) frames / 100.0);
  if (!strstr (text, want))
    fail_msg ("summary %s, wanted %s", text, want);
  g_free (want);
  g_free (text);
}

/* A document (label-format=summary) after a seek to 1 s: its buffer starts at
 * the segment's start and ends with the last frame, not a second later (its
 * length counted from stream time 0), and the summary itself starts at 1 s. */
static void
test_document_after_seek (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 29);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, "label-format", 8, NULL); /* summary */
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstSegment seg;
  GstBuffer *b;
  (void) state;

  gst_harness_set_src_caps_str (h, F32_CAPS);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = seg.time = seg.position = GST_SECOND;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_int_equal (push_f32 (h, x, N, PT_RATE), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  b = gst_harness_pull (hl);
  assert_int_equal (GST_BUFFER_PTS (b), GST_SECOND);
  /* frames 100 .. 100 + expected_frames (N) - 1 */
  assert_int_equal (GST_BUFFER_PTS (b) + GST_BUFFER_DURATION (b),
      (100 + expected_frames (N)) * 10 * GST_MSECOND);
  /* the summary is of the time played: from 1 s, not 0 */
  assert_summary_of (b, 1.0, expected_frames (N));
  gst_buffer_unref (b);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* Audio whose first buffer comes late in its segment (a source's
 * timestamp-offset: 100 s): the summary is of the time played, from 100 s, not
 * of 100 s of nothing before it. */
static void
test_document_of_late_audio (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 31);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, "label-format", 8, NULL); /* summary */
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstBuffer *b;
  (void) state;

  assert_int_equal (push_f32 (h, x, N, 100 * PT_RATE), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  b = gst_harness_pull (hl);
  assert_summary_of (b, 100.0, expected_frames (N));
  gst_buffer_unref (b);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* The number after "duration": in a summary buffer. */
static double
summary_duration (GstBuffer * b)
{
  gchar *text = buffer_text (b);
  const gchar *d = strstr (text, "\"duration\":");
  double v;
  assert_non_null (d);
  v = g_ascii_strtod (d + 11, NULL);
  g_free (text);
  return v;
}

/* Two streams without EOS between (playbin's gapless next file: a new
 * stream-start, a segment from time 0 again): each gets its own summary, the
 * first when the second starts, and no warning; the second again, its
 * stream-start's id the same (one file looped), a third. Reverse playback
 * (rate -1: chunks latest first, each forward): one summary of the whole
 * second (test_reverse_like_a_decoder: as a decoder pushes it). A DISCONT back by 60 ms (a resync after clock drift): one summary,
 * the newer frames kept where they overlap. A segment seek's segment done,
 * twice (a loop): a summary each. */
/* The next summary on the labels pad covers `frames` frames. */
static void
pull_summary_of (GstHarness * hl, int64_t frames)
{
  GstBuffer *b = gst_harness_pull (hl);
  assert_true (fabs (summary_duration (b) - frames / 100.0) < 1e-9);
  gst_buffer_unref (b);
}

static void
test_document_per_stream (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 33);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, "label-format", 8, NULL); /* summary */
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstSegment seg;
  GstBuffer *b;
  (void) state;

  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_stream_start ("second")));
  gst_harness_set_src_caps_str (h, F32_CAPS);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.base = GST_SECOND;        /* running time goes on; stream time starts anew */
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_int_equal (push_f32 (h, x, N / 2, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_stream_start ("second")));
  seg.base = GST_SECOND + GST_SECOND / 2;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  assert_int_equal (push_f32 (h, x, N / 2, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  pull_summary_of (hl, expected_frames (N));
  for (int k = 0; k < 2; k++)
    pull_summary_of (hl, expected_frames (N / 2));
  assert_null (gst_harness_try_pull (hl));
  assert_no_warning (bus, "streams");
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);

  /* reverse: [0.5 s, 1 s) first, then [0, 0.5 s), which ends where it began:
   * gathered and labelled forwards as one run */
  h = pt_make_harness (&bus, NULL, "label-format", 8, NULL);
  hl = gst_harness_new_with_element (h->element, NULL, "labels");
  gst_harness_set_src_caps_str (h, F32_CAPS);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.rate = -1.0;
  seg.stop = GST_SECOND;
  seg.position = GST_SECOND;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  for (int chunk = 1; chunk >= 0; chunk--) {
    b = gst_buffer_new_memdup (x + chunk * N / 2, (gsize) (N / 2) * sizeof *x);
    GST_BUFFER_PTS (b) = samples_time (chunk * N / 2);
    GST_BUFFER_DURATION (b) = samples_time (N / 2);
    GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
    assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  }
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  pull_summary_of (hl, 50 + expected_frames (N / 2)); /* frame 0 to the later chunk's end */
  assert_no_warning (bus, "reverse");
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);

  /* a DISCONT 60 ms back at 1 s: the second run's frames from 0.94 s on */
  h = pt_make_harness (&bus, F32_CAPS, "label-format", 8, NULL);
  hl = gst_harness_new_with_element (h->element, NULL, "labels");
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  b = gst_buffer_new_memdup (x, (gsize) N * sizeof *x);
  GST_BUFFER_PTS (b) = samples_time (N) - 60 * GST_MSECOND;
  GST_BUFFER_DURATION (b) = samples_time (N);
  GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  pull_summary_of (hl, (94 + expected_frames (N)));
  assert_null (gst_harness_try_pull (hl));
  /* ... and of silence, one class throughout: one segment, not one per run */
  {
    float *quiet = g_new0 (float, N);
    GstBus *qbus;
    GstHarness *hq = pt_make_harness (&qbus, F32_CAPS, "label-format", 8, NULL);
    GstHarness *hql = gst_harness_new_with_element (hq->element, NULL, "labels");
    gchar *text;
    int segments = 0;
    assert_int_equal (push_f32 (hq, quiet, N, 0), GST_FLOW_OK);
    b = gst_buffer_new_memdup (quiet, (gsize) N * sizeof *quiet);
    GST_BUFFER_PTS (b) = samples_time (N) - 60 * GST_MSECOND;
    GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
    assert_int_equal (gst_harness_push (hq, b), GST_FLOW_OK);
    assert_true (gst_harness_push_event (hq, gst_event_new_eos ()));
    wait_eos (hql, "application/x-json");
    b = gst_harness_pull (hql);
    text = buffer_text (b);
    for (const gchar * p = text; (p = strstr (p, "\"segments\":")) != NULL; p++)
      segments += atoi (p + 11);
    if (segments != 1)
      fail_msg ("%d segments in %s", segments, text);
    g_free (text);
    gst_buffer_unref (b);
    gst_harness_teardown (hql);
    pt_free_harness (hq, qbus);
    g_free (quiet);
  }
  assert_no_warning (bus, "resync");
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);

  /* a looping segment seek: the segment [0, 1 s) played twice */
  h = pt_make_harness (&bus, F32_CAPS, "label-format", 8, NULL);
  hl = gst_harness_new_with_element (h->element, NULL, "labels");
  for (int loop = 0; loop < 2; loop++) {
    gst_segment_init (&seg, GST_FORMAT_TIME);
    seg.stop = samples_time (N);
    seg.base = loop * samples_time (N);
    seg.flags = GST_SEGMENT_FLAG_SEGMENT;
    assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_segment_done (GST_FORMAT_TIME,
                samples_time (N))));
  }
  for (int loop = 0; loop < 2; loop++) {
    pull_summary_of (hl, expected_frames (N));
  }
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  assert_null (gst_harness_try_pull (hl));      /* no empty third at EOS */
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* A DISCONT 200 ms ahead (samples lost upstream) at 1 s: one summary from 0 to
 * the second run's end, 1.2 s + 98 frames, whose 22 frames between the runs'
 * labels (the jump, and the first run's last window) are "unlabelled"; the
 * shares and that over the duration add up to 1. */
static void
test_summary_across_a_jump (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 35);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, "label-format", 8, NULL); /* summary */
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstBuffer *b;
  gchar *text;
  double shares = 0.0, duration, unlabelled;
  (void) state;

  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  b = gst_buffer_new_memdup (x, (gsize) N * sizeof *x);
  GST_BUFFER_PTS (b) = samples_time (N) + 200 * GST_MSECOND;
  GST_BUFFER_DURATION (b) = samples_time (N);
  GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
  assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "application/x-json");
  b = gst_harness_pull (hl);
  duration = summary_duration (b);
  assert_true (fabs (duration - (120 + expected_frames (N)) / 100.0) < 1e-9);
  text = buffer_text (b);
  assert_non_null (strstr (text, "\"unlabelled\":"));
  unlabelled = g_ascii_strtod (strstr (text, "\"unlabelled\":") + 13, NULL);
  assert_true (fabs (unlabelled - (120 - expected_frames (N)) / 100.0) < 1e-9);
  for (const gchar * p = text; (p = strstr (p, "\"share\":")) != NULL; p++)
    shares += g_ascii_strtod (p + 8, NULL);
  if (!(fabs (shares + unlabelled / duration - 1.0) < 1e-5))
    fail_msg ("shares %g and %g s unlabelled of %g s: %s", shares, unlabelled, duration, text);
  g_free (text);
  gst_buffer_unref (b);
  assert_no_warning (bus, "jump");
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* The labels pad's buffers, as text, of two streams without EOS between
 * (playbin's gapless next file), in `format`, without smoothing (the test
 * model's labels flicker: many segments); the second with a segment of its own
 * (time from 0 again: a new run), or going on in the first one's time. */
static GPtrArray *
two_streams_labels (const float *x, int64_t n, const char *format, const char *media_type,
    gboolean new_segment)
{
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, "smoothing", 0, NULL);
  GstHarness *hl;
  GstSegment seg;
  GstBuffer *b;
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);

  gst_element_set_state (h->element, GST_STATE_NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "label-format", format);
  hl = gst_harness_new_with_element (h->element, NULL, "labels");
  gst_harness_play (h);
  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x, n, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_stream_start ("second")));
  if (new_segment) {
    gst_harness_set_src_caps_str (h, F32_CAPS);
    gst_segment_init (&seg, GST_FORMAT_TIME);
    seg.base = samples_time (n);
    assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  assert_int_equal (push_f32 (h, x, n, new_segment ? 0 : n), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, media_type);
  while ((b = gst_harness_try_pull (hl)) != NULL) {
    g_ptr_array_add (texts, buffer_text (b));
    gst_buffer_unref (b);
  }
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  return texts;
}

/* SubRip's numbers start again at 1 where WebVTT's second header comes (the
 * second stream's file), and count on by one everywhere else. */
static void
test_srt_numbers_per_stream (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 37);
  (void) state;

  for (int new_segment = 0; new_segment < 2; new_segment++) {
  GPtrArray *vtt = two_streams_labels (x, N, "webvtt", "application/x-subtitle-vtt", new_segment);
  GPtrArray *srt = two_streams_labels (x, N, "srt", "application/x-subtitle", new_segment);
  guint cues = 0, second = 0;

  /* the cues before WebVTT's second header */
  for (guint i = 0; i < vtt->len; i++) {
    const gchar *t = g_ptr_array_index (vtt, i);
    if (g_str_has_prefix (t, "WEBVTT"))
      second = i ? cues : 0;
    else
      cues++;
  }
  assert_true (second >= 2 && cues > second + 2);
  assert_int_equal (srt->len, cues);
  for (guint i = 0; i < srt->len; i++) {
    guint want = i < second ? i + 1 : i - second + 1;
    gchar *number = g_strdup_printf ("%u\n", want);
    if (!g_str_has_prefix (g_ptr_array_index (srt, i), number))
      fail_msg ("cue %u: '%s', want number %u (the second stream from cue %u)", i,
          (const gchar *) g_ptr_array_index (srt, i), want, second);
    g_free (number);
  }
  g_ptr_array_unref (vtt);
  g_ptr_array_unref (srt);
  }
  free (x);
}

/* SEGMENT_DONE ends a segment seek's segment as EOS ends a stream: every frame
 * is labelled then, not when a next segment comes. */
static void
test_segment_done (void **state)
{
  const int64_t N = PT_RATE + 123;
  float *x = pt_signal (N, 22);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  (void) state;

  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_segment_done (GST_FORMAT_TIME,
              samples_time (N))));
  assert_messages_label (bus, x, N, 0, 0);
  pt_free_harness (h, bus);
  free (x);
}

/* label-format is the one the element started with: set while playing, it
 * waits for the next start, so the labels pad's lines keep one format and its
 * caps query answers the caps it sent. */
static void
test_label_format_while_playing (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 23);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, "label-format", 0, NULL); /* audacity */
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstPad *pad = gst_element_get_static_pad (h->element, "labels");
  GstCaps *caps;
  GstBuffer *b;
  int lines = 0;
  (void) state;

  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x, N / 2, 0), GST_FLOW_OK);
  gst_util_set_object_arg (G_OBJECT (h->element), "label-format", "jsonl");
  caps = gst_pad_query_caps (pad, NULL);
  assert_true (gst_structure_has_name (gst_caps_get_structure (caps, 0), "text/x-raw"));
  gst_caps_unref (caps);
  gst_util_set_object_arg (G_OBJECT (h->element), "label-format", "text");
  assert_int_equal (push_f32 (h, x + N / 2, N - N / 2, N / 2), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "text/x-raw");
  while ((b = gst_harness_try_pull (hl)) != NULL) {
    gchar *text = buffer_text (b);
    double t0, t1;
    char label[64];
    if (sscanf (text, "%lf\t%lf\t%63s", &t0, &t1, label) != 3)
      fail_msg ("not an Audacity line: '%s'", text);
    lines++;
    g_free (text);
    gst_buffer_unref (b);
  }
  assert_true (lines > 0);
  /* each setting said on the bus, where an application sees it */
  for (int k = 0; k < 2; k++) {
    assert_warning_says (bus, "label-format set while PLAYING takes effect at the next start",
        NULL);
  }
  gst_object_unref (pad);
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* What reaches the labels pad, in order: "S" for a stream-start, each
 * buffer's text. */
static GstPadProbeReturn
log_labels (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  GPtrArray *log = user;
  (void) pad;
  if ((info->type & GST_PAD_PROBE_TYPE_BUFFER) != 0)
    g_ptr_array_add (log, buffer_text (GST_PAD_PROBE_INFO_BUFFER (info)));
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_STREAM_START)
    g_ptr_array_add (log, g_strdup ("S"));
  return GST_PAD_PROBE_OK;
}

/* A new stream without EOS between is a new signal (playbin's gapless next
 * file): the last one's frames are labelled from its own audio and their
 * lines go out on its own stream, those the gate held back too. The same
 * audio twice, the second on a timeline of its own or going on in the
 * first's, gives the same lines on each stream. */
static void
test_stream_start_ends_run (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 38);
  (void) state;

  for (int variant = 0; variant < 4; variant++) {
    gboolean gate = variant & 1, new_segment = variant >> 1;
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, NULL, "smoothing", 0, "target-class", "speech",
        "gate", gate ? 2 : 0, NULL);
    GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
    GstPad *pad = gst_element_get_static_pad (h->element, "labels");
    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
    GString *first = g_string_new (NULL), *second = g_string_new (NULL);
    guint streams = 0;
    GstSegment seg;

    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        log_labels, log, NULL);
    gst_harness_set_src_caps_str (h, F32_CAPS);
    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_stream_start ("second")));
    gst_harness_set_src_caps_str (h, F32_CAPS);
    if (new_segment) {
      gst_segment_init (&seg, GST_FORMAT_TIME);
      seg.base = samples_time (N);
      assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
    }
    assert_int_equal (push_f32 (h, x, N, new_segment ? 0 : N), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    wait_eos (hl, "text/x-raw");
    for (guint i = 0; i < log->len; i++) {
      const gchar *t = g_ptr_array_index (log, i);
      double t0, t1;
      char label[32];
      if (strcmp (t, "S") == 0) {
        streams++;
        continue;
      }
      assert_int_equal (sscanf (t, "%lf\t%lf\t%31s", &t0, &t1, label), 3);
      if (streams == 2 && !new_segment) {       /* the first's time going on */
        t0 -= 1.0;
        t1 -= 1.0;
      }
      g_string_append_printf (streams == 1 ? first : second, "%.2f %.2f %s\n", t0, t1, label);
    }
    assert_int_equal (streams, 2);
    assert_true (first->len > 0);
    if (strcmp (first->str, second->str) != 0)
      fail_msg ("gate %d, new segment %d: the first stream's lines\n%s"
          "differ from the second's\n%s", gate, new_segment, first->str, second->str);
    g_string_free (first, TRUE);
    g_string_free (second, TRUE);
    g_ptr_array_unref (log);
    gst_object_unref (pad);
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);
  }
  free (x);
}

/* A stop and a new start begin afresh: after NULL and PLAYING again, the
 * "text" pieces tile the new stream from time 0, as at a first start (the
 * piece open at the stop was carried into it). */
static void
test_restart_begins_afresh (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 24);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, NULL, "label-format", 5, NULL); /* text */
  GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
  GstBuffer *b;
  int64_t next = 0;
  (void) state;

  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x, PT_RATE + 1234, 0), GST_FLOW_OK);
  assert_int_equal (gst_element_set_state (h->element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  while ((b = gst_harness_try_pull (hl)) != NULL)
    gst_buffer_unref (b);
  gst_harness_play (h);
  assert_true (gst_harness_push_event (h, gst_event_new_stream_start ("again")));
  gst_harness_set_src_caps_str (h, F32_CAPS);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  wait_eos (hl, "text/x-raw");
  while ((b = gst_harness_try_pull (hl)) != NULL) {
    assert_int_equal (GST_BUFFER_PTS (b), next * 10 * GST_MSECOND);
    next += (int64_t) (GST_BUFFER_DURATION (b) / (10 * GST_MSECOND));
    gst_buffer_unref (b);
  }
  assert_int_equal (next, expected_frames (N));
  gst_harness_teardown (hl);
  pt_free_harness (h, bus);
  free (x);
}

/* Buffers without timestamps: a run that a gap begins starts where the audio
 * before it ended (after the gap), not at the segment's start again, and a new
 * rate (at 1 s) keeps the run going: runs at 0 (1 s at 16 kHz and 1 s at
 * 8 kHz, one run of 2 s) and 3.5 s (after a gap of 1.5 s: a briefer one is
 * silence within the run, test_brief_gap_is_silence). */
static void
test_untimed_runs_continue (void **state)
{
  const int64_t N = PT_RATE;
  float *x = pt_signal (N, 25);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  pt_frames got;
  int64_t starts[3], runs = 0;
  (void) state;

  pt_frames_init (&got);
  assert_int_equal (push_f32_untimed (h, x, N), GST_FLOW_OK);
  gst_harness_set_src_caps_str (h, "audio/x-raw,format=F32LE,rate=8000,channels=1,"
      "layout=interleaved");
  assert_int_equal (push_f32_untimed (h, x, N / 2), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_gap (2 * GST_SECOND,
              3 * GST_SECOND / 2)));
  assert_int_equal (push_f32_untimed (h, x, N / 2), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  for (int64_t i = 0; i < got.n; i++)
    if (i == 0 || got.index[i] != got.index[i - 1] + 1) {
      assert_true (runs < 3);
      starts[runs++] = got.index[i];
      assert_int_equal (got.pts[i], got.index[i] * 10 * GST_MSECOND);
    }
  assert_int_equal (runs, 2);
  assert_int_equal (starts[0], 0);
  assert_int_equal (starts[1], 350);
  /* the first run: 2 s of audio (32,000 samples at the model's rate) */
  assert_int_equal (got.index[got.n - expected_frames (N) - 1], expected_frames (2 * N) - 1);
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  free (x);
}

/* Ends the harness's stream (EOS) and asserts that its frames are those of one
 * run over pcm[n], frame for frame; frees the harness. */
static void
assert_one_run (GstHarness * h, GstBus * bus, const float *pcm, int64_t n)
{
  pt_frames got, ref;
  pt_frames_init (&got);
  pt_frames_init (&ref);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  pt_reference (pcm, n, NULL, &ref, NULL);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  pt_frames_free (&got);
  pt_frames_free (&ref);
  pt_free_harness (h, bus);
}

/* A brief GAP where the audio is (a lost RTP packet: the depayloader's gap
 * without a duration, then its 20 ms one) is silence within the run: the
 * frames are those of one run over the audio, 320 zeros and the audio after,
 * frame for frame; a longer one, or one elsewhere, ends the run, and so do
 * gaps in a row that are longer together. */
static void
test_brief_gap_is_silence (void **state)
{
  const int64_t N = PT_RATE, Z = PT_RATE / 50;      /* 1 s, 20 ms */
  float *x = pt_signal (N, 41), *y = pt_signal (N, 42);
  float *whole = g_new0 (float, 2 * N + Z);
  GstBus *bus;
  GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
  GstEvent *gap;
  pt_frames got;
  (void) state;

  memcpy (whole, x, sizeof (float) * N);
  memcpy (whole + N + Z, y, sizeof (float) * N);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND, GST_CLOCK_TIME_NONE)));
  gap = gst_event_new_gap (GST_SECOND, samples_time (Z));
  gst_event_set_gap_flags (gap, GST_GAP_FLAG_MISSING_DATA);
  assert_true (gst_harness_push_event (h, gap));
  /* and a second over it, a little earlier and longer (rtpL16depay sends two
   * for each lost packet): only what it reaches past the first, nothing here */
  assert_true (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND - GST_MSECOND,
              samples_time (Z) + GST_MSECOND)));
  assert_int_equal (push_f32 (h, y, N, N + Z), GST_FLOW_OK);
  assert_one_run (h, bus, whole, 2 * N + Z);

  /* its length, not where it begins: a gap of nothing 30 ms on (jitter) adds
   * nothing, and the audio goes on at 1 s */
  h = pt_make_harness (&bus, F32_CAPS, NULL);
  memcpy (whole + N, y, sizeof (float) * N);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND + 30 * GST_MSECOND, 0)));
  assert_int_equal (push_f32 (h, y, N, N), GST_FLOW_OK);
  assert_one_run (h, bus, whole, 2 * N);

  /* gaps in a row: 0.8 s of them in 20 ms pieces is silence within the run,
   * as one gap of 0.8 s is; 2 s of them (a valve's transform-to-gap, a jitter
   * buffer's gap per lost packet in an outage) end the run where they begin,
   * as one gap of 2 s does: the second run starts at 3 s, frame 300 */
  for (int outage = 0; outage < 2; outage++) {
    const int pieces = outage ? 100 : 40;
    const int64_t after = N + pieces * Z;
    h = pt_make_harness (&bus, F32_CAPS, NULL);
    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    for (int k = 0; k < pieces; k++)
      assert_true (gst_harness_push_event (h, gst_event_new_gap (samples_time (N + k * Z),
                  samples_time (Z))));
    assert_int_equal (push_f32 (h, y, N, after), GST_FLOW_OK);
    if (!outage) {
      float *joined = g_new0 (float, after + N);
      memcpy (joined, x, sizeof (float) * N);
      memcpy (joined + after, y, sizeof (float) * N);
      assert_one_run (h, bus, joined, after + N);
      g_free (joined);
    } else {
      int64_t first_run = expected_frames (N);
      pt_frames_init (&got);
      assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
      pt_collect_frame_messages (bus, &got);
      assert_int_equal (got.n, first_run + expected_frames (N));
      assert_int_equal (got.index[first_run - 1], first_run - 1);
      assert_int_equal (got.index[first_run], 300);
      pt_frames_free (&got);
      pt_free_harness (h, bus);
    }
  }

  /* a brief gap just before EOS is silence within the run still */
  h = pt_make_harness (&bus, F32_CAPS, NULL);
  memset (whole, 0, sizeof (float) * (2 * N + Z));
  memcpy (whole, x, sizeof (float) * N);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND, GST_SECOND / 2)));
  assert_one_run (h, bus, whole, N + N / 2);

  /* and before new caps that keep the run (mono to stereo): the frames its
   * silence completes ride on the next buffer's meta, as every frame does */
  {
    float *stereo = g_new0 (float, 2 * N);
    pt_frames metas;
    h = pt_make_harness (&bus, F32_CAPS, NULL);
    pt_frames_init (&got);
    pt_frames_init (&metas);
    for (int64_t i = 0; i < N; i++)
      stereo[2 * i] = stereo[2 * i + 1] = y[i];
    assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND,
                9 * GST_SECOND / 10)));
    gst_harness_set_src_caps_str (h, "audio/x-raw,format=F32LE,rate=16000,channels=2,"
        "layout=interleaved,channel-mask=(bitmask)0x3");
    {
      GstBuffer *b = gst_buffer_new_memdup (stereo, sizeof (float) * 2 * N);
      GST_BUFFER_PTS (b) = GST_SECOND + 9 * GST_SECOND / 10;
      GST_BUFFER_DURATION (b) = GST_SECOND;
      assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
    }
    pull_metas (h, &metas, NULL);
    pt_collect_frame_messages (bus, &got);
    assert_true (got.n > expected_frames (N));
    assert_int_equal (metas.n, got.n);
    for (int64_t i = 0; i < got.n; i++)
      assert_int_equal (metas.index[i], got.index[i]);
    pt_frames_free (&got);
    pt_frames_free (&metas);
    pt_free_harness (h, bus);
    g_free (stereo);
  }

  /* new caps between two gaps of 0.6 s: the audio going on, so the second
   * starts a row of its own and both are silence (1 s + 1.2 s labelled), not a
   * dropout that would leave the first labelled and end the run mid-way */
  h = pt_make_harness (&bus, F32_CAPS, NULL);
  assert_int_equal (push_f32 (h, x, N, 0), GST_FLOW_OK);
  assert_true (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND, 6 * GST_SECOND / 10)));
  gst_harness_set_src_caps_str (h, "audio/x-raw,format=F32LE,rate=16000,channels=2,"
      "layout=interleaved,channel-mask=(bitmask)0x3");
  assert_true (gst_harness_push_event (h, gst_event_new_gap (16 * GST_SECOND / 10,
              6 * GST_SECOND / 10)));
  pt_frames_init (&got);
  assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
  pt_collect_frame_messages (bus, &got);
  assert_int_equal (got.n, expected_frames (N + 12 * N / 10));
  pt_frames_free (&got);
  pt_free_harness (h, bus);
  g_free (whole);
  free (x);
  free (y);
}

/* Pushes n sample frames of `channels` interleaved F32 channels at `rate` as
 * a decoder does in reverse playback (GstAudioDecoder with flacdec,
 * vorbisdec...): a segment of rate -1 over them (its stop: `stop`, or their
 * end when NONE), chunks of `chunk` frames latest first, each decoded forwards
 * into pieces of `piece` frames and pushed latest first, DISCONT on each
 * chunk's first alone. The piece at frame no_pts_at (-1: none) has no
 * timestamp. Each chunk but the first lacks its first `gap` frames, its
 * earliest piece then DISCONT, as vorbisdec's where its chunks meet. The
 * buffers pushed, in order, go to `pushed` (first and end frame) when not
 * NULL. */
static void
push_reverse_at (GstHarness * h, const float *x, int64_t n, int channels, int rate,
    int64_t chunk, int64_t piece, GstClockTime stop, int64_t no_pts_at, int64_t gap,
    GArray * pushed)
{
  GstSegment seg;

  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.rate = -1.0;
  seg.stop = GST_CLOCK_TIME_IS_VALID (stop) ? stop
      : gst_util_uint64_scale ((guint64) n, GST_SECOND, (guint64) rate);
  seg.position = seg.stop;
  assert_true (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  for (int64_t c0 = (n - 1) / chunk * chunk; c0 >= 0; c0 -= chunk) {
    int64_t c1 = MIN (n, c0 + chunk), p0 = c0 + (c1 - c0 - 1) / piece * piece;
    for (gboolean first = TRUE; p0 >= c0; p0 -= piece, first = FALSE) {
      const gboolean short_piece = gap > 0 && c0 > 0 && p0 == c0;
      int64_t p1 = MIN (c1, p0 + piece), from = short_piece ? p0 + gap : p0;
      GstBuffer *b = gst_buffer_new_memdup (x + from * channels,
          (gsize) ((p1 - from) * channels) * sizeof *x);
      if (p0 != no_pts_at) {
        GST_BUFFER_PTS (b) = gst_util_uint64_scale ((guint64) from, GST_SECOND, (guint64) rate);
        GST_BUFFER_DURATION (b) = gst_util_uint64_scale ((guint64) p1, GST_SECOND,
            (guint64) rate) - GST_BUFFER_PTS (b);
      }
      if (first || short_piece)
        GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
      if (pushed != NULL) {
        g_array_append_val (pushed, p0);
        g_array_append_val (pushed, p1);
      }
      assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
    }
  }
}

/* push_reverse_at of mono audio at PT_RATE over the whole of it */
static void
push_like_reverse_decoder (GstHarness * h, const float *x, int64_t n, int64_t chunk,
    int64_t piece, GArray * pushed)
{
  push_reverse_at (h, x, n, 1, PT_RATE, chunk, piece, GST_CLOCK_TIME_NONE, -1, 0, pushed);
}

/* Every buffer on the labels pad until its EOS, one string; none ends past
 * `end`. */
static gchar *
labels_text_until (GstHarness * hl, const char *media_type, GstClockTime end)
{
  GString *all = g_string_new (NULL);
  GstBuffer *b;

  wait_eos (hl, media_type);
  while ((b = gst_harness_try_pull (hl)) != NULL) {
    gchar *text = buffer_text (b);
    if (GST_BUFFER_PTS (b) + GST_BUFFER_DURATION (b) > end)
      fail_msg ("a label past the end, at %" GST_TIME_FORMAT ": %s",
          GST_TIME_ARGS (GST_BUFFER_PTS (b)), text);
    g_string_append (all, text);
    g_free (text);
    gst_buffer_unref (b);
  }
  return g_string_free (all, FALSE);
}

/* The audio the harness gives out, each buffer put at its time in played
 * (n samples, 16 kHz mono float): how many samples came. */
static int64_t
pull_played (GstHarness * h, float *played, int64_t n)
{
  GstBuffer *b;
  int64_t got = 0;

  while ((b = gst_harness_try_pull (h)) != NULL) {
    int64_t at = (int64_t) gst_util_uint64_scale_round (GST_BUFFER_PTS (b), PT_RATE,
        GST_SECOND);
    GstMapInfo map;
    assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
    assert_true (at >= 0 && at + (int64_t) (map.size / sizeof (float)) <= n);
    memcpy (played + at, map.data, map.size);
    got += (int64_t) (map.size / sizeof (float));
    gst_buffer_unmap (b, &map);
    gst_buffer_unref (b);
  }
  return got;
}

/* Reverse playback as a real decoder pushes it (push_like_reverse_decoder:
 * 1 s chunks latest first, 0.2 s buffers latest first in each, DISCONT on a
 * chunk's first alone) gives the labels of forward playback: the frames on the
 * bus and on the metas are the library's (every one, bitwise; each once, on
 * the metas too), the Audacity lines and the TextGrid those of forward
 * playback byte for byte, none past the end; the audio comes out unchanged in
 * the order it came; with gate=silence each buffer is silenced as forwards.
 * Labelled as it came, each buffer ran on the sample count past the one
 * before: ~0.5 s segments with holes, and labels past the end. Longer than the
 * 30 s gathered at most (40 s: a span of 30 s, then one of 10 s): every frame
 * once, none past the end, and the frames the library's but for a window's
 * at most where the later span begins (8 of 3,998 here), which heard silence
 * before it, not the audio. */
static void
test_reverse_like_a_decoder (void **state)
{
  const int64_t N = 5 * PT_RATE + 77, LONG = 40 * PT_RATE;
  float *x = pt_signal (LONG, 41);
  pt_frames ref, msgs, metas;
  (void) state;

  pt_frames_init (&ref);
  pt_reference (x, N, NULL, &ref, NULL);
  for (int format = 0; format < 2; format++) {  /* audacity, textgrid */
    const char *media = format == 0 ? "text/x-raw" : "application/x-praat-textgrid";
    gchar *forward, *reverse;
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, NULL, "label-format", format == 0 ? 0 : 7, NULL), *hl;
    GArray *pushed = g_array_new (FALSE, FALSE, sizeof (int64_t));
    GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
    GstBuffer *b;

    hl = gst_harness_new_with_element (h->element, NULL, "labels");
    gst_harness_set_src_caps_str (h, F32_CAPS);
    for (int64_t off = 0; off < N; off += PT_RATE / 5)
      assert_int_equal (push_f32 (h, x + off, MIN (PT_RATE / 5, N - off), off), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    forward = labels_text_until (hl, media, samples_time (N));
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);

    h = pt_make_harness (&bus, NULL, "label-format", format == 0 ? 0 : 7, NULL);
    hl = gst_harness_new_with_element (h->element, NULL, "labels");
    gst_harness_set_src_caps_str (h, F32_CAPS);
    push_like_reverse_decoder (h, x, N, PT_RATE, PT_RATE / 5, pushed);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    reverse = labels_text_until (hl, media, samples_time (N));
    assert_string_equal (reverse, forward);

    /* the frames on the bus: the library's, at their times (and no warning;
     * popping it discards the rest) */
    pt_frames_init (&msgs);
    pt_collect_frame_messages (bus, &msgs);
    pt_assert_frames_equal (&msgs, &ref, 0, 0);
    assert_no_warning (bus, "reverse");
    /* the audio in the order it came, unchanged; the metas of its buffers
     * from the earliest on: every frame once, the span's tail on the latest */
    while ((b = gst_harness_try_pull (h)) != NULL)
      g_ptr_array_add (out, b);
    assert_int_equal (out->len, pushed->len / 2);
    pt_frames_init (&metas);
    for (guint i = 0; i < out->len; i++) {
      int64_t p0 = g_array_index (pushed, int64_t, 2 * i);
      int64_t p1 = g_array_index (pushed, int64_t, 2 * i + 1);
      GstMapInfo map;
      b = g_ptr_array_index (out, i);
      assert_int_equal (GST_BUFFER_PTS (b), samples_time (p0));
      assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
      assert_int_equal (map.size, (p1 - p0) * sizeof (float));
      assert_memory_equal (map.data, x + p0, map.size);
      gst_buffer_unmap (b, &map);
    }
    for (guint i = out->len; i-- > 0;)
      pt_collect_meta (g_ptr_array_index (out, i), &metas);
    pt_assert_frames_equal (&metas, &ref, 0, 0);
    pt_frames_free (&metas);
    pt_frames_free (&msgs);
    g_ptr_array_unref (out);
    g_array_unref (pushed);
    g_free (forward);
    g_free (reverse);
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);
  }

  /* the gate: the audio silenced where forwards it is (forwards the gate lets
   * pieces out as their frames are labelled: compared sample by sample) */
  {
    float *played[2] = { g_new0 (float, N), g_new0 (float, N) };
    for (int dir = 0; dir < 2; dir++) {
      GstBus *bus;
      GstHarness *h = pt_make_harness (&bus, F32_CAPS, "target-class", "speech",
          "threshold-on", 0.45, "threshold-off", 0.4, "gate", 2, NULL); /* silence */
      if (dir == 0) {
        for (int64_t off = 0; off < N; off += PT_RATE / 5)
          assert_int_equal (push_f32 (h, x + off, MIN (PT_RATE / 5, N - off), off),
              GST_FLOW_OK);
      } else {
        push_like_reverse_decoder (h, x, N, PT_RATE, PT_RATE / 5, NULL);
      }
      assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
      assert_int_equal (pull_played (h, played[dir], N), N);
      assert_no_warning (bus, "gate");
      pt_free_harness (h, bus);
    }
    assert_memory_equal (played[1], played[0], N * sizeof (float));
    assert_memory_not_equal (played[0], x, N * sizeof (float)); /* something silenced */
    g_free (played[0]);
    g_free (played[1]);
  }

  /* longer than the bound */
  {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, NULL, "label-format", 7, NULL); /* textgrid */
    GstHarness *hl = gst_harness_new_with_element (h->element, NULL, "labels");
    gchar *forward, *reverse;
    int64_t *at, differ = 0;

    pt_frames_free (&ref);
    pt_frames_init (&ref);
    pt_reference (x, LONG, NULL, &ref, NULL);
    gst_harness_set_src_caps_str (h, F32_CAPS);
    assert_int_equal (push_f32 (h, x, LONG, 0), GST_FLOW_OK);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    forward = labels_text_until (hl, "application/x-praat-textgrid", samples_time (LONG));
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);

    h = pt_make_harness (&bus, NULL, "label-format", 7, NULL);
    hl = gst_harness_new_with_element (h->element, NULL, "labels");
    gst_harness_set_src_caps_str (h, F32_CAPS);
    push_like_reverse_decoder (h, x, LONG, PT_RATE, PT_RATE / 5, NULL);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    reverse = labels_text_until (hl, "application/x-praat-textgrid", samples_time (LONG));
    pt_frames_init (&msgs);
    pt_collect_frame_messages (bus, &msgs);
    assert_no_warning (bus, "long reverse");
    assert_int_equal (msgs.n, ref.n);
    at = g_new (int64_t, ref.n);
    for (int64_t i = 0; i < ref.n; i++)
      at[i] = -1;
    for (int64_t i = 0; i < msgs.n; i++) {
      int64_t f = msgs.index[i];
      assert_in_range (f, 0, ref.n - 1);
      assert_int_equal (at[f], -1);     /* once */
      at[f] = i;
      assert_true (msgs.pts[i] + msgs.dur[i] <= samples_time (LONG));
      if (msgs.label[i] != ref.label[f] || memcmp (msgs.probs + i * PT_K,
              ref.probs + f * PT_K, PT_K * sizeof (float)) != 0)
        differ++;
    }
    /* the later span's first core blocks heard silence before them, not the
     * audio (the test model's window: 24 frames) */
    if (differ > 24)
      fail_msg ("%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " frames differ from forward playback's",
          differ, ref.n);
    printf ("reverse over the bound: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
        " frames differ; TextGrid %s\n", differ, ref.n,
        strcmp (forward, reverse) == 0 ? "the same" : "differs");
    g_free (at);
    g_free (forward);
    g_free (reverse);
    pt_frames_free (&msgs);
    gst_harness_teardown (hl);
    pt_free_harness (h, bus);
  }
  pt_frames_free (&ref);
  free (x);
}

/* Reverse playback in spans whose cuts are off the 10 ms frame grid: FLAC's
 * blocks of 4,608 samples (0.288 s at 16 kHz, 0.1045 s at 44.1 kHz), 4 to a
 * decoder's chunk, over 35-40 s (a span of 30 s, then the rest, cut inside a
 * frame). Each frame on the bus once, at forward playback's time (the file at
 * rate 1 through the element), with its label but for a window's at most
 * where the later span begins; each on one meta; no warning (the TextGrid
 * written). Mono at 16 kHz (checked against the library too), stereo at
 * 44.1 kHz, and 22,050 and 11,025 Hz, where the hop is not a whole number of
 * samples. Before 2026-12-07 the later span's run started off the grid: a
 * frame labelled twice, every later one 2 ms late at 16 kHz, the document
 * refused ("the stream's time went back"). */
static void
test_reverse_off_grid_spans (void **state)
{
  /* the spans' cut, 30 s of whole blocks from the end: at 10.368 s (frame
   * 1036.8), 10.031 s (1003.1), 5.0155 s and 5.0155 s (501.55) */
  const int64_t block = 4608;
  static const struct { int rate, channels; int64_t n; } cases[] = {
    { 16000, 1, 40 * 16000 + 4608 }, { 44100, 2, 40 * 44100 }, { 22050, 1, 35 * 22050 },
    { 11025, 1, 35 * 11025 }
  };
  (void) state;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    const int rate = cases[c].rate, ch = cases[c].channels;
    const int64_t n = cases[c].n;
    const GstClockTime end = gst_util_uint64_scale ((guint64) n, GST_SECOND, (guint64) rate);
    float *mono = pt_signal (n, 43 + c), *x = g_new (float, n * ch);
    gchar *caps = g_strdup_printf ("audio/x-raw,format=F32LE,rate=%d,channels=%d,"
        "layout=interleaved%s", rate, ch, ch == 2 ? ",channel-mask=(bitmask)0x3" : "");
    pt_frames fwd, rev, metas;
    gchar *tg[2];
    int64_t differ = 0;

    for (int64_t i = 0; i < n; i++)
      for (int k = 0; k < ch; k++)
        x[i * ch + k] = mono[i] * (k == 0 ? 1.0f : 0.5f);
    for (int dir = 0; dir < 2; dir++) {
      GstBus *bus;
      GstHarness *h = pt_make_harness (&bus, caps, "label-format", 7, NULL), *hl;
      GstBuffer *b;
      GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
      hl = gst_harness_new_with_element (h->element, NULL, "labels");
      if (dir == 0) {
        for (int64_t off = 0; off < n; off += block) {
          int64_t m = MIN (block, n - off);
          b = gst_buffer_new_memdup (x + off * ch, (gsize) (m * ch) * sizeof *x);
          GST_BUFFER_PTS (b) = gst_util_uint64_scale ((guint64) off, GST_SECOND, (guint64) rate);
          assert_int_equal (gst_harness_push (h, b), GST_FLOW_OK);
        }
      } else {
        push_reverse_at (h, x, n, ch, rate, 4 * block, block, GST_CLOCK_TIME_NONE, -1, 0, NULL);
      }
      assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
      tg[dir] = labels_text_until (hl, "application/x-praat-textgrid", end);
      pt_frames_init (dir == 0 ? &fwd : &rev);
      pt_collect_frame_messages (bus, dir == 0 ? &fwd : &rev);
      assert_no_warning (bus, dir == 0 ? "forward" : "reverse off the grid");
      assert_true (strlen (tg[dir]) > 0);
      if (dir == 1) {
        /* every frame on one meta (the buffers as they came: latest first) */
        while ((b = gst_harness_try_pull (h)) != NULL)
          g_ptr_array_add (out, b);
        pt_frames_init (&metas);
        for (guint i = out->len; i-- > 0;)
          pt_collect_meta (g_ptr_array_index (out, i), &metas);
        assert_int_equal (metas.n, fwd.n);
        {
          guint8 *seen = g_new0 (guint8, fwd.n);
          for (int64_t i = 0; i < metas.n; i++) {
            assert_in_range (metas.index[i], 0, fwd.n - 1);
            assert_int_equal (seen[metas.index[i]], 0);
            seen[metas.index[i]] = 1;
          }
          g_free (seen);
        }
        pt_frames_free (&metas);
      }
      g_ptr_array_unref (out);
      gst_harness_teardown (hl);
      pt_free_harness (h, bus);
    }
    /* forwards: frames 0.. in order; reverse: each of them once, at its time */
    assert_int_equal (rev.n, fwd.n);
    {
      int64_t *at = g_new (int64_t, fwd.n);
      for (int64_t i = 0; i < fwd.n; i++) {
        assert_int_equal (fwd.index[i], i);
        at[i] = -1;
      }
      for (int64_t i = 0; i < rev.n; i++) {
        int64_t f = rev.index[i];
        assert_in_range (f, 0, fwd.n - 1);
        if (at[f] != -1)
          fail_msg ("%d Hz: frame %" G_GINT64_FORMAT " labelled twice", rate, f);
        at[f] = i;
        if (rev.pts[i] != fwd.pts[f] || rev.dur[i] != fwd.dur[f])
          fail_msg ("%d Hz: frame %" G_GINT64_FORMAT " at %" GST_TIME_FORMAT
              ", forwards at %" GST_TIME_FORMAT, rate, f, GST_TIME_ARGS (rev.pts[i]),
              GST_TIME_ARGS (fwd.pts[f]));
        if (rev.label[i] != fwd.label[f])
          differ++;
      }
      g_free (at);
    }
    /* the later span's first core blocks heard silence before them (the test
     * model's window: 24 frames) */
    if (differ > 24)
      fail_msg ("%d Hz: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " labels differ",
          rate, differ, fwd.n);
    if (rate == PT_RATE) {      /* the library's frames, but for that window */
      pt_frames ref;
      int64_t off = 0;
      pt_frames_init (&ref);
      pt_reference (mono, n, NULL, &ref, NULL);
      assert_int_equal (ref.n, fwd.n);
      for (int64_t i = 0; i < fwd.n; i++)
        off += memcmp (fwd.probs + i * PT_K, ref.probs + i * PT_K, PT_K * sizeof (float)) != 0;
      assert_int_equal (off, 0);
      pt_frames_free (&ref);
    }
    printf ("reverse off the grid at %d Hz: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
        " labels differ; TextGrid %s\n", rate, differ, fwd.n,
        strcmp (tg[0], tg[1]) == 0 ? "the same" : "differs");
    pt_frames_free (&fwd);
    pt_frames_free (&rev);
    g_free (tg[0]);
    g_free (tg[1]);
    g_free (caps);
    g_free (x);
    free (mono);
  }
}

/* GLib warnings and criticals (g_warn_if_fail, g_return_if_fail) counted, not
 * printed, while a test runs. */
static guint glib_warnings;

static void
count_glib_warnings (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer data)
{
  (void) domain;
  (void) data;
  if (level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL))
    glib_warnings++;
  else
    g_log_default_handler (domain, level, message, NULL);
}

/* A decoder's gaps in reverse (vorbisdec's, some 30 ms where its chunks
 * meet, the buffer after each DISCONT): each under the 40 ms a span goes on
 * across, together more than the run's tolerance, so the span's run restarts,
 * off the 10 ms grid. The run after it stays on the grid: every frame at
 * forward playback's time and once, none but the gaps' own left out. */
static void
test_reverse_restart_in_span (void **state)
{
  const int64_t block = 4608, n = 20 * PT_RATE + 1234, gap = 488; /* 30.5 ms */
  float *x = pt_signal (n, 47);
  pt_frames fwd, rev;
  (void) state;

  for (int dir = 0; dir < 2; dir++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, F32_CAPS, NULL);
    if (dir == 0) {
      for (int64_t off = 0; off < n; off += block)
        assert_int_equal (push_f32 (h, x + off, MIN (block, n - off), off), GST_FLOW_OK);
    } else {
      push_reverse_at (h, x, n, 1, PT_RATE, 4 * block, block, GST_CLOCK_TIME_NONE, -1, gap, NULL);
    }
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    pt_frames_init (dir == 0 ? &fwd : &rev);
    pt_collect_frame_messages (bus, dir == 0 ? &fwd : &rev);
    pt_free_harness (h, bus);
  }
  {
    guint8 *seen = g_new0 (guint8, fwd.n);
    int64_t missing = 0;
    for (int64_t i = 0; i < rev.n; i++) {
      int64_t f = rev.index[i];
      assert_in_range (f, 0, fwd.n - 1);
      if (seen[f])
        fail_msg ("frame %" G_GINT64_FORMAT " labelled twice", f);
      seen[f] = 1;
      if (rev.pts[i] != fwd.pts[f])
        fail_msg ("frame %" G_GINT64_FORMAT " at %" GST_TIME_FORMAT ", forwards at %"
            GST_TIME_FORMAT, f, GST_TIME_ARGS (rev.pts[i]), GST_TIME_ARGS (fwd.pts[f]));
    }
    for (int64_t f = 0; f < fwd.n; f++)
      if (!seen[f]) {
        /* only frames by a chunk's edge: of a gap, of the drift of the gap
         * before it (the run went on on its sample count across that one), or
         * whose window reaches them; at the end, those the drift left no
         * samples for */
        const int64_t s0 = f * PT_RATE / 100, chunk = 4 * block;
        const int64_t c = (s0 + 2 * gap + 400) / chunk * chunk;
        missing++;
        if (!(c > 0 && s0 >= c - 2 * gap - 400 && s0 < c + gap) && s0 + 400 <= n - 2 * gap)
          fail_msg ("frame %" G_GINT64_FORMAT " left out, far from a gap", f);
      }
    assert_in_range (missing, 1, 12 * (n / (4 * block)));
    g_free (seen);
  }
  pt_frames_free (&fwd);
  pt_frames_free (&rev);
  g_free (x);
}

/* The gate in reverse playback over 40 s in FLAC-like blocks (the later span's
 * run starting on silence before its audio): not a GLib warning, and the audio
 * silenced where forwards it is but for a window's frames at the later span's
 * start. Before 2026-12-07 each frame of such a span gave "runtime check
 * failed" (its first frame was not the run's 0). */
static void
test_reverse_gate_long (void **state)
{
  const int64_t block = 4608, N = 40 * PT_RATE + block;   /* cut at 10.368 s */
  float *x = pt_signal (N, 47);
  float *played[2] = { g_new0 (float, N), g_new0 (float, N) };
  GLogFunc old;
  int64_t differ = 0;
  (void) state;

  glib_warnings = 0;
  old = g_log_set_default_handler (count_glib_warnings, NULL);
  for (int dir = 0; dir < 2; dir++) {
    GstBus *bus;
    GstHarness *h = pt_make_harness (&bus, F32_CAPS, "target-class", "speech",
        "threshold-on", 0.45, "threshold-off", 0.4, "gate", 2, NULL);   /* silence */
    if (dir == 0) {
      for (int64_t off = 0; off < N; off += block)
        assert_int_equal (push_f32 (h, x + off, MIN (block, N - off), off), GST_FLOW_OK);
    } else {
      push_like_reverse_decoder (h, x, N, 4 * block, block, NULL);
    }
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    assert_int_equal (pull_played (h, played[dir], N), N);
    assert_no_warning (bus, "gate");
    pt_free_harness (h, bus);
  }
  g_log_set_default_handler (old, NULL);
  assert_int_equal (glib_warnings, 0);
  for (int64_t i = 0; i < N; i++)
    differ += played[0][i] != played[1][i];
  if (differ > 24 * 160)
    fail_msg ("%" G_GINT64_FORMAT " samples gated otherwise than forwards", differ);
  assert_memory_not_equal (played[0], x, N * sizeof (float));   /* something silenced */
  g_free (played[0]);
  g_free (played[1]);
  free (x);
}

/* A buffer without a timestamp in reverse playback (at 10.0-10.2 s of 20 s,
 * the segment's stop) has no place in time: it goes out unlabelled, its
 * frames (1000-1019) on no message and no meta, the rest each once, none past
 * the stop (the span before it ends there: its last window's frames, as at
 * a file's end); the gate silences it as audio not of its class. Before
 * 2026-12-07 it was labelled as going on from the span before it, which in
 * reverse is the later audio: 18 frames at 20.00-20.18 s. */
static void
test_reverse_buffer_without_timestamp (void **state)
{
  const int64_t N = 20 * PT_RATE, piece = PT_RATE / 5, hole = 10 * PT_RATE;
  float *x = pt_signal (N, 53);
  (void) state;

  for (int gate = 0; gate < 2; gate++) {
    GstBus *bus;
    GstHarness *h = gate ? pt_make_harness (&bus, F32_CAPS, "target-class", "speech",
        "gate", 2, NULL) : pt_make_harness (&bus, F32_CAPS, NULL);
    GArray *pushed = g_array_new (FALSE, FALSE, sizeof (int64_t));
    pt_frames msgs, metas;
    guint8 *seen = g_new0 (guint8, N / 160);
    GstBuffer *b;
    gboolean untimed_seen = FALSE;

    push_reverse_at (h, x, N, 1, PT_RATE, PT_RATE, piece, samples_time (N), hole, 0, pushed);
    assert_true (gst_harness_push_event (h, gst_event_new_eos ()));
    pt_frames_init (&msgs);
    pt_collect_frame_messages (bus, &msgs);
    assert_no_warning (bus, "untimed");
    for (int64_t i = 0; i < msgs.n; i++) {
      int64_t f = msgs.index[i];
      if (msgs.pts[i] + msgs.dur[i] > samples_time (N))
        fail_msg ("frame %" G_GINT64_FORMAT " past the stop, at %" GST_TIME_FORMAT, f,
            GST_TIME_ARGS (msgs.pts[i]));
      assert_in_range (f, 0, N / 160 - 1);
      assert_int_equal (seen[f], 0);
      seen[f] = 1;
      assert_true (f < hole / 160 || f >= (hole + piece) / 160);
    }
    /* the span before it ends its run there, the frames its window's tail
     * needs the audio after for not labelled (as at a file's end) */
    assert_int_equal (msgs.n, expected_frames (hole) + expected_frames (N) - (hole + piece) / 160);
    pt_frames_init (&metas);
    while ((b = gst_harness_try_pull (h)) != NULL) {
      if (!GST_BUFFER_PTS_IS_VALID (b)) {
        GstMapInfo map;
        untimed_seen = TRUE;
        assert_null (gst_buffer_get_meta (b, gst_seqlabel_meta_api_type ()));
        assert_true (gst_buffer_map (b, &map, GST_MAP_READ));
        assert_int_equal (map.size, piece * sizeof (float));
        if (gate) {             /* silenced */
          for (gsize i = 0; i < map.size / sizeof (float); i++)
            assert_true (((const float *) map.data)[i] == 0.0f);
        } else {
          assert_memory_equal (map.data, x + hole, map.size);
        }
        gst_buffer_unmap (b, &map);
      }
      pt_collect_meta (b, &metas);
      gst_buffer_unref (b);
    }
    assert_true (untimed_seen);
    assert_int_equal (metas.n, msgs.n);
    pt_frames_free (&metas);
    pt_frames_free (&msgs);
    g_free (seen);
    g_array_unref (pushed);
    pt_free_harness (h, bus);
  }
  free (x);
}

/* A started element with model=path. */
static GstElement *
started (const gchar * path)
{
  GstElement *el = gst_element_factory_make ("seqlabel", NULL);
  g_object_set (el, "model", path, NULL);
  assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
  assert_non_null (((GstSeqLabel *) el)->model);
  return el;
}

static void
stopped (GstElement * el)
{
  gst_element_set_state (el, GST_STATE_NULL);
  gst_object_unref (el);
}

/* Elements that name one model file share one loaded model (the weights are
 * only read); a file replaced on disk (here: another modification time) is
 * loaded anew for an element started after, while the running ones keep theirs;
 * another file is another model. */
static void
test_model_shared (void **state)
{
  gchar *data, *path = g_build_filename (pt_tmp_dir (), "shared.slm", NULL);
  gchar *other = g_build_filename (pt_tmp_dir (), "other.slm", NULL);
  gsize len;
  GstElement *a, *b, *c, *d;
  struct timespec times[2] = { {1000000, 0}, {1000000, 0} };
  (void) state;

  assert_true (g_file_get_contents (pt_model_path (), &data, &len, NULL));
  assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  assert_true (g_file_set_contents (other, data, (gssize) len, NULL));
  a = started (path);
  b = started (path);
  assert_ptr_equal (((GstSeqLabel *) a)->model, ((GstSeqLabel *) b)->model);
  d = started (other);
  assert_ptr_not_equal (((GstSeqLabel *) d)->model, ((GstSeqLabel *) a)->model);
  assert_int_equal (utimensat (AT_FDCWD, path, times, 0), 0);
  c = started (path);
  assert_ptr_not_equal (((GstSeqLabel *) c)->model, ((GstSeqLabel *) a)->model);
  assert_ptr_equal (((GstSeqLabel *) b)->model, ((GstSeqLabel *) a)->model);
  stopped (a);
  stopped (b);
  stopped (c);
  stopped (d);
  g_remove (path);
  g_remove (other);
  g_free (path);
  g_free (other);
  g_free (data);
}

/* One model file named by other spellings of its path (a `..`, a symlink, a
 * path relative to the working directory) is one loaded copy too: the cache
 * knows the file by its device and inode, not by the string. */
static void
test_model_shared_by_any_spelling (void **state)
{
  const gchar *dir = pt_tmp_dir ();
  gchar *data, *path = g_build_filename (dir, "spelt.slm", NULL);
  gchar *base = g_path_get_basename (dir);
  gchar *dotdot = g_strdup_printf ("%s/../%s/spelt.slm", dir, base);
  gchar *link = g_build_filename (dir, "spelt-link.slm", NULL);
  gchar *cwd = g_get_current_dir ();
  GString *relative = g_string_new (NULL);
  GstElement *el[4];
  gsize len;
  (void) state;

  assert_true (g_path_is_absolute (path));
  assert_true (g_file_get_contents (pt_model_path (), &data, &len, NULL));
  assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  g_remove (link);
  assert_int_equal (symlink (path, link), 0);
  /* up from the working directory to the root, then down to the file */
  for (const gchar * c = cwd; *c; c++)
    if (*c == '/' && c[1] != '\0')
      g_string_append (relative, "../");
  g_string_append (relative, path + 1);
  assert_false (g_path_is_absolute (relative->str));

  el[0] = started (path);
  el[1] = started (dotdot);
  el[2] = started (link);
  el[3] = started (relative->str);
  for (int k = 1; k < 4; k++)
    assert_ptr_equal (((GstSeqLabel *) el[k])->model, ((GstSeqLabel *) el[0])->model);
  {
    /* another model of the same size written over the file in place (its
     * inode kept), its modification time put back as cp -p would: loaded
     * anew, not taken for the one running */
    char err[SL_ERR_LEN];
    gchar *other_path = g_build_filename (dir, "other.slm", NULL), *other;
    gsize other_len;
    struct stat before, after;
    sl_model *m = sl_model_load_memory (data, len, "spelt.slm", err, sizeof err);
    assert_non_null (m);
    sl_model_init_params (m, 99);
    assert_int_equal (sl_model_save (m, other_path, err, sizeof err), 0);
    sl_model_free (m);
    assert_true (g_file_get_contents (other_path, &other, &other_len, NULL));
    assert_int_equal (other_len, len);
    assert_int_equal (stat (path, &before), 0);
    g_usleep (20000);           /* past the kernel's clock tick */
    int fd = open (path, O_WRONLY);
    assert_true (fd >= 0);
    assert_int_equal (write (fd, other, other_len), (ssize_t) other_len);
    assert_int_equal (close (fd), 0);
    const struct timespec times[2] = { before.st_atim, before.st_mtim };
    assert_int_equal (utimensat (AT_FDCWD, path, times, 0), 0);
    assert_int_equal (stat (path, &after), 0);
    assert_true (after.st_ino == before.st_ino && after.st_size == before.st_size
        && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    GstElement *rewritten = started (path);
    assert_ptr_not_equal (((GstSeqLabel *) rewritten)->model, ((GstSeqLabel *) el[0])->model);
    stopped (rewritten);
    g_remove (other_path);
    g_free (other);
    g_free (other_path);
  }
  for (int k = 0; k < 4; k++)
    stopped (el[k]);
  g_remove (link);
  g_remove (path);
  g_string_free (relative, TRUE);
  g_free (cwd);
  g_free (link);
  g_free (dotdot);
  g_free (base);
  g_free (path);
  g_free (data);
}

/* The decimal defaults read back as the decimals the docs give (0.35, not
 * 0.3499999940395355, the library's float as a double), both from the param
 * spec and from a new element. */
static void
test_decimal_defaults (void **state)
{
  static const struct { const char *name; double value; } want[] = {
    { "threshold-on", 0.5 }, { "threshold-off", 0.35 }, { "switch-penalty", 5.0 },
    { "padding", 0.0 },
  };
  GstElement *el = gst_element_factory_make ("seqlabel", NULL);
  (void) state;

  for (size_t i = 0; i < G_N_ELEMENTS (want); i++) {
    GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS (el), want[i].name);
    gdouble got;

    g_object_get (el, want[i].name, &got, NULL);
    if (got != want[i].value || G_PARAM_SPEC_DOUBLE (spec)->default_value != want[i].value)
      fail_msg ("%s reads %.17g, default %.17g", want[i].name, got,
          G_PARAM_SPEC_DOUBLE (spec)->default_value);
  }
  gst_object_unref (el);
}

/* The model property read back says which model is used: the one set; unset,
 * $SEQLABEL_MODEL's (the first place the element looks), before and after the
 * element loaded it; and the param spec's default is unset, not a path that may
 * not exist. */
static void
test_model_property_read_back (void **state)
{
  GstElement *el = gst_element_factory_make ("seqlabel", NULL);
  gchar *got = NULL, *saved = g_strdup (g_getenv ("SEQLABEL_MODEL"));
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS (el), "model");
  (void) state;

  assert_null (G_PARAM_SPEC_STRING (spec)->default_value);
  g_setenv ("SEQLABEL_MODEL", pt_model_path (), TRUE);
  g_object_get (el, "model", &got, NULL);
  assert_string_equal (got, pt_model_path ());
  g_free (got);
  assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
  g_setenv ("SEQLABEL_MODEL", "/nonexistent/elsewhere.slm", TRUE);
  g_object_get (el, "model", &got, NULL);
  assert_string_equal (got, pt_model_path ());  /* the one in use */
  g_free (got);
  gst_element_set_state (el, GST_STATE_NULL);
  g_object_get (el, "model", &got, NULL);
  assert_string_equal (got, "/nonexistent/elsewhere.slm");      /* the next start's */
  g_free (got);
  {
    /* which fails to load, the error's details saying where the path came from */
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;
    GError *error = NULL;
    gchar *debug = NULL;
    gst_element_set_bus (el, bus);
    assert_int_equal (gst_element_set_state (el, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    assert_non_null (msg);
    gst_message_parse_error (msg, &error, &debug);
    if (!strstr (debug, "SEQLABEL_MODEL (no model property set): /nonexistent/elsewhere.slm"))
      fail_msg ("debug: %s", debug);
    g_error_free (error);
    g_free (debug);
    gst_message_unref (msg);
    gst_element_set_state (el, GST_STATE_NULL);
    gst_element_set_bus (el, NULL);
    gst_object_unref (bus);
  }
  g_object_set (el, "model", "/set/by/hand.slm", NULL);
  g_object_get (el, "model", &got, NULL);
  assert_string_equal (got, "/set/by/hand.slm");
  g_free (got);
  if (saved)
    g_setenv ("SEQLABEL_MODEL", saved, TRUE);
  else
    g_unsetenv ("SEQLABEL_MODEL");
  g_free (saved);
  gst_object_unref (el);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_buffer_sizes),
    cmocka_unit_test (test_eos_tail),
    cmocka_unit_test (test_segment_start_messages),
    cmocka_unit_test (test_qos_drops_nothing),
    cmocka_unit_test (test_flush_resets),
    cmocka_unit_test (test_latency),
    cmocka_unit_test (test_latency_answers),
    cmocka_unit_test (test_converted_input),
    cmocka_unit_test (test_latency_converted),
    cmocka_unit_test (test_other_formats),
    cmocka_unit_test (test_caps_refusal),
    cmocka_unit_test (test_discontinuity),
    cmocka_unit_test (test_jitter_keeps_the_run),
    cmocka_unit_test (test_flagged_jump_restarts),
    cmocka_unit_test (test_non_finite_buffers_skipped),
    cmocka_unit_test (test_partial_frame_refused),
    cmocka_unit_test (test_planes_without_meta_refused),
    cmocka_unit_test (test_refused_caps_one_error),
    cmocka_unit_test (test_thresholds_checked_with_a_target),
    cmocka_unit_test (test_caps_change_midstream),
    cmocka_unit_test (test_channels_change_midstream),
    cmocka_unit_test (test_unpositioned_channels),
    cmocka_unit_test (test_rate_change_midstream),
    cmocka_unit_test (test_meta_survives_convert),
    cmocka_unit_test (test_meta_on_first_piece),
    cmocka_unit_test (test_audio_level_meta),
    cmocka_unit_test (test_decoder_properties),
    cmocka_unit_test (test_retune_while_playing),
    cmocka_unit_test (test_bad_settings),
    cmocka_unit_test (test_settings_that_do_nothing),
    cmocka_unit_test (test_segment_messages),
    cmocka_unit_test (test_message_mode_switch),
    cmocka_unit_test (test_labels_pad_audacity),
    cmocka_unit_test (test_labels_pad_requested_midrun),
    cmocka_unit_test (test_labels_pad_jsonl),
    cmocka_unit_test (test_labels_pad_text),
    cmocka_unit_test (test_labels_pad_skip),
    cmocka_unit_test (test_flush_forgets_voice_activity),
    cmocka_unit_test (test_buffer_before_segment),
    cmocka_unit_test (test_message_times_before_segment),
    cmocka_unit_test (test_segment_done),
    cmocka_unit_test (test_document_after_seek),
    cmocka_unit_test (test_document_per_stream),
    cmocka_unit_test (test_summary_across_a_jump),
    cmocka_unit_test (test_srt_numbers_per_stream),
    cmocka_unit_test (test_stream_start_ends_run),
    cmocka_unit_test (test_document_of_late_audio),
    cmocka_unit_test (test_segment_new_stop),
    cmocka_unit_test (test_label_format_while_playing),
    cmocka_unit_test (test_restart_begins_afresh),
    cmocka_unit_test (test_untimed_runs_continue),
    cmocka_unit_test (test_brief_gap_is_silence),
    cmocka_unit_test (test_reverse_like_a_decoder),
    cmocka_unit_test (test_reverse_off_grid_spans),
    cmocka_unit_test (test_reverse_restart_in_span),
    cmocka_unit_test (test_reverse_gate_long),
    cmocka_unit_test (test_reverse_buffer_without_timestamp),
    cmocka_unit_test (test_model_shared),
    cmocka_unit_test (test_model_shared_by_any_spelling),
    cmocka_unit_test (test_model_property_read_back),
    cmocka_unit_test (test_decimal_defaults),
    cmocka_unit_test (test_applied_rate_said),
  };
  pt_init ();
  return cmocka_run_group_tests (tests, NULL, NULL);
}
