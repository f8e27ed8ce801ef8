#!/usr/bin/env bash
# Checks TextGrids both ways against Praat itself (Debian's package, unpacked
# into a temporary folder, not installed):
#  1. Praat reads `seqlabel label --format textgrid` of samples/mixture.wav, and
#     its intervals are the Audacity labels of the same run (the skipped class's
#     time as empty intervals);
#  2. Praat saves that TextGrid again, with a second tier of non-ASCII text
#     (so in UTF-16), in its long and its short text format, and `seqlabel eval`
#     with those as labels gives the figures it gives with the Audacity labels.
# Not part of the test suite (it needs the package); run after changing
# io/label_format.c or model/textgrid.c.
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

cat > "$tmp/save.praat" <<'PRAAT'
Read from file: "m.TextGrid"
Insert interval tier: 2, "notes"
Insert boundary: 2, 1.0
Set interval text: 2, 1, "café, ünïcode"
Save as text file: "long.TextGrid"
Save as short text file: "short.TextGrid"
PRAAT
(cd "$tmp" && "$tmp/praat/usr/bin/praat_nogui" --run save.praat)
model=${SEQLABEL_MODEL:-model/default.slm}
for labels in m.txt long.TextGrid short.TextGrid; do
  printf '%s\t%s\n' "$PWD/samples/mixture.wav" "$tmp/$labels" > "$tmp/$labels.tsv"
  "$seqlabel" eval --model "$model" --no-cache --manifest "$tmp/$labels.tsv" | tail -n +2 > "$tmp/$labels.eval"
done
head -c 2 "$tmp/long.TextGrid" | od -An -tx1 | grep -q 'fe ff' || { echo "Praat did not save UTF-16" >&2; exit 1; }
if diff "$tmp/m.txt.eval" "$tmp/long.TextGrid.eval" && diff "$tmp/m.txt.eval" "$tmp/short.TextGrid.eval"; then
  echo "seqlabel reads Praat's UTF-16 long and short TextGrids as the Audacity labels: $(head -1 "$tmp/m.txt.eval")"
else
  echo "seqlabel eval differs between the Audacity labels and Praat's TextGrids (diff above)" >&2; exit 1
fi
