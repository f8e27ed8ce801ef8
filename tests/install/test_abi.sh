#!/bin/sh
# seqlabel.h's declarations (comments and spacing aside) are the ones recorded
# for this version in abi-fingerprint, and the header says the project's
# version: a change to the public structs or functions is then a decision, not
# an accident. An incompatible one (a struct's size or fields, a function's
# arguments) raises the minor version in meson.build and SL_VERSION_STRING, so
# the soname moves (README: a program never loads a library of another ABI);
# a compatible one (an addition) records the new fingerprint alone.
# Usage: test_abi.sh SOURCE_ROOT CC VERSION
set -u
fail() { echo "FAIL: $*"; exit 1; }
src=$1 cc=$2 version=$3
header=$src/include/seqlabel.h record=$src/tests/install/abi-fingerprint
said=$(sed -n 's/^#define SL_VERSION_STRING "\(.*\)"$/\1/p' "$header")
[ "$said" = "$version" ] ||
    fail "seqlabel.h says SL_VERSION_STRING \"$said\", meson.build version $version"
sum=$("$cc" -fpreprocessed -dD -E -P -x c "$header" | tr -s ' \t\n' ' ' | sha256sum | cut -c1-64) ||
    fail "cannot read the declarations of $header"
[ ${#sum} -eq 64 ] || fail "no fingerprint of $header"
read -r rec_version rec_sum < "$record" || fail "cannot read $record"
if [ "$rec_version" != "$version" ] || [ "$rec_sum" != "$sum" ]; then
    fail "seqlabel.h's declarations are not those recorded for $rec_version in $record
(recorded $rec_sum, now $sum at version $version). If the change is incompatible
(a struct's size or fields, a function's arguments or meaning), raise the minor
version in meson.build and SL_VERSION_STRING; then record: echo '$version $sum' > $record"
fi
echo "ok: seqlabel.h's declarations are those recorded for $version ($sum)"
