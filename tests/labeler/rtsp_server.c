/* An RTSP server for the command's tests (the test's web server is its own
 * code; RTSP's is GStreamer's library): serves the WAV file named as its
 * argument at /audio, as RTP L16 (16-bit PCM, so nothing is lost on the way),
 * each client from its first sample, on a free port of the loopback, which it
 * prints on standard output; runs until it is killed. */
#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    gst_init(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: rtsp_server FILE.wav\n");
        return 2;
    }
    GstRTSPServer *server = gst_rtsp_server_new();
    gst_rtsp_server_set_address(server, "127.0.0.1");
    gst_rtsp_server_set_service(server, "0");
    GstRTSPMediaFactory *factory = gst_rtsp_media_factory_new();
    gchar *launch = g_strdup_printf("( filesrc location=\"%s\" ! wavparse ! audioconvert ! "
                                    "audio/x-raw,format=S16BE ! rtpL16pay name=pay0 pt=96 )",
                                    argv[1]);
    gst_rtsp_media_factory_set_launch(factory, launch);
    g_free(launch);
    GstRTSPMountPoints *mounts = gst_rtsp_server_get_mount_points(server);
    gst_rtsp_mount_points_add_factory(mounts, "/audio", factory);
    g_object_unref(mounts);
    if (gst_rtsp_server_attach(server, NULL) == 0) {
        fprintf(stderr, "rtsp_server: cannot listen on the loopback\n");
        return 1;
    }
    printf("%d\n", gst_rtsp_server_get_bound_port(server));
    fflush(stdout);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
