/* GstSeqLabelMeta — the per-frame labels the `seqlabel` element attaches to
 * the audio buffers it lets through. Public header for applications.
 *
 * What a buffer's meta holds: the frames whose labels became final WHILE the
 * element processed that buffer. Because the labeler needs lookahead (and the
 * decoder may smooth), a frame is completed some time after its audio passed:
 * the frames in a buffer's meta usually lie before the buffer's own PTS. Every
 * frame carries its own timestamp and duration; use those, not the buffer's.
 * A buffer may hold no meta (no frame completed) or several frames. Frames
 * completed at end-of-stream have no buffer to ride on: they reach the
 * application as bus messages and on the element's "labels" pad.
 *
 * The API is registered with the "audio" tag only, so audioconvert and
 * audioresample keep the meta (they copy it to their output buffers).
 *
 * This header needs no library: the meta is registered by the seqlabel
 * plugin; the inline helpers look the API type up by name. They return NULL
 * until the plugin is loaded (i.e. until a seqlabel element has been made).
 *
 *   GstSeqLabelMeta *m = gst_buffer_get_seqlabel_meta (buffer);
 *   for (guint i = 0; m && i < m->n_frames; i++)
 *     g_print ("%" GST_TIME_FORMAT " %s %.3f\n",
 *         GST_TIME_ARGS (m->frames[i].pts),
 *         g_quark_to_string (m->frames[i].label), m->frames[i].confidence);
 */
#ifndef GST_SEQLABEL_META_H
#define GST_SEQLABEL_META_H

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_SEQLABEL_META_API_NAME "GstSeqLabelMetaAPI"
#define GST_SEQLABEL_META_IMPL_NAME "GstSeqLabelMeta"

typedef struct {
  guint64 index;          /* frame index on the stream's grid: frame i starts at
                             stream time i * duration (after a seek too; see
                             docs/element.md) */
  GstClockTime pts;       /* start of the frame (buffer time, like a buffer PTS) */
  GstClockTime duration;  /* the frame hop (10 ms for the default model) */
  gint class_index;       /* index of the class in the model */
  GQuark label;           /* the class name, interned */
  gfloat confidence;      /* the decoder's confidence in the label, 0..1 */
} GstSeqLabelFrame;

typedef struct {
  GstMeta meta;
  guint n_frames;
  GstSeqLabelFrame *frames;  /* n_frames entries */
  guint n_classes;
  gfloat *probabilities;     /* n_frames x n_classes, row-major: frame i's
                                class k is probabilities[i * n_classes + k] */
} GstSeqLabelMeta;

static inline GType
gst_seqlabel_meta_api_type (void)
{
  return g_type_from_name (GST_SEQLABEL_META_API_NAME);
}

static inline GstSeqLabelMeta *
gst_buffer_get_seqlabel_meta (GstBuffer * buffer)
{
  GType api = gst_seqlabel_meta_api_type ();
  if (api == 0)
    return NULL;
  return (GstSeqLabelMeta *) gst_buffer_get_meta (buffer, api);
}

G_END_DECLS

#endif /* GST_SEQLABEL_META_H */
