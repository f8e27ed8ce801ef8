#!/usr/bin/env bash
# Fuzzes what reads untrusted bytes (fuzz/): model files, audio files, and the text
# files and strings of training and labeling, each target for SECONDS (default 60)
# under libFuzzer with ASan and UBSan, from seeds made of the repository's own
# files. Exits non-zero on the first crash, leak or sanitizer report; the input
# that caused it is kept in build-fuzz/crashes/ (replay: build-fuzz/fuzz/TARGET FILE).
# The corpora grow in build-fuzz/corpus/ and are reused by the next run.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: model_file audio_file text_files converter)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"; shift || true
[ $# -gt 0 ] || set -- model_file audio_file text_files converter
bash scripts/install-deps.sh
bash scripts/apt-install-missing.sh clang libclang-rt-14-dev
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}" OPENBLAS_NUM_THREADS=1
dir=build-fuzz
[ -f "$dir/build.ninja" ] || CC=clang meson setup "$dir" -Dfuzz=true -Dtests=false \
  -Dplugin=false -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
ninja -C "$dir" >/dev/null

# Seeds: small real inputs of each kind. An audio seed's first byte picks the
# extension the target gives the file (fuzz/fuzz_audio_file.c: 0 wav, 5 g722, 6 gsm,
# 12 mp3; its top bit adds the --cut tap: 128 wav).
seeds="$dir/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"/{model_file,audio_file,text_files,converter}
cp tests/fixtures/model/tiny.slm tests/fixtures/train/post_gelu_band.slm "$seeds/model_file/"
{ printf '\000'; head -c 8192 samples/speech.wav; } > "$seeds/audio_file/speech.wav"
{ printf '\200'; head -c 8192 samples/music.wav; } > "$seeds/audio_file/music-tap.wav"
{ printf '\005'; head -c 4096 tests/fixtures/io/sweep16k.g722; } > "$seeds/audio_file/sweep.g722"
{ printf '\006'; head -c 3300 tests/fixtures/io/sweep8k.gsm; } > "$seeds/audio_file/sweep.gsm"
{ printf '\014'; cat tests/fixtures/io/noxing16k.mp3; } > "$seeds/audio_file/noxing.mp3"
head -n 3 samples/samples.tsv > "$seeds/text_files/manifest.tsv"
cp samples/mixture.txt "$seeds/text_files/labels.txt"
printf 'speech=0.2,music=0.5' > "$seeds/text_files/min-durations"
printf 'WEBVTT\n\nNOTE n\n\nid\n00:00.000 --> 00:01.500 align:start\n<v a>speech &amp; x\n\n' > "$seeds/text_files/cues.vtt"
printf '1\n00:00:00,000 --> 00:00:01,500\n<i>music</i>\n\n' > "$seeds/text_files/cues.srt"
printf '{"start":0.0,"end":1.5,"label":"speech","confidence":0.5}\n' > "$seeds/text_files/segments.jsonl"
printf ';; regions\none 1 0.00 1.25\none 1 2.5 4.75\ntwo 1 0 3\n' > "$seeds/text_files/regions.uem"
cat > "$seeds/text_files/words.TextGrid" <<'TEXTGRID'
File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 2
tiers? <exists>
size = 2
item []:
    item [1]:
        class = "TextTier"
        name = "bell"
        xmin = 0
        xmax = 2
        points: size = 1
        points [1]:
            number = 0.5
            mark = "ding ""dong"""
    item [2]:
        class = "IntervalTier"
        name = "words"
        xmin = 0
        xmax = 2
        intervals: size = 2
        intervals [1]:
            xmin = 0
            xmax = 1.25 ! a comment
            text = "speech"
        intervals [2]:
            xmin = 1.25
            xmax = 2
            text = ""
TEXTGRID
iconv -f UTF-8 -t UTF-16 "$seeds/text_files/words.TextGrid" > "$seeds/text_files/words16.TextGrid"
printf ';; turns\nSPEAKER one 1 0.570000 5.440000 <NA> <NA> a <NA> <NA>\nSPEAKER one 1 6.010000 2.790000 <NA> <NA> b <NA> <NA>\nSPEAKER two 1 1 2 <NA> <NA> c <NA> <NA>\n' \
  > "$seeds/text_files/turns.rttm"
# converter: rate 44100 (0x00ac44), stereo 16-bit, pieces of 100 frames, then samples
{ printf '\104\254\000\011\143'; head -c 8000 samples/music.wav | tail -c 7956; } \
  > "$seeds/converter/stereo44k"

mkdir -p "$dir/crashes"
for t in "$@"; do
  mkdir -p "$dir/corpus/$t"
  echo "fuzz_$t: $secs s"
  # UBSan reports abort so that libFuzzer keeps the input; leaks count as crashes
  log="$dir/fuzz_$t.log" status=0
  UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
    "$dir/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=16384 -rss_limit_mb=4096 -timeout=30 \
    -print_final_stats=1 -artifact_prefix="$dir/crashes/$t-" "$dir/corpus/$t" "$seeds/$t" \
    > "$log" 2>&1 || status=$?
  grep -E '^(INFO: seed corpus|stat::number_of_executed_units|stat::new_units_added|SUMMARY)|ERROR|runtime error|Test unit written' "$log" || true
  [ "$status" -eq 0 ] || { echo "fuzz_$t found a crash (exit $status): $log, $dir/crashes/" >&2; exit 1; }
done
echo "fuzz: no crash in $# targets, $secs s each"
