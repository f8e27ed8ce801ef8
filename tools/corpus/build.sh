#!/usr/bin/env bash
# The whole corpus recipe, resumable, niced, logged to $CACHE/build.log:
#   install tools -> fetch packages -> clips -> mix -> stats -> check.
# Usage: tools/corpus/build.sh [--hours H] [--seed S] [--rebuild]   (defaults: 16 hours, seed 20261129)
# The recipe version (the corpus folder's name) is corpus_common.RECIPE_VERSION.
#   --rebuild: replace corpus files made by an earlier recipe, seed or clip set (see mix.py)
# Run in the background:  nohup tools/corpus/build.sh >/dev/null 2>&1 &
set -euo pipefail
. "$(dirname "$0")/common.sh"
HOURS=16; SEED=20261129; REBUILD=()
while [ $# -gt 0 ]; do
  case "$1" in
    --hours) HOURS="$2"; shift 2 ;;
    --seed) SEED="$2"; shift 2 ;;
    --rebuild) REBUILD=(--rebuild); shift ;;
    *) echo "usage: $0 [--hours H] [--seed S] [--rebuild]" >&2; exit 2 ;;
  esac
done
export PYTHONDONTWRITEBYTECODE=1
exec >>"$CACHE/build.log" 2>&1
# Tools first: reading the recipe version imports corpus_common, which needs numpy.
"$CORPUS_TOOLS/install-tools.sh"
VERSION=$(cd "$CORPUS_TOOLS" && /usr/bin/python3 -c 'import corpus_common; print(corpus_common.RECIPE_VERSION)')
log "build start: recipe $VERSION, hours=$HOURS seed=$SEED, cache $CACHE"
nice -n 10 "$CORPUS_TOOLS/fetch.sh"
nice -n 10 /usr/bin/python3 "$CORPUS_TOOLS/clips.py"
nice -n 10 /usr/bin/python3 "$CORPUS_TOOLS/mix.py" --hours "$HOURS" --seed "$SEED" "${REBUILD[@]}"
nice -n 10 /usr/bin/python3 "$CORPUS_TOOLS/stats.py" | tee "$CACHE/$VERSION/STATS.md"
nice -n 10 /usr/bin/python3 "$CORPUS_TOOLS/check.py"
log "build done"
