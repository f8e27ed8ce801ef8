#!/usr/bin/env bash
# The held-out clips of standalone_clips.py as narrowband audio: each clip
# resampled to 11.025 kHz (old game recordings) and to 8 kHz (16-bit WAVs), coded
# as GSM 06.10 (a headerless .gsm file, Asterisk's format), and as 8-bit WAV at
# 11.025 kHz (old game recordings as they were stored: a quantization floor 48 dB
# below full scale, not below the clip's own peak; "u8"), labelled by
# `seqlabel label` as they are, and
# scored against the clips' own labels with score.py (4 classes), next to the
# clips at their own 16 kHz. docs/labeling.md ("Input on the 16-bit grid")
# holds what it printed. Two more channels on request: "dark" (sox bass +8 dB
# at 100 Hz, treble -8 dB at 3 kHz: a muffled microphone) and "thin" (bass -8,
# treble +8: a small one), at 16 kHz, gain lowered where the shelf would clip;
# and Asterisk's other headerless telephone formats, as its prompt and
# music-on-hold packages ship them: "ulaw" and "alaw" (G.711 at 8 kHz, sox) and
# "g722" (G.722 at 64 kbit/s, 16 kHz, ffmpeg's encoder); and Codec2, the
# open low-bit-rate voice codec of amateur radio and codec2-examples, at 8 kHz:
# "c2-3200", "c2-1300", "c2-700C" (bit/s; the codec2 package's c2enc and
# c2dec; the decoded file padded by 0.1 s, as the codec ends on whole frames);
# and the lossy codecs of podcasts and videos, at 16 kHz: "aac-N" (AAC at N
# kbit/s in MP4, .m4a, GStreamer's voaacenc and mp4mux; read back through
# GStreamer) and "opus-N" (Opus at N kbit/s in Ogg, .opus, opusenc; libsndfile
# reads it).
#
# usage: bench/vad/narrowband.sh CLIPS_DIR OUT_DIR [MODEL]
#   CLIPS_DIR  standalone_clips.py's output (its manifest.tsv), or any folder
#              with a manifest.tsv of audio<TAB>labels lines (the samples, say)
#   SEQLABEL   the command [build/tools/seqlabel]
#   SMOOTHING  the decoder's --smoothing [viterbi, the labeler's default]; none: argmax
#   CHANNELS   which to score ["16k 11k 8k gsm u8"]; also: dark thin ulaw alaw g722
#              c2-3200 c2-1300 c2-700C (any mode c2enc takes) aac-64 opus-24 (any
#              bit rate the encoder takes)
# needs sox (and ffmpeg for g722, codec2 for c2-*, gst-launch-1.0 for aac-*, opus-*)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
clips=$1 out=$2
model=${3:-$here/../../model/default.slm}
seqlabel=${SEQLABEL:-$here/../../build/tools/seqlabel}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell} OPENBLAS_NUM_THREADS=1
channels=${CHANNELS:-16k 11k 8k gsm u8}
mapfile -t wavs < <(cut -f1 "$clips/manifest.tsv")
for v in $channels; do
  [ "$v" = 16k ] && continue
  mkdir -p "$out/$v"
  for w in "${wavs[@]}"; do
    n=$(basename "$w" .wav)  # standalone_clips.py numbers its clips: names are unique
    case $v in
      11k) sox -D "$w" -r 11025 "$out/11k/$n.wav" ;;
      8k) sox -D "$w" -r 8000 "$out/8k/$n.wav" ;;
      gsm) sox -D "$w" -r 8000 -t gsm "$out/gsm/$n.gsm" ;;
      u8) sox -D "$w" -r 11025 -b 8 -e unsigned "$out/u8/$n.wav" ;;
      dark) sox -D -G "$w" "$out/dark/$n.wav" bass 8 treble -8 ;;
      thin) sox -D -G "$w" "$out/thin/$n.wav" bass -8 treble 8 ;;
      ulaw) sox -D "$w" -r 8000 -t ul "$out/ulaw/$n.ulaw" ;;
      alaw) sox -D "$w" -r 8000 -t al "$out/alaw/$n.alaw" ;;
      g722) ffmpeg -v error -y -i "$w" -c:a g722 -f g722 "$out/g722/$n.g722" ;;
      aac-*) gst-launch-1.0 -q filesrc location="$w" ! wavparse ! audioconvert ! \
               voaacenc bitrate=$((${v#aac-} * 1000)) ! mp4mux ! filesink location="$out/$v/$n.m4a" ;;
      opus-*) gst-launch-1.0 -q filesrc location="$w" ! wavparse ! audioconvert ! \
                opusenc bitrate=$((${v#opus-} * 1000)) ! oggmux ! filesink location="$out/$v/$n.opus" ;;
      c2-*) sox -D "$w" -r 8000 -b 16 -e signed -t raw - | c2enc "${v#c2-}" - - |
              c2dec "${v#c2-}" - - |
              sox -t raw -r 8000 -e signed -b 16 -c 1 - "$out/$v/$n.wav" pad 0 0.1 ;;
      *) echo "narrowband.sh: unknown channel '$v'" >&2; exit 2 ;;
    esac
  done
done
for v in $channels; do
  case $v in
    16k) in=("${wavs[@]}") ;;
    gsm | ulaw | alaw | g722) in=("$out/$v"/*."$v") ;;
    aac-*) in=("$out/$v"/*.m4a) ;;
    opus-*) in=("$out/$v"/*.opus) ;;
    *) in=("$out/$v"/*.wav) ;;
  esac
  mkdir -p "$out/pred-$v"
  "$seqlabel" label --model "$model" --smoothing "${SMOOTHING:-viterbi}" -q -o "$out/pred-$v/" "${in[@]}"
  /usr/bin/python3 "$here/score.py" "$clips/manifest.tsv" "$out/pred-$v" \
    --classes silence,speech,music,noise --name "$v"
done
