/* The `seqlabel` GStreamer plugin: registers the element and its meta. */
#include "gstseqlabel.h"
#include "seqlabelmeta.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  GST_DEBUG_CATEGORY_INIT (gst_seqlabel_debug, "seqlabel", 0,
      "seqlabel audio sequence labeler");
  /* registered here so applications find the meta API by name as soon as the
   * plugin is loaded */
  gst_seqlabel_meta_get_info ();
  return gst_element_register (plugin, "seqlabel", GST_RANK_NONE, GST_TYPE_SEQLABEL);
}

#ifndef PACKAGE                /* (GST_PLUGIN_DEFINE names it) */
#define PACKAGE "seqlabel"
#endif
#ifndef SL_PACKAGE_NAME        /* (meson's package-name and package-origin) */
#define SL_PACKAGE_NAME "seqlabel"
#define SL_PACKAGE_ORIGIN "Unknown package origin"
#endif

/* "GPL": the plugin's own code is LGPL-2.1-or-later, but it links libseqlabel,
 * which links FFTW (GPL-2.0-or-later), so as distributed it is under the GPL
 * (README, Licence) */
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, seqlabel,
    "Audio sequence labeling (libseqlabel): a label for every 10 ms frame",
    plugin_init, SL_VERSION_STRING, "GPL", SL_PACKAGE_NAME, SL_PACKAGE_ORIGIN)
