#!/bin/sh
# `seqlabel info` prints the header of tiny.slm (values set by gen_model_fixtures.py),
# its classes, tensors and parameter count (547, counted by hand in
# test_model_file.c), its latency (by hand, docs/labeling.md: 200-sample windows
# every 80 samples at 8 kHz, core 16-4-2 = 10 frames, lookahead 2:
# 200-80 + (10-1+2)*80 = 1000 samples with argmax, and 5*80 more for the default
# decoder's Viterbi lag), a labeler's memory, and refuses a corrupt file with a
# message naming it, and a full disk under its output.
set -u
fail() { echo "FAIL: $*"; exit 1; }
out=$("$SL_SEQLABEL" info "$SL_FIXTURES/model/tiny.slm") || fail "info exited $?"
echo "$out"
for want in "d_model            8" "n_heads            2" "band_left          3 frames" \
    "band_right         1 frames" "stream_window      16 frames" "sample_rate        8000 Hz" \
    "window             hamming" "latency            1400 samples (0.175 s) with the default decoder" \
    "                   1000 samples (0.125 s) with argmax" "norm               pre-norm" "inv_std            2 1 0.5 4" \
    "1	música" "encoder.layers.0.self_attn.in_proj_weight     24 x 8" \
    "classifier.bias                               3" "parameters: 547" \
    "frame_shift        10 ms (80 samples: 10 ms)"; do
    printf '%s\n' "$out" | grep -qF -- "$want" || fail "missing '$want'"
done
# the labeler's memory (its figure is test_memory's; it differs between kernels)
printf '%s\n' "$out" | grep -qE '^  memory +[1-9][0-9]* bytes \([0-9.]+ MB\) for a labeler with the default settings on one thread$' ||
    fail "no labeler memory line"
tmp=$(mktemp)
head -c 100 "$SL_FIXTURES/model/tiny.slm" > "$tmp"
err=$("$SL_SEQLABEL" info "$tmp" 2>&1) && fail "a truncated file was accepted"
printf '%s\n' "$err" | grep -qF "$tmp" || fail "message '$err' does not name the file"
rm -f "$tmp"
"$SL_SEQLABEL" info 2>/dev/null && fail "no argument accepted"
# what it prints must arrive: a full disk (/dev/full) is a failure, said
if [ -w /dev/full ]; then
    err=$("$SL_SEQLABEL" info "$SL_FIXTURES/model/tiny.slm" 2>&1 >/dev/full) && fail "a full disk went unnoticed"
    printf '%s\n' "$err" | grep -qF "standard output: write failed" || fail "message '$err' on a full disk"
else
    fail "/dev/full is missing: the full-disk case cannot run"
fi
echo "ok"
