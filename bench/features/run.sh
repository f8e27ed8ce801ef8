#!/usr/bin/env bash
# Side-by-side speed of `seqlabel bench features` and torchaudio's Kaldi fbank
# on the same 10-minute 16 kHz signal, one thread each, in one run; prints the
# ratio against torchaudio's better figure (with and without glibc's malloc
# tuned so that page faults do not dominate).
# Usage: bench/features/run.sh [SEQLABEL] [--seconds S] [--mel-bins N]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
exe="${1:-$root/build/tools/seqlabel}"
shift || true
seconds=600 mel=80
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --mel-bins) mel="$2"; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
export OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
sig="$tmp/signal.f32"

"$exe" bench features --seconds "$seconds" --mel-bins "$mel" --save-signal "$sig" | tee "$tmp/ours"
ours=$(awk '/^frames_per_second/ {print $2}' "$tmp/ours")
ours_cpu=$(awk '/^cpu_frames_per_second/ {print $2}' "$tmp/ours")

py="$root/bench/features/torchaudio_fbank.py"
/usr/bin/python3 "$py" "$sig" --mel-bins "$mel" | sed 's/^/plain malloc: /' | tee "$tmp/plain"
MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=1073741824 \
  /usr/bin/python3 "$py" "$sig" --mel-bins "$mel" --runs 5 | sed 's/^/tuned malloc: /' | tee "$tmp/tuned"
plain=$(awk '/ frames_per_second/ {print $NF}' "$tmp/plain")
tuned=$(awk '/ frames_per_second/ {print $NF}' "$tmp/tuned")
plain_cpu=$(awk '/cpu_frames_per_second/ {print $NF}' "$tmp/plain")
tuned_cpu=$(awk '/cpu_frames_per_second/ {print $NF}' "$tmp/tuned")
awk -v o="$ours" -v a="$plain" -v b="$tuned" -v oc="$ours_cpu" -v ac="$plain_cpu" -v bc="$tuned_cpu" 'BEGIN {
  t = (a > b) ? a : b; tc = (ac > bc) ? ac : bc
  printf "wall time:       seqlabel %.0f frames/s vs torchaudio at its best %.0f frames/s: ratio %.2fx\n", o, t, o / t
  printf "thread CPU time: seqlabel %.0f frames/s vs torchaudio at its best %.0f frames/s: ratio %.2fx\n", oc, tc, oc / tc }'
