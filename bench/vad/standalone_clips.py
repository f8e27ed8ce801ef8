#!/usr/bin/python3
"""Held-out clips as short files of their own, labelled by the corpus rule.

usage: standalone_clips.py OUT_DIR [--split test] [--per-source 6] [--max-s 20] [--index TSV]
                            [--package NAME[,NAME...]] [--exclude MANIFEST,...]

Up to --per-source clips of every speech, music and noise source of the split
(synthetic noise left out; a fixed draw; with --exclude, among the clips whose cut
audio is in none of the sets listed), each cut to --max-s seconds and written
as OUT_DIR/<class>/<group>/<n>.wav with its rule labels <n>.txt (the clip's class
where tools/corpus' activity rule finds it active, silence elsewhere), listed in
OUT_DIR/manifest.tsv (for score.py) and OUT_DIR/meta.tsv (wav, txt, class, group,
source, seconds). Corpus files are 30-120 s long, so their scores hardly see how
a model does at the start and end of a file; voice prompts and sound effects
are files of a second or two, where the edges are most of the file.
Reads the corpus cache (tools/corpus/, $SEQLABEL_CACHE); data preparation only."""
import argparse
import hashlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "corpus"))
import corpus_common as cc  # noqa: E402


def not_in_sets(by, manifests, max_n):
    """by less the clips whose first max_n samples are the audio of a file of the manifests
    (clip sets hold each clip cut to max_n samples, as read back from 16-bit WAV)."""
    def digest(x):
        return hashlib.sha1(np.ascontiguousarray(x, np.float32).tobytes()).hexdigest()
    seen = set()
    for m in manifests:
        with open(m, encoding="utf-8") as f:
            seen.update(digest(cc.read_wav(ln.split("\t")[0])) for ln in f if ln.strip())
    kept, dropped = {}, 0
    for key, clips in by.items():
        left = [r for r in clips
                if digest(cc.read_wav(os.path.join(cc.cache_dir(), r["clip"]), frames=max_n))
                not in seen]
        dropped += len(clips) - len(left)
        if left:
            kept[key] = left
    print("%d clips left out: in the sets of %s" % (dropped, ",".join(manifests)))
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--split", default="test")
    ap.add_argument("--per-source", type=int, default=6)
    ap.add_argument("--max-s", type=float, default=20.0)
    ap.add_argument("--index", default=cc.clips_index(),
                    help="a recipe's clip index [this tree's recipe's clips.tsv]")
    ap.add_argument("--package", default="",
                    help="only clips of packages whose name holds this text, or one of these "
                         "comma-separated texts (one voice's prompts, a recipe's new "
                         "packages) [all]")
    ap.add_argument("--exclude", default="",
                    help="manifests (comma-separated) of earlier sets: clips whose cut audio "
                         "one of their files holds are not drawn (sets drawn from another "
                         "recipe's index, or with other options) [none]")
    a = ap.parse_args()
    with open(a.index, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, ln.rstrip("\n").split("\t"))) for ln in f]
    by = {}
    for r in rows:
        if r["split"] == a.split and r["class"] in ("speech", "music", "noise") \
                and r["group"] != "synth" and \
                any(p in r["package"] for p in a.package.split(",")):
            by.setdefault((r["class"], r["group"], r["source"]), []).append(r)
    if a.exclude:
        by = not_in_sets(by, a.exclude.split(","), int(a.max_s * cc.SR))
    rng = np.random.default_rng(7)
    meta = []
    for key in sorted(by):
        clips = by[key]
        pick = rng.choice(len(clips), size=min(a.per_source, len(clips)), replace=False)
        for i in sorted(pick):
            r = clips[i]
            x = cc.read_wav(os.path.join(cc.cache_dir(), r["clip"]))
            x = x[:min(len(x), int(a.max_s * cc.SR))]
            if len(x) < 480:  # under 3 frames
                continue
            active = cc.activity(x, r["class"], float(r["max_db"]))
            labels = np.where(active, r["class"], "silence")
            d = os.path.join(a.out, r["class"], r["group"])
            os.makedirs(d, exist_ok=True)
            base = os.path.join(d, "%04d" % len(meta))
            cc.write_wav(base + ".wav", x)
            with open(base + ".txt", "w") as f:
                s = 0
                for j in range(1, len(labels) + 1):
                    if j == len(labels) or labels[j] != labels[s]:
                        f.write("%.2f\t%.2f\t%s\n" % (s / 100, j / 100, labels[s]))
                        s = j
            meta.append((base + ".wav", base + ".txt", r["class"], r["group"], r["source"],
                         "%.2f" % (len(x) / cc.SR)))
    # meta.tsv first, manifest.tsv last and by rename: a manifest means a finished set
    for name, lines in (("meta.tsv", ("\t".join(m) + "\n" for m in meta)),
                        ("manifest.tsv", ("%s\t%s\n" % m[:2] for m in meta))):
        with open(os.path.join(a.out, name + ".tmp"), "w") as f:
            f.writelines(lines)
        os.replace(os.path.join(a.out, name + ".tmp"), os.path.join(a.out, name))
    print("%d clips in %s" % (len(meta), a.out))


if __name__ == "__main__":
    main()
