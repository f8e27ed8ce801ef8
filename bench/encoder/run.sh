#!/bin/sh
# Encoder speed, seqlabel vs PyTorch, side by side in one run (a few minutes).
#   bench/encoder/run.sh [BUILD_DIR]   (default: build)
# Extra options go to both benches through SL_BENCH_ARGS, e.g.
#   SL_BENCH_ARGS="--d-model 128 --layers 4 --windows 512" bench/encoder/run.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
exec /usr/bin/python3 "$here/compare.py" "$build/tools/seqlabel" ${SL_BENCH_ARGS:-}
