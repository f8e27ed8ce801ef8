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

# The older recipes, each the tools/corpus/ of one commit: version and commit.
OLDER_RECIPES=("3 bbc7440" "5 ce92796" "6 9fd0d48" "7 fb5e2d4" "8 10b9deb" "9 910f861"
  "10 a1d756f")
# usage: recipe_dir V: corpus-vV's own tools/corpus/, taken from git into $CACHE/recipes/vV
# the first time; prints that folder (run its scripts from there)
recipe_dir() {
  local v=$1 dir=$CACHE/recipes/v$1 commit
  commit=$(printf '%s\n' "${OLDER_RECIPES[@]}" | awk -v v="$v" '$1 == v { print $2 }')
  [ -n "$commit" ] || { echo "no older recipe corpus-v$v" >&2; return 1; }
  if [ ! -f "$dir/tools/corpus/mix.py" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    git -C "$CORPUS_TOOLS/../.." archive "$commit" tools/corpus | tar -x -C "$dir"
  fi
  echo "$dir"
}
