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

/* Puts on buffer one meta holding first's frames, then second's (either may be
 * NULL or the buffer's own meta), in place of the meta it had; their
 * probabilities too when both have them for the same classes (or only one
 * meta is given). */
void gst_buffer_join_seqlabel_metas (GstBuffer * buffer,
    const GstSeqLabelMeta * first, const GstSeqLabelMeta * second);

G_END_DECLS

#endif
