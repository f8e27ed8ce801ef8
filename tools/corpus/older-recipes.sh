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
# usage: tools/corpus/older-recipes.sh [VERSION...]   (default: every one of OLDER_RECIPES)
set -euo pipefail
. "$(dirname "$0")/common.sh"
[ $# -gt 0 ] || set -- $(printf '%s\n' "${OLDER_RECIPES[@]}" | cut -d' ' -f1)

# usage: logged V STEP ARGS...: in_recipe (common.sh) into corpus-vV's log
logged() {
  in_recipe "$@" >> "$CACHE/recipes/v$1.log" 2>&1 ||
    { log "corpus-v$1: $2 failed: $CACHE/recipes/v$1.log"; return 1; }
}

specs=()
for v in "$@"; do
  spec=$(older_recipe "$v")
  [ -n "$spec" ] || { echo "$0: no older recipe corpus-v$v (OLDER_RECIPES, common.sh)" >&2; exit 2; }
  specs+=("$spec")
done
# an older recipe's clips.py skips a package that is not fetched and writes a short index
# over the good one: refuse first (every older recipe's packages are this one's)
missing=$(grep -v '^#' "$CORPUS_TOOLS/packages.tsv" | cut -f1 | grep -v '^$' |
  while read -r pkg; do [ -e "$CACHE/pkgs/$pkg/.done" ] || echo "$pkg"; done)
[ -z "$missing" ] || { echo "$0: $(echo "$missing" | wc -l) packages not fetched, first" \
  $(echo "$missing" | head -n 3) "(run tools/corpus/fetch.sh)" >&2; exit 2; }
# each recipe logs into $CACHE/recipes/ before in_recipe makes its folder there
mkdir -p "$CACHE/recipes"
# the clip indexes one after another: two clips.py converting the same clip that no
# recipe has cached yet would write the same file at once
for spec in "${specs[@]}"; do
  read -r v _ <<< "$spec"
  log "corpus-v$v: clips.py"
  logged "$v" clips.py
done
# usage: mix V COMMIT HOURS SEED (a line of OLDER_RECIPES)
mix() {
  logged "$1" mix.py --hours "$3" --seed "$4" --splits valid test &&
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
