/* Registration and implementation of GstSeqLabelMeta (see gstseqlabelmeta.h). */
#include "seqlabelmeta.h"

#include <gst/audio/audio.h>
#include <string.h>

static gboolean
seqlabel_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstSeqLabelMeta *m = (GstSeqLabelMeta *) meta;
  (void) params;
  (void) buffer;
  m->n_frames = 0;
  m->frames = NULL;
  m->n_classes = 0;
  m->probabilities = NULL;
  return TRUE;
}

static void
seqlabel_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstSeqLabelMeta *m = (GstSeqLabelMeta *) meta;
  (void) buffer;
  /* frames and probabilities share one block, frames first */
  g_free (m->frames);
  m->frames = NULL;
  m->probabilities = NULL;
}

/* The labels describe time, not samples: whatever the transform (a copy, a
 * resample, a format conversion), the destination keeps all of them. But a
 * buffer cut into pieces (audiobuffersplit, an adapter, a payloader) gives
 * them to its first piece alone, so that every frame is still on one meta,
 * not on each piece. */
static gboolean
seqlabel_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstSeqLabelMeta *m = (GstSeqLabelMeta *) meta;
  (void) buffer;
  if (GST_META_TRANSFORM_IS_COPY (type)) {
    GstMetaTransformCopy *copy = data;
    if (copy->region && copy->offset > 0)
      return TRUE;
  }
  return gst_buffer_add_seqlabel_meta (dest, m->frames, m->n_frames,
      m->probabilities, m->n_classes) != NULL;
}

GType
gst_seqlabel_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { GST_META_TAG_AUDIO_STR, NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register (GST_SEQLABEL_META_API_NAME, tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

const GstMetaInfo *
gst_seqlabel_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_register (gst_seqlabel_meta_api_get_type (),
        GST_SEQLABEL_META_IMPL_NAME, sizeof (GstSeqLabelMeta),
        seqlabel_meta_init, seqlabel_meta_free, seqlabel_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

GstSeqLabelMeta *
gst_buffer_add_seqlabel_meta (GstBuffer * buffer, const GstSeqLabelFrame * frames,
    guint n_frames, const gfloat * probabilities, guint n_classes)
{
  GstSeqLabelMeta *m;
  gsize frames_bytes, probs_bytes;
  guint8 *block;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (n_frames > 0 && frames != NULL, NULL);

  m = (GstSeqLabelMeta *) gst_buffer_add_meta (buffer,
      gst_seqlabel_meta_get_info (), NULL);
  if (m == NULL)
    return NULL;

  /* one allocation for both arrays; frames first keeps their alignment */
  frames_bytes = (gsize) n_frames * sizeof (GstSeqLabelFrame);
  probs_bytes = probabilities ? (gsize) n_frames * n_classes * sizeof (gfloat) : 0;
  block = g_malloc (frames_bytes + probs_bytes);
  memcpy (block, frames, frames_bytes);
  m->frames = (GstSeqLabelFrame *) block;
  m->n_frames = n_frames;
  if (probs_bytes) {
    m->probabilities = (gfloat *) (block + frames_bytes);
    memcpy (m->probabilities, probabilities, probs_bytes);
    m->n_classes = n_classes;
  }
  return m;
}

GstSeqLabelMeta *
gst_buffer_get_last_seqlabel_meta (GstBuffer * buffer)
{
  GstSeqLabelMeta *last = NULL;
  gpointer state = NULL;
  GstMeta *meta;
  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              gst_seqlabel_meta_api_get_type ())) != NULL)
    last = (GstSeqLabelMeta *) meta;
  return last;
}

void
gst_buffer_prepend_seqlabel_frames (GstBuffer * buffer, const GstSeqLabelFrame * frames,
    guint n, const gfloat * probabilities, guint n_classes, gboolean into_last)
{
  GstSeqLabelMeta *own = into_last ? gst_buffer_get_last_seqlabel_meta (buffer) : NULL;
  guint m = own != NULL ? own->n_frames : 0;
  gboolean with_probs = probabilities != NULL && (own == NULL ||
      (own->probabilities != NULL && own->n_classes == n_classes));
  GstSeqLabelFrame *all;
  gfloat *probs = NULL;

  if (n == 0)
    return;
  /* copied out first: own goes when it is removed */
  all = g_new (GstSeqLabelFrame, n + m);
  memcpy (all, frames, n * sizeof *all);
  if (m > 0)
    memcpy (all + n, own->frames, m * sizeof *all);
  if (with_probs) {
    probs = g_new (gfloat, (gsize) (n + m) * n_classes);
    memcpy (probs, probabilities, (gsize) n * n_classes * sizeof *probs);
    if (m > 0)
      memcpy (probs + (gsize) n * n_classes, own->probabilities,
          (gsize) m * n_classes * sizeof *probs);
  }
  if (own != NULL)
    gst_buffer_remove_meta (buffer, (GstMeta *) own);
  gst_buffer_add_seqlabel_meta (buffer, all, n + m, probs, probs ? n_classes : 0);
  g_free (all);
  g_free (probs);
}
