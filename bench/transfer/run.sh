#!/usr/bin/env bash
# What starting from the default model is worth for classes of one's own
# (`seqlabel train --init MODEL --classes ...`, docs/training.md): a spoken
# language labeler, silence / english / spanish / french, trained on Asterisk's
# voice prompts twice with the same steps and settings, once from the default
# model (its encoder under a new output layer; its "silence" row kept) and once
# from random weights of the same shape, then scored by `seqlabel eval`.
#
# Data: asterisk-core-sounds-{en,es,fr}-wav (one voice each: Allison in English
# and in Spanish, June in French; 8 kHz), their prompts split by name (the same
# prompt in one split in every language): a tenth validation, a tenth test; and
# two voices never trained on, asterisk-prompt-es-co and asterisk-prompt-fr-armelle
# (GSM files), as a second test. Labels: each prompt's speech, as the default
# model finds it, is the prompt's language, the rest silence.
#
# usage: bench/transfer/run.sh OUT_DIR [STEPS]
#   STEPS     training steps of each run [1500]
# Each run on all the training prompts and on a twentieth of them (3.3 min).
#   SEQLABEL  the command [build/tools/seqlabel]
#   SEQLABEL_CACHE  where tools/corpus/fetch.sh unpacks the packages
#             [/work/cache/seqlabel]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
out=$1 steps=${2:-1500}
seqlabel=${SEQLABEL:-$root/build/tools/seqlabel}
model=$root/model/default.slm
export SEQLABEL_CACHE=${SEQLABEL_CACHE:-/work/cache/seqlabel}
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$root/tools/corpus/fetch.sh" asterisk-core-sounds-en-wav asterisk-core-sounds-es-wav \
  asterisk-core-sounds-fr-wav asterisk-prompt-es-co asterisk-prompt-fr-armelle >&2

# The default model's labels of every prompt (a folder in, a mirrored folder out),
# then one line per prompt: audio, its labels (speech as its language, the rest
# silence), split.
prompts() { # PACKAGE LANGUAGE [SPLIT]
  local sounds=$SEQLABEL_CACHE/pkgs/$1/usr/share/asterisk/sounds raw=$out/raw/$1
  [ -e "$raw/.done" ] || {
    "$seqlabel" label "$sounds" --model "$model" -q -j 2 --format audacity -o "$raw/"
    touch "$raw/.done"
  }
  find "$sounds" -type f \( -name '*.wav' -o -name '*.gsm' \) | sort | while read -r f; do
    local rel=${f#"$sounds"/} split=${3:-} h
    if [ -z "$split" ]; then
      h=$(basename "$f" | cksum | cut -d' ' -f1)
      case $((h % 10)) in 0) split="test" ;; 1) split="valid" ;; *) split="train" ;; esac
    fi
    local lab=$out/labels/$1/${rel%.*}.txt
    mkdir -p "$(dirname "$lab")"
    awk -F'\t' -v lang="$2" 'BEGIN { OFS = "\t" }
      { print $1, $2, ($3 == "speech" ? lang : "silence") }' "$raw/${rel%.*}.txt" > "$lab"
    printf '%s\t%s\t%s\n' "$f" "$lab" "$split"
  done
}
{
  prompts asterisk-core-sounds-en-wav english
  prompts asterisk-core-sounds-es-wav spanish
  prompts asterisk-core-sounds-fr-wav french
} > "$out/set.tsv"
{
  prompts asterisk-prompt-es-co spanish other
  prompts asterisk-prompt-fr-armelle french other
} | cut -f1,2 > "$out/other.tsv"
awk -F'\t' '$3 == "test" { print $1 "\t" $2 }' "$out/set.tsv" > "$out/test.tsv"
# a user's few minutes: every twentieth training prompt (65, 3.3 min), the same
# validation
awk -F'\t' '$3 != "train" || ++n % 20 == 0' "$out/set.tsv" > "$out/set-twentieth.tsv"

common=(--classes silence,english,spanish,french
        --cache-dir "$out/features" --window 128 --batch 32
        --augment-gain 10 --augment-freq-mask 8 --augment-time-mask 10
        --threads 2 --seed 20261205 --quiet)
train() { # NAME MANIFEST STEPS OPTIONS...
  local name=$1 manifest=$2 n=$3; shift 3
  echo "$n" > "$out/$name.steps"
  [ -s "$out/$name.slm" ] && return 0
  local t0
  t0=$(date +%s.%N)
  "$seqlabel" train --manifest "$manifest" "${common[@]}" --steps "$n" --out "$out/$name.slm" "$@" > "$out/$name.report"
  echo "$(date +%s.%N) - $t0" | bc > "$out/$name.seconds"
}
shape=(--mel-bins 64 --d-model 64 --heads 4 --layers 4 --d-ff 256 --activation gelu --norm pre)
default=(--init "$model" --lr 5e-4) random=("${shape[@]}" --lr 2e-3)
train from-default "$out/set.tsv" "$steps" "${default[@]}"
train from-random "$out/set.tsv" "$steps" "${random[@]}"
# what the start is worth in steps: random weights given four times as many
train from-random-x4 "$out/set.tsv" $((4 * steps)) "${random[@]}"
train from-default-twentieth "$out/set-twentieth.tsv" "$steps" "${default[@]}"
train from-random-twentieth "$out/set-twentieth.tsv" "$steps" "${random[@]}"

printf 'start\tsteps\ttrain_s\ttest\taccuracy\tmacro_f1\tf1_silence\trecall_english\trecall_spanish\trecall_french\n'
for name in from-default from-random from-random-x4 from-default-twentieth from-random-twentieth; do
  for set in test other; do
    "$seqlabel" eval --model "$out/$name.slm" --manifest "$out/$set.tsv" \
      --cache-dir "$out/features" --threads 2 > "$out/$name-$set.eval"
    awk -v name="$name" -v steps="$(cat "$out/$name.steps")" -v s="$(cat "$out/$name.seconds")" \
        -v set="$set" '
      { for (i = 1; i < NF; i++) { if ($i == "accuracy") acc = $(i + 1)
                                   if ($i == "macro_f1") macro = $(i + 1) } }
      /^confusion/ { table_done = 1 }
      !table_done && NF == 5 { rec[$1] = $5 > 0 ? $3 : "-"; f1[$1] = $4 }
      END { printf "%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, steps, s, set, acc,
            macro, f1["silence"], rec["english"], rec["spanish"], rec["french"] }' "$out/$name-$set.eval"
  done
done
