#!/usr/bin/python3
"""Builds samples/*.wav and their expected labels samples/*.txt from real recordings.

Every source is a clip of the corpus recipe (tools/corpus/, docs/corpus.md: Debian
packages, 16 kHz mono, in $SEQLABEL_CACHE/clips, indexed by clips.tsv) from a source
of the corpus' *test* split, so the default model never heard these voices, tracks
or effects in training. Licences: samples/README.md.

Labels follow the corpus' rule exactly (tools/corpus/corpus_common.py `activity`,
imported, not copied): a component's 10 ms frame is active when its energy, measured
on the clean clip as shipped, is within the class's range of the clip's loudest frame
and above its floor (gaps bridged, islands dropped); a frame is `speech` if speech is
active, else `music`, else `noise`, else `silence`. Gains applied afterwards do not
change labels (as in the corpus). Deterministic: the same clips give the same files.

usage: samples/make-samples.py      (needs its sources' clips: samples/README.md)
"""
import csv
import os
import sys

import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "corpus"))
import corpus_common as cc  # noqa: E402

PRIORITY = ("speech", "music", "noise")


def load_index():
    path = cc.clips_index()  # this recipe's index (tools/corpus/clips.py)
    with open(path, encoding="utf-8") as f:
        return {r["origin"]: r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}


class Sample:
    """A file under construction: samples plus one activity mask per class."""

    def __init__(self, seconds):
        self.n = int(round(seconds * 100)) * cc.HOP
        self.x = np.zeros(self.n, np.float32)
        self.masks = {c: np.zeros(self.n // cc.HOP, bool) for c in PRIORITY}
        self.levels = []  # (source, at seconds, dBFS RMS over its active frames)

    def add(self, index, origin, at_s, start_s, dur_s, gain_db):
        """Adds dur_s seconds of a clip from start_s, at at_s (10 ms grid), scaled by gain_db
        relative to the clip as shipped; the clip's activity decides the labels."""
        row = index[origin]
        if row["split"] != "test":
            raise SystemExit("%s is in the %s split, not test" % (origin, row["split"]))
        cls = row["class"]
        start = int(round(start_s * 100)) * cc.HOP
        frames = int(round(dur_s * 100)) * cc.HOP
        x = cc.read_wav(os.path.join(cc.cache_dir(), row["clip"]), start, frames)
        act = cc.activity(x, cls, float(row["max_db"]))
        at = int(round(at_s * 100)) * cc.HOP
        n = min(len(x), self.n - at)
        self.x[at:at + n] += x[:n] * 10 ** (gain_db / 20)
        # its level as placed: RMS over its active frames (the README's dB apart)
        y = x[:len(act) * cc.HOP].reshape(-1, cc.HOP)[act] * 10 ** (gain_db / 20)
        self.levels.append((origin.rsplit("/", 1)[1], at_s,
                            10 * np.log10(np.mean(y.astype(np.float64) ** 2) + 1e-20)))
        f0 = at // cc.HOP
        nf = min(len(act), len(self.masks[cls]) - f0)
        self.masks[cls][f0:f0 + nf] |= act[:nf]

    def hiss(self, at_s, dur_s, db, seed):
        """A low white hiss (silence by the rule: no class is active)."""
        at, n = int(round(at_s * 100)) * cc.HOP, int(round(dur_s * 100)) * cc.HOP
        w = np.random.default_rng(seed).standard_normal(n).astype(np.float32)
        self.x[at:at + n] += w * 10 ** (db / 20)

    def write(self, name):
        labels = np.full(self.n // cc.HOP, "silence", dtype=object)
        for cls in reversed(PRIORITY):  # speech last, so it wins
            labels[self.masks[cls]] = cls
        peak = float(np.max(np.abs(self.x)))
        if peak > 0.99:
            raise SystemExit("%s clips (peak %.2f): lower a gain" % (name, peak))
        sf.write(os.path.join(HERE, name + ".wav"), self.x, cc.SR, subtype="PCM_16")
        for source, at_s, db in self.levels:
            print("%s.wav: %s at %.1f s, %.1f dBFS (RMS over its active frames)"
                  % (name, source, at_s, db))
        with open(os.path.join(HERE, name + ".txt"), "w") as f:
            s = 0
            for i in range(1, len(labels) + 1):
                if i == len(labels) or labels[i] != labels[s]:
                    f.write("%.2f\t%.2f\t%s\n" % (s / 100, i / 100, labels[s]))
                    s = i


MENARDI = "asterisk-prompt-it-menardi-wav:usr/share/asterisk/sounds/it_IT_f_Menardi/"
FILLETS = "fillets-ng-data-cs:usr/share/games/fillets-ng/sound/"
TUXPAINT = "tuxpaint-stamps-default:usr/share/tuxpaint/stamps/"
ZEROAD = "0ad-data:_audio/audio/"
MEGAGLEST = "megaglest-data:usr/share/games/megaglest/"


def main():
    idx = load_index()

    # Each file joins works of one licence family only (samples/README.md):
    # speech.wav GPL-2 (Tux Paint's volunteers, Fish Fillets' actors), the
    # others CC BY-SA 3.0 (0 A.D., MegaGlest, the Italian prompts' Italy port).
    s = Sample(20.0)  # three real voices: a Danish and a Catalan reader, then a Czech man
    s.add(idx, TUXPAINT + "space/planets/6_saturn_desc_da.ogg", 0.8, 0.0, 4.2, 0)
    s.add(idx, TUXPAINT + "space/planets/9_pluto_desc_ca.ogg", 5.7, 0.0, 3.3, 0)
    s.add(idx, FILLETS + "briefcase/cs/kd-silver.ogg", 9.8, 0.0, 9.8, -4)
    s.write("speech")

    s = Sample(15.0)  # an orchestral soundtrack, after a second of silence
    s.add(idx, ZEROAD + "music/Expedition.ogg", 1.0, 30.0, 14.0, -3)
    s.write("music")

    s = Sample(15.0)  # rain, a faint hiss, a daytime ambience, rain again
    s.add(idx, MEGAGLEST + "tilesets/birch_forest/sounds/rain.ogg", 0.5, 2.0, 6.0, -2)
    s.hiss(6.5, 1.5, -72, 1)
    s.add(idx, MEGAGLEST + "tilesets/fernland/sounds/day.ogg", 8.0, 0.0, 4.0, 0)
    s.add(idx, MEGAGLEST + "tilesets/birch_forest/sounds/rain.ogg", 12.5, 14.0, 2.5, -2)
    s.write("noise")

    s = Sample(20.0)  # speech over music, music, music over a snowstorm, speech over rain
    s.add(idx, ZEROAD + "music/Helen_Leaves_Sparta.ogg", 0.0, 60.0, 10.0, -14)
    s.add(idx, MENARDI + "dir-instr.wav", 0.5, 0.0, 5.5, -4)
    s.add(idx, ZEROAD + "ambient/weather/snowstorm_11.ogg", 7.5, 20.0, 6.0, -2)
    s.add(idx, MEGAGLEST + "tilesets/birch_forest/sounds/rain.ogg", 13.5, 8.0, 6.5, -10)
    s.add(idx, MENARDI + "demo-echotest.wav", 14.0, 0.0, 5.5, -4)
    s.write("mixture")

    with open(os.path.join(HERE, "samples.tsv"), "w") as f:
        for name in ("speech", "music", "noise", "mixture"):
            f.write("%s.wav\t%s.txt\n" % (name, name))


if __name__ == "__main__":
    main()
