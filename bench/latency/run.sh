#!/usr/bin/env bash
# What a shorter latency costs a model: the argmax labels (--smoothing none, so
# that the windows alone make the difference and the latency) of a labelled set
# (a corpus split's manifest, or samples/) with encoder windows of smaller cores
# and less lookahead, scored by `seqlabel eval --hyp` (accuracy, macro F1,
# speech-vs-rest F1), beside each window's latency (docs/labeling.md, "Latency") and its speed
# on one thread (10 minutes of samples/mixture.wav repeated, the best of two
# runs). A window is W:L:R, its frames, left context and lookahead; the core is
# W - L - R frames, and a label is final (W - L - R - 1 + R) hops after its
# frame, plus the analysis window's reach beyond the hop.
#
# usage: bench/latency/run.sh MANIFEST OUT_DIR [MODEL]
#   MANIFEST  audio<TAB>labels lines with absolute paths ($CACHE/corpus-v11/test.tsv),
#             or a folder of audio files and their label tracks (samples)
#   WINDOWS   the windows ["128:32:16 88:32:16 68:32:16 58:32:16 50:32:8 46:32:4
#             49:32:16 41:32:8 33:32:0"]; the first is the default model's own
#   SEQLABEL  the command [build/tools/seqlabel]
# needs sox (the speed runs' long file)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifest=$1 out=$2
model=${3:-$here/../../model/default.slm}
seqlabel=${SEQLABEL:-$here/../../build/tools/seqlabel}
windows=${WINDOWS:-128:32:16 88:32:16 68:32:16 58:32:16 50:32:8 46:32:4 49:32:16 41:32:8 33:32:0}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1
mkdir -p "$out"
if [ -d "$manifest" ]; then inputs=("$manifest"); else mapfile -t inputs < <(cut -f1 "$manifest"); fi
info=$("$seqlabel" info "$model")
field() { awk -v k="$1" '$1 == k { print $2; exit }' <<<"$info"; }
rate=$(field sample_rate) flen=$(field frame_length) fshift=$(field frame_shift)
hop=$((rate * fshift / 1000)) reach=$((rate * flen / 1000 - rate * fshift / 1000))
long="$out/long.wav"
[ -s "$long" ] || sox "$here/../../samples/mixture.wav" "$long" repeat 29   # 30 x 20 s
printf 'window\tcore\tlatency_s\taccuracy\tmacro_f1\tspeech_f1\tx_real_time\n'
for w in $windows; do
  IFS=: read -r W L R <<<"$w"
  core=$((W - L - R))
  opts=(--model "$model" --window "$W" --left-context "$L" --lookahead "$R" --smoothing none -q)
  hyp="$out/$W-$L-$R"
  rm -rf "$hyp"
  "$seqlabel" label "${inputs[@]}" "${opts[@]}" -j 2 --format frames -o "$hyp/"
  json=$("$seqlabel" eval --hyp "$hyp" --manifest "$manifest" --json)
  get() { grep -o "\"$1\":[0-9.]*" <<<"$json" | head -1 | cut -d: -f2; }
  times=()
  for _ in 1 2; do
    t0=$(date +%s.%N)
    "$seqlabel" label "$long" "${opts[@]}" --format frames -o /dev/null
    times+=("$t0" "$(date +%s.%N)")
  done
  awk -v w="$w" -v core="$core" -v R="$R" -v reach="$reach" -v hop="$hop" -v rate="$rate" \
      -v acc="$(get accuracy)" -v f1="$(get macro_f1)" -v sf1="$(get speech_vs_rest_f1)" \
      -v a0="${times[0]}" -v a1="${times[1]}" -v b0="${times[2]}" -v b1="${times[3]}" 'BEGIN {
    best = a1 - a0 < b1 - b0 ? a1 - a0 : b1 - b0
    printf "%s\t%d\t%.3f\t%.4f\t%.4f\t%.4f\t%.0f\n", w, core,
           (reach + (core - 1 + R) * hop) / rate, acc, f1, sf1, 600 / best }'
done
