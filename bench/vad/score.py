#!/usr/bin/python3
"""Speech-vs-rest frame scores of predicted label files against a labeled manifest.

Frames as seqlabel counts them: 25 ms windows every 10 ms, frame i stands for
[i*10 ms, (i+1)*10 ms) and takes the label of the segment containing its centre
(i + 0.5) * 10 ms (docs/training.md); frames no reference segment covers are
ignored. A frame is predicted `speech` when its centre lies in a predicted segment
labeled `speech` (so 4-class output of `seqlabel label` scores the same way).
Counts are summed over every file (micro average), as `seqlabel eval` does.

usage: score.py MANIFEST PRED_DIR [--name NAME] [--split S]
prints: name frames precision recall f1 (TSV, one line)
"""
import argparse
import os
import sys

import numpy as np
import soundfile as sf


def read_manifest(path, split=None):
    base = os.path.dirname(os.path.abspath(path))
    items = []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            cols = line.split('\t')
            if split and len(cols) > 2 and cols[2] != split:
                continue
            items.append((os.path.join(base, cols[0]), os.path.join(base, cols[1])))
    return items


def read_labels(path):
    segs = []
    if not os.path.exists(path):
        return segs
    with open(path) as f:
        for line in f:
            cols = line.rstrip('\n').split('\t')
            if len(cols) < 3 or cols[0].startswith('\\'):
                continue
            segs.append((float(cols[0]), float(cols[1]), cols[2]))
    return segs


def num_frames(audio):
    info = sf.info(audio)
    n = int(round(info.frames * 16000 / info.samplerate))
    return 0 if n < 400 else 1 + (n - 400) // 160


def frame_classes(segs, n, target='speech'):
    """1 where the frame centre is in a `target` segment, 0 in another, -1 uncovered."""
    out = np.full(n, -1, dtype=np.int8)
    centres = (np.arange(n) + 0.5) * 0.01
    for a, b, lab in segs:
        sel = (centres >= a) & (centres < b)
        out[sel] = 1 if lab == target else 0
    return out


def reference_speech(audio, labels):
    return frame_classes(read_labels(labels), num_frames(audio))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('manifest')
    ap.add_argument('pred_dir')
    ap.add_argument('--name', default='')
    ap.add_argument('--split')
    args = ap.parse_args()
    tp = fp = fn = total = 0
    for audio, labels in read_manifest(args.manifest, args.split):
        ref = reference_speech(audio, labels)
        name = os.path.splitext(os.path.basename(audio))[0]
        pred = frame_classes(read_labels(os.path.join(args.pred_dir, name + '.txt')), len(ref)) == 1
        known = ref >= 0
        total += int(known.sum())
        tp += int(np.sum(pred & (ref == 1)))
        fp += int(np.sum(pred & (ref == 0)))
        fn += int(np.sum(~pred & (ref == 1)))
    p = tp / max(1, tp + fp)
    r = tp / max(1, tp + fn)
    f1 = 2 * tp / max(1, 2 * tp + fp + fn)
    print(f'{args.name or args.pred_dir}\t{total}\t{p:.4f}\t{r:.4f}\t{f1:.4f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
