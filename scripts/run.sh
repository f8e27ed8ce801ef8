#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install, build, then run seqlabel on
# each file of samples/. With the default model (model/default.slm) it prints
# each sample's labels as Audacity segments (start, end, label); until that
# model exists it prints the features (log-mel, 80 bins, 25 ms / 10 ms) of each
# sample instead: the array's shape and the first values of the first frames.
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
  if [ -f "$model" ]; then
    echo "== $f: segments (start end label), from $model"
    "$seqlabel" label "$f" --model "$model" -o "$tmp/$name.txt"
    sed 's/^/   /' "$tmp/$name.txt"
    continue
  fi
  "$seqlabel" features "$f" -o "$tmp/$name.npy"
  "$seqlabel" features "$f" -o "$tmp/$name.tsv"
  # the shape as numpy will see it, straight from the .npy header
  shape=$(head -c 128 "$tmp/$name.npy" | tr -d '\000' | grep -ao "'shape': ([0-9]*, [0-9]*)" | cut -d'(' -f2 | tr -d ')')
  echo "== $f: $shape (frames, log-mel bins); first 3 frames, first 6 bins:"
  head -n 3 "$tmp/$name.tsv" | cut -f1-6 | sed 's/^/   /'
done
[ -f "$model" ] || echo "(no model/default.slm yet: features shown instead of labels)"
