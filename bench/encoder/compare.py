#!/usr/bin/python3
"""Runs `seqlabel bench encoder` and bench_torch.py on the same model shapes, one
(d_model, layers) pair at a time and alternating between the two for --rounds
rounds, so both see the same machine load; keeps each side's best round and prints
frames/s side by side with the ratios ours / PyTorch, by wall time and by process
CPU time (the steadier figure when the machine is shared).

For n threads each side gets the best of the ways it can be run. Ours runs with
OpenBLAS's threads and with the encoder's own (sl_encoder_set_threads, OpenBLAS on one
thread); where its products are its own AVX-512/AMX kernels, the first is a one-thread
run. PyTorch, with the malloc settings that keep its allocations warm, runs with
torch.set_num_threads(n) and OPENBLAS_NUM_THREADS=n, with torch.set_num_threads(n) and
OPENBLAS_NUM_THREADS=1 (its OpenMP threads alone: the two pools oversubscribe a small
machine), and on one thread; the torch_by column names the fastest: n/n, n/1 or 1."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WARM_MALLOC = dict(MALLOC_MMAP_MAX_="0", MALLOC_TRIM_THRESHOLD_="17179869184",
                   MALLOC_TOP_PAD_="1073741824")


def opt(args, name, default):
    return args[args.index(name) + 1] if name in args else default


def tsv(text):
    return [line.split("\t") for line in text.splitlines()
            if line.strip() and not line.startswith("#") and not line.startswith("d_model")]


def run(cmd, env):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout


def main():
    seqlabel, extra = sys.argv[1], sys.argv[2:]
    dms = opt(extra, "--d-model", "64,128,256").split(",")
    layers = opt(extra, "--layers", "2,4,6").split(",")
    windows = opt(extra, "--windows", "128,256,512")
    threads = opt(extra, "--threads", "1,2").split(",")
    reps = opt(extra, "--reps", "5")
    rounds = int(opt(extra, "--rounds", "2"))
    env1 = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    roof = run([seqlabel, "bench", "encoder", "--d-model", "64", "--layers", "2", "--windows",
                "8", "--threads", "1", "--reps", reps], env1)
    for line in roof.splitlines():
        if line.startswith("#"):
            print(line)
    print("d_model\tlayers\twindow\tthreads\tours_fps\tours_by\ttorch_fps\ttorch_by\tratio\t"
          "ours_fps_cpu\ttorch_fps_cpu\tratio_cpu")
    worst = worst_cpu = None
    for d in dms:
        for L in layers:
            ours, torch = {}, {}  # (T, n) -> [wall fps, by, cpu fps], best round
            for _ in range(rounds):
                for r in tsv(run([seqlabel, "bench", "encoder", "--d-model", d, "--layers", L,
                                  "--windows", windows, "--threads", ",".join(threads),
                                  "--reps", reps], env1)):
                    key, fps, cpu = (r[2], r[3]), float(r[5]), float(r[8])
                    old = ours.get(key)
                    if old is None or fps > old[0]:
                        ours[key] = [fps, r[4], max(cpu, old[2]) if old else cpu]
                    else:
                        old[2] = max(old[2], cpu)
                for n in threads:
                    # (torch threads, OpenBLAS threads): as asked, OpenMP alone, one thread
                    ways = [(n, n)] if n == "1" else [(n, n), (n, "1"), ("1", "1")]
                    for tn, bn in ways:
                        env = dict(os.environ, OPENBLAS_NUM_THREADS=bn, **WARM_MALLOC)
                        by = "1" if tn == "1" else f"{tn}/{bn}"
                        for r in tsv(run(["/usr/bin/python3", os.path.join(HERE, "bench_torch.py"),
                                          "--d-model", d, "--layers", L, "--windows", windows,
                                          "--threads", tn, "--reps", reps], env)):
                            key, fps, cpu = (r[2], n), float(r[4]), float(r[6])
                            old = torch.get(key, [0.0, "", 0.0])
                            if fps > old[0]:
                                old[0:2] = [fps, by]
                            old[2] = max(old[2], cpu)
                            torch[key] = old
            for n in threads:
                for T in windows.split(","):
                    o, t = ours[(T, n)], torch[(T, n)]
                    ratio, ratio_cpu = o[0] / t[0], o[2] / t[2]
                    worst = ratio if worst is None else min(worst, ratio)
                    worst_cpu = ratio_cpu if worst_cpu is None else min(worst_cpu, ratio_cpu)
                    print(f"{d}\t{L}\t{T}\t{n}\t{o[0]:.0f}\t{o[1]}\t{t[0]:.0f}\t{t[1]}\t"
                          f"{ratio:.2f}\t{o[2]:.0f}\t{t[2]:.0f}\t{ratio_cpu:.2f}", flush=True)
    print(f"# lowest ratio ours/PyTorch: wall {worst:.2f}, CPU time {worst_cpu:.2f}")


if __name__ == "__main__":
    main()
