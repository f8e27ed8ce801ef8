#!/bin/sh
# The public header compiles alone, warning-free and pedantic, under every C
# standard from C89 (GNU's) to C17 and as C++ from C++98 (its extern "C"): a
# program's own -std and -pedantic -Werror must not break on it.
# Usage: test_header.sh INCLUDE_DIR CC
set -u
fail() { echo "FAIL: $*"; exit 1; }
inc=$1 cc=$2
for std in gnu89 c99 c11 c17; do
    out=$(echo '#include <seqlabel.h>' |
        "$cc" -std=$std -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$inc" -x c - 2>&1) ||
        fail "-std=$std: $out"
done
for std in c++98 c++11 c++17; do
    out=$(echo '#include <seqlabel.h>' |
        g++ -std=$std -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$inc" -x c++ - 2>&1) ||
        fail "g++ -std=$std: $out"
done
echo "ok: seqlabel.h under gnu89, c99, c11, c17, c++98, c++11, c++17"
