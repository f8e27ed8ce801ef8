/* Reads the labels the seqlabel element attaches to the audio buffers it lets
 * through (GstSeqLabelMeta) and prints one line per frame: index, time in
 * seconds, label, confidence. A frame rides on the buffer during which it was
 * decided, so its time lies before the buffer's by up to the element's latency;
 * the frames decided at the end of the stream have no buffer to ride on (they
 * reach the bus and the element's labels pad) and are not printed here.
 *
 *   cc read_metas.c $(pkg-config --cflags --libs gstreamer-seqlabel-1.0) -o read_metas
 *   ./read_metas talk.wav
 */
#include <gst/gst.h>
#include <gst/seqlabel/gstseqlabelmeta.h>

static GstPadProbeReturn print_frames(GstPad *pad, GstPadProbeInfo *info, gpointer user)
{
    (void)pad;
    (void)user;
    GstSeqLabelMeta *m = gst_buffer_get_seqlabel_meta(GST_PAD_PROBE_INFO_BUFFER(info));
    for (guint i = 0; m && i < m->n_frames; i++) {
        const GstSeqLabelFrame *f = &m->frames[i];
        g_print("%" G_GUINT64_FORMAT "\t%.2f\t%s\t%.3f\n", f->index, (double)f->pts / GST_SECOND,
                g_quark_to_string(f->label), f->confidence);
    }
    return GST_PAD_PROBE_OK;
}

int main(int argc, char **argv)
{
    gst_init(&argc, &argv);
    if (argc != 2) {
        g_printerr("usage: %s AUDIO\n", argv[0]);
        return 2;
    }
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(
        "filesrc name=src ! decodebin ! audioconvert ! seqlabel name=labels ! fakesink", &error);
    if (!pipeline) {
        g_printerr("%s (is the seqlabel plugin installed?)\n", error->message);
        return 1;
    }
    GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    g_object_set(src, "location", argv[1], NULL);
    GstElement *labels = gst_bin_get_by_name(GST_BIN(pipeline), "labels");
    GstPad *pad = gst_element_get_static_pad(labels, "src");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, print_frames, NULL, NULL);

    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *msg = gst_bus_timed_pop_filtered(bus, GST_CLOCK_TIME_NONE,
                                                 GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    int status = 0;
    if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
        gst_message_parse_error(msg, &error, NULL);
        g_printerr("%s\n", error->message);
        g_error_free(error);
        status = 1;
    }
    gst_message_unref(msg);
    gst_object_unref(bus);
    gst_object_unref(pad);
    gst_object_unref(labels);
    gst_object_unref(src);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return status;
}
