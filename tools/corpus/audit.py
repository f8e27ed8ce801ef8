#!/usr/bin/python3
"""Finds clips the corpus may have filed under the wrong class: labels every clip of the
given classes on its own with a model (`seqlabel label`) and lists the sources whose
sounding frames the model gives mostly to another class. A rule in clips.py that files a
folder by its name (a "tracks/" folder of race-track sounds filed as music, a comments
folder of spoken lines filed as noise) shows up as a source the model disagrees with on
almost every frame. The list is for a person to read and fix clips.py by; the model is no
judge of the corpus, only a pointer.

usage: audit.py [--corpus DIR] [--classes music,noise] [--model M] [--min-share 0.5] OUT_DIR
  --corpus  a built corpus folder with clips.tsv [$SEQLABEL_CACHE/<recipe version>]
  SEQLABEL  the command [build/tools/seqlabel]
Prints: disagreement share, sounding seconds, the class most of them went to, split, source.
"""
import argparse
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import CLASSES, RECIPE_VERSION, cache_dir  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def predicted_seconds(path):
    """Seconds per class in an Audacity label file."""
    out = dict.fromkeys(CLASSES, 0.0)
    with open(path) as f:
        for line in f:
            start, end, label = line.rstrip("\n").split("\t")
            out[label] += float(end) - float(start)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.path.join(cache_dir(), RECIPE_VERSION))
    ap.add_argument("--classes", default="music,noise")
    ap.add_argument("--model", default=os.path.join(HERE, "../../model/default.slm"))
    ap.add_argument("--min-share", type=float, default=0.5,
                    help="list a source when at least this share of its sounding frames "
                         "went to other classes")
    ap.add_argument("out")
    a = ap.parse_args()
    wanted = set(a.classes.split(","))
    with open(os.path.join(a.corpus, "clips.tsv")) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["class"] in wanted]
    root = os.path.dirname(os.path.normpath(a.corpus))
    os.makedirs(a.out, exist_ok=True)
    seqlabel = os.environ.get("SEQLABEL", os.path.join(HERE, "../../build/tools/seqlabel"))
    todo = [r for r in rows if not os.path.exists(label_path(a.out, r))]
    # one command per 500 clips: one model load, and a command line of bounded length
    for i in range(0, len(todo), 500):
        wavs = [os.path.join(root, r["clip"]) for r in todo[i:i + 500]]
        subprocess.run([seqlabel, "label", "--model", a.model, "-q", "-o", a.out + "/"] + wavs,
                       check=True)
    by_source = {}
    for r in rows:
        s = by_source.setdefault(r["source"], [r["class"], r["split"], dict.fromkeys(CLASSES, 0.0)])
        for c, sec in predicted_seconds(label_path(a.out, r)).items():
            s[2][c] += sec
    found = []
    for source, (cls, split, sec) in by_source.items():
        sounding = sum(v for c, v in sec.items() if c != "silence")
        if sounding <= 0:
            continue
        other = max((c for c in CLASSES if c not in ("silence", cls)), key=lambda c: sec[c])
        share = 1 - sec[cls] / sounding
        if share >= a.min_share:
            found.append((share, sounding, cls, other, split, source))
    found.sort(key=lambda x: (-x[0] * x[1], x[5]))
    print("share\tsounding_s\tclass\tmodel_says\tsplit\tsource")
    for share, sounding, cls, other, split, source in found:
        print("%.2f\t%.1f\t%s\t%s\t%s\t%s" % (share, sounding, cls, other, split, source))
    print("%d of %d sources listed" % (len(found), len(by_source)), file=sys.stderr)


def label_path(out, row):
    return os.path.join(out, os.path.splitext(os.path.basename(row["clip"]))[0] + ".txt")


if __name__ == "__main__":
    main()
