#!/usr/bin/python3
"""The latency a live pipeline's audio sink waits with the element inline and with
the element on a tee branch of its own (docs/element.md, "Latency"): a live 48 kHz
stereo test tone, each pipeline PLAYING for two seconds, then its synchronised
sink's latency.

usage: bench/element/branch-latency.py   (SL_PLUGIN_PATH: the plugin's folder
[build/plugin]; /usr/bin/python3, whose gi has GStreamer)"""
import os
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ["GST_PLUGIN_PATH"] = os.environ.get("SL_PLUGIN_PATH", os.path.join(root, "build", "plugin"))
import gi  # noqa: E402

gi.require_version("Gst", "1.0")
gi.require_version("GstBase", "1.0")
from gi.repository import Gst, GstBase  # noqa: E402

SOURCE = "audiotestsrc is-live=true ! audio/x-raw,rate=48000,channels=2"
PIPELINES = {
    "inline": SOURCE + " ! seqlabel ! fakesink name=sink sync=true",
    "tee branch": SOURCE + " ! tee name=t ! queue ! fakesink name=sink sync=true "
                  "t. ! queue ! seqlabel ! fakesink sync=false async=false",
}

Gst.init(None)
if not Gst.ElementFactory.find("seqlabel"):
    sys.exit("no seqlabel element in " + os.environ["GST_PLUGIN_PATH"] + ": build it first")
for name, desc in PIPELINES.items():
    pipeline = Gst.parse_launch(desc)
    pipeline.set_state(Gst.State.PLAYING)
    time.sleep(2.0)
    latency = GstBase.BaseSink.get_latency(pipeline.get_by_name("sink"))
    pipeline.set_state(Gst.State.NULL)
    print("%-10s  the audio sink's latency %.3f s" % (name, latency / Gst.SECOND))
