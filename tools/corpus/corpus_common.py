"""Shared helpers of the corpus scripts (data preparation only; the product never imports this)."""
import hashlib
import os
import subprocess
import sys
import time

import numpy as np
import soundfile as sf

RECIPE_VERSION = "corpus-v11"
SR = 16000
HOP = 160          # 10 ms frames: the labeler's frame rate
WIN = 400          # 25 ms energy window, like the features
CLASSES = ("silence", "speech", "music", "noise")

# Activity rule, per class of the clean clip: a frame is active when its energy is within
# RANGE_DB of the clip's loudest frame and above FLOOR_DB (dBFS of the clip as shipped).
# Gaps shorter than BRIDGE_S are filled (pauses inside a word, a musical rest), islands
# shorter than MIN_ON_S are dropped (clicks).
ACTIVITY = {
    "speech": dict(range_db=30.0, floor_db=-60.0, bridge_s=0.20, min_on_s=0.06),
    "music": dict(range_db=45.0, floor_db=-70.0, bridge_s=1.00, min_on_s=0.10),
    "noise": dict(range_db=40.0, floor_db=-70.0, bridge_s=0.30, min_on_s=0.05),
}


def cache_dir():
    return os.environ.get("SEQLABEL_CACHE", "/work/cache/seqlabel")


def clips_index():
    """The clip index of this recipe. corpus-v1 used $CACHE/clips.tsv; from corpus-v2 on each
    recipe keeps its own inside its corpus folder, so rebuilding one never touches another's."""
    return os.path.join(cache_dir(), RECIPE_VERSION, "clips.tsv")


def log(msg):
    sys.stderr.write("%s %s\n" % (time.strftime("%H:%M:%S", time.gmtime()), msg))
    sys.stderr.flush()


def unit_hash(text):
    """A number in [0, 1) fixed by text alone (same on every machine and run)."""
    h = hashlib.sha1(text.encode("utf-8")).hexdigest()
    return int(h[:12], 16) / float(1 << 48)


def source_family(cls, group, package):
    """Sources that are alike (one package's voices, tracks or effects; all asterisk voices;
    one TTS engine; all MIDI renderings) are split together, so every split gets some of each."""
    if package.startswith("asterisk-"):
        package = "asterisk"
    elif package in ("drascula", "drascula-spanish", "drascula-italian"):
        package = "drascula"  # one game dubbed three times: its ~30 voices split as one family
    elif group == "midi":
        package = "midi"
    return "%s/%s/%s" % (cls, group, package)


def assign_splits(minutes_by_source, held_out=0.10, cap=0.20):
    """Split by source within one family: sources in the order of a hash of their id go to test
    until it holds `held_out` of the family's minutes, then to valid likewise; a source that
    would push a held-out split past `cap` (one voice that dominates) stays in train, and so do
    families of fewer than three sources. Fixed by the source ids and minutes alone."""
    names = sorted(minutes_by_source, key=lambda s: (unit_hash("split:" + s), s))
    total = sum(minutes_by_source.values())
    out = {s: "train" for s in names}
    if len(names) < 3:
        return out
    held = {"test": 0.0, "valid": 0.0}
    for s in names:
        m = minutes_by_source[s]
        for split in ("test", "valid"):
            if held[split] < held_out * total and held[split] + m <= cap * total:
                out[s] = split
                held[split] += m
                break
    return out


def frame_db(x):
    """Energy in dBFS of 25 ms windows every 10 ms (window centred on the frame)."""
    n = len(x) // HOP
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    pad = (WIN - HOP) // 2
    xp = np.concatenate([np.zeros(pad, np.float32), x.astype(np.float32),
                         np.zeros(WIN, np.float32)])
    c = np.concatenate([[0.0], np.cumsum(xp.astype(np.float64) ** 2)])
    starts = np.arange(n) * HOP
    e = (c[starts + WIN] - c[starts]) / WIN
    return (10.0 * np.log10(e + 1e-12)).astype(np.float32)


def runs_fill(mask, max_len, value):
    """Sets runs of `not value` shorter than max_len (frames) that lie between runs of value."""
    m = mask.copy()
    n = len(m)
    i = 0
    while i < n:
        if m[i] != value:
            j = i
            while j < n and m[j] != value:
                j += 1
            inner = i > 0 and j < n
            if inner and (j - i) < max_len:
                m[i:j] = value
            i = j
        else:
            i += 1
    return m


def activity(x, cls, clip_max_db):
    """Active frames of a clean excerpt x of a clip whose loudest frame is clip_max_db."""
    p = ACTIVITY[cls]
    db = frame_db(x)
    thr = max(clip_max_db - p["range_db"], p["floor_db"])
    act = db >= thr
    act = runs_fill(act, int(round(p["bridge_s"] * 100)), True)
    # drop short islands: fill short True runs with False
    inv = runs_fill(~act, int(round(p["min_on_s"] * 100)), True)
    act = ~inv
    # edge islands are not handled by runs_fill; drop a short leading/trailing island too
    return act


def read_wav(path, start=0, frames=-1):
    x, sr = sf.read(path, start=start, frames=frames, dtype="float32", always_2d=False)
    if sr != SR:
        raise ValueError("%s: rate %d, expected %d" % (path, sr, SR))
    if x.ndim > 1:
        x = x.mean(axis=1)
    return x


def write_wav(path, x):
    tmp = path + ".tmp.wav"
    sf.write(tmp, np.clip(x, -1.0, 1.0), SR, subtype="PCM_16")
    os.replace(tmp, path)


def sox_filter(x, effects):
    """Runs float samples through `sox ... effects` (rate stays 16 kHz at the end)."""
    cmd = ["sox", "-V1", "-R", "-t", "f32", "-r", str(SR), "-c", "1", "-",
           "-t", "f32", "-r", str(SR), "-c", "1", "-"] + effects
    out = subprocess.run(cmd, input=x.astype("<f4").tobytes(), stdout=subprocess.PIPE,
                         check=True).stdout
    y = np.frombuffer(out, dtype="<f4").astype(np.float32)
    if len(y) >= len(x):
        return y[:len(x)]
    return np.concatenate([y, np.zeros(len(x) - len(y), np.float32)])
