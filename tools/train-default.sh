#!/usr/bin/env bash
# Trains the shipped default model (model/default.slm) exactly as it was trained:
# corpus recipe corpus-v3 (tools/corpus/, docs/corpus.md) built with
# `tools/corpus/build.sh --hours 40 --seed 20261129` (the recipe of commit bbc7440's
# tools/corpus/), and corpus-v4 (the recipe of commit dbc9d6a's tools/corpus/) built with
# `tools/corpus/build.sh --hours 160 --seed 20261130`, and corpus-v5 (the recipe of
# commit ce92796's tools/corpus/) built with `tools/corpus/build.sh --hours 80 --seed
# 20261201`, and corpus-v6 (the recipe of commit 9fd0d48's tools/corpus/) built with `tools/corpus/build.sh
# --hours 40 --seed 20261202`, and corpus-v7 (the recipe of commit fb5e2d4's tools/corpus/) built
# with `tools/corpus/build.sh --hours 24 --seed 20261203`, and corpus-v8 (the recipe of
# commit 10b9deb's tools/corpus/) built with `tools/corpus/build.sh --hours 32 --seed
# 20261204`, and corpus-v9 (the recipe of commit 910f861's tools/corpus/) built with
# `tools/corpus/build.sh --hours 32 --seed 20261205`, and corpus-v10's clip index (the recipe of
# commit a1d756f's tools/corpus/) built with `tools/corpus/build.sh --hours 32 --seed
# 20261206` (stage 19 had its clip index only; stage 20 its mixtures too; stage 21 also
# its recipe's training split mixed again with seed 20261207, stage 22 with seed 20261208
# too, and each older recipe's training split mixed again with a seed of its own), then
# `seqlabel train` with the settings below in twenty-five runs (docs/default-model-history.md has
# the why): 60,000 steps from random weights with training seeds 20261130 (stage 1)
# and 20261129 (stage 1b), a second learning-rate cycle of 30,000 steps from each one's best model (stages 2 and
# 2b, `--init`, seeds 20261201 and 20261202), 24,000 steps of distillation from stage 2
# towards the ensemble of stages 2 and 1b (stage 3, `--teacher`, seed 20261203), all on
# corpus-v3, then distillation from stage 3 towards the ensemble of stages 3 and 2b on
# the mixtures of corpus-v3 and corpus-v4's first 40 hours together (stage 4, seed
# 20261206), and the same three times more, each from the last model towards the
# ensemble of it and stage 2b, on corpus-v3 and corpus-v4's first 80, 120 and all 160
# hours (stages 5, 6 and 7, seeds 20261207, 20261208 and 20261209), and once more from
# stage 7 with corpus-v5's first 40 hours on top (stage 9, seed 20261212) and from
# stage 9 with all 80 (stage 10, seed 20261213), and last 6,000 steps from stage 10
# towards itself, with whole-window edge crops, on corpus-v3's and corpus-v5's training
# mixtures and the training split's clips as files of their own, as they are, at 8 kHz
# and coded as GSM 06.10 (stage 11, seed 20261218; features on the 16-bit grid, as
# every build from commit ea61890 on computes them), and 6,000 steps more from stage 11
# towards itself with corpus-v6's training mixtures and clips added (stage 12, seed
# 20261219), and the same from stage 12 with corpus-v7's added (stage 13, seed 20261220),
# and the same from stage 13 on the same files for one whole epoch, 15,000 steps
# (stage 14, seed 20261223), then one whole epoch (17,250 steps) from stage 14
# towards itself with corpus-v8's training mixtures added (stage 15, seed 20261224), and
# 12,000 steps from stage 15 towards itself with the training clips listed twice
# (stage 16, seed 20261226), then 12,000 steps from stage 16 towards itself with
# corpus-v9's training mixtures and its ten new packages' training clips added (seed
# 20261229), averaged with stage 16 (`seqlabel average`: stage 17), and last 12,000 steps
# from stage 17 towards itself with the training clips of corpus-v7 and corpus-v9's new
# packages at 11.025 kHz too (stage 18, seed 20261230), and last 12,000 steps from
# stage 18 towards itself with corpus-v10's eleven new packages' training clips added
# (stage 19, seed 20261231), and last 12,000 steps from stage 19 towards itself with
# corpus-v10's training mixtures added and a quarter of the windows low-passed (stage 20,
# seed 20270104), and last 12,000 steps from stage 20 towards itself twice, seeds 20270105
# and 20270106, on corpus-v10's training mixtures, 64 hours more of them from the same
# recipe with seed 20261207, and stage 19's clip lists, the two averaged (stage 21), and
# last 12,000 steps from stage 21 towards itself twice, seeds 20270113 and 20270114, on
# stage 21's list with 64 hours more of corpus-v10's recipe (seed 20261208), 36 hours of
# the older recipes' training mixtures mixed again and the clip lists once more, the two
# averaged (stage 22: the shipped model).
# Rerunnable: each stage resumes from its checkpoint (--resume) after a stop, and a
# finished stage is not run again.
#
# usage: tools/train-default.sh [BUILD_DIR]      (default: build)
#   SEQLABEL_CACHE  corpus cache [/work/cache/seqlabel]
#   CORPUS          the corpus folder [$SEQLABEL_CACHE/corpus-v3] (its train.tsv, valid.tsv)
#   CORPUS4         the second corpus folder [$SEQLABEL_CACHE/corpus-v4] (its train.tsv)
#   CORPUS5         the third corpus folder [$SEQLABEL_CACHE/corpus-v5] (its train.tsv, clips.tsv)
#   CORPUS6         the fourth corpus folder [$SEQLABEL_CACHE/corpus-v6] (its train.tsv, clips.tsv)
#   CORPUS7         the fifth corpus folder [$SEQLABEL_CACHE/corpus-v7] (its train.tsv, clips.tsv)
#   CORPUS8         the sixth corpus folder [$SEQLABEL_CACHE/corpus-v8] (its train.tsv)
#   CORPUS9         the seventh corpus folder [$SEQLABEL_CACHE/corpus-v9] (its train.tsv, clips.tsv)
#   CORPUS10        the eighth corpus folder [$SEQLABEL_CACHE/corpus-v10] (its clips.tsv,
#                   train.tsv, valid.tsv; corpus-v10 is the recipe of commit a1d756f's
#                   tools/corpus/ built with `--hours 32 --seed 20261206`: since corpus-v11
#                   an older recipe, whose clip index and validation split
#                   tools/corpus/older-recipes.sh makes, and its training split this script)
#   FROM_STAGE      first stage run [1]: see below
#   CORPUS10B       corpus-v10's recipe with seed 20261207, its training split only
#                   [$SEQLABEL_CACHE/corpus-v10-s20261207; made if missing]
#   CORPUS10C       the same with seed 20261208 [$SEQLABEL_CACHE/corpus-v10-s20261208; made
#                   by stage 22 if missing]; stage 22 also mixes each older recipe's
#                   training split again into $SEQLABEL_CACHE/corpus-vN-sSEED (from that
#                   recipe's clip index, $SEQLABEL_CACHE/corpus-vN/clips.tsv, with the
#                   recipe's own tools/corpus/ taken from git into $SEQLABEL_CACHE/recipes/vN)
#   OUT             model written [$SEQLABEL_CACHE/train-default-v10-s6/average.slm]
#                   (the others': $SEQLABEL_CACHE/train-default-v3-40h{,-s29,-ft,-s29-ft,-distill}/
#                   train-default-v4-{80h,120h,160h,200h}-distill/, train-default-v5-{40h,80h}-lines/
#                   train-default-v5-clips-nb/, train-default-v6/, train-default-v7/,
#                   train-default-v7-epoch/, train-default-v8/, train-default-v8-clips/,
#                   train-default-v9/, train-default-v9-11k/, train-default-v10/,
#                   train-default-v10-mix/, train-default-v10-s2{,b}/ and
#                   train-default-v10-s6{,b}/, default.slm in each, and stage 17's
#                   average.slm in train-default-v9/, stage 21's in train-default-v10-s2/;
#                   stage 11's clips: $SEQLABEL_CACHE/standalone-train/, stage 12's:
#                   standalone-train-v6/, stage 13's: standalone-train-v7/, stage 17's:
#                   standalone-train-v9/; stage 18 adds nb11k/ to the last two; stage
#                   19's: standalone-train-v10/)
#   TRAIN_TSV / VALID_TSV  manifests of stages 1-3 [corpus-v3/train.tsv, corpus-v3/valid.tsv];
#                   stages 4 to 19 train on the corpora's train.tsv and validate on VALID_TSV,
#                   stages 20 to 22 on corpus-v10's valid.tsv
# then: cp "$SEQLABEL_CACHE/train-default-v10-s6/average.slm" model/default.slm (stage 22)
# Background use: nohup nice tools/train-default.sh build >>$SEQLABEL_CACHE/train-default-v3-40h.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cache=${SEQLABEL_CACHE:-/work/cache/seqlabel}
. tools/corpus/common.sh   # in_recipe: a script of an older recipe's tools/corpus/, from git
CACHE=$cache
corpus=${CORPUS:-$cache/corpus-v3}
work=$cache/train-default-v3-40h
work1b=$cache/train-default-v3-40h-s29
work2=$cache/train-default-v3-40h-ft
work2b=$cache/train-default-v3-40h-s29-ft
work3=$cache/train-default-v3-40h-distill
work4=$cache/train-default-v4-80h-distill
work5=$cache/train-default-v4-120h-distill
work6=$cache/train-default-v4-160h-distill
work7=$cache/train-default-v4-200h-distill
work9=$cache/train-default-v5-40h-lines
work10=$cache/train-default-v5-80h-lines
work11=$cache/train-default-v5-clips-nb
work12=$cache/train-default-v6
work13=$cache/train-default-v7
work14=$cache/train-default-v7-epoch
work15=$cache/train-default-v8
work16=$cache/train-default-v8-clips
work17=$cache/train-default-v9
work18=$cache/train-default-v9-11k
work19=$cache/train-default-v10
corpus4=${CORPUS4:-$cache/corpus-v4}
corpus5=${CORPUS5:-$cache/corpus-v5}
corpus6=${CORPUS6:-$cache/corpus-v6}
corpus7=${CORPUS7:-$cache/corpus-v7}
corpus8=${CORPUS8:-$cache/corpus-v8}
corpus9=${CORPUS9:-$cache/corpus-v9}
corpus10=${CORPUS10:-$cache/corpus-v10}
work20=$cache/train-default-v10-mix
work21=$cache/train-default-v10-s2
work21b=$cache/train-default-v10-s2b
# corpus-v10's recipe again with another seed: new training mixtures of the same sources
corpus10b=${CORPUS10B:-$cache/corpus-v10-s20261207}
corpus10c=${CORPUS10C:-$cache/corpus-v10-s20261208}
work22=$cache/train-default-v10-s6
work22b=$cache/train-default-v10-s6b
out=${OUT:-$work22/average.slm}
# FROM_STAGE=N skips the stages before N (their models must be in their folders:
# e.g. FROM_STAGE=22 with stage 21, model/default.slm of commit 9316107, copied to
# $work21/average.slm); the clip lists are made as before.
from_stage=${FROM_STAGE:-1}
stage() { [ "$1" -ge "$from_stage" ]; }
mkdir -p "$work" "$work1b" "$work2" "$work2b" "$work3"
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1

# Model: 64 log-mel bins, d_model 64 x 4 layers (4 heads, d_ff 256, GELU, pre-norm):
# 205k parameters, 0.8 MB.
# Window 128 frames (1.28 s): the stream window is 32 left + 80 core + 16 lookahead,
# a latency of 0.965 s (1.015 s with the default decoder's Viterbi lag).
# Augmentation: +-10 dB random gain (exact in the log-mel domain) on top of the
# corpus' own levels, channels, reverberation and mixtures; per window two bands of
# up to 8 of the 64 bins and two spans of up to 10 frames set to the mean
# (SpecAugment: corpus-v1's validation plateaued after 10 epochs without it).
data=(--manifest "${TRAIN_TSV:-$corpus/train.tsv}" --valid "${VALID_TSV:-$corpus/valid.tsv}"
  --classes silence,speech,music,noise --cache-dir "$cache/features")
common=(--window 128 --batch 32 --warmup 300 --weight-decay 0.01 --clip 1
  --augment-gain 10 --augment-freq-mask 8 --augment-time-mask 10
  --threads 2 --checkpoint-every 250 --resume)
shape=(--mel-bins 64 --d-model 64 --heads 4 --layers 4 --d-ff 256 --activation gelu --norm pre)
# --clip-edges: stages 1 to 10 were trained before crops reached past file edges
# (docs/training.md), so a rerun draws the same crops and keeps the same models.
train() { "$build/tools/seqlabel" train "${data[@]}" "${common[@]}" --clip-edges "$@"; }

# Stages 1 and 1b: from random weights, two seeds; cosine decay from 2e-3 to 1e-4.
stage 1 && train --out "$work/default.slm" --checkpoint "$work/train.ckpt" "${shape[@]}" \
  --steps 60000 --lr 2e-3 --seed 20261130
stage 1 && train --out "$work1b/default.slm" --checkpoint "$work1b/train.ckpt" "${shape[@]}" \
  --steps 60000 --lr 2e-3 --seed 20261129

# Stage 2: a second cycle (warm restart) from stage 1's best model, with fresh AdamW
# moments and new crops; cosine decay from 1e-3 to 5e-5.
stage 2 && train --out "$work2/default.slm" --checkpoint "$work2/train.ckpt" \
  --init "$work/default.slm" --steps 30000 --lr 1e-3 --seed 20261201
stage 2 && train --out "$work2b/default.slm" --checkpoint "$work2b/train.ckpt" \
  --init "$work1b/default.slm" --steps 30000 --lr 1e-3 --seed 20261202

# Stage 3: distillation. Stage 2 learns towards the ensemble of itself and stage 1b
# (two seeds: their averaged posteriors beat either by half a point of speech F1);
# each frame's target is half its label, half the ensemble's posteriors.
stage 3 && train --out "$work3/default.slm" --checkpoint "$work3/train.ckpt" \
  --init "$work2/default.slm" --teacher "$work2/default.slm" --teacher "$work1b/default.slm" \
  --distill-weight 0.5 --steps 24000 --lr 6e-4 --seed 20261203

# Stages 4 to 10: more mixtures. A model learns towards the ensemble of itself and
# stage 2b (the strongest pair measured) on corpus-v3's training mixtures and the
# first N training files of corpus-v4: the same sources and splits, new mixtures. On
# corpus-v3 alone the same distillation gained nothing; a student learns more of its
# teachers from more examples of their function. --hours only adds files after the
# earlier ones, so the first N files of a corpus-v4 grown further are the same.
# usage: more_mixtures WORK_DIR N_CORPUS4_FILES FROM_MODEL SEED OUT [N_CORPUS5_FILES]
more_mixtures() {
  mkdir -p "$1"
  { cat "$corpus/train.tsv"; head -n "$2" "$corpus4/train.tsv"
    [ -z "${6:-}" ] || head -n "$6" "$corpus5/train.tsv"; } > "$1/train.tsv.tmp"
  mv "$1/train.tsv.tmp" "$1/train.tsv"
  train --manifest "$1/train.tsv" --out "$5" --checkpoint "$1/train.ckpt" \
    --init "$3" --teacher "$3" --teacher "$work2b/default.slm" \
    --distill-weight 0.5 --steps 24000 --lr 6e-4 --seed "$4"
}
# Stage 4: from stage 3, with corpus-v4's 40-hour build (1526 files): twice the mixtures.
stage 4 && more_mixtures "$work4" 1526 "$work3/default.slm" 20261206 "$work4/default.slm"
# Stage 5: from stage 4, with corpus-v4's 80-hour build (3068 files): 96 hours of
# training mixtures, a third of them new to it.
stage 5 && more_mixtures "$work5" 3068 "$work4/default.slm" 20261207 "$work5/default.slm"
# Stage 6: from stage 5, with corpus-v4's 120-hour build (4583 files). From stage 5 on
# the student is level with its teachers' ensemble on validation (accuracy 0.9185 alone,
# 0.9186 with stage 2b): what still moves it is the new mixtures' labels.
stage 6 && more_mixtures "$work6" 4583 "$work5/default.slm" 20261208 "$work6/default.slm"
# Stage 7: from stage 6, with corpus-v4's 160-hour build (6129 files).
stage 7 && more_mixtures "$work7" 6129 "$work6/default.slm" 20261209 "$work7/default.slm"
# Stage 9: from stage 7, with corpus-v5's 40-hour build (1534 files) on top: new
# mixtures that also hold short acted game lines, a speech group corpus-v4 lacks.
# (Stage 8, corpus-v4 grown to 200 hours, was measured and not kept: docs/default-model-history.md.)
stage 9 && more_mixtures "$work9" 6129 "$work7/default.slm" 20261212 "$work9/default.slm" 1534
# Stage 10: from stage 9, with corpus-v5's 80-hour build (3078 files).
stage 10 && more_mixtures "$work10" 6129 "$work9/default.slm" 20261213 "$work10/default.slm" 3078

# usage: recipe_mixtures V DIR SEED [HOURS]: corpus-vV's recipe (its commit's tools/corpus/,
# from git: in_recipe, tools/corpus/common.sh) mixes its training split alone with SEED
# into DIR (`mix.py --hours HOURS --splits train`, 80 by default: 64 h of training
# mixtures); nothing is done if DIR has its list. Every recipe these stages train on is an
# older one since corpus-v11, so a rerun mixes exactly what they were trained on.
recipe_mixtures() {
  [ -f "$2/train.tsv" ] || in_recipe "$1" mix.py --hours "${4:-80}" --seed "$3" --out "$2" --splits train
}

# Stage 11: short files and narrowband ones. Corpus files are 30-120 s, so a model
# hears few file edges; and 8 kHz audio, even on the 16-bit grid, is labelled worse
# than full band. Up to 30 clips of every training source as files of their own
# (bench/vad/standalone_clips.py: 5,761 clips, 7.0 h), each also resampled to 8 kHz
# and coded as GSM 06.10 (read as .gsm files), next to corpus-v3's and corpus-v5's
# training mixtures; 6,000 steps from stage 10 towards itself at a third of the
# learning rate, with whole windows at edges (no --clip-edges). corpus-v4 is left
# out: this stage was first run on a machine that had not rebuilt it.
# usage: clips_as_files DIR CLIPS_TSV [PACKAGES]: up to 30 clips of every training source
# of a recipe's clip index (of PACKAGES alone, comma-separated, if given), as files of
# their own, and their 8 kHz and GSM copies (DIR/manifest.tsv, DIR/nb8k.tsv, DIR/nbgsm.tsv)
clips_as_files() {
  [ -f "$1/manifest.tsv" ] ||
    SEQLABEL_CACHE=$cache /usr/bin/python3 bench/vad/standalone_clips.py "$1" \
      --split train --per-source 30 --index "$2" --package "${3:-}"
  clips_resampled "$1" nb8k 8000 wav
  clips_resampled "$1" nbgsm 8000 gsm
}
# usage: clips_resampled DIR NAME RATE TYPE: every clip of DIR/manifest.tsv resampled to
# RATE (sox) and written as TYPE (wav, or gsm: GSM 06.10, read as .gsm files) into
# DIR/NAME/, listed in DIR/NAME.tsv; nothing is done if that list exists
clips_resampled() {
  local clips=$1 name=$2 rate=$3 type=$4
  [ ! -f "$clips/$name.tsv" ] || return 0
  mkdir -p "$clips/$name"
  rm -f "$clips/$name.tsv.tmp"
  while IFS=$'\t' read -r wav txt; do
    n=$(echo "$wav" | sed "s#$clips/##; s#/#_#g; s#\.wav##")  # music/midi/0000.wav: music_midi_0000
    sox -D "$wav" -r "$rate" -t "$type" "$clips/$name/$n.$type"
    printf '%s\t%s\n' "$clips/$name/$n.$type" "$txt" >> "$clips/$name.tsv.tmp"
  done < <(cut -f1,2 "$clips/manifest.tsv")
  mv "$clips/$name.tsv.tmp" "$clips/$name.tsv"
}
# usage: towards_itself WORK_DIR FROM_MODEL SEED STEPS OUT MANIFEST...: STEPS steps
# from FROM_MODEL towards itself alone at a peak learning rate of 2e-4, whole windows, on
# the MANIFESTs in this order (stages 11 to 18)
towards_itself() {
  local work=$1 from=$2 seed=$3 steps=$4 out=$5
  shift 5
  mkdir -p "$work"
  cat "$@" > "$work/train.tsv.tmp"
  mv "$work/train.tsv.tmp" "$work/train.tsv"
  "$build/tools/seqlabel" train "${data[@]}" "${common[@]}" --manifest "$work/train.tsv" \
    --out "$out" --checkpoint "$work/train.ckpt" \
    --init "$from" --teacher "$from" \
    --distill-weight 0.5 --steps "$steps" --lr 2e-4 --seed "$seed" "${stage_opts[@]}"
}
stage_opts=() # options of one stage
clips=$cache/standalone-train
stage 11 && clips_as_files "$clips" "$corpus5/clips.tsv"
stage 11 && towards_itself "$work11" "$work10/default.slm" 20261218 6000 "$work11/default.slm" \
  "$corpus/train.tsv" "$corpus5/train.tsv" "$clips/manifest.tsv" "$clips/nb8k.tsv" \
  "$clips/nbgsm.tsv"

# Stage 12: more real soundtracks and ambience, and misfiled sources refiled. corpus-v6
# (commit 9fd0d48's recipe, `--hours 40 --seed 20261202`) adds nine games' soundtracks and
# effects and files anew what tools/corpus/audit.py found filed under the wrong class
# (race-track engines and animals filed as music, spoken lines filed as noise or music).
# 6,000 steps from stage 11 towards itself, as stage 11 was made, on corpus-v3's,
# corpus-v5's and corpus-v6's training mixtures and corpus-v6's training clips as files
# of their own, as they are, at 8 kHz and as GSM.
clips6=$cache/standalone-train-v6
stage 12 && clips_as_files "$clips6" "$corpus6/clips.tsv"
stage 12 && towards_itself "$work12" "$work11/default.slm" 20261219 6000 "$work12/default.slm" \
  "$corpus/train.tsv" "$corpus5/train.tsv" "$corpus6/train.tsv" "$clips6/manifest.tsv" \
  "$clips6/nb8k.tsv" "$clips6/nbgsm.tsv"

# Stage 13: eleven more games' soundtracks and effects (corpus-v7, commit fb5e2d4's recipe,
# `--hours 24 --seed 20261203`, ambient tracks among them). 6,000 steps from stage 12
# towards itself, as stage 12 was made, with corpus-v7's training mixtures and clips added.
clips7=$cache/standalone-train-v7
clips_as_files "$clips7" "$corpus7/clips.tsv"
clips7_lists=("$clips7/manifest.tsv" "$clips7/nb8k.tsv" "$clips7/nbgsm.tsv")
files13=("$corpus/train.tsv" "$corpus5/train.tsv" "$corpus6/train.tsv" "$corpus7/train.tsv"
  "${clips7_lists[@]}")
stage 13 && towards_itself "$work13" "$work12/default.slm" 20261220 6000 "$work13/default.slm" "${files13[@]}"

# Stage 14: the same files and recipe as stage 13, from stage 13 towards itself, for one
# whole epoch (15,000 steps; stages 11 to 13 each saw 40% of their files' windows). A
# first run with seed 20261222 did as well on held-out mixtures and clips but failed the
# samples test on mixture.wav (docs/default-model-history.md); this one, seed 20261223,
# passes it.
stage 14 && towards_itself "$work14" "$work13/default.slm" 20261223 15000 "$work14/default.slm" "${files13[@]}"

# Stage 15: corpus-v8 (commit 10b9deb's recipe, `--hours 32 --seed 20261204`: corpus-v7's
# sources less the MegaGlest dragon rider's roars, new mixtures). One whole epoch (17,250
# steps) from stage 14 towards itself, with corpus-v8's training mixtures after stage 14's
# files; corpus-v8's training clips are corpus-v7's, so no new clip list.
stage 15 && towards_itself "$work15" "$work14/default.slm" 20261224 17250 "$work15/default.slm" \
  "${files13[@]}" "$corpus8/train.tsv"

# Stage 16: more weight on the training clips as files, the nearest thing to recordings
# labelled one at a time. 12,000 steps from stage 15 towards itself on stage 15's files
# with corpus-v7's training clip lists (as they are, at 8 kHz, as GSM) once more, so that
# they hold about a fifth of the frames instead of an eighth. A third whole epoch without
# them gained on the mixtures but lost on held-out clips (docs/default-model-history.md).
stage 16 && towards_itself "$work16" "$work15/default.slm" 20261226 12000 "$work16/default.slm" \
  "${files13[@]}" "$corpus8/train.tsv" "${clips7_lists[@]}"

# Stage 17: ten more packages (corpus-v9, commit 910f861's recipe, `--hours 32 --seed
# 20261205`): rock and metal songs, a space opera's soundtrack, team calls, announcers and
# narrators, ambience. 12,000 steps from stage 16 towards itself on stage 16's files, with
# corpus-v9's training mixtures twice and the new packages' training clips (as they are,
# at 8 kHz, as GSM) three times, so that the new sources are about 5% of the frames rather
# than 2%; then that model and stage 16 averaged. The fine-tune alone gained more on the
# new packages' held-out clips but lost 0.1 point on corpus-v3's validation split and came
# within half a point of the samples test's limit on mixture.wav; the average keeps stage
# 16's validation figures and gains on every test split (docs/default-model-history.md).
new9=fretsonfire-songs,naev-data,starfighter-data,ardentryst,nexuiz-data,netpanzer-data
new9=$new9,freeciv-data,tuxfootball,sonic-pi-samples
clips9=$cache/standalone-train-v9
clips_as_files "$clips9" "$corpus9/clips.tsv" "$new9"
clips9_lists=("$clips9/manifest.tsv" "$clips9/nb8k.tsv" "$clips9/nbgsm.tsv")
files17=("${files13[@]}" "$corpus8/train.tsv" "${clips7_lists[@]}" "$corpus9/train.tsv"
  "$corpus9/train.tsv" "${clips9_lists[@]}" "${clips9_lists[@]}" "${clips9_lists[@]}")
stage 17 && towards_itself "$work17" "$work16/default.slm" 20261229 12000 "$work17/default.slm" "${files17[@]}"
stage 17 && { [ -f "$work17/average.slm" ] ||
  "$build/tools/seqlabel" average -o "$work17/average.slm" "$work16/default.slm" "$work17/default.slm"; }

# Stage 18: the training clips as files at 11.025 kHz too. Files at that rate were labelled
# worse than at 8 kHz (a held-out metal song right on 41-53% of its frames against 82-94%):
# the clips were trained on as they are, at 8 kHz and as GSM, and the mixtures' old-11 kHz
# channel low-passes at 3.5-5 kHz, below what an 11.025 kHz file holds. 12,000 steps from
# stage 17 towards itself on stage 17's fine-tune files with corpus-v7's and the new
# packages' training clips at 11.025 kHz added (59,990 files). Not averaged with stage 17
# this time: the average was level with it on the validation splits and level or behind it
# on every set of validation clips as files (docs/default-model-history.md).
clips_resampled "$clips7" nb11k 11025 wav
clips_resampled "$clips9" nb11k 11025 wav
stage 18 && towards_itself "$work18" "$work17/average.slm" 20261230 12000 "$work18/default.slm" \
  "${files17[@]}" "$clips7/nb11k.tsv" "$clips9/nb11k.tsv"

# Stage 19: corpus-v10's eleven new packages (soundtracks, effects, an announcer, a
# narrator, real isolated English words), their training clips as files only: its
# mixtures would need about 7 GB more of disk than the cache had. 12,000 steps from stage
# 18 towards itself on stage 18's files with the new clips (as they are, at 8 kHz, as GSM
# and at 11.025 kHz) listed three times (64,202 files): ahead of stage 18 on four of the
# six validation splits of the mixtures and behind by 0.01 and 0.04 points on the other
# two. A second seed (20261232) was level with this run on validation and the average of
# the two level or ahead, but both were lost with the machine that made them; this run
# averaged with stage 18 was level with it on the mixtures and behind it on the new
# packages' validation clips (docs/default-model-history.md).
new10=singularity-music,asc-music,lordsawar-data,searchandrescue-data,plee-the-bear-data
new10=$new10,glob2-data,brainparty-data,wordwarvi-sound,micropolis-data,boswars-data,qabcs-data
clips10=$cache/standalone-train-v10
clips_as_files "$clips10" "$corpus10/clips.tsv" "$new10"
clips_resampled "$clips10" nb11k 11025 wav
clips10_lists=("$clips10/manifest.tsv" "$clips10/nb8k.tsv" "$clips10/nbgsm.tsv" "$clips10/nb11k.tsv")
files19=("${files17[@]}" "$clips7/nb11k.tsv" "$clips9/nb11k.tsv"
  "${clips10_lists[@]}" "${clips10_lists[@]}" "${clips10_lists[@]}")
stage 19 && towards_itself "$work19" "$work18/default.slm" 20261231 12000 "$work19/default.slm" \
  "${files19[@]}"

# Stage 20 (docs/default-model-history.md): corpus-v10's training mixtures (its sources
# hold the eleven packages that stage 19 had as clips only) and band-limit augmentation: a
# quarter of the windows low-passed at a random cutoff (--augment-lowpass 0.25), so that
# speech cut anywhere between telephone band and full band is heard in training, not only
# at the rates the clip lists were resampled to. 12,000 steps from stage 19 towards itself
# on stage 19's files with corpus-v10's training mixtures after them, validated on
# corpus-v10's validation split (every recipe's sources). Features of the 8 and 11.025 kHz clip
# files are libsoxr's from this stage on; stages 11 to 19 read them through
# libsamplerate (before commit dcbb94f, docs/io.md), so a rerun of those stages now
# gives models that differ from the shipped ones by that much.
recipe_mixtures 10 "$corpus10" 20261206 32  # corpus-v10's training split, stages 20 to 22
stage_opts=(--augment-lowpass 0.25 --valid "$corpus10/valid.tsv")
stage 20 && towards_itself "$work20" "$work19/default.slm" 20270104 12000 "$work20/default.slm" \
  "${files19[@]}" "$corpus10/train.tsv"

# Stage 21 (docs/default-model-history.md): new mixtures of every source, two
# seeds, averaged. corpus-v10's recipe with another seed, 80 hours (`tools/corpus/mix.py
# --hours 80 --seed 20261207 --out $CACHE/corpus-v10-s20261207 --splits train`: its
# training split alone, 64 h), after corpus-v10's own training mixtures, and stage 19's
# clip lists, corpus-v7's listed once instead of twice so that the clips stay about a
# third of the frames (44 h against 90 h of mixtures; in stage 20, 67 h against about
# 250 h). The older recipes' mixtures are left out: their training splits and features
# would need about 50 GB of disk, more than a machine of this size has free after the
# measuring corpora, and corpus-v10's sources hold all of theirs. 12,000 steps from
# stage 20 towards itself as stage 20 was made (band-limit augmentation, corpus-v10's
# validation split), with seeds 20270105 and 20270106, then the two averaged: the
# average was ahead of either seed on most validation splits and clip sets
# (docs/default-model-history.md).
clips21=("${clips7_lists[@]}" "$clips7/nb11k.tsv"
  "${clips9_lists[@]}" "${clips9_lists[@]}" "${clips9_lists[@]}" "$clips9/nb11k.tsv"
  "${clips10_lists[@]}" "${clips10_lists[@]}" "${clips10_lists[@]}")
# usage: averaged_pair WORK_A WORK_B FROM_MODEL SEED_A SEED_B OUT MANIFEST...: 12,000 steps
# from FROM_MODEL towards itself twice (towards_itself), with two seeds, then the two runs
# averaged into OUT (stages 21 and 22)
averaged_pair() {
  local a=$1 b=$2 from=$3 seed_a=$4 seed_b=$5 avg=$6
  shift 6
  towards_itself "$a" "$from" "$seed_a" 12000 "$a/default.slm" "$@"
  towards_itself "$b" "$from" "$seed_b" 12000 "$b/default.slm" "$@"
  [ -f "$avg" ] || "$build/tools/seqlabel" average -o "$avg" "$a/default.slm" "$b/default.slm"
}
files21=("${clips21[@]}" "$corpus10/train.tsv" "$corpus10b/train.tsv")
recipe_mixtures 10 "$corpus10b" 20261207  # stage 22's list holds it too
stage 21 && averaged_pair "$work21" "$work21b" "$work20/default.slm" 20270105 20270106 \
  "$work21/average.slm" "${files21[@]}"

# Stage 22, the shipped model (docs/default-model.md): more new mixtures, the older
# recipes' among them, with the clips kept at about a third of the frames. Stage 21's list,
# then corpus-v10's recipe mixed a third time (seed 20261208, its training split alone:
# 64 h), then each older recipe's training split mixed again (`mix.py --hours 7.5 --seed
# 2026130N --splits train` with the recipe's own tools/corpus/: 6.0 h each, 36 h), then
# stage 21's clip lists once more (78,290 files, 277 h). 12,000 steps from stage 21
# towards itself as stage 21 was made, seeds 20270113 and 20270114, then the two
# averaged. The new mixtures alone gained on the mixtures and lost on clips as files, the
# clips listed twice alone did the reverse; both at once were level or ahead on both
# (docs/default-model-history.md).
# (each recipe's commit: OLDER_RECIPES in tools/corpus/common.sh, whose recipe_dir takes it
# from git)
older=("3 20261303" "5 20261305" "6 20261306" "7 20261307" "8 20261308" "9 20261309")
files22=("${files21[@]}" "$corpus10c/train.tsv")
for spec in "${older[@]}"; do
  read -r v seed <<< "$spec"
  files22+=("$cache/corpus-v$v-s$seed/train.tsv")
  stage 22 && recipe_mixtures "$v" "$cache/corpus-v$v-s$seed" "$seed" 7.5
done
files22+=("${clips21[@]}")
stage 22 && recipe_mixtures 10 "$corpus10c" 20261208
stage 22 && averaged_pair "$work22" "$work22b" "$work21/average.slm" 20270113 20270114 "$out" \
  "${files22[@]}"
