#!/bin/sh
# A manual page from the command's own --help, so it says what the code does:
# make-man.sh SEQLABEL OUT [COMMAND] DESCRIPTION  (no COMMAND: the overview page).
set -eu
seqlabel=$1 out=$2
if [ $# -ge 4 ]; then cmd=$3 desc=$4; else cmd='' desc=$3; fi
# help2man runs the program through the shell, which would split a path with a
# blank in it ("My Projects"): it runs ./seqlabel in its folder, the other
# paths made absolute first
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
see_also=$(cd "$(dirname "$0")" && pwd)/see-also.h2m
synopsis=$out.synopsis.h2m
trap 'rm -f "$synopsis" "$out.tmp"' EXIT
# a command that cannot run here makes no page (help2man would render its error)
# shellcheck disable=SC2086 # no command: the overview's help
"$seqlabel" $cmd --help > /dev/null ||
  { echo "make-man.sh: '$seqlabel${cmd:+ $cmd} --help' failed: no manual page (-Dman=disabled)" >&2; exit 1; }
# SYNOPSIS from the help's usage lines (help2man takes only "Usage:" for one)
{
  echo "[SYNOPSIS]"
  # shellcheck disable=SC2086 # no command: the overview's help
  "$seqlabel" $cmd --help | sed -n '1,/^$/p' |
    sed -n 's/^usage: *//p; s/^ \{7\}\(seqlabel .*\)/\1/p' | sed 's/$/\n.br/'
} > "$synopsis"
(cd "$(dirname "$seqlabel")" &&
  help2man --no-info --no-discard-stderr --name="$desc" --section=1 \
    --include="$see_also" --include="$synopsis" --help-option="${cmd:+$cmd }--help" \
    --version-option=--version "./$(basename "$seqlabel")") > "$out.tmp"
if [ -n "$cmd" ]; then
  # help2man names the page after the program; this one is the command's
  sed -i -e "s/^\.TH SEQLABEL /.TH SEQLABEL-$(echo "$cmd" | tr '[:lower:]' '[:upper:]') /" \
    -e "s/^seqlabel \\\\- /seqlabel-$cmd \\\\- /" "$out.tmp"
fi
# no hyphenation: man broke option names at its line ends (--smooth-/ing-lag,
# with U+2010), which a screen reader reads aloud and a copy makes unknown
sed -i '/^\.TH /a .nh' "$out.tmp"
mv "$out.tmp" "$out"
