#!/usr/bin/env bash
# The older corpus recipes' validation and test splits, each made again by its own
# commit's tools/corpus/ with the hours and seed of its first build (docs/corpus.md):
# the measuring corpora that bench/measure-model.sh evaluates beside the current recipe's.
# Each recipe is taken from git into $CACHE/recipes/vN, its clips.py writes its own
# clip index ($CACHE/corpus-vN/clips.tsv, seconds with the clips that build.sh
# converted already cached), one recipe after another, then its mix.py the two
# splits, two recipes at a time (the machine's two cores); each logs to
# $CACHE/recipes/vN.log. Resumable: a clip or a corpus file already made is kept.
# Needs the current recipe's packages and clips: run tools/corpus/build.sh first.
# usage: tools/corpus/older-recipes.sh [VERSION...]   (default: 3 5 6 7 8 9 10)
set -euo pipefail
. "$(dirname "$0")/common.sh"
# version, the hours and seed of its first build (its commit: OLDER_RECIPES, common.sh)
recipes=("3 40 20261129" "5 80 20261201" "6 40 20261202" "7 24 20261203" "8 32 20261204"
  "9 32 20261205" "10 32 20261206")
[ $# -gt 0 ] || set -- 3 5 6 7 8 9 10

# usage: in_recipe V STEP ARGS...: a step of corpus-vV's own recipe, logged
in_recipe() {
  local v=$1 step=$2 dir
  shift 2
  dir=$(recipe_dir "$v") || return 1
  (cd "$dir" && SEQLABEL_CACHE=$CACHE PYTHONDONTWRITEBYTECODE=1 nice -n 10 \
    /usr/bin/python3 "tools/corpus/$step" "$@") >> "$CACHE/recipes/v$v.log" 2>&1 ||
    { log "corpus-v$v: $step failed: $CACHE/recipes/v$v.log"; return 1; }
}

specs=()
for v in "$@"; do
  spec=$(printf '%s\n' "${recipes[@]}" | awk -v v="$v" '$1 == v')
  [ -n "$spec" ] || { echo "$0: no older recipe corpus-v$v (known: 3 5 6 7 8 9 10)" >&2; exit 2; }
  specs+=("$spec")
done
# the clip indexes one after another: two clips.py converting the same clip that no
# recipe has cached yet would write the same file at once
for spec in "${specs[@]}"; do
  read -r v _ <<< "$spec"
  log "corpus-v$v: clips.py"
  in_recipe "$v" clips.py
done
mix() {
  in_recipe "$1" mix.py --hours "$2" --seed "$3" --splits valid test &&
    log "corpus-v$1 mixed: $(cat "$CACHE/corpus-v$1/STAMP")"
}
pids=() status=0
for spec in "${specs[@]}"; do
  # shellcheck disable=SC2086
  mix $spec &
  pids+=($!)
  if [ ${#pids[@]} -eq 2 ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[1]}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
