#!/usr/bin/python3
"""Measures how far the corpus' Codec 2 channel delays speech, per mode.

Codec 2 is a vocoder: its output does not follow the input's waveform, so the lag is found
on the envelopes instead. Each file goes through the same 8 kHz 16-bit c2enc/c2dec round
trip as mix.py's codec channel; the lag is the one (in 1 ms steps) at which the decoded
log-RMS envelope correlates best with the input's. The corpus labels speech on the clean
clip, so this lag is how far its Codec 2 segments trail their labels.

Usage: codec2_delay.py FILE.wav [FILE.wav ...]    (clean speech gives the clearest peak)
"""
import subprocess
import sys

import numpy as np

MODES = ("3200", "1600", "700C")
RATE = 8000
STEP = RATE // 1000          # 1 ms envelope steps
MAX_LAG_MS = 80


def pipe(cmd, data=None):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=True).stdout


def envelope(x):
    n = len(x) // STEP * STEP
    return np.log1p(np.sqrt((x[:n].reshape(-1, STEP) ** 2).mean(axis=1)))


def best_lag(a, b):
    """(lag in envelope steps, correlation) maximising corr(a[t], b[t + lag]), lag >= 0."""
    n = min(len(a), len(b))
    scores = [np.corrcoef(a[:n - d], b[d:n])[0, 1] for d in range(MAX_LAG_MS + 1)]
    d = int(np.nanargmax(scores))
    return d, scores[d]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("file\t" + "\t".join("codec2-%s_ms\tr" % m for m in MODES))
    for path in sys.argv[1:]:
        try:
            pcm = pipe(["sox", "-V1", "-R", "-D", path, "-t", "s16", "-r", str(RATE), "-c", "1",
                        "-", "remix", "-"])
        except subprocess.CalledProcessError as e:
            sys.exit("codec2_delay.py: %s: sox cannot read it: %s" % (path, e.stderr.decode().strip()))
        x = envelope(np.frombuffer(pcm, "<i2").astype(np.float64))
        cells = []
        for mode in MODES:
            y = pipe(["c2dec", mode, "-", "-"], pipe(["c2enc", mode, "-", "-"], pcm))
            lag, r = best_lag(x, envelope(np.frombuffer(y, "<i2").astype(np.float64)))
            cells += [str(lag), "%.2f" % r]
        print(path + "\t" + "\t".join(cells))


if __name__ == "__main__":
    main()
