#!/usr/bin/env bash
# Labelling many files one at a time and --jobs N at a time, side by side, in one
# run: wall and CPU time, and whether the outputs are the same bytes, into a
# folder and onto standard output (one RTTM for all, in the inputs' order).
# usage: bench/jobs/run.sh [SEQLABEL] [FILES] [JOBS]   (defaults: build/tools/seqlabel,
#   8 files, nproc jobs). The files: samples/mixture.wav at 44.1 kHz stereo 16-bit
#   (sox), repeated to 10 minutes, FILES links to it, under a temporary directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seqlabel=${1:-$root/build/tools/seqlabel}
files=${2:-8}
jobs=${3:-$(nproc)}
command -v sox >/dev/null || { echo "needs sox (scripts/install-deps.sh --dev)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sox "$root/samples/mixture.wav" -r 44100 -c 2 -b 16 "$tmp/m44.wav"
sox $(for _ in $(seq 30); do echo "$tmp/m44.wav"; done) "$tmp/long.wav"
mkdir "$tmp/in" "$tmp/one" "$tmp/many"
for i in $(seq "$files"); do ln -s "$tmp/long.wav" "$tmp/in/f$i.wav"; done
echo "$files files of $(sox --i -D "$tmp/long.wav") s (44.1 kHz stereo), $(nproc) CPUs"
/usr/bin/time -f "--jobs 1:     %e s wall, %U s user, %M KB peak RSS (one process)" \
    "$seqlabel" label "$tmp"/in/*.wav -o "$tmp/one/" -q
/usr/bin/time -f "--jobs $jobs:     %e s wall, %U s user, %M KB peak RSS (the largest process)" \
    "$seqlabel" label "$tmp"/in/*.wav -o "$tmp/many/" -q --jobs "$jobs"
diff -r "$tmp/one" "$tmp/many" >/dev/null && echo "outputs: the same bytes" || { echo "outputs differ"; exit 1; }
/usr/bin/time -f "--jobs 1, one RTTM on standard output:     %e s wall, %U s user" \
    "$seqlabel" label "$tmp"/in/*.wav --format rttm -q > "$tmp/one.rttm"
/usr/bin/time -f "--jobs $jobs, one RTTM on standard output:     %e s wall, %U s user" \
    "$seqlabel" label "$tmp"/in/*.wav --format rttm -q --jobs "$jobs" > "$tmp/many.rttm"
cmp -s "$tmp/one.rttm" "$tmp/many.rttm" && echo "standard output: the same bytes" ||
    { echo "standard output differs"; exit 1; }
