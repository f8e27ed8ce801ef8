#!/usr/bin/python3
"""4-class frame scores of models' posteriors, alone and averaged (an ensemble).

Each PRED_DIR holds `seqlabel label --format frames -o PRED_DIR/` outputs (one
<name>.tsv per audio file of the manifest: every class probability per frame).
For each directory, and for the mean of their log-probabilities, prints frame
accuracy, macro F1 and speech-vs-rest F1, counted as `seqlabel eval` counts them
(the reference label of a frame is the segment holding its centre; frames no
segment covers are ignored; counts summed over all files). For weight averaging
see `seqlabel average`; this measures what averaging outputs would give.

usage: ensemble.py MANIFEST PRED_DIR PRED_DIR... [--classes silence,speech,music,noise]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('manifest')
    ap.add_argument('pred_dirs', nargs='+')
    ap.add_argument('--classes', default='silence,speech,music,noise')
    args = ap.parse_args()
    classes = args.classes.split(',')
    nc = len(classes)
    names = args.pred_dirs + ['ensemble']
    conf = {n: np.zeros((nc, nc), dtype=np.int64) for n in names}
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
        for name, p in zip(args.pred_dirs, probs):
            np.add.at(conf[name], (ref[known], p[:n].argmax(1)[known]), 1)
        mean_log = np.mean([np.log(p[:n] + 1e-9) for p in probs], axis=0)
        np.add.at(conf['ensemble'], (ref[known], mean_log.argmax(1)[known]), 1)
    print("name\tframes\taccuracy\tmacro_f1\tspeech_vs_rest_f1")
    for name in names:
        acc, mf1, sf1 = scores(conf[name], classes.index('speech'))
        print(f"{name}\t{conf[name].sum()}\t{acc:.4f}\t{mf1:.4f}\t{sf1:.4f}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
