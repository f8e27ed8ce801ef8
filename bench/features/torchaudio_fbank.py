#!/usr/bin/python3
"""Times torchaudio.compliance.kaldi.fbank on one thread on the float32 signal
that `seqlabel bench features --save-signal FILE` wrote, with the same settings
(16 kHz, 25/10 ms, povey, 80 mel bins, dither 0), warm: one untimed call first,
then the median of --runs calls, for the whole signal in one call and in
1000-frame blocks. Prints `frames_per_second N` for the better of the two.
Run it through run.sh, which sets the thread and malloc environment."""
import argparse
import statistics
import time

import numpy as np
import torch
import torchaudio
import torchaudio.compliance.kaldi as kaldi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("signal")
    ap.add_argument("--rate", type=int, default=16000)
    ap.add_argument("--mel-bins", type=int, default=80)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    torch.set_num_threads(1)
    x = torch.from_numpy(np.fromfile(a.signal, dtype="<f4")).unsqueeze(0) * 32768.0
    opts = dict(sample_frequency=float(a.rate), frame_length=25.0, frame_shift=10.0,
                num_mel_bins=a.mel_bins, window_type="povey", dither=0.0, energy_floor=0.0,
                preemphasis_coefficient=0.97, remove_dc_offset=True, low_freq=20.0,
                high_freq=0.0, use_energy=False, snip_edges=True)
    # Whole signal in one call, and in blocks of 1000 frames (overlapping by
    # window - hop samples so that the frames are exactly the same): the
    # blocks keep torch's temporaries small and cache-resident, which is much
    # faster. Both are timed; the better is quoted.
    hop, win, block = a.rate // 100, a.rate * 25 // 1000, 1000

    def whole():
        return kaldi.fbank(x, **opts).shape[0]

    def blocks():
        n = 0
        for s in range(0, x.shape[1] - win + 1, block * hop):
            n += kaldi.fbank(x[:, s:s + block * hop + win - hop], **opts).shape[0]
        return n

    best = best_cpu = 0.0
    for name, fn in (("whole signal", whole), ("1000-frame blocks", blocks)):
        frames = fn()  # warm-up (allocator, caches)
        times, cpu = [], []
        for _ in range(a.runs):
            t0, c0 = time.perf_counter(), time.thread_time()
            fn()
            times.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
        med, med_cpu = statistics.median(times), statistics.median(cpu)
        print("torchaudio %s fbank, %s: %.0f s, %d frames, one thread, median of %d: %.3f s = %.0f frames/s"
              " (thread CPU time %.0f frames/s)"
              % (torchaudio.__version__, name, x.shape[1] / a.rate, frames, a.runs, med, frames / med,
                 frames / med_cpu))
        best = max(best, frames / med)
        best_cpu = max(best_cpu, frames / med_cpu)
    print("cpu_frames_per_second %.0f" % best_cpu)
    print("frames_per_second %.0f" % best)

if __name__ == "__main__":
    main()
