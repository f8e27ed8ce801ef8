#!/bin/sh
# A manual page from the command's own --help, so it says what the code does:
# make-man.sh SEQLABEL OUT [COMMAND] DESCRIPTION  (no COMMAND: the overview page).
set -eu
seqlabel=$1 out=$2
if [ $# -ge 4 ]; then cmd=$3 desc=$4; else cmd= desc=$3; fi
help2man --no-info --no-discard-stderr --name="$desc" --section=1 \
  --include="$(dirname "$0")/see-also.h2m" \
  --help-option="${cmd:+$cmd }--help" --version-option=--version "$seqlabel" > "$out.tmp"
if [ -n "$cmd" ]; then
  # help2man names the page after the program; this one is the command's
  sed -i -e "s/^\.TH SEQLABEL /.TH SEQLABEL-$(echo "$cmd" | tr a-z A-Z) /" \
    -e "s/^seqlabel \\\\- /seqlabel-$cmd \\\\- /" "$out.tmp"
fi
mv "$out.tmp" "$out"
