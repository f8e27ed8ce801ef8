#!/bin/sh
# Training speed, seqlabel vs PyTorch, side by side in one run: for each thread
# count, seqlabel's step then PyTorch's on the same model size and batch, and
# the ratio of frames per second (> 1: seqlabel is faster), by wall time and by
# process CPU time (the steadier one when other jobs share the cores).
#   bench/train/run.sh [BUILD_DIR] [THREADS...]   (default: build, 1 2)
# Extra options for both through SL_BENCH_ARGS, e.g. SL_BENCH_ARGS="--batch 8 --reps 5".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
[ $# -gt 0 ] && shift
threads=${*:-1 2}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
# Warm allocator for torch (docs: first touch of fresh pages is slow here).
warm="MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=1073741824"
printf 'threads\tseqlabel_fps\ttorch_fps\tratio\tseqlabel_cpu_fps\ttorch_cpu_fps\tcpu_ratio\n'
for n in $threads; do
    ours=$(OPENBLAS_NUM_THREADS=$n "$build/tools/seqlabel" bench train --threads "$n" ${SL_BENCH_ARGS:-} |
           awk -F'\t' '!/^#/ && $1 != "threads" { print $2, $5 }')
    theirs=$(env OPENBLAS_NUM_THREADS=$n $warm /usr/bin/python3 "$here/bench_torch.py" --threads "$n" \
             ${SL_BENCH_ARGS:-} | awk -F'\t' '!/^#/ && $1 != "threads" { print $2, $5 }')
    echo "$n $ours $theirs" | awk '{ printf "%s\t%s\t%s\t%.2f\t%s\t%s\t%.2f\n", $1, $2, $4, $2 / $4, $3, $5, $3 / $5 }'
done
