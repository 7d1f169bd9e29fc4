#!/usr/bin/env bash
# Browser tests of the web page against the real server: builds the `wuzi` binary (debug unless
# WUZI_PROFILE=release), installs playwright-core from the lock file (it never downloads a
# browser; the tests drive Debian's /usr/bin/chromium), and runs every tests/browser/*.test.mjs
# with node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium; .ci/run does it)" >&2
  exit 1
fi

# The debug build is enough (rules, engine and dependencies are optimized in dev builds);
# WUZI_PROFILE=release tests the release one. With WUZI_BIN set to an existing binary (what
# scripts/test-all.sh does with the one `cargo test --workspace` built) nothing is built:
# `cargo build -p wuzi` alone resolves dependency features without the workspace's
# dev-dependencies and would compile ~20 crates again.
profile="${WUZI_PROFILE:-debug}"
# The page's engine (WebAssembly) is embedded in the binary, which debug builds leave out unless
# asked (crates/server/build.rs); the offline tests play with it.
export WUZI_WASM="${WUZI_WASM:-1}"
if [ -n "${WUZI_BIN:-}" ] && [ -x "$WUZI_BIN" ]; then
  echo "using $WUZI_BIN"
elif [ "$profile" = release ]; then
  cargo build --release -p wuzi
else
  cargo build -p wuzi
fi
export WUZI_BIN="${WUZI_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/$profile/wuzi}"

cd tests/browser
npm ci --no-audit --no-fund --loglevel=error
node --test --test-concurrency=1
