#!/bin/sh
# The manual pages help2man made at build time (tools/man/) keep the layout of
# each command's --help: every item of a list there (an option, a --format
# value, a command: a line indented 2 to 4 spaces whose name ends at a gap of
# two or more) is a tagged paragraph of its own in the page, with the name alone
# on its line as groff sets it (a name shorter than the tag indent shares the
# line with its text), so no item runs into the one before it; groff finds
# nothing to warn about; nothing is hyphenated; the page names its command;
# and --help fits in 80 columns.
# Usage: test_man_pages.sh MAN_DIR (SL_SEQLABEL: the built command)
set -u
fail() { echo "FAIL: $*"; exit 1; }
man_dir=$1
pages=0 bad=0
for cmd in "" label features info train eval average bench; do
    page=$man_dir/seqlabel${cmd:+-$cmd}.1
    [ -s "$page" ] || fail "$page is missing or empty"
    # shellcheck disable=SC2086 # no command: the overview's help
    help=$("$SL_SEQLABEL" $cmd --help) || fail "seqlabel $cmd --help exited $?"
    # a terminal's 80 columns (the model paths, which vary by build, aside)
    long=$(printf '%s\n' "$help" | grep -v 'default\.slm' | awk 'length > 80')
    [ -z "$long" ] || fail "seqlabel $cmd --help has lines over 80 columns: $long"
    # installed pages say nothing of the machine they were built on
    ! grep -qF "$SL_SOURCE_ROOT" "$page" || fail "$page names the source tree $SL_SOURCE_ROOT"
    # at narrow widths no word is hyphenated (U+2010 at a line's end), nor a
    # name broken at its own hyphen (an option, a page, a file, a command:
    # --smooth-/ing-lag, gst-/inspect-1.0 read aloud as two words and copy as
    # nothing there is); prose's compounds (log-/mel) may break
    for width in 40 50 60 80; do
        cut=$(groff -man -Tutf8 -rLL=${width}n -P-cbou "$page" 2>/dev/null | awk '
            broken != "" { sub(/^ +/, ""); split($0, w, " "); name = broken w[1]
                           if (name ~ /^(-|seqlabel)/ || name ~ /[0-9.\/]/) print name; broken = "" }
            /‐$/ { print "hyphenated: " $NF }
            /[^ ]-$/ { broken = $NF }')
        [ -z "$cut" ] || fail "$page at $width columns: names cut at the line's end: $cut"
    done
    warnings=$(groff -man -ww -z "$page" 2>&1)
    [ -z "$warnings" ] || fail "groff warns about $page: $warnings"
    # wide enough that no tag or name wraps; no bold, underline or overstrike
    text=$(groff -man -Tutf8 -rLL=250n -P-cbou "$page" 2>/dev/null | sed 's/\xe2\x88\x92/-/g; s/\xe2\x80\x90/-/g')
    name="seqlabel${cmd:+-$cmd} - "
    printf '%s\n' "$text" | grep -q "^ *$name" || fail "$page: no NAME line '$name...'"
    # a SYNOPSIS of the help's usage line(s)
    usage=$(printf '%s\n' "$help" | sed -n '1s/^usage: *//p')
    printf '%s\n' "$text" | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | grep -qxF "       $usage" ||
        fail "$page: no SYNOPSIS line '$usage'"
    items=$(printf '%s\n' "$help" | sed -n 's/^ \{2,4\}\([^ ].*[^ ]\)  .*$/\1/p; s/^ \{2,4\}\(-[^ ]*\( [^ ]*\)\{0,1\}\)$/\1/p' |
        sed 's/  .*//')
    [ -n "$items" ] || fail "seqlabel $cmd --help: no list items found"
    n=0
    while IFS= read -r item; do
        [ -n "$item" ] || continue
        n=$((n + 1))
        if printf '%s\n' "$text" | grep -qxF "       $item"; then continue; fi
        # a short name shares its line with the text
        if [ ${#item} -lt 7 ] && printf '%s\n' "$text" | grep -qF "       $item " &&
            printf '%s\n' "$text" | grep -F "       $item " | grep -qv "^       $item  *-"; then
            continue
        fi
        echo "FAIL: $page: the item '$item' of 'seqlabel $cmd --help' is not a paragraph of its own:"
        printf '%s\n' "$text" | grep -F -- "$item" | head -3
        bad=$((bad + 1))
    done <<EOF
$items
EOF
    echo "$page: $n items"
    pages=$((pages + 1))
done
[ "$bad" -eq 0 ] || fail "$bad items run into others"
[ "$pages" -eq 8 ] || fail "checked $pages pages, not 8"
echo "ok"
