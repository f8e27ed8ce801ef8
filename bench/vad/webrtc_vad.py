#!/usr/bin/python3
"""WebRTC's voice activity detector through GStreamer's webrtcdsp element.

For each audio file: filesrc ! decodebin ! audioconvert ! audioresample !
audio/x-raw,format=S16LE,rate=16000,channels=1 ! webrtcdsp ! fakesink, with only
voice detection switched on (no echo canceller, noise suppression, gain control or
high-pass filter, so the audio the VAD sees is the file's). webrtcdsp posts an element
message `voice-activity` (stream-time, stream-has-voice) whenever its decision
changes; the spans between a `true` and the next `false` (or the end) are written as
`speech` segments to OUT_DIR/<name>.txt (Audacity labels).

usage: webrtc_vad.py OUT_DIR FILE... [--likelihood very-low|low|moderate|high] [--frame-ms 10|20|30]
"""
import argparse
import os
import sys

import gi
gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402

LIKELIHOOD = {'very-low': 0, 'low': 1, 'moderate': 2, 'high': 3}


def speech_segments(path, likelihood, frame_ms):
    pipe = Gst.parse_launch(
        'filesrc name=src ! decodebin ! audioconvert ! audioresample ! '
        'audio/x-raw,format=S16LE,rate=16000,channels=1 ! '
        'webrtcdsp name=dsp echo-cancel=false noise-suppression=false gain-control=false '
        'high-pass-filter=false voice-detection=true ! fakesink sync=false')
    pipe.get_by_name('src').set_property('location', path)
    dsp = pipe.get_by_name('dsp')
    dsp.set_property('voice-detection-likelihood', likelihood)
    dsp.set_property('voice-detection-frame-size-ms', frame_ms)
    bus = pipe.get_bus()
    pipe.set_state(Gst.State.PLAYING)
    segments, start, end_s = [], None, 0.0
    while True:
        msg = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE,
                                     Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            pipe.set_state(Gst.State.NULL)
            raise RuntimeError(f'{path}: {err.message}')
        if msg.type == Gst.MessageType.EOS:
            ok, dur = pipe.query_duration(Gst.Format.TIME)
            end_s = dur / Gst.SECOND if ok else end_s
            break
        st = msg.get_structure()
        if st is None or st.get_name() != 'voice-activity':
            continue
        t = st.get_value('stream-time') / Gst.SECOND
        end_s = max(end_s, t)
        if st.get_value('stream-has-voice'):
            if start is None:
                start = t
        elif start is not None:
            segments.append((start, t))
            start = None
    pipe.set_state(Gst.State.NULL)
    if start is not None:
        segments.append((start, end_s))
    return segments


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('out_dir')
    ap.add_argument('files', nargs='+')
    ap.add_argument('--likelihood', choices=LIKELIHOOD, default='low')
    ap.add_argument('--frame-ms', type=int, default=10, choices=(10, 20, 30))
    args = ap.parse_args()
    Gst.init(None)
    os.makedirs(args.out_dir, exist_ok=True)
    for f in args.files:
        segs = speech_segments(os.path.abspath(f), LIKELIHOOD[args.likelihood], args.frame_ms)
        name = os.path.splitext(os.path.basename(f))[0]
        with open(os.path.join(args.out_dir, name + '.txt'), 'w') as out:
            for a, b in segs:
                out.write(f'{a:.3f}\t{b:.3f}\tspeech\n')


if __name__ == '__main__':
    sys.exit(main())
