#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install, build, label the samples.
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
bash scripts/install-deps.sh
bash scripts/build.sh
for f in samples/*.wav; do
  echo "== $f"
  ./build/tools/seqlabel features "$f" -o - --format tsv | head -n 5
done
