#!/usr/bin/env bash
# Nodes per second of the engine in the browser (WebAssembly, headless Chromium, a Web Worker)
# against the native build, on `wuzi bench`'s positions to the same depth (same node counts):
# builds the release `wuzi` (which embeds the page's engine) unless WUZI_BIN names a binary, then
# runs tests/browser/bench-wasm.mjs. DEPTH (default 8) and RUNS (default 3) choose the work.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${WUZI_BIN:-}" ]; then
  cargo build --release -p wuzi
  export WUZI_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/wuzi"
fi
cd tests/browser
npm ci --no-audit --no-fund --loglevel=error
node bench-wasm.mjs
