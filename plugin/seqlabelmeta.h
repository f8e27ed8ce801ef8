/* Plugin-side registration of GstSeqLabelMeta (the public struct lives in
 * gstseqlabelmeta.h, which applications include). */
#ifndef SEQLABEL_META_PRIV_H
#define SEQLABEL_META_PRIV_H

#include "gstseqlabelmeta.h"

G_BEGIN_DECLS

GType gst_seqlabel_meta_api_get_type (void);
const GstMetaInfo *gst_seqlabel_meta_get_info (void);

/* Copies n_frames frames and (when probabilities is not NULL) their
 * n_frames x n_classes probabilities into a new meta on buffer. */
GstSeqLabelMeta *gst_buffer_add_seqlabel_meta (GstBuffer * buffer,
    const GstSeqLabelFrame * frames, guint n_frames,
    const gfloat * probabilities, guint n_classes);

/* The last GstSeqLabelMeta on buffer, or NULL: an element's own, when it put
 * one there (metas keep the order they were added in; one of an element
 * upstream, another model's, comes before it). */
GstSeqLabelMeta *gst_buffer_get_last_seqlabel_meta (GstBuffer * buffer);

/* Puts n frames (and their n x n_classes probabilities, or NULL) before the
 * frames of buffer's last meta (into_last: the element's own; an element
 * upstream's comes before it), in one meta in place of it; else, or when it
 * has none, in a meta of their own after the others. The probabilities are
 * kept when both have them for the same classes. */
void gst_buffer_prepend_seqlabel_frames (GstBuffer * buffer,
    const GstSeqLabelFrame * frames, guint n, const gfloat * probabilities, guint n_classes,
    gboolean into_last);

G_END_DECLS

#endif
