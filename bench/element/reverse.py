#!/usr/bin/env python3
"""Reverse playback against forward: plays FILE through `decodebin ! seqlabel`
at rate 1 and at rate -1 (a flushing seek over the whole file), and prints what
differs: frames (bus messages, message-mode=frame) labelled twice, left out,
only in reverse, at another time, with another label; the Audacity lines of
the labels pad and the latest end among them; warnings posted.
Usage: GST_PLUGIN_PATH=build/plugin bench/element/reverse.py FILE (bench/element/reverse.sh)"""
import collections
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)


def play(path, rate):
    p = Gst.parse_launch(
        f'filesrc location="{path}" ! decodebin ! audioconvert ! seqlabel name=l '
        "message-mode=frame ! fakesink sync=false l.labels ! appsink name=lines sync=false "
        "emit-signals=true")
    text, frames, warnings = [], [], []

    def on_sample(sink):
        b = sink.emit("pull-sample").get_buffer()
        ok, m = b.map(Gst.MapFlags.READ)
        text.append(bytes(m.data).decode())
        b.unmap(m)
        return Gst.FlowReturn.OK

    p.get_by_name("lines").connect("new-sample", on_sample)
    bus = p.get_bus()

    def take(m):
        if m.type == Gst.MessageType.WARNING:
            warnings.append(str(m.parse_warning()[0]))
        elif m.type == Gst.MessageType.ELEMENT and m.get_structure().get_name() == "seqlabel":
            s = m.get_structure()
            frames.append((s.get_value("frame"), s.get_value("timestamp"),
                           s.get_value("label")))

    def until(types):
        while True:
            m = bus.timed_pop(120 * Gst.SECOND)
            if m is None or m.type & types:
                return m
            take(m)

    p.set_state(Gst.State.PAUSED)
    until(Gst.MessageType.ASYNC_DONE | Gst.MessageType.ERROR)
    ok, dur = p.query_duration(Gst.Format.TIME)
    text.clear(), frames.clear(), warnings.clear()
    if rate != 1:
        p.seek(rate, Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
               Gst.SeekType.SET, 0, Gst.SeekType.SET, dur)
        until(Gst.MessageType.ASYNC_DONE | Gst.MessageType.ERROR)
    p.set_state(Gst.State.PLAYING)
    until(Gst.MessageType.EOS | Gst.MessageType.ERROR)
    p.set_state(Gst.State.NULL)
    lines = [ln for ln in "".join(text).splitlines() if ln]
    return dur, frames, lines, warnings


def main():
    path = sys.argv[1]
    dur, fwd, fwd_lines, _ = play(path, 1.0)
    _, rev, rev_lines, warnings = play(path, -1.0)
    f = {i: (t, lab) for i, t, lab in fwd}
    count = collections.Counter(i for i, _, _ in rev)
    r = {i: (t, lab) for i, t, lab in rev}
    later = [i for i in r if i in f and r[i][0] != f[i][0]]
    other = [i for i in r if i in f and r[i][1] != f[i][1]]
    end = max((float(ln.split("\t")[1]) for ln in rev_lines), default=0.0)
    print(f"{path}: {dur / 1e9:.2f} s; frames forward {len(f)}, reverse {len(rev)}: "
          f"twice {sum(1 for v in count.values() if v > 1)}, left out "
          f"{len(set(f) - set(r))}, only in reverse {len(set(r) - set(f))}, at another "
          f"time {len(later)}, another label {len(other)}; segments forward "
          f"{len(fwd_lines)}, reverse {len(rev_lines)} (latest end {end:.2f} s); "
          f"warnings {len(warnings)}")


main()
