#!/usr/bin/env bash
# Every test on a fresh Debian 12 machine: install, build, run the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
bash scripts/install-deps.sh
bash scripts/build.sh
meson test -C build --print-errorlogs --num-processes 2 "$@"
# cmocka's own summary lines, from every test program's log
grep -hE '^\[  (PASSED|FAILED|SKIPPED)  \]' build/meson-logs/testlog.txt | sort | uniq -c || true
