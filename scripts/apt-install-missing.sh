#!/usr/bin/env bash
# Installs those of the named Debian packages that are not installed yet (apt-get, as
# root or through sudo); nothing is fetched when all are there.
# Usage: scripts/apt-install-missing.sh PACKAGE...
set -euo pipefail
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
native=$(dpkg --print-architecture)
missing=()
for p in "$@"; do
  # installed for this machine (its architecture, or all): one installed only
  # for another (arm64 build dependencies of a cross build) is not; a name
  # with its architecture (libc6:arm64) is that one
  arch=$native; case $p in *:*) arch=${p##*:} ;; esac
  dpkg-query -W -f='${Status} ${Architecture}\n' "$p" 2>/dev/null |
    grep -qE "^install ok installed ($arch|all)\$" || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
