#!/usr/bin/python3
"""4-class frame scores of models' posteriors, alone and averaged (an ensemble).

Each PRED_DIR holds `seqlabel label --format frames -o PRED_DIR/` outputs (one
<name>.tsv per audio file of the manifest: every class probability per frame).
For each directory, and for the mean of their log-probabilities, prints frame
accuracy, macro F1 and speech-vs-rest F1, counted as `seqlabel eval` counts them
(the reference label of a frame is the segment holding its centre; frames no
segment covers are ignored; counts summed over all files). For weight averaging
see `seqlabel average`; this measures what averaging outputs would give.

With --offsets a,b,c,d every frame's log-probabilities get those constants added, one per
class, before the argmax (a prior shift, as if the classes' shares were other than the
training data's); --offsets fit searches, for each line, the offsets that give the highest
frame accuracy on this manifest and prints them (a coordinate search in steps of 0.4 down
to 0.02 nats; the first class stays at 0, since only differences count). So offsets fit
on one set can be tried on another: whether the decision rule, not the model, is what
costs frames.

usage: ensemble.py MANIFEST PRED_DIR [PRED_DIR...] [--classes silence,speech,music,noise]
                   [--offsets fit|a,b,c,d]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402  (the frame rules shared with score.py)


def scores(conf, speech):
    tp = np.diag(conf)
    f1 = 2 * tp / np.maximum(1, conf.sum(0) + conf.sum(1))
    s_tp = conf[speech, speech]
    s_fp = conf[:, speech].sum() - s_tp
    s_fn = conf[speech].sum() - s_tp
    return tp.sum() / max(1, conf.sum()), f1.mean(), 2 * s_tp / max(1, 2 * s_tp + s_fp + s_fn)


def confusion(logp, ref, nc):
    conf = np.zeros((nc, nc), dtype=np.int64)
    np.add.at(conf, (ref, logp.argmax(1)), 1)
    return conf


def fit_offsets(logp, ref):
    def accuracy(off):
        return np.mean((logp + off).argmax(1) == ref)
    off = np.zeros(logp.shape[1])
    best = accuracy(off)
    for step in (0.4, 0.2, 0.1, 0.05, 0.02):
        moved = True
        while moved:
            moved = False
            for k in range(1, len(off)):
                for s in (step, -step):
                    trial = off.copy()
                    trial[k] += s
                    a = accuracy(trial)
                    if a > best:
                        off, best, moved = trial, a, True
    return off


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('manifest')
    ap.add_argument('pred_dirs', nargs='+')
    ap.add_argument('--classes', default='silence,speech,music,noise')
    ap.add_argument('--offsets', help="fit, or one log-probability offset per class: a,b,c,d")
    args = ap.parse_args()
    classes = args.classes.split(',')
    nc = len(classes)
    names = args.pred_dirs + (['ensemble'] if len(args.pred_dirs) > 1 else [])
    logp = [[] for _ in names]  # per line: each file's log-probabilities
    refs = []
    for audio, labels in score.read_manifest(args.manifest):
        base = os.path.splitext(os.path.basename(audio))[0]
        probs = []
        for d in args.pred_dirs:
            path = os.path.join(d, base + '.tsv')
            with open(path) as f:
                head = f.readline().rstrip('\n').split('\t')
            cols = [head.index(c) for c in classes]
            probs.append(np.loadtxt(path, skiprows=1, usecols=cols, ndmin=2))
        n = min(len(p) for p in probs)
        ref = score.frame_indices(score.read_labels(labels), n, classes)
        known = ref >= 0
        refs.append(ref[known])
        own = [np.log(p[:n][known] + 1e-9) for p in probs]
        if len(own) > 1:
            own.append(np.mean(own, axis=0))
        for line, lp in zip(logp, own):
            line.append(lp)
    ref = np.concatenate(refs)
    print("name\tframes\taccuracy\tmacro_f1\tspeech_vs_rest_f1" + ("\toffsets" if args.offsets else ""))
    for name, line in zip(names, logp):
        lp = np.concatenate(line)
        offsets = np.zeros(nc)
        if args.offsets == 'fit':
            offsets = fit_offsets(lp, ref)
        elif args.offsets:
            offsets = np.array([float(x) for x in args.offsets.split(',')])
        conf = confusion(lp + offsets, ref, nc)
        acc, mf1, sf1 = scores(conf, classes.index('speech'))
        shown = "\t" + ",".join(f"{x:.2f}" for x in offsets) if args.offsets else ""
        print(f"{name}\t{conf.sum()}\t{acc:.4f}\t{mf1:.4f}\t{sf1:.4f}{shown}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
