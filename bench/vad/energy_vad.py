#!/usr/bin/python3
"""Energy-threshold VAD: the baseline every VAD should beat.

Frames of 25 ms every 10 ms (the seqlabel grid); a frame is `speech` when its energy
(mean square of the samples, in dBFS) is at least THRESHOLD; a hangover keeps
speech on for HANGOVER ms after the last loud frame, and runs shorter than MIN ms
are dropped. Writes OUT_DIR/<name>.txt (Audacity labels, `speech` segments).

--tune MANIFEST picks THRESHOLD (grid -70..-20 dBFS, step 2.5) by speech-vs-rest
frame F1 on that labeled manifest (use the validation split, never the test split)
and prints it; run.sh then labels the test split with it.

usage: energy_vad.py OUT_DIR FILE... [--threshold-db X] [--hangover-ms 200] [--min-ms 100]
       energy_vad.py --tune valid.tsv
"""
import argparse
import os
import sys

import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402


def frame_db(path):
    x, rate = sf.read(path, dtype='float32', always_2d=True)
    x = x.mean(axis=1)
    win, hop = int(round(0.025 * rate)), int(round(0.010 * rate))
    n = 0 if len(x) < win else 1 + (len(x) - win) // hop
    if n == 0:
        return np.zeros(0)
    idx = np.arange(win)[None, :] + hop * np.arange(n)[:, None]
    ms = np.mean(x[idx].astype(np.float64) ** 2, axis=1)
    return 10 * np.log10(ms + 1e-12)


def decide(db, threshold_db, hangover_ms, min_ms):
    loud = db >= threshold_db
    speech = np.zeros_like(loud)
    hang = hangover_ms // 10
    left = -1
    for i, v in enumerate(loud):
        if v:
            left = hang
        speech[i] = left >= 0
        left -= 1
    # drop runs shorter than min_ms
    out = speech.copy()
    i, n = 0, len(speech)
    while i < n:
        j = i
        while j < n and speech[j] == speech[i]:
            j += 1
        if speech[i] and (j - i) * 10 < min_ms:
            out[i:j] = False
        i = j
    return out


def segments(mask):
    segs, i, n = [], 0, len(mask)
    while i < n:
        if mask[i]:
            j = i
            while j < n and mask[j]:
                j += 1
            segs.append((i * 0.01, j * 0.01))
            i = j
        else:
            i += 1
    return segs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('out_dir', nargs='?')
    ap.add_argument('files', nargs='*')
    ap.add_argument('--threshold-db', type=float, default=-45.0)
    ap.add_argument('--hangover-ms', type=int, default=200)
    ap.add_argument('--min-ms', type=int, default=100)
    ap.add_argument('--tune', metavar='MANIFEST')
    args = ap.parse_args()
    if args.tune:
        items = score.read_manifest(args.tune)
        cache = [(frame_db(a), score.reference_speech(a, l)) for a, l in items]
        best = None
        for thr in np.arange(-70.0, -19.9, 2.5):
            tp = fp = fn = 0
            for db, ref in cache:
                pred = decide(db, thr, args.hangover_ms, args.min_ms)[:len(ref)]
                known = ref >= 0
                tp += int(np.sum(pred & (ref == 1) & known))
                fp += int(np.sum(pred & (ref == 0) & known))
                fn += int(np.sum(~pred & (ref == 1) & known))
            f1 = 2 * tp / max(1, 2 * tp + fp + fn)
            print(f'threshold {thr:6.1f} dBFS  f1 {f1:.4f}', file=sys.stderr)
            if best is None or f1 > best[1]:
                best = (thr, f1)
        print(f'{best[0]:.1f}')
        return 0
    if not args.out_dir or not args.files:
        ap.error('OUT_DIR and FILE... needed (or --tune MANIFEST)')
    os.makedirs(args.out_dir, exist_ok=True)
    for f in args.files:
        mask = decide(frame_db(f), args.threshold_db, args.hangover_ms, args.min_ms)
        name = os.path.splitext(os.path.basename(f))[0]
        with open(os.path.join(args.out_dir, name + '.txt'), 'w') as out:
            for a, b in segments(mask):
                out.write(f'{a:.2f}\t{b:.2f}\tspeech\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
