#!/bin/sh
# Where `meson install` puts things, by prefix (meson introspect of a fresh
# configuration, nothing built): under a prefix of one's own every file stays
# below it, the GStreamer plugin in <prefix>/<libdir>/gstreamer-1.0; under
# /usr/local (sudo meson install's default) the plugin goes to GStreamer's own
# plugin directory, where GStreamer finds it with no setting.
# Usage: test_prefix.sh SOURCE_DIR
set -u
fail() { echo "FAIL: $*"; exit 1; }
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the destinations of `meson introspect --installed` (its JSON's values), one a line
installed() {
    meson setup "$tmp/$1" "$src" --prefix="$2" -Dtests=false -Dman=disabled > "$tmp/$1.log" 2>&1 ||
        fail "meson setup --prefix=$2: $(tail -3 "$tmp/$1.log")"
    meson introspect "$tmp/$1" --installed | tr ',' '\n' | sed -n 's/.*": *"\([^"]*\)".*/\1/p'
}
own=$tmp/own
installed own "$own" > "$tmp/own.txt"
grep -q "^$own/lib[^ ]*/gstreamer-1.0/libgstseqlabel.so\$" "$tmp/own.txt" ||
    fail "under --prefix=$own the plugin is not in its libdir's gstreamer-1.0: $(grep gstseqlabel "$tmp/own.txt")"
outside=$(grep -v "^$own/" "$tmp/own.txt")
[ -z "$outside" ] || fail "under --prefix=$own, installed outside it: $outside"
installed local /usr/local > "$tmp/local.txt"
grep -qx "$(pkg-config --variable=pluginsdir gstreamer-1.0)/libgstseqlabel.so" "$tmp/local.txt" ||
    fail "under /usr/local the plugin is not in GStreamer's plugin directory: $(grep gstseqlabel "$tmp/local.txt")"
echo "ok: the plugin below a prefix of one's own, in GStreamer's folder under /usr/local"
