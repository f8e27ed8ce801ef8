#!/usr/bin/env bash
# The older corpus recipes' validation and test splits, each made again by its own
# commit's tools/corpus/ with the hours and seed of its first build (docs/corpus.md):
# the measuring corpora that bench/measure-model.sh evaluates beside corpus-v10.
# Each recipe is taken from git into $CACHE/recipes/vN, its clips.py writes its own
# clip index ($CACHE/corpus-vN/clips.tsv, seconds with the clips that build.sh
# converted already cached), one recipe after another, then its mix.py the two
# splits, two recipes at a time (the machine's two cores); each logs to
# $CACHE/recipes/vN.log. Resumable: a clip or a corpus file already made is kept.
# Needs the current recipe's packages and clips: run tools/corpus/build.sh first.
# usage: tools/corpus/older-recipes.sh [VERSION...]   (default: 3 5 6 7 8 9)
set -euo pipefail
. "$(dirname "$0")/common.sh"
root=$(cd "$CORPUS_TOOLS/../.." && pwd)
# version, the commit of its recipe, its hours and seed
recipes=("3 bbc7440 40 20261129" "5 ce92796 80 20261201" "6 9fd0d48 40 20261202"
  "7 fb5e2d4 24 20261203" "8 10b9deb 32 20261204" "9 910f861 32 20261205")
[ $# -gt 0 ] || set -- 3 5 6 7 8 9

# usage: in_recipe V COMMIT STEP ARGS...: a step of corpus-vV's own recipe, logged
in_recipe() {
  local v=$1 commit=$2 step=$3 dir=$CACHE/recipes/v$1
  shift 3
  if [ ! -f "$dir/tools/corpus/mix.py" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    git -C "$root" archive "$commit" tools/corpus | tar -x -C "$dir"
  fi
  (cd "$dir" && SEQLABEL_CACHE=$CACHE PYTHONDONTWRITEBYTECODE=1 nice -n 10 \
    /usr/bin/python3 "tools/corpus/$step" "$@") >> "$CACHE/recipes/v$v.log" 2>&1 ||
    { log "corpus-v$v: $step failed: $CACHE/recipes/v$v.log"; return 1; }
}

specs=()
for v in "$@"; do
  spec=$(printf '%s\n' "${recipes[@]}" | awk -v v="$v" '$1 == v')
  [ -n "$spec" ] || { echo "$0: no older recipe corpus-v$v (known: 3 5 6 7 8 9)" >&2; exit 2; }
  specs+=("$spec")
done
# the clip indexes one after another: two clips.py converting the same clip that no
# recipe has cached yet would write the same file at once
for spec in "${specs[@]}"; do
  read -r v commit _ <<< "$spec"
  log "corpus-v$v: clips.py ($commit)"
  in_recipe "$v" "$commit" clips.py
done
mix() {
  in_recipe "$1" "$2" mix.py --hours "$3" --seed "$4" --splits valid test &&
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
