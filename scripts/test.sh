#!/usr/bin/env bash
# Every test on a fresh Debian 12 machine: install, build, run the suite.
# Extra arguments go to `meson test` (e.g. a test name).
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
bash scripts/install-deps.sh
bash scripts/build.sh
rc=0
meson test -C build --print-errorlogs --num-processes 2 "$@" || rc=$?
log=build/meson-logs/testlog.txt
echo "---- cmocka summaries"
grep -E '^\[  (PASSED|FAILED)  \]' "$log" || true
# meson's own tally is the authority
ok=$(sed -nE 's/^Ok: +([0-9]+).*/\1/p' "$log" | tail -1)
fail=$(sed -nE 's/^(Fail|Unexpected Pass|Timeout): +([0-9]+).*/\2/p' "$log" | awk '{s+=$1} END {print s+0}')
echo "tests: ${ok:-0} passed, ${fail:-0} failed"
exit $rc
