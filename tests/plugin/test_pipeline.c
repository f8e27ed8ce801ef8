/* The element in whole pipelines: a WAV file through filesrc ! wavparse !
 * audioconvert ! audioresample ! seqlabel, a live source, and the element
 * against the `seqlabel label --format frames` command on the same file. */
#include <math.h>
#include <sndfile.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include "plugin_test_util.h"
#include "tests/common/test_files.h"

static int64_t
expected_frames (int64_t n)
{
  return n < 400 ? 0 : 1 + (n - 400) / PT_HOP;
}

/* Runs a gst-launch description to EOS, collecting the frame messages of its
 * seqlabel element; fails on an error message. Returns the pipeline's
 * latency (min) queried while playing. */
static GstClockTime
run_pipeline (const char *launch, pt_frames * out)
{
  GError *e = NULL;
  GstElement *pipe = gst_parse_launch (launch, &e);
  GstBus *bus;
  GstClockTime latency = GST_CLOCK_TIME_NONE;
  gboolean done = FALSE;

  if (pipe == NULL)
    fail_msg ("%s: %s", launch, e ? e->message : "?");
  bus = gst_element_get_bus (pipe);
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, 20 * GST_SECOND);
    if (msg == NULL)
      fail_msg ("%s: no EOS after 20 s", launch);
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:{
        GError *err = NULL;
        gchar *dbg = NULL;
        gst_message_parse_error (msg, &err, &dbg);
        fail_msg ("%s: error %s (%s)", launch, err->message, dbg ? dbg : "");
        break;
      }
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      case GST_MESSAGE_ASYNC_DONE:
        if (!GST_CLOCK_TIME_IS_VALID (latency)) {
          GstQuery *q = gst_query_new_latency ();
          if (gst_element_query (pipe, q))
            gst_query_parse_latency (q, NULL, &latency, NULL);
          gst_query_unref (q);
        }
        break;
      case GST_MESSAGE_ELEMENT:{
        /* put it back for the collector: it reads from a bus */
        GstBus *tmp = gst_bus_new ();
        gst_bus_post (tmp, gst_message_ref (msg));
        pt_collect_frame_messages (tmp, out);
        gst_object_unref (tmp);
        break;
      }
      default:
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return latency;
}

/* 16 kHz mono WAV: the pipeline's labels equal the library's on the samples. */
static void
test_wav_pipeline (void **state)
{
  const int64_t N = 5 * PT_RATE / 2 + 33;
  float *x = pt_signal (N, 21);
  gchar *wav = g_build_filename (pt_tmp_dir (), "a.wav", NULL);
  gchar *launch;
  pt_frames ref, got;
  (void) state;

  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_write_wav (wav, x, N, PT_RATE, 1);
  pt_reference (x, N, NULL, &ref, NULL);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! audioconvert ! "
      "audioresample ! seqlabel model=%s message-mode=frame ! fakesink", wav,
      pt_model_path ());
  run_pipeline (launch, &got);
  pt_assert_frames_equal (&got, &ref, 0, 0);
  g_free (launch);
  g_remove (wav);
  g_free (wav);
  pt_frames_free (&ref);
  pt_frames_free (&got);
  free (x);
}

/* 44.1 kHz stereo through audioconvert ! audioresample (which pass it on as it
 * is): every frame of the stream converted inside is labeled once. */
static void
test_wav_pipeline_resampled (void **state)
{
  const int64_t N = 2 * 44100;
  float *x = pt_signal (N, 22);
  gchar *wav = g_build_filename (pt_tmp_dir (), "b.wav", NULL);
  gchar *launch;
  pt_frames got;
  (void) state;

  pt_frames_init (&got);
  pt_write_wav (wav, x, N, 44100, 2);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! audioconvert ! "
      "audioresample ! seqlabel model=%s message-mode=frame ! fakesink", wav,
      pt_model_path ());
  run_pipeline (launch, &got);
  assert_int_equal (got.n, expected_frames (2 * PT_RATE));
  for (int64_t i = 0; i < got.n; i++)
    assert_int_equal (got.index[i], i);
  g_free (launch);
  g_remove (wav);
  g_free (wav);
  pt_frames_free (&got);
  free (x);
}

/* Behind a live source: runs in real time to EOS, every frame labeled, and
 * the pipeline latency includes the element's. */
static void
test_live_source (void **state)
{
  GstElement *el = gst_element_factory_make ("seqlabel", NULL);
  gchar *launch = g_strdup_printf ("audiotestsrc is-live=true num-buffers=30 "
      "samplesperbuffer=320 wave=pink-noise ! audio/x-raw,rate=16000,channels=1 ! "
      "seqlabel model=%s message-mode=frame ! fakesink sync=true", pt_model_path ());
  pt_frames got;
  GstClockTime latency, ours;
  guint64 prop;
  (void) state;

  /* the element's own latency, from a stand-alone instance */
  g_object_set (el, "model", pt_model_path (), NULL);
  gst_element_set_state (el, GST_STATE_PAUSED);
  g_object_get (el, "latency", &prop, NULL);
  gst_element_set_state (el, GST_STATE_NULL);
  gst_object_unref (el);
  ours = prop;
  assert_true (ours > 0 && ours < GST_SECOND);

  pt_frames_init (&got);
  latency = run_pipeline (launch, &got);
  assert_int_equal (got.n, expected_frames (30 * 320));
  assert_true (GST_CLOCK_TIME_IS_VALID (latency));
  assert_true (latency >= ours);
  g_free (launch);
  pt_frames_free (&got);
}

/* Runs `seqlabel label --model <the test model> ARGS...` (NULL-ended), failing
 * the test when it fails. */
static void
command_label (const gchar * const *args)
{
  const char *cmd = g_getenv ("SL_SEQLABEL");
  const gchar *argv[32] = { cmd, "label", "--model", pt_model_path () };
  gchar *errs = NULL;
  gint status = 0;
  int n = 4;

  if (cmd == NULL || !g_file_test (cmd, G_FILE_TEST_IS_EXECUTABLE))
    fail_msg ("SL_SEQLABEL does not name the seqlabel command");
  for (; *args != NULL && n < 31; args++)
    argv[n++] = *args;
  argv[n] = NULL;
  assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
          NULL, NULL, &errs, &status, NULL));
  if (!g_spawn_check_wait_status (status, NULL))
    fail_msg ("seqlabel label failed: %s", errs ? errs : "");
  g_free (errs);
}

/* The element and `seqlabel label --format frames` on the same file, written
 * at `rate` with `channels` channels in libsndfile's `subformat`; `front` is
 * what stands between wavparse and the element. */
static void
same_as_command (int rate, int channels, int subformat, const char *front, uint64_t seed)
{
  const int64_t N = 3 * rate + 1;
  float *x = pt_signal (N, seed);
  gchar *wav = g_build_filename (pt_tmp_dir (), "c.wav", NULL);
  gchar *tsv = g_build_filename (pt_tmp_dir (), "c.tsv", NULL);
  gchar *launch, *contents = NULL;
  gchar **lines;
  pt_frames got;
  int64_t row = 0;

  printf ("same as the command: %d Hz, %d channel(s), libsndfile subformat 0x%x\n", rate,
      channels, subformat);
  pt_write_wav_as (wav, x, N, rate, channels, subformat);
  command_label ((const gchar *[]) { "--format", "frames", "-o", tsv, wav, NULL });
  pt_frames_init (&got);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! %s seqlabel model=%s "
      "message-mode=frame ! fakesink", wav, front, pt_model_path ());
  run_pipeline (launch, &got);
  assert_int_equal (got.n, expected_frames (lround ((double) N * PT_RATE / rate)));

  /* frame, time, label, confidence, one probability per class */
  assert_true (g_file_get_contents (tsv, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (int i = 1; lines[i] && lines[i][0]; i++, row++) {
    static const char *names[PT_K] = { "silence", "speech", "music", "noise" };
    gchar **col = g_strsplit (lines[i], "\t", -1);
    assert_int_equal (g_strv_length (col), 4 + PT_K);
    assert_true (row < got.n);
    assert_int_equal (g_ascii_strtoll (col[0], NULL, 10), got.index[row]);
    assert_string_equal (col[2], names[got.label[row]]);
    /* %.9g round-trips a float exactly */
    assert_true (strtof (col[3], NULL) == got.conf[row]);
    for (int k = 0; k < PT_K; k++)
      assert_true (strtof (col[4 + k], NULL) == got.probs[row * PT_K + k]);
    g_strfreev (col);
  }
  assert_int_equal (row, got.n);
  g_strfreev (lines);
  g_free (contents);
  g_free (launch);
  g_remove (wav);
  g_remove (tsv);
  g_free (wav);
  g_free (tsv);
  pt_frames_free (&got);
  free (x);
}

static void
test_same_as_command (void **state)
{
  (void) state;
  same_as_command (PT_RATE, 1, SF_FORMAT_PCM_16, "audioconvert ! audioresample !", 23);
}

/* Other rates, channel counts, sample formats and layouts: the element converts
 * them as the command reads the file, with or without converters in front (they
 * pass the stream through): 44.1 kHz stereo 16- and 24-bit, 8 kHz, 8-bit 11.025
 * kHz (old game recordings), float, and stereo in planes (non-interleaved, as
 * gst-libav's decoders give it), 16- and 24-bit. */
static void
test_same_as_command_converted (void **state)
{
  (void) state;
  same_as_command (44100, 2, SF_FORMAT_PCM_16, "", 25);
  same_as_command (8000, 1, SF_FORMAT_PCM_16, "audioconvert ! audioresample !", 26);
  same_as_command (44100, 2, SF_FORMAT_PCM_24, "", 27);
  same_as_command (11025, 1, SF_FORMAT_PCM_U8, "", 28);
  same_as_command (PT_RATE, 1, SF_FORMAT_FLOAT, "", 29);
  same_as_command (44100, 2, SF_FORMAT_PCM_16,
      "audioconvert ! audio/x-raw,layout=non-interleaved !", 30);
  same_as_command (48000, 2, SF_FORMAT_PCM_24,
      "audioconvert ! audio/x-raw,format=S24LE,layout=non-interleaved !", 31);
  /* stored wider than their depth: 24 bits in 4 bytes, 20 bits in 3 (no
   * dither: audioconvert would add it on the way to 20 bits) */
  same_as_command (48000, 2, SF_FORMAT_PCM_24, "audioconvert dithering=none ! "
      "audio/x-raw,format=S24_32LE,layout=non-interleaved !", 32);
  same_as_command (44100, 2, SF_FORMAT_PCM_16, "audioconvert dithering=none ! "
      "audio/x-raw,format=S20LE,layout=non-interleaved !", 33);
}

/* A flushing seek restarts labeling at the seek position: the frames after it
 * are the library's labels of the samples from there, on the stream's frame
 * grid (frame 100 at 1 s). */
static void
test_seek (void **state)
{
  const int64_t N = 3 * PT_RATE;
  float *x = pt_signal (N, 24);
  gchar *wav = g_build_filename (pt_tmp_dir (), "d.wav", NULL);
  gchar *launch;
  GstElement *pipe;
  GstBus *bus;
  GError *e = NULL;
  pt_frames ref, got;
  gboolean done = FALSE;
  (void) state;

  pt_frames_init (&ref);
  pt_frames_init (&got);
  pt_write_wav (wav, x, N, PT_RATE, 1);
  pt_reference (x + PT_RATE, N - PT_RATE, NULL, &ref, NULL);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! audioconvert ! "
      "audioresample ! seqlabel model=%s message-mode=frame ! fakesink", wav,
      pt_model_path ());
  pipe = gst_parse_launch (launch, &e);
  assert_non_null (pipe);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  assert_true (gst_element_seek_simple (pipe, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, GST_SECOND));
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  /* what came before the seek is discarded */
  gst_bus_set_flushing (bus, TRUE);
  gst_bus_set_flushing (bus, FALSE);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, 20 * GST_SECOND);
    assert_non_null (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      fail_msg ("error after seek");
    done = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT) {
      GstBus *tmp = gst_bus_new ();
      gst_bus_post (tmp, gst_message_ref (msg));
      pt_collect_frame_messages (tmp, &got);
      gst_object_unref (tmp);
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  /* frames labeled while prerolling before the seek may have been posted
   * before the bus was flushed; keep those from the seek position on */
  {
    int64_t first = got.n - 1;
    while (first >= 0 && got.index[first] != 100)
      first--;
    assert_true (first >= 0);
    got.index += first;
    got.label += first;
    got.conf += first;
    got.probs += first * PT_K;
    got.pts += first;
    got.dur += first;
    got.n -= first;
    pt_assert_frames_equal (&got, &ref, 100, GST_SECOND);
    got.index -= first;
    got.label -= first;
    got.conf -= first;
    got.probs -= first * PT_K;
    got.pts -= first;
    got.dur -= first;
  }
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (launch);
  g_remove (wav);
  g_free (wav);
  pt_frames_free (&ref);
  pt_frames_free (&got);
  free (x);
}

/* counts[0]: seeks, counts[1]: QoS events that left upstream */
static GstPadProbeReturn
count_seeks (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  GstEventType t = GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info));
  (void) pad;
  if (t == GST_EVENT_SEEK || t == GST_EVENT_QOS)
    g_atomic_int_inc ((gint *) user + (t == GST_EVENT_QOS));
  return GST_PAD_PROBE_OK;
}

/* A pipeline's seek reaches both sinks, the labels pad's too: it goes upstream
 * once, as a second copy would make the demuxer seek twice (a non-flushing
 * seek then repeats audio and labels). QoS from the labels pad's sink stays
 * in the element: late text must not make upstream drop audio. */
static void
test_seek_goes_upstream_once (void **state)
{
  gchar *wav = g_build_filename (pt_tmp_dir (), "once.wav", NULL);
  float *x = pt_signal (3 * PT_RATE, 24);
  gchar *launch;
  GstElement *pipe, *l;
  GstPad *sink, *labels;
  gint seeks[2] = { 0, 0 };
  (void) state;

  pt_write_wav (wav, x, 3 * PT_RATE, PT_RATE, 1);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel name=l model=%s ! "
      "fakesink l.labels ! fakesink", wav, pt_model_path ());
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  l = gst_bin_get_by_name (GST_BIN (pipe), "l");
  sink = gst_element_get_static_pad (l, "sink");
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, count_seeks, seeks, NULL);
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  assert_true (gst_element_seek_simple (pipe, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SECOND));
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  assert_int_equal (g_atomic_int_get (&seeks[0]), 1);
  labels = gst_element_get_static_pad (l, "labels");
  assert_non_null (labels);
  assert_true (gst_pad_send_event (labels, gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 0.5,
              GST_SECOND, GST_SECOND)));
  assert_int_equal (g_atomic_int_get (&seeks[1]), 0);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (labels);
  gst_object_unref (sink);
  gst_object_unref (l);
  gst_object_unref (pipe);
  g_free (launch);
  g_remove (wav);
  g_free (wav);
  free (x);
}

/* A seek upstream refuses (appsrc of a stream) is refused again when a copy of
 * it comes (the same event sent twice), not taken as done by the first. */
static void
test_refused_seek_not_remembered (void **state)
{
  gchar *launch = g_strdup_printf ("appsrc stream-type=stream format=time caps="
      "audio/x-raw,format=F32LE,rate=16000,channels=1,layout=interleaved ! seqlabel name=l "
      "model=%s ! fakesink async=false", pt_model_path ());
  GstElement *pipe = gst_parse_launch (launch, NULL), *l;
  GstPad *src;
  GstEvent *seek;
  (void) state;

  assert_non_null (pipe);
  l = gst_bin_get_by_name (GST_BIN (pipe), "l");
  src = gst_element_get_static_pad (l, "src");
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  seek = gst_event_new_seek (1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET,
      GST_SECOND, GST_SEEK_TYPE_NONE, 0);
  assert_false (gst_pad_send_event (src, gst_event_ref (seek)));
  assert_false (gst_pad_send_event (src, gst_event_ref (seek)));
  gst_event_unref (seek);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (l);
  gst_object_unref (pipe);
  g_free (launch);
}

/* The labels pad written by filesink (no queue needed) is byte for byte the
 * file `seqlabel label` writes for the same file, in each format both have,
 * with classes left out (skip-classes, only-classes: --skip, --only), one
 * channel, and UTC times (time-origin: --time-origin). Both label with argmax
 * (smoothing=none), whose flicker leaves the test model's every class segments
 * to leave out; the default decoder is the library's for both (test_element,
 * test_cmd_label). */
static void
test_labels_file_same_as_command (void **state)
{
  /* format, then the element's and the command's way of leaving classes out or
   * of labelling one channel of the stereo file */
  static const char *cases[][3] = { {"audacity", "", ""}, {"frames", "", ""}, {"jsonl", "", ""},
  {"webvtt", "", ""}, {"srt", "", ""}, {"srt", "only-classes=speech", "--only=speech"},
  {"csv", "", ""}, {"csv", "skip-classes=silence", "--skip=silence"},
  {"textgrid", "", ""}, {"audacity", "skip-classes=music", "--skip=music"},
  {"textgrid", "only-classes=music", "--only=music"}, {"frames", "channel=2", "--channel=2"},
  {"audacity", "channel=1", "--channel=1"}, {"rttm", "channel=2", "--channel=2"},
  {"summary", "", ""}, {"summary", "skip-classes=silence", "--skip=silence"},
  {"jsonl", "time-origin=\"2026-12-05T11:00:00.5+01:00\"",
      "--time-origin=2026-12-05T11:00:00.5+01:00"},
  {"summary", "time-origin=@1796464800", "--time-origin=@1796464800"},
  {"summary", "time-origin=@0", "--time-origin=@0"}
  };
  const int64_t N = 3 * PT_RATE + 5;
  float *x = pt_signal (2 * N, 25);
  gchar *wav = g_build_filename (pt_tmp_dir (), "e.wav", NULL);
  gchar *txt = g_build_filename (pt_tmp_dir (), "e.txt", NULL);
  gchar *cmd_txt = g_build_filename (pt_tmp_dir (), "e.cmd.txt", NULL);
  gchar *first = NULL;          /* audacity, nothing left out */
  gchar *mean_frames = NULL;    /* frames of the mean of the channels */
  (void) state;

  {                             /* two different channels */
    SF_INFO info = { 0 };
    SNDFILE *sf;
    info.samplerate = PT_RATE;
    info.channels = 2;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    sf = sf_open (wav, SFM_WRITE, &info);
    assert_non_null (sf);
    assert_int_equal (sf_writef_float (sf, x, N), N);
    sf_close (sf);
  }
  for (size_t f = 0; f < G_N_ELEMENTS (cases); f++) {
    const char **c = cases[f];
    gchar *launch, *a = NULL, *b = NULL;
    pt_frames got;

    command_label ((const gchar *[]) { "--smoothing", "none", "--format", c[0], "-o", cmd_txt,
        wav, c[2][0] ? c[2] : NULL, NULL });
    pt_frames_init (&got);
    launch = g_strdup_printf ("filesrc location=%s ! wavparse ! audioconvert ! "
        "audioresample ! seqlabel model=%s name=l smoothing=none label-format=%s %s ! "
        "fakesink sync=true "
        "l.labels ! filesink location=%s", wav, pt_model_path (), c[0], c[1], txt);
    run_pipeline (launch, &got);
    assert_true (g_file_get_contents (txt, &a, NULL, NULL));
    assert_true (g_file_get_contents (cmd_txt, &b, NULL, NULL));
    assert_true (strlen (b) > 0);
    if (!strcmp (c[0], "rttm") || !strcmp (c[0], "summary")) {  /* the element has no file name: "-" */
      gchar **parts = g_strsplit (b, c[0][0] == 'r' ? "SPEAKER e 2 " : "{\"file\":\"e\",", -1);
      g_free (b);
      b = g_strjoinv (c[0][0] == 'r' ? "SPEAKER - 2 " : "{\"file\":\"-\",", parts);
      g_strfreev (parts);
    }
    if (strcmp (a, b) != 0)
      fail_msg ("label-format=%s %s: the labels pad differs from seqlabel label --format %s %s",
          c[0], c[1], c[0], c[2]);
    if (strstr (c[1], "time-origin")) {  /* 2026-12-05T10:00:00Z (or the epoch): its UTC times */
      assert_non_null (strstr (b, strstr (c[1], "@0") ? "utc\":\"1970-01-01T00:00:00." :
              "utc\":\"2026-12-05T10:00:00."));
    } else if (strstr (c[1], "channel")) {     /* not the mean's labels */
      assert_true (strcmp (c[0], "frames") || strcmp (b, mean_frames) != 0);
      assert_true (strcmp (c[0], "audacity") || strcmp (b, first) != 0);
    } else if (c[1][0]) {       /* something was left out */
      assert_true (strcmp (c[0], "audacity") || strlen (b) < strlen (first));
      assert_true (strcmp (c[0], "textgrid") || (strstr (b, "text = \"speech\"") == NULL &&
              strstr (b, "text = \"music\"") != NULL));
    } else if (f == 0) {
      first = g_strdup (b);
    } else if (f == 1) {
      mean_frames = g_strdup (b);
    }
    g_free (a);
    g_free (b);
    g_free (launch);
    pt_frames_free (&got);
  }
  g_remove (wav);
  g_remove (txt);
  g_remove (cmd_txt);
  g_free (wav);
  g_free (txt);
  g_free (cmd_txt);
  g_free (first);
  g_free (mean_frames);
  free (x);
}

/* A frames header past the element's line buffer (40 class names of 64
 * bytes: 2,600 bytes) heads the labels as the command's does: it was dropped,
 * without a word, from 1,024 bytes on. */
static void
test_labels_long_header (void **state)
{
  enum { N_CLASSES = 40 };
  char names[N_CLASSES][SL_MAX_CLASS_NAME + 1], err[SL_ERR_LEN];
  const char *list[N_CLASSES];
  GString *want = g_string_new ("frame\ttime\tlabel\tconfidence");
  gchar *model = g_build_filename (pt_tmp_dir (), "wide.slm", NULL);
  gchar *wav = g_build_filename (pt_tmp_dir (), "wide.wav", NULL);
  gchar *txt = g_build_filename (pt_tmp_dir (), "wide.tsv", NULL);
  gchar *launch, *got = NULL;
  float *x = pt_signal (PT_RATE, 31);
  sl_model *m, *wide;
  pt_frames frames;
  (void) state;

  for (int k = 0; k < N_CLASSES; k++) {
    g_snprintf (names[k], sizeof names[k], "%03d_%s", k,
        "a_class_name_of_sixty_four_bytes_as_sound_event_sets_give_it");
    assert_int_equal (strlen (names[k]), SL_MAX_CLASS_NAME);
    list[k] = names[k];
    g_string_append_printf (want, "\t%s", names[k]);
  }
  g_string_append_c (want, '\n');
  m = sl_model_load (pt_model_path (), err, sizeof err);
  assert_non_null (m);
  wide = sl_model_with_classes (m, list, N_CLASSES, 5, err, sizeof err);
  assert_non_null (wide);
  assert_int_equal (sl_model_save (wide, model, err, sizeof err), 0);
  sl_model_free (wide);
  sl_model_free (m);
  pt_write_wav (wav, x, PT_RATE, PT_RATE, 1);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel model=%s name=l "
      "label-format=frames ! fakesink  l.labels ! filesink location=%s", wav, model, txt);
  pt_frames_init (&frames);
  run_pipeline (launch, &frames);
  assert_true (g_file_get_contents (txt, &got, NULL, NULL));
  if (!g_str_has_prefix (got, want->str) || strncmp (got + want->len, "0\t", 2) != 0)
    fail_msg ("the labels pad's frames table does not start with its %" G_GSIZE_FORMAT
        "-byte header, then frame 0", want->len);
  pt_frames_free (&frames);
  g_remove (model);
  g_remove (wav);
  g_remove (txt);
  g_free (got);
  g_free (launch);
  g_free (model);
  g_free (wav);
  g_free (txt);
  g_string_free (want, TRUE);
  free (x);
}

/* Fails unless the 44.1 kHz stereo 16-bit file at path holds exactly the n
 * sample frames `want`. */
static void
assert_wav_equal (const char *path, const gint16 * want, int64_t n)
{
  SF_INFO info = { 0 };
  SNDFILE *f = sf_open (path, SFM_READ, &info);
  gint16 *got;
  assert_non_null (f);
  assert_int_equal (info.channels, 2);
  assert_int_equal (info.samplerate, 44100);
  assert_int_equal (info.frames, n);
  got = g_new (gint16, 2 * n + 2);
  assert_int_equal (sf_readf_short (f, got, n), n);
  assert_memory_equal (got, want, (size_t) n * 2 * sizeof *got);
  g_free (got);
  sf_close (f);
}

/* gate=drop in a pipeline, and `seqlabel label --target speech --cut`, keep
 * exactly the speech segments that `seqlabel label --target speech` finds in
 * the same 44.1 kHz stereo file (441 input samples a frame, and the samples
 * after the last frame when the last segment reaches it); --cut-silence keeps
 * them in place with zeros elsewhere. */
static void
test_gate_same_as_command (void **state)
{
  const int64_t N = 4 * 44100 + 123;
  float *x = pt_signal (N, 12);
  gchar *wav = g_build_filename (pt_tmp_dir (), "g.wav", NULL);
  gchar *out = g_build_filename (pt_tmp_dir (), "g.out.wav", NULL);
  gchar *segs = g_build_filename (pt_tmp_dir (), "g.txt", NULL);
  /* the command's VAD, then (from args[9] on) its cuts */
  const gchar *args[] = { "--target", "speech", "--on-threshold", "0.45", "--off-threshold",
    "0.4", "-o", segs, wav, NULL, NULL, NULL, NULL
  };
  gchar *launch, *text = NULL;
  int64_t want = 0, n_frames = 0, speech = 0;
  gint16 *in, *kept, *muted;
  SF_INFO info = { 0 };
  SNDFILE *f;
  pt_frames none;
  (void) state;

  pt_write_wav (wav, x, N, 44100, 2);
  command_label (args);

  /* the input, and what the command's segments keep of it */
  f = sf_open (wav, SFM_READ, &info);
  assert_non_null (f);
  in = g_new (gint16, 2 * N);
  assert_int_equal (sf_readf_short (f, in, N), N);
  sf_close (f);
  kept = g_new (gint16, 2 * N);
  muted = g_new0 (gint16, 2 * N);
  assert_true (g_file_get_contents (segs, &text, NULL, NULL));
  {
    /* segments cover every frame: the last one ends at the run's frame count */
    const gchar *last = g_strrstr (g_strchomp (text), "\n");
    double t0, t1;
    assert_int_equal (sscanf (last ? last + 1 : text, "%lf\t%lf", &t0, &t1), 2);
    n_frames = llround (t1 * 100);
  }
  for (gchar * line = strtok (text, "\n"); line; line = strtok (NULL, "\n")) {
    double t0, t1;
    char label[32];
    int64_t f0, f1, s0, s1;
    assert_int_equal (sscanf (line, "%lf\t%lf\t%31s", &t0, &t1, label), 3);
    if (strcmp (label, "speech") != 0)
      continue;
    f0 = llround (t0 * 100);
    f1 = llround (t1 * 100);
    s0 = f0 * 441;
    s1 = f1 == n_frames ? N : f1 * 441; /* past the last frame, its decision holds */
    speech += f1 - f0;
    memcpy (kept + 2 * want, in + 2 * s0, (size_t) (s1 - s0) * 2 * sizeof *in);
    memcpy (muted + 2 * s0, in + 2 * s0, (size_t) (s1 - s0) * 2 * sizeof *in);
    want += s1 - s0;
  }
  assert_true (speech > n_frames / 10 && speech < n_frames - n_frames / 10);

  /* the element */
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel model=%s "
      "target-class=speech threshold-on=0.45 threshold-off=0.4 gate=drop ! wavenc ! "
      "filesink location=%s", wav, pt_model_path (), out);
  pt_frames_init (&none);
  run_pipeline (launch, &none);
  assert_wav_equal (out, kept, want);
  /* gate=silence on planes of 24-bit samples stored in 32 bits (S24_32): the
   * same decisions, each dropped span silenced whole, every sample in place */
  g_free (launch);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! audioconvert ! "
      "audio/x-raw,format=S24_32LE,layout=non-interleaved ! seqlabel model=%s "
      "target-class=speech threshold-on=0.45 threshold-off=0.4 gate=silence ! "
      "audioconvert dithering=none noise-shaping=none ! "
      "audio/x-raw,format=S16LE,layout=interleaved ! wavenc ! filesink location=%s", wav,
      pt_model_path (), out);
  run_pipeline (launch, &none);
  assert_wav_equal (out, muted, N);

  /* the command */
  args[9] = "--cut";
  args[10] = out;
  for (int silence = 0; silence < 2; silence++) {
    args[11] = silence ? "--cut-silence" : NULL;
    g_remove (out);
    command_label (args);
    if (silence)
      assert_wav_equal (out, muted, N);
    else
      assert_wav_equal (out, kept, want);
  }

  g_free (in);
  g_free (kept);
  g_free (muted);
  g_free (text);
  g_free (launch);
  g_remove (wav);
  g_remove (out);
  g_remove (segs);
  g_free (wav);
  g_free (out);
  g_free (segs);
  pt_frames_free (&none);
  free (x);
}

/* Plays pipe (launch) on to EOS within `seconds` (an error, or none, fails the
 * test, `what` saying when), and stops it. */
static void
play_to_eos (GstElement * pipe, GstBus * bus, int seconds, const gchar * launch,
    const gchar * what)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, seconds * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS)
    fail_msg ("%s: %s %s", launch, msg ? "an error" : "no EOS in time", what);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
}

/* Plays pipe on to EOS after `what` (within 20 s), stops it, and asserts that
 * the labels pad's file txt holds what seqlabel label wrote into cmd_txt, not
 * nothing; returns that text. */
static gchar *
labels_file_at_eos (GstElement * pipe, GstBus * bus, const gchar * launch, const gchar * what,
    const gchar * txt, const gchar * cmd_txt)
{
  gchar *a = NULL, *b = NULL;
  gchar *after = g_strdup_printf ("after %s", what);
  play_to_eos (pipe, bus, 20, launch, after);
  g_free (after);
  assert_true (g_file_get_contents (txt, &a, NULL, NULL));
  assert_true (g_file_get_contents (cmd_txt, &b, NULL, NULL));
  assert_true (strlen (b) > 0);
  if (strcmp (a, b) != 0)
    fail_msg ("the labels pad after %s differs from seqlabel label's:\n%.200s\n%.200s", what,
        a, b);
  g_free (a);
  return b;
}

/* A pause while playing, labels pad linked: the labels sink must preroll again
 * though the labels of the audio that prerolls the audio sink are a second
 * away, so PAUSED is reached (it was not: the pipeline hung there), and after
 * PLAYING again the labels file is the command's for the same file. */
static void
test_pause_while_playing (void **state)
{
  const int64_t N = 3 * PT_RATE;
  float *x = pt_signal (N, 26);
  gchar *wav = g_build_filename (pt_tmp_dir (), "p.wav", NULL);
  gchar *txt = g_build_filename (pt_tmp_dir (), "p.txt", NULL);
  gchar *cmd_txt = g_build_filename (pt_tmp_dir (), "p.cmd.txt", NULL);
  gchar *launch;
  GstElement *pipe;
  GstBus *bus;
  (void) state;

  pt_write_wav (wav, x, N, PT_RATE, 1);
  command_label ((const gchar *[]) { "-o", cmd_txt, wav, NULL });
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel model=%s name=l ! "
      "fakesink sync=true l.labels ! filesink location=%s", wav, pt_model_path (), txt);
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  bus = gst_element_get_bus (pipe);
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  for (int k = 0; k < 2; k++) { /* twice: 0.4 s and 1.2 s into the file */
    g_usleep (k ? 800000 : 400000);
    gst_element_set_state (pipe, GST_STATE_PAUSED);
    assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND),
        GST_STATE_CHANGE_SUCCESS);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
  }
  g_free (labels_file_at_eos (pipe, bus, launch, "the pauses", txt, cmd_txt));
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_remove (wav);
  g_remove (txt);
  g_remove (cmd_txt);
  g_free (wav);
  g_free (txt);
  g_free (cmd_txt);
  g_free (launch);
  free (x);
}

/* The labels pad and a flushing seek: filesink starts its file anew at the
 * flush, and the format's header comes again after it, so a WebVTT file read
 * after a seek to 0 right after preroll (as players do) is still the file
 * `seqlabel label --format webvtt` writes, header and all; the same for the
 * frames table's header line, and for SubRip's cue numbers, which start again
 * at 1 (a seek while playing, once a cue went out). */
static void
test_header_after_seek (void **state)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 27);
  gchar *wav = g_build_filename (pt_tmp_dir (), "h.wav", NULL);
  (void) state;

  pt_write_wav (wav, x, N, PT_RATE, 1);
  for (int k = 0; k < 3; k++) {
    const char *format = (const char *[]) { "webvtt", "frames", "srt" }[k];
    gchar *txt = g_build_filename (pt_tmp_dir (), "h.txt", NULL);
    gchar *cmd_txt = g_build_filename (pt_tmp_dir (), "h.cmd.txt", NULL);
    /* SubRip: played in real time until a cue went out, without smoothing (the
     * test model's labels flicker), so that cues numbered from 1 went out
     * before the seek; after it they are numbered from 1 again */
    const char *smoothing = k == 2 ? "none" : "viterbi";
    gchar *launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel model=%s "
        "name=l label-format=%s smoothing=%s ! fakesink sync=%s l.labels ! "
        "filesink buffer-mode=unbuffered location=%s", wav, pt_model_path (), format,
        smoothing, k == 2 ? "true" : "false", txt);
    gchar *b;
    GstElement *pipe = gst_parse_launch (launch, NULL);
    GstBus *bus;

    command_label ((const gchar *[]) { "--format", format, "--smoothing", smoothing, "-o",
        cmd_txt, wav, NULL });
    assert_non_null (pipe);
    bus = gst_element_get_bus (pipe);
    gst_element_set_state (pipe, k == 2 ? GST_STATE_PLAYING : GST_STATE_PAUSED);
    assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
        GST_STATE_CHANGE_SUCCESS);
    for (int waited = 0; k == 2; waited++) {   /* until a cue went out (20 s at most) */
      gchar *before = NULL;
      gboolean cue;
      g_usleep (100000);
      assert_true (g_file_get_contents (txt, &before, NULL, NULL));
      cue = g_str_has_prefix (before, "1\n") && strstr (before, "\n\n") != NULL;
      g_free (before);
      if (cue)
        break;
      if (waited == 200)
        fail_msg ("no cue after 20 s of playing");
    }
    assert_true (gst_element_seek_simple (pipe, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0));
    assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
        GST_STATE_CHANGE_SUCCESS);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    b = labels_file_at_eos (pipe, bus, launch, "the seek to 0", txt, cmd_txt);
    assert_true (g_str_has_prefix (b, (const char *[]) { "WEBVTT\n", "frame\t", "1\n" }[k]));
    gst_object_unref (bus);
    gst_object_unref (pipe);
    g_remove (txt);
    g_remove (cmd_txt);
    g_free (txt);
    g_free (cmd_txt);
    g_free (launch);
    g_free (b);
  }
  g_remove (wav);
  g_free (wav);
  free (x);
}

static gboolean unlink_first; /* release_labels: unlink the pad first, as with a tee */

static gpointer
release_labels (gpointer element)
{
  GstPad *pad = gst_element_get_static_pad (element, "labels");
  if (unlink_first) {
    GstPad *peer = gst_pad_get_peer (pad);
    assert_non_null (peer);
    assert_true (gst_pad_unlink (pad, peer));
    gst_object_unref (peer);
  }
  gst_element_release_request_pad (element, pad);
  gst_object_unref (pad);
  return NULL;
}

static gpointer
set_state_paused (gpointer pipe)
{
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  return NULL;
}

/* Paused while the labels queue is full (labels per frame to a sink that
 * keeps time, audio to one that does not: the audio runs minutes ahead): the
 * state change returns and PAUSED is reached, the audio sink prerolling as the
 * labels sink does (it hung: the pause's gap and the streaming thread waited
 * on a queue that a paused sink drains no more), then the pipeline stops. */
static void
test_pause_with_labels_queue_full (void **state)
{
  gchar *launch;
  GstElement *pipe;
  GThread *t;
  gint64 deadline;
  (void) state;

  launch = g_strdup_printf ("audiotestsrc num-buffers=1000 samplesperbuffer=9600 ! "
      "audio/x-raw,rate=%d,channels=1 ! seqlabel model=%s name=l label-format=frames ! "
      "fakesink sync=false  l.labels ! fakesink sync=true", PT_RATE, pt_model_path ());
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  /* 600 s of audio: the queue's 20,000 frames are labelled in a few seconds */
  g_usleep (4 * G_USEC_PER_SEC);
  t = g_thread_new ("pause", set_state_paused, pipe);
  deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  for (;;) {
    GstState now, pending;
    if (gst_element_get_state (pipe, &now, &pending, 0) != GST_STATE_CHANGE_ASYNC &&
        now == GST_STATE_PAUSED && pending == GST_STATE_VOID_PENDING)
      break;
    if (g_get_monotonic_time () > deadline)
      fail_msg ("paused with the labels queue full: not PAUSED in 10 s (%s)", launch);
    g_usleep (10000);
  }
  g_thread_join (t);
  assert_int_equal (gst_element_set_state (pipe, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipe);
  g_free (launch);
}

/* What reaches a pad after the buffer it failed: counted by a probe. */
static GstPadProbeReturn
count_after_failure (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  gint *seen = user;            /* [0]: buffers so far, [1]: items after the 5th buffer */
  (void) pad;
  if (g_atomic_int_get (&seen[0]) >= 5) /* identity error-after=5 failed the 5th */
    g_atomic_int_inc (&seen[1]);
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER)
    g_atomic_int_inc (&seen[0]);
  return GST_PAD_PROBE_OK;
}

/* A failure downstream of the labels pad is said by the element, once, naming
 * the labels pad and the flow, and the audio stops with it (as at a tee's
 * branch): the source gets the flow error, and says so. Nothing more goes to
 * the failed branch (7 more items went, each later buffer failing again). */
static void
test_labels_branch_failure (void **state)
{
  gchar *launch;
  GstElement *pipe;
  GstBus *bus;
  gboolean said = FALSE, stopped = FALSE;
  gint seen[2] = { 0, 0 }, errors = 0;
  (void) state;

  /* live, 3 s: the audio is still coming when the labels branch fails */
  launch = g_strdup_printf ("audiotestsrc is-live=true num-buffers=30 samplesperbuffer=1600 ! "
      "audio/x-raw,rate=%d,channels=1 ! seqlabel model=%s name=l label-format=frames ! "
      "fakesink  l.labels ! identity name=failing error-after=5 ! fakesink", PT_RATE,
      pt_model_path ());
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  {
    GstElement *id = gst_bin_get_by_name (GST_BIN (pipe), "failing");
    GstPad *sink = gst_element_get_static_pad (id, "sink");
    gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        count_after_failure, seen, NULL);
    gst_object_unref (sink);
    gst_object_unref (id);
  }
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (GstMessage * m; (m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
              GST_MESSAGE_ERROR | GST_MESSAGE_EOS)) != NULL;) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {   /* (a source sends it after an error) */
      gst_message_unref (m);
      break;
    }
    GError *e = NULL;
    gst_message_parse_error (m, &e, NULL);
    if (!strcmp (GST_OBJECT_NAME (GST_MESSAGE_SRC (m)), "l")
        && strstr (e->message, "the labels pad's downstream failed (error)"))
      said = TRUE, errors++;
    if (g_str_has_prefix (GST_OBJECT_NAME (GST_MESSAGE_SRC (m)), "audiotestsrc"))
      stopped = TRUE;
    g_error_free (e);
    gst_message_unref (m);
  }
  if (!said || !stopped)
    fail_msg ("a failure after the labels pad: %s%s", said ? "said" : "not said by the element",
        stopped ? ", the audio stopped" : ", the audio went on");
  gst_element_set_state (pipe, GST_STATE_NULL);
  if (errors != 1 || g_atomic_int_get (&seen[1]) != 0)
    fail_msg ("after the labels branch failed: said %d times, %d more items sent to it", errors,
        g_atomic_int_get (&seen[1]));
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (launch);
}

/* GStreamer's criticals (g_return_if_fail), counted, not printed. */
static guint criticals;

static void
count_criticals (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer data)
{
  (void) data;
  if (level & G_LOG_LEVEL_CRITICAL)
    criticals++;
  else
    g_log_default_handler (domain, level, message, NULL);
}

/* Caps the labels pad's peer refuses (label-format set to JSON Lines after
 * the pad was linked to a Matroska muxer's subtitle pad) are said as the
 * branch's failure, once, and nothing more goes there: the first gap used to
 * reach the muxer's collectpads with no segment, a GStreamer-CRITICAL. */
static void
test_labels_caps_refused (void **state)
{
  gchar *launch;
  GstElement *pipe, *l;
  GstBus *bus;
  GLogFunc old;
  gint said = 0;
  (void) state;

  launch = g_strdup_printf ("audiotestsrc num-buffers=40 samplesperbuffer=1600 ! "
      "audio/x-raw,rate=%d,channels=1 ! seqlabel model=%s name=l ! audioconvert ! "
      "vorbisenc ! queue ! matroskamux name=m ! fakesink  l.labels ! queue ! m.", PT_RATE,
      pt_model_path ());
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  l = gst_bin_get_by_name (GST_BIN (pipe), "l");
  assert_int_equal (gst_element_set_state (pipe, GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  gst_util_set_object_arg (G_OBJECT (l), "label-format", "jsonl");
  criticals = 0;
  old = g_log_set_default_handler (count_criticals, NULL);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (GstMessage * m; (m = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
              GST_MESSAGE_ERROR | GST_MESSAGE_EOS)) != NULL;) {
    GError *e = NULL;
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &e, NULL);
      if (GST_MESSAGE_SRC (m) == GST_OBJECT (l)
          && strstr (e->message, "the labels pad's downstream failed (not-negotiated)"))
        said++;
      g_error_free (e);
    }
    gst_message_unref (m);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_log_set_default_handler (old, NULL);
  if (said != 1 || criticals != 0)
    fail_msg ("labels caps refused: said %d times (once wanted), %u GStreamer-CRITICAL", said,
        criticals);
  gst_object_unref (l);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (launch);
}

/* Releasing the labels pad in PAUSED, while its task waits in a prerolled
 * sink's push, returns (the sink it pushes to gets a flush-start to let the task go),
 * also when the application unlinked the pad first, and the pipeline then
 * plays to its end. */
static void
release_labels_in_paused (gboolean unlink)
{
  const int64_t N = 2 * PT_RATE;
  float *x = pt_signal (N, 28);
  gchar *wav = g_build_filename (pt_tmp_dir (), "r.wav", NULL);
  gchar *launch;
  GstElement *pipe, *l;
  GstBus *bus;
  GThread *t;
  gint64 deadline;

  pt_write_wav (wav, x, N, PT_RATE, 1);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel model=%s name=l "
      "label-format=frames ! fakesink l.labels ! fakesink name=ls", wav, pt_model_path ());
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  bus = gst_element_get_bus (pipe);
  l = gst_bin_get_by_name (GST_BIN (pipe), "l");
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  assert_int_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  g_usleep (200000); /* the labels task is in the sink's preroll wait by now */
  unlink_first = unlink;
  t = g_thread_new ("release", release_labels, l);
  deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  for (GstPad * still; (still = gst_element_get_static_pad (l, "labels")) != NULL;) {
    gst_object_unref (still);
    if (g_get_monotonic_time () > deadline)
      fail_msg ("releasing the labels pad in PAUSED did not return in 10 s");
    g_usleep (10000);
  }
  g_thread_join (t);
  {
    GstElement *ls = gst_bin_get_by_name (GST_BIN (pipe), "ls");
    gst_element_set_state (ls, GST_STATE_NULL);
    gst_bin_remove (GST_BIN (pipe), ls);
    gst_object_unref (ls);
  }
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  play_to_eos (pipe, bus, 20, launch, "after the release");
  gst_object_unref (l);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_remove (wav);
  g_free (wav);
  g_free (launch);
  free (x);
}

/* Per sink of the labels pad: what came before its first buffer. */
typedef struct
{
  gboolean stream_start, caps, segment, checked;
  gint *bad;
} FirstBuffer;

static GstPadProbeReturn
first_buffer_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user)
{
  FirstBuffer *f = user;
  (void) pad;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    if (!f->checked && !(f->stream_start && f->caps && f->segment))
      g_atomic_int_inc (f->bad);
    g_atomic_int_set (&f->checked, TRUE);
  } else if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEventType t = GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info));
    f->stream_start |= t == GST_EVENT_STREAM_START;
    f->caps |= t == GST_EVENT_CAPS;
    f->segment |= t == GST_EVENT_SEGMENT;
  }
  return GST_PAD_PROBE_OK;
}

/* The labels pad requested, linked, unlinked and released again and again
 * while audio flows as fast as it can: every sink gets stream-start, caps and
 * segment before its first buffer. A request between the streaming thread's
 * preparing a line and its queueing it let that line go out first (3 to 16
 * of 1000 requests). */
static void
test_request_again_while_flowing (void **state)
{
  gchar *launch = g_strdup_printf ("audiotestsrc wave=pink-noise samplesperbuffer=1600 ! "
      "audio/x-raw,rate=%d,channels=1 ! seqlabel model=%s name=l label-format=jsonl ! "
      "fakesink sync=false", PT_RATE, pt_model_path ());
  GstElement *pipe = gst_parse_launch (launch, NULL), *l;
  gint bad = 0, got = 0;
  (void) state;

  assert_non_null (pipe);
  l = gst_bin_get_by_name (GST_BIN (pipe), "l");
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  for (int i = 0; i < 2000; i++) {
    GstElement *sink = gst_element_factory_make ("fakesink", NULL);
    GstPad *sinkpad = gst_element_get_static_pad (sink, "sink"), *pad;
    FirstBuffer *f = g_new0 (FirstBuffer, 1);
    f->bad = &bad;
    g_object_set (sink, "sync", FALSE, "async", FALSE, NULL);
    gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        first_buffer_probe, f, g_free);
    gst_bin_add (GST_BIN (pipe), sink);
    gst_element_sync_state_with_parent (sink);
    pad = gst_element_request_pad_simple (l, "labels");
    assert_non_null (pad);
    assert_int_equal (gst_pad_link (pad, sinkpad), GST_PAD_LINK_OK);
    /* requested at any moment of the flow; then the first buffer waited for
     * (50 ms at most), so that a loaded machine checks as many sinks */
    g_usleep (2000);
    for (int w = 0; w < 50 && !g_atomic_int_get (&f->checked); w++)
      g_usleep (1000);
    gst_pad_unlink (pad, sinkpad);
    gst_element_release_request_pad (l, pad);
    gst_object_unref (pad);
    got += f->checked;
    gst_element_set_state (sink, GST_STATE_NULL);
    gst_bin_remove (GST_BIN (pipe), sink);
    gst_object_unref (sinkpad);
  }
  printf ("2000 requests while audio flows: %d sinks got a buffer, %d of them before "
      "stream-start, caps or segment\n", got, bad);
  assert_true (got > 1000);
  assert_int_equal (bad, 0);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (l);
  gst_object_unref (pipe);
  g_free (launch);
}

static void
test_release_labels_in_paused (void **state)
{
  (void) state;
  release_labels_in_paused (FALSE);
  release_labels_in_paused (TRUE);
}

/* Paused after playing a while, then the labels pad released while its task
 * waits in the filesink's preroll: the labels written stay in the file (a
 * flush-stop would have made filesink truncate it). */
static void
test_release_keeps_labels_file (void **state)
{
  const int64_t N = 6 * PT_RATE;
  float *x = pt_signal (N, 29);
  gchar *wav = g_build_filename (pt_tmp_dir (), "k.wav", NULL);
  gchar *txt = g_build_filename (pt_tmp_dir (), "k.tsv", NULL);
  gchar *launch, *text = NULL;
  GstElement *pipe, *l, *ls;
  GstPad *pad;
  gsize len = 0;
  int lines = 0;
  (void) state;

  pt_write_wav (wav, x, N, PT_RATE, 1);
  launch = g_strdup_printf ("filesrc location=%s ! wavparse ! seqlabel model=%s name=l "
      "label-format=frames ! fakesink sync=true l.labels ! filesink name=ls location=%s",
      wav, pt_model_path (), txt);
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  l = gst_bin_get_by_name (GST_BIN (pipe), "l");
  ls = gst_bin_get_by_name (GST_BIN (pipe), "ls");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  g_usleep (2500000);           /* in real time: more than the latency of labels */
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  assert_int_not_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_FAILURE);
  g_usleep (200000);
  pad = gst_element_get_static_pad (l, "labels");
  gst_element_release_request_pad (l, pad);
  gst_object_unref (pad);
  gst_element_set_state (ls, GST_STATE_NULL);
  assert_true (g_file_get_contents (txt, &text, &len, NULL));
  for (gsize i = 0; i < len; i++)
    lines += text[i] == '\n';
  if (lines < 21 || strncmp (text, "frame\ttime\tlabel\t", 17) || text[len - 1] != '\n')
    fail_msg ("%d lines in %s (%zu bytes): the labels written before the release; "
        "it ends: %s", lines, txt, len, len > 80 ? text + len - 80 : text);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (ls);
  gst_object_unref (l);
  gst_object_unref (pipe);
  g_remove (wav);
  g_remove (txt);
  g_free (wav);
  g_free (txt);
  g_free (text);
  g_free (launch);
  free (x);
}

/* One buffer whose labels pass the queue's bound (250 s of frames: 25,000
 * lines) still prerolls: before PLAYING the labels sink waits for PLAYING and
 * the audio sink for that very buffer, so the queue may not block it then. */
static void
test_one_large_buffer_prerolls (void **state)
{
  const int64_t N = 250 * PT_RATE;
  gint16 *pcm = g_new0 (gint16, N);
  GstElement *pipe, *src;
  GstBus *bus;
  GstBuffer *b;
  gchar *launch;
  gchar *txt = g_build_filename (pt_tmp_dir (), "big.tsv", NULL);
  gchar *text = NULL;
  gsize len = 0;
  int lines = 0;
  (void) state;

  for (int64_t i = 0; i < N; i++)
    pcm[i] = (gint16) (((i * 7919) % 2001) - 1000);
  launch = g_strdup_printf ("appsrc name=src format=time caps=audio/x-raw,format=S16LE,"
      "rate=16000,channels=1,layout=interleaved ! seqlabel model=%s name=l "
      "label-format=frames ! fakesink l.labels ! filesink location=%s", pt_model_path (), txt);
  pipe = gst_parse_launch (launch, NULL);
  assert_non_null (pipe);
  bus = gst_element_get_bus (pipe);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  b = gst_buffer_new_wrapped (pcm, (gsize) N * sizeof *pcm);
  GST_BUFFER_PTS (b) = 0;
  GST_BUFFER_DURATION (b) = 250 * GST_SECOND;
  assert_int_equal (gst_app_src_push_buffer (GST_APP_SRC (src), b), GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  play_to_eos (pipe, bus, 60, launch, "with one 250 s buffer");
  assert_true (g_file_get_contents (txt, &text, &len, NULL));
  for (gsize i = 0; i < len; i++)
    lines += text[i] == '\n';
  assert_int_equal (lines, 1 + expected_frames (N)); /* the header and every frame */
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_remove (txt);
  g_free (txt);
  g_free (text);
  g_free (launch);
}

/* The JSON Lines frames that came out of appsink "out", each with the time of
 * day when its buffer came (appsink's new-sample, on the labels pad's task). */
typedef struct {
  GMutex lock;
  GPtrArray *lines;             /* gchar *: one frame's object */
  GArray *came;                 /* gdouble: seconds since 1970 */
} UtcLines;

static GstFlowReturn
utc_line_came (GstAppSink * sink, gpointer user)
{
  UtcLines *u = user;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  gdouble now = g_get_real_time () / 1e6;
  GstMapInfo map;

  if (sample == NULL)
    return GST_FLOW_EOS;
  if (gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ)) {
    gchar *text = g_strndup ((const gchar *) map.data, map.size);
    gchar **lines = g_strsplit (text, "\n", -1);
    g_mutex_lock (&u->lock);
    for (gchar ** l = lines; *l != NULL; l++)
      if (**l != '\0') {
        g_ptr_array_add (u->lines, g_strdup (*l));
        g_array_append_val (u->came, now);
      }
    g_mutex_unlock (&u->lock);
    g_strfreev (lines);
    g_free (text);
    gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  }
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* Gathers what appsink `name` of pipe gets into u. */
static void
utc_lines_from (GstElement * pipe, const gchar * name, UtcLines * u)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), name);
  GstAppSinkCallbacks cb = { 0 };

  assert_non_null (sink);
  cb.new_sample = utc_line_came;
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, u, NULL);
  gst_object_unref (sink);
}

/* Plays `launch` (its labels into appsink "out", gathered in u, and when segs
 * is not NULL appsink "segs" into segs) for play_us, pauses it for pause_us,
 * plays it again for again_us and then sends EOS (again_us 0: waits for the
 * source's own), and stops it. *paused and *resumed: the time of day just
 * before the pause and the resume. */
static void
play_pause_play (const gchar * launch, UtcLines * u, UtcLines * segs, gulong play_us,
    gulong pause_us, gulong again_us, gdouble * paused, gdouble * resumed)
{
  GError *e = NULL;
  GstElement *pipe = gst_parse_launch (launch, &e);
  GstBus *bus;

  if (pipe == NULL)
    fail_msg ("%s: %s", launch, e ? e->message : "?");
  utc_lines_from (pipe, "out", u);
  if (segs != NULL)
    utc_lines_from (pipe, "segs", segs);
  bus = gst_element_get_bus (pipe);
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  assert_int_not_equal (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND),
      GST_STATE_CHANGE_FAILURE);
  g_usleep (play_us);
  *paused = g_get_real_time () / 1e6;
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  assert_int_not_equal (gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND),
      GST_STATE_CHANGE_FAILURE);
  g_usleep (pause_us);
  *resumed = g_get_real_time () / 1e6;
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  if (again_us > 0) {
    g_usleep (again_us);
    gst_element_send_event (pipe, gst_event_new_eos ());
  }
  play_to_eos (pipe, bus, 10, launch, "after a pause");
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

/* A frame's "frame", "time" and "utc" (seconds since 1970). */
static void
utc_line_parse (const gchar * line, gint64 * frame, gdouble * time, gdouble * utc)
{
  const gchar *f = strstr (line, "\"frame\":"), *t = strstr (line, "\"time\":");

  if (f == NULL || t == NULL)
    fail_msg ("not a frame's line: %s", line);
  *frame = g_ascii_strtoll (f + strlen ("\"frame\":"), NULL, 10);
  *time = g_ascii_strtod (t + strlen ("\"time\":"), NULL);
  *utc = test_utc_seconds (line, "utc");
}

static void
utc_lines_init (UtcLines * u)
{
  g_mutex_init (&u->lock);
  u->lines = g_ptr_array_new_with_free_func (g_free);
  u->came = g_array_new (FALSE, FALSE, sizeof (gdouble));
}

static void
utc_lines_clear (UtcLines * u)
{
  g_ptr_array_unref (u->lines);
  g_array_unref (u->came);
  g_mutex_clear (&u->lock);
}

/* Over the labels of a live pipeline (jsonl frames on the appsink "out") that
 * came before its EOS: how many, how often the frames were counted anew, and
 * how long after its frame's time of day each came. */
typedef struct
{
  guint labels, restarts;
  gdouble min_lag, max_lag;
} LiveLags;

/* Plays launch for first_us, then, with seek, seeks (flushing) to 0 and plays
 * then_us more, then ends it with an EOS. */
static LiveLags
live_lags (const gchar * launch, gulong first_us, gboolean seek, gulong then_us,
    const gchar * what)
{
  GError *e = NULL;
  GstElement *pipe = gst_parse_launch (launch, &e);
  GstBus *bus;
  UtcLines u;
  LiveLags r = { 0, 0, 1e9, -1e9 };
  gint64 last_frame = -1;
  gdouble eos;

  if (pipe == NULL)
    fail_msg ("%s: %s", launch, e ? e->message : "?");
  utc_lines_init (&u);
  utc_lines_from (pipe, "out", &u);
  bus = gst_element_get_bus (pipe);
  assert_int_not_equal (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  g_usleep (first_us);
  if (seek) {
    assert_true (gst_element_seek_simple (pipe, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0));
    g_usleep (then_us);
  }
  eos = g_get_real_time () / 1e6;
  gst_element_send_event (pipe, gst_event_new_eos ());
  play_to_eos (pipe, bus, 10, launch, what);
  for (guint i = 0; i < u.lines->len && g_array_index (u.came, gdouble, i) < eos; i++) {
    gint64 frame;
    gdouble time, utc, lag;
    utc_line_parse (g_ptr_array_index (u.lines, i), &frame, &time, &utc);
    r.restarts += frame < last_frame;
    last_frame = frame;
    lag = g_array_index (u.came, gdouble, i) - utc;
    r.min_lag = MIN (r.min_lag, lag);
    r.max_lag = MAX (r.max_lag, lag);
    r.labels++;
  }
  gst_object_unref (bus);
  gst_object_unref (pipe);
  utc_lines_clear (&u);
  return r;
}

/* time-origin=now behind a live source and a queue that holds its audio for
 * 0.5 s: each frame's "utc" is when its audio was captured (its running time on
 * the clock), not when it reached the element, so every label comes at least
 * the queue's hold after it. It was the arrival: 0.5 s late on every frame.
 * (At the EOS the queue lets what it holds go at once: those labels aside.) */
static void
test_live_queue_time_of_day (void **state)
{
  gchar *launch = g_strdup_printf ("audiotestsrc is-live=true samplesperbuffer=160 "
      "wave=sine ! audio/x-raw,rate=%d,channels=1 ! queue min-threshold-time=500000000 "
      "max-size-time=2000000000 max-size-buffers=0 max-size-bytes=0 ! seqlabel model=%s "
      "name=l label-format=jsonl time-origin=now max-latency=0.1 ! fakesink "
      "l.labels ! appsink name=out sync=false", PT_RATE, pt_model_path ());
  LiveLags r = live_lags (launch, 2000000, FALSE, 0, "behind a queue");
  (void) state;

  printf ("behind a 0.5 s queue: %u frames labelled before the EOS, each label %.3f to "
      "%.3f s after its frame's time of day\n", r.labels, r.min_lag, r.max_lag);
  assert_true (r.labels > 50);
  assert_true (r.min_lag > 0.45 && r.max_lag < 1.2);
  g_free (launch);
}

/* time-origin=now behind a live source through a flushing seek 1.5 s in: the
 * running time starts anew, and with it the stream time (its frames counted
 * from 0 again), so the audio after it takes a new origin: every label comes
 * shortly after its frame's time of day. It kept the first origin: the frames
 * after the seek were the 1.5 s played before it early. */
static void
test_live_flush_time_of_day (void **state)
{
  gchar *launch = g_strdup_printf ("audiotestsrc is-live=true samplesperbuffer=160 "
      "wave=sine ! audio/x-raw,rate=%d,channels=1 ! seqlabel model=%s name=l "
      "label-format=jsonl time-origin=now max-latency=0.1 ! fakesink l.labels ! "
      "appsink name=out sync=false", PT_RATE, pt_model_path ());
  LiveLags r = live_lags (launch, 1500000, TRUE, 1500000, "after a flushing seek");
  (void) state;

  printf ("through a flushing seek: %u frames labelled before the EOS, the frames counted "
      "anew %u time(s), each label %.3f to %.3f s after its frame's time of day\n",
      r.labels, r.restarts, r.min_lag, r.max_lag);
  assert_true (r.labels > 100);
  assert_int_equal (r.restarts, 1);
  assert_true (r.min_lag > -0.05 && r.max_lag < 0.8);
  g_free (launch);
}

/* time-origin=now behind a live source paused for 1.5 s: a live source's
 * time (the running time) stands still while paused, the time of day does
 * not. Each frame's "utc" is when its audio was captured: the frames are
 * contiguous in stream time, and their times of day jump once, by the pause,
 * between the last frame captured before it and the first after it (those
 * before keep theirs, though the labeler's latency puts some of their labels
 * after the resume); every label comes shortly after its frame's time of day
 * (the pause added for the labels of frames before it that came after it).
 * It drifted: each frame after the pause was the pause's length early. A
 * second element (jsonl-segments) on the same audio: each segment's start has
 * its frame's time of day, and its end that plus its length, also the one
 * across the pause (a steady tone's). */
static void
test_live_pause_time_of_day (void **state)
{
  gchar *launch = g_strdup_printf ("audiotestsrc is-live=true samplesperbuffer=160 "
      "wave=sine ! audio/x-raw,rate=%d,channels=1 ! tee name=t ! queue ! seqlabel "
      "model=%s name=l label-format=jsonl time-origin=now max-latency=0.1 ! fakesink "
      "l.labels ! appsink name=out sync=false  t. ! queue ! seqlabel model=%s name=s "
      "label-format=jsonl-segments time-origin=now max-latency=0.1 ! fakesink s.labels ! "
      "appsink name=segs sync=false", PT_RATE, pt_model_path (), pt_model_path ());
  UtcLines u, segs;
  gdouble paused, resumed, pause, max_lag = -1e9, min_lag = 1e9;
  gint64 *frames, jump = -1;
  gdouble *times, *utcs, *came;
  guint n, last, across = 0;
  (void) state;

  utc_lines_init (&u);
  utc_lines_init (&segs);
  play_pause_play (launch, &u, &segs, 1500000, 1500000, 1500000, &paused, &resumed);
  pause = resumed - paused;
  n = u.lines->len;
  assert_true (n > 200);
  frames = g_new (gint64, n);
  times = g_new (gdouble, n);
  utcs = g_new (gdouble, n);
  came = (gdouble *) u.came->data;
  for (guint i = 0; i < n; i++)
    utc_line_parse (g_ptr_array_index (u.lines, i), &frames[i], &times[i], &utcs[i]);
  for (last = 0; last + 1 < n && came[last + 1] < paused; last++)
    ;
  printf ("paused %.3f s; a label came %.3f s after its frame's \"utc\" before the pause "
      "(the last), %.3f s at the end\n", pause, came[last] - utcs[last],
      came[n - 1] - utcs[n - 1]);
  for (guint i = 1; i < n; i++) {
    gdouble step = (utcs[i] - utcs[i - 1]) - (times[i] - times[i - 1]);
    assert_int_equal (frames[i], frames[i - 1] + 1);
    assert_true (fabs (times[i] - times[i - 1] - 0.01) < 1e-5);
    if (fabs (step) > 1e-5) {
      printf ("time of day: %.3f s on between frames %" G_GINT64_FORMAT " and %"
          G_GINT64_FORMAT "; before it %.3f s from the pause, after it %.3f s from "
          "the resume\n", step, frames[i - 1], frames[i], utcs[i - 1] - paused,
          utcs[i] - resumed);
      assert_int_equal (jump, -1);      /* one jump */
      jump = frames[i];
      assert_true (fabs (step - pause) < 0.3);
      assert_true (utcs[i - 1] < paused + 0.3);
      assert_true (utcs[i] > resumed - 0.3);
    }
  }
  /* each label after its frame's time of day, by the labeler's latency and a
   * little more (and the pause, for a frame before it labelled after it) */
  for (guint i = 0; i < n; i++) {
    gdouble lag = came[i] - utcs[i] - (frames[i] < jump && came[i] >= resumed ? pause : 0);
    max_lag = MAX (max_lag, lag);
    min_lag = MIN (min_lag, lag);
  }
  printf ("%u frames; each label %.3f to %.3f s after its frame's time of day\n", n,
      min_lag, max_lag);
  assert_true (min_lag > -0.3 && max_lag < 0.6);
  assert_true (jump > 0);

  /* the segments' ends at their frames' times of day (the other element's,
   * whose moments were taken apart from these: a few ms) */
  assert_true (segs.lines->len > 0);
  for (guint i = 0; i < segs.lines->len; i++) {
    const gchar *line = g_ptr_array_index (segs.lines, i);
    const gchar *a = strstr (line, "\"start_frame\":"), *b = strstr (line, "\"end_frame\":");
    gint64 start, end;
    gdouble start_utc = test_utc_seconds (line, "start_utc");
    gdouble end_utc = test_utc_seconds (line, "end_utc");
    assert_true (a != NULL && b != NULL);
    start = g_ascii_strtoll (a + strlen ("\"start_frame\":"), NULL, 10) - frames[0];
    end = g_ascii_strtoll (b + strlen ("\"end_frame\":"), NULL, 10) - frames[0];
    if (start >= 0 && start < n)
      assert_true (fabs (start_utc - utcs[start]) < 0.05);
    assert_true (fabs (end_utc - start_utc - (end - start) * 0.01) < 1e-5);
    if (start + frames[0] < jump && end + frames[0] > jump) {
      printf ("a segment across the pause: frames %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
          ", %.3f s of audio from %.3f s before the pause\n", start + frames[0],
          end + frames[0], (end - start) * 0.01, paused - start_utc);
      across++;
    }
  }
  assert_int_equal (across, 1);
  utc_lines_clear (&segs);
  g_free (frames);
  g_free (times);
  g_free (utcs);
  utc_lines_clear (&u);
  g_free (launch);
}

/* time-origin=now behind a source that is not live (a file's time, not the
 * time of day): every frame's "utc" is the moment its first audio came plus
 * its stream time, a pause or not. */
static void
test_pause_time_of_day_not_live (void **state)
{
  gchar *launch = g_strdup_printf ("audiotestsrc num-buffers=200 samplesperbuffer=160 "
      "wave=pink-noise ! audio/x-raw,rate=%d,channels=1 ! seqlabel model=%s name=l "
      "label-format=jsonl time-origin=now ! fakesink sync=true l.labels ! "
      "appsink name=out sync=false", PT_RATE, pt_model_path ());
  UtcLines u;
  gdouble paused, resumed, origin = 0, start = g_get_real_time () / 1e6;
  (void) state;

  utc_lines_init (&u);
  play_pause_play (launch, &u, NULL, 800000, 500000, 0, &paused, &resumed);
  assert_int_equal (u.lines->len, expected_frames (200 * 160));
  for (guint i = 0; i < u.lines->len; i++) {
    gint64 frame;
    gdouble time, utc;
    utc_line_parse (g_ptr_array_index (u.lines, i), &frame, &time, &utc);
    assert_int_equal (frame, i);
    if (i == 0)
      origin = utc - time;
    assert_true (fabs (utc - time - origin) < 1e-5);
  }
  assert_true (origin > start - 1e-3 && origin < g_array_index (u.came, gdouble, 0));
  utc_lines_clear (&u);
  g_free (launch);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_wav_pipeline),
    cmocka_unit_test (test_wav_pipeline_resampled),
    cmocka_unit_test (test_live_source),
    cmocka_unit_test (test_same_as_command),
    cmocka_unit_test (test_same_as_command_converted),
    cmocka_unit_test (test_seek),
    cmocka_unit_test (test_seek_goes_upstream_once),
    cmocka_unit_test (test_refused_seek_not_remembered),
    cmocka_unit_test (test_header_after_seek),
    cmocka_unit_test (test_release_labels_in_paused),
    cmocka_unit_test (test_request_again_while_flowing),
    cmocka_unit_test (test_release_keeps_labels_file),
    cmocka_unit_test (test_one_large_buffer_prerolls),
    cmocka_unit_test (test_labels_file_same_as_command),
    cmocka_unit_test (test_gate_same_as_command),
    cmocka_unit_test (test_pause_while_playing),
    cmocka_unit_test (test_pause_with_labels_queue_full),
    cmocka_unit_test (test_labels_branch_failure),
    cmocka_unit_test (test_labels_caps_refused),
    cmocka_unit_test (test_labels_long_header),
    cmocka_unit_test (test_live_pause_time_of_day),
    cmocka_unit_test (test_live_queue_time_of_day),
    cmocka_unit_test (test_live_flush_time_of_day),
    cmocka_unit_test (test_pause_time_of_day_not_live),
  };
  pt_init ();
  return cmocka_run_group_tests (tests, NULL, NULL);
}
