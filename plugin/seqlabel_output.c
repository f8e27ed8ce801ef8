/* Where completed labels go besides the buffer meta: "seqlabel" element
 * messages on the bus (in the manner of `level` and `spectrum`) and text
 * buffers on the "labels" request pad. Field names: docs/element.md. */
#include "gstseqlabel.h"

#define GST_CAT_DEFAULT gst_seqlabel_debug

/* timestamp, stream-time, running-time, duration: as `level` posts them, but
 * also for a start before the segment's (a label that began in a demuxer's
 * first buffer after a seek): its stream time is on the frames' grid, as the
 * labels pad writes it, and only a time that would be negative is NONE */
static GstClockTime
segment_time (const GstSegment * segment, GstClockTime ts, gboolean running)
{
  guint64 t;
  int sign = running
      ? gst_segment_to_running_time_full (segment, GST_FORMAT_TIME, ts, &t)
      : gst_segment_to_stream_time_full (segment, GST_FORMAT_TIME, ts, &t);
  return sign > 0 ? t : GST_CLOCK_TIME_NONE;
}

static GstStructure *
new_structure_named (GstSeqLabel * self, const char *name, GstClockTime ts)
{
  GstClockTime stream_time = segment_time (&self->segment, ts, FALSE);
  GstClockTime running_time = segment_time (&self->segment, ts, TRUE);

  return gst_structure_new (name,
      "timestamp", G_TYPE_UINT64, (guint64) ts,
      "stream-time", G_TYPE_UINT64, (guint64) stream_time,
      "running-time", G_TYPE_UINT64, (guint64) running_time, NULL);
}

static GstStructure *
new_message_structure (GstSeqLabel * self, GstClockTime ts, GstClockTime duration)
{
  GstStructure *s = new_structure_named (self, "seqlabel", ts);

  gst_structure_set (s, "duration", G_TYPE_UINT64, (guint64) duration, NULL);
  return s;
}

void
gst_seqlabel_post_frame (GstSeqLabel * self, const GstSeqLabelFrame * f,
    const float *probs)
{
  GstStructure *s = new_message_structure (self, f->pts, f->duration);
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;

  gst_structure_set (s,
      "frame", G_TYPE_UINT64, f->index,
      "label", G_TYPE_STRING, g_quark_to_string (f->label),
      "class", G_TYPE_INT, f->class_index,
      "confidence", G_TYPE_DOUBLE, (gdouble) f->confidence, NULL);
  /* a list of doubles, like spectrum's "magnitude" */
  g_value_init (&list, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_DOUBLE);
  for (int k = 0; k < self->n_classes; k++) {
    g_value_set_double (&v, probs[k]);
    gst_value_list_append_value (&list, &v);
  }
  gst_structure_take_value (s, "probabilities", &list);
  g_value_unset (&v);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

void
gst_seqlabel_post_segment (GstSeqLabel * self, GstClockTime start,
    GstClockTime duration, int class_index, double confidence,
    gint64 start_frame, gint64 end_frame)
{
  GstStructure *s = new_message_structure (self, start, duration);

  gst_structure_set (s,
      "start-frame", G_TYPE_UINT64, (guint64) start_frame,
      "end-frame", G_TYPE_UINT64, (guint64) end_frame,
      "label", G_TYPE_STRING, g_quark_to_string (self->class_quarks[class_index]),
      "class", G_TYPE_INT, class_index,
      "confidence", G_TYPE_DOUBLE, confidence, NULL);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* A segment's beginning, as soon as its first frame is decided: a named
 * structure of its own, so that an application reading "seqlabel" messages
 * as frames or finished segments meets none of these */
void
gst_seqlabel_post_start (GstSeqLabel * self, GstClockTime start, int class_index,
    gint64 start_frame)
{
  GstStructure *s = new_structure_named (self, "seqlabel-start", start);

  gst_structure_set (s,
      "start-frame", G_TYPE_UINT64, (guint64) start_frame,
      "label", G_TYPE_STRING, g_quark_to_string (self->class_quarks[class_index]),
      "class", G_TYPE_INT, class_index, NULL);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* ---------------------------------------------------------------------- */
/* the labels pad */

GstCaps *
gst_seqlabel_labelpad_caps (GstSeqLabelFormat format)
{
  if (format == GST_SEQLABEL_FORMAT_JSONL || format == GST_SEQLABEL_FORMAT_JSONL_SEGMENTS ||
      format == GST_SEQLABEL_FORMAT_SUMMARY)
    return gst_caps_new_empty_simple ("application/x-json");
  if (format == GST_SEQLABEL_FORMAT_WEBVTT)
    return gst_caps_new_empty_simple ("application/x-subtitle-vtt");
  if (format == GST_SEQLABEL_FORMAT_SRT)        /* what typefind says of a .srt file */
    return gst_caps_new_empty_simple ("application/x-subtitle");
  if (format == GST_SEQLABEL_FORMAT_TEXTGRID)
    return gst_caps_new_empty_simple ("application/x-praat-textgrid");
  return gst_caps_new_simple ("text/x-raw", "format", G_TYPE_STRING, "utf8", NULL);
}

/* The labels pad is served by its own task from a small queue, like a
 * `queue` after a `tee` branch: the streaming thread only enqueues, so a sink
 * on the labels pad that waits (preroll, sync) never blocks the audio, and
 * `... ! seqlabel name=l ! sink l.labels ! filesink` needs no queue. In
 * PLAYING the queue is bounded (LABELQ_MAX items); labels are tiny, so it
 * never fills in practice, and if it does the streaming thread waits, as with
 * `queue`. Before PLAYING it is not: while the pipeline prerolls, the labels
 * sink waits for PLAYING and the audio sink for the buffer being labelled, so
 * one large buffer's labels (250 s of frames in one push) would otherwise
 * block that buffer for good. */
#define LABELQ_MAX 20000

static GstPad *
labelpad_ref (GstSeqLabel * self)
{
  GstPad *pad;
  GST_OBJECT_LOCK (self);
  pad = self->labelpad ? gst_object_ref (self->labelpad) : NULL;
  GST_OBJECT_UNLOCK (self);
  return pad;
}

static void
labelq_clear_locked (GstSeqLabel * self)
{
  GstMiniObject *item;
  while ((item = g_queue_pop_head (&self->lq)) != NULL)
    gst_mini_object_unref (item);
}

/* Takes ownership of item (a buffer or a serialized event) and returns TRUE,
 * unless the pad was activated again since `epoch` (the queue cleared: item was
 * made before the events it needs before it were queued again): FALSE, item
 * not taken. */
static gboolean
labelq_enqueue_at (GstSeqLabel * self, GstMiniObject * item, guint epoch)
{
  g_mutex_lock (&self->lq_lock);
  while (epoch == self->lq_epoch && self->lq_bounded
      && g_queue_get_length (&self->lq) >= LABELQ_MAX && !self->lq_flushing)
    g_cond_wait (&self->lq_cond, &self->lq_lock);
  if (epoch != self->lq_epoch) {        /* (also while it waited for room) */
    g_mutex_unlock (&self->lq_lock);
    return FALSE;
  }
  if (self->lq_flushing) {
    g_mutex_unlock (&self->lq_lock);
    gst_mini_object_unref (item);
    return TRUE;
  }
  if (GST_IS_BUFFER (item) && GST_BUFFER_PTS_IS_VALID (GST_BUFFER (item)))
    self->lq_position = GST_BUFFER_PTS (GST_BUFFER (item)) +
        (GST_BUFFER_DURATION_IS_VALID (GST_BUFFER (item)) ?
        GST_BUFFER_DURATION (GST_BUFFER (item)) : 0);
  else if (GST_IS_EVENT (item) && GST_EVENT_TYPE (GST_EVENT (item)) == GST_EVENT_GAP)
    gst_event_parse_gap (GST_EVENT (item), &self->lq_position, NULL);
  g_queue_push_tail (&self->lq, item);
  g_cond_broadcast (&self->lq_cond);
  g_mutex_unlock (&self->lq_lock);
  return TRUE;
}

static void
labelpad_loop (gpointer user)
{
  GstPad *pad = user;
  GstSeqLabel *self = GST_SEQLABEL (gst_pad_get_parent_element (pad));
  GstMiniObject *item;
  GstFlowReturn ret = GST_FLOW_OK;

  if (self == NULL) {
    gst_pad_pause_task (pad);
    return;
  }
  g_mutex_lock (&self->lq_lock);
  while (g_queue_is_empty (&self->lq) && !self->lq_flushing)
    g_cond_wait (&self->lq_cond, &self->lq_lock);
  if (self->lq_flushing) {
    g_mutex_unlock (&self->lq_lock);
    gst_pad_pause_task (pad);
    gst_object_unref (self);
    return;
  }
  item = g_queue_pop_head (&self->lq);
  g_cond_broadcast (&self->lq_cond);
  if (self->lq_flow != GST_FLOW_OK) {
    /* downstream failed for good (said once, below): nothing more goes to
     * it until a flush (every later item went on to it) */
    g_mutex_unlock (&self->lq_lock);
    gst_mini_object_unref (item);
    gst_object_unref (self);
    return;
  }
  self->lq_push_peer = gst_pad_get_peer (pad);
  g_mutex_unlock (&self->lq_lock);

  if (GST_IS_BUFFER (item)) {
    ret = gst_pad_push (pad, GST_BUFFER (item));
  } else if (GST_EVENT_TYPE (item) == GST_EVENT_CAPS && self->lq_push_peer) {
    /* caps a linked peer refuses (a muxer's subtitle pad, label-format set
     * after linking) fail what follows: said now, as not-negotiated, and
     * nothing more goes there (a gap after refused caps reaches collectpads
     * with no segment, a GStreamer-CRITICAL). The push says TRUE for any
     * sticky event, so the peer is asked what it took (a flushing one takes
     * nothing now, and gets the caps again after the flush). */
    GstCaps *caps, *took;
    gst_event_parse_caps (GST_EVENT (item), &caps);
    gst_caps_ref (caps);
    gst_pad_push_event (pad, GST_EVENT (item));
    took = gst_pad_get_current_caps (self->lq_push_peer);
    if ((took == NULL || !gst_caps_is_equal (took, caps))
        && !GST_PAD_IS_FLUSHING (self->lq_push_peer))
      ret = GST_FLOW_NOT_NEGOTIATED;
    if (took != NULL)
      gst_caps_unref (took);
    gst_caps_unref (caps);
  } else {
    gst_pad_push_event (pad, GST_EVENT (item));
  }
  g_mutex_lock (&self->lq_lock);
  g_clear_object (&self->lq_push_peer);
  g_mutex_unlock (&self->lq_lock);
  if (ret < GST_FLOW_EOS && ret != GST_FLOW_NOT_LINKED && ret != GST_FLOW_FLUSHING) {
    /* said here, and handed to the streaming thread, which stops the audio as
     * tee stops at a branch's failure: labels lost for good should not pass
     * for a stream that went on without any */
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("seqlabel: the labels pad's downstream failed (%s): no more labels, and the audio "
            "stops with them", gst_flow_get_name (ret)), (NULL));
    g_mutex_lock (&self->lq_lock);
    self->lq_flow = ret;
    g_mutex_unlock (&self->lq_lock);
  }
  gst_object_unref (self);
}

/* Starts the task when the pad becomes active, stops it when it stops. */
static gboolean
labelpad_activate_mode (GstPad * pad, GstObject * parent, GstPadMode mode,
    gboolean active)
{
  GstSeqLabel *self = GST_SEQLABEL (parent);

  if (mode != GST_PAD_MODE_PUSH)
    return FALSE;
  g_mutex_lock (&self->lq_lock);
  self->lq_flushing = !active;
  self->lq_epoch++;
  self->lq_flow = GST_FLOW_OK;
  self->lq_position = GST_CLOCK_TIME_NONE;
  labelq_clear_locked (self);
  if (active) {
    /* what must precede data is queued once the pad is active: queued before
     * (a pad requested while audio flows), it was dropped with the queue */
    GST_OBJECT_LOCK (self);
    self->labelpad_need_start = TRUE;
    self->labelpad_need_segment = TRUE;
    GST_OBJECT_UNLOCK (self);
  }
  g_cond_broadcast (&self->lq_cond);
  g_mutex_unlock (&self->lq_lock);
  if (active)
    return gst_pad_start_task (pad, labelpad_loop, pad, NULL);
  return gst_pad_stop_task (pad);
}

void
gst_seqlabel_labelpad_setup (GstSeqLabel * self, GstPad * pad)
{
  (void) self;
  gst_pad_set_activatemode_function (pad, labelpad_activate_mode);
}

/* Stops the queue: the task takes nothing more (what is queued is dropped),
 * and wakes to pause. Returns the peer the task is pushing to right now (a
 * ref), or NULL. */
static GstPad *
labelq_stop (GstSeqLabel * self)
{
  GstPad *peer;

  g_mutex_lock (&self->lq_lock);
  self->lq_flushing = TRUE;
  labelq_clear_locked (self);
  g_cond_broadcast (&self->lq_cond);
  peer = self->lq_push_peer ? gst_object_ref (self->lq_push_peer) : NULL;
  g_mutex_unlock (&self->lq_lock);
  return peer;
}

/* Flushing comes from another thread: unblock both the queue and the task's
 * push downstream, then wait for the task to pause. */
static void
labelpad_flush_start (GstSeqLabel * self, GstPad * pad, GstEvent * event)
{
  GstPad *peer = labelq_stop (self);     /* the event itself unblocks a push */

  g_clear_object (&peer);
  gst_pad_push_event (pad, event);
  gst_pad_pause_task (pad);
}

static void
labelpad_flush_stop (GstSeqLabel * self, GstPad * pad, GstEvent * event)
{
  gst_pad_push_event (pad, event);
  g_mutex_lock (&self->lq_lock);
  self->lq_flushing = FALSE;
  self->lq_flow = GST_FLOW_OK;
  self->lq_position = GST_CLOCK_TIME_NONE;
  labelq_clear_locked (self);
  g_mutex_unlock (&self->lq_lock);
  if (GST_PAD_IS_ACTIVE (pad))
    gst_pad_start_task (pad, labelpad_loop, pad, NULL);
}

void
gst_seqlabel_labelpad_unblock (GstSeqLabel * self, GstPad * pad)
{
  GstPad *peer = labelq_stop (self);

  if (peer == NULL)             /* not inside a push: it wakes and pauses */
    return;
  /* inside a push to the sink it was linked to (unlinked since, perhaps): a
   * flush-start to that sink alone lets the push return. No flush-stop follows:
   * filesink would truncate its file at one, losing every label written (the
   * sink stays flushing until it is set to NULL or READY, as a sink taken out
   * of the pipeline is) */
  gst_pad_send_event (peer, gst_event_new_flush_start ());
  gst_pad_pause_task (pad);
  gst_object_unref (peer);
}

/* labelq_enqueue_at, item dropped where not taken; whether it was. */
static gboolean
labelq_enqueue_kept (GstSeqLabel * self, GstMiniObject * item, guint epoch)
{
  if (labelq_enqueue_at (self, item, epoch))
    return TRUE;
  gst_mini_object_unref (item);
  return FALSE;
}

/* Queues what must precede data: stream-start and caps once per stream, the
 * segment once per segment/flush, the header line of the format once per
 * stream and after each flush (a filesink starts its file anew at a flush).
 * While the pad is not active nothing is taken: what it needs stays pending. */
static guint
labelpad_prepare_at (GstSeqLabel * self, GstPad * pad)
{
  gboolean need_start, need_segment, need_header;
  GstSeqLabelFormat format;
  GstSegment segment;
  guint epoch;

  g_mutex_lock (&self->lq_lock);
  epoch = self->lq_epoch;
  if (self->lq_flushing) {
    g_mutex_unlock (&self->lq_lock);
    return epoch;
  }
  GST_OBJECT_LOCK (self);
  need_start = self->labelpad_need_start;
  need_segment = self->labelpad_need_segment || need_start;
  need_header = self->labelpad_need_header || need_start;
  self->labelpad_need_start = FALSE;
  self->labelpad_need_segment = FALSE;
  self->labelpad_need_header = FALSE;
  /* a new file: SubRip's cues from 1, renumbered by the streaming thread,
   * which alone formats lines (this may run on the application's, at a pause) */
  self->labelpad_renumber |= need_header;
  format = self->run_format;
  segment = self->segment;
  GST_OBJECT_UNLOCK (self);
  g_mutex_unlock (&self->lq_lock);

  /* (an activation meanwhile wants all of them again: the rest is not queued) */
  gboolean taken = TRUE;
  if (need_start) {
    gchar *id = gst_pad_create_stream_id (pad, GST_ELEMENT (self), "labels");
    GstCaps *caps = gst_seqlabel_labelpad_caps (format);
    taken = labelq_enqueue_kept (self, GST_MINI_OBJECT (gst_event_new_stream_start (id)), epoch)
        && labelq_enqueue_kept (self, GST_MINI_OBJECT (gst_event_new_caps (caps)), epoch);
    gst_caps_unref (caps);
    g_free (id);
  }
  if (taken && need_segment)
    taken = labelq_enqueue_kept (self, GST_MINI_OBJECT (gst_event_new_segment (&segment)), epoch);
  if (taken && need_header && self->labeler != NULL) {
    /* (formatted again at its length where it is longer: a frames table of
     * many long class names) */
    char line[1024], *header = line;
    int n = sl_label_format_header (&self->writer, line, sizeof line);
    if (n >= (int) sizeof line) {
      header = g_malloc ((gsize) n + 1);
      n = sl_label_format_header (&self->writer, header, (gsize) n + 1);
    }
    if (n > 0) {
      GstBuffer *b = gst_buffer_new_memdup (header, (gsize) n);
      GST_BUFFER_PTS (b) = segment.start;
      GST_BUFFER_DURATION (b) = 0;
      labelq_enqueue_kept (self, GST_MINI_OBJECT (b), epoch);
    }
    if (header != line)
      g_free (header);
  }
  return epoch;
}

void
gst_seqlabel_labelpad_prepare (GstSeqLabel * self, GstPad * pad)
{
  labelpad_prepare_at (self, pad);
}

/* Queues item after what must precede it (labelpad_prepare_at), both in one
 * activation of the pad: requested again between the two, it starts anew. */
static void
labelq_enqueue_prepared (GstSeqLabel * self, GstPad * pad, GstMiniObject * item)
{
  while (!labelq_enqueue_at (self, item, labelpad_prepare_at (self, pad)));
}

GstFlowReturn
gst_seqlabel_labelpad_push_text (GstSeqLabel * self, GstPad * pad,
    GstClockTime pts, GstClockTime duration, const char *text, gsize len)
{
  GstBuffer *b;
  GstFlowReturn ret;

  b = gst_buffer_new_memdup (text, len);
  GST_BUFFER_PTS (b) = pts;
  GST_BUFFER_DURATION (b) = duration;
  labelq_enqueue_prepared (self, pad, GST_MINI_OBJECT (b));
  g_mutex_lock (&self->lq_lock);
  ret = self->lq_flow;
  g_mutex_unlock (&self->lq_lock);
  return ret;
}

void
gst_seqlabel_labelpad_event (GstSeqLabel * self, GstEvent * event)
{
  GstPad *pad = labelpad_ref (self);

  if (pad == NULL) {
    gst_event_unref (event);
    return;
  }
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      labelpad_flush_start (self, pad, event);
      break;
    case GST_EVENT_FLUSH_STOP:
      labelpad_flush_stop (self, pad, event);
      break;
    default:
      labelq_enqueue_prepared (self, pad, GST_MINI_OBJECT (event));
      break;
  }
  gst_object_unref (pad);
}

void
gst_seqlabel_labelpad_gap (GstSeqLabel * self, GstClockTime ts, GstClockTime duration)
{
  GstClockTime end, start, stop;

  if (!GST_CLOCK_TIME_IS_VALID (ts))
    return;
  GST_OBJECT_LOCK (self);       /* (called at a pause on the application's thread) */
  start = self->segment.start;
  stop = self->segment.stop;
  GST_OBJECT_UNLOCK (self);
  end = GST_CLOCK_TIME_IS_VALID (duration) ? ts + duration : ts;
  /* within the segment, or a sink would not preroll on it (a demuxer's first
   * buffer after a seek may begin before the segment's start) */
  ts = MAX (ts, start);
  end = MAX (end, ts);
  if (GST_CLOCK_TIME_IS_VALID (stop)) {
    if (ts > stop)
      return;
    end = MIN (end, stop);
  }
  gst_seqlabel_labelpad_event (self, gst_event_new_gap (ts, end - ts));
}

void
gst_seqlabel_labelpad_bound (GstSeqLabel * self, gboolean bounded)
{
  g_mutex_lock (&self->lq_lock);
  self->lq_bounded = bounded;
  g_cond_broadcast (&self->lq_cond);    /* a thread waiting on a full queue goes on */
  g_mutex_unlock (&self->lq_lock);
}

void
gst_seqlabel_labelpad_preroll_again (GstSeqLabel * self)
{
  GstClockTime at;

  g_mutex_lock (&self->lq_lock);
  at = self->lq_position;
  g_mutex_unlock (&self->lq_lock);
  /* nothing queued yet: the run's first gap will preroll it */
  gst_seqlabel_labelpad_gap (self, at, 0);
}

/* label-format=textgrid or summary: a TextGrid states its size before its
 * intervals and a summary sums the stream, so each is one buffer when the
 * stream ends, covering the stream from the segment's start (time 0, or a
 * seek's target) to the last frame (the runs' frames in one timeline; time
 * between runs empty intervals). */
static gint
by_start (gconstpointer a, gconstpointer b)
{
  gint64 sa = ((const sl_frame_segment *) a)->start, sb = ((const sl_frame_segment *) b)->start;
  return sa < sb ? -1 : sa > sb;
}

void
gst_seqlabel_labelpad_document (GstSeqLabel * self)
{
  GstPad *pad;
  gsize len;
  gchar *doc;
  int n;

  if (!sl_label_format_is_document (&self->writer) || self->labeler == NULL)
    return;
  pad = labelpad_ref (self);
  /* the frame at the segment's stream time, or the first run's where the
   * audio began later (a source's timestamp-offset): after a seek the document
   * begins there, and a summary's shares are of the time played */
  self->writer.first_frame = MAX ((gint64) gst_util_uint64_scale_round (self->segment.time,
          (guint64) self->rate, (guint64) self->hop * GST_SECOND), self->document_start);
  if (pad != NULL) {
    /* runs in time order: reverse playback gives them latest first, each
     * forward (its span); one stream's runs never overlap */
    g_array_sort (self->document_segs, by_start);
    /* a segment of one class across two spans of reverse playback is one, as
     * a run that goes on in its class forwards continues it (on_segment) */
    for (guint i = 1; i < self->document_segs->len;) {
      sl_frame_segment *a = &g_array_index (self->document_segs, sl_frame_segment, i - 1);
      sl_frame_segment *b = &g_array_index (self->document_segs, sl_frame_segment, i);
      if (a->label == b->label && a->end == b->start) {
        a->end = b->end;
        g_array_remove_index (self->document_segs, i);
      } else {
        i++;
      }
    }
    const sl_frame_segment *segs = (const sl_frame_segment *) self->document_segs->data;
    if (self->utc_now && self->writer.has_utc_origin) {
      /* the summary's "start_utc": the time of day of the frame it begins at
       * (the library's: first_frame, or the first segment's start before it) */
      gint64 begin = MAX (self->writer.first_frame, 0);
      if (self->document_segs->len > 0 && segs[0].start < begin)
        begin = MAX (segs[0].start, 0);
      self->writer.utc_origin_us = gst_seqlabel_utc_origin (self, begin);
    }
    n = sl_label_format_document (&self->writer, NULL, 0, segs, self->document_segs->len,
        self->document_end);
    if (n == SL_TEXT_TOO_LONG) {
      GST_ELEMENT_WARNING (self, STREAM, FAILED,
          ("seqlabel: no %s: its %u segments would pass 2 GiB, more than a document is "
              "written as (use a line format)", sl_label_format_name (self->writer.format),
              self->document_segs->len), (NULL));
    } else if (n < 0) {
      /* segments that overlap: a stream whose time went back without a flush */
      GST_ELEMENT_WARNING (self, STREAM, FAILED,
          ("seqlabel: no %s: the stream's time went back without a flush",
              sl_label_format_name (self->writer.format)), (NULL));
    } else {
      len = (gsize) n + 1;
      doc = g_malloc (len);
      sl_label_format_document (&self->writer, doc, len, segs, self->document_segs->len,
          self->document_end);
      /* from the segment's start (stream time segment.time: after a seek, not
       * 0) to the last frame's end */
      GstClockTime end = gst_util_uint64_scale ((guint64) self->document_end *
          (guint64) self->hop, GST_SECOND, (guint64) self->rate);
      gst_seqlabel_labelpad_push_text (self, pad, self->segment.start,
          end > self->segment.time ? end - self->segment.time : 0, doc, (gsize) n);
      g_free (doc);
    }
    gst_object_unref (pad);
  }
  g_array_set_size (self->document_segs, 0);
  self->document_end = 0;
  self->document_start = -1;
  self->document_sent = TRUE;
}
