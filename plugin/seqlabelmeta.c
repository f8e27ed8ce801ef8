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
 * resample, a format conversion), the destination keeps all of them. */
static gboolean
seqlabel_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  GstSeqLabelMeta *m = (GstSeqLabelMeta *) meta;
  (void) buffer;
  (void) type;
  (void) data;
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

void
gst_buffer_join_seqlabel_metas (GstBuffer * buffer, const GstSeqLabelMeta * first,
    const GstSeqLabelMeta * second)
{
  const GstSeqLabelMeta *parts[2] = { first, second };
  GstSeqLabelMeta *own;
  GstSeqLabelFrame *frames;
  gfloat *probs;
  guint n = 0, k = 0, n_classes = 0;
  gboolean with_probs = TRUE;

  for (int i = 0; i < 2; i++)
    if (parts[i] != NULL) {
      with_probs = with_probs && parts[i]->probabilities != NULL
          && (n_classes == 0 || parts[i]->n_classes == n_classes);
      n_classes = parts[i]->n_classes;
      n += parts[i]->n_frames;
    }
  /* copied out first: either part may be the meta about to be removed */
  frames = g_new (GstSeqLabelFrame, MAX (n, 1));
  probs = with_probs ? g_new (gfloat, MAX ((gsize) n * n_classes, 1)) : NULL;
  for (int i = 0; i < 2; i++)
    if (parts[i] != NULL) {
      memcpy (frames + k, parts[i]->frames, parts[i]->n_frames * sizeof *frames);
      if (probs)
        memcpy (probs + (gsize) k * n_classes, parts[i]->probabilities,
            (gsize) parts[i]->n_frames * n_classes * sizeof *probs);
      k += parts[i]->n_frames;
    }
  own = (GstSeqLabelMeta *) gst_buffer_get_meta (buffer, gst_seqlabel_meta_api_get_type ());
  if (own != NULL)
    gst_buffer_remove_meta (buffer, (GstMeta *) own);
  if (n > 0)
    gst_buffer_add_seqlabel_meta (buffer, frames, n, probs, probs ? n_classes : 0);
  g_free (frames);
  g_free (probs);
}
