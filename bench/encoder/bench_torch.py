#!/usr/bin/python3
"""PyTorch side of `seqlabel bench encoder`: the same models (tools/reference_model.py,
80 inputs, 4 heads, d_ff = 4 d_model, 4 classes, post-norm ReLU, whole window) timed
the same way (warm-up, then the median of --reps batches of >= --min-time seconds),
in eval mode under torch.inference_mode (its fastest path), softmax included.
Prints the same TSV columns as the C bench. bench/encoder/run.sh runs it with
OPENBLAS_NUM_THREADS equal to --threads and with 1, and on one thread, and keeps the
fastest: Debian's OpenBLAS threads and PyTorch's OpenMP ones oversubscribe a small
machine."""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from reference_model import SeqLabelEncoder  # noqa: E402


def ints(s):
    return [int(x) for x in s.split(",")]


def median_seconds(fn, reps, min_s):
    """Median wall and process-CPU seconds per call (as the C bench measures)."""
    fn()
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    inner = int(min_s / one) + 1 if one > 0 else 1
    times, cpu = [], []
    for _ in range(reps):
        c0 = time.process_time()
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
        cpu.append((time.process_time() - c0) / inner)
    times.sort()
    cpu.sort()
    return times[len(times) // 2], cpu[len(cpu) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d-model", type=ints, default=[64, 128, 256])
    ap.add_argument("--layers", type=ints, default=[2, 4, 6])
    ap.add_argument("--windows", type=ints, default=[128, 256, 512])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.05)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    print(f"# torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")
    print("d_model\tlayers\twindow\tthreads\tframes_per_s\tms_per_window\tframes_per_cpu_s")
    for d in a.d_model:
        for L in a.layers:
            net = SeqLabelEncoder(n_features=80, d_model=d, n_heads=a.heads, n_layers=L,
                                  d_ff=4 * d, n_classes=4, max_window=max(a.windows)).eval()
            for T in a.windows:
                x = torch.rand(1, T, 80) * 2 - 1

                def run():
                    with torch.inference_mode():
                        torch.softmax(net(x), dim=-1)
                t, cpu = median_seconds(run, a.reps, a.min_time)
                print(f"{d}\t{L}\t{T}\t{a.threads}\t{T / t:.0f}\t{t * 1e3:.3f}\t{T / cpu:.0f}",
                      flush=True)


if __name__ == "__main__":
    main()
