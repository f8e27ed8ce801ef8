#!/bin/bash
# The bash completion (tools/completion/seqlabel.bash) run as bash runs it:
# commands, each command's options as its --help lists them (so --sweep of eval,
# added later, completes with no change to the script), the fixed lists of
# values, and model files for --model.
# Usage: test_completion.sh COMPLETION_SCRIPT (SL_SEQLABEL: the built command)
set -u
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=/dev/null
source "$1" || fail "cannot source $1"
# completes: the words typed (the last one being completed); prints COMPREPLY
completes() {
    COMP_WORDS=("$SL_SEQLABEL" "$@")
    COMP_CWORD=$#
    _seqlabel
    printf '%s\n' "${COMPREPLY[@]}"
}
expect() { # expect WANT WORDS...: WANT (a line) among the completions
    local want=$1
    shift
    completes "$@" | grep -qxF -- "$want" || fail "'seqlabel $*' does not complete to '$want': $(completes "$@" | tr '\n' ' ')"
}
only() { # only WANT WORDS...: WANT is the one completion
    local want=$1 got
    shift
    got=$(completes "$@" | tr '\n' ' ')
    [ "$got" = "$want " ] || fail "'seqlabel $*' completes to '$got', want '$want'"
}
only label la
only help he
# seqlabel help COMMAND: the commands, not files
only label help la
got=$(completes help "" | sort | tr '\n' ' ')
[ "$got" = "average bench eval features info label train " ] || fail "'seqlabel help' completes to '$got'"
# --format=VALUE: bash gives the words --format, '=' and the value typed
only csv label --format = c
got=$(completes label --format = | sort | tr '\n' ' ')
[ "$got" = "audacity csv frames jsonl rttm srt summary textgrid webvtt " ] || fail "'--format=' completes to '$got'"
only --format=csv label --format=c  # a COMP_WORDBREAKS without '='
only now label --time-origin n
only file label --time-origin f
only --format label --form
only jsonl label --format j
only summary label --format su
only npy features --format n
only valid eval --split v
only viterbi label --smoothing v
only gelu train --activation g
expect --sweep eval --sw
expect --per-file eval --per
expect --events eval --ev
only all eval --events a
expect --jobs label --j
expect --only-classes label --only
expect --raw-format features --raw
# every option label's --help lists completes
for opt in $("$SL_SEQLABEL" label --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
    expect "$opt" label "$opt"
done
# every fixed list of values an option line gives ("--window NAME
# povey|hann|...") completes to exactly that list; eval's "--events all|a,b"
# (a list of one's own after all) is the one such line not a fixed list
for cmd in label features train eval; do
    while read -r opt list; do
        want=$(tr '|' '\n' <<< "$list" | sort | tr '\n' ' ')
        got=$(completes "$cmd" "$opt" "" | sort | tr '\n' ' ')
        [ "$got" = "$want" ] || fail "'seqlabel $cmd $opt' completes to '$got', its --help gives '$want'"
    done < <("$SL_SEQLABEL" "$cmd" --help | grep -E -- '^  --' |
             sed -nE 's/^  (--[a-z][a-z0-9-]*).*[ :]([a-z0-9]+(\|[a-z0-9]+)+)($|[ ,]).*/\1 \2/p' |
             grep -v '^--events ')
done
# and nothing else: no hyphenated words of the prose ("speech-vs-rest",
# "8-bit"), no options of other commands a help names (eval's names label's
# --format and -o; bench's lists all four benches')
never() { # never NOT WORDS...: NOT is not among the completions
    local not=$1
    shift
    ! completes "$@" | grep -qxF -- "$not" || fail "'seqlabel $*' offers '$not'"
}
never -vs-rest eval -
never --format eval -
never -o eval -
never -bit train -
never -epoch train -
never -mel features -
never --minutes bench encoder -
expect --minutes bench label -
# options the usage lines alone name: eval's --model and --manifest, average's -o
expect --model eval --m
expect --manifest eval --m
expect -o average -
# each command's --help lists every option it takes: --help itself, average's
# long name, the element's names eval takes as label does
for cmd in label features info train eval average; do
    expect --help "$cmd" --he
done
expect --output average --o
for opt in --target-class --threshold-on --threshold-off --min-durations; do
    expect "$opt" eval "$opt"
done
only --windows bench encoder --win
only encoder bench enc
# --model: model files and folders, not other files
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/sub"
touch "$dir/m.slm" "$dir/m.txt"
got=$(completes label --model "$dir/" | sort | tr '\n' ' ')
[ "$got" = "$dir/m.slm $dir/sub " ] || fail "--model completes to '$got'"
# label --split wants a folder; eval --split a split's name
got=$(completes label --split "$dir/" | tr '\n' ' ')
[ "$got" = "$dir/sub " ] || fail "label --split completes to '$got'"
# glued (a COMP_WORDBREAKS without '='): the option stays before the name
got=$(completes label --model="$dir/" | sort | tr '\n' ' ')
[ "$got" = "--model=$dir/m.slm --model=$dir/sub " ] || fail "--model= completes to '$got'"
got=$(completes label --split="$dir/" | tr '\n' ' ')
[ "$got" = "--split=$dir/sub " ] || fail "--split= completes to '$got'"
echo "completion: ok"
