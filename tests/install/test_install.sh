#!/bin/sh
# `meson install` into a staging directory (DESTDIR) puts every piece where the
# README says, and the installed pieces work as a user would use them:
# - the command, library, headers, pkg-config files, default model (the
#   committed one, byte for byte), manual pages and GStreamer plugin are there;
# - the library's soname is the one its version gives: libseqlabel.so.0.MINOR
#   before 1.0, where any minor version may change the ABI, then .so.MAJOR;
# - the plugin finds libseqlabel in the prefix's libdir by its RUNPATH (a
#   prefix ldconfig does not know works too); the command carries the library
#   in itself, and looks for the default model where it was installed;
# - neither the command nor the library loads a model that a
#   seqlabel-source-root in a folder above the prefix names (anyone may write
#   /tmp/seqlabel-source-root);
# - libseqlabel.so exports exactly the functions seqlabel.h declares;
# - no source or build path is compiled into the command, library or plugin;
# - examples/label_file.c, built with -Werror against the installed header and
#   `pkg-config seqlabel`, prints the segments `seqlabel label` prints;
# - examples/vad_stream.c, built the same way, finds on raw samples read from a
#   pipe the speech segments `seqlabel label --target speech` finds;
# - examples/read_metas.c, built against the installed meta header through
#   `pkg-config gstreamer-seqlabel-1.0`, reads from the installed plugin the
#   frames `seqlabel label --format frames` gives.
# Staged files live elsewhere than their RUNPATH, so they run here with
# LD_LIBRARY_PATH set to the staged libdir.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR CC (env: SL_PREFIX SL_BINDIR
# SL_LIBDIR SL_INCLUDEDIR SL_DATADIR SL_MANDIR SL_PLUGINSDIR, meson's options;
# SL_RUNPATH the RUNPATH installed binaries get, empty for none;
# SL_PLUGINSDIR empty when the plugin is not built; SL_EXAMPLE_CFLAGS the
# sanitizer flags of the build; SL_SEQLABEL the built command; SL_VERSION
# the project's version)
set -u
fail() { echo "FAIL: $*"; exit 1; }
build=$1 src=$2 cc=$3
tmp=$(mktemp -d)
# meson install records what it installed in the build's install-log.txt, which
# `ninja uninstall` reads: the staged install's log would leave a real
# install's files behind, so the log there before is put back
log=$build/meson-logs/install-log.txt
if [ -e "$log" ]; then cp "$log" "$tmp/install-log.txt"; fi
restore_log() {
    if [ -e "$tmp/install-log.txt" ]; then cp "$tmp/install-log.txt" "$log"; else rm -f "$log"; fi
}
trap 'restore_log; rm -rf "$tmp"' EXIT
root=$tmp/root
abs() { case $1 in /*) echo "$1" ;; *) echo "$SL_PREFIX/$1" ;; esac; }
bindir=$(abs "$SL_BINDIR") libdir=$(abs "$SL_LIBDIR") includedir=$(abs "$SL_INCLUDEDIR")
datadir=$(abs "$SL_DATADIR") mandir=$(abs "$SL_MANDIR")

DESTDIR='' meson install -C "$build" --destdir "$root" --no-rebuild > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "meson install exited $?"; }

# the library as -Ddefault_library asks: shared (the default), static or both
shared='' static=''
case ${SL_LIBRARY_KIND:-shared} in shared) shared=1 ;; static) static=1 ;; *) shared=1 static=1 ;; esac
# the soname README promises, worked out here from the version, not taken from
# meson.build: 0.MINOR while the major version is 0, else the major alone
major=${SL_VERSION%%.*} minor=${SL_VERSION#*.}
minor=${minor%%.*}
case $major in 0) soname=libseqlabel.so.0.$minor ;; *) soname=libseqlabel.so.$major ;; esac
if [ -n "$shared" ]; then
    got=$(readelf -d "$root$libdir/libseqlabel.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$got" = "$soname" ] || fail "libseqlabel.so's soname is '$got', not $soname (version $SL_VERSION)"
    echo "libseqlabel.so: soname $got"
fi
for f in "$bindir/seqlabel" ${shared:+"$libdir/libseqlabel.so" "$libdir/$soname"} \
    ${static:+"$libdir/libseqlabel.a"} "$includedir/seqlabel.h" "$libdir/pkgconfig/seqlabel.pc" "$datadir/seqlabel/default.slm" \
    "$datadir/bash-completion/completions/seqlabel" "$datadir/doc/seqlabel/labeling.md" \
    "$datadir/doc/seqlabel/element.md"; do
    [ -e "$root$f" ] || fail "not installed: $f"
done
[ -x "$root$bindir/seqlabel" ] || fail "$bindir/seqlabel is not executable"
# every document of docs/, which point to each other, beside the README
for f in "$src"/README.md "$src"/docs/*.md; do
    [ -e "$root$datadir/doc/seqlabel/${f##*/}" ] || fail "not installed: $datadir/doc/seqlabel/${f##*/}"
done
cmp "$root$datadir/seqlabel/default.slm" "$src/model/default.slm" ||
    fail "the installed default model is not model/default.slm"
# (unless -Dman=disabled, or a cross build)
[ "${SL_MAN_PAGES:-1}" = 0 ] ||
for page in seqlabel seqlabel-label seqlabel-features seqlabel-info seqlabel-train \
    seqlabel-eval seqlabel-average seqlabel-bench; do
    [ -s "$root$mandir/man1/$page.1" ] || fail "no manual page $mandir/man1/$page.1"
done

# no path of the source or build tree is compiled into what is installed (a
# package's binaries would differ by where they were built; an uninstalled
# build finds its source tree's model at run time, model/default_model.c);
# debug information, which names its build folder, is a package's to split off
for f in "$bindir/seqlabel" ${shared:+"$libdir/$soname"} ${SL_PLUGINSDIR:+"$SL_PLUGINSDIR/libgstseqlabel.so"}; do
    "${SL_OBJCOPY:-objcopy}" --strip-debug "$root$f" "$tmp/stripped" ||
        fail "objcopy --strip-debug $f exited $?"
    for tree in "$(cd "$src" && pwd -P)" "$(cd "$build" && pwd -P)"; do
        ! grep -aqF "$tree/" "$tmp/stripped" || fail "$f holds the path $tree/"
    done
    # nor the way from the build folder to the source's (__FILE__: ../plugin/x.c);
    # a sanitizer's build names its sources in its reports, as it must
    readelf -d "$root$f" | grep -q 'NEEDED.*lib\(a\|ub\)san' ||
    ! grep -aqE '\.\./([^ ]*/)?(plugin|model|io|features|common|tools)/[a-z_]+\.c' "$tmp/stripped" ||
        fail "$f holds a source file's path from the build folder: $(grep -aoE \
            '\.\./([^ ]*/)?(plugin|model|io|features|common|tools)/[a-z_]+\.c' "$tmp/stripped" | head -1)"
done

runpath() { readelf -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p'; }
# the command links the library's archive (its benches reach inside): no
# libseqlabel to find, so no RUNPATH
readelf -d "$root$bindir/seqlabel" | grep -q 'NEEDED.*libseqlabel' &&
    fail "seqlabel needs libseqlabel.so, whose API does not hold what its benches use"
[ -z "$(runpath "$root$bindir/seqlabel")" ] ||
    fail "seqlabel has the RUNPATH '$(runpath "$root$bindir/seqlabel")', needing none"

# the library exports the functions the installed header declares, no more, no
# fewer: internals stay hidden (meson.build; a static archive has no exports)
if [ -n "$shared" ]; then
"$cc" -E -P -x c "$root$includedir/seqlabel.h" | grep -o '\bsl_[A-Za-z0-9_]*[[:space:]]*(' |
    tr -d '( \t' | sort -u > "$tmp/declared.txt"
nm -D --defined-only "$root$libdir/libseqlabel.so" | awk '{ print $3 }' | sort -u > "$tmp/exported.txt"
[ "$(wc -l < "$tmp/declared.txt")" -gt 100 ] || fail "read too few functions off seqlabel.h"
comm -3 "$tmp/declared.txt" "$tmp/exported.txt" > "$tmp/api-diff.txt"
[ ! -s "$tmp/api-diff.txt" ] || {
    sed 's/^\t/exported, not declared: /; t; s/^/declared, not exported: /' "$tmp/api-diff.txt"
    fail "libseqlabel.so exports other functions than seqlabel.h declares"
}
echo "libseqlabel.so: $(wc -l < "$tmp/exported.txt") functions exported, those of seqlabel.h"
fi

export LD_LIBRARY_PATH="$root$libdir"
installed=$root$bindir/seqlabel
"$installed" label --help | tr -s ' \n' '  ' | grep -qF "the installed default $datadir/seqlabel/default.slm" ||
    fail "the installed command does not look for the default model in $datadir/seqlabel"
# without SEQLABEL_MODEL the installed command takes the model at its installed
# place, never the source tree's: an installed library falls back to no build path,
# nor to a tree that a seqlabel-source-root above its prefix names. Every folder
# from $tmp down to the staged bindir's, libdir's and plugin folder's parents holds
# one, naming a tree whose model/default.slm loads (model/default_model.c looks for
# the file where meson's layout of the build folder puts it alone), but libdir
# itself (the plugin's parent where it lies in <libdir>/gstreamer-1.0): beside
# the library is where a build folder's top has it, and a file there is the
# library's own folder's, as much the installer's as the library itself
mkdir -p "$tmp/evilsrc/model" || fail "cannot make $tmp/evilsrc"
cp "$src/model/default.slm" "$tmp/evilsrc/model/" || fail "cannot copy the model into $tmp/evilsrc"
for d in "$root$bindir" "$root$libdir" ${SL_PLUGINSDIR:+"$root$SL_PLUGINSDIR"}; do
    d=${d%/*}
    while case $d in "$tmp" | "$tmp"/*) true ;; *) false ;; esac; do
        [ "$d" = "$root$libdir" ] ||
            printf '%s\n' "$tmp/evilsrc" > "$d/seqlabel-source-root" || fail "cannot write $d/seqlabel-source-root"
        d=${d%/*}
    done
done
if [ -e "$datadir/seqlabel/default.slm" ]; then # a real install at this prefix
    (unset SEQLABEL_MODEL; "$installed" label "$src/samples/speech.wav" > /dev/null) ||
        fail "the installed command does not label with $datadir/seqlabel/default.slm"
else
    (unset SEQLABEL_MODEL; "$installed" label "$src/samples/speech.wav" > /dev/null 2> "$tmp/nomodel.err")
    rc=$?
    # naming the installed place alone: the source tree's is never looked at
    if [ "$rc" != 1 ] || ! grep -qF "no model: give --model PATH" "$tmp/nomodel.err" ||
        ! grep -qF "(no default model at $datadir/seqlabel/default.slm)" "$tmp/nomodel.err"; then
        fail "the staged command, with no model installed, exited $rc: $(cat "$tmp/nomodel.err")"
    fi
fi
export SEQLABEL_MODEL="$root$datadir/seqlabel/default.slm"
"$installed" label "$src/samples/mixture.wav" > "$tmp/installed.txt" || fail "installed seqlabel label exited $?"
"$SL_SEQLABEL" label "$src/samples/mixture.wav" > "$tmp/built.txt" || fail "seqlabel label exited $?"
cmp "$tmp/installed.txt" "$tmp/built.txt" || fail "the installed command labels otherwise than the built one"
[ "$(wc -l < "$tmp/built.txt")" -ge 10 ] || fail "too few segments in $tmp/built.txt"

# pkg-config files as a relocated install has them: prefix moved under $root
mkdir "$tmp/pc"
for pc in "$root$libdir"/pkgconfig/*.pc; do
    sed "s|^prefix=.*|prefix=$root$SL_PREFIX|" "$pc" > "$tmp/pc/${pc##*/}"
done
export PKG_CONFIG_PATH="$tmp/pc"
# a program needs the shared library alone: no dependency's -dev package nor
# include folder (seqlabel.h includes <stddef.h> and <stdint.h> only); with the
# archive alone (static) the dependencies are the .pc's Requires, which --libs
# gives
if [ -z "$static" ]; then
    [ -z "$(pkg-config --print-requires-private seqlabel)" ] ||
        fail "seqlabel.pc asks for $(pkg-config --print-requires-private seqlabel | tr '\n' ' ')"
    [ "$(pkg-config --cflags seqlabel | xargs)" = "-I$(pkg-config --variable=includedir seqlabel)" ] ||
        fail "pkg-config --cflags seqlabel gives more than its include folder: $(pkg-config --cflags seqlabel)"
fi
# shellcheck disable=SC2046,SC2086 # pkg-config's words, the flags' words
"$cc" -std=c11 -Wall -Wextra -Werror $SL_EXAMPLE_CFLAGS -o "$tmp/label_file" "$src/examples/label_file.c" \
    $(pkg-config --cflags --libs seqlabel) || fail "examples/label_file.c does not build against the install"
"$tmp/label_file" "$src/samples/mixture.wav" > "$tmp/example.txt" || fail "label_file exited $?"
cmp "$tmp/example.txt" "$tmp/built.txt" || fail "examples/label_file.c prints otherwise than seqlabel label"
# the installed library (or, static, the program) finds no model either
if [ ! -e "$datadir/seqlabel/default.slm" ]; then
    (unset SEQLABEL_MODEL; "$tmp/label_file" "$src/samples/speech.wav" > /dev/null 2>&1) &&
        fail "examples/label_file.c, with no model installed, loaded the one a seqlabel-source-root above names"
fi
find "$tmp" -name seqlabel-source-root -exec rm -f {} + || fail "cannot remove the seqlabel-source-root files"
echo "the command and examples/label_file.c: $(wc -l < "$tmp/built.txt") segments, the same"

# examples/vad_stream.c on the WAV's raw samples (a canonical 44-byte header) says
# speech starts and ends where `seqlabel label --target speech` has its segments
[ "$(dd if="$src/samples/mixture.wav" bs=1 skip=36 count=4 2>/dev/null)" = data ] ||
    fail "samples/mixture.wav's samples do not start at byte 44"
# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $SL_EXAMPLE_CFLAGS -o "$tmp/vad_stream" "$src/examples/vad_stream.c" \
    $(pkg-config --cflags --libs seqlabel) || fail "examples/vad_stream.c does not build against the install"
tail -c +45 "$src/samples/mixture.wav" | "$tmp/vad_stream" > "$tmp/vad.txt" || fail "vad_stream exited $?"
awk -F'\t' '$2 == "speech starts" { s = $1 } $2 == "speech ends" { print s "\t" $1 }' "$tmp/vad.txt" > "$tmp/vad-segments.txt"
"$SL_SEQLABEL" label "$src/samples/mixture.wav" --target speech |
    awk -F'\t' '$3 == "speech" { printf "%.2f\t%.2f\n", $1, $2 }' > "$tmp/speech.txt"
[ -s "$tmp/speech.txt" ] || fail "no speech segment in samples/mixture.wav"
cmp "$tmp/vad-segments.txt" "$tmp/speech.txt" || fail "examples/vad_stream.c finds other speech than seqlabel label --target speech"
echo "examples/vad_stream.c: $(wc -l < "$tmp/speech.txt") speech segments, those of the command"

if [ -n "$SL_PLUGINSDIR" ]; then
    plugin=$root$SL_PLUGINSDIR/libgstseqlabel.so
    [ -e "$plugin" ] || fail "not installed: $SL_PLUGINSDIR/libgstseqlabel.so"
    [ -e "$root$includedir/gstreamer-1.0/gst/seqlabel/gstseqlabelmeta.h" ] || fail "no meta header"
    [ "$(runpath "$plugin")" = "$SL_RUNPATH" ] ||
        fail "the plugin's RUNPATH is '$(runpath "$plugin")', not '$SL_RUNPATH'"
    # it exports what GStreamer looks for alone: no element internals, and in a
    # static build no libseqlabel of its own to bind with another
    extra=$(nm -D --defined-only "$plugin" | awk '{ print $3 }' | grep -v '^gst_plugin_seqlabel_')
    [ -z "$extra" ] || fail "the plugin exports more than its descriptor: $(printf "%s" "$extra" | tr "\n" " " | head -c 300)"
    # every file of it logs to the seqlabel category (GST_DEBUG=seqlabel:N), none
    # to GStreamer's default one, which a file without its GST_CAT_DEFAULT uses
    ! nm -D --undefined-only "$plugin" | grep -qw GST_CAT_DEFAULT ||
        fail "the plugin logs to GStreamer's default debug category (a file lacks #define GST_CAT_DEFAULT)"
    export GST_REGISTRY_1_0="$tmp/registry.bin" GST_PLUGIN_PATH_1_0="$root$SL_PLUGINSDIR"
    unset GST_PLUGIN_PATH
    # a sanitized plugin needs its runtime loaded first in gst-inspect-1.0
    preload=
    case $SL_EXAMPLE_CFLAGS in *address*) preload=$("$cc" -print-file-name=libasan.so) ;; esac
    case $SL_EXAMPLE_CFLAGS in *undefined*) preload="$preload $("$cc" -print-file-name=libubsan.so)" ;; esac
    LD_PRELOAD=$preload gst-inspect-1.0 seqlabel > "$tmp/inspect.txt" 2>&1 ||
        { cat "$tmp/inspect.txt"; fail "gst-inspect-1.0 seqlabel failed"; }
    grep -q "Filename *$plugin\$" "$tmp/inspect.txt" ||
        fail "GStreamer loaded another seqlabel plugin: $(grep Filename "$tmp/inspect.txt")"
    # the package and origin meson was given (-Dpackage-name, -Dpackage-origin)
    if ! grep -qF "Binary package           $SL_PACKAGE_NAME" "$tmp/inspect.txt" ||
        ! grep -qF "Origin URL               $SL_PACKAGE_ORIGIN" "$tmp/inspect.txt"; then
        fail "the plugin says another package or origin: $(grep -E 'Binary package|Origin URL' "$tmp/inspect.txt" | tr -s ' ')"
    fi
    # shellcheck disable=SC2046,SC2086
    "$cc" -std=c11 -Wall -Wextra -Werror $SL_EXAMPLE_CFLAGS -o "$tmp/read_metas" "$src/examples/read_metas.c" \
        $(pkg-config --cflags --libs gstreamer-seqlabel-1.0) ||
        fail "examples/read_metas.c does not build against the install"
    "$tmp/read_metas" "$src/samples/mixture.wav" > "$tmp/metas.txt" || fail "read_metas exited $?"
    "$SL_SEQLABEL" label "$src/samples/mixture.wav" --format frames > "$tmp/frames.tsv" || fail "frames exited $?"
    # every frame read off a buffer is the command's frame of that index: label,
    # and confidence to the example's 3 decimals; all but the last second's ride
    # on buffers (the latency: 1.0 s)
    awk -F'\t' 'NR == FNR { if (FNR > 1) { label[$1] = $3; conf[$1] = $4; total++ } next }
        { n++; if (!($1 in label) || label[$1] != $3 || (conf[$1] - $4) > 0.0005 || ($4 - conf[$1]) > 0.0005) {
            print "frame " $1 ": metas say " $3 " " $4 ", the command " label[$1] " " conf[$1]; bad++ } }
        END { print n " of " total " frames on metas"; exit !(bad == 0 && n >= total - 100 && n > 1000) }' \
        "$tmp/frames.tsv" "$tmp/metas.txt" || fail "examples/read_metas.c disagrees with seqlabel label"
fi
echo "ok"
