#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/) and then under valgrind memcheck (build-valgrind/), failing on
# any report; `tsan` runs the library's threaded suites under ThreadSanitizer
# (build-tsan/). Usage: scripts/check-memory.sh [asan|valgrind|tsan] [meson test args]
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
what="${1:-all}"; shift || true
if [ "$what" = all ] || [ "$what" = asan ]; then
  bash scripts/build.sh build-asan -Db_sanitize=address,undefined -Dbuildtype=debug -Db_lundef=false
  # GLib/GStreamer and OpenBLAS keep caches alive until exit: leaks are checked
  # by valgrind below with suppressions instead.
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 4 "$@"
fi
if [ "$what" = tsan ]; then
  # The library's own threads (pthreads): encoder and labeler workers, the
  # trainer's loaders and gradient workers. Not the element's or the media
  # reader's (GStreamer): GLib's mutexes are futexes that TSan does not see
  # unless GLib itself is built with it, so every hand-off between GStreamer
  # threads would be reported. Hence not with `all` either.
  bash scripts/build.sh build-tsan -Db_sanitize=thread -Dbuildtype=debugoptimized -Db_lundef=false
  mapfile -t threaded < <(meson test -C build-tsan --list 2>/dev/null |
    sed -n 's#^seqlabel:[a-z_]* / \(features_.*\|model_.*\|train_.*\|trainer_.*\|labeler_decoder\|labeler_labeler\)$#\1#p')
  [ "${#threaded[@]}" -ge 20 ] || { echo "tsan: only ${#threaded[@]} suites found" >&2; exit 1; }
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    meson test -C build-tsan --print-errorlogs --num-processes 2 --timeout-multiplier 10 \
    "${threaded[@]}" "$@"
fi
if [ "$what" = all ] || [ "$what" = valgrind ]; then
  bash scripts/build.sh build-valgrind -Dbuildtype=debugoptimized
  # Plugins that link libhwy (gst-libav's, chromaprint) stop valgrind 3.19 when
  # loaded (its rdtscp: SIGILL), and GStreamer loads a plugin to learn what it
  # is: under valgrind the system's plugins are those of a folder without them
  # (AAC then decodes with faad, of -bad)
  plugins="$PWD/build-valgrind/gst-system-plugins"
  rm -rf "$plugins" && mkdir -p "$plugins"
  for f in "$(pkg-config --variable=pluginsdir gstreamer-1.0)"/*.so; do
    deps=$(ldd "$f" 2>/dev/null || true)   # (grep -q would end ldd early: pipefail)
    case "$deps" in *libhwy*) ;; *) ln -s "$f" "$plugins/" ;; esac
  done
  export GST_PLUGIN_SYSTEM_PATH="$plugins"
  export SL_NO_GST_LIBAV=1 # tests that need gst-libav (WMA) say they are left out
  # HTTP inputs (souphttpsrc) ask GIO for a proxy; its libproxy resolver throws
  # C++ exceptions, whose unwinding (libunwind) valgrind reports as invalid
  # reads below the stack pointer. Not ours: GIO's plain resolver instead.
  export GIO_USE_PROXY_RESOLVER=dummy
  # valgrind keeps files of its own in $TMPDIR and cannot start where it names
  # no folder: the tests that point it at none leave that case to other runs
  export SL_VALGRIND=1
  # The tests' registries are made natively first: a scan under valgrind runs
  # every installed GStreamer plugin's library initialisers there too, and some stop
  # valgrind 3.19 (libhwy's rdtscp: SIGILL). The tests then load only what they use.
  GST_REGISTRY="$PWD/build-valgrind/tests/plugin/registry.bin" GST_REGISTRY_FORK=no \
    GST_PLUGIN_PATH="$PWD/build-valgrind/plugin" gst-inspect-1.0 seqlabel >/dev/null
  GST_REGISTRY="$PWD/build-valgrind/tests/registry.bin" GST_REGISTRY_FORK=no \
    gst-inspect-1.0 uridecodebin >/dev/null   # the reader's (io/media_source.c)
  # Commands the tests spawn run under valgrind too (--trace-children): checked
  # as well, and computing with the same (emulated) CPU as the test, whose exact
  # comparisons would otherwise see another code path's last bits. groff, which
  # the manual pages' test runs, the coreutils and GStreamer's gst-launch-1.0 the
  # tests' shell lines run, are not ours, and some keep their memory to the end;
  # nor is the RTSP test's server (GStreamer's library, killed by the test),
  # nor glibc's localedef, which test_any_locale runs to make a de_DE locale.
  # The install test (tests/install/) is left out: it checks where files go and
  # compiles the examples, which under valgrind would run the compiler there.
  # --vgdb=no: the tests run some commands as nobody (what root may and others
  # may not), and valgrind's debugger pipes would go where nobody cannot write.
  meson test -C build-valgrind --print-errorlogs --num-processes 2 --timeout-multiplier 20 \
    --no-suite install \
    --wrap="valgrind --vgdb=no --trace-children=yes --trace-children-skip=*/groff,*/troff,*/grotty,*/sort,*/tr,*/grep,*/find,*/cat,*/cmp,*/head,*/tail,*/cp,*/seq,*/ls,*/stat,*/gst-launch-1.0,*/rtsp_server,*/localedef --error-exitcode=99 --quiet --leak-check=full --errors-for-leak-kinds=definite --suppressions=$PWD/scripts/valgrind.supp --gen-suppressions=all" "$@"
fi
