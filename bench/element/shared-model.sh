#!/usr/bin/env bash
# Peak memory of many seqlabel elements in one process (docs/element.md, "one model
# per file"): STREAMS streams of pink noise in one gst-launch-1.0, each element on
# the one model file (loaded once, shared), then each on its own copy of it (loaded
# STREAMS times), then one stream alone; and what each stream adds.
# usage: bench/element/shared-model.sh [STREAMS]   [20]
#   SL_PLUGIN_PATH  the plugin's folder [build/plugin]; MODEL [model/default.slm]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
streams=${1:-20}
[ "$streams" -ge 2 ] 2>/dev/null || { echo "usage: $0 [STREAMS], at least 2" >&2; exit 2; }
model=${MODEL:-$root/model/default.slm}
export GST_PLUGIN_PATH=${SL_PLUGIN_PATH:-$root/build/plugin} OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage: peak_kb N COPIES: peak RSS (KB) of N streams, on N copies of the model or one
peak_kb() {
  local n=$1 copies=$2 pipeline=() i m
  for i in $(seq "$n"); do
    m=$model
    if [ "$copies" = copies ]; then m=$tmp/m$i.slm; cp "$model" "$m"; fi
    pipeline+=(audiotestsrc num-buffers=200 wave=pink-noise ! "audio/x-raw,rate=16000,channels=1" !
      seqlabel model="$m" post-messages=false ! fakesink)
  done
  /usr/bin/time -f %M -o "$tmp/kb" gst-launch-1.0 -q "${pipeline[@]}" >/dev/null
  cat "$tmp/kb"
}

shared=$(peak_kb "$streams" shared)
own=$(peak_kb "$streams" copies)
one=$(peak_kb 1 shared)
awk -v n="$streams" -v s="$shared" -v o="$own" -v one="$one" 'BEGIN {
  printf "%d streams, one model: %.1f MB peak\n", n, s / 1024
  printf "%d streams, a copy each: %.1f MB peak\n", n, o / 1024
  printf "one stream: %.1f MB peak\n", one / 1024
  printf "each stream adds %.2f MB sharing the model, %.2f MB with its own\n",
    (s - one) / 1024 / (n - 1), (o - one) / 1024 / (n - 1) }'
