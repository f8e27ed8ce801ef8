#!/usr/bin/python3
"""PyTorch side of `seqlabel bench train`: the same model (tools/reference_model.py, default
size: 80 inputs, d_model 128, 4 heads, 4 layers, d_ff 512, 4 classes, post-norm ReLU) and
the same batch (16 windows of 400 frames, random inputs and labels), one full training step
timed: forward, CrossEntropyLoss(ignore_index=-1), backward, clip_grad_norm_(1.0),
AdamW.step(). Median of --reps steps after one warm-up step (wall and process CPU time). Prints the
same TSV columns.
Run with OPENBLAS_NUM_THREADS equal to --threads (bench/train/run.sh does)."""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from reference_model import SeqLabelEncoder  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--window", type=int, default=400)
    ap.add_argument("--d-model", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-ff", type=int, default=512)
    ap.add_argument("--reps", type=int, default=7)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    B, T = a.batch, a.window
    net = SeqLabelEncoder(n_features=80, d_model=a.d_model, n_heads=a.heads, n_layers=a.layers,
                          d_ff=a.d_ff, n_classes=4, max_window=max(T, 1024)).train()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-4, weight_decay=0.01)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=-1)
    x = torch.rand(B, T, 80) * 4 - 2
    y = torch.randint(0, 4, (B, T))
    nparams = sum(p.numel() for p in net.parameters() if p.requires_grad)
    print(f"# torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, {nparams} parameters")
    print("threads\tframes_per_s\tms_per_step\tloss\tcpu_frames_per_s")
    times = []
    cpus = []
    loss = None
    for rep in range(-1, a.reps):
        t0 = time.perf_counter()
        c0 = time.process_time()
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x).reshape(B * T, 4), y.reshape(B * T))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        if rep >= 0:
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
    times.sort()
    cpus.sort()
    t = times[len(times) // 2]
    tc = cpus[len(cpus) // 2]
    print(f"{a.threads}\t{B * T / t:.0f}\t{t * 1e3:.1f}\t{loss.item():.4f}\t{B * T / tc:.0f}",
          flush=True)


if __name__ == "__main__":
    main()
