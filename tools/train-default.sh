#!/usr/bin/env bash
# Trains the shipped default model (model/default.slm) exactly as it was trained:
# corpus recipe corpus-v3 (tools/corpus/, docs/corpus.md) built with
# `tools/corpus/build.sh --hours 40 --seed 20261129`, then `seqlabel train` with the
# settings below, training seed 20261130 (docs/default-model.md has the why).
# Rerunnable: the same command resumes from its checkpoint (--resume) after a stop.
#
# usage: tools/train-default.sh [BUILD_DIR]      (default: build)
#   SEQLABEL_CACHE  corpus cache [/work/cache/seqlabel]
#   CORPUS          the corpus folder [$SEQLABEL_CACHE/corpus-v3] (its train.tsv, valid.tsv)
#   OUT             model written [$SEQLABEL_CACHE/train-default-v3-40h/default.slm]
#   TRAIN_TSV / VALID_TSV  manifests [corpus-v3/train.tsv, corpus-v3/valid.tsv]
# then: cp "$OUT" model/default.slm
# Background use: nohup nice tools/train-default.sh build >>$SEQLABEL_CACHE/train-default-v3-40h.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cache=${SEQLABEL_CACHE:-/work/cache/seqlabel}
corpus=${CORPUS:-$cache/corpus-v3}
work=$cache/train-default-v3-40h
out=${OUT:-$work/default.slm}
mkdir -p "$work"
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1

# Model: 64 log-mel bins, d_model 64 x 4 layers (4 heads, d_ff 256, GELU, pre-norm):
# 205k parameters, 0.8 MB.
# Window 128 frames (1.28 s): the stream window is 32 left + 80 core + 16 lookahead,
# a latency of 0.965 s.
# Augmentation: +-10 dB random gain (exact in the log-mel domain) on top of the
# corpus' own levels, channels, reverberation and mixtures; per window two bands of
# up to 8 of the 64 bins and two spans of up to 10 frames set to the mean
# (SpecAugment: corpus-v1's validation plateaued after 10 epochs without it).
exec "$build/tools/seqlabel" train \
  --manifest "${TRAIN_TSV:-$corpus/train.tsv}" --valid "${VALID_TSV:-$corpus/valid.tsv}" \
  --out "$out" --classes silence,speech,music,noise \
  --cache-dir "$cache/features" \
  --mel-bins 64 \
  --d-model 64 --heads 4 --layers 4 --d-ff 256 --activation gelu --norm pre \
  --window 128 \
  --batch 32 --steps 60000 --lr 2e-3 --warmup 300 --weight-decay 0.01 --clip 1 \
  --augment-gain 10 --augment-freq-mask 8 --augment-time-mask 10 \
  --seed 20261130 --threads 2 \
  --checkpoint "$work/train.ckpt" --checkpoint-every 250 --resume
