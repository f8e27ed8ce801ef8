#!/usr/bin/python3
"""Measures how far the corpus' Codec 2 channel delays speech, per mode.

Codec 2 is a vocoder: its output does not follow the input's waveform, so the lag is found
on the envelopes instead. Each file goes through mix.py's own codec channel
(`codec_roundtrip`: 16 kHz -> 8 kHz 16-bit -> c2enc/c2dec -> 16 kHz); the lag is the one (in 1 ms steps) at which the decoded
log-RMS envelope correlates best with the input's. The corpus labels speech on the clean
clip, so this lag is how far Codec 2 segments would trail their labels. mix.py takes its
per-mode median off (CODEC_DELAY, from corpus-v4 on); the `left_ms` columns measure what is
left of the lag after that alignment, which should be about 0.

Usage: codec2_delay.py FILE.wav [FILE.wav ...]    (clean speech gives the clearest peak)
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import SR  # noqa: E402
from mix import codec_roundtrip, pipe  # noqa: E402

MODES = ("3200", "1600", "700C")
STEP = SR // 1000            # 1 ms envelope steps
MAX_LAG_MS = 80


def envelope(x):
    """log RMS per 1 ms, floored at one 16-bit step so that digital silence stays finite"""
    n = len(x) // STEP * STEP
    return np.log(np.sqrt((x[:n].astype(np.float64).reshape(-1, STEP) ** 2).mean(axis=1)) + 2.0 ** -15)


def best_lag(a, b):
    """(lag in envelope steps, correlation) maximising corr(a[t], b[t + lag]), lag >= 0."""
    n = min(len(a), len(b))
    scores = [np.corrcoef(a[:n - d], b[d:n])[0, 1] for d in range(MAX_LAG_MS + 1)]
    d = int(np.nanargmax(scores))
    return d, scores[d]


def signed_lag(a, b):
    """Like best_lag, but the decoded envelope b may also lead a (a negative lag)."""
    d, r = best_lag(a, b)
    e, q = best_lag(b, a)
    return d if r >= q else -e


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("file\t" + "\t".join("codec2-%s_ms\tr\tleft_ms" % m for m in MODES))
    for path in sys.argv[1:]:
        try:
            x = np.frombuffer(pipe(["sox", "-V1", "-R", "-D", path, "-t", "f32", "-r", str(SR),
                                    "-c", "1", "-", "remix", "-"], None), "<f4")
        except subprocess.CalledProcessError:
            sys.exit("codec2_delay.py: %s: sox cannot read it as audio" % path)
        cells, ref = [], envelope(x)
        for mode in MODES:
            name = "codec2-" + mode
            lag, r = best_lag(ref, envelope(codec_roundtrip(x, name, aligned=False)))
            left = signed_lag(ref, envelope(codec_roundtrip(x, name)))
            cells += [str(lag), "%.2f" % r, str(left)]
        print(path + "\t" + "\t".join(cells))


if __name__ == "__main__":
    main()
