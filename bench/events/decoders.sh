#!/usr/bin/env bash
# What the decoder makes of a model's frames as events: a labelled set labelled
# with each decoder setting, then scored as sound event detection scores
# segments (`seqlabel eval --hyp --events all`: event-based F1 and error rate,
# 0.2 s collar; segment-based F1, 1 s), beside frame accuracy.
#
# usage: bench/events/decoders.sh MANIFEST OUT_DIR [MODEL]
#   MANIFEST  audio<TAB>labels lines with absolute paths ($CACHE/corpus-v11/valid.tsv)
#   SETTINGS  the decoder settings, ';'-separated label options ["--smoothing
#             viterbi; --smoothing none; ..."], the first the labeler's default
#   SEQLABEL  the command [build/tools/seqlabel]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifest=$1 out=$2
model=${3:-$here/../../model/default.slm}
seqlabel=${SEQLABEL:-$here/../../build/tools/seqlabel}
settings=${SETTINGS:---smoothing viterbi;--smoothing none;--smoothing viterbi --smoothing-lag 0;--smoothing viterbi --smoothing-lag 20;--smoothing viterbi --smoothing-lag 100;--smoothing viterbi --switch-penalty 3;--smoothing viterbi --switch-penalty 8;--smoothing viterbi --switch-penalty 20;--smoothing viterbi --min-duration speech=0.2,music=0.5,noise=0.5}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1
mkdir -p "$out"
mapfile -t inputs < <(cut -f1 "$manifest")
printf 'settings\taccuracy\tevent_f1\tevent_error_rate\tsegment_f1\tspeech_event_f1\n'
IFS=';' read -ra list <<<"$settings"
for s in "${list[@]}"; do
  read -ra opts <<<"$s"
  hyp="$out/$(tr -c 'a-z0-9.\n' '_' <<<"$s")"
  rm -rf "$hyp"
  "$seqlabel" label "${inputs[@]}" --model "$model" "${opts[@]}" -q -j 2 --format frames -o "$hyp/"
  "$seqlabel" eval --hyp "$hyp" --model "$model" --manifest "$manifest" --events all > "$hyp.eval"
  awk -v s="$s" '
    function after(k,   i) { for (i = 1; i < NF; i++) if ($i == k) return $(i + 1) }
    /^frames/ { acc = after("accuracy") }
    /^event_f1/ { f = $2 } /^event_error_rate/ { er = $2 }
    /^segments of/ { sf = after("segment_f1") }
    $1 == "speech" && NF == 7 { sp = $2 }
    END { printf "%s\t%s\t%s\t%s\t%s\t%s\n", s, acc, f, er, sf, sp }' "$hyp.eval"
done
