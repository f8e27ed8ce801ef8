#!/usr/bin/env bash
# Rebuilds the sample files of samples/ (16 kHz, mono, 16-bit WAV) from
# nothing but espeak-ng and sox (Debian packages espeak-ng, sox). Deterministic:
# sox runs with -R (fixed random numbers) and -D (no dither), so the same
# package versions give the same bytes.
#   speech.wav   an English sentence spoken by espeak-ng          (~6 s)
#   music.wav    a plucked melody over a sustained chord            (~8 s)
#   noise.wav    pink then brown then white noise                   (6 s)
#   mixture.wav  the sentence over the melody and soft pink noise   (~6 s)
set -euo pipefail
cd "$(dirname "$0")"
command -v espeak-ng >/dev/null && command -v sox >/dev/null ||
  { echo "needs espeak-ng and sox (apt-get install espeak-ng sox)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
SOX=(sox -R -D)
OUT=(-r 16000 -c 1 -b 16 -e signed-integer)

# Speech: espeak-ng writes 22.05 kHz; sox converts the rate.
espeak-ng -v en-us -s 150 -w "$tmp/speech22k.wav" \
  "The quick brown fox jumps over the lazy dog. Every ten milliseconds of audio gets a label."
"${SOX[@]}" "$tmp/speech22k.wav" "${OUT[@]}" speech.wav norm -3

# Music: a melody of plucked notes (each 0.4 s) over a soft sustained chord.
notes=(C4 E4 G4 C5 B4 G4 E4 D4 F4 A4 C5 A4 G4 E4 D4 C4 E4 G4 E5 C5)
parts=()
for i in "${!notes[@]}"; do
  "${SOX[@]}" -n -r 16000 -c 1 "$tmp/n$i.wav" synth 0.4 pluck "${notes[$i]}" fade 0 0.4 0.15
  parts+=("$tmp/n$i.wav")
done
"${SOX[@]}" "${parts[@]}" "$tmp/melody.wav"
"${SOX[@]}" -n -r 16000 -c 1 "$tmp/chord.wav" synth 8 sine C3 sine G3 sine E4 vol 0.15 fade 0.5 8 1
"${SOX[@]}" -m "$tmp/melody.wav" "$tmp/chord.wav" "${OUT[@]}" music.wav reverb 30 norm -3

# Noise: three colours, 2 s each.
"${SOX[@]}" -n -r 16000 -c 1 "$tmp/pink.wav" synth 2 pinknoise vol 0.5
"${SOX[@]}" -n -r 16000 -c 1 "$tmp/brown.wav" synth 2 brownnoise vol 0.5
"${SOX[@]}" -n -r 16000 -c 1 "$tmp/white.wav" synth 2 whitenoise vol 0.3
"${SOX[@]}" "$tmp/pink.wav" "$tmp/brown.wav" "$tmp/white.wav" "${OUT[@]}" noise.wav norm -6

# Mixture: the sentence at full level, the melody at -12 dB, pink noise at -20 dB,
# cut to the length of the sentence.
len=$(soxi -D speech.wav)
"${SOX[@]}" music.wav "$tmp/music-quiet.wav" vol -12dB trim 0 "$len"
"${SOX[@]}" -n -r 16000 -c 1 "$tmp/bed.wav" synth "$len" pinknoise vol -20dB
"${SOX[@]}" -m speech.wav "$tmp/music-quiet.wav" "$tmp/bed.wav" "${OUT[@]}" mixture.wav norm -3

for f in speech music noise mixture; do
  printf '%-12s %6.2f s  %7d bytes\n' "$f.wav" "$(soxi -D $f.wav)" "$(stat -c %s $f.wav)"
done
