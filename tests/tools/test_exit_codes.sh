#!/bin/sh
# Every command's exit status says what went wrong, as its --help says: 0 done,
# 1 the work failed (here: a file that is not there), 2 a wrong command line
# (an unknown option, a bad value), each with one line naming the culprit.
# Usage: test_exit_codes.sh (SL_SEQLABEL: the built command)
set -u
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# expect CODE NEEDLE ARGS...: runs seqlabel ARGS, wants exit CODE and NEEDLE in
# its one line on stderr
expect() {
    code=$1 needle=$2
    shift 2
    "$SL_SEQLABEL" "$@" > /dev/null 2> "$dir/err"
    got=$?
    [ "$got" -eq "$code" ] || fail "seqlabel $*: exit $got, want $code ($(cat "$dir/err"))"
    grep -qF -- "$needle" "$dir/err" || fail "seqlabel $*: '$needle' not in: $(cat "$dir/err")"
    echo "ok $code: seqlabel $*"
}
absent=$dir/absent
for cmd in label features eval train info average "bench features" "bench encoder" \
           "bench label" "bench train"; do
    # shellcheck disable=SC2086 # "bench features" is two words
    expect 2 --no-such-option $cmd --no-such-option
done
expect 2 "unknown command 'nosuch' (see seqlabel --help)" nosuch
# a typo is answered with the command meant; an option before the command, with
# where it goes
expect 2 "unknown command 'lable': did you mean 'label'?" lable x.wav
expect 2 "unknown command 'evla': did you mean 'eval'?" evla
expect 2 "unknown command 'fetaures': did you mean 'features'?" fetaures
expect 2 "'--quiet' before the command: options go after it (seqlabel label --quiet ...)" \
    --quiet label x.wav
expect 2 "help: 'lable' is not a command; did you mean 'label'?" help lable
expect 2 "unknown command 'tral': did you mean 'train' or 'eval'?" tral
expect 2 "unknown command '--verison': did you mean '--version'?" --verison
expect 2 "unknown command 'x.wav' (see seqlabel --help)" x.wav
expect 2 "unknown option '--fromat': did you mean '--format'?" label x.wav --fromat csv
expect 2 "unknown option '--trheads=2': did you mean '--threads'?" train --trheads=2
# a long path (here 640 bytes) leaves room for the reason after it
long=$dir/$(printf '%0200d' 0)/$(printf '%0200d' 1)/$(printf '%0200d' 2)
mkdir -p "$long" && echo text > "$long/x.wav"
expect 1 "2/x.wav: not an audio file in a format libsndfile reads" label "$long/x.wav"
# --jobs workers share standard error: each error is one whole line
mkdir "$dir/junk"
for i in $(seq 1 200); do echo junk > "$dir/junk/g$i.wav"; done
"$SL_SEQLABEL" label "$dir/junk/" -j 2 -o "$dir/junk-out/" 2> "$dir/junk-err"
[ $? -eq 1 ] || fail "label of 200 junk files: exit status not 1"
whole="^seqlabel: $dir/junk/g[0-9]*\.wav: not an audio file in a format libsndfile reads .*--raw-rate)\$"
if [ "$(grep -c "$whole" "$dir/junk-err")" -ne 200 ] || [ "$(wc -l < "$dir/junk-err")" -ne 200 ]; then
    fail "errors of two workers ran together: $(grep -v "$whole" "$dir/junk-err" | head -3)"
fi
echo "ok: 200 errors from two workers, 200 whole lines"
# --jobs onto standard output holds each input's labels in a temporary folder:
# a write that fails there (here a file size limit) names the input
cp "$SL_SOURCE_ROOT/samples/speech.wav" "$dir/held1.wav"
cp "$SL_SOURCE_ROOT/samples/speech.wav" "$dir/held2.wav"
(trap '' XFSZ; ulimit -f 2; TMPDIR=$dir exec "$SL_SEQLABEL" label "$dir/held1.wav" "$dir/held2.wav" \
    -j 2 --format jsonl > /dev/null 2> "$dir/held-err")
grep -q "^seqlabel: $dir/held1.wav: its labels, held for standard output in $dir/seqlabel-jobs-.*: write failed: File too large\$" \
    "$dir/held-err" || fail "the held labels' write failure: $(cat "$dir/held-err")"
echo "ok: a failed write of held labels names the input"
# a --split piece whose write fails is named with one '/' after --split's folder,
# by the name it would have had (from its start to where writing stopped)
(trap '' XFSZ; ulimit -f 2; exec "$SL_SEQLABEL" label "$dir/held1.wav" --target speech \
    --split "$dir/pieces/" -o "$dir/pieces.txt" 2> "$dir/split-err")
grep -q "^seqlabel: $dir/pieces/held1-0001_[0-9.]*-[0-9.]*\.wav: write failed" "$dir/split-err" ||
    fail "the failed piece: $(cat "$dir/split-err")"
# a short option is named with the word it is in (not the word before it)
for cmd in label features eval train average; do
    expect 2 "'-z' (in '-zq')" "$cmd" -zq
done
: > "$dir/-dash.wav"
(cd "$dir" && expect 2 "'-d' (in '-dash.wav'; a file of that name: ./-dash.wav)" label -dash.wav) ||
    exit 1
expect 2 "--threads" label "$absent.wav" --threads x
expect 2 "--threads" eval --model "$absent.slm" --manifest "$absent.tsv" --threads x
# one limit for every command, said before any data is read (it was 256 for
# train and eval, refused by the library once every feature was computed)
for cmd in "label $absent.wav" "eval --model $absent.slm --manifest $absent.tsv" \
           "train --manifest $absent.tsv --out $dir/m.slm"; do
    # shellcheck disable=SC2086 # the words of each command
    expect 2 "--threads: '65' is not an integer in [1, 64]" $cmd --threads 65
done
expect 2 "--mel-bins" features "$absent.wav" -o "$dir/f.npy" --mel-bins x
# settings no rate can take are the command line's fault, said before the
# input is opened (exit 1, after "cannot open", as train says exit 2)
expect 2 "100 cepstra with 80 mel bins" features "$absent.wav" -o "$dir/f.npy" --mfcc 100
expect 2 "must be above low frequency 4000 Hz" features "$absent.wav" -o "$dir/f.npy" \
    --low-freq 4000 --high-freq 3000
expect 2 "100 cepstra with 80 mel bins" bench features --mfcc 100 --seconds 1 --runs 1
expect 2 "--steps" train --manifest "$absent.tsv" --out "$dir/m.slm" --steps x
expect 2 "info: one MODEL expected, none given" info
expect 2 "info: unknown option '--jsn'" info --jsn "$absent.slm"
# --help after the model, and "--" before a name that begins with '-'
"$SL_SEQLABEL" info "$absent.slm" --help | grep -q '^usage: seqlabel info' ||
    fail "seqlabel info MODEL --help: no help"
expect 1 "-absent.slm: cannot open" info -- -absent.slm
# a mistake in the command line is said in one line, not after the whole help
# (a screen reader reads 131 lines to reach it)
for words in "train -q" "train --bogus" "eval --bogus" "eval --split test" "average x.slm"; do
    # shellcheck disable=SC2086 # the words of each command
    lines=$("$SL_SEQLABEL" $words 2>&1 > /dev/null | wc -l)
    [ "$lines" = 1 ] || fail "seqlabel $words: $lines lines on stderr, not one"
done
expect 2 "-o: an empty name" features "$absent.wav" -o ""
expect 2 "-o OUT" average "$absent.slm"
# a model goes to a file: "-" is neither standard output nor a file of that name
expect 2 "-o -: a model is written to a file" average -o - "$absent.slm"
expect 2 "-o: an empty name" average -o "" "$absent.slm"
# the output named another way than an input (./m.slm, a link) is that input
cp "$SL_SOURCE_ROOT/model/default.slm" "$dir/in.slm"
ln -s in.slm "$dir/link.slm"
expect 2 "is the input $dir/in.slm itself" average -o "$dir/./in.slm" "$dir/in.slm"
expect 2 "is the input $dir/in.slm itself" average -o "$dir/link.slm" "$dir/in.slm"
cmp -s "$SL_SOURCE_ROOT/model/default.slm" "$dir/in.slm" || fail "average wrote over its input"
expect 2 "--out -: a model is written to a file" train --manifest "$absent.tsv" --out -
expect 2 "--out: an empty name" train --manifest "$absent.tsv" --out ""
# saved again and again: not through a descriptor, where the saves would follow one another
expect 2 "--out /dev/stdout: the model is saved more than once" train --manifest "$absent.tsv" \
    --out /dev/stdout
expect 2 "--checkpoint /dev/fd/1: the checkpoint is saved more than once" train \
    --manifest "$absent.tsv" --out "$dir/m.slm" --checkpoint /dev/fd/1
expect 2 "--checkpoint: an empty name" train --manifest "$absent.tsv" --out "$dir/m.slm" \
    --checkpoint ""
expect 2 "--cache-dir: an empty name" eval --model "$absent.slm" --manifest "$absent.tsv" \
    --cache-dir ""
expect 2 "--cache-dir: an empty name" train --manifest "$absent.tsv" --out "$dir/m.slm" \
    --cache-dir ""
# settings that cannot go together, refused before any data is read
expect 2 "checkpoint" train --manifest "$absent.tsv" --out "$dir/m.slm" --resume
expect 2 "need a checkpoint path" train --manifest "$absent.tsv" --out "$dir/m.slm" \
    --checkpoint-every 5
expect 2 "'a' is listed twice" train --manifest "$absent.tsv" --out "$dir/m.slm" --classes a,a
# a new class under --init that no new model may have, before any data is read
expect 2 "--classes: new class 'dog bark': a class name holds no spaces" train \
    --manifest "$absent.tsv" --out "$dir/m.slm" --init "$SL_SOURCE_ROOT/model/default.slm" \
    --classes "speech,dog bark"
expect 2 "--classes: class 'sil' is listed twice" eval --hyp "$dir" --manifest "$absent.tsv" \
    --classes sil,sil,tone,noise
expect 2 "cepstra" train --manifest "$absent.tsv" --out "$dir/m.slm" --mel-bins 20 --mfcc 30
expect 2 "not a multiple of n_heads" train --manifest "$absent.tsv" --out "$dir/m.slm" \
    --d-model 30 --heads 4
# settings that can be judged before any data is read
expect 2 "valid group: group pattern '([0-9': " train --manifest "$absent.tsv" \
    --out "$dir/m.slm" --valid-share 0.3 --valid-group '([0-9'
expect 2 "gap class 'nonspeech' is not one of the classes asked for" train \
    --manifest "$absent.tsv" --out "$dir/m.slm" --ref-gap nonspeech --classes other,speech
# options that would do nothing are refused, not ignored
expect 2 "--switch-penalty goes with Viterbi smoothing" label "$SL_SOURCE_ROOT/samples/speech.wav" \
    --smoothing none --switch-penalty 3
expect 2 "--smoothing-lag goes with Viterbi smoothing" eval --model "$absent.slm" \
    --manifest "$absent.tsv" --smoothing-lag 3 --smoothing none
expect 2 "--padding goes with --target" eval --model "$absent.slm" --manifest "$absent.tsv" \
    --padding 0.2
# named as typed: the element's property name, a value glued on by '='
expect 2 "--threshold-on goes with --target" eval --model "$absent.slm" \
    --manifest "$absent.tsv" --threshold-on=0.6
# thresholds that cannot be met: said as the options, not as the model's fault
expect 2 "--off-threshold 0.35 (its default) is above --on-threshold 0.3" label \
    "$SL_SOURCE_ROOT/samples/speech.wav" --target speech --on-threshold 0.3
expect 2 "--off-threshold 0.9 is above --on-threshold 0.5 (its default)" label \
    "$SL_SOURCE_ROOT/samples/speech.wav" --target speech --off-threshold 0.9
expect 2 "--threshold-on: 'abc' is not a number" label "$SL_SOURCE_ROOT/samples/speech.wav" \
    --target speech --threshold-on=abc
expect 2 "--min-durations: minimum durations 'speech=abc'" label \
    "$SL_SOURCE_ROOT/samples/speech.wav" --min-durations speech=abc
expect 2 "--target-class: $SL_SOURCE_ROOT/model/default.slm has no class 'dog'" label \
    "$SL_SOURCE_ROOT/samples/speech.wav" --target-class=dog
expect 2 "--threshold-off 0.6 is above --threshold-on 0.3: set --threshold-off" eval \
    --model "$absent.slm" --manifest "$absent.tsv" --target speech --threshold-on=0.3 \
    --threshold-off 0.6
expect 2 "--raw-rate goes with --raw-format" label "$SL_SOURCE_ROOT/samples/speech.wav" \
    --raw-rate 8000
expect 2 "--raw-channels goes with --raw-format" features "$SL_SOURCE_ROOT/samples/speech.wav" \
    -o "$dir/f.npy" --raw-channels 2
# given as 1, the default, it is still given
expect 2 "--raw-channels goes with --raw-format" label "$SL_SOURCE_ROOT/samples/speech.wav" \
    --raw-channels 1
expect 2 "--raw-channels goes with --raw-format" features "$SL_SOURCE_ROOT/samples/speech.wav" \
    -o "$dir/f.npy" --raw-channels 1
# a class the model (or the references) lack is a wrong command line too
model=$SL_SOURCE_ROOT/model/default.slm samples=$SL_SOURCE_ROOT/samples
expect 2 "--target: $model has no class 'nosuch'" label "$samples/speech.wav" --target nosuch
expect 2 "--target: $model has no class 'nosuch'" eval --model "$model" \
    --manifest "$samples/samples.tsv" --no-cache --target nosuch
expect 2 "--sweep: $model has no class 'nosuch'" eval --model "$model" \
    --manifest "$samples/samples.tsv" --no-cache --sweep nosuch
expect 2 "--events: 'nosuch' is not one of the classes" eval --model "$model" \
    --manifest "$samples/samples.tsv" --no-cache --events speech,nosuch
expect 2 "--events: 'speech' is listed twice" eval --model "$model" \
    --manifest "$samples/samples.tsv" --no-cache --events speech,music,speech
expect 2 "--sweep: 'nosuch' is not one of the classes" eval --hyp "$samples" \
    --manifest "$samples/samples.tsv" --sweep nosuch
# a hypothesis frames table's class the references lack: the hint to list
# them all, as the other label files' readers give it
mkdir "$dir/refs" "$dir/hyp"
cp "$samples/speech.wav" "$dir/refs/s.wav"
printf '0\t5\tspeech\n' > "$dir/refs/s.txt"
printf 's.wav\ts.txt\n' > "$dir/refs/m.tsv"
"$SL_SEQLABEL" label "$dir/refs/s.wav" --format frames -o "$dir/hyp/" ||
    fail "label --format frames"
expect 1 "; a class the references lack: --classes names every class, the hypotheses' too" \
    eval --hyp "$dir/hyp" --manifest "$dir/refs/m.tsv"
expect 2 "--minutes" bench label --minutes x
expect 2 "not a list of 1 to 8 lengths" bench label --minutes 1,,2
expect 2 "--minutes needs a value" bench label --minutes
# bench label writes its WAV files in a folder of its own (mkdtemp), not at
# $TMPDIR/seqlabel_bench_<pid>_<i>.wav, where another user could put a link
# first (the shell that becomes the command plants one at that name: one pid),
# and removes it after; also when it cannot make it, or a write fails
mkdir "$dir/bench" && echo precious > "$dir/bench-victim"
TMPDIR=$dir/bench sh -c 'ln -s "$TMPDIR/../bench-victim" "$TMPDIR/seqlabel_bench_$$_0.wav" &&
    echo $$ > "$TMPDIR/../bench-pid" &&
    exec "$SL_SEQLABEL" bench label --minutes 0.01' > "$dir/bench-out" 2> "$dir/bench-err" ||
    fail "bench label: exit $?: $(cat "$dir/bench-err")"
[ "$(cat "$dir/bench-victim")" = precious ] || fail "bench label wrote through a planted link"
left=$(find "$dir/bench" -mindepth 1 ! -type l)
[ -z "$left" ] || fail "bench label left in TMPDIR: $left"
[ -L "$dir/bench/seqlabel_bench_$(cat "$dir/bench-pid")_0.wav" ] || fail "the planted link went"
grep -q '^ *0.01 ' "$dir/bench-out" || fail "bench label: no result: $(cat "$dir/bench-out")"
rm "$dir/bench/"*
# (valgrind keeps files of its own in $TMPDIR and cannot start without it:
# scripts/check-memory.sh says so with SL_VALGRIND; every other run checks)
if [ -z "${SL_VALGRIND:-}" ]; then
    (export TMPDIR="$absent"
     expect 1 "bench label: cannot make a folder in $absent: No such file" bench label --minutes 0.01
    ) || exit 1
fi
(trap '' XFSZ; ulimit -f 2; TMPDIR=$dir/bench exec "$SL_SEQLABEL" bench label --minutes 0.01 \
    > /dev/null 2> "$dir/bench-err") && fail "bench label: a write past the size limit passed"
grep -q "^seqlabel: $dir/bench/seqlabel_bench_....../0.wav: write failed" "$dir/bench-err" ||
    fail "bench label's failed write: $(cat "$dir/bench-err")"
[ -z "$(ls -A "$dir/bench")" ] || fail "bench label left after a failed write: $(ls -lA "$dir/bench")"
# ... and when a signal ends it: SIGTERM while it labels its file (which, and
# its folder, were left: a 60-minute run's 115 MB), SIGPIPE from a report
# whose reader is gone (the folder was left)
TMPDIR=$dir/bench "$SL_SEQLABEL" bench label --minutes 10 > /dev/null 2>&1 &
bench=$!
i=0
while [ -z "$(find "$dir/bench" -name '*.wav' 2>/dev/null)" ] && [ $i -lt 3000 ]; do
    sleep 0.01; i=$((i + 1))
done
kill -TERM $bench
wait $bench
[ $? -eq 143 ] || fail "bench label: SIGTERM did not end it"
[ -z "$(ls -A "$dir/bench")" ] || fail "bench label left after SIGTERM: $(ls -lAR "$dir/bench")"
TMPDIR=$dir/bench "$SL_SEQLABEL" bench label --minutes 0.01,0.01,0.01 2>/dev/null | head -c 1 > /dev/null
[ -z "$(ls -A "$dir/bench")" ] || fail "bench label left after SIGPIPE: $(ls -lAR "$dir/bench")"
# a run's measuring process ended by a signal (a CPU limit, a kill) fails that
# run alone: the folder and file are the parent's (the child's watch removed
# the folder, and every later run failed)
TMPDIR=$dir/bench "$SL_SEQLABEL" bench label --minutes 10,0.01 > "$dir/bench-out" \
    2> "$dir/bench-err" &
bench=$!
# (its child from /proc, field 4 of stat its parent: no procps needed)
child_of() { for p in /proc/[0-9]*; do
    [ "$(cut -d' ' -f4 "$p/stat" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"; done; }
i=0
while [ -z "$(child_of $bench)" ] && [ $i -lt 3000 ]; do
    sleep 0.01; i=$((i + 1))
done
kill -TERM "$(child_of $bench)"
wait $bench
[ $? -eq 1 ] || fail "bench label with its measuring process killed: not exit 1"
if ! grep -q "the 10-minute run failed" "$dir/bench-err" || grep -vq "run failed" "$dir/bench-err"
then
    fail "bench label with its measuring process killed: $(cat "$dir/bench-err")"
fi
grep -q '^ *0.01 ' "$dir/bench-out" || fail "bench label: no later run: $(cat "$dir/bench-out")"
[ -z "$(ls -A "$dir/bench")" ] || fail "bench label left after its run's kill: $(ls -lAR "$dir/bench")"
echo "ok: bench label writes in a folder of its own, removed after"
expect 2 "not a list of 1 to 8 integers" bench encoder --threads 1,,2
expect 2 "not two numbers of frames" bench encoder --band 1
expect 2 "not a list of 1 to 8 thread counts" bench train --threads 1,
expect 2 "--save-signal: a file, not standard output" bench features --save-signal -
# numbers as typed: a leading blank (a trailing one was refused) and C's hex
# floats are no numbers here; lists with an empty name, or empty, are refused
expect 2 "--threads: ' 2' is not an integer" label "$absent.wav" --threads ' 2'
expect 2 "--max-latency: '0x1p-3' is not a number" label "$absent.wav" --max-latency 0x1p-3
expect 2 "an empty name in the list" label "$samples/speech.wav" --skip ,noise
expect 2 "an empty name in the list" label "$samples/speech.wav" --only speech,
expect 2 "--min-duration: an empty list" label "$absent.wav" --min-duration ''
# options that would do nothing (their default given, or beside their opposite)
expect 2 "--event-collar goes with --events" eval --hyp "$absent" --manifest "$absent.tsv" \
    --event-collar 0.2
for cmd in "eval --hyp $absent --manifest $absent.tsv" "train --manifest $absent.tsv --out $dir/m.slm"; do
    # shellcheck disable=SC2086 # the words of each command
    expect 2 "--cache-dir and --no-cache: one or the other" $cmd --no-cache --cache-dir "$dir/c"
done
# an option refused says why: a prefix of several, a value glued to a flag,
# a missing value (each was "unknown option")
expect 2 "ambiguous option '--thr' (--threads, --threshold-on, --threshold-off)" label \
    "$absent.wav" --thr 2
expect 2 "option '--segments' takes no value ('--segments=1')" label "$absent.wav" \
    --segments=1 --format jsonl
expect 2 "option '--model' needs a value" eval --model
expect 2 "unknown option '--stepz'" train --manifest "$absent.tsv" --out "$dir/m.slm" --stepz 3
# a short option in a word after a long one is that word's (it was "--json")
expect 2 "unknown option '-z' (in '-zz')" eval --manifest "$absent.tsv" --json -zz
# ... but a value glued to a flag is that flag's fault, a short option after it or not
expect 2 "option '--quiet' takes no value ('--quiet=1')" label "$absent.wav" --quiet=1 -q
# help COMMAND is COMMAND --help; another word is no command
expect 2 "help: 'bogus' is not a command" help bogus
"$SL_SEQLABEL" help label > "$dir/help" || fail "seqlabel help label: exit $?"
"$SL_SEQLABEL" label --help | cmp -s - "$dir/help" || fail "seqlabel help label is not label --help"
expect 1 "$absent.wav" label "$absent.wav"
# an output folder that cannot be made fails the work, not the command line
: > "$dir/file"
expect 1 "$dir/file: cannot make this folder" label "$samples/speech.wav" -o "$dir/file/sub/"
expect 1 "$absent.wav" features "$absent.wav" -o "$dir/f.npy"
expect 1 "$absent.slm" eval --model "$absent.slm" --manifest "$absent.tsv"
expect 1 "$absent.tsv" train --manifest "$absent.tsv" --out "$dir/m.slm" --no-cache
expect 1 "$absent.slm" info "$absent.slm"
expect 1 "$absent.slm" average -o "$dir/m.slm" "$absent.slm"
# a name quoted from a file (a manifest's line, an uploaded folder's file) is
# shown with its control bytes as \xNN: a terminal is not sent its escapes
printf '%s\tlab.txt\n' "$(printf 'x\033[2Jy.wav')" > "$dir/esc.tsv"
expect 1 'esc.tsv:1: '"$dir"'/x\x1b[2Jy.wav: cannot open' eval --model "$SL_SOURCE_ROOT/model/default.slm" \
    --manifest "$dir/esc.tsv" --no-cache
if grep -q "$(printf '\033')" "$dir/err"; then fail "a raw escape reached stderr"; fi
# a C1 control byte alone (not UTF-8: CSI to an 8-bit terminal) too
printf '%s\tlab.txt\n' "$(printf 'x\233y.wav')" > "$dir/c1.tsv"
expect 1 'c1.tsv:1: '"$dir"'/x\x9by.wav: cannot open' eval --model "$SL_SOURCE_ROOT/model/default.slm" \
    --manifest "$dir/c1.tsv" --no-cache
# ... also after a byte that is no UTF-8 (Windows-1252's é), and a right-to-left
# override, which would reorder the rest of the line
printf '%s\tlab.txt\n' "$(printf 'x\351\233y.wav')" > "$dir/l1.tsv"
expect 1 'l1.tsv:1: '"$dir"'/x\xe9\x9by.wav: cannot open' eval --model "$SL_SOURCE_ROOT/model/default.slm" \
    --manifest "$dir/l1.tsv" --no-cache
expect 1 'x\xe2\x80\xaey.wav: cannot open' label "$dir/x$(printf '\342\200\256')y.wav"
# a carriage return in a name the audio reader refuses: shown, not made a
# space, which named another file ("n x.wav")
echo junk > "$dir/n$(printf '\r')x.wav"
expect 1 '/n\x0dx.wav: not an audio file' label "$dir/n$(printf '\r')x.wav"
