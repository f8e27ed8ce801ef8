/* The `seqlabel` element: GObject boilerplate, properties, pads, caps,
 * queries and events. The labeling itself is libseqlabel's (seqlabel_run.c
 * feeds it); this file only wires it into GStreamer. See docs/element.md. */
#include "gstseqlabel.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY (gst_seqlabel_debug);
#define GST_CAT_DEFAULT gst_seqlabel_debug


/* The element's own defaults; the labeler's and decoder's settings default
 * to the library's (sl_labeler_config_default), as `seqlabel label`'s do. */
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_MESSAGE_MODE GST_SEQLABEL_MESSAGE_SEGMENT
#define DEFAULT_LABEL_FORMAT GST_SEQLABEL_FORMAT_AUDACITY
#define DEFAULT_GATE GST_SEQLABEL_GATE_NONE

enum {
  PROP_0,
  PROP_MODEL,
  PROP_WINDOW,
  PROP_LEFT_CONTEXT,
  PROP_LOOKAHEAD,
  PROP_MAX_LATENCY,
  PROP_CLIP_EDGES,
  PROP_SMOOTHING,
  PROP_SWITCH_PENALTY,
  PROP_SMOOTHING_LAG,
  PROP_MIN_DURATIONS,
  PROP_TARGET_CLASS,
  PROP_THRESHOLD_ON,
  PROP_THRESHOLD_OFF,
  PROP_PADDING,
  PROP_POST_MESSAGES,
  PROP_MESSAGE_MODE,
  PROP_SEGMENT_STARTS,
  PROP_LABEL_FORMAT,
  PROP_NUM_THREADS,
  PROP_GATE,
  PROP_SKIP_CLASSES,
  PROP_ONLY_CLASSES,
  PROP_CHANNEL,
  PROP_TIME_ORIGIN,
  PROP_LATENCY,
};

/* Any sample format, rate, channel count and layout: the element converts its
 * input to float, mono and the model's rate itself (as `seqlabel label` reads
 * files), while the audio passes through unchanged. */
#define SEQLABEL_AUDIO_CAPS \
  "audio/x-raw, format = (string) " GST_AUDIO_FORMATS_ALL ", rate = (int) [ 1, MAX ], " \
  "channels = (int) [ 1, MAX ], layout = (string) { interleaved, non-interleaved }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (SEQLABEL_AUDIO_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SEQLABEL_AUDIO_CAPS));
static GstStaticPadTemplate labels_template = GST_STATIC_PAD_TEMPLATE ("labels",
    GST_PAD_SRC, GST_PAD_REQUEST,
    GST_STATIC_CAPS ("text/x-raw, format = (string) utf8; application/x-json; "
        "application/x-subtitle-vtt; application/x-subtitle; application/x-praat-textgrid"));

#define gst_seqlabel_parent_class parent_class
G_DEFINE_TYPE (GstSeqLabel, gst_seqlabel, GST_TYPE_BASE_TRANSFORM);

GType
gst_seqlabel_smoothing_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_SEQLABEL_SMOOTHING_NONE, "Per-frame argmax", "none"},
    {GST_SEQLABEL_SMOOTHING_VITERBI,
        "Fixed-lag Viterbi: each label change costs switch-penalty nats", "viterbi"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstSeqLabelSmoothing", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_seqlabel_gate_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_SEQLABEL_GATE_NONE, "All audio passes as it comes", "none"},
    {GST_SEQLABEL_GATE_DROP,
        "Only the target class's audio passes, once labelled; the rest is dropped", "drop"},
    {GST_SEQLABEL_GATE_SILENCE,
        "All audio passes once labelled, the target class's as it is, the rest as "
        "silence", "silence"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstSeqLabelGate", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_seqlabel_message_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_SEQLABEL_MESSAGE_FRAME, "One message per frame", "frame"},
    {GST_SEQLABEL_MESSAGE_SEGMENT, "One message per finished segment", "segment"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstSeqLabelMessageMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_seqlabel_format_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_SEQLABEL_FORMAT_AUDACITY,
        "Audacity label track lines: start<TAB>end<TAB>label per segment", "audacity"},
    {GST_SEQLABEL_FORMAT_JSONL, "JSON Lines, one object per frame", "jsonl"},
    {GST_SEQLABEL_FORMAT_JSONL_SEGMENTS, "JSON Lines, one object per segment",
        "jsonl-segments"},
    {GST_SEQLABEL_FORMAT_FRAMES,
        "TSV table, one row per frame with every class probability", "frames"},
    {GST_SEQLABEL_FORMAT_RTTM, "RTTM lines, one per segment", "rttm"},
    {GST_SEQLABEL_FORMAT_TEXT,
        "The bare label, segments cut into pieces of at most 0.25 s so that "
        "subtitle muxers and textoverlay need not wait for a segment's end", "text"},
    {GST_SEQLABEL_FORMAT_WEBVTT,
        "WebVTT subtitles: the header, then a cue per segment (a .vtt file)", "webvtt"},
    {GST_SEQLABEL_FORMAT_TEXTGRID,
        "Praat TextGrid (also for ELAN): one interval tier, written whole when the "
        "stream ends (EOS)", "textgrid"},
    {GST_SEQLABEL_FORMAT_SUMMARY,
        "One JSON line when the stream ends (EOS): its duration and each class's "
        "seconds, share and segments", "summary"},
    {GST_SEQLABEL_FORMAT_SRT,
        "SubRip subtitles: a numbered cue per segment (a .srt file)", "srt"},
    {GST_SEQLABEL_FORMAT_CSV,
        "CSV table (spreadsheets, databases): the header start,end,label,confidence, "
        "then a row per segment", "csv"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstSeqLabelFormat", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ---------------------------------------------------------------------- */
/* properties */

static void
gst_seqlabel_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSeqLabel *self = GST_SEQLABEL (object);
  GstSeqLabelSettings *p = &self->props;
  GstState running;

  GST_OBJECT_LOCK (self);
  /* taken when the element starts: set while it runs, it waits for the next
   * start, which the application may not expect (read back, it gives the new
   * value while the old one is in force): said on the bus, after the lock */
  running = (pspec->flags & GST_PARAM_MUTABLE_READY) && GST_STATE (self) > GST_STATE_READY
      ? GST_STATE (self) : GST_STATE_VOID_PENDING;
  switch (prop_id) {
    case PROP_MODEL:
      /* NULL: the default model, resolved when it is loaded */
      g_free (p->model_path);
      p->model_path = g_value_dup_string (value);
      if (p->model_path != NULL && p->model_path[0] == '\0') {
        g_free (p->model_path);
        p->model_path = NULL;
      }
      break;
    case PROP_WINDOW:
      p->window = g_value_get_int (value);
      break;
    case PROP_LEFT_CONTEXT:
      p->left_context = g_value_get_int (value);
      break;
    case PROP_LOOKAHEAD:
      p->lookahead = g_value_get_int (value);
      break;
    case PROP_MAX_LATENCY:
      p->max_latency = g_value_get_double (value);
      break;
    case PROP_CLIP_EDGES:
      p->clip_edges = g_value_get_boolean (value);
      break;
    case PROP_SMOOTHING:
      p->smoothing = g_value_get_enum (value);
      break;
    case PROP_SWITCH_PENALTY:
      p->switch_penalty = g_value_get_double (value);
      self->retune_pending = TRUE;
      break;
    case PROP_SMOOTHING_LAG:
      p->smoothing_lag = g_value_get_int (value);
      break;
    case PROP_MIN_DURATIONS:
      g_free (p->min_durations);
      p->min_durations = g_value_dup_string (value);
      break;
    case PROP_TARGET_CLASS:
      g_free (p->target_class);
      p->target_class = g_value_dup_string (value);
      break;
    case PROP_THRESHOLD_ON:
      p->threshold_on = g_value_get_double (value);
      self->retune_pending = TRUE;
      break;
    case PROP_THRESHOLD_OFF:
      p->threshold_off = g_value_get_double (value);
      self->retune_pending = TRUE;
      break;
    case PROP_PADDING:
      p->padding = g_value_get_double (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_MESSAGE_MODE:
      self->message_mode = g_value_get_enum (value);
      break;
    case PROP_SEGMENT_STARTS:
      self->segment_starts = g_value_get_boolean (value);
      break;
    case PROP_LABEL_FORMAT:
      self->label_format = g_value_get_enum (value);
      break;
    case PROP_NUM_THREADS:
      p->num_threads = g_value_get_int (value);
      break;
    case PROP_GATE:
      self->gate = g_value_get_enum (value);
      break;
    case PROP_SKIP_CLASSES:
      g_free (p->skip_classes);
      p->skip_classes = g_value_dup_string (value);
      break;
    case PROP_ONLY_CLASSES:
      g_free (p->only_classes);
      p->only_classes = g_value_dup_string (value);
      break;
    case PROP_CHANNEL:
      p->channel = g_value_get_int (value);
      break;
    case PROP_TIME_ORIGIN:
      g_free (p->time_origin);
      p->time_origin = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  if (running != GST_STATE_VOID_PENDING)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("seqlabel: %s set while %s takes effect at the next start (from READY)",
            pspec->name, gst_element_state_get_name (running)), (NULL));
}

static void
gst_seqlabel_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstSeqLabel *self = GST_SEQLABEL (object);
  GstSeqLabelSettings *p = &self->props;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODEL:
      /* unset: the model in use, or the one a start would load */
      if (p->model_path != NULL)
        g_value_set_string (value, p->model_path);
      else if (self->model_loaded_path != NULL)
        g_value_set_string (value, self->model_loaded_path);
      else
        g_value_take_string (value, gst_seqlabel_default_model_path ());
      break;
    case PROP_WINDOW:
      g_value_set_int (value, p->window);
      break;
    case PROP_LEFT_CONTEXT:
      g_value_set_int (value, p->left_context);
      break;
    case PROP_LOOKAHEAD:
      g_value_set_int (value, p->lookahead);
      break;
    case PROP_MAX_LATENCY:
      g_value_set_double (value, p->max_latency);
      break;
    case PROP_CLIP_EDGES:
      g_value_set_boolean (value, p->clip_edges);
      break;
    case PROP_SMOOTHING:
      g_value_set_enum (value, p->smoothing);
      break;
    case PROP_SWITCH_PENALTY:
      g_value_set_double (value, p->switch_penalty);
      break;
    case PROP_SMOOTHING_LAG:
      g_value_set_int (value, p->smoothing_lag);
      break;
    case PROP_MIN_DURATIONS:
      g_value_set_string (value, p->min_durations);
      break;
    case PROP_TARGET_CLASS:
      g_value_set_string (value, p->target_class);
      break;
    case PROP_THRESHOLD_ON:
      g_value_set_double (value, p->threshold_on);
      break;
    case PROP_THRESHOLD_OFF:
      g_value_set_double (value, p->threshold_off);
      break;
    case PROP_PADDING:
      g_value_set_double (value, p->padding);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_MESSAGE_MODE:
      g_value_set_enum (value, self->message_mode);
      break;
    case PROP_SEGMENT_STARTS:
      g_value_set_boolean (value, self->segment_starts);
      break;
    case PROP_LABEL_FORMAT:
      g_value_set_enum (value, self->label_format);
      break;
    case PROP_NUM_THREADS:
      g_value_set_int (value, p->num_threads);
      break;
    case PROP_GATE:
      g_value_set_enum (value, self->gate);
      break;
    case PROP_SKIP_CLASSES:
      g_value_set_string (value, p->skip_classes);
      break;
    case PROP_ONLY_CLASSES:
      g_value_set_string (value, p->only_classes);
      break;
    case PROP_CHANNEL:
      g_value_set_int (value, p->channel);
      break;
    case PROP_TIME_ORIGIN:
      g_value_set_string (value, p->time_origin);
      break;
    case PROP_LATENCY:
      g_value_set_uint64 (value, self->latency);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---------------------------------------------------------------------- */
/* caps */

static GstCaps *
gst_seqlabel_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCaps *res;

  /* The audio passes unchanged, in either direction: whatever rate and channel
   * count upstream gives is converted inside (gst_seqlabel_set_input), so
   * converters in front keep the stream's own format. */
  if (filter)
    res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  else
    res = gst_caps_ref (caps);
  GST_LOG_OBJECT (trans, "%s caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SRC ? "src" : "sink", caps, res);
  return res;
}

/* wavparse gives 3, 7 and 9 or more channels no channel-mask, which
 * gst_audio_info_from_caps refuses. A downmix or one channel needs no
 * positions, so such channels are read as unpositioned (mask 0). */
static gboolean
audio_info_from_caps (GstAudioInfo * info, GstCaps * caps)
{
  if (gst_audio_info_from_caps (info, caps))
    return TRUE;
  if (gst_caps_get_size (caps) != 1
      || gst_structure_has_field (gst_caps_get_structure (caps, 0), "channel-mask"))
    return FALSE;
  GstCaps *unpositioned = gst_caps_copy (caps);
  gst_caps_set_simple (unpositioned, "channel-mask", GST_TYPE_BITMASK, (guint64) 0, NULL);
  gboolean ok = gst_audio_info_from_caps (info, unpositioned);
  gst_caps_unref (unpositioned);
  return ok;
}

static gboolean
gst_seqlabel_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstSeqLabel *self = GST_SEQLABEL (trans);
  GstAudioInfo info;
  gboolean ok;
  (void) outcaps;

  /* refused before, the error posted: the source retries them with each
   * buffer, and one error is enough */
  if (self->refused_caps != NULL && gst_caps_is_equal (incaps, self->refused_caps))
    return FALSE;
  if (!audio_info_from_caps (&info, incaps)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("seqlabel: unreadable audio caps"),
        ("caps %" GST_PTR_FORMAT, incaps));
    ok = FALSE;
  } else {
    ok = gst_seqlabel_ensure_model (self, TRUE) && gst_seqlabel_set_input (self, &info);
  }
  gst_caps_replace (&self->refused_caps, ok ? NULL : incaps);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* latency */

/* Upstream's latency plus ours: a label is final `latency` after its audio,
 * and on the labels pad a "text" piece waits for up to TEXT_PIECE_FRAMES more.
 * The maximum grows only on the labels pad, whose own task and queue hold what
 * comes late. The audio reaches a synchronised sink in the streaming thread,
 * at once or, through the gate, a core block (0.8 s) at a time, and the sink's
 * wait holds that thread: a queue after the element (or the source's buffer)
 * must absorb it, and with the maximum left as upstream's GStreamer says when
 * nothing does. */
static gboolean
gst_seqlabel_answer_latency (GstSeqLabel * self, GstQuery * query, gboolean labels)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean live;
  GstClockTime min, max, ours;

  if (!gst_pad_peer_query (trans->sinkpad, query))
    return FALSE;
  gst_query_parse_latency (query, &live, &min, &max);
  GST_OBJECT_LOCK (self);
  self->upstream_live = live;   /* its pauses stop the time of its audio */
  self->upstream_live_known = TRUE;
  ours = self->latency;
  if (GST_CLOCK_TIME_IS_VALID (ours) && labels && self->run_format == GST_SEQLABEL_FORMAT_TEXT)
    ours += gst_util_uint64_scale_int_ceil (TEXT_PIECE_FRAMES * self->hop, GST_SECOND,
        self->rate);
  GST_OBJECT_UNLOCK (self);
  if (GST_CLOCK_TIME_IS_VALID (ours)) {
    min += ours;
    if (labels && GST_CLOCK_TIME_IS_VALID (max))
      max += ours;
  }
  GST_DEBUG_OBJECT (self, "latency on the %s pad: ours %" GST_TIME_FORMAT ", total min %"
      GST_TIME_FORMAT " max %" GST_TIME_FORMAT, labels ? "labels" : "src",
      GST_TIME_ARGS (ours), GST_TIME_ARGS (min), GST_TIME_ARGS (max));
  gst_query_set_latency (query, live, min, max);
  return TRUE;
}

static gboolean
gst_seqlabel_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    return gst_seqlabel_answer_latency (GST_SEQLABEL (trans), query, FALSE);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

/* Whether a seek is one already sent upstream: a pipeline's seek reaches every
 * sink, the labels pad's too, and a second copy upstream would make a
 * demuxer seek twice (a non-flushing seek then repeats audio, and labels).
 * Records it otherwise. */
static gboolean
seek_seen (GstSeqLabel * self, GstEvent * event)
{
  guint32 seqnum = gst_event_get_seqnum (event);
  gboolean seen;

  GST_OBJECT_LOCK (self);
  seen = self->last_seek_seqnum == seqnum;
  self->last_seek_seqnum = seqnum;
  GST_OBJECT_UNLOCK (self);
  return seen;
}

/* A seek that upstream refused is forgotten, so a copy of it is tried again
 * and answered as upstream answers it, not taken as done. */
static void
seek_failed (GstSeqLabel * self, guint32 seqnum)
{
  GST_OBJECT_LOCK (self);
  if (self->last_seek_seqnum == seqnum)
    self->last_seek_seqnum = GST_SEQNUM_INVALID;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_seqlabel_src_event (GstBaseTransform * trans, GstEvent * event)
{
  GstSeqLabel *self = GST_SEQLABEL (trans);
  gboolean seek = GST_EVENT_TYPE (event) == GST_EVENT_SEEK, ok;
  guint32 seqnum = gst_event_get_seqnum (event);

  if (seek && seek_seen (self, event)) {
    gst_event_unref (event);
    return TRUE;
  }
  /* QoS goes upstream, for the source to act on, past the base class, which
   * with its qos property set would drop late buffers: frames never
   * labelled, and the run's frames after each drop stamped early by it. An
   * element that labels every frame drops none for lateness. */
  if (GST_EVENT_TYPE (event) == GST_EVENT_QOS)
    return gst_pad_push_event (GST_BASE_TRANSFORM_SINK_PAD (trans), event);
  ok = GST_BASE_TRANSFORM_CLASS (parent_class)->src_event (trans, event);
  if (seek && !ok)
    seek_failed (self, seqnum);
  return ok;
}

/* Upstream events from the labels pad's sink: a seek goes the src pad's way,
 * upstream once (see seek_seen); QoS stays here, as the lateness of text must
 * not make upstream drop audio; the others go upstream. */
static gboolean
gst_seqlabel_labelpad_upstream_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_SEEK:
      return gst_seqlabel_src_event (GST_BASE_TRANSFORM (parent), event);
    case GST_EVENT_QOS:
      gst_event_unref (event);
      return TRUE;
    default:
      return gst_pad_event_default (pad, parent, event);
  }
}

static gboolean
gst_seqlabel_labelpad_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  GstSeqLabel *self = GST_SEQLABEL (parent);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_LATENCY:
      return gst_seqlabel_answer_latency (self, query, TRUE);
    case GST_QUERY_CAPS:{
      GstSeqLabelFormat format;
      GstCaps *caps, *filter;
      /* started: the format of the run, set while playing or not */
      GST_OBJECT_LOCK (self);
      format = self->labeler != NULL ? self->run_format : self->label_format;
      GST_OBJECT_UNLOCK (self);
      caps = gst_seqlabel_labelpad_caps (format);
      gst_query_parse_caps (query, &filter);
      if (filter) {
        GstCaps *tmp = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref (caps);
        caps = tmp;
      }
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
      return TRUE;
    }
    default:
      return gst_pad_query_default (pad, parent, query);
  }
}

/* ---------------------------------------------------------------------- */
/* events */

/* Whether two segments turn buffer times into stream and running times alike
 * (stop, duration and position aside). */
static gboolean
same_time_mapping (const GstSegment * a, const GstSegment * b)
{
  return a->format == b->format && a->rate == b->rate && a->applied_rate == b->applied_rate
      && a->flags == b->flags && a->base == b->base && a->offset == b->offset
      && a->start == b->start && a->time == b->time;
}

static gboolean
gst_seqlabel_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstSeqLabel *self = GST_SEQLABEL (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_STREAM_START:
      /* a new stream without EOS between (playbin's gapless next file, or the
       * same one looped: its id may be the same) is a new signal: the last
       * one's frames are labelled from its own audio, as at EOS, the audio the
       * gate holds goes out, and its labels and document go out on its own
       * stream and segment, all before the new stream begins */
      gst_seqlabel_reverse_flush (self);
      gst_seqlabel_finish_run (self);
      if (self->document_start >= 0)
        gst_seqlabel_labelpad_document (self);
      self->document_sent = FALSE;
      GST_OBJECT_LOCK (self);
      self->labelpad_need_start = TRUE;
      GST_OBJECT_UNLOCK (self);
      break;
    case GST_EVENT_FLUSH_START:
      gst_seqlabel_labelpad_event (self, gst_event_ref (event));
      break;
    case GST_EVENT_FLUSH_STOP:
      /* a flush (a seek) discards the run: its tail is not wanted, and the
       * voice activity and time before it are no more; so is the audio
       * gathered in reverse playback */
      gst_seqlabel_reverse_clear (self);
      gst_seqlabel_reset_run (self);
      gst_seqlabel_utc_flush (self);
      self->next_run_ts = GST_CLOCK_TIME_NONE;
      self->last_is_speech = FALSE;
      g_array_set_size (self->document_segs, 0);
      self->document_end = 0;
      self->document_start = -1;
      self->document_sent = FALSE;
      gst_seqlabel_labelpad_event (self, gst_event_ref (event));
      GST_OBJECT_LOCK (self);
      self->labelpad_need_segment = TRUE;
      self->labelpad_need_header = TRUE;        /* filesink starts its file anew */
      GST_OBJECT_UNLOCK (self);
      break;
    case GST_EVENT_SEGMENT:{
      const GstSegment *in;
      GstSegment seg, cur;
      gst_event_parse_segment (event, &in);
      if (in->format == GST_FORMAT_TIME)
        gst_segment_copy_into (in, &seg);
      else
        gst_segment_init (&seg, GST_FORMAT_TIME);
      /* The same segment again changes nothing. One that maps times
       * differently ends the run (its frames finished on the old timeline);
       * one with only a new end (a live stream's, a growing file's) does not. */
      cur = self->segment;
      cur.position = seg.position;
      if (gst_segment_is_equal (&cur, &seg))
        break;
      /* audio that comes faster or slower than its stream plays (a trick
       * mode: scaletempo's fast forward) is labelled as it comes, 10 ms of it
       * a frame, where a frame would be 10 ms of the stream: said, once */
      if (seg.applied_rate != 1.0 && seg.applied_rate != self->segment.applied_rate)
        GST_ELEMENT_WARNING (self, STREAM, FORMAT,
            ("seqlabel: the audio comes %sat %g times its stream's speed (the segment's applied "
                "rate %g, a trick mode): its labels are of the audio as it comes, and their "
                "frames and text times count its own time from the stream time it began at; "
                "the messages' stream-time is the stream's", seg.applied_rate < 0 ?
                "reversed, " : "", fabs (seg.applied_rate), seg.applied_rate), (NULL));
      /* audio gathered in reverse playback is of the segment before: out first */
      gst_seqlabel_reverse_flush (self);
      if (!same_time_mapping (&self->segment, &seg)) {
        gst_seqlabel_finish_run (self);
        self->next_run_ts = GST_CLOCK_TIME_NONE;
      }
      /* (the labels pad's preparation may read them on another thread) */
      GST_OBJECT_LOCK (self);
      self->segment = seg;
      self->labelpad_need_segment = TRUE;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    case GST_EVENT_GAP:{
      GstClockTime ts, dur;
      gst_event_parse_gap (event, &ts, &dur);
      /* the audio gathered before it goes first (reverse playback) */
      gst_seqlabel_reverse_flush (self);
      /* a brief one (a lost packet) is silence within the run, its frames
       * labelled once the audio goes on: it goes on on the audio pad, not on
       * the labels pad */
      if (gst_seqlabel_fill_gap (self, ts, dur))
        break;
      /* no audio for a while: the frames before the gap are finished, the
       * run after it starts at the next buffer's timestamp */
      gst_seqlabel_finish_run (self);
      if (GST_CLOCK_TIME_IS_VALID (ts))
        self->next_run_ts = ts + (GST_CLOCK_TIME_IS_VALID (dur) ? dur : 0);
      gst_seqlabel_labelpad_gap (self, ts, dur);
      break;
    }
    case GST_EVENT_SEGMENT_DONE:
      /* a segment seek's segment is played: its last frames are labelled
       * (and held audio let out) now, not when a next segment comes, and its
       * document written, as at EOS (a looping segment seek: one per loop) */
      gst_seqlabel_reverse_flush (self);
      gst_seqlabel_finish_run (self);
      if (self->document_start >= 0)
        gst_seqlabel_labelpad_document (self);
      break;
    case GST_EVENT_EOS:
      gst_seqlabel_reverse_flush (self);
      gst_seqlabel_finish_run (self);
      /* (a stream with no audio has its empty document too) */
      if (self->document_start >= 0 || !self->document_sent)
        gst_seqlabel_labelpad_document (self);
      gst_seqlabel_labelpad_event (self, gst_event_new_eos ());
      break;
    case GST_EVENT_CAPS:{
      /* set_caps ends the run first when the gate holds audio in the old
       * format; audio gathered in reverse playback is in it too: labelled
       * and out first, unless the caps are the same again */
      GstCaps *caps, *cur;
      gst_event_parse_caps (event, &caps);
      cur = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
      if (cur == NULL || !gst_caps_is_equal (cur, caps))
        gst_seqlabel_reverse_flush (self);
      if (cur != NULL)
        gst_caps_unref (cur);
      break;
    }
    default:
      /* others (tags, ...) wait behind the audio gathered in reverse
       * playback, or that the gate holds */
      if (GST_EVENT_IS_SERIALIZED (event) && (gst_seqlabel_reverse_hold_event (self, event)
              || gst_seqlabel_gate_hold_event (self, event)))
        return TRUE;
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* ---------------------------------------------------------------------- */
/* the labels request pad */

static GstPad *
gst_seqlabel_request_new_pad (GstElement * element, GstPadTemplate * templ,
    const gchar * name, const GstCaps * caps)
{
  GstSeqLabel *self = GST_SEQLABEL (element);
  GstPad *pad;
  (void) caps;

  if (name != NULL && strcmp (name, "labels") != 0) {
    GST_WARNING_OBJECT (self, "no pad called %s; the request pad is \"labels\"", name);
    return NULL;
  }
  GST_OBJECT_LOCK (self);
  if (self->labelpad != NULL) {
    GST_OBJECT_UNLOCK (self);
    GST_WARNING_OBJECT (self, "the labels pad exists already");
    return NULL;
  }
  GST_OBJECT_UNLOCK (self);

  pad = gst_pad_new_from_template (templ, "labels");
  gst_pad_set_query_function (pad, gst_seqlabel_labelpad_query);
  gst_pad_set_event_function (pad, gst_seqlabel_labelpad_upstream_event);
  gst_seqlabel_labelpad_setup (self, pad);
  gst_pad_use_fixed_caps (pad);

  /* what must precede data is asked for when the pad activates */
  GST_OBJECT_LOCK (self);
  self->labelpad = pad;
  self->labelpad_fresh = TRUE;
  GST_OBJECT_UNLOCK (self);

  if (!gst_element_add_pad (element, pad)) {
    GST_OBJECT_LOCK (self);
    self->labelpad = NULL;
    GST_OBJECT_UNLOCK (self);
    return NULL;
  }
  return pad;
}

static void
gst_seqlabel_release_pad (GstElement * element, GstPad * pad)
{
  GstSeqLabel *self = GST_SEQLABEL (element);

  GST_OBJECT_LOCK (self);
  if (self->labelpad == pad)
    self->labelpad = NULL;
  GST_OBJECT_UNLOCK (self);
  /* the task may be blocked in a push downstream (a sink waiting for preroll
   * in PAUSED, or for its clock): the sink it pushes to gets a flush-start, so
   * that the task can be joined (a sink not being pushed to is left as it is) */
  gst_seqlabel_labelpad_unblock (self, pad);
  gst_pad_set_active (pad, FALSE);
  gst_element_remove_pad (element, pad);
}

/* ---------------------------------------------------------------------- */
/* life cycle */

static gboolean
gst_seqlabel_start (GstBaseTransform * trans)
{
  GstSeqLabel *self = GST_SEQLABEL (trans);

  gst_segment_init (&self->segment, GST_FORMAT_TIME);
  self->have_info = FALSE;
  g_array_set_size (self->document_segs, 0);
  self->document_end = 0;
  self->document_start = -1;
  self->document_sent = FALSE;
  self->labelpad_need_start = TRUE;
  self->labelpad_need_segment = TRUE;
  GST_OBJECT_LOCK (self);
  self->upstream_live_known = FALSE;    /* the next latency query says */
  GST_OBJECT_UNLOCK (self);
  if (!gst_seqlabel_ensure_model (self, TRUE) || !gst_seqlabel_open (self))
    return FALSE;
  /* the latency is known now: let a live pipeline reconfigure */
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_latency (GST_OBJECT (self)));
  return TRUE;
}

static gboolean
gst_seqlabel_stop (GstBaseTransform * trans)
{
  gst_seqlabel_close (GST_SEQLABEL (trans));
  return TRUE;
}

static GstStateChangeReturn
gst_seqlabel_change_state (GstElement * element, GstStateChange transition)
{
  GstStateChangeReturn ret;

  /* the labels queue is bounded in PLAYING alone, and unbounded before the
   * pause's own gap below is queued: a paused labels sink drains nothing, and
   * the streaming thread (or this one) waiting on a full queue would keep the
   * audio sink from prerolling, and the pause from returning, for good */
  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED) {
    gst_seqlabel_labelpad_bound (GST_SEQLABEL (element), FALSE);
    gst_seqlabel_pause_begins (GST_SEQLABEL (element));
  }
  ret = GST_ELEMENT_CLASS (gst_seqlabel_parent_class)->change_state (element, transition);
  if (ret != GST_STATE_CHANGE_FAILURE && transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING) {
    gst_seqlabel_labelpad_bound (GST_SEQLABEL (element), TRUE);
    gst_seqlabel_pause_ends (GST_SEQLABEL (element), TRUE);
  }
  if (ret == GST_STATE_CHANGE_FAILURE && transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED) {
    gst_seqlabel_labelpad_bound (GST_SEQLABEL (element), TRUE);     /* still playing */
    gst_seqlabel_pause_ends (GST_SEQLABEL (element), FALSE);
  }
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    gst_seqlabel_pause_ends (GST_SEQLABEL (element), FALSE);        /* stopped, not paused */

  /* a sink on the labels pad prerolls again on pause, and the labels of the
   * audio that prerolls the audio sink may be a second away: without a gap now
   * the pipeline would never reach PAUSED */
  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED && ret != GST_STATE_CHANGE_FAILURE)
    gst_seqlabel_labelpad_preroll_again (GST_SEQLABEL (element));
  return ret;
}

static GstFlowReturn
gst_seqlabel_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstSeqLabel *self = GST_SEQLABEL (trans);
  GstFlowReturn ret;
  guint64 n;

  if (!gst_seqlabel_planes_found (self, buf))
    return GST_FLOW_ERROR;
  /* reverse playback: gathered, and labelled forwards once the span is whole */
  ret = GST_FLOW_OK;
  if (self->segment.rate < 0 && gst_seqlabel_reverse_take (self, buf, &ret))
    return ret == GST_FLOW_OK ? GST_BASE_TRANSFORM_FLOW_DROPPED : ret;
  /* (one without a timestamp in reverse playback is not labelled) */
  if (ret == GST_FLOW_OK)
    ret = gst_seqlabel_process (self, buf);

  if (ret == SEQLABEL_FLOW_UNLABELLED) {
    if (self->gate_mode == GST_SEQLABEL_GATE_NONE)
      return GST_FLOW_OK;
    /* not the class's audio: held at the (reset) run's start, whose frames
     * pass nothing, and let out at once, silenced or dropped */
    ret = gst_seqlabel_gate_hold (self, gst_buffer_ref (buf), 0);
    if (ret == GST_FLOW_OK)
      ret = gst_seqlabel_gate_run_over (self);
    return ret == GST_FLOW_OK ? GST_BASE_TRANSFORM_FLOW_DROPPED : ret;
  }
  if (self->gate_mode == GST_SEQLABEL_GATE_NONE || ret != GST_FLOW_OK)
    return ret;
  /* the gate keeps it until its frames are labelled and pushes it itself */
  n = gst_seqlabel_buffer_frames (self, buf);
  ret = gst_seqlabel_gate_hold (self, gst_buffer_ref (buf), self->run_samples - n);
  return ret == GST_FLOW_OK ? GST_BASE_TRANSFORM_FLOW_DROPPED : ret;
}

static void
gst_seqlabel_finalize (GObject * object)
{
  GstSeqLabel *self = GST_SEQLABEL (object);

  gst_seqlabel_close (self);
  g_free (self->props.model_path);
  g_free (self->props.min_durations);
  g_free (self->props.target_class);
  g_free (self->props.skip_classes);
  g_free (self->props.only_classes);
  g_free (self->props.time_origin);
  g_array_free (self->document_segs, TRUE);
  g_array_free (self->utc_shifts, TRUE);
  g_array_free (self->utc_pauses, TRUE);
  g_array_free (self->frames, TRUE);
  g_array_free (self->probs, TRUE);
  g_byte_array_unref (self->unpacked);
  g_byte_array_unref (self->interleaved);
  gst_seqlabel_gate_free (self);
  gst_seqlabel_reverse_free (self);
  g_free (self->text);
  g_mutex_clear (&self->model_lock);
  while (!g_queue_is_empty (&self->lq))
    gst_mini_object_unref (g_queue_pop_head (&self->lq));
  g_mutex_clear (&self->lq_lock);
  g_cond_clear (&self->lq_cond);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* A library default (a float) as the decimal it was written as: 0.35f is
 * 0.3499999940395355 as a double, which an application comparing with 0.35,
 * or a property browser, would show */
static gdouble
decimal_of (float f)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_ascii_strtod (g_ascii_formatd (buf, sizeof buf, "%.7g", f), NULL);
}

static void
gst_seqlabel_init (GstSeqLabel * self)
{
  GstSeqLabelSettings *p = &self->props;
  sl_labeler_config def;

  sl_labeler_config_default (&def);
  p->model_path = NULL;
  p->window = def.window;
  p->left_context = def.left_context;
  p->lookahead = def.lookahead;
  p->max_latency = def.max_latency_s;
  p->clip_edges = def.clip_edges;
  p->smoothing = def.decoder.smoothing;
  p->switch_penalty = decimal_of (def.decoder.switch_penalty);
  p->smoothing_lag = def.decoder.smoothing_lag;
  p->min_durations = NULL;
  p->target_class = NULL;
  p->threshold_on = decimal_of (def.decoder.on_threshold);
  p->threshold_off = decimal_of (def.decoder.off_threshold);
  p->padding = decimal_of (def.decoder.pad_before_s);
  p->num_threads = def.num_threads;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->message_mode = DEFAULT_MESSAGE_MODE;
  self->label_format = DEFAULT_LABEL_FORMAT;
  self->gate = DEFAULT_GATE;
  gst_seqlabel_gate_init (self);
  gst_seqlabel_reverse_init (self);
  self->latency = GST_CLOCK_TIME_NONE;
  self->speech_class = -1;
  self->piece_label = -1;
  self->frames = g_array_new (FALSE, FALSE, sizeof (GstSeqLabelFrame));
  self->probs = g_array_new (FALSE, FALSE, sizeof (gfloat));
  self->document_segs = g_array_new (FALSE, FALSE, sizeof (sl_frame_segment));
  self->document_start = -1;
  self->utc_shifts = g_array_new (FALSE, FALSE, sizeof (GstSeqLabelPause));
  self->utc_pauses = g_array_new (FALSE, FALSE, sizeof (GstSeqLabelPause));
  self->pause_began_us = -1;
  self->unpacked = g_byte_array_new ();
  self->interleaved = g_byte_array_new ();
  gst_segment_init (&self->segment, GST_FORMAT_TIME);
  g_mutex_init (&self->model_lock);
  g_mutex_init (&self->lq_lock);
  g_cond_init (&self->lq_cond);
  g_queue_init (&self->lq);
  self->lq_flushing = TRUE;
  self->lq_position = GST_CLOCK_TIME_NONE;

  /* in place, never passthrough: the samples stay, but metas are added */
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), FALSE);
}

static void
gst_seqlabel_class_init (GstSeqLabelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw_ready = rw | GST_PARAM_MUTABLE_READY;
  const GParamFlags rw_playing = rw | GST_PARAM_MUTABLE_PLAYING;
  sl_labeler_config def;

  sl_labeler_config_default (&def);
  gobject_class->set_property = gst_seqlabel_set_property;
  gobject_class->get_property = gst_seqlabel_get_property;
  gobject_class->finalize = gst_seqlabel_finalize;

  g_object_class_install_property (gobject_class, PROP_MODEL,
      g_param_spec_string ("model", "Model",
          "Path of the seqlabel model file; the model fixes the sample rate, "
          "features and classes. Unset: $SEQLABEL_MODEL, else the installed default "
          "model, else (uninstalled) the source tree's model/default.slm (read back: the path "
          "of the model in use, or of the one a start would load)", NULL, rw_ready));
  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_int ("window", "Window",
          "Frames per encoder window (-1: the model's, or, when left-context or "
          "lookahead change, the model's core plus them); the core (window - "
          "left-context - lookahead) sets how often the encoder runs and most "
          "of the latency", -1, SL_MAX_WINDOW, def.window, rw_ready));
  g_object_class_install_property (gobject_class, PROP_LEFT_CONTEXT,
      g_param_spec_int ("left-context", "Left context",
          "Frames of past context in each encoder window (-1: the model's)",
          -1, SL_MAX_WINDOW, def.left_context, rw_ready));
  g_object_class_install_property (gobject_class, PROP_LOOKAHEAD,
      g_param_spec_int ("lookahead", "Lookahead",
          "Frames of future context each label waits for (-1: the model's); "
          "less lookahead means less latency", -1, SL_MAX_WINDOW,
          def.lookahead, rw_ready));
  g_object_class_install_property (gobject_class, PROP_MAX_LATENCY,
      g_param_spec_double ("max-latency", "Maximum latency",
          "Live input: labels final at most this many seconds after their audio "
          "(the decoder's delay included; input at another rate adds the resampler's): "
          "the model's window is kept whole and its core shrunk, so more encoder "
          "work per frame (0.015: a window per frame); not with window, "
          "left-context or lookahead (0: the model's own latency)",
          0.0, 3600.0, def.max_latency_s, rw_ready));
  g_object_class_install_property (gobject_class, PROP_CLIP_EDGES,
      g_param_spec_boolean ("clip-edges", "Clip edges",
          "Cut the first and last encoder windows short at the ends of the stream "
          "instead of filling them out with the model's silence frame (whole "
          "windows, as in training, label short streams better)",
          def.clip_edges, rw_ready));
  g_object_class_install_property (gobject_class, PROP_SMOOTHING,
      g_param_spec_enum ("smoothing", "Smoothing",
          "How frame labels are smoothed: viterbi removes the flicker that would "
          "make segments of its own and adds smoothing-lag frames of latency",
          gst_seqlabel_smoothing_get_type (), def.decoder.smoothing, rw_ready));
  g_object_class_install_property (gobject_class, PROP_SWITCH_PENALTY,
      g_param_spec_double ("switch-penalty", "Switch penalty",
          "Viterbi smoothing: cost of one label change, in nats (changeable while "
          "playing: from the next buffer's frames on)",
          0.0, 1e6, decimal_of (def.decoder.switch_penalty), rw_playing));
  g_object_class_install_property (gobject_class, PROP_SMOOTHING_LAG,
      g_param_spec_int ("smoothing-lag", "Smoothing lag",
          "Viterbi smoothing: frames after which a label is decided (-1: 5, or "
          "under max-latency as many of those as it leaves)",
          -1, 100000, def.decoder.smoothing_lag, rw_ready));
  g_object_class_install_property (gobject_class, PROP_MIN_DURATIONS,
      g_param_spec_string ("min-durations", "Minimum durations",
          "Shortest segment per class in seconds, e.g. \"speech=0.2,music=0.5\" "
          "(\"*=0.3\": every class not named); shorter runs take the label before them "
          "(a stream's first segment is kept)", NULL, rw_ready));
  g_object_class_install_property (gobject_class, PROP_TARGET_CLASS,
      g_param_spec_string ("target-class", "Target class",
          "Class decided by hysteresis thresholds and padding (voice activity "
          "detection: \"speech\"); empty: none", NULL, rw_ready));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD_ON,
      g_param_spec_double ("threshold-on", "Threshold on",
          "Target class: probability at which a segment starts (changeable while "
          "playing: from the next buffer's undecided frames on)",
          0.0, 1.0, decimal_of (def.decoder.on_threshold), rw_playing));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD_OFF,
      g_param_spec_double ("threshold-off", "Threshold off",
          "Target class: probability below which a segment ends (<= threshold-on; "
          "changeable while playing, as threshold-on; set both at once)",
          0.0, 1.0, decimal_of (def.decoder.off_threshold), rw_playing));
  g_object_class_install_property (gobject_class, PROP_PADDING,
      g_param_spec_double ("padding", "Padding",
          "Target class: seconds added before and after each target segment",
          0.0, 3600.0, decimal_of (def.decoder.pad_before_s), rw_ready));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post \"seqlabel\" element messages on the bus",
          DEFAULT_POST_MESSAGES, rw_playing));
  g_object_class_install_property (gobject_class, PROP_MESSAGE_MODE,
      g_param_spec_enum ("message-mode", "Message mode",
          "One bus message per frame or per finished segment",
          gst_seqlabel_message_mode_get_type (), DEFAULT_MESSAGE_MODE, rw_playing));
  g_object_class_install_property (gobject_class, PROP_SEGMENT_STARTS,
      g_param_spec_boolean ("segment-starts", "Segment starts",
          "Post a \"seqlabel-start\" element message as each segment begins (its "
          "label and start, once its first frame is decided), whatever post-messages says",
          FALSE, rw_playing));
  g_object_class_install_property (gobject_class, PROP_LABEL_FORMAT,
      g_param_spec_enum ("label-format", "Label format",
          "Text written on the \"labels\" request pad",
          gst_seqlabel_format_get_type (), DEFAULT_LABEL_FORMAT, rw_ready));
  g_object_class_install_property (gobject_class, PROP_NUM_THREADS,
      g_param_spec_int ("num-threads", "Threads",
          "Encoder threads (labels are the same for any count)",
          1, 64, def.num_threads, rw_ready));
  g_object_class_install_property (gobject_class, PROP_GATE,
      g_param_spec_enum ("gate", "Gate",
          "What becomes of the audio outside target-class segments (needs "
          "target-class): drop or silence holds the audio until it is labelled, "
          "which adds one frame hop to the latency", gst_seqlabel_gate_get_type (),
          DEFAULT_GATE, rw_ready));
  g_object_class_install_property (gobject_class, PROP_CHANNEL,
      g_param_spec_int ("channel", "Channel",
          "Label this channel of the input alone (1 the first: a stereo call's two "
          "sides, one element each), not the mean of all (0); the audio passes on "
          "whole, the gate cutting every channel; RTTM's channel column names it",
          0, 1024, 0, rw_ready));
  g_object_class_install_property (gobject_class, PROP_SKIP_CLASSES,
      g_param_spec_string ("skip-classes", "Skip classes",
          "Segment formats on the labels pad: leave out the segments of these classes, "
          "e.g. \"silence\" or \"silence,noise\" (a gap event instead; textgrid: empty "
          "intervals); bus messages and metas keep every frame", NULL, rw_ready));
  g_object_class_install_property (gobject_class, PROP_TIME_ORIGIN,
      g_param_spec_string ("time-origin", "Time origin",
          "jsonl, jsonl-segments and summary on the labels pad: times as UTC too (\"utc\", "
          "\"start_utc\", \"end_utc\", ISO 8601), stream time 0 being this moment: \"now\" "
          "(when the stream's first audio arrives; behind a live source each frame's time "
          "of day as captured, every pause of the pipeline added to the frames captured "
          "after it; behind a file, that moment plus stream time), \"@SECONDS\" since 1970, "
          "or ISO 8601 with its zone, e.g. \"2026-12-05T10:00:00Z\"", NULL, rw_ready));
  g_object_class_install_property (gobject_class, PROP_ONLY_CLASSES,
      g_param_spec_string ("only-classes", "Only classes",
          "Segment formats on the labels pad: only the segments of these classes, e.g. "
          "\"speech\" with target-class=speech (a VAD's segments); not with skip-classes",
          NULL, rw_ready));
  g_object_class_install_property (gobject_class, PROP_LATENCY,
      g_param_spec_uint64 ("latency", "Latency",
          "How long after its audio a frame's label is final, in nanoseconds "
          "(window, lookahead and decoder delay, known once started (PAUSED); "
          "plus the resampler's delay, once caps at another rate than the model's are set)",
          0, G_MAXUINT64, GST_CLOCK_TIME_NONE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_add_static_pad_template (element_class, &labels_template);
  gst_element_class_set_static_metadata (element_class,
      "Audio sequence labeler", "Filter/Analyzer/Audio",
      "Labels every 10 ms frame of audio (e.g. silence/speech/music/noise) with a "
      "transformer model; audio passes unchanged (with gate, only a class's audio), "
      "labels go out as buffer metas, bus messages and text on the \"labels\" pad",
      "seqlabel developers");

  element_class->request_new_pad = gst_seqlabel_request_new_pad;
  element_class->change_state = gst_seqlabel_change_state;
  element_class->release_pad = gst_seqlabel_release_pad;

  trans_class->start = gst_seqlabel_start;
  trans_class->stop = gst_seqlabel_stop;
  trans_class->transform_caps = gst_seqlabel_transform_caps;
  trans_class->set_caps = gst_seqlabel_set_caps;
  trans_class->transform_ip = gst_seqlabel_transform_ip;
  trans_class->sink_event = gst_seqlabel_sink_event;
  trans_class->src_event = gst_seqlabel_src_event;
  trans_class->query = gst_seqlabel_query;
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (gst_seqlabel_smoothing_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_seqlabel_message_mode_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_seqlabel_format_get_type (), 0);
  gst_type_mark_as_plugin_api (gst_seqlabel_gate_get_type (), 0);
}
