#!/usr/bin/env bash
# Configures (once) and builds seqlabel into ./build (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build}"; shift || true
[ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
ninja -C "$dir" >/dev/null
