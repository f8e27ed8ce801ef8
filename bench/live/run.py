#!/usr/bin/python3
"""How late `seqlabel label -` gives each frame's label on audio arriving in real time.

usage: bench/live/run.py [--seqlabel build/tools/seqlabel] [--model M] [--wav W]
                         [--seconds 30] [--chunk-ms 20] [--gstreamer]
                         [-- LABEL OPTIONS...]

Writes a 16 kHz mono 16-bit WAV's samples (looped to --seconds; default
samples/mixture.wav) into the command's standard input as raw s16 at real-time
pace, --chunk-ms at a time, as a sound card would, and stamps every line of
`--format frames` as it arrives. A frame's lag is its line's arrival less the
moment the last sample of its hop was written. Prints the lags (min, median,
99th percentile, max) beside the labeler's latency that `seqlabel info` prints,
plus the 0.1 s the command reads live input in, the bound docs/labeling.md
gives. Options after `--` go to `seqlabel label` (e.g. `-- --window 60
--left-context 20 --lookahead 10`; `seqlabel info` knows only the model's own
latency, which is then printed alone). No Python packages needed."""
import argparse
import os
import re
import struct
import subprocess
import sys
import threading
import time
import wave

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seqlabel", default=os.path.join(ROOT, "build", "tools", "seqlabel"))
    ap.add_argument("--model", default=os.path.join(ROOT, "model", "default.slm"))
    ap.add_argument("--wav", default=os.path.join(ROOT, "samples", "mixture.wav"))
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--chunk-ms", type=float, default=20.0)
    ap.add_argument("--gstreamer", action="store_true", help="a WAV stream read as fd://0")
    ap.add_argument("extra", nargs="*", help="options for seqlabel label (after --)")
    a = ap.parse_args()

    with wave.open(a.wav) as w:
        if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
            sys.exit("%s: want a 16 kHz mono 16-bit WAV" % a.wav)
        pcm = w.readframes(w.getnframes())
    total = int(a.seconds * 16000)
    while len(pcm) < 2 * total:
        pcm += pcm
    pcm = pcm[:2 * total]

    info = subprocess.run([a.seqlabel, "info", a.model], capture_output=True, text=True, check=True).stdout
    m = re.search(r"latency\s+(\d+) samples \(([\d.]+) s\)", info)
    latency = float(m.group(2)) if m else float("nan")

    source = ["fd://0"] if a.gstreamer else ["-", "--raw-format", "s16le", "--raw-rate", "16000"]
    cmd = [a.seqlabel, "label"] + source + ["--model", a.model, "--format", "frames", "-q"] + a.extra
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    if a.gstreamer:  # RIFF and data sizes of a stream whose length is not known
        p.stdin.write(b"RIFF\xff\xff\xff\xffWAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16) +
                      b"data\xff\xff\xff\xff")
    arrived = []  # (time, frame index)

    def read_lines():
        f = p.stdout
        f.readline()  # the header
        for line in iter(f.readline, b""):
            arrived.append((time.monotonic(), int(line.split(b"\t", 1)[0])))

    reader = threading.Thread(target=read_lines)
    reader.start()
    chunk = int(a.chunk_ms * 16)
    written_at = []  # (samples written so far, time)
    t0 = time.monotonic()
    for off in range(0, total, chunk):
        due = t0 + off / 16000.0
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        n = min(chunk, total - off)
        p.stdin.write(pcm[2 * off:2 * (off + n)])
        written_at.append((off + n, time.monotonic()))
    # the frames of the tail come at the end of input, not live: left out
    last_live = len(arrived)
    p.stdin.close()
    reader.join()
    p.wait()
    if p.returncode:
        sys.exit("seqlabel exited %d" % p.returncode)

    lags = []
    j = 0
    for t, i in arrived[:last_live]:
        end = (i + 1) * 160  # the last sample of frame i's hop
        while written_at[j][0] < end:
            j += 1
        lags.append(t - written_at[j][1])
    lags.sort()
    if not lags:
        sys.exit("no frame arrived before the end of input")

    def q(x):
        return lags[min(len(lags) - 1, int(x * len(lags)))]

    print("seqlabel label %s on %.0f s of %s at real-time pace, %g ms chunks%s" %
          (source[0], a.seconds, os.path.basename(a.wav), a.chunk_ms, (" (" + " ".join(a.extra) + ")") if a.extra else ""))
    print("frames before the end of input: %d of %d" % (len(lags), len(arrived)))
    print("lag of a frame's label behind its audio: min %.3f s, median %.3f s, p99 %.3f s, max %.3f s" %
          (lags[0], q(0.5), q(0.99), lags[-1]))
    if a.extra:
        print("the model's own latency (seqlabel info, without these options) %.3f s" % latency)
    else:
        print("the model's latency (seqlabel info) %.3f s + one live read 0.100 s = %.3f s" %
              (latency, latency + 0.1))


if __name__ == "__main__":
    main()
