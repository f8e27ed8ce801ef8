#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install the packages, build, then
# label each file of samples/ with the shipped default model (model/default.slm)
# and print its segments (start, end, label: an Audacity label track), followed
# by those labels' scores against the samples' expected labels (samples/*.txt,
# made by the corpus' labelling rule, not by a model).
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
bash scripts/install-deps.sh
bash scripts/build.sh
seqlabel=./build/tools/seqlabel
model=model/default.slm
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in samples/*.wav; do
  name=$(basename "$f" .wav)
  echo "== $f: segments (start end label) from $model"
  # the default decoder: Viterbi smoothing (docs/labeling.md); eval's
  # --smoothing viterbi below scores these very labels
  "$seqlabel" label "$f" --model "$model" --threads 1 -q -o "$tmp/$name.txt"
  sed 's/^/   /' "$tmp/$name.txt"
done
echo "== all samples against their expected labels (samples/*.txt)"
"$seqlabel" eval --model "$model" --manifest samples/samples.tsv --no-cache --smoothing viterbi |
  sed 's/^/   /'
