#!/usr/bin/python3
# Prints the segments the seqlabel element posts on the bus while it plays a
# file:  plugin/examples/watch_labels.py FILE   (GST_PLUGIN_PATH=build/plugin
# when uninstalled; SEQLABEL_MODEL=path for another model).
import sys

import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst

Gst.init(None)
pipeline = Gst.parse_launch(
    "filesrc name=src ! decodebin ! audioconvert ! "
    "seqlabel message-mode=segment ! fakesink")
pipeline.get_by_name("src").set_property("location", sys.argv[1])
bus = pipeline.get_bus()
pipeline.set_state(Gst.State.PLAYING)
wanted = Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR
try:
    while True:
        msg = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE, wanted)
        if msg.type == Gst.MessageType.ERROR:
            sys.exit(f"error: {msg.parse_error()[0].message}")
        if msg.type == Gst.MessageType.EOS:
            break
        s = msg.get_structure()
        if s.get_name() == "seqlabel":
            start = s.get_value("stream-time") / Gst.SECOND
            end = start + s.get_value("duration") / Gst.SECOND
            print(f"{start:8.2f} {end:8.2f}  {s.get_value('label'):8s} "
                  f"{s.get_value('confidence'):.2f}")
finally:
    pipeline.set_state(Gst.State.NULL)
