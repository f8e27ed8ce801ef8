#!/usr/bin/env bash
# Labels through lost RTP packets (docs/element.md, "GAP"): samples/mixture.wav
# sent as L16 over RTP on this machine, in real time, with a share of its 20 ms
# packets dropped before rtpjitterbuffer do-lost=true, labelled by the element;
# then the share of its frames whose label is the lossless run's (at the same
# time: frame centres, the runs' first labels aligned). The lossless run first.
#
# usage: bench/element/rtp-loss.sh [DROP_PROBABILITY [RUNS]]   [0.05 3]
#   SL_PLUGIN_PATH  the plugin's folder [build/plugin], to compare another build
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
drop=${1:-0.05}
runs=${2:-3}
export GST_PLUGIN_PATH=${SL_PLUGIN_PATH:-$root/build/plugin} OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage: receive PROBABILITY OUT: the receiver's Audacity labels in OUT
receive() {
  local port=$((20000 + RANDOM % 20000))
  gst-launch-1.0 -e -q udpsrc port="$port" timeout=3000000000 \
    caps="application/x-rtp,media=audio,clock-rate=16000,encoding-name=L16,channels=1,payload=96" ! \
    identity drop-probability="$1" ! rtpjitterbuffer latency=100 do-lost=true ! rtpL16depay ! \
    seqlabel name=l ! fakesink sync=true l.labels ! filesink location="$2" > "$tmp/rx.log" 2>&1 &
  local rx=$!
  sleep 1
  gst-launch-1.0 -q filesrc location="$root/samples/mixture.wav" ! wavparse ! audioconvert ! \
    audio/x-raw,format=S16BE ! rtpL16pay max-ptime=20000000 min-ptime=20000000 ! \
    udpsink host=127.0.0.1 port="$port" sync=true
  sleep 2
  kill -INT "$rx"
  wait "$rx" || true
}

# usage: agreement REF GOT: the share of the reference's frames GOT labels alike
agreement() {
  awk -F'\t' 'FNR == 1 { f++; off[f] = $1 }
    { n[f]++; a[f, n[f]] = $1 - off[f]; b[f, n[f]] = $2 - off[f]; c[f, n[f]] = $3 }
    END {
      frames = 0; same = 0
      for (t = 0.005; t < b[1, n[1]]; t += 0.01) {
        r = ""; g = ""
        for (i = 1; i <= n[1]; i++) if (a[1, i] <= t && t < b[1, i]) { r = c[1, i]; break }
        for (i = 1; i <= n[2]; i++) if (a[2, i] <= t && t < b[2, i]) { g = c[2, i]; break }
        frames++; same += (r == g)
      }
      printf "%.1f%% of %d frames", 100 * same / frames, frames
    }' "$1" "$2"
}

receive 0 "$tmp/lossless.txt"
echo "lossless: $(wc -l < "$tmp/lossless.txt") segments"
for run in $(seq "$runs"); do
  receive "$drop" "$tmp/lossy.txt"
  echo "drop $drop, run $run: $(wc -l < "$tmp/lossy.txt") segments, labels as lossless on $(agreement "$tmp/lossless.txt" "$tmp/lossy.txt")"
done
