#!/usr/bin/python3
"""Step 3 of the corpus recipe: mixes the clips of clips.tsv into labeled files of 30-120 s.

Each file is a random sequence of 1-15 s segments: speech, music, noise, silence, speech over
music or noise (SNR 0-20 dB), music over noise; augmented (reverberation on speech, telephone band,
telephone codecs (GSM 06.10, mu-law, A-law, G.722, Codec 2), old 11 kHz recordings, EQ, noise floors)
at a random level (peak -35..-3 dBFS). Labels follow a
rule, frame by frame (10 ms), decided on the clean clips: speech where speech is active, else music
where music is active, else noise where noise is active, else silence.

Writes $CACHE/<recipe>/<split>/<name>.wav, <name>.txt (Audacity labels), <name>.meta.tsv (what
each segment is made of) and the manifests train.tsv, valid.tsv, test.tsv (audio, labels, split).
The same seed and hours give the same corpus; more hours add files and keep the first ones.
Resumable: a file whose wav and labels exist is skipped.
"""
import argparse
import csv
import hashlib
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import (SR, HOP, RECIPE_VERSION, cache_dir, log, activity,  # noqa: E402
                           clips_index,
                           read_wav, write_wav, sox_filter)

SPLITS = (("train", 0.8), ("valid", 0.1), ("test", 0.1))
# How a class is drawn: first a group (real recorded voices weigh most), then a source
# uniformly, then one of its clips uniformly, so a source with many files does not dominate.
# corpus-v4: real voices and isolated words weigh more, TTS less (the model's F1 on TTS voices was
# 0.978, on real ones 0.936, on isolated words 0.82, corpus-v3's test split)
# corpus-v5: short acted game lines (clips.py's "lines") take 0.10, from real voices and TTS
GROUP_WEIGHTS = {
    "speech": {"real": 0.64, "lines": 0.10, "isolated": 0.08, "tts": 0.18},
    "music": {"recorded": 0.75, "midi": 0.25},
    "noise": {"effects": 0.70, "synth": 0.30},
}
# corpus-v2: noise gets a little more (its F1 was the lowest on corpus-v1), music a little less;
# corpus-v4: speech over music more (0.13 -> 0.16; the most missed speech on corpus-v3's test
# split), taken from silence (0.12 -> 0.10) and music over noise (0.08 -> 0.07)
SEGMENT_KINDS = (("speech", 0.20), ("speech+music", 0.16), ("speech+noise", 0.15),
                 ("music", 0.16), ("noise", 0.16), ("music+noise", 0.07), ("silence", 0.10))
CHANNELS = (("full", 0.52), ("telephone", 0.12), ("codec", 0.12), ("old11k", 0.11), ("eq", 0.13))
# Real telephone codecs, each an encode and a decode: the narrowband ones at 8 kHz, G.722
# (corpus-v11: the wideband codec of Asterisk's .g722 prompts and music on hold, through which
# stage 22 lost 0.8 points on music and noise) at 16 kHz. Codec 2 is a speech vocoder: it is
# drawn only for segments with speech (music on hold goes through the waveform codecs).
CODECS = ("gsm", "ulaw", "alaw", "g722", "codec2-3200", "codec2-1600", "codec2-700C")
WAVEFORM_CODECS = 4
# How far a codec's decoded audio trails its input, in 16 kHz samples (taken off, so that
# labels made on the clean clip line up with the decoded audio). Codec 2's: the median envelope
# lag that codec2_delay.py measured through this channel on 38 asterisk-core-sounds-en-wav
# prompts (16, 15 and 22.5 ms), off from corpus-v4 on (corpus-v3 left Codec 2 segments 1-3
# frames behind their labels). G.722's (corpus-v11): its QMF filter pair's, 22 samples out of
# ffmpeg's encoder and decoder (the lag of the best cross-correlation on white noise).
CODEC_DELAY = {"codec2-3200": 256, "codec2-1600": 240, "codec2-700C": 360, "g722": 22}
LABEL_PRIORITY = ("speech", "music", "noise")


class Pools:
    """Clips of one split, grouped class -> group -> source -> [clip rows]."""

    def __init__(self, rows, split):
        self.by = {}
        for r in rows:
            if r["split"] != split:
                continue
            self.by.setdefault(r["class"], {}).setdefault(r["group"], {}) \
                .setdefault(r["source"], []).append(r)
        for cls in GROUP_WEIGHTS:
            if cls not in self.by:
                raise SystemExit("split %s has no %s clips: run clips.py first" % (split, cls))
        self.sources = {c: {g: sorted(s) for g, s in gs.items()} for c, gs in self.by.items()}
        # A source weighs the square root of its minutes, counted up to 15: big voices and
        # long tracks count more than a two-line voice, but cannot crowd out the other sources
        # (some MIDI tracks loop for 25 minutes).
        self.source_p = {}
        for c, gs in self.sources.items():
            for g, names in gs.items():
                w = np.array([np.sqrt(min(900.0, sum(float(r["seconds"])
                                                     for r in self.by[c][g][n])))
                              for n in names])
                self.source_p[(c, g)] = w / w.sum()

    def pick(self, rng, cls, group=None):
        groups = self.sources[cls]
        if group is None or group not in groups:
            names = sorted(groups)
            w = np.array([GROUP_WEIGHTS[cls].get(g, 0.05) for g in names])
            group = names[rng.choice(len(names), p=w / w.sum())]
        names = groups[group]
        src = names[rng.choice(len(names), p=self.source_p[(cls, group)])]
        clips = self.by[cls][group][src]
        return clips[rng.integers(len(clips))]


def choose(rng, table):
    names = [n for n, _ in table]
    w = np.array([p for _, p in table])
    return names[rng.choice(len(names), p=w / w.sum())]


def clip_audio(row):
    return os.path.join(CACHE, row["clip"])


def excerpt(rng, row, n):
    """n samples of a clip from a random start (the whole clip, zero-padded, if shorter)."""
    total = int(float(row["seconds"]) * SR)
    if total > n:
        start = int(rng.integers(0, (total - n) // HOP + 1)) * HOP
        x = read_wav(clip_audio(row), start, n)
    else:
        x = read_wav(clip_audio(row))
    act = activity(x, row["class"], float(row["max_db"]))
    return x, act


def place(dst, mask, x, act, at):
    """Adds x at sample `at` (a multiple of HOP) into dst and its activity into mask."""
    n = min(len(x), len(dst) - at)
    if n <= 0:
        return
    dst[at:at + n] += x[:n]
    f0 = at // HOP
    nf = min(len(act), len(mask) - f0, (n + HOP - 1) // HOP)
    mask[f0:f0 + nf] |= act[:nf]


def active_rms(x, mask):
    frames = len(x) // HOP
    m = np.repeat(mask[:frames], HOP)
    sel = x[:frames * HOP][m] if m.any() else x
    return float(np.sqrt(np.mean(sel.astype(np.float64) ** 2) + 1e-20))


def speech_track(rng, pools, n, used):
    """Utterances one after another with short pauses; each at its own level (+-4 dB)."""
    x = np.zeros(n, np.float32)
    mask = np.zeros(n // HOP, bool)
    at = int(rng.uniform(0, 0.5) * SR) // HOP * HOP
    tries = 0
    while at < n - SR // 4 and tries < 50:
        tries += 1
        row = pools.pick(rng, "speech")
        u, act = excerpt(rng, row, n - at)
        if not act.any():
            continue
        u = u / active_rms(u, act) * 0.1 * 10 ** (rng.uniform(-4, 4) / 20)
        place(x, mask, u, act, at)
        used.append(row["source"])
        at += (len(u) + int(rng.uniform(0.05, 0.8) * SR)) // HOP * HOP + HOP
    if rng.random() < 0.25:  # a room around the speaker; labels stay those of the dry voice
        x = sox_filter(x, ["reverb", str(int(rng.uniform(20, 90))), "50",
                           str(int(rng.uniform(20, 100)))])
        used.append("reverb")
    return x, mask


def background(rng, pools, cls, n, used):
    """Music: one track (and the next, if it ends). Noise: an ambience, a synthetic noise or a
    string of effects with gaps."""
    x = np.zeros(n, np.float32)
    mask = np.zeros(n // HOP, bool)
    row = pools.pick(rng, cls)
    long_clip = float(row["seconds"]) * SR >= 0.6 * n
    at = 0
    while at < n - HOP:
        u, act = excerpt(rng, row, n - at)
        peak = np.max(np.abs(u)) if len(u) else 0.0
        if peak > 0 and act.any():
            place(x, mask, u / active_rms(u, act) * 0.1, act, at)
            used.append(row["source"])
        gap = 0 if (cls == "music" or long_clip) else int(rng.uniform(0, 1.0) * SR)
        at += (len(u) + gap) // HOP * HOP + HOP
        row = pools.pick(rng, cls, row["group"] if cls == "noise" else None)
    return x, mask


def silence_floor(rng, n):
    """Digital silence or a very low noise floor (-85..-55 dBFS RMS)."""
    if rng.random() < 0.4:
        return np.zeros(n, np.float32)
    w = rng.standard_normal(n).astype(np.float32)
    if rng.random() < 0.5:  # a darker hiss
        w = np.cumsum(w) * 0.02
        k = min(801, n)  # a segment can be shorter than the 50 ms mean (mode="same" keeps n)
        w -= np.convolve(w, np.ones(k) / k, mode="same")
    return w / (np.sqrt(np.mean(w ** 2)) + 1e-12) * 10 ** (rng.uniform(-85, -55) / 20)


def pipe(cmd, data):
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          check=True).stdout


def codec(rng, x, speech):
    """x through a narrowband codec drawn for the segment (Codec 2 only where there is
    speech). Returns the decoded signal and the codec's name."""
    names = CODECS if speech else CODECS[:WAVEFORM_CODECS]
    name = names[int(rng.integers(len(names)))]
    return codec_roundtrip(x, name), name


def codec_roundtrip(x, name, aligned=True):
    """x through the codec `name` of CODECS: 16 kHz float -> 8 kHz 16-bit (G.722: 16 kHz)
    -> encode -> decode -> 16 kHz. sox runs with -R -D (no dither: it is random, and a codec does not dither).
    Returns the decoded signal, same length, same scale; `aligned` takes the codec's delay off
    (the input runs on through that many zeros, and the output starts that much later)."""
    peak = float(np.max(np.abs(x))) if len(x) else 0.0
    if peak <= 0:
        return x
    lag = CODEC_DELAY.get(name, 0) if aligned else 0
    n = len(x)
    x = np.concatenate([x, np.zeros(lag, np.float32)]) if lag else x
    rate = SR if name == "g722" else 8000
    s16 = ["-t", "s16", "-r", str(rate), "-c", "1", "-"]
    pcm = pipe(["sox", "-V1", "-R", "-D", "-t", "f32", "-r", str(SR), "-c", "1", "-"] + s16 +
               ["rate", str(rate)], (x / peak * 0.7).astype("<f4").tobytes())
    if name == "g722":  # sox has no G.722: ffmpeg encodes and decodes it
        ff = ["ffmpeg", "-nostdin", "-v", "error"]
        bits = pipe(ff + ["-f", "s16le", "-ar", str(SR), "-ac", "1", "-i", "-", "-c:a", "g722",
                          "-f", "g722", "-"], pcm)
        pcm = pipe(ff + ["-f", "g722", "-i", "-", "-f", "s16le", "-ar", str(SR), "-"], bits)
    elif name == "gsm":
        gsm = ["-t", "gsm", "-r", "8000", "-c", "1", "-"]
        bits = pipe(["sox", "-V1", "-R", "-D"] + s16 + gsm, pcm)
        pcm = pipe(["sox", "-V1", "-R", "-D"] + gsm + s16, bits)
    elif name in ("ulaw", "alaw"):
        enc = ["-t", "raw", "-e", "u-law" if name == "ulaw" else "a-law", "-b", "8",
               "-r", "8000", "-c", "1", "-"]
        bits = pipe(["sox", "-V1", "-R", "-D"] + s16 + enc, pcm)
        pcm = pipe(["sox", "-V1", "-R", "-D"] + enc + s16, bits)
    else:
        mode = name.split("-")[1]
        bits = pipe(["c2enc", mode, "-", "-"], pcm)
        pcm = pipe(["c2dec", mode, "-", "-"], bits)
    y = pipe(["sox", "-V1", "-R", "-D"] + s16 + ["-t", "f32", "-r", str(SR), "-c", "1", "-",
                                           "rate", str(SR)], pcm)
    y = np.frombuffer(y, dtype="<f4").astype(np.float32)[lag:] * (peak / 0.7)
    if len(y) >= n:
        return y[:n]
    return np.concatenate([y, np.zeros(n - len(y), np.float32)])


def channel(rng, x, kind):
    if kind == "telephone":
        return sox_filter(x, ["rate", "8000", "sinc", "300-3400", "rate", str(SR)])
    if kind == "old11k":
        y = sox_filter(x, ["rate", "11025", "lowpass", str(int(rng.uniform(3500, 5000))),
                           "rate", str(SR)])
        if rng.random() < 0.5:  # 8-bit samples of early game recordings
            peak = np.max(np.abs(y)) + 1e-9
            y = np.round(y / peak * 127) / 127 * peak
        return y
    if kind == "eq":
        return sox_filter(x, ["bass", "%.1f" % rng.uniform(-8, 8),
                              "treble", "%.1f" % rng.uniform(-8, 8)])
    return x


def make_segment(rng, pools, kind, frames):
    n = frames * HOP
    masks = {c: np.zeros(frames, bool) for c in LABEL_PRIORITY}
    used = []
    snr = ""
    if kind == "silence":
        x = silence_floor(rng, n)
    else:
        parts = kind.split("+")
        fg_cls = parts[0]
        if fg_cls == "speech":
            x, masks["speech"] = speech_track(rng, pools, n, used)
        else:
            x, masks[fg_cls] = background(rng, pools, fg_cls, n, used)
        if len(parts) == 2:
            bg_cls = parts[1]
            b, masks[bg_cls] = background(rng, pools, bg_cls, n, used)
            s = float(rng.uniform(0, 20))
            snr = "%.1f" % s
            fg = active_rms(x, masks[fg_cls])
            bg = active_rms(b, masks[bg_cls])
            if bg > 0 and masks[bg_cls].any():
                x = x + b * (fg / bg) * 10 ** (-s / 20)
    ch = choose(rng, CHANNELS) if kind != "silence" else "full"
    if ch == "codec":
        x, name = codec(rng, x, kind.startswith("speech"))
        ch = "codec-" + name
    else:
        x = channel(rng, x, ch)
    gain_db = ""
    peak = float(np.max(np.abs(x))) if n else 0.0
    if kind != "silence" and peak > 0:
        g = float(rng.uniform(-35, -3))
        x = x / peak * 10 ** (g / 20)
        gain_db = "%.1f" % g
    labels = np.full(frames, "silence", dtype=object)
    for cls in reversed(LABEL_PRIORITY):  # speech last, so it wins
        labels[masks[cls][:frames]] = cls
    meta = (kind, snr, ch, gain_db, ",".join(sorted(set(used))))
    return x.astype(np.float32), labels, meta


def write_labels(path, labels):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        start = 0
        for i in range(1, len(labels) + 1):
            if i == len(labels) or labels[i] != labels[start]:
                f.write("%.2f\t%.2f\t%s\n" % (start / 100.0, i / 100.0, labels[start]))
                start = i
    os.replace(tmp, path)


def make_file(seed, split_idx, index, pools, base):
    rng = np.random.default_rng([seed, split_idx, index])
    frames = int(rng.uniform(30, 120) * 100)
    x = np.zeros(frames * HOP, np.float32)
    labels = np.empty(frames, dtype=object)
    metas = []
    f = 0
    while f < frames:
        seg = min(int(rng.uniform(1, 15) * 100), frames - f)
        kind = choose(rng, SEGMENT_KINDS)
        y, lab, meta = make_segment(rng, pools, kind, seg)
        x[f * HOP:(f + seg) * HOP] = y
        labels[f:f + seg] = lab
        metas.append(("%.2f" % (f / 100), "%.2f" % ((f + seg) / 100)) + meta)
        f += seg
    if rng.random() < 0.5:  # a noise floor under the whole file, below every class's rule
        x += silence_floor(rng, len(x)) * (1 if rng.random() < 0.5 else 0.3)
        metas.append(("0.00", "%.2f" % (frames / 100), "floor", "", "", "", ""))
    write_wav(base + ".wav", x)
    with open(base + ".meta.tsv", "w") as fm:
        for m in metas:
            fm.write("\t".join(m) + "\n")
    write_labels(base + ".txt", labels)
    return frames / 100.0


def plan(seed, split_idx, seconds):
    """File indices of a split until their lengths reach `seconds`. A file's length is the first
    draw of its own RNG, so the list only grows with --hours and earlier files stay the same."""
    out, total, i = [], 0.0, 0
    while total < seconds:
        total += np.random.default_rng([seed, split_idx, i]).uniform(30, 120)
        out.append(i)
        i += 1
    return out


def check_stamp(out, seed, rebuild):
    """Skipping finished files is only right when they came from the same code, seed and clips:
    a stamp of those guards the resume."""
    h = hashlib.sha1()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("mix.py", "corpus_common.py"):
        h.update(open(os.path.join(here, name), "rb").read())
    h.update(open(clips_index(), "rb").read())
    h.update(str(seed).encode())
    stamp = "%s seed=%d %s\n" % (RECIPE_VERSION, seed, h.hexdigest())
    path = os.path.join(out, "STAMP")
    os.makedirs(out, exist_ok=True)
    old = open(path).read() if os.path.exists(path) else None
    if old is not None and old != stamp:
        if not rebuild:
            raise SystemExit("%s holds files of another recipe/seed/clip set (%s): rerun with "
                             "--rebuild to replace them" % (out, old.strip()))
        for split, _ in SPLITS:
            shutil.rmtree(os.path.join(out, split), ignore_errors=True)
    with open(path, "w") as f:
        f.write(stamp)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hours", type=float, default=16.0, help="total hours, all splits")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--out", default=None, help="corpus folder (default $CACHE/%s)" %
                    RECIPE_VERSION)
    ap.add_argument("--splits", nargs="*", default=[n for n, _ in SPLITS])
    ap.add_argument("--rebuild", action="store_true",
                    help="delete files made by another recipe, seed or clip set, then rebuild")
    args = ap.parse_args()
    out = args.out or os.path.join(CACHE, RECIPE_VERSION)
    with open(clips_index(), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    check_stamp(out, args.seed, args.rebuild)
    for split_idx, (split, frac) in enumerate(SPLITS):
        if split not in args.splits:
            continue
        pools = Pools(rows, split)
        os.makedirs(os.path.join(out, split), exist_ok=True)
        todo = plan(args.seed, split_idx, args.hours * 3600 * frac)
        manifest = []
        done_s = 0.0
        for k, i in enumerate(todo):
            base = os.path.join(out, split, "%s-%05d" % (split, i))
            if not (os.path.exists(base + ".wav") and os.path.exists(base + ".txt")):
                done_s += make_file(args.seed, split_idx, i, pools, base)
                if k % 20 == 0:
                    log("mix %s: file %d/%d (%.0f s made this run)" % (split, k + 1, len(todo),
                                                                     done_s))
            manifest.append("%s.wav\t%s.txt\t%s\n" % (base, base, split))
        tmp = os.path.join(out, split + ".tsv.tmp")
        with open(tmp, "w") as f:
            f.writelines(manifest)
        os.replace(tmp, os.path.join(out, split + ".tsv"))
        log("mix %s: %d files, manifest %s" % (split, len(todo),
                                              os.path.join(out, split + ".tsv")))


CACHE = cache_dir()

if __name__ == "__main__":
    main()
