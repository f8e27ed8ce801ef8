#!/usr/bin/env bash
# Step 1: downloads the data packages of packages.tsv with `apt-get download` and unpacks them
# with `dpkg -x` into $CACHE/pkgs/<package>/ (never installed system-wide). Resumable: a package
# whose .done marker exists is skipped. Refuses every package reserved for evaluation.
# Usage: tools/corpus/fetch.sh [package...]   (default: all of packages.tsv)
set -euo pipefail
. "$(dirname "$0")/common.sh"
mkdir -p "$CACHE/debs" "$CACHE/pkgs"
if [ $# -gt 0 ]; then pkgs=("$@"); else
  mapfile -t pkgs < <(grep -v '^#' "$CORPUS_TOOLS/packages.tsv" | cut -f1 | grep -v '^$')
fi
for pkg in "${pkgs[@]}"; do
  if is_reserved "$pkg"; then log "REFUSED $pkg: reserved for the independent evaluation"; exit 2; fi
  dest="$CACHE/pkgs/$pkg"
  [ -e "$dest/.done" ] && { log "have $pkg"; continue; }
  ver=$(apt-cache show --no-all-versions "$pkg" | awk '/^Version:/{print $2; exit}')
  size=$(apt-cache show --no-all-versions "$pkg" | awk '/^Size:/{print $2; exit}')
  log "fetch $pkg $ver ($((size / 1000000)) MB)"
  ( cd "$CACHE/debs" && ls "${pkg}"_*.deb >/dev/null 2>&1 || apt-get download -q "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true )
  deb=$(ls "$CACHE/debs/${pkg}"_*.deb | head -n1)
  rm -rf "$dest"; mkdir -p "$dest"
  nice -n 10 dpkg -x "$deb" "$dest"
  printf '%s\t%s\n' "$pkg" "$ver" > "$dest/.done"
done
log "fetch: all packages unpacked"
