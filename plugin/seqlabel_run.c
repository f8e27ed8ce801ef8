/* libseqlabel inside the element: loading the model, making the labeler from
 * the properties, feeding it each buffer's samples, and turning its callbacks
 * into frames for the buffer meta, bus messages and labels-pad text.
 *
 * Where the work runs: in the streaming thread, inside transform_ip. The
 * labeler costs a small fraction of real time (num-threads spreads the encoder
 * when it does not), so a live pipeline is not stalled; a worker thread would
 * only add a copy and a queue. See docs/element.md. */
#include "gstseqlabel.h"
#include "seqlabelmeta.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

static GstFlowReturn push_gap_silence (GstSeqLabel * self);

#define GST_CAT_DEFAULT gst_seqlabel_debug

/* S16 input is converted by the library in bounded blocks; no scratch here. */

/* Buffer time of frame `index` of the current run. */
static GstClockTime
run_frame_time (GstSeqLabel * self, gint64 index)
{
  return self->base_ts + gst_util_uint64_scale_int ((guint64) index * self->hop,
      GST_SECOND, self->rate);
}

/* Buffer time where the run's samples so far end (at the rates they came in). */
static GstClockTime
run_end_time (GstSeqLabel * self)
{
  return self->base_ts + self->run_time_before +
      gst_util_uint64_scale_int (self->run_samples + self->gap_pending, GST_SECOND,
      GST_AUDIO_INFO_RATE (&self->info));
}

gchar *
gst_seqlabel_default_model_path (void)
{
  const char *path = sl_default_model_path ();
  /* none found: the installed path, so the load error names it */
  return g_strdup (path ? path : sl_installed_model_path ());
}

gboolean
gst_seqlabel_ensure_model (GstSeqLabel * self, gboolean post_error)
{
  char err[SL_ERR_LEN];
  gchar *path;
  const sl_model *m;
  const sl_feature_config *fc;
  gboolean ok = TRUE;
  const char *from = "model property";

  g_mutex_lock (&self->model_lock);
  GST_OBJECT_LOCK (self);
  path = self->props.model_path ? g_strdup (self->props.model_path) : NULL;
  GST_OBJECT_UNLOCK (self);
  if (path == NULL) {
    const gchar *env = g_getenv ("SEQLABEL_MODEL");   /* an empty one is not used */
    path = gst_seqlabel_default_model_path ();
    from = env && *env ? "SEQLABEL_MODEL (no model property set)"
        : "the default model (no model property set)";
  }
  GST_OBJECT_LOCK (self);
  /* the labeler in use keeps its model: a new path takes effect at the next
   * start (the property is documented as changeable in NULL/READY only) */
  if (self->model != NULL && (self->labeler != NULL ||
          g_strcmp0 (self->model_loaded_path, path) == 0)) {
    GST_OBJECT_UNLOCK (self);
    goto done;
  }
  GST_OBJECT_UNLOCK (self);

  m = gst_seqlabel_model_get (path, err, sizeof err);
  if (m == NULL) {
    if (post_error)
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
          ("seqlabel: cannot load model: %s", err), ("%s: %s", from, path));
    else
      GST_DEBUG_OBJECT (self, "cannot load model yet: %s", err);
    ok = FALSE;
    goto done;
  }
  fc = sl_model_feature_config (m);

  GST_OBJECT_LOCK (self);
  gst_seqlabel_model_release (self->model);
  self->model = m;
  g_free (self->model_loaded_path);
  self->model_loaded_path = g_strdup (path);
  self->rate = fc->sample_rate;
  self->hop = sl_feature_frame_shift (fc);
  self->n_classes = sl_model_get_config (m)->n_classes;
  self->speech_class = sl_model_class_index (m, "speech");
  g_free (self->class_quarks);
  self->class_quarks = g_new (GQuark, self->n_classes);
  for (int k = 0; k < self->n_classes; k++)
    self->class_quarks[k] = g_quark_from_string (sl_model_class_name (m, k));
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "model %s: %d Hz, hop %d, %d classes", path, self->rate,
      self->hop, self->n_classes);

done:
  g_free (path);
  g_mutex_unlock (&self->model_lock);
  return ok;
}

static sl_label_format
library_format (GstSeqLabelFormat f)
{
  switch (f) {
    case GST_SEQLABEL_FORMAT_JSONL:
    case GST_SEQLABEL_FORMAT_JSONL_SEGMENTS:
      return SL_FORMAT_JSONL;
    case GST_SEQLABEL_FORMAT_FRAMES:
      return SL_FORMAT_FRAMES;
    case GST_SEQLABEL_FORMAT_RTTM:
      return SL_FORMAT_RTTM;
    case GST_SEQLABEL_FORMAT_WEBVTT:
      return SL_FORMAT_WEBVTT;
    case GST_SEQLABEL_FORMAT_SRT:
      return SL_FORMAT_SRT;
    case GST_SEQLABEL_FORMAT_CSV:
      return SL_FORMAT_CSV;
    case GST_SEQLABEL_FORMAT_TEXTGRID:
      return SL_FORMAT_TEXTGRID;
    case GST_SEQLABEL_FORMAT_SUMMARY:
      return SL_FORMAT_SUMMARY;
    case GST_SEQLABEL_FORMAT_AUDACITY:
    case GST_SEQLABEL_FORMAT_TEXT:
    default:
      return SL_FORMAT_AUDACITY; /* TEXT: segments too, formatted here */
  }
}

/* How long after its audio a label is final: the labeler's latency, plus what
 * the converter (NULL: none) holds back, at the model's rate. */
static GstClockTime
run_latency (GstSeqLabel * self, const sl_converter * conv)
{
  /* the gate holds a frame's first sample until the frame is labelled: one hop more */
  return gst_util_uint64_scale_int_ceil (sl_labeler_latency_samples (self->labeler) +
      (conv ? sl_converter_delay (conv) : 0) +
      (self->gate_mode != GST_SEQLABEL_GATE_NONE ? self->hop : 0), GST_SECOND, self->rate);
}

/* Makes the labeler from the properties (the model is loaded). */
gboolean
gst_seqlabel_open (GstSeqLabel * self)
{
  char err[SL_ERR_LEN];
  sl_labeler_config cfg;
  GstSeqLabelSettings p;
  GstSeqLabelFormat format;
  GstSeqLabelGate gate;
  sl_labeler *lab;
  sl_label_writer writer;
  gboolean skip, only, ok = FALSE;

  GST_OBJECT_LOCK (self);
  p = self->props;
  p.min_durations = g_strdup (self->props.min_durations);
  p.target_class = g_strdup (self->props.target_class);
  p.skip_classes = g_strdup (self->props.skip_classes);
  p.only_classes = g_strdup (self->props.only_classes);
  p.time_origin = g_strdup (self->props.time_origin);
  format = self->label_format;
  gate = self->gate;
  GST_OBJECT_UNLOCK (self);

  sl_labeler_config_default (&cfg);
  cfg.window = p.window;
  cfg.left_context = p.left_context;
  cfg.lookahead = p.lookahead;
  cfg.max_latency_s = p.max_latency;
  self->run_max_latency = p.max_latency;
  cfg.clip_edges = p.clip_edges;
  cfg.num_threads = p.num_threads;
  cfg.decoder.smoothing = (sl_smoothing) p.smoothing;
  cfg.decoder.switch_penalty = (float) p.switch_penalty;
  cfg.decoder.smoothing_lag = p.smoothing_lag;
  cfg.decoder.on_threshold = (float) p.threshold_on;
  cfg.decoder.off_threshold = (float) p.threshold_off;
  cfg.decoder.pad_before_s = (float) p.padding;
  cfg.decoder.pad_after_s = (float) p.padding;
  if (p.min_durations && p.min_durations[0] &&
      sl_decoder_parse_min_durations (&cfg.decoder, self->model, p.min_durations,
          err, sizeof err) != 0) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("seqlabel: min-durations \"%s\": %s", p.min_durations, err), (NULL));
    goto out;
  }
  if (p.target_class && p.target_class[0]) {
    cfg.decoder.target_class = sl_model_class_index (self->model, p.target_class);
    if (cfg.decoder.target_class < 0) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: target-class \"%s\" is not a class of model %s",
              p.target_class, self->model_loaded_path), (NULL));
      goto out;
    }
  }
  if (gate != GST_SEQLABEL_GATE_NONE && cfg.decoder.target_class < 0) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("seqlabel: gate needs target-class, the class whose audio passes"), (NULL));
    goto out;
  }
  /* settings that would do nothing are refused, as the command refuses them
   * (a default cannot be told from a value set to it) */
  {
    sl_labeler_config def;
    sl_labeler_config_default (&def);
    if (cfg.decoder.target_class < 0 && p.padding != def.decoder.pad_before_s) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: padding goes with target-class: it pads that class's segments"),
          (NULL));
      goto out;
    }
    if (cfg.decoder.smoothing == SL_SMOOTH_NONE
        && (p.smoothing_lag != def.decoder.smoothing_lag
            || (float) p.switch_penalty != def.decoder.switch_penalty)) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: %s goes with Viterbi smoothing, not smoothing=none",
              p.smoothing_lag != def.decoder.smoothing_lag ? "smoothing-lag" :
              "switch-penalty"), (NULL));
      goto out;
    }
  }
  /* the thresholds shape the target class alone: without one, unused, and
   * threshold-on set below threshold-off's default alone is no mistake */
  if (cfg.decoder.target_class >= 0
      && cfg.decoder.off_threshold > cfg.decoder.on_threshold) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("seqlabel: threshold-off %g is above threshold-on %g: set threshold-off "
            "too, at most threshold-on", p.threshold_off, p.threshold_on), (NULL));
    goto out;
  }

  sl_label_writer_init (&writer, library_format (format), self->model, NULL);
  writer.channel = p.channel;
  writer.jsonl_segments = format == GST_SEQLABEL_FORMAT_JSONL_SEGMENTS;
  self->utc_now = FALSE;
  g_array_set_size (self->utc_shifts, 0);
  GST_OBJECT_LOCK (self);
  g_array_set_size (self->utc_pauses, 0);
  GST_OBJECT_UNLOCK (self);
  if (p.time_origin && p.time_origin[0]) {
    if (!sl_label_format_has_utc (writer.format)) {
      GEnumClass *formats = g_type_class_ref (gst_seqlabel_format_get_type ());
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: time-origin: label-format %s has no place for UTC times (jsonl, "
              "jsonl-segments and summary have)",
              g_enum_get_value (formats, (gint) format)->value_nick), (NULL));
      g_type_class_unref (formats);
      goto out;
    }
    self->utc_now = strcmp (p.time_origin, "now") == 0;
    writer.has_utc_origin = !self->utc_now;     /* now: when the run starts */
    if (!self->utc_now && sl_parse_utc (p.time_origin, &writer.utc_origin_us) != 0) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: time-origin \"%s\" is %s", p.time_origin, SL_UTC_FORMS), (NULL));
      goto out;
    }
  }
  skip = p.skip_classes && p.skip_classes[0];
  only = p.only_classes && p.only_classes[0];
  if (skip && only) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("seqlabel: skip-classes and only-classes: one or the other"), (NULL));
    goto out;
  }
  if (skip || only) {
    /* the list and its property's name; a list of separators alone (a stray
     * comma) would leave every label out, or none, and the per-frame formats
     * keep every frame: both refused, as the command refuses them */
    const gchar *list = skip ? p.skip_classes : p.only_classes;
    const gchar *prop = skip ? "skip-classes" : "only-classes";
    if (!list[strspn (list, ", \t")]) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: %s \"%s\" names no class", prop, list), (NULL));
      goto out;
    }
    if (sl_label_format_is_per_frame (&writer)) {
      GEnumClass *formats = g_type_class_ref (gst_seqlabel_format_get_type ());
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: %s leaves out segments: label-format %s keeps every frame", prop,
              g_enum_get_value (formats, (gint) format)->value_nick), (NULL));
      g_type_class_unref (formats);
      goto out;
    }
    if (sl_label_writer_set_skip (&writer, list, only, err, sizeof err) != 0) {
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
          ("seqlabel: %s \"%s\": model %s: %s", prop, list, self->model_loaded_path, err),
          (NULL));
      goto out;
    }
  }

  lab = sl_labeler_new (self->model, &cfg, err, sizeof err);
  if (lab == NULL) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("seqlabel: cannot make the labeler for model %s: %s",
            self->model_loaded_path, err), (NULL));
    goto out;
  }

  gst_seqlabel_gate_clear (self);
  self->gate_mode = gate;
  self->gate_class = cfg.decoder.target_class;
  GST_OBJECT_LOCK (self);
  self->labeler = lab;
  self->latency = run_latency (self, NULL);
  self->writer = writer;
  self->run_format = format;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "labeler ready, latency %" GST_TIME_FORMAT " (%" G_GINT64_FORMAT
      " samples)", GST_TIME_ARGS (self->latency), sl_labeler_latency_samples (lab));
  gst_seqlabel_reset_run (self);   /* nothing of an earlier start carries over */
  self->next_run_ts = GST_CLOCK_TIME_NONE;
  self->last_is_speech = FALSE;
  ok = TRUE;
out:
  g_free (p.min_durations);
  g_free (p.target_class);
  g_free (p.skip_classes);
  g_free (p.only_classes);
  g_free (p.time_origin);
  return ok;
}

void
gst_seqlabel_close (GstSeqLabel * self)
{
  GST_OBJECT_LOCK (self);
  if (self->labeler)
    sl_labeler_free (self->labeler);
  self->labeler = NULL;
  sl_converter_free (self->converter);
  self->converter = NULL;
  gst_seqlabel_model_release (self->model);
  self->model = NULL;
  g_free (self->model_loaded_path);
  self->model_loaded_path = NULL;
  gst_caps_replace (&self->refused_caps, NULL);
  self->warned_non_finite = FALSE;
  g_free (self->class_quarks);
  self->class_quarks = NULL;
  self->latency = GST_CLOCK_TIME_NONE;
  self->run_started = FALSE;
  GST_OBJECT_UNLOCK (self);
  gst_seqlabel_gate_clear (self);
  gst_seqlabel_reverse_clear (self);
}

/* ---------------------------------------------------------------------- */
/* the sink the labeler calls */

static gboolean
format_is_per_frame (GstSeqLabel * self)
{
  return sl_label_format_is_per_frame (&self->writer) != 0;
}

/* ---------------------------------------------------------------------- */
/* time-origin=now behind a live source: the pauses
 *
 * A live source stamps its audio with the running time, which stands still
 * while the pipeline is paused: the origin plus a frame's stream time is its
 * time of day until the first pause, and then short by every pause before the
 * frame. So each pause is measured in the time of day (g_get_real_time, from
 * PLAYING -> PAUSED to PAUSED -> PLAYING) and, with the running time where it
 * stood still, handed to the streaming thread, which makes it a shift of the
 * times of day from the first frame at or after that running time: the frames
 * captured after the pause, while those before it, whose labels may come out
 * after it (the labeler's latency, a queue before the element), keep theirs. A
 * source that is not live (a file) plays its stream time, which does not
 * follow the time of day anyway: time-origin=now is stream time 0's moment,
 * pauses or not. */

/* Whether upstream is live: its latency answer, asked here where none came
 * through yet. */
static gboolean
upstream_is_live (GstSeqLabel * self)
{
  gboolean live, known;

  GST_OBJECT_LOCK (self);
  live = self->upstream_live;
  known = self->upstream_live_known;
  GST_OBJECT_UNLOCK (self);
  if (!known) {
    GstQuery *query = gst_query_new_latency ();
    if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
      gst_query_parse_latency (query, &live, NULL, NULL);
    gst_query_unref (query);
  }
  return live;
}

/* The time of day the audio at ts was captured: behind a live source, now less
 * how long ago the clock says it was (its running time against the clock's: a
 * queue or jitter buffer upstream has held it since); behind a file, which is
 * not played in time as it is labelled, now. */
static gint64
time_of_day_of (GstSeqLabel * self, GstClockTime ts)
{
  gint64 now_us = g_get_real_time ();
  GstClock *clock;
  GstClockTime running = gst_segment_to_running_time (&self->segment, GST_FORMAT_TIME, ts);

  if (!GST_CLOCK_TIME_IS_VALID (running) || !upstream_is_live (self))
    return now_us;
  clock = gst_element_get_clock (GST_ELEMENT (self));
  if (clock != NULL) {
    GstClockTime now = gst_clock_get_time (clock);
    GstClockTime base = gst_element_get_base_time (GST_ELEMENT (self));
    if (GST_CLOCK_TIME_IS_VALID (now) && GST_CLOCK_TIME_IS_VALID (base)
        && now > base + running)
      now_us -= (gint64) ((now - base - running) / GST_USECOND);
    gst_object_unref (clock);
  }
  return now_us;
}

void
gst_seqlabel_pause_begins (GstSeqLabel * self)
{
  GstElement *element = GST_ELEMENT (self);
  GstClock *clock;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;

  if (!self->utc_now)         /* set by start (), on this thread too */
    return;
  if (!upstream_is_live (self))
    return;
  clock = gst_element_get_clock (element);
  if (clock != NULL) {
    GstClockTime now = gst_clock_get_time (clock), base = gst_element_get_base_time (element);
    if (GST_CLOCK_TIME_IS_VALID (now) && GST_CLOCK_TIME_IS_VALID (base) && now >= base)
      running_time = now - base;
    gst_object_unref (clock);
  }
  self->pause_running_time = running_time;
  self->pause_began_us = g_get_real_time ();
}

void
gst_seqlabel_pause_ends (GstSeqLabel * self, gboolean resumed)
{
  GstSeqLabelPause pause;

  if (self->pause_began_us < 0)
    return;
  pause.us = g_get_real_time () - self->pause_began_us;
  pause.running_time = self->pause_running_time;
  pause.frame = -1;
  self->pause_began_us = -1;
  if (!resumed || pause.us <= 0)
    return;
  GST_DEBUG_OBJECT (self, "paused for %" G_GINT64_FORMAT " us at running time %"
      GST_TIME_FORMAT, pause.us, GST_TIME_ARGS (pause.running_time));
  GST_OBJECT_LOCK (self);
  g_array_append_val (self->utc_pauses, pause);
  GST_OBJECT_UNLOCK (self);
}

void
gst_seqlabel_utc_flush (GstSeqLabel * self)
{
  if (!self->utc_now || !upstream_is_live (self))
    return;
  self->writer.has_utc_origin = 0;
  g_array_set_size (self->utc_shifts, 0);
  GST_OBJECT_LOCK (self);
  g_array_set_size (self->utc_pauses, 0);
  GST_OBJECT_UNLOCK (self);
}

/* The stream frame of the buffer at ts, its first (streaming thread). */
static gint64
frame_at (GstSeqLabel * self, GstClockTime ts)
{
  guint64 stream_time;

  if (GST_CLOCK_TIME_IS_VALID (ts) && gst_segment_to_stream_time_full (&self->segment,
          GST_FORMAT_TIME, ts, &stream_time) > 0)
    return (gint64) gst_util_uint64_scale_ceil (stream_time, (guint64) self->rate,
        (guint64) self->hop * GST_SECOND);
  return self->frame_offset + (gint64) gst_util_uint64_scale_int (self->run_samples,
      self->rate, self->hop * GST_AUDIO_INFO_RATE (&self->info));
}

/* The pauses measured since the last buffer (ts the PTS of the one now come)
 * placed: from the first frame at or after the running time where the pause
 * stood still (a buffer from before it may come later still, from a queue),
 * or without that running time (no clock), from this buffer's first frame. */
static void
place_pauses (GstSeqLabel * self, GstClockTime ts)
{
  GstSeqLabelPause *pause;
  guint64 position;

  if (!self->utc_now || !self->writer.has_utc_origin)
    return;
  GST_OBJECT_LOCK (self);
  for (guint i = 0; i < self->utc_pauses->len; i++) {
    pause = &g_array_index (self->utc_pauses, GstSeqLabelPause, i);
    if (GST_CLOCK_TIME_IS_VALID (pause->running_time)
        && gst_segment_position_from_running_time_full (&self->segment, GST_FORMAT_TIME,
            pause->running_time, &position) > 0)
      pause->frame = frame_at (self, position);
    else
      pause->frame = frame_at (self, ts);
    g_array_append_val (self->utc_shifts, *pause);
    GST_INFO_OBJECT (self, "time of day %" G_GINT64_FORMAT " us later from stream frame %"
        G_GINT64_FORMAT " on (a pause)", pause->us, pause->frame);
  }
  g_array_set_size (self->utc_pauses, 0);
  GST_OBJECT_UNLOCK (self);
}

gint64
gst_seqlabel_utc_origin (GstSeqLabel * self, gint64 frame)
{
  gint64 origin = self->utc_origin_us;

  for (guint i = 0; i < self->utc_shifts->len; i++) {
    const GstSeqLabelPause *s = &g_array_index (self->utc_shifts, GstSeqLabelPause, i);
    if (s->frame <= frame)
      origin += s->us;
  }
  return origin;
}

/* Formats with the library into the reused text buffer; returns the length. */
static int
format_text (GstSeqLabel * self, gboolean is_frame, gint64 a, gint64 b, int label,
    float confidence, const float *probs)
{
  gboolean renumber;

  /* a header went out (a stream-start's or a flush's event, or a run's first
   * gap, queue it before any text; and what is still pending goes out now, as
   * for a labels pad requested again whose gap fell past the segment): a new
   * file, whose cues SubRip numbers from 1 again; reset here, as this thread
   * alone formats lines */
  if (self->cb_labelpad != NULL)
    gst_seqlabel_labelpad_prepare (self, self->cb_labelpad);
  GST_OBJECT_LOCK (self);
  renumber = self->labelpad_renumber;
  self->labelpad_renumber = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (renumber)
    self->writer.segments_written = 0;
  if (self->utc_now && self->writer.has_utc_origin)
    self->writer.utc_origin_us = gst_seqlabel_utc_origin (self, a);
  for (int attempt = 0; attempt < 2; attempt++) {
    int n = is_frame ?
        sl_label_format_frame (&self->writer, self->text, self->text_len, a, label,
        confidence, probs) :
        sl_label_format_segment (&self->writer, self->text, self->text_len, a, b,
        label, confidence);
    if (n < 0 || (gsize) n < self->text_len)
      return n;
    /* rare: a line longer than any before it */
    self->text_len = MAX ((gsize) n + 1, 2 * self->text_len);
    self->text = g_realloc (self->text, self->text_len);
  }
  return -1;
}

static void
note_flow (GstSeqLabel * self, GstFlowReturn ret)
{
  if (ret < GST_FLOW_EOS && ret != GST_FLOW_NOT_LINKED && self->cb_flow == GST_FLOW_OK)
    self->cb_flow = ret;
}

/* The "text" format is for subtitles and textoverlay, whose consumers wait
 * for text up to the time of their other streams: a segment would only come
 * out when it ends, possibly minutes later. So the text goes out in pieces
 * of at most TEXT_PIECE_FRAMES frames (gstseqlabel.h), each as soon as it is
 * complete. */

/* A skipped class's time goes out as a gap event: a consumer waiting for
 * text up to some time (a subtitle muxer, textoverlay) is told there is none. */
static void
push_skipped (GstSeqLabel * self, GstClockTime t0, GstClockTime t1)
{
  gst_seqlabel_labelpad_event (self, gst_event_new_gap (t0, t1 - t0));
}

static void
push_text_piece (GstSeqLabel * self)
{
  if (self->piece_label >= 0 && self->cb_labelpad) {
    GstClockTime t0 = run_frame_time (self, self->piece_start);
    GstClockTime t1 = run_frame_time (self, self->piece_start + self->piece_len);
    const char *name = g_quark_to_string (self->class_quarks[self->piece_label]);
    if (self->writer.skip[self->piece_label])
      push_skipped (self, t0, t1);
    else
      note_flow (self, gst_seqlabel_labelpad_push_text (self, self->cb_labelpad, t0,
              t1 - t0, name, strlen (name)));
  }
  self->piece_label = -1;
  self->piece_len = 0;
}

static void
add_to_text_piece (GstSeqLabel * self, int64_t index, int label)
{
  if (self->piece_label != label)
    push_text_piece (self);
  if (self->piece_label < 0) {
    self->piece_label = label;
    self->piece_start = index;
  }
  if (++self->piece_len == TEXT_PIECE_FRAMES)
    push_text_piece (self);
}

/* The input sample at buffer time ts, counted from stream time 0 (the file
 * played from its start), in *s; FALSE where ts has no stream time. */
static gboolean
stream_sample (GstSeqLabel * self, GstClockTime ts, guint64 * s)
{
  guint64 stream_time;

  if (!GST_CLOCK_TIME_IS_VALID (ts) || gst_segment_to_stream_time_full (&self->segment,
          GST_FORMAT_TIME, ts, &stream_time) <= 0)
    return FALSE;
  *s = gst_util_uint64_scale_int_round (stream_time, GST_AUDIO_INFO_RATE (&self->info),
      GST_SECOND);
  return TRUE;
}

/* The first frame of a run whose first input sample (of frame 0) is at s or
 * after it: frame f begins at sample floor(f * hop * in_rate / rate). */
static gint64
first_frame_from (GstSeqLabel * self, guint64 s)
{
  const gint in_rate = GST_AUDIO_INFO_RATE (&self->info);
  gint64 f = (gint64) gst_util_uint64_scale_int (s, self->rate, self->hop * in_rate);

  while (f > 0 && (guint64) sl_frame_start_sample (f - 1, self->hop, in_rate, self->rate) >= s)
    f--;
  while ((guint64) sl_frame_start_sample (f, self->hop, in_rate, self->rate) < s)
    f++;
  return f;
}

/* Reverse playback: the first frame of the run at or past the end of the
 * span being labelled: a frame is the span's whose first input sample is
 * (gst_seqlabel_start_run_aligned puts the run's frame 0 on the stream's
 * grid, so the span after it begins its own at the same frame: each frame is
 * labelled once). The span's frames run on its sample count, which a
 * decoder's chunks that overlap a little (Vorbis's) can make longer than the
 * time its buffers cover: no frame is labelled past the span (past the file's
 * end, or over the span after it). G_MAXINT64: no limit. */
static gint64
rev_end_frame_of_run (GstSeqLabel * self)
{
  guint64 s0, s1;

  if (!self->rev_pass || !GST_CLOCK_TIME_IS_VALID (self->rev_end))
    return G_MAXINT64;
  if (self->rev_end <= self->base_ts)
    return 0;
  if (stream_sample (self, self->base_ts, &s0) && stream_sample (self, self->rev_end, &s1))
    return s1 > s0 ? first_frame_from (self, s1 - s0) : 0;
  return (gint64) gst_util_uint64_scale_ceil (self->rev_end - self->base_ts,
      (guint64) self->rate, (guint64) self->hop * GST_SECOND);
}

/* The same, reckoned once a run (start_run): its inputs do not change while
 * it goes on, and it bounds every frame */
static gint64
rev_end_frame (GstSeqLabel * self)
{
  return self->rev_pass ? self->rev_end_frame : G_MAXINT64;
}

static int
on_frame (void *user, int64_t index, int label, float confidence,
    const float *probs, int n_classes)
{
  GstSeqLabel *self = user;
  GstSeqLabelFrame f;

  if (index < self->rev_first_frame || index >= rev_end_frame (self))
    return self->cb_flow == GST_FLOW_OK ? 0 : 1;
  f.index = (guint64) (self->frame_offset + index);
  if (self->rev_pass)
    self->rev_next_frame = MAX (self->rev_next_frame, (gint64) f.index + 1);
  f.pts = run_frame_time (self, index);
  f.duration = run_frame_time (self, index + 1) - f.pts;
  f.class_index = label;
  f.label = self->class_quarks[label];
  f.confidence = confidence;
  g_array_append_val (self->frames, f);
  /* the first frame of a segment (the decoder ended the last one at it, or
   * the run begins): its start is known now, its end when the label changes */
  if (index == self->open_segment_start && self->cb_segment_starts && !self->rev_pass &&
      self->segment.rate > 0)
    gst_seqlabel_post_start (self, f.pts, label, (gint64) f.index);
  if (index >= self->open_segment_start) {
    self->open_label = label;
    self->open_conf_sum += confidence;
    self->open_framed_end = index + 1;
  }
  g_array_append_vals (self->probs, probs, n_classes);
  self->last_is_speech = label == self->speech_class;
  /* the latest frame: in reverse playback the runs come latest first */
  self->document_end = MAX (self->document_end, self->frame_offset + index + 1);
  gst_seqlabel_gate_frame (self, index, label);

  if (self->cb_post_messages && self->cb_message_mode == GST_SEQLABEL_MESSAGE_FRAME)
    gst_seqlabel_post_frame (self, &f, probs);

  if (self->cb_labelpad && self->run_format == GST_SEQLABEL_FORMAT_TEXT) {
    add_to_text_piece (self, index, label);
  } else if (self->cb_labelpad && format_is_per_frame (self)) {
    int n = format_text (self, TRUE, (gint64) f.index, 0, label, confidence, probs);
    if (n > 0)
      note_flow (self, gst_seqlabel_labelpad_push_text (self, self->cb_labelpad,
              f.pts, f.duration, self->text, (gsize) n));
  }
  return self->cb_flow == GST_FLOW_OK ? 0 : 1;
}

static int
on_segment (void *user, int64_t start, int64_t end, int label, float mean_confidence)
{
  GstSeqLabel *self = user;
  GstClockTime t0, t1;

  const gdouble since_switch = self->open_conf_sum;

  self->open_segment_start = end;
  self->open_conf_sum = 0.0;
  start = MAX (start, self->rev_first_frame);
  end = MIN (end, rev_end_frame (self));
  if (start >= end)
    return self->cb_flow == GST_FLOW_OK ? 0 : 1;
  t0 = run_frame_time (self, start);
  t1 = run_frame_time (self, end);
  if (self->cb_post_messages && self->cb_message_mode == GST_SEQLABEL_MESSAGE_SEGMENT) {
    /* its first frames went as frame messages before a switch to segments */
    const gint64 from = MAX (start, self->segment_messages_from);
    if (from > start && from < end)
      gst_seqlabel_post_segment (self, run_frame_time (self, from),
          t1 - run_frame_time (self, from), label,
          (float) (since_switch / (gdouble) (end - from)), self->frame_offset + from,
          self->frame_offset + end);
    else if (from == start)
      gst_seqlabel_post_segment (self, t0, t1 - t0, label, mean_confidence,
          self->frame_offset + start, self->frame_offset + end);
  }

  if (sl_label_format_is_document (&self->writer)) {
    /* a document: the segments wait for EOS (the skipped too, as empty
     * intervals), kept only while there is a labels pad to write it on */
    sl_frame_segment seg = { self->frame_offset + start, self->frame_offset + end, label };
    GArray *segs = self->document_segs;
    sl_frame_segment *last =
        segs->len ? &g_array_index (segs, sl_frame_segment, segs->len - 1) : NULL;
    /* a new run that goes on where the last ended, in the same class (a
     * resync), continues its segment, as one file's labels would */
    if (self->cb_labelpad && last && last->label == seg.label && last->end == seg.start)
      last->end = seg.end;
    else if (self->cb_labelpad)
      g_array_append_val (segs, seg);
  } else if (self->cb_labelpad && !format_is_per_frame (self) &&
      self->run_format != GST_SEQLABEL_FORMAT_TEXT) {
    int n = format_text (self, FALSE, self->frame_offset + start,
        self->frame_offset + end, label, mean_confidence, NULL);
    if (n > 0)
      note_flow (self, gst_seqlabel_labelpad_push_text (self, self->cb_labelpad,
              t0, t1 - t0, self->text, (gsize) n));
    else if (n == 0)
      push_skipped (self, t0, t1);
  }
  return self->cb_flow == GST_FLOW_OK ? 0 : 1;
}

/* message-mode set while playing, taking effect at this push: the open
 * segment's frames labelled so far are not lost between the two kinds of
 * message, nor posted twice. */
static void
switch_message_mode (GstSeqLabel * self, GstSeqLabelMessageMode to)
{
  /* the frames posted one by one before an earlier switch are not again */
  const gint64 from = MAX (self->open_segment_start, self->segment_messages_from);
  const gint64 start = MAX (from, self->rev_first_frame);
  const gint64 end = self->open_framed_end;

  if (to == GST_SEQLABEL_MESSAGE_FRAME && end > start && !self->rev_pass)
    gst_seqlabel_post_segment (self, run_frame_time (self, start),
        run_frame_time (self, end) - run_frame_time (self, start), self->open_label,
        (float) (self->open_conf_sum / (gdouble) (end - from)),
        self->frame_offset + start, self->frame_offset + end);
  else if (to == GST_SEQLABEL_MESSAGE_SEGMENT) {
    self->segment_messages_from = end;
    self->open_conf_sum = 0.0;
  }
}

/* Snapshot of what the callbacks need, taken once per push; the decoder
 * settings set while playing reach the labeler here, before the push. */
static void
begin_callbacks (GstSeqLabel * self, sl_label_sink * sink)
{
  char err[SL_ERR_LEN];
  gboolean retune;
  gdouble penalty, on, off;
  GstSeqLabelMessageMode mode;

  GST_OBJECT_LOCK (self);
  self->cb_post_messages = self->post_messages;
  self->cb_segment_starts = self->segment_starts;
  mode = self->message_mode;
  self->cb_labelpad = self->labelpad ? gst_object_ref (self->labelpad) : NULL;
  retune = self->retune_pending;
  self->retune_pending = FALSE;
  penalty = self->props.switch_penalty;
  on = self->props.threshold_on;
  off = self->props.threshold_off;
  GST_OBJECT_UNLOCK (self);
  /* (a message is posted outside the object's lock, which posting takes);
   * while no message is posted the mode stays as it was, to change once they
   * are again: no frame of the open segment posted twice, or lost between */
  if (self->cb_post_messages && mode != self->cb_message_mode) {
    switch_message_mode (self, mode);
    self->cb_message_mode = mode;
  }
  /* off above on: one of the two was set, the other is still to come */
  if (retune && sl_labeler_retune (self->labeler, (float) penalty, (float) on,
          (float) off, err, sizeof err) != 0)
    GST_WARNING_OBJECT (self, "%s: the settings before stay", err);
  self->cb_flow = GST_FLOW_OK;
  sink->user = self;
  sink->on_frame = on_frame;
  sink->on_segment = on_segment;
}

static void
end_callbacks (GstSeqLabel * self)
{
  if (self->cb_labelpad)
    gst_object_unref (self->cb_labelpad);
  self->cb_labelpad = NULL;
}

/* ---------------------------------------------------------------------- */
/* input in another sample format, rate or channel count */

typedef struct {
  GstSeqLabel *self;
  const sl_label_sink *sink;
  char *err;
  size_t errlen;
} ConvertTarget;

static int
converted (void *user, const float *mono, size_t n)
{
  ConvertTarget *t = user;
  return sl_labeler_push (t->self->labeler, mono, n, t->sink, t->err, t->errlen);
}

/* `frames` interleaved frames, float (f32) or 16-bit (s16), through the
 * converter into the labeler; neither: the converter's tail. */
static int
convert (GstSeqLabel * self, const float *f32, const gint16 * s16, gsize frames,
    const sl_label_sink * sink, char *err, size_t errlen)
{
  ConvertTarget t = { self, sink, err, errlen };
  if (s16 != NULL)
    return sl_converter_push_s16 (self->converter, s16, frames, converted, &t,
        err, errlen);
  if (f32 != NULL)
    return sl_converter_push (self->converter, f32, frames, converted, &t, err,
        errlen);
  return sl_converter_flush (self->converter, converted, &t, err, errlen);
}

/* Samples of any other format as float, as libsndfile reads such a file:
 * integers unpacked to the top bits of an int32 and scaled by 2^-31 (24-bit
 * x becomes x / 2^23 exactly, unsigned 8-bit (x - 128) / 128), floats through
 * double. In self->unpacked, converted in place. */
static const float *
unpack_to_float (GstSeqLabel * self, const guint8 * data, gsize n)
{
  const GstAudioFormatInfo *fi = self->info.finfo;
  gboolean is_f64 = fi->unpack_format == GST_AUDIO_FORMAT_F64;
  float *out;

  g_byte_array_set_size (self->unpacked, (guint) (n * (is_f64 ? 8 : 4)));
  /* TRUNCATE_RANGE: the bare shift; without it 8-bit values have their bits
   * repeated below them (129 -> 0x01818181), which no file reader does */
  fi->unpack_func (fi, GST_AUDIO_PACK_FLAG_TRUNCATE_RANGE, self->unpacked->data, data,
      (gint) n);
  out = (float *) self->unpacked->data;
  /* in place, forwards: element i is read before anything at or past it is written */
  if (is_f64) {
    const double *d = (const double *) self->unpacked->data;
    for (gsize i = 0; i < n; i++)
      out[i] = (float) d[i];
  } else {
    const gint32 *v = (const gint32 *) self->unpacked->data;
    for (gsize i = 0; i < n; i++)
      out[i] = (float) v[i] * (1.0f / 2147483648.0f);
  }
  return out;
}

/* The negotiated input: a converter when it is not mono at the model's rate.
 * A new rate or channel count mid-stream ends the run (its tail labeled, as at
 * a discontinuity); a new sample format alone keeps it going. */
gboolean
gst_seqlabel_set_input (GstSeqLabel * self, const GstAudioInfo * info)
{
  char err[SL_ERR_LEN];
  gint rate = GST_AUDIO_INFO_RATE (info), channels = GST_AUDIO_INFO_CHANNELS (info);
  gint channel = self->writer.channel;  /* the run's settings, read when it was made */
  sl_converter *conv = NULL;
  GstClockTime latency;
  gboolean keep_run;

  if (channel > channels) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("seqlabel: channel=%d, but the input has %d channel(s)", channel, channels),
        (NULL));
    return FALSE;
  }

  /* held audio is in the old format: with any, the run ends and it goes out first */
  if (self->have_info && rate == GST_AUDIO_INFO_RATE (&self->info) &&
      channels == GST_AUDIO_INFO_CHANNELS (&self->info) &&
      g_queue_is_empty (&self->gate_q)) {
    self->info = *info;
    return TRUE;
  }
  /* A new channel count or rate: the run goes on through a new converter, as
   * one stream (the old converter's resampled tail first), so the frames across
   * the change are labelled from the audio on both sides, not cut off; the
   * samples before the change count as time. With the gate a new rate ends the
   * run: the gate maps frames to the run's input samples at one rate. */
  keep_run = self->have_info && self->run_started && g_queue_is_empty (&self->gate_q) &&
      (rate == GST_AUDIO_INFO_RATE (&self->info) || self->gate_mode == GST_SEQLABEL_GATE_NONE);
  if (self->have_info && !keep_run) {
    if (gst_seqlabel_finish_run (self) != GST_FLOW_OK)
      return FALSE;
    /* as at a discontinuity, the tail rides on the next buffer's meta */
    self->carry_frames = TRUE;
  }
  if (rate != self->rate || channels != 1) {
    conv = sl_converter_new (rate, channels, self->rate, err, sizeof err);
    if (conv != NULL && sl_converter_set_channel (conv, channel, err, sizeof err) != 0)
      g_clear_pointer (&conv, sl_converter_free);
    if (conv == NULL) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("seqlabel: model %s takes mono audio at %d Hz; %s", self->model_loaded_path,
              self->rate, err), (NULL));
      return FALSE;
    }
  }
  if (keep_run && self->gap_pending > 0) {
    if (push_gap_silence (self) != GST_FLOW_OK) {
      sl_converter_free (conv);
      return FALSE;
    }
    self->carry_frames = TRUE;  /* the frames the silence gave ride on the next meta */
    /* labelled now, the gaps before are the audio going on, not the start of a
     * dropout that later gaps could make of them: new caps end the row */
    self->gap_filled = 0;
  }
  if (keep_run && self->converter) {
    sl_label_sink sink;
    int rc;
    begin_callbacks (self, &sink);
    rc = convert (self, NULL, NULL, 0, &sink, err, sizeof err);
    end_callbacks (self);
    self->carry_frames = TRUE;  /* the frames the tail gave ride on the next meta */
    if (rc != 0) {
      sl_converter_free (conv);
      if (self->cb_flow == GST_FLOW_OK)
        GST_ELEMENT_ERROR (self, STREAM, FAILED, ("seqlabel: %s", err), (NULL));
      gst_seqlabel_reset_run (self);    /* a stopped labeler takes nothing until reset */
      return FALSE;
    }
  }
  if (keep_run && rate != GST_AUDIO_INFO_RATE (&self->info)) {
    self->run_time_before += gst_util_uint64_scale_int (self->run_samples, GST_SECOND,
        GST_AUDIO_INFO_RATE (&self->info));
    self->run_samples = 0;
  }
  sl_converter_free (self->converter);
  self->converter = conv;
  self->info = *info;
  self->have_info = TRUE;
  latency = run_latency (self, conv);
  GST_INFO_OBJECT (self, "input %d channel(s) at %d Hz%s, latency %" GST_TIME_FORMAT "%s",
      channels, rate, conv ? " converted" : "", GST_TIME_ARGS (latency),
      keep_run ? "; the run goes on" : "");
  /* the limit is the labeler's; the resampler's delay (0.13 s at 48 kHz) comes on top */
  if (conv && self->run_max_latency > 0.0
      && latency > (GstClockTime) (self->run_max_latency * GST_SECOND) + GST_MSECOND)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("seqlabel: labels come %.3f s after their audio, past max-latency %.3f s: input at "
            "%d Hz adds the resampler's %.3f s; give the element %d Hz audio (audioresample ! "
            "audio/x-raw,rate=%d before it) to keep within it", (double) latency / GST_SECOND,
            self->run_max_latency, rate,
            (double) sl_converter_delay (conv) / self->rate, self->rate, self->rate), (NULL));
  GST_OBJECT_LOCK (self);
  if (latency != self->latency) {
    self->latency = latency;
    GST_OBJECT_UNLOCK (self);
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  } else {
    GST_OBJECT_UNLOCK (self);
  }
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* runs */

void
gst_seqlabel_reset_run (GstSeqLabel * self)
{
  if (self->labeler)
    sl_labeler_reset (self->labeler);
  if (self->converter)
    sl_converter_reset (self->converter);
  self->run_started = FALSE;
  self->run_samples = 0;
  self->gap_pending = 0;
  self->gap_filled = 0;
  self->run_time_before = 0;
  self->carry_frames = FALSE;
  self->piece_label = -1;
  self->piece_len = 0;
  gst_seqlabel_gate_clear (self); /* a flush or an error: what is held is not wanted */
}

GstFlowReturn
gst_seqlabel_finish_run (GstSeqLabel * self)
{
  char err[SL_ERR_LEN];
  sl_label_sink sink;
  GstFlowReturn ret = GST_FLOW_OK;
  int rc;

  if (self->labeler == NULL || !self->run_started) {
    gst_seqlabel_reset_run (self);
    return GST_FLOW_OK;
  }
  /* brief gaps just before the end (EOS, a new segment, a buffer off track):
   * silence within the run still, as the audio would have gone on */
  if (self->gap_pending > 0 && (ret = push_gap_silence (self)) != GST_FLOW_OK)
    return ret;
  begin_callbacks (self, &sink);
  rc = self->converter ? convert (self, NULL, NULL, 0, &sink, err, sizeof err) : 0;
  if (rc == 0)
    rc = sl_labeler_finish (self->labeler, &sink, err, sizeof err);
  push_text_piece (self);
  if (rc != 0) {
    ret = self->cb_flow;
    if (ret == GST_FLOW_OK) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED, ("seqlabel: %s", err), (NULL));
      ret = GST_FLOW_ERROR;
    }
  }
  end_callbacks (self);
  GST_DEBUG_OBJECT (self, "run finished after %" G_GUINT64_FORMAT " samples",
      self->run_samples);
  if (GST_CLOCK_TIME_IS_VALID (self->base_ts))
    self->next_run_ts = run_end_time (self);
  {
    /* every frame is labelled now: held audio goes out */
    GstFlowReturn gate = gst_seqlabel_gate_run_over (self);
    if (ret == GST_FLOW_OK)
      ret = gate;
  }
  gst_seqlabel_reset_run (self);
  return ret;
}

/* The document's segments up to frame `at`: later ones dropped, one across
 * it cut there. They come in time order (forward playback), so from the last. */
static void
trim_document (GstSeqLabel * self, gint64 at)
{
  GArray *segs = self->document_segs;

  while (segs->len > 0) {
    sl_frame_segment *last = &g_array_index (segs, sl_frame_segment, segs->len - 1);
    if (last->end <= at)
      break;
    if (last->start < at) {
      last->end = at;
      break;
    }
    g_array_set_size (segs, segs->len - 1);
  }
  self->document_end = at;
}

/* Starts a run at buffer time ts: frame indices continue the stream's frame
 * grid (frame i at stream time i * hop), so text times stay stream times. A
 * buffer without a timestamp starts where the audio before it ended. A buffer
 * may begin before the segment's start (a demuxer's first after a seek): its
 * stream time is still its own, not 0. */
static void
start_run (GstSeqLabel * self, GstClockTime ts)
{
  guint64 stream_time;

  if (!GST_CLOCK_TIME_IS_VALID (ts))
    ts = GST_CLOCK_TIME_IS_VALID (self->next_run_ts) ? self->next_run_ts : self->segment.start;
  self->base_ts = ts;
  self->frame_offset = gst_segment_to_stream_time_full (&self->segment, GST_FORMAT_TIME, ts,
      &stream_time) > 0 ? (gint64) gst_util_uint64_scale_round (stream_time, self->rate,
      (guint64) self->hop * GST_SECOND) : 0;
  /* time going back within a stream (a resync after clock drift, a DISCONT
   * back): the frames again are the newer ones, as one file's labels would be,
   * so the document keeps one label per frame (in reverse playback runs come
   * latest first by design, and are put in order at the end) */
  if (self->segment.rate > 0 && self->document_start >= 0
      && self->frame_offset < self->document_end)
    trim_document (self, self->frame_offset);
  if (self->document_start < 0 || self->frame_offset < self->document_start)
    self->document_start = self->frame_offset;
  /* the counts (samples, gaps, time before new caps) are 0: every run ends
   * through gst_seqlabel_reset_run, and each start begins with it */
  self->off_track_since = GST_CLOCK_TIME_NONE;
  self->open_segment_start = 0;
  self->open_framed_end = 0;
  self->open_conf_sum = 0.0;
  self->segment_messages_from = 0;
  self->rev_first_frame = 0;
  self->run_started = TRUE;
  if (self->utc_now && !self->writer.has_utc_origin) {  /* stream time 0's time of day */
    self->utc_origin_us = time_of_day_of (self, ts) - self->frame_offset * self->hop *
        G_USEC_PER_SEC / self->rate;
    self->writer.utc_origin_us = self->utc_origin_us;
    self->writer.has_utc_origin = 1;
    /* pauses before it are in it already */
    GST_OBJECT_LOCK (self);
    g_array_set_size (self->utc_pauses, 0);
    GST_OBJECT_UNLOCK (self);
  }
  GST_DEBUG_OBJECT (self, "run starts at %" GST_TIME_FORMAT ", stream frame %"
      G_GINT64_FORMAT, GST_TIME_ARGS (ts), self->frame_offset);
  GST_OBJECT_LOCK (self);
  self->labelpad_fresh = FALSE; /* the gap below begins its stream */
  GST_OBJECT_UNLOCK (self);
  /* lets a sink on the labels pad preroll before the first label exists */
  gst_seqlabel_labelpad_gap (self, ts, 0);
  self->rev_end_frame = rev_end_frame_of_run (self);
}

/* The encoder labels a run in core blocks from its first frame, each seen with
 * the audio around it: a run that starts elsewhere than the stream played from
 * its start sees other windows, and gives other labels throughout. So a span
 * of reverse playback that begins inside the stream (cut by its bound) starts
 * its run at the block's start before it, on silence (as a run's first window
 * is filled out anyway), and gives, after its first block, the windows and so
 * the labels of forward playback. */
void
gst_seqlabel_start_run_aligned (GstSeqLabel * self, GstClockTime ts)
{
  const gint in_rate = GST_AUDIO_INFO_RATE (&self->info);
  int window, left, lookahead, core;
  guint64 s = 0, s0 = 0, stream_time;
  gint64 step = 1, block = 0, first = 0, doc_start = self->document_start;
  GstClockTime at = ts;

  sl_labeler_window (self->labeler, &window, &left, &lookahead, &core);
  if (stream_sample (self, ts, &s)) {
    /* the block's start must be an input sample too, so that the run's frames
     * begin on the samples forward playback's do (the hop is not a whole
     * number of samples at 22050 Hz: every 2nd frame's start is, at 11025 Hz
     * every 4th): a multiple of both the core and that step */
    gint64 in_step = self->rate / (gint64) gst_util_greatest_common_divisor_int64 (
        (gint64) self->hop * in_rate, self->rate);
    gint64 c = MAX (core, 1);
    step = c / gst_util_greatest_common_divisor_int64 (c, in_step) * in_step;
    /* the frame ts lies in (the last that begins at or before it) */
    first = first_frame_from (self, s);
    if ((guint64) sl_frame_start_sample (first, self->hop, in_rate, self->rate) > s)
      first--;
    block = first / step * step;
    s0 = (guint64) sl_frame_start_sample (block, self->hop, in_rate, self->rate);
    stream_time = gst_util_uint64_scale_int (block * self->hop, GST_SECOND, self->rate);
    if (gst_segment_position_from_stream_time_full (&self->segment, GST_FORMAT_TIME,
            stream_time, &at) <= 0 || at > ts)
      at = ts;          /* before the segment's time: as it comes */
  }
  start_run (self, at);
  if (at == ts) {
    if (self->rev_pass && self->rev_next_frame > self->frame_offset)
      self->rev_first_frame = self->rev_next_frame - self->frame_offset;
    return;
  }
  /* the silence goes to the labeler with the first buffer, as a gap's does */
  self->gap_pending = s - s0;
  /* the first frame that begins in the span's audio: those before are the
   * span after's (the frame ts cuts, in which its audio begins) or silence */
  self->rev_first_frame = first_frame_from (self, s) - block;
  /* a run the span restarts: the frames the run before labelled are its */
  if (self->rev_pass && self->rev_next_frame > self->frame_offset + self->rev_first_frame)
    self->rev_first_frame = self->rev_next_frame - self->frame_offset;
  /* the document begins with the audio, not the silence */
  self->document_start = doc_start >= 0 ? MIN (doc_start,
      self->frame_offset + self->rev_first_frame) : self->frame_offset + self->rev_first_frame;
  GST_DEBUG_OBJECT (self, "run on the block grid: from stream frame %" G_GINT64_FORMAT
      ", %" G_GUINT64_FORMAT " samples of silence before %" GST_TIME_FORMAT
      ", its frames from %" G_GINT64_FORMAT, self->frame_offset, s - s0,
      GST_TIME_ARGS (ts), self->frame_offset + self->rev_first_frame);
}

gboolean
gst_seqlabel_planar (GstSeqLabel * self)
{
  return GST_AUDIO_INFO_LAYOUT (&self->info) == GST_AUDIO_LAYOUT_NON_INTERLEAVED;
}

gboolean
gst_seqlabel_planes_found (GstSeqLabel * self, GstBuffer * buf)
{
  if (!gst_seqlabel_planar (self) || gst_buffer_get_audio_meta (buf) != NULL)
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("seqlabel: a non-interleaved buffer without a GstAudioMeta: where its "
          "channels' planes lie is unknown"),
      ("GStreamer requires the meta on non-interleaved audio (gst_buffer_add_audio_meta); "
          "or send interleaved audio"));
  return FALSE;
}

guint64
gst_seqlabel_buffer_frames (GstSeqLabel * self, GstBuffer * buf)
{
  GstAudioMeta *meta = gst_buffer_get_audio_meta (buf);
  if (gst_seqlabel_planar (self) && meta != NULL)
    return meta->samples;
  return gst_buffer_get_size (buf) / GST_AUDIO_INFO_BPF (&self->info);
}

/* A non-interleaved buffer's planes as interleaved samples (in
 * self->interleaved), so the rest reads one layout. A copy, but the audio
 * itself passes on untouched in its planes. */
static const guint8 *
interleave (GstSeqLabel * self, const GstAudioBuffer * abuf)
{
  /* a sample's stored size: S24_32 keeps 24 bits (its depth) in 4 bytes */
  const gint bps = GST_AUDIO_INFO_WIDTH (&self->info) / 8, ch = abuf->n_planes;
  const gsize n = abuf->n_samples;
  guint8 *out;

  if (ch == 1)
    return abuf->planes[0];
  g_byte_array_set_size (self->interleaved, (guint) (n * (gsize) ch * (gsize) bps));
  out = self->interleaved->data;
  for (gint c = 0; c < ch; c++) {
    const guint8 *plane = abuf->planes[c];
    for (gsize i = 0; i < n; i++)
      memcpy (out + (i * (gsize) ch + (gsize) c) * (gsize) bps, plane + i * (gsize) bps,
          (gsize) bps);
  }
  return out;
}

/* GstAudioBaseSink's default alignment-threshold and discont-wait */
#define DISCONT_TOLERANCE (40 * GST_MSECOND)
#define DISCONT_WAIT GST_SECOND

/* How far ts lies from where the run's sample count puts the audio, and
 * whether that is within DISCONT_TOLERANCE (at least a frame hop): on track. */
static GstClockTime
off_track_by (GstSeqLabel * self, GstClockTime ts, gboolean * on_track)
{
  GstClockTimeDiff diff = GST_CLOCK_DIFF (run_end_time (self), ts);
  GstClockTime off = (GstClockTime) (diff < 0 ? -diff : diff);
  *on_track = off <= MAX (DISCONT_TOLERANCE,
      gst_util_uint64_scale_int (self->hop, GST_SECOND, self->rate));
  return off;
}

/* `frames` frames (float or 16-bit) into the labeler, through the converter
 * when there is one (without, they are mono at the model's rate). */
static int
push_audio (GstSeqLabel * self, const float *f32, const gint16 * s16, gsize frames,
    const sl_label_sink * sink, char *err, size_t errlen)
{
  /* a buffer of no samples is nothing to label: its data may map to NULL,
   * which convert() takes for the end, the resampler's tail flushed mid-run */
  if (frames == 0)
    return 0;
  if (self->converter)
    return convert (self, f32, s16, frames, sink, err, errlen);
  if (s16 != NULL)
    return sl_labeler_push_s16 (self->labeler, s16, frames, sink, err, errlen);
  return sl_labeler_push (self->labeler, f32, frames, sink, err, errlen);
}

/* RFC 6464 level: -dBov of the buffer's RMS, 0 (loud) .. 127 (silent). */
static guint8
level_dbov (const float *f32, const gint16 * s16, gsize n)
{
  double sum = 0.0, rms, db;
  if (n == 0)
    return 127;
  if (s16 != NULL) {
    for (gsize i = 0; i < n; i++)
      sum += (double) s16[i] * s16[i];
    rms = sqrt (sum / n) / 32768.0;
  } else {
    for (gsize i = 0; i < n; i++)
      sum += (double) f32[i] * f32[i];
    rms = sqrt (sum / n);
  }
  if (!(rms > 0.0))
    return 127;
  db = -20.0 * log10 (rms);
  if (db < 0.0)
    db = 0.0;
  if (!(db < 127.0))
    db = 127.0;
  return (guint8) lrint (db);
}

/* A GAP inside a run, where the run's sample count says the audio is, of at
 * most DISCONT_WAIT, it and the gaps in a row before it together (a lost RTP
 * packet: rtpjitterbuffer do-lost=true, then the depayloader's GAP with
 * MISSING_DATA; not a dropout sent as many short gaps, a valve's
 * transform-to-gap or a jitter buffer's gap per lost packet, which is no more
 * silence than one long gap is): silence within the run, as a sink
 * plays it, pushed to the labeler as zeros. A new run there lost a window's
 * context each time: at 5% loss of 20 ms L16 packets, 74% of the frames kept
 * their lossless labels. A gap without a duration (the depayloader's first
 * word of a loss) changes nothing: the next buffer's timestamp, or the gap with
 * a duration after it, says where the audio goes on. FALSE: the caller ends
 * the run (a longer gap, gaps in a row longer together, one elsewhere, reverse
 * playback, the gate, whose held audio maps frames to input samples). The
 * zeros go to the labeler when the next buffer comes or the run ends
 * (push_gap_silence), so the frames they complete ride on that buffer's meta,
 * and a dropout sent as short gaps ends the run where it began, unlabelled, as
 * one long gap does. */
gboolean
gst_seqlabel_fill_gap (GstSeqLabel * self, GstClockTime ts, GstClockTime duration)
{
  GstClockTime expected, end, filled;
  gboolean on_track;
  guint64 left;

  if (!self->run_started || self->labeler == NULL || !self->have_info
      || self->segment.rate <= 0 || self->gate_mode != GST_SEQLABEL_GATE_NONE
      || !GST_CLOCK_TIME_IS_VALID (ts))
    return FALSE;
  off_track_by (self, ts, &on_track);
  if (!on_track)
    return FALSE;
  if (!GST_CLOCK_TIME_IS_VALID (duration))
    return TRUE;
  if (duration > DISCONT_WAIT)
    goto dropout;
  /* the part of the gap past the run's end, at most its own length: where it
   * begins within the tolerance is jitter, as for a buffer, not audio missing
   * (a gap of nothing adds nothing), and a second gap over one filled already
   * (rtpL16depay sends two for each lost packet) adds only what it reaches past */
  expected = run_end_time (self);
  end = ts + duration;
  left = end > expected ? gst_util_uint64_scale_int_round (MIN (duration, end - expected),
      GST_AUDIO_INFO_RATE (&self->info), GST_SECOND) : 0;
  filled = gst_util_uint64_scale_int (left, GST_SECOND, GST_AUDIO_INFO_RATE (&self->info));
  if (self->gap_filled + filled > DISCONT_WAIT)
    goto dropout;
  GST_LOG_OBJECT (self, "gap at %" GST_TIME_FORMAT ": %" G_GUINT64_FORMAT
      " samples of silence within the run", GST_TIME_ARGS (ts), left);
  self->gap_filled += filled;
  self->gap_pending += left;
  return TRUE;
dropout:
  /* the gaps before were its start: no silence, the run ends where they began */
  self->gap_pending = 0;
  self->gap_filled = 0;
  return FALSE;
}

/* The silence that gaps gave the run, pushed to the labeler as zeros once the
 * audio goes on (the run's next buffer, or new caps that keep the run): until
 * then more gaps may make it a dropout that ends the run instead. */
static GstFlowReturn
push_gap_silence (GstSeqLabel * self)
{
  static const float zeros[4096];
  char err[SL_ERR_LEN];
  sl_label_sink sink;
  GstFlowReturn ret = GST_FLOW_OK;
  int channels = GST_AUDIO_INFO_CHANNELS (&self->info), rc = 0;

  begin_callbacks (self, &sink);
  while (self->gap_pending > 0 && rc == 0) {
    gsize frames = MIN (self->gap_pending, G_N_ELEMENTS (zeros) / (guint) channels);
    rc = push_audio (self, zeros, NULL, frames, &sink, err, sizeof err);
    self->run_samples += frames;
    self->gap_pending -= frames;
  }
  end_callbacks (self);
  if (rc != 0) {
    ret = self->cb_flow;
    if (ret == GST_FLOW_OK) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED, ("seqlabel: %s", err), (NULL));
      ret = GST_FLOW_ERROR;
    }
    gst_seqlabel_reset_run (self);
  }
  return ret;
}

/* Index of the first NaN or Inf among f32[0..n), or -1. */
static gssize
first_non_finite (const float *f32, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!isfinite (f32[i]))
      return (gssize) i;
  return -1;
}

/* A buffer holding NaN or Inf (a filter upstream gone unstable, a broken
 * decoder) is not labelled: the run ends before it, its tail labelled, as at a
 * dropout, and the next buffer starts a new one. The audio passes on as it
 * came (through the gate: as audio not of the class); one bad buffer costs its
 * own time and a window's context, not the pipeline, as an analyser in a live
 * chain must not stop the programme. One warning for a stretch of them. */
static GstFlowReturn
skip_non_finite (GstSeqLabel * self, GstBuffer * buf, gsize frames, float value,
    gsize sample)
{
  GstClockTime ts = GST_BUFFER_PTS (buf), start;
  GstFlowReturn ret = gst_seqlabel_finish_run (self);

  /* audio without a timestamp goes on after this buffer (the run ended where it
   * begins) */
  start = GST_CLOCK_TIME_IS_VALID (ts) ? ts : self->next_run_ts;
  if (GST_CLOCK_TIME_IS_VALID (start))
    self->next_run_ts = start + gst_util_uint64_scale_int (frames, GST_SECOND,
        GST_AUDIO_INFO_RATE (&self->info));
  if (!self->warned_non_finite)
    GST_ELEMENT_WARNING (self, STREAM, DECODE,
        ("seqlabel: a buffer holds a non-finite sample (%s); it is not labelled, and "
            "labelling goes on with the next buffer", isnan (value) ? "NaN" : "Inf"),
        ("buffer at %" GST_TIME_FORMAT ", sample %" G_GSIZE_FORMAT " of it (frame %"
            G_GSIZE_FORMAT ")", GST_TIME_ARGS (ts), sample,
            sample / (gsize) GST_AUDIO_INFO_CHANNELS (&self->info)));
  self->warned_non_finite = TRUE;
  return ret == GST_FLOW_OK ? SEQLABEL_FLOW_UNLABELLED : ret;
}

GstFlowReturn
gst_seqlabel_process (GstSeqLabel * self, GstBuffer * buf)
{
  char err[SL_ERR_LEN];
  sl_label_sink sink;
  GstMapInfo map;
  GstAudioBuffer abuf;
  const guint8 *data;
  gboolean planar = gst_seqlabel_planar (self);
  GstClockTime ts = GST_BUFFER_PTS (buf);
  const float *f32 = NULL;
  const gint16 *s16 = NULL;
  gsize n, frames;
  gssize bad;
  int rc;
  GstFlowReturn ret = GST_FLOW_OK;

  if (!self->have_info || self->labeler == NULL)
    return GST_FLOW_NOT_NEGOTIATED;
  /* a buffer cut inside a sample frame (raw bytes from filesrc or a socket
   * behind a capsfilter) would shift every later sample: refused, as
   * audioconvert refuses it, rather than labelled wrong */
  if (!planar && gst_buffer_get_size (buf) % GST_AUDIO_INFO_BPF (&self->info) != 0) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("seqlabel: a buffer of %" G_GSIZE_FORMAT " bytes is not a whole number of "
            "%d-byte sample frames", gst_buffer_get_size (buf),
            GST_AUDIO_INFO_BPF (&self->info)),
        ("raw audio read in blocks of any size needs rawaudioparse (or "
            "audioparse) before seqlabel to cut it into whole frames"));
    return GST_FLOW_ERROR;
  }
  /* frames a gap or a new segment completed outside any buffer ride on none;
   * a tail that new caps ended rides on this one */
  if (!self->carry_frames) {
    g_array_set_size (self->frames, 0);
    g_array_set_size (self->probs, 0);
  }
  self->carry_frames = FALSE;

  /* Discontinuity rule, the audio sinks': a buffer whose timestamp is more than
   * DISCONT_TOLERANCE (at least a frame hop) away from where the run's sample
   * count puts it is off track. When its buffers have been off track for
   * DISCONT_WAIT, at once by more than that, or at once with the DISCONT or
   * RESYNC flag (upstream says samples were lost), the run ends (its tail is
   * labeled) and a new one starts at the buffer's own timestamp. Live sources
   * that stamp buffers as they come (appsrc do-timestamp) jitter by some 20
   * ms, and by 80 ms or more when the audio comes in bursts (network and USB
   * sources); a new run loses a window's context, and restarting at each
   * burst cut the stream into runs of a few frames, out of order. */
  if (self->run_started && GST_CLOCK_TIME_IS_VALID (ts)) {
    GstClockTime expected = run_end_time (self);
    gboolean on_track, restart = FALSE;
    GstClockTime off = off_track_by (self, ts, &on_track);
    if (on_track)
      self->off_track_since = GST_CLOCK_TIME_NONE;
    else if (off > DISCONT_WAIT || GST_BUFFER_IS_DISCONT (buf)
        || GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_RESYNC))
      restart = TRUE;
    else if (!GST_CLOCK_TIME_IS_VALID (self->off_track_since))
      self->off_track_since = ts;
    else
      restart = ts >= self->off_track_since + DISCONT_WAIT;
    if (restart) {
      GST_INFO_OBJECT (self, "discontinuity: buffer at %" GST_TIME_FORMAT
          ", expected %" GST_TIME_FORMAT "; new run", GST_TIME_ARGS (ts),
          GST_TIME_ARGS (expected));
      ret = gst_seqlabel_finish_run (self);
      if (ret != GST_FLOW_OK)
        return ret;
    }
  }
  /* a pause since the last buffer: the times of day of the audio after it */
  place_pauses (self, ts);
  if (!self->run_started) {
    /* in a span labelled forwards, a restart (a decoder's gap or repeat where
     * its chunks meet) stays on the frame grid, as the span's first run */
    if (self->rev_pass && GST_CLOCK_TIME_IS_VALID (ts))
      gst_seqlabel_start_run_aligned (self, ts);
    else
      start_run (self, ts);
  } else {
    gboolean fresh;
    GST_OBJECT_LOCK (self);
    fresh = self->labelpad_fresh && self->labelpad != NULL;
    self->labelpad_fresh = FALSE;
    GST_OBJECT_UNLOCK (self);
    /* a labels pad requested while the run goes on: its stream-start, caps
     * and segment go out now, and a sink on it prerolls, not only once the
     * next label is complete (a segment's can be minutes away); the gap is
     * at the open segment's start, before every label still to come */
    if (fresh)
      gst_seqlabel_labelpad_gap (self, run_frame_time (self, self->open_segment_start), 0);
    ret = push_gap_silence (self);
    if (ret != GST_FLOW_OK)
      return ret;
  }

  if (planar ? !gst_audio_buffer_map (&abuf, &self->info, buf, GST_MAP_READ) :
      !gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("seqlabel: cannot map buffer"), (NULL));
    return GST_FLOW_ERROR;
  }
  if (planar) {
    frames = abuf.n_samples;
    data = interleave (self, &abuf);
  } else {
    frames = map.size / GST_AUDIO_INFO_BPF (&self->info);
    data = map.data;
  }
  n = frames * GST_AUDIO_INFO_CHANNELS (&self->info);
  switch (GST_AUDIO_INFO_FORMAT (&self->info)) {
    case GST_AUDIO_FORMAT_S16LE:
      s16 = (const gint16 *) data;
      break;
    case GST_AUDIO_FORMAT_F32LE:
      f32 = (const float *) data;
      break;
    default:
      f32 = unpack_to_float (self, data, n);
      break;
  }

  begin_callbacks (self, &sink);
  rc = push_audio (self, f32, s16, frames, &sink, err, sizeof err);
  end_callbacks (self);
  /* the library refuses a chunk holding NaN or Inf whole, before taking any
   * of it: looked for here only then, not in every buffer */
  if (rc != 0 && self->cb_flow == GST_FLOW_OK && f32 != NULL
      && (bad = first_non_finite (f32, n)) >= 0) {
    ret = skip_non_finite (self, buf, frames, f32[bad], (gsize) bad);
  } else {
    self->run_samples += frames;
    self->gap_filled = 0;
    self->warned_non_finite = FALSE;
    if (rc != 0) {
      ret = self->cb_flow;
      if (ret == GST_FLOW_OK) {
        GST_ELEMENT_ERROR (self, STREAM, FAILED, ("seqlabel: %s", err),
            ("buffer %" GST_TIME_FORMAT ", run started at %" GST_TIME_FORMAT,
                GST_TIME_ARGS (ts), GST_TIME_ARGS (self->base_ts)));
        ret = GST_FLOW_ERROR;
      }
      gst_seqlabel_reset_run (self);
    }
  }

  self->put_meta = self->frames->len > 0;
  if (self->put_meta)
    gst_buffer_add_seqlabel_meta (buf, (const GstSeqLabelFrame *) self->frames->data,
        self->frames->len, (const gfloat *) self->probs->data, self->n_classes);
  g_array_set_size (self->frames, 0);   /* on this meta: none is carried further */
  g_array_set_size (self->probs, 0);
  if (self->speech_class >= 0)
    gst_buffer_add_audio_level_meta (buf, level_dbov (f32, s16, n),
        self->last_is_speech);
  if (planar)
    gst_audio_buffer_unmap (&abuf);
  else
    gst_buffer_unmap (buf, &map);
  return ret;
}
