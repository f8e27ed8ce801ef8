#!/bin/sh
# seqlabel.h's declarations (comments and spacing aside) are the ones recorded
# for this version in abi-fingerprint, and the header says the project's
# version: a change to the public structs or functions is then a decision, not
# an accident. An incompatible one (a struct's size or fields, a function's
# arguments) raises the minor version in meson.build and SL_VERSION_STRING, so
# the soname moves (README: a program never loads a library of another ABI);
# a compatible one (an addition) records the new fingerprint alone.
# Usage: test_abi.sh SOURCE_ROOT VERSION
set -u
fail() { echo "FAIL: $*"; exit 1; }
src=$1 version=$2
header=$src/include/seqlabel.h record=$src/tests/install/abi-fingerprint
said=$(sed -n 's/^#define SL_VERSION_STRING "\(.*\)"$/\1/p' "$header")
[ "$said" = "$version" ] ||
    fail "seqlabel.h says SL_VERSION_STRING \"$said\", meson.build version $version"
# The declarations: the header without its comments, blanks made one space,
# by perl (Debian's perl-base is essential), not a compiler's preprocessor,
# whose output differs between compilers and versions
decl=$(perl -0777 -pe 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g' "$header") ||
    fail "cannot read the declarations of $header"
[ -n "$decl" ] || fail "no declarations in $header"
sum=$(printf '%s' "$decl" | tr -s ' \t\n' ' ' | sha256sum | cut -c1-64)
read -r rec_version rec_sum < "$record" || fail "cannot read $record"
if [ "$rec_version" != "$version" ] || [ "$rec_sum" != "$sum" ]; then
    fail "seqlabel.h's declarations are not those recorded for $rec_version in $record
(recorded $rec_sum, now $sum at version $version). If the change is incompatible
(a struct's size or fields, a function's arguments or meaning), raise the minor
version in meson.build and SL_VERSION_STRING; then record: echo '$version $sum' > $record"
fi
echo "ok: seqlabel.h's declarations are those recorded for $version ($sum)"
