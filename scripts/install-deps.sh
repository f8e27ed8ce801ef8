#!/usr/bin/env bash
# Installs the Debian 12 packages seqlabel needs to build, test and benchmark.
# Usage: scripts/install-deps.sh [--dev]   (--dev adds PyTorch for fixture generators and benches)
set -euo pipefail
BUILD_PKGS=(build-essential meson ninja-build pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-libav gstreamer1.0-plugins-ugly libgstrtspserver-1.0-dev   # -ugly: asfdemux (WMA)
  libsndfile1-dev libfftw3-dev libopenblas-dev libopenblas0-pthread libsoxr-dev libspandsp-dev libjson-glib-dev libcmocka-dev zlib1g-dev
  help2man groff-base
  locales)   # a comma-decimal locale made by a test: text is written the C way in any locale
DEV_PKGS=(python3-torch python3-torchaudio python3-numpy python3-soundfile espeak-ng sox ffmpeg codec2
  valgrind)
want=("${BUILD_PKGS[@]}")
[ "${1:-}" = "--dev" ] && want+=("${DEV_PKGS[@]}")
bash "$(dirname "$0")/apt-install-missing.sh" "${want[@]}"
