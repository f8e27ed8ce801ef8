#!/usr/bin/env bash
# Reverse playback (a seek at rate -1) against forward, through decodebin !
# seqlabel (bench/element/reverse.py): the samples as FLAC (20 s), Matroska and
# Ogg Vorbis, the four samples one after another (70 s FLAC, past one 30 s span)
# at 16 kHz and 45 s of them at 44.1 kHz stereo, and 90 s as Ogg Vorbis (whose
# decoder leaves gaps between its reverse chunks). Needs sox and PyGObject.
# Usage: bench/element/reverse.sh [BUILD_DIR]   (docs/element.md, "Reverse playback")
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
export GST_PLUGIN_PATH=$PWD/$build/plugin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s=samples
# $2: a pipeline of elements, split into its words on purpose
# shellcheck disable=SC2086
enc() { gst-launch-1.0 -q filesrc location="$1" ! wavparse ! audioconvert ! $2 ! filesink location="$3"; }
enc $s/mixture.wav flacenc "$tmp/mixture.flac"
enc $s/mixture.wav "flacenc ! matroskamux" "$tmp/mixture.mka"
enc $s/mixture.wav "vorbisenc ! oggmux" "$tmp/mixture.ogg"
sox $s/mixture.wav $s/speech.wav $s/music.wav $s/noise.wav "$tmp/m70.wav"
enc "$tmp/m70.wav" flacenc "$tmp/m70.flac"
sox "$tmp/m70.wav" -r 44100 -c 2 "$tmp/cd45.wav" trim 0 45
enc "$tmp/cd45.wav" flacenc "$tmp/cd45.flac"
sox $s/speech.wav $s/music.wav $s/mixture.wav $s/noise.wav $s/speech.wav "$tmp/v90.wav"
enc "$tmp/v90.wav" "vorbisenc ! oggmux" "$tmp/v90.ogg"
for f in mixture.flac mixture.mka mixture.ogg m70.flac cd45.flac v90.ogg; do
    (cd "$tmp" && /usr/bin/python3 "$OLDPWD/bench/element/reverse.py" "$f")
done
