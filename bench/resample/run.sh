#!/usr/bin/env bash
# Speed of rate conversion as `seqlabel features` and `seqlabel label` read a file:
# a 10-minute 44.1 kHz stereo 16-bit WAV (pink noise) to 16 kHz log-mel features at
# each --resample-quality, against a 16 kHz file of the same length (no conversion)
# and against sox's own `rate -v` converting the file to 16 kHz float, and
# `seqlabel label` (the default model) on both files, in one run, one thread each. Prints seconds and times real time per line.
# Usage: bench/resample/run.sh [SEQLABEL] [--seconds S] [--rate R]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
exe="${1:-$root/build/tools/seqlabel}"
shift || true
seconds=600 rate=44100
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
sox -D -n -r "$rate" -c 2 -b 16 "$tmp/in.wav" synth "$seconds" pinknoise vol 0.3
sox -D -n -r 16000 -c 2 -b 16 "$tmp/in16.wav" synth "$seconds" pinknoise vol 0.3
# usage: timed LABEL COMMAND...: runs COMMAND twice, prints the faster run
timed() {
  local label=$1 best= t0 t1 s
  shift
  for _ in 1 2; do
    t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    best=$(awk -v s="$s" -v b="$best" 'BEGIN { print (b == "" || s < b) ? s : b }')
  done
  awk -v l="$label" -v b="$best" -v n="$seconds" \
    'BEGIN { printf "%-34s %7.3f s  %7.0fx real time\n", l, b, n / b }'
}
echo "$seconds s of $rate Hz stereo 16-bit to 16 kHz, one thread"
timed "no conversion (a 16 kHz file)" "$exe" features "$tmp/in16.wav" -o "$tmp/f.npy"
for q in best medium fast; do
  timed "seqlabel features, $q" "$exe" features "$tmp/in.wav" --sample-rate 16000 \
    --resample-quality "$q" -o "$tmp/f.npy"
done
timed "sox rate -v (to a float WAV)" sox -D "$tmp/in.wav" -r 16000 -e float -b 32 "$tmp/o.wav" rate -v
# end to end with the default model: what resampling adds to labeling
timed "seqlabel label, a 16 kHz file" "$exe" label -q "$tmp/in16.wav" -o "$tmp/l.txt"
timed "seqlabel label, the $rate Hz file" "$exe" label -q "$tmp/in.wav" -o "$tmp/l.txt"
