#!/usr/bin/python3
"""Step 4: measures the built corpus and prints Markdown: hours per class and split (from the
label files), hours per segment kind and channel (from the .meta.tsv files), and the clip material
per package and class (from clips.tsv). Usage: stats.py [--corpus DIR]
"""
import argparse
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import CLASSES, RECIPE_VERSION, clips_index, cache_dir  # noqa: E402

SPLITS = ("train", "valid", "test")


def table(title, rows, cols):
    print("\n### %s\n" % title)
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=os.path.join(cache_dir(), RECIPE_VERSION))
    args = ap.parse_args()
    per_class = collections.defaultdict(float)
    per_kind = collections.defaultdict(float)
    per_channel = collections.defaultdict(float)
    files = collections.Counter()
    for split in SPLITS:
        manifest = os.path.join(args.corpus, split + ".tsv")
        if not os.path.exists(manifest):
            continue
        for ln in open(manifest):
            wav, lab = ln.rstrip("\n").split("\t")[:2]
            files[split] += 1
            for row in open(lab):
                a, b, name = row.rstrip("\n").split("\t")
                per_class[(split, name)] += float(b) - float(a)
            meta = wav[:-4] + ".meta.tsv"
            if os.path.exists(meta):
                for row in open(meta):
                    m = row.rstrip("\n").split("\t")
                    if m[2] == "floor":
                        continue
                    per_kind[(split, m[2])] += float(m[1]) - float(m[0])
                    per_channel[(split, m[4])] += float(m[1]) - float(m[0])
    print("## Corpus %s (%s)" % (RECIPE_VERSION, args.corpus))
    rows = []
    for split in SPLITS:
        tot = sum(v for (s, _), v in per_class.items() if s == split)
        rows.append([split, files[split]] + ["%.2f" % (per_class[(split, c)] / 3600)
                                             for c in CLASSES] + ["%.2f" % (tot / 3600)])
    tot = {c: sum(per_class[(s, c)] for s in SPLITS) for c in CLASSES}
    rows.append(["all", sum(files.values())] + ["%.2f" % (tot[c] / 3600) for c in CLASSES] +
                ["%.2f" % (sum(tot.values()) / 3600)])
    table("Hours per class (frame labels)", rows, ["split", "files"] + list(CLASSES) + ["total"])
    kinds = sorted({k for _, k in per_kind})
    table("Hours per segment kind", [[k] + ["%.2f" % (per_kind[(s, k)] / 3600) for s in SPLITS]
                                     for k in kinds], ["kind"] + list(SPLITS))
    chans = sorted({k for _, k in per_channel})
    table("Hours per channel augmentation",
          [[k] + ["%.2f" % (per_channel[(s, k)] / 3600) for s in SPLITS] for k in chans],
          ["channel"] + list(SPLITS))
    clips_tsv = clips_index()
    if os.path.exists(clips_tsv):
        mins = collections.defaultdict(float)
        sources = collections.defaultdict(set)
        with open(clips_tsv, encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                key = (r["package"], r["class"], r["group"])
                mins[key + (r["split"],)] += float(r["seconds"]) / 60
                sources[key + (r["split"],)].add(r["source"])
        keys = sorted({k[:3] for k in mins})
        table("Clip material (minutes / sources) per package",
              [list(k) + ["%.0f / %d" % (mins[k + (s,)], len(sources[k + (s,)]))
                          for s in SPLITS] for k in keys],
              ["package", "class", "group"] + list(SPLITS))


if __name__ == "__main__":
    main()
