#!/usr/bin/env bash
# The held-out clips of standalone_clips.py at a range of audio bandwidths: each
# clip low-passed at 16 kHz (sox's `sinc -CUTOFF`, a steep linear-phase filter),
# labelled by `seqlabel label` and scored against the clip's own labels with
# score.py (4 classes), next to the clip as it is and as an 11.025 kHz file.
# It tells apart what a file's rate does from what its bandwidth does: an
# 11.025 kHz file holds audio up to about 5 kHz, a 16 kHz file low-passed at
# 5 kHz holds the same band without any resampling.
#
# usage: bench/vad/bandwidth.sh CLIPS_DIR OUT_DIR [MODEL]
#   CLIPS_DIR  standalone_clips.py's output (its manifest.tsv)
#   CUTOFFS    the cutoffs in Hz [3400 4000 4500 5000 5500 6000 7000]
#   SEQLABEL   the command [build/tools/seqlabel]
# prints score.py's two lines per version: lp<CUTOFF>, 16k and 11k
# needs sox
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
clips=$1 out=$2
model=${3:-$here/../../model/default.slm}
seqlabel=${SEQLABEL:-$here/../../build/tools/seqlabel}
cutoffs=${CUTOFFS:-3400 4000 4500 5000 5500 6000 7000}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1
mapfile -t wavs < <(cut -f1 "$clips/manifest.tsv")
versions=(16k 11k)
for c in $cutoffs; do versions+=("lp$c"); done
for v in "${versions[@]}"; do
  mkdir -p "$out/$v" "$out/pred-$v"
  for w in "${wavs[@]}"; do
    n=$(basename "$w" .wav)  # standalone_clips.py numbers its clips: names are unique
    case $v in
      16k) ln -sf "$(readlink -f "$w")" "$out/$v/$n.wav" ;;
      11k) sox -V1 -D "$w" -r 11025 "$out/$v/$n.wav" ;;
      lp*) sox -V1 -D "$w" "$out/$v/$n.wav" sinc "-${v#lp}" ;;  # -V1: overshoot clips a few samples
    esac
  done
  "$seqlabel" label --model "$model" -q -o "$out/pred-$v/" "$out/$v"/*.wav
  /usr/bin/python3 "$here/score.py" "$clips/manifest.tsv" "$out/pred-$v" \
    --classes silence,speech,music,noise --name "$v"
done
