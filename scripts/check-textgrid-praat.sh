#!/usr/bin/env bash
# Checks `seqlabel label --format textgrid` against Praat itself: Praat (Debian's
# package, unpacked into a temporary folder, not installed) reads the TextGrid of
# samples/mixture.wav, and its intervals must be the Audacity labels of the same
# run, with the skipped class's time as empty intervals. Not part of the test
# suite (it needs the package); run after changing io/label_format.c.
set -euo pipefail
cd "$(dirname "$0")/.."
seqlabel=${SEQLABEL:-build/tools/seqlabel}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download praat >/dev/null 2>&1 && dpkg -x praat_*.deb praat)
"$seqlabel" label samples/mixture.wav --format textgrid --skip silence -o "$tmp/m.TextGrid"
"$seqlabel" label samples/mixture.wav --skip silence -o "$tmp/m.txt"
cat > "$tmp/read.praat" <<'PRAAT'
Read from file: "m.TextGrid"
n = Get number of intervals: 1
for i from 1 to n
    label$ = Get label of interval: 1, i
    t0 = Get start time of interval: 1, i
    t1 = Get end time of interval: 1, i
    if label$ <> ""
        appendInfoLine: fixed$(t0, 6), tab$, fixed$(t1, 6), tab$, label$
    endif
endfor
PRAAT
(cd "$tmp" && "$tmp/praat/usr/bin/praat_nogui" --run read.praat) |
  awk -F'\t' '{printf "%.6f\t%.6f\t%s\n", $1, $2, $3}' > "$tmp/praat.txt"
if diff "$tmp/praat.txt" "$tmp/m.txt"; then
  echo "Praat $(dpkg-deb -f "$tmp"/praat_*.deb Version) reads the TextGrid back: $(wc -l < "$tmp/m.txt") intervals, the same as the labels"
else
  echo "Praat reads other intervals than the labels (diff above)" >&2; exit 1
fi
