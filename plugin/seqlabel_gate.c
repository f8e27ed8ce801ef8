/* The gate (gate=drop|silence): audio is held until the frames covering it are
 * labelled, then the target class's audio passes and the rest is dropped or
 * replaced by silence. Serialized events that arrive while audio is held wait
 * behind it, so the stream's order is kept. A frame covers the input samples
 * of its hop's time span, so this works at any input rate. See docs/element.md. */
#include "gstseqlabel.h"
#include "seqlabelmeta.h"

#define GST_CAT_DEFAULT gst_seqlabel_debug

typedef struct {
  GstBuffer *buf;         /* NULL: an event */
  GstEvent *event;
  guint64 start;          /* run sample of buf's first sample */
  guint64 next;           /* the first sample not yet let out */
  guint64 end;            /* one past buf's last sample */
  gboolean metas_given;   /* its metas went out with an earlier piece */
  gboolean own_meta;      /* the element put a meta on it: the last of its metas */
} Held;

void
gst_seqlabel_gate_init (GstSeqLabel * self)
{
  g_queue_init (&self->gate_q);
  self->gate_keep = g_array_new (FALSE, FALSE, sizeof (guint8));
  self->gate_carry = g_array_new (FALSE, FALSE, sizeof (GstSeqLabelFrame));
  self->gate_carry_probs = g_array_new (FALSE, FALSE, sizeof (gfloat));
}

static void
forget_carried (GstSeqLabel * self)
{
  g_array_set_size (self->gate_carry, 0);
  g_array_set_size (self->gate_carry_probs, 0);
}

static void
held_free (gpointer data)
{
  Held *h = data;
  if (h->buf)
    gst_buffer_unref (h->buf);
  if (h->event)
    gst_event_unref (h->event);
  g_free (h);
}

static void
reset_frames (GstSeqLabel * self)
{
  g_array_set_size (self->gate_keep, 0);
  self->gate_keep_base = 0;
  self->gate_last_keep = FALSE;
}

void
gst_seqlabel_gate_clear (GstSeqLabel * self)
{
  g_queue_clear_full (&self->gate_q, held_free);
  reset_frames (self);
  self->gate_dropped = FALSE;
  forget_carried (self);
}

void
gst_seqlabel_gate_free (GstSeqLabel * self)
{
  gst_seqlabel_gate_clear (self);
  g_array_unref (self->gate_keep);
  g_array_unref (self->gate_carry);
  g_array_unref (self->gate_carry_probs);
}

void
gst_seqlabel_gate_frame (GstSeqLabel * self, gint64 index, int label)
{
  guint8 keep = label == self->gate_class;
  if (self->gate_mode == GST_SEQLABEL_GATE_NONE)
    return;
  /* reverse playback: the span's decisions alone (the gate holds none of its
   * audio while it is labelled), from its first frame of its own audio on,
   * which is not the run's frame 0 where silence puts the run on the grid */
  if (self->rev_pass) {
    gst_seqlabel_reverse_keep (self, self->frame_offset + index, keep);
    return;
  }
  /* frames come in order, once each: index is the next one */
  g_warn_if_fail (index == self->gate_keep_base + (gint64) self->gate_keep->len);
  g_array_append_val (self->gate_keep, keep);
  self->gate_last_keep = keep;
}

/* The first input sample of run frame f: its hop's start in time. */
static guint64
frame_start (GstSeqLabel * self, gint64 f)
{
  return (guint64) sl_frame_start_sample (f, self->hop, GST_AUDIO_INFO_RATE (&self->info),
      self->rate);
}

/* The run frame that input sample s lies in. */
static gint64
frame_of (GstSeqLabel * self, guint64 s)
{
  gint64 f = (gint64) gst_util_uint64_scale_int (s, self->rate,
      self->hop * GST_AUDIO_INFO_RATE (&self->info));
  while (frame_start (self, f + 1) <= s)
    f++;
  while (f > 0 && frame_start (self, f) > s)
    f--;
  return f;
}

/* Whether frame f passes; past the labelled frames (a run's tail shorter
 * than a hop) the latest frame's decision holds. */
static gboolean
frame_keeps (GstSeqLabel * self, gint64 f)
{
  gint64 i = f - self->gate_keep_base;
  if (i >= 0 && i < (gint64) self->gate_keep->len)
    return g_array_index (self->gate_keep, guint8, i);
  return self->gate_last_keep;
}

static GstClockTime
samples_time (GstSeqLabel * self, guint64 n)
{
  return gst_util_uint64_scale_int (n, GST_SECOND, GST_AUDIO_INFO_RATE (&self->info));
}

static GstSeqLabelMeta *
labels_of (GstBuffer * buf)
{
  return (GstSeqLabelMeta *) gst_buffer_get_meta (buf, gst_seqlabel_meta_api_get_type ());
}

/* The labels this element put on h's buffer, or NULL. */
static GstSeqLabelMeta *
own_labels (Held * h)
{
  return h->own_meta ? gst_buffer_get_last_seqlabel_meta (h->buf) : NULL;
}

/* The labels of buffers dropped whole wait for the next piece that passes, the
 * latest minute of them at most: a gate closed for hours (a quiet room) would
 * otherwise hold every label in memory; they all reach the bus and the labels
 * pad anyway. 100 frames a second at the default hop. */
#define GATE_CARRY_MAX 6000

/* A buffer dropped whole: its labels wait for the next piece that passes. */
static void
carry_labels (GstSeqLabel * self, Held * h)
{
  GstSeqLabelMeta *m = own_labels (h);
  if (h->metas_given || m == NULL)
    return;
  g_array_append_vals (self->gate_carry, m->frames, m->n_frames);
  if (m->probabilities != NULL)
    g_array_append_vals (self->gate_carry_probs, m->probabilities, m->n_frames * m->n_classes);
  if (self->gate_carry->len > GATE_CARRY_MAX) {
    guint old = self->gate_carry->len - GATE_CARRY_MAX;
    g_array_remove_range (self->gate_carry, 0, old);
    if (self->gate_carry_probs->len >= old * self->n_classes)
      g_array_remove_range (self->gate_carry_probs, 0, old * self->n_classes);
  }
  h->metas_given = TRUE;
}

/* Samples [from, to) of h's buffer as a buffer of their own, timed. */
static GstBuffer *
piece (GstSeqLabel * self, Held * h, guint64 from, guint64 to)
{
  gint bpf = GST_AUDIO_INFO_BPF (&self->info);
  GstBufferCopyFlags flags = GST_BUFFER_COPY_FLAGS | GST_BUFFER_COPY_MEMORY;
  GstBuffer *b;
  GstClockTime pts = GST_BUFFER_PTS (h->buf);

  /* the labels (metas) ride on the first piece that goes out, after those of
   * buffers dropped whole before it */
  if (!h->metas_given)
    flags |= GST_BUFFER_COPY_META;
  if (gst_seqlabel_planar (self)) {
    /* planes: the whole buffer with its GstAudioMeta, which truncate narrows to
     * the piece's samples in every plane (the memory is shared, not copied) */
    b = gst_buffer_copy_region (h->buf, flags | GST_BUFFER_COPY_META, 0, -1);
    if (h->metas_given)
      while (labels_of (b) != NULL)
        gst_buffer_remove_meta (b, (GstMeta *) labels_of (b));
    b = gst_audio_buffer_truncate (b, bpf, (gsize) (from - h->start), (gsize) (to - from));
  } else {
    b = gst_buffer_copy_region (h->buf, flags, (gsize) (from - h->start) * bpf,
        (gsize) (to - from) * bpf);
    if (!h->metas_given && from != h->start) {
      /* a region copy from inside the buffer gets no labels (the meta's
       * transform keeps them for a first piece): this piece is the first */
      gpointer state = NULL;
      GstMeta *meta;
      while ((meta = gst_buffer_iterate_meta_filtered (h->buf, &state,
                  gst_seqlabel_meta_api_get_type ())) != NULL) {
        GstSeqLabelMeta *m = (GstSeqLabelMeta *) meta;
        gst_buffer_add_seqlabel_meta (b, m->frames, m->n_frames, m->probabilities,
            m->n_classes);
      }
    }
  }
  if (self->gate_carry->len > 0) {
    /* before the piece's own labels (none when an earlier piece took them) */
    gboolean probs = self->gate_carry_probs->len == self->gate_carry->len * self->n_classes;
    gst_buffer_prepend_seqlabel_frames (b, (const GstSeqLabelFrame *) self->gate_carry->data,
        self->gate_carry->len, probs ? (const gfloat *) self->gate_carry_probs->data : NULL,
        self->n_classes, h->own_meta && !h->metas_given);
    forget_carried (self);
  }
  h->metas_given = TRUE;
  /* upstream's DISCONT stays on the buffer's first sample */
  if (from != h->start)
    GST_BUFFER_FLAG_UNSET (b, GST_BUFFER_FLAG_DISCONT);
  GST_BUFFER_OFFSET (b) = GST_BUFFER_OFFSET_NONE;
  GST_BUFFER_OFFSET_END (b) = GST_BUFFER_OFFSET_NONE;
  if (GST_CLOCK_TIME_IS_VALID (pts)) {
    GST_BUFFER_PTS (b) = pts + samples_time (self, from - h->start);
    GST_BUFFER_DURATION (b) = pts + samples_time (self, to - h->start) - GST_BUFFER_PTS (b);
  }
  return b;
}

/* Drop mode: a gap event for samples [from, to) of h, which are dropped, so a
 * mixer or muxer downstream knows that time holds nothing rather than waiting
 * for it. */
static void
push_gap (GstSeqLabel * self, Held * h, guint64 from, guint64 to)
{
  GstPad *src = GST_BASE_TRANSFORM_SRC_PAD (GST_BASE_TRANSFORM (self));
  GstClockTime pts = GST_BUFFER_PTS (h->buf), t0, t1;

  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return;
  t0 = pts + samples_time (self, from - h->start);
  t1 = pts + samples_time (self, to - h->start);
  /* a flush under way shows in the next buffer's push */
  gst_pad_push_event (src, gst_event_new_gap (t0, t1 - t0));
}

/* Lets out samples [h->next, to) of h: silence mode one piece with the dropped
 * spans silenced, drop mode one piece per passing span and a gap per dropped one. */
static GstFlowReturn
let_out (GstSeqLabel * self, Held * h, guint64 to)
{
  GstPad *src = GST_BASE_TRANSFORM_SRC_PAD (GST_BASE_TRANSFORM (self));
  gint bpf = GST_AUDIO_INFO_BPF (&self->info);
  gint bps = GST_AUDIO_INFO_WIDTH (&self->info) / 8; /* stored size, not depth (S24_32) */
  GstBuffer *out = NULL;
  GstAudioBuffer abuf;      /* out's samples, mapped once a span is silenced */
  gboolean mapped = FALSE;
  guint64 s = h->next;
  GstFlowReturn ret = GST_FLOW_OK;

  if (self->gate_mode == GST_SEQLABEL_GATE_SILENCE)
    out = piece (self, h, s, to); /* shares the memory until a span is silenced */
  while (s < to && ret == GST_FLOW_OK) {
    /* a span of frames with one decision */
    gboolean keep = frame_keeps (self, frame_of (self, s));
    guint64 e = s;
    while (e < to && frame_keeps (self, frame_of (self, e)) == keep)
      e = MIN (to, frame_start (self, frame_of (self, e) + 1));
    if (self->gate_mode == GST_SEQLABEL_GATE_SILENCE) {
      if (!keep && !mapped && !gst_audio_buffer_map (&abuf, &self->info, out,
              GST_MAP_READWRITE)) {
        gst_buffer_unref (out);
        GST_ELEMENT_ERROR (self, STREAM, FAILED, ("seqlabel: cannot map buffer"), (NULL));
        return GST_FLOW_ERROR;
      }
      mapped = mapped || !keep;
      /* interleaved: one plane of whole frames; non-interleaved: a plane per channel */
      for (gint p = 0; !keep && p < abuf.n_planes; p++) {
        gsize unit = abuf.n_planes > 1 ? (gsize) bps : (gsize) bpf;
        gst_audio_format_info_fill_silence (self->info.finfo,
            (guint8 *) abuf.planes[p] + (gsize) (s - h->next) * unit, (gsize) (e - s) * unit);
      }
    } else if (keep) {
      GstBuffer *b = piece (self, h, s, e);
      if (self->gate_dropped)
        GST_BUFFER_FLAG_SET (b, GST_BUFFER_FLAG_DISCONT);
      self->gate_dropped = FALSE;
      ret = gst_pad_push (src, b);
    } else {
      self->gate_dropped = TRUE;
      push_gap (self, h, s, e);
    }
    s = e;
  }
  if (out != NULL) {
    if (mapped)
      gst_audio_buffer_unmap (&abuf);
    ret = gst_pad_push (src, out);
  }
  h->next = to;
  return ret;
}

/* Lets out, in order, every held event and every held sample whose frame is
 * labelled (all of them once the run is over). */
static GstFlowReturn
release (GstSeqLabel * self, gboolean all)
{
  GstPad *src = GST_BASE_TRANSFORM_SRC_PAD (GST_BASE_TRANSFORM (self));
  guint64 labelled = frame_start (self, self->gate_keep_base + self->gate_keep->len);
  GstFlowReturn ret = GST_FLOW_OK;
  Held *h;

  while (ret == GST_FLOW_OK && (h = g_queue_peek_head (&self->gate_q)) != NULL) {
    if (h->event != NULL) {
      gst_pad_push_event (src, h->event);
      h->event = NULL;
    } else {
      guint64 to = all ? h->end : MIN (h->end, labelled);
      /* an empty buffer has no sample to wait for: only its labels go on */
      if (h->next < h->end) {
        if (to <= h->next)
          break;
        ret = let_out (self, h, to);
        if (h->next < h->end)
          break;
      }
      carry_labels (self, h);
    }
    held_free (g_queue_pop_head (&self->gate_q));
  }
  /* the decisions of frames wholly let out are not needed again (all of them
   * when nothing is held: no frame is labelled before its audio arrives) */
  h = g_queue_peek_head (&self->gate_q);
  if (h == NULL || h->event == NULL) {
    gint64 done = h ? frame_of (self, h->next) - self->gate_keep_base
        : (gint64) self->gate_keep->len;
    if (done > 0) {
      g_array_remove_range (self->gate_keep, 0, (guint) done);
      self->gate_keep_base += done;
    }
  }
  return ret;
}

GstFlowReturn
gst_seqlabel_gate_hold (GstSeqLabel * self, GstBuffer * buf, guint64 first)
{
  Held *h = g_new0 (Held, 1);
  h->buf = buf;
  h->own_meta = self->put_meta;
  h->start = h->next = first;
  h->end = first + gst_seqlabel_buffer_frames (self, buf);
  g_queue_push_tail (&self->gate_q, h);
  return release (self, FALSE);
}

gboolean
gst_seqlabel_gate_hold_event (GstSeqLabel * self, GstEvent * event)
{
  Held *h;
  if (g_queue_is_empty (&self->gate_q))
    return FALSE;
  h = g_new0 (Held, 1);
  h->event = event;
  g_queue_push_tail (&self->gate_q, h);
  return TRUE;
}

GstFlowReturn
gst_seqlabel_gate_run_over (GstSeqLabel * self)
{
  GstFlowReturn ret = GST_FLOW_OK;
  if (self->gate_mode != GST_SEQLABEL_GATE_NONE) {
    ret = release (self, TRUE);
    if (ret != GST_FLOW_OK)
      g_queue_clear_full (&self->gate_q, held_free);
  }
  reset_frames (self);
  /* the run's labels that found no piece went to the bus and the labels pad */
  forget_carried (self);
  return ret;
}

GstFlowReturn
gst_seqlabel_gate_pass (GstSeqLabel * self, GstBuffer * buf, guint64 first,
    gint64 frame_offset, gboolean labelled, gboolean own_meta)
{
  Held h = { 0 };
  GArray *keep = self->gate_keep;
  gint64 base = self->gate_keep_base;
  gboolean last = self->gate_last_keep;
  GstFlowReturn ret = GST_FLOW_OK;

  h.buf = buf;
  h.own_meta = own_meta;
  h.start = h.next = first;
  h.end = first + gst_seqlabel_buffer_frames (self, buf);
  /* the span's decisions, by stream frame, read as its run's frames; a buffer
   * not labelled reads none of them (far past them: the latest, FALSE) */
  self->gate_keep = self->rev_keep;
  self->gate_keep_base = labelled ? self->rev_keep_base - frame_offset : G_MININT64 / 2;
  self->gate_last_keep = labelled && self->rev_last_keep;
  if (h.next < h.end)
    ret = let_out (self, &h, h.end);
  carry_labels (self, &h);
  self->gate_keep = keep;
  self->gate_keep_base = base;
  self->gate_last_keep = last;
  gst_buffer_unref (buf);
  return ret;
}
