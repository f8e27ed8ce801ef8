#!/usr/bin/python3
"""Runs `seqlabel bench encoder` and bench_torch.py on the same model shapes, one
(d_model, layers) pair at a time so both see the same machine load, and prints
frames/s side by side with the ratio ours / PyTorch.

For n threads, PyTorch runs with torch.set_num_threads(n) and OPENBLAS_NUM_THREADS=n
(else Debian's OpenBLAS oversubscribes) and the malloc settings that keep its
allocations warm; ours is reported both with OpenBLAS's threads and with the
encoder's own threads (sl_encoder_set_threads, OpenBLAS on one thread), and the
ratio uses the faster of the two."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WARM_MALLOC = dict(MALLOC_MMAP_MAX_="0", MALLOC_TRIM_THRESHOLD_="17179869184",
                   MALLOC_TOP_PAD_="1073741824")


def opt(args, name, default):
    return args[args.index(name) + 1] if name in args else default


def tsv(text):
    rows = []
    for line in text.splitlines():
        if line.startswith("#") or line.startswith("d_model") or not line.strip():
            continue
        rows.append(line.split("\t"))
    return rows


def main():
    seqlabel, extra = sys.argv[1], sys.argv[2:]
    dms = opt(extra, "--d-model", "64,128,256").split(",")
    layers = opt(extra, "--layers", "2,4,6").split(",")
    windows = opt(extra, "--windows", "128,256,512")
    threads = opt(extra, "--threads", "1,2").split(",")
    reps = opt(extra, "--reps", "5")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    roof = subprocess.run([seqlabel, "bench", "encoder", "--d-model", "64", "--layers", "2",
                           "--windows", "8", "--threads", "1", "--reps", reps],
                          env=env, capture_output=True, text=True, check=True).stdout
    print(roof.splitlines()[0])
    print("d_model\tlayers\twindow\tthreads\tours_openblas\tours_encoder\tpytorch\tratio")
    worst = None
    for d in dms:
        for L in layers:
            ours = subprocess.run([seqlabel, "bench", "encoder", "--d-model", d, "--layers", L,
                                   "--windows", windows, "--threads", ",".join(threads),
                                   "--reps", reps], env=env, capture_output=True, text=True,
                                  check=True).stdout
            best = {}
            for r in tsv(ours):
                key = (r[2], r[3])
                best.setdefault(key, {})[r[4]] = float(r[5])
            for n in threads:
                tenv = dict(os.environ, OPENBLAS_NUM_THREADS=n, **WARM_MALLOC)
                tout = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "bench_torch.py"),
                                       "--d-model", d, "--layers", L, "--windows", windows,
                                       "--threads", n, "--reps", reps], env=tenv,
                                      capture_output=True, text=True, check=True).stdout
                for r in tsv(tout):
                    key = (r[2], n)
                    o = best.get(key, {})
                    ob, oe = o.get("openblas"), o.get("encoder")
                    mine = max(v for v in (ob, oe) if v is not None)
                    ratio = mine / float(r[4])
                    worst = ratio if worst is None else min(worst, ratio)
                    fmt = lambda v: "-" if v is None else f"{v:.0f}"
                    print(f"{d}\t{L}\t{r[2]}\t{n}\t{fmt(ob)}\t{fmt(oe)}\t{float(r[4]):.0f}\t"
                          f"{ratio:.2f}", flush=True)
    print(f"# lowest ratio ours/PyTorch: {worst:.2f}")


if __name__ == "__main__":
    main()
