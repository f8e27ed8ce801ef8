#!/usr/bin/python3
"""Speech-vs-rest frame scores of predicted label files against a labeled manifest.

Frames as seqlabel counts them: 25 ms windows every 10 ms, frame i stands for
[i*10 ms, (i+1)*10 ms) and takes the label of the segment containing its centre
(i + 0.5) * 10 ms (docs/training.md); frames no reference segment covers are
ignored. A frame is predicted `speech` when its centre lies in a predicted segment
labeled `speech` (so 4-class output of `seqlabel label` scores the same way).
Counts are summed over every file (micro average), as `seqlabel eval` does.

With --by-kind, the frames are also grouped by what the corpus mixed there (the
`<name>.meta.tsv` beside each label file, tools/corpus/mix.py): segment kind
(speech, speech+music, ..., silence), channel (full, telephone, old11k, eq, codecs)
and, for segments with speech, the kind of voices in them (`clips.tsv` beside the
manifest: real recordings, short game lines (from corpus-v5 on), tts, isolated words,
or mixed when a segment holds more than one kind; `with=<kind>` counts every segment that
holds one, alone or not), since real voices are what the default model must carry over
to, and, for speech over music or noise and music over noise, the mixing SNR in 4 dB bins
(`snr=speech+music 00-04` holds SNRs from 0 up to 4 dB, `16-20` from 16 to 20).
On a clip set of bench/vad/standalone_clips.py (a `meta.tsv` beside the manifest) the
whole files are grouped instead, by the clip's class and group (`clip=speech/isolated`).
With --by-level as well, each clip group's frames are grouped again by how far below the
clip's loudest frame they lie (the energy of a 25 ms window on the frame, 5 dB bins:
`clip=speech/isolated level=25-30`; 40 dB and more below: `level=40+`), which tells misses on
quiet word tails and noise floors (that the corpus' activity rule counts as speech within
30 dB of the peak) from misses on the loud part of the voice.

With --classes a,b,c (the label names), a second line scores every class the same
way: frames, accuracy, macro F1 and each class's F1 (so decoded labels from
`seqlabel label --smoothing ...` can be compared with `seqlabel eval`'s argmax),
and each --by-kind line gains a last column, the group's 4-class frame accuracy;
--confusion then prints the confusion matrix too (frames; rows: the reference's class,
columns: the predicted one), where a class's frames go when a channel costs it.

With --channel C (full, telephone, old11k, eq, codec-gsm, ...), only the frames of
segments the corpus sent through channel C are scored, so --by-kind then breaks that
channel down by segment kind, voice and SNR.

usage: score.py MANIFEST PRED_DIR [--name NAME] [--split S] [--by-kind [--by-level]]
                [--classes LIST [--confusion]] [--channel C]
prints: name frames precision recall f1 false_alarm (TSV, one line; --by-kind: one
per group). false_alarm: share of the non-speech frames called speech.
"""
import argparse
import os
import sys

import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "corpus"))
import corpus_common as cc  # noqa: E402  (the activity rule's frame energy)


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


def frame_indices(segs, n, classes):
    """Class index of each frame by its centre, -1 where no segment of a known class covers it."""
    out = np.full(n, -1, dtype=np.int16)
    centres = (np.arange(n) + 0.5) * 0.01
    for a, b, lab in segs:
        if lab in classes:
            out[(centres >= a) & (centres < b)] = classes.index(lab)
    return out


def level_below_peak(audio, n):
    """dB below the file's loudest frame of each of its n frames, measured as the corpus'
    activity rule measures it (corpus_common.frame_db), on the 16 kHz audio."""
    try:
        db = cc.frame_db(cc.read_wav(audio))[:n]
    except ValueError as e:  # not at the corpus' rate
        raise SystemExit(f"--by-level: {e}")
    return db.max() - db if n else db


def reference_speech(audio, labels):
    return frame_classes(read_labels(labels), num_frames(audio))


def read_meta(labels):
    """(start, end, kind, channel, sources, snr) of each mixed segment, or [] without a meta
    file; snr (dB) is None where nothing was mixed under the segment's main sound."""
    path = labels[:-4] + ".meta.tsv" if labels.endswith(".txt") else labels + ".meta.tsv"
    out = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                if len(c) >= 5 and c[2] != "floor":
                    sources = c[6].split(",") if len(c) > 6 and c[6] else []
                    snr = float(c[3]) if c[3] else None
                    out.append((float(c[0]), float(c[1]), c[2], c[4] or "full", sources, snr))
    return out


def meta_segments(labels, n):
    """(frames, kind, channel, sources, snr) of each mixed segment: frames is the mask (of n)
    of the frames whose centre lies in it."""
    centres = (np.arange(n) + 0.5) * 0.01
    for a, b, kind, channel, sources, snr in read_meta(labels):
        yield (centres >= a) & (centres < b), kind, channel, sources, snr


def channel_mask(labels, n, channel):
    """Frames (of n) whose centre lies in a segment the corpus sent through `channel`."""
    mask = np.zeros(n, dtype=bool)
    for sel, _kind, ch, _sources, _snr in meta_segments(labels, n):
        if ch == channel:
            mask |= sel
    return mask


def clip_groups(manifest):
    """Audio path -> 'class/group' from standalone_clips.py's meta.tsv beside the manifest."""
    base = os.path.dirname(os.path.abspath(manifest))
    path = os.path.join(base, "meta.tsv")
    groups = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                if len(c) >= 4:  # paths as read_manifest makes them
                    groups[os.path.join(base, c[0])] = c[2] + "/" + c[3]
    return groups


def speech_source_groups(manifest):
    """Speech source id -> its clip group (real, lines, tts, isolated) from the corpus' clips.tsv."""
    path = os.path.join(os.path.dirname(os.path.abspath(manifest)), "clips.tsv")
    groups = {}
    if os.path.exists(path):
        with open(path) as f:
            head = f.readline().rstrip("\n").split("\t")
            cls, grp, src = head.index("class"), head.index("group"), head.index("source")
            for line in f:
                c = line.rstrip("\n").split("\t")
                if c[cls] == "speech":
                    groups[c[src]] = c[grp]
    return groups


class Counts:
    def __init__(self):
        self.tp = self.fp = self.fn = self.total = self.neg = 0
        self.right = self.known = 0  # 4-class frames (with --classes)

    def add(self, pred, ref):
        known = ref >= 0
        self.total += int(known.sum())
        self.tp += int(np.sum(pred & (ref == 1)))
        self.fp += int(np.sum(pred & (ref == 0)))
        self.fn += int(np.sum(~pred & (ref == 1)))
        self.neg += int(np.sum(ref == 0))

    def add_classes(self, pred, ref):
        known = (ref >= 0) & (pred >= 0)
        self.known += int(known.sum())
        self.right += int(np.sum(known & (pred == ref)))

    def row(self, name, classes=False):
        p = self.tp / max(1, self.tp + self.fp)
        r = self.tp / max(1, self.tp + self.fn)
        f1 = 2 * self.tp / max(1, 2 * self.tp + self.fp + self.fn)
        fa = self.fp / max(1, self.neg)
        row = f"{name}\t{self.total}\t{p:.4f}\t{r:.4f}\t{f1:.4f}\t{fa:.4f}"
        return row + f"\t{self.right / max(1, self.known):.4f}" if classes else row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('manifest')
    ap.add_argument('pred_dir')
    ap.add_argument('--name', default='')
    ap.add_argument('--split')
    ap.add_argument('--by-kind', action='store_true')
    ap.add_argument('--classes')
    ap.add_argument('--channel', help='score only the segments the corpus sent through this channel')
    ap.add_argument('--confusion', action='store_true',
                    help='with --classes: print the confusion matrix (rows: reference)')
    ap.add_argument('--by-level', action='store_true',
                    help='clip sets: group each clip group by level below the clip\'s peak')
    args = ap.parse_args()
    name = args.name or args.pred_dir
    allc, groups = Counts(), {}
    classes = args.classes.split(',') if args.classes else None
    voice_group = speech_source_groups(args.manifest) if args.by_kind else {}
    clip_group = clip_groups(args.manifest) if args.by_kind else {}
    confusion = np.zeros((len(classes), len(classes)), dtype=np.int64) if classes else None
    for audio, labels in read_manifest(args.manifest, args.split):
        ref = reference_speech(audio, labels)
        if args.channel:
            ref = np.where(channel_mask(labels, len(ref), args.channel), ref, -1)
        base = os.path.splitext(os.path.basename(audio))[0]
        pred_segs = read_labels(os.path.join(args.pred_dir, base + '.txt'))
        pred = frame_classes(pred_segs, len(ref)) == 1
        allc.add(pred, ref)
        if classes:
            r4 = frame_indices(read_labels(labels), len(ref), classes)
            r4 = np.where(ref >= 0, r4, -1)  # frames --channel leaves out
            q4 = frame_indices(pred_segs, len(ref), classes)
            known = (r4 >= 0) & (q4 >= 0)
            np.add.at(confusion, (r4[known], q4[known]), 1)
        def tally(key, sel):
            counts = groups.setdefault(key, Counts())
            counts.add(pred[sel], ref[sel])
            if classes:
                counts.add_classes(q4[sel], r4[sel])

        if audio in clip_group:  # a clip set: the whole file is one group
            tally("clip=" + clip_group[audio], slice(None))
            if args.by_level:
                low = np.minimum(level_below_peak(audio, len(ref)) // 5, 8).astype(int) * 5
                for b in np.unique(low):
                    span = "40+" if b == 40 else f"{b:02d}-{b + 5:02d}"
                    tally(f"clip={clip_group[audio]} level={span}", low == b)
        if args.by_kind:
            for sel, kind, channel, sources, snr in meta_segments(labels, len(ref)):
                keys = ["kind=" + kind, "channel=" + channel]
                if snr is not None and "+" in kind:  # speech+music, speech+noise, music+noise
                    low = min(16, int(snr // 4) * 4)  # the mixer draws 0-20 dB
                    keys.append(f"snr={kind} {low:02d}-{low + 4:02d}")
                voices = {voice_group[s] for s in sources if s in voice_group}
                # with=G: every segment holding a voice of group G, alone or among others
                # (short game lines mostly sit among other voices, so voices=lines is small)
                keys += ["with=" + v for v in sorted(voices)]
                if voices:
                    keys.append("voices=" + (voices.pop() if len(voices) == 1 else "mixed"))
                for key in keys:
                    tally(key, sel)
    print(allc.row(name))
    if classes:
        tp = np.diag(confusion)
        f1 = 2 * tp / np.maximum(1, confusion.sum(0) + confusion.sum(1))
        print(f"{name}\tclasses\t{confusion.sum()}\taccuracy {tp.sum() / max(1, confusion.sum()):.4f}"
              f"\tmacro_f1 {f1.mean():.4f}\t" + " ".join(f"{c} {v:.4f}" for c, v in zip(classes, f1)))
        if args.confusion:
            print(f"{name}\tconfusion\treference \\ predicted\t" + "\t".join(classes))
            for c, counts in zip(classes, confusion):
                print(f"{name}\tconfusion\t{c}\t" + "\t".join(str(int(v)) for v in counts))
    for key in sorted(groups):
        if groups[key].total:  # with --channel, the groups of other channels stay empty
            print(groups[key].row(f"{name}\t{key}", classes is not None))
    return 0


if __name__ == '__main__':
    sys.exit(main())
