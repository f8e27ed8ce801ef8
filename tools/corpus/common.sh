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
