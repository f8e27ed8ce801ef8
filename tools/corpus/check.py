#!/usr/bin/python3
"""Checks a built corpus: no source in two splits, no reserved package among the clips, every
file 16 kHz mono with labels that start at 0, tile it without gaps or repeats, end at its
length (to 10 ms) and use only the four classes. Exits 1 on the first kind of fault found.
Usage: check.py [--corpus DIR]
"""
import argparse
import collections
import csv
import fnmatch
import os
import sys

import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import CLASSES, RECIPE_VERSION, clips_index, SR, cache_dir  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=os.path.join(cache_dir(), RECIPE_VERSION))
    args = ap.parse_args()
    faults = []
    here = os.path.dirname(os.path.abspath(__file__))
    reserved = [ln.strip() for ln in open(os.path.join(here, "reserved.txt"))
                if ln.strip() and not ln.startswith("#")]
    with open(clips_index(), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    splits = collections.defaultdict(set)
    for r in rows:
        splits[r["source"]].add(r["split"])
        origin_pkg = r["origin"].split(":")[0]
        if any(fnmatch.fnmatch(p, g) for p in (r["package"], origin_pkg) for g in reserved):
            faults.append("reserved package in clips: %s" % r["origin"])
    shared = [s for s, v in splits.items() if len(v) > 1]
    if shared:
        faults.append("%d sources in more than one split, e.g. %s" % (len(shared), shared[0]))
    files = 0
    for split in ("train", "valid", "test"):
        manifest = os.path.join(args.corpus, split + ".tsv")
        if not os.path.exists(manifest):
            faults.append("missing manifest %s" % manifest)
            continue
        for ln in open(manifest):
            wav, lab, sp = ln.rstrip("\n").split("\t")
            files += 1
            info = sf.info(wav)
            labels = [x.split("\t") for x in open(lab).read().splitlines()]
            bad = (sp != split or info.samplerate != SR or info.channels != 1 or not labels or
                   float(labels[0][0]) != 0.0 or
                   abs(float(labels[-1][1]) - info.duration) > 0.011 or
                   any(x[2] not in CLASSES for x in labels) or
                   any(a[1] != b[0] or a[2] == b[2] for a, b in zip(labels, labels[1:])))
            if bad:
                faults.append("bad file or labels: %s" % wav)
    print("check: %d clips, %d sources, %d corpus files, %d faults" %
          (len(rows), len(splits), files, len(faults)))
    for f in faults[:20]:
        print("  " + f)
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()
