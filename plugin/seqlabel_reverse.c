/* Reverse playback (a segment's rate below 0). A decoder then pushes each
 * chunk it decodes latest first: the buffers' timestamps go down, each one
 * ending where the one before it began, with DISCONT on a chunk's first alone.
 * Labelled as they come, each buffer would be a step back in time that the
 * discontinuity rule takes for jitter (under a second off the sample count),
 * so the frames ran on past the end and came out fragmented. The model reads
 * audio forwards, so here the buffers that go on backwards are gathered, up to
 * REVERSE_SPAN of audio, and the span is labelled forwards as one run, as the
 * file would be: when the backward run breaks (a buffer that does not end
 * where the span begins, or one without a timestamp, which goes out
 * unlabelled), at the bound, and at EOS, a segment's end, a gap, a new
 * segment, new caps or a new stream. Then the audio, with its metas, and the
 * serialized events that came among it go out in the order they came. A flush
 * drops what is gathered. A span starts its run on the stream's frame grid,
 * so each frame is labelled once, by the span its first sample is in, at
 * forward playback's time. See docs/element.md. */
#include "gstseqlabel.h"
#include "seqlabelmeta.h"

#define GST_CAT_DEFAULT gst_seqlabel_debug

/* The most audio gathered into one span: memory stays bounded (30 s of the
 * input: 1 MB at 16 kHz mono 16-bit, 11.5 MB at 48 kHz stereo float), and
 * a file no longer than this is labelled in reverse exactly as forwards. */
#define REVERSE_SPAN (30 * GST_SECOND)
/* a buffer that ends this close to where the span begins continues it: the
 * discontinuity rule's tolerance (GstAudioBaseSink's alignment-threshold) */
#define REVERSE_TOLERANCE (40 * GST_MSECOND)
/* a span cut by the bound keeps its earliest audio, the latency and this
 * more, for the span before it to hear as forwards it would */
#define REVERSE_CONTEXT_MARGIN (100 * GST_MSECOND)

typedef struct {
  GstBuffer *buf;           /* NULL: an event */
  GstEvent *event;
  /* set while the span is labelled */
  guint64 first;            /* the run sample of its first sample */
  gint64 frame_offset;      /* its run's frame 0 on the stream's frame grid */
  gboolean unlabelled;      /* non-finite samples: not labelled */
  gboolean own_meta;        /* the element put a meta on it */
} Gathered;

void
gst_seqlabel_reverse_init (GstSeqLabel * self)
{
  g_queue_init (&self->rev_q);
  g_queue_init (&self->rev_ctx);
  self->rev_keep = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->rev_start = GST_CLOCK_TIME_NONE;
}

static void
gathered_free (gpointer data)
{
  Gathered *g = data;
  if (g->buf)
    gst_buffer_unref (g->buf);
  if (g->event)
    gst_event_unref (g->event);
  g_free (g);
}

void
gst_seqlabel_reverse_clear (GstSeqLabel * self)
{
  g_queue_clear_full (&self->rev_q, gathered_free);
  g_queue_clear_full (&self->rev_ctx, (GDestroyNotify) gst_buffer_unref);
  self->rev_start = GST_CLOCK_TIME_NONE;
  self->rev_samples = 0;
  self->rev_pass = FALSE;
  g_array_set_size (self->rev_keep, 0);
}

void
gst_seqlabel_reverse_free (GstSeqLabel * self)
{
  gst_seqlabel_reverse_clear (self);
  g_array_unref (self->rev_keep);
}

void
gst_seqlabel_reverse_keep (GstSeqLabel * self, gint64 stream_frame, gboolean keep)
{
  gint64 i;

  if (!self->rev_pass)
    return;
  if (self->rev_keep->len == 0)
    self->rev_keep_base = stream_frame;
  i = stream_frame - self->rev_keep_base;
  /* a span's runs go forwards: a frame before its first is none of its own */
  if (i < 0)
    return;
  if (i >= (gint64) self->rev_keep->len)
    g_array_set_size (self->rev_keep, (guint) i + 1);
  g_array_index (self->rev_keep, guint8, i) = keep;
  self->rev_last_keep = keep;
}

/* The frames the run's end gave (self->frames) after those the element put on
 * buf while labelling it, in one meta. */
static void
add_tail (GstSeqLabel * self, Gathered * g)
{
  GstSeqLabelMeta *own = g->own_meta ? gst_buffer_get_last_seqlabel_meta (g->buf) : NULL;

  if (self->frames->len == 0)
    return;
  if (own != NULL) {
    g_array_prepend_vals (self->frames, own->frames, own->n_frames);
    if (own->probabilities != NULL)
      g_array_prepend_vals (self->probs, own->probabilities,
          own->n_frames * own->n_classes);
    gst_buffer_remove_meta (g->buf, (GstMeta *) own);
  }
  gst_buffer_add_seqlabel_meta (g->buf, (const GstSeqLabelFrame *) self->frames->data,
      self->frames->len, self->probs->len == self->frames->len * (guint) self->n_classes ?
      (const gfloat *) self->probs->data : NULL, self->n_classes);
  g->own_meta = TRUE;
}

static GstClockTime
buffer_end (GstSeqLabel * self, GstBuffer * buf)
{
  return GST_BUFFER_PTS (buf) + gst_util_uint64_scale_int (gst_seqlabel_buffer_frames (self,
          buf), GST_SECOND, GST_AUDIO_INFO_RATE (&self->info));
}

static GstClockTime
tolerance (GstSeqLabel * self)
{
  return MAX (REVERSE_TOLERANCE, gst_util_uint64_scale_int (self->hop, GST_SECOND,
          self->rate));
}

/* The span's frames that the audio after it completes (the span labelled
 * before, whose start the bound cut: rev_ctx), as forwards, where it goes on
 * from this span's end: pushed as lookahead (copies, which go nowhere), the
 * frames they complete before the span's end (rev_end) kept in frames/probs. */
static GstFlowReturn
label_into_context (GstSeqLabel * self, GArray * frames, GArray * probs)
{
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *b;

  while (ret == GST_FLOW_OK && (b = g_queue_pop_head (&self->rev_ctx)) != NULL) {
    GstBuffer *copy = gst_buffer_copy (b);      /* the memory shared, metas its own */
    GstSeqLabelMeta *m;
    gst_buffer_unref (b);
    while ((m = gst_buffer_get_last_seqlabel_meta (copy)) != NULL)
      gst_buffer_remove_meta (copy, (GstMeta *) m);
    ret = gst_seqlabel_process (self, copy);
    if (ret == GST_FLOW_OK && self->put_meta
        && (m = gst_buffer_get_last_seqlabel_meta (copy)) != NULL) {
      g_array_append_vals (frames, m->frames, m->n_frames);
      if (m->probabilities != NULL)
        g_array_append_vals (probs, m->probabilities, m->n_frames * m->n_classes);
    }
    gst_buffer_unref (copy);
    /* a buffer of NaN ended the run: the rest is of no use */
    if (ret == SEQLABEL_FLOW_UNLABELLED || !self->run_started)
      ret = GST_FLOW_OK;
    if (!self->run_started)
      break;
  }
  g_queue_clear_full (&self->rev_ctx, (GDestroyNotify) gst_buffer_unref);
  return ret;
}

/* The earliest REVERSE_CONTEXT of the span labelled now (rev_q's last), kept
 * for the span before it. */
static void
keep_context (GstSeqLabel * self)
{
  GstClockTime need = self->latency + REVERSE_CONTEXT_MARGIN, got = 0;

  for (GList * l = self->rev_q.tail; l != NULL && got < need; l = l->prev) {
    Gathered *g = l->data;
    if (g->buf == NULL)
      continue;
    g_queue_push_tail (&self->rev_ctx, gst_buffer_ref (g->buf));
    got += buffer_end (self, g->buf) - GST_BUFFER_PTS (g->buf);
  }
}

static GstFlowReturn
flush_span (GstSeqLabel * self, gboolean cut)
{
  GstPad *src = GST_BASE_TRANSFORM_SRC_PAD (GST_BASE_TRANSFORM (self));
  GstFlowReturn ret;
  Gathered *g, *last = NULL;
  GArray *ctx_frames, *ctx_probs;

  if (g_queue_is_empty (&self->rev_q)) {
    g_queue_clear_full (&self->rev_ctx, (GDestroyNotify) gst_buffer_unref);
    return GST_FLOW_OK;
  }
  /* the audio kept after the span before goes on from this span's end */
  g = g_queue_peek_head (&self->rev_q);
  if (!g_queue_is_empty (&self->rev_ctx)) {
    GstClockTimeDiff off = GST_CLOCK_DIFF (buffer_end (self, g->buf),
        GST_BUFFER_PTS ((GstBuffer *) g_queue_peek_head (&self->rev_ctx)));
    if ((GstClockTime) ABS (off) > tolerance (self))
      g_queue_clear_full (&self->rev_ctx, (GDestroyNotify) gst_buffer_unref);
  }
  GST_DEBUG_OBJECT (self, "labelling %" G_GUINT64_FORMAT " samples gathered backwards "
      "from %" GST_TIME_FORMAT, self->rev_samples, GST_TIME_ARGS (self->rev_start));
  /* a run of audio without timestamps before it (labelled as it came) ends */
  ret = gst_seqlabel_finish_run (self);

  /* the span forwards: the earliest buffer, the last that came, first */
  self->rev_pass = TRUE;
  self->rev_end = GST_CLOCK_TIME_NONE;
  if (GST_CLOCK_TIME_IS_VALID (self->rev_start)) {
    g = g_queue_peek_head (&self->rev_q);   /* the latest: the first that came */
    self->rev_end = GST_BUFFER_PTS (g->buf) + gst_util_uint64_scale_int (
        gst_seqlabel_buffer_frames (self, g->buf), GST_SECOND,
        GST_AUDIO_INFO_RATE (&self->info));
    if (GST_CLOCK_TIME_IS_VALID (self->segment.stop))
      self->rev_end = MIN (self->rev_end, self->segment.stop);
  }
  g_array_set_size (self->rev_keep, 0);
  self->rev_last_keep = FALSE;
  self->rev_next_frame = G_MININT64;
  for (GList * l = self->rev_q.tail; l != NULL && ret == GST_FLOW_OK; l = l->prev) {
    GstFlowReturn r;
    g = l->data;
    if (g->buf == NULL)
      continue;
    /* ours alone since the buffer was taken: writable without a copy */
    g->buf = gst_buffer_make_writable (g->buf);
    if (!self->run_started)
      gst_seqlabel_start_run_aligned (self, GST_BUFFER_PTS (g->buf));
    r = gst_seqlabel_process (self, g->buf);
    if (r == SEQLABEL_FLOW_UNLABELLED) {
      g->unlabelled = TRUE;
      continue;
    }
    if (r != GST_FLOW_OK) {
      ret = r;
      break;
    }
    g->first = self->run_samples - gst_seqlabel_buffer_frames (self, g->buf);
    g->frame_offset = self->frame_offset;
    g->own_meta = self->put_meta;
    last = g;
  }
  /* its tail (with the audio after it, when there is: as forwards): on the
   * meta of the latest buffer, the last labelled, so every frame of the span
   * rides on one meta */
  ctx_frames = g_array_new (FALSE, FALSE, sizeof (GstSeqLabelFrame));
  ctx_probs = g_array_new (FALSE, FALSE, sizeof (gfloat));
  if (ret == GST_FLOW_OK && self->run_started && !g_queue_is_empty (&self->rev_ctx))
    ret = label_into_context (self, ctx_frames, ctx_probs);
  g_queue_clear_full (&self->rev_ctx, (GDestroyNotify) gst_buffer_unref);
  if (ret == GST_FLOW_OK && self->run_started) {
    g_array_set_size (self->frames, 0);
    g_array_set_size (self->probs, 0);
    ret = gst_seqlabel_finish_run (self);
    g_array_prepend_vals (self->frames, ctx_frames->data, ctx_frames->len);
    if (self->probs->len == self->frames->len * (guint) self->n_classes - ctx_frames->len
        * (guint) self->n_classes)
      g_array_prepend_vals (self->probs, ctx_probs->data, ctx_probs->len);
    if (last != NULL)
      add_tail (self, last);
  }
  g_array_unref (ctx_frames);
  g_array_unref (ctx_probs);
  if (cut && ret == GST_FLOW_OK)
    keep_context (self);
  g_array_set_size (self->frames, 0);
  g_array_set_size (self->probs, 0);
  self->rev_pass = FALSE;

  /* then the audio and events in the order they came */
  while ((g = g_queue_pop_head (&self->rev_q)) != NULL) {
    if (g->event != NULL && ret == GST_FLOW_OK) {
      gst_pad_push_event (src, g->event);
      g->event = NULL;
    } else if (g->buf != NULL && ret == GST_FLOW_OK) {
      if (self->gate_mode == GST_SEQLABEL_GATE_NONE)
        ret = gst_pad_push (src, g->buf);
      else
        ret = gst_seqlabel_gate_pass (self, g->buf, g->first, g->frame_offset,
            !g->unlabelled, g->own_meta);
      g->buf = NULL;
    }
    gathered_free (g);
  }
  /* the labels of the last buffers dropped whole went to the bus and the labels pad */
  gst_seqlabel_gate_run_over (self);
  self->rev_start = GST_CLOCK_TIME_NONE;
  self->rev_samples = 0;
  g_array_set_size (self->rev_keep, 0);
  return ret;
}

GstFlowReturn
gst_seqlabel_reverse_flush (GstSeqLabel * self)
{
  return flush_span (self, FALSE);
}

gboolean
gst_seqlabel_reverse_take (GstSeqLabel * self, GstBuffer * buf, GstFlowReturn * ret)
{
  GstClockTime ts = GST_BUFFER_PTS (buf), end;
  guint64 n;
  Gathered *g;

  *ret = GST_FLOW_OK;
  if (!self->have_info || self->labeler == NULL)
    return FALSE;       /* refused as forwards */
  /* a buffer without a timestamp has no place in time: forwards it would go
   * on from the audio before it, which in reverse playback is later audio (a
   * run past the span's end, past the segment's stop); it goes out after the
   * span, unlabelled (the gate: as audio not of its class) */
  if (!GST_CLOCK_TIME_IS_VALID (ts)) {
    GST_DEBUG_OBJECT (self, "a buffer without a timestamp in reverse playback: "
        "not labelled");
    *ret = gst_seqlabel_reverse_flush (self);
    if (*ret == GST_FLOW_OK)
      *ret = SEQLABEL_FLOW_UNLABELLED;
    return FALSE;
  }
  /* one cut inside a sample frame (an error) goes as forwards, after the span */
  if (!gst_seqlabel_planar (self)
      && gst_buffer_get_size (buf) % GST_AUDIO_INFO_BPF (&self->info) != 0) {
    *ret = gst_seqlabel_reverse_flush (self);
    return *ret != GST_FLOW_OK;
  }
  n = gst_seqlabel_buffer_frames (self, buf);
  end = buffer_end (self, buf);
  if (!g_queue_is_empty (&self->rev_q)) {
    GstClockTimeDiff off = GST_CLOCK_DIFF (self->rev_start, end);
    gboolean broken = (GstClockTime) ABS (off) > tolerance (self);
    if (broken || self->rev_samples + n >
        gst_util_uint64_scale (REVERSE_SPAN, GST_AUDIO_INFO_RATE (&self->info), GST_SECOND)) {
      GST_DEBUG_OBJECT (self, "buffer at %" GST_TIME_FORMAT " ends %" G_GINT64_FORMAT
          " ns from the span's start: the span is labelled", GST_TIME_ARGS (ts), off);
      /* cut by the bound, the span's start is the next one's lookahead */
      *ret = flush_span (self, !broken);
      if (*ret != GST_FLOW_OK)
        return TRUE;
    }
  }
  g = g_new0 (Gathered, 1);
  g->buf = gst_buffer_ref (buf);
  g_queue_push_tail (&self->rev_q, g);
  self->rev_start = ts;
  self->rev_samples += n;
  return TRUE;
}

gboolean
gst_seqlabel_reverse_hold_event (GstSeqLabel * self, GstEvent * event)
{
  Gathered *g;
  if (g_queue_is_empty (&self->rev_q))
    return FALSE;
  g = g_new0 (Gathered, 1);
  g->event = event;
  g_queue_push_tail (&self->rev_q, g);
  return TRUE;
}
