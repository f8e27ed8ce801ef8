#!/usr/bin/env bash
# What reading a container GStreamer decodes costs next to libsndfile's own
# formats, side by side in one run: wall time and peak memory of `seqlabel label`
# on 10 minutes of samples/mixture.wav at 44.1 kHz stereo as WAV and FLAC
# (libsndfile), FLAC in Matroska and AAC in MP4 (GStreamer, io/media_source.c),
# and whether the lossless ones give the WAV's labels byte for byte.
# usage: bench/media/run.sh [SEQLABEL]   (default: build/tools/seqlabel)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seqlabel=${1:-$root/build/tools/seqlabel}
command -v sox >/dev/null || { echo "needs sox (scripts/install-deps.sh --dev)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sox "$root/samples/mixture.wav" -r 44100 -c 2 -b 16 "$tmp/m44.wav"
sox $(for _ in $(seq 30); do echo "$tmp/m44.wav"; done) "$tmp/long.wav"
sox "$tmp/long.wav" "$tmp/long.flac"
gst-launch-1.0 -q filesrc location="$tmp/long.wav" ! wavparse ! audioconvert ! flacenc ! \
    matroskamux ! filesink location="$tmp/long.mka"
gst-launch-1.0 -q filesrc location="$tmp/long.wav" ! wavparse ! audioconvert ! \
    voaacenc bitrate=128000 ! mp4mux ! filesink location="$tmp/long.m4a"
echo "$(sox --i -D "$tmp/long.wav") s of 44.1 kHz stereo, $(nproc) CPUs"
for f in long.wav long.flac long.mka long.m4a; do
    /usr/bin/time -f "$f: %e s wall, %U s user, %M KB peak RSS" \
        "$seqlabel" label -q "$tmp/$f" --format frames -o "$tmp/$f.tsv"
done
for f in long.flac long.mka; do
    cmp -s "$tmp/long.wav.tsv" "$tmp/$f.tsv" && echo "$f: the WAV's labels, byte for byte" ||
        { echo "$f: labels differ from the WAV's"; exit 1; }
done
