# Shared settings for the corpus scripts (sourced, not run).
CACHE="${SEQLABEL_CACHE:-/work/cache/seqlabel}"
CORPUS_TOOLS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$CACHE"
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# True when $1 matches a glob of reserved.txt (packages kept for the independent evaluation).
is_reserved() {
  local pkg="$1" pat
  while read -r pat; do
    case "$pat" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2254
    case "$pkg" in $pat) return 0 ;; esac
  done < "$CORPUS_TOOLS/reserved.txt"
  return 1
}

# The older recipes, each the tools/corpus/ of one commit: version, commit, and the hours
# and seed of its first build (older-recipes.sh mixes its validation and test splits so).
OLDER_RECIPES=("3 bbc7440 40 20261129" "5 ce92796 80 20261201" "6 9fd0d48 40 20261202"
  "7 fb5e2d4 24 20261203" "8 10b9deb 32 20261204" "9 910f861 32 20261205"
  "10 a1d756f 32 20261206")
# usage: older_recipe V: that recipe's line of OLDER_RECIPES (empty if there is none)
older_recipe() { printf '%s\n' "${OLDER_RECIPES[@]}" | awk -v v="$1" '$1 == v'; }
# usage: recipe_dir V: corpus-vV's own tools/corpus/, taken from git into $CACHE/recipes/vV
# the first time; prints that folder (run its scripts from there)
recipe_dir() {
  local v=$1 dir=$CACHE/recipes/v$1 commit
  commit=$(older_recipe "$v" | cut -d' ' -f2)
  [ -n "$commit" ] || { echo "no older recipe corpus-v$v" >&2; return 1; }
  if [ ! -f "$dir/tools/corpus/mix.py" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    git -C "$CORPUS_TOOLS/../.." archive "$commit" tools/corpus | tar -x -C "$dir"
  fi
  echo "$dir"
}
# usage: in_recipe V STEP ARGS...: corpus-vV's own tools/corpus/STEP (clips.py, mix.py) run
# with ARGS from its recipe_dir on this cache, niced as build.sh runs the current recipe
in_recipe() {
  local v=$1 step=$2 dir
  shift 2
  dir=$(recipe_dir "$v") || return 1
  (cd "$dir" && SEQLABEL_CACHE=$CACHE PYTHONDONTWRITEBYTECODE=1 nice -n 10 /usr/bin/python3 \
    "tools/corpus/$step" "$@")
}
