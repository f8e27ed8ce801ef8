#!/usr/bin/python3
"""Side-by-side tables of two or more models from bench/measure-model.sh's folders.

Shipping a new default model means rewriting every figure of docs/default-model.md
with the old model's beside it; this prints them as Markdown tables, read straight
from the files measure-model.sh wrote, so no figure is copied by hand:
the mixtures' splits (accuracy / macro F1 / speech-vs-rest F1), the samples, each
clip set in each channel narrowband.sh scored (16 / 11.025 / 8 kHz, GSM and 8-bit unless
CHANNELS said otherwise; accuracy / speech-vs-rest F1), the VAD
lines of each split run.sh scored (frames and speech events), and the groups of every `--by-kind` file
(bykind-*.txt: corpus-v3's and corpus-v6's test splits, corpus-v5's whole and through
its telephone channel; F1 where the group holds speech, false alarm where it holds
none, 4-class accuracy).

usage: bench/compare-measures.py NAME=DIR [NAME=DIR ...]
  e.g. bench/compare-measures.py "stage 22=/tmp/measure22" "stage 21=/tmp/measure21"
"""
import glob
import os
import re
import sys


def read_eval(path):
    """accuracy, macro F1, speech-vs-rest F1 of a `seqlabel eval` output."""
    text = open(path).read()
    acc = re.search(r"accuracy (\S+)", text).group(1)
    macro = re.search(r"macro_f1 (\S+)", text).group(1)
    speech = re.search(r"speech_vs_rest_f1 (\S+)", text).group(1)
    return f"{acc} / {macro} / {speech}"


def read_clips(path):
    """{version: 'accuracy / speech F1'} of a bench/vad/narrowband.sh output."""
    f1, acc = {}, {}
    for line in open(path):
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 4 and cols[1] == "classes":
            acc[cols[0]] = cols[3].split()[1]
        elif len(cols) >= 6:
            f1[cols[0]] = cols[4]
    return {v: f"{acc[v]} / {f1.get(v, '-')}" for v in acc}


def read_vad(path):
    """The two tables of a bench/vad/run.sh output, each {method: scores}: frames
    ('precision / recall / F1 / false alarm') and speech events ('event F1 /
    precision / recall / error rate / segment F1 / segment error rate'), which a
    blank line parts."""
    frames, events = {}, {}
    table = frames
    for line in open(path):
        cols = line.rstrip("\n").split("\t")
        if cols == [""]:
            table = events
        elif cols[0] != "method":
            table[cols[0]] = " / ".join(cols[2:6] if table is frames else cols[1:7])
    return frames, events


def read_bykind(path):
    """{group: (frames, precision, recall, f1, false_alarm, accuracy)} of score.py --by-kind."""
    groups = {}
    for line in open(path):
        cols = line.rstrip("\n").split("\t")
        if len(cols) < 6 or cols[1] == "classes":
            continue
        if cols[1].isdigit():  # the first line: every frame of the split
            groups["all"] = cols[1:]
        else:
            groups[cols[1]] = cols[2:]
    return groups


def stem(filename, prefix):
    """'corpus-v3' of ('vad-corpus-v3.txt', 'vad-')."""
    return filename[len(prefix):-len(".txt")]


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def main():
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[1:]):
        sys.exit(__doc__.split("\n\n")[-1].strip())
    models = [a.split("=", 1) for a in sys.argv[1:]]
    names = [n for n, _ in models]
    for _, d in models:
        if not os.path.isdir(d):
            sys.exit(f"compare-measures: {d}: not a folder of bench/measure-model.sh")

    def files(pattern):
        """Names present in every folder, in the first folder's sorted order."""
        found = sorted(os.path.basename(p) for p in glob.glob(os.path.join(models[0][1], pattern)))
        return [f for f in found if all(os.path.exists(os.path.join(d, f)) for _, d in models)]

    def split_key(name):
        m = re.match(r"eval-corpus-v(\d+)-(\w+)\.txt", name)
        return (m.group(2) != "valid", int(m.group(1)))

    print("Mixtures (accuracy / macro F1 / speech-vs-rest F1):\n")
    rows = []
    for f in sorted(files("eval-corpus-v*.txt"), key=split_key):
        split = stem(f, "eval-").replace("-valid", " validation").replace("-test", " test")
        rows.append([split] + [read_eval(os.path.join(d, f)) for _, d in models])
    if os.path.exists(os.path.join(models[0][1], "samples.txt")):
        rows.append(["samples"] + [read_eval(os.path.join(d, "samples.txt")) for _, d in models])
    table(["split"] + names, rows)

    clip_files = files("clips-*.txt")
    if clip_files:
        print("Clips as files (accuracy / speech-vs-rest F1):\n")
        rows = []
        for f in clip_files:
            per_model = [read_clips(os.path.join(d, f)) for _, d in models]
            for version in per_model[0]:  # narrowband.sh's CHANNELS, in its order
                if all(version in m for m in per_model):
                    rows.append([f"{stem(f, 'clips-')} {version}"] + [m[version] for m in per_model])
        table(["clips"] + names, rows)

    for f in files("vad-corpus-v*.txt"):
        # each model's seqlabel lines (its default decoder, its argmax), then the
        # VADs, which are the same in every folder
        per_model = [read_vad(os.path.join(d, f)) for _, d in models]
        for t, what in enumerate(["precision / recall / F1 / false alarm",
                                  "event F1 / precision / recall / error rate / "
                                  "segment F1 / segment error rate"]):
            print(f"{stem(f, 'vad-')} test split, seqlabel against the VADs ({what}):\n")
            rows = [[f"{name}{suffix}", tables[t][method]]
                    for name, tables in zip(names, per_model)
                    for method, suffix in [("seqlabel", ", default decoder"), ("seqlabel-argmax", ", argmax")]
                    if method in tables[t]]
            rows += [[method, scores] for method, scores in per_model[0][t].items()
                     if not method.startswith("seqlabel")]
            table(["method", "scores"], rows)

    for f in files("bykind-corpus-v*.txt"):
        print(f"{stem(f, 'bykind-')} by group (F1 / false alarm / 4-class accuracy):\n")
        per_model = [read_bykind(os.path.join(d, f)) for _, d in models]
        rows = []
        for group in per_model[0]:
            if all(group in m for m in per_model):
                rows.append([group] + [" / ".join(m[group][3:6]) for m in per_model])
        table(["group"] + names, rows)


if __name__ == "__main__":
    main()
