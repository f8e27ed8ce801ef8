#!/usr/bin/env bash
# What labeling in the streaming thread costs the element (docs/element.md, "Threads"):
# each buffer's time inside seqlabel (GStreamer's latency tracer, flags=element) on
# pink noise at 16 kHz in 20 ms buffers: the median buffer, and the buffers that
# complete a core block (the encoder's bursts, one per core: 0.8 s with the shipped
# model; taken as the slowest as many buffers as there are blocks); then the whole
# gst-launch process on 60 s of it: wall time and peak memory. Once with the model's
# own window, once with a small one.
#
# usage: bench/element/run.sh [MODEL]
#   SECONDS_OF_AUDIO  the tracer run's length [20]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
model=$(realpath "${1:-$root/model/default.slm}")
seconds=${SECONDS_OF_AUDIO:-20}
export GST_PLUGIN_PATH=$root/build/plugin OPENBLAS_NUM_THREADS=1
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage: pipeline BUFFERS ELEMENT_SETTINGS...: pink noise in 320-sample buffers through seqlabel
pipeline() {
  local n=$1
  shift
  gst-launch-1.0 -q audiotestsrc wave=pink-noise samplesperbuffer=320 num-buffers="$n" ! \
    audio/x-raw,format=S16LE,rate=16000,channels=1 ! seqlabel model="$model" "$@" ! fakesink
}
export -f pipeline
export model

seqlabel=$root/build/tools/seqlabel
# the model's core block in frames: its window less its left context and lookahead
model_core=$("$seqlabel" info "$model" |
  awk '/stream_window/ { w = $2 } /stream_left/ { l = $2 } /stream_lookahead/ { a = $2 } END { print w - l - a }')

printf 'settings\tbuffers\tmedian_us\tblocks\tblock_ms_min\tblock_ms_median\tblock_ms_max\twall_60s_s\tpeak_rss_mb\n'
for run in "$model_core|" "40|window=100 left-context=40 lookahead=20"; do
  core=${run%%|*} settings=${run#*|}
  # shellcheck disable=SC2086
  GST_TRACERS="latency(flags=element)" GST_DEBUG="GST_TRACER:7" GST_DEBUG_NO_COLOR=1 \
    pipeline $((seconds * 50)) $settings 2> "$tmp/trace.log"
  # the time each buffer spent in seqlabel, in ns
  grep -o 'element=(string)seqlabel0, src=(string)src, time=(guint64)[0-9]*' "$tmp/trace.log" |
    sed 's/.*time=(guint64)//' | sort -n > "$tmp/times"
  # shellcheck disable=SC2086
  /usr/bin/time -f '%e %M' -o "$tmp/usage" bash -c 'pipeline "$@"' - 3000 $settings
  read -r wall rss < "$tmp/usage"
  # a buffer holds 2 frames: NR * 2 / core blocks, the slowest buffers
  awk -v s="${settings:-model window}" -v core="$core" -v wall="$wall" -v rss="$rss" '
    { t[NR] = $1 }
    END {
      nb = int(NR * 2 / core); first = NR - nb + 1
      printf "%s\t%d\t%.0f\t%d\t%.2f\t%.2f\t%.2f\t%s\t%.0f\n", s, NR, t[int((NR + 1) / 2)] / 1e3, nb,
        t[first] / 1e6, t[first + int(nb / 2)] / 1e6, t[NR] / 1e6, wall, rss / 1024
    }' "$tmp/times"
done
