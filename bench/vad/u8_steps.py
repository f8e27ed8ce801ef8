#!/usr/bin/python3
"""Where the labels of clips stored as 8-bit WAV go wrong, by how many 8-bit steps
the frame's audio spans.

narrowband.sh labels every clip as an 11.025 kHz 16-bit file and as an 8-bit one
(its `u8` row). This groups each clip's frames by class (the clip's own labels) and
by the largest distance from the 8-bit midpoint among the 8-bit file's samples in
the frame's 25 ms: 0 steps is digital silence in the 8-bit file, whatever the
16-bit audio held there; 1 step is a floor toggling between neighbouring values.
Each group: frames, 4-class accuracy as an 11.025 kHz 16-bit file and as an 8-bit
one, and where the 8-bit file's frames went. The last lines count the frames one
version gets right and the other does not, and how many of the frames lost lie
where the 8-bit file is digital silence (the clip's label there describes audio
the file no longer holds).

usage: u8_steps.py CLIPS_DIR NB_OUT_DIR
  CLIPS_DIR   standalone_clips.py's output (its manifest.tsv)
  NB_OUT_DIR  narrowband.sh's OUT_DIR for those clips (its u8/, pred-u8/, pred-11k/)
"""
import os
import sys

import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402  (the manifest, label files and frame rule)

CLASSES = ['silence', 'speech', 'music', 'noise']
BINS = [(0, 0, '0'), (1, 1, '1'), (2, 3, '2-3'), (4, 15, '4-15'), (16, 128, '16+')]


def steps_per_frame(path, n):
    """Largest |sample - midpoint| in 8-bit steps within each of n frames' 25 ms."""
    x, rate = sf.read(path, dtype='int16')
    if x.ndim > 1:
        x = x[:, 0]
    x = np.abs(x.astype(np.int32)) // 256  # 8-bit samples arrive as multiples of 256
    out = np.zeros(n, dtype=np.int32)
    for i in range(n):
        a = int(i * 0.010 * rate)
        seg = x[a:a + int(round(0.025 * rate))]
        out[i] = seg.max() if len(seg) else 0
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    clips, nb = sys.argv[1], sys.argv[2]
    ref, p11, p8, steps = [], [], [], []
    for wav, labels in score.read_manifest(os.path.join(clips, 'manifest.tsv')):
        name = os.path.splitext(os.path.basename(wav))[0]
        n = score.num_frames(wav)
        ref.append(score.frame_indices(score.read_labels(labels), n, CLASSES))
        for out, d in ((p11, 'pred-11k'), (p8, 'pred-u8')):
            pred = os.path.join(nb, d, name + '.txt')
            if not os.path.exists(pred):
                sys.exit(f'{pred}: no such label file (run narrowband.sh first)')
            out.append(score.frame_indices(score.read_labels(pred), n, CLASSES))
        steps.append(steps_per_frame(os.path.join(nb, 'u8', name + '.wav'), n))
    ref, p11, p8, steps = (np.concatenate(v) for v in (ref, p11, p8, steps))
    known = ref >= 0
    print('class\tsteps\tframes\tacc_11k\tacc_u8\tu8_as_' + '\tu8_as_'.join(CLASSES))
    for c, cls in enumerate(CLASSES):
        for lo, hi, name in BINS:
            sel = known & (ref == c) & (steps >= lo) & (steps <= hi)
            if not sel.any():
                continue
            went = [int((p8[sel] == k).sum()) for k in range(len(CLASSES))]
            print(f'{cls}\t{name}\t{int(sel.sum())}\t{(p11[sel] == c).mean():.3f}\t'
                  f'{(p8[sel] == c).mean():.3f}\t' + '\t'.join(map(str, went)))
    lost = known & (p11 == ref) & (p8 != ref)
    won = known & (p11 != ref) & (p8 == ref)
    silent = steps == 0
    print(f'frames {int(known.sum())}: accuracy {(p11[known] == ref[known]).mean():.4f} as '
          f'11.025 kHz 16-bit, {(p8[known] == ref[known]).mean():.4f} as 8-bit')
    print(f'lost as 8-bit {int(lost.sum())} (where the 8-bit file is digital silence: '
          f'{int((lost & silent).sum())}), won {int(won.sum())} (there: {int((won & silent).sum())})')


if __name__ == '__main__':
    main()
