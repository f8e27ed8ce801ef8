#!/usr/bin/env bash
# Installs the command-line tools the corpus recipe runs (Debian 12). Data packages are NOT
# installed here: fetch.sh downloads and unpacks them into the cache instead.
# Usage: tools/corpus/install-tools.sh
set -euo pipefail
PKGS=(sox libsox-fmt-all espeak-ng flite festival codec2 ffmpeg
  festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts festvox-italp16k festvox-itapc16k
  festvox-suopuhe-lj festvox-suopuhe-mv festvox-czech-ph festvox-czech-dita festvox-czech-krb
  festvox-czech-machac festvox-ca-ona-hts festvox-hi-nsk festvox-ru
  fluidsynth fluid-soundfont-gm musescore-general-soundfont freepats timgm6mb-soundfont
  python3-numpy python3-soundfile dpkg-dev)
bash "$(dirname "$0")/../../scripts/apt-install-missing.sh" "${PKGS[@]}"
echo "corpus tools ready" >&2
