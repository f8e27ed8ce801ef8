#!/usr/bin/env bash
# Every figure docs/default-model.md gives for a model, in one run: speed, `seqlabel eval`
# on each built corpus' validation and test splits, the samples, held-out clips as files
# at 16 / 11.025 / 8 kHz, as GSM and as 8-bit 11.025 kHz WAV, and the comparison with
# three VADs on corpus-v3's and corpus-v6's test splits with its breakdown by segment
# kind. Data preparation and measurement only: the corpora come from tools/corpus/,
# the clip sets from bench/vad/standalone_clips.py, Silero from bench/vad/install-silero.sh.
#
# usage: bench/measure-model.sh MODEL OUT_DIR [CLIPS_DIR...]
#   CLIPS_DIR       a clip set of standalone_clips.py (its manifest.tsv), scored by
#                   bench/vad/narrowband.sh into OUT_DIR/clips-<its name>.txt, and at
#                   16 kHz by group and level (score.py --by-level) into bylevel-<name>.txt;
#                   CHANNELS (narrowband.sh's) picks the rates and codecs
#   SEQLABEL_CACHE  the corpus cache [/work/cache/seqlabel]: each corpus-v*/ with a
#                   valid.tsv and a test.tsv is evaluated
#   VAD_NODE_DIR    folder of Silero's npm packages; unset: no VAD comparison
#   SEQLABEL        the command [build/tools/seqlabel]
#   SPLITS          the splits evaluated ["valid test"]; SPLITS=valid with corpus-v10's
#                   validation clips is how a candidate is chosen, the test splits unseen:
#                   no VAD comparison and no corpus-v5 test labels then
#   SMOOTHING       the decoder every figure is of [viterbi: the labeler's default
#                   decoder, what `seqlabel label` gives]; none: each frame's argmax,
#                   what the trainer validates on (docs/default-model.md's figures up
#                   to 2026-12-05)
# writes OUT_DIR/*.txt and prints the headline lines (accuracy, macro F1, speech F1);
# bench/compare-measures.py puts two or more OUT_DIRs side by side as Markdown tables
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -ge 2 ] || { sed -n '9,26p' "$0" >&2; exit 2; }
model=$(realpath "$1") out=$2
shift 2
cache=${SEQLABEL_CACHE:-/work/cache/seqlabel}
seqlabel=$(realpath "${SEQLABEL:-$root/build/tools/seqlabel}")
smoothing=${SMOOTHING:-viterbi}
case $smoothing in viterbi | none) ;; *) echo "SMOOTHING: '$smoothing' is neither viterbi nor none" >&2; exit 2 ;; esac
export SEQLABEL=$seqlabel SMOOTHING=$smoothing OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1
read -r -a wanted <<< "${SPLITS:-valid test}"
for s in "${wanted[@]}"; do
  case $s in valid | test) ;; *) echo "SPLITS: '$s' is neither valid nor test" >&2; exit 2 ;; esac
done
tests=$([[ " ${wanted[*]} " == *" test "* ]] && echo yes || echo no)
mkdir -p "$out"

# speed first, while nothing else of this script runs
"$seqlabel" bench label --minutes 60 --threads 1 --model "$model" > "$out/bench.txt" 2>&1
echo "speed: $(tail -n 1 "$out/bench.txt")"

# the splits, two at a time (the machine's two cores)
evaluate() {
  local f=$out/eval-${1//\//-}.txt
  "$seqlabel" eval --model "$model" --smoothing "$smoothing" --manifest "$cache/$1.tsv" \
    --cache-dir "$cache/features" > "$f"
  echo "$1: $(sed -n 2p "$f") $(grep speech_vs_rest "$f")"
}
splits=()
for d in "$cache"/corpus-v*/; do
  v=$(basename "$d")
  [ -f "$d/valid.tsv" ] && [ -f "$d/test.tsv" ] || continue
  for s in "${wanted[@]}"; do splits+=("$v/$s"); done
done
for ((i = 0; i < ${#splits[@]}; i += 2)); do
  evaluate "${splits[i]}" &
  pid=$!
  [ $((i + 1)) -lt ${#splits[@]} ] && evaluate "${splits[i + 1]}"
  wait $pid
done
"$seqlabel" eval --model "$model" --smoothing "$smoothing" --manifest "$root/samples/samples.tsv" \
  > "$out/samples.txt"
echo "samples: $(sed -n 2p "$out/samples.txt")"

for clips in "$@"; do
  name=$(basename "$clips")
  "$here/vad/narrowband.sh" "$clips" "$out/nb-$name" "$model" 2> /dev/null > "$out/clips-$name.txt"
  grep classes "$out/clips-$name.txt" | sed "s/^/clips $name: /"
  # the clips at 16 kHz by clip group and by level below each clip's peak
  /usr/bin/python3 "$here/vad/score.py" "$clips/manifest.tsv" "$out/nb-$name/pred-16k" --by-kind \
    --by-level --classes silence,speech,music,noise --name seqlabel > "$out/bylevel-$name.txt"
done

[ -n "${VAD_NODE_DIR:-}" ] && [ "$tests" = yes ] || exit 0
# run.sh labels with both decoders; the breakdown is of the one measured here
vad_method=$([ "$smoothing" = none ] && echo seqlabel-argmax || echo seqlabel)
for v in corpus-v3 corpus-v6; do
  [ -f "$cache/$v/test.tsv" ] || continue
  "$here/vad/run.sh" "$cache/$v/test.tsv" "$cache/$v/valid.tsv" "$model" "$out/vad-$v" \
    > "$out/vad-$v.txt" 2> /dev/null
  grep -v '^method' "$out/vad-$v.txt" | sed "s/^/vad $v: /"
  /usr/bin/python3 "$here/vad/score.py" "$cache/$v/test.tsv" "$out/vad-$v/$vad_method" --by-kind \
    --classes silence,speech,music,noise --name seqlabel > "$out/bykind-$v.txt"
done
# telephone-band speech, the weakest channel, on corpus-v5's test split
if [ "$tests" = yes ] && [ -f "$cache/corpus-v5/test.tsv" ]; then
  mapfile -t files < <(cut -f1 "$cache/corpus-v5/test.tsv")
  mkdir -p "$out/label-corpus-v5"
  "$seqlabel" label --model "$model" --smoothing "$smoothing" -q -o "$out/label-corpus-v5/" "${files[@]}"
  for channel in all telephone; do
    only=()
    [ "$channel" = all ] || only=(--channel "$channel")
    /usr/bin/python3 "$here/vad/score.py" "$cache/corpus-v5/test.tsv" "$out/label-corpus-v5" \
      --by-kind --classes silence,speech,music,noise --name seqlabel "${only[@]}" \
      > "$out/bykind-corpus-v5-$channel.txt"
  done
fi
