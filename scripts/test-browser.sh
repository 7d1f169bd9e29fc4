#!/usr/bin/env bash
# Browser tests of the web page against the real server: builds the `wuzi` binary, installs
# playwright-core from the lock file (it never downloads a browser; the tests drive Debian's
# /usr/bin/chromium), and runs every tests/browser/*.test.mjs with node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium; .ci/run does it)" >&2
  exit 1
fi

cargo build --release -p wuzi
export WUZI_BIN="${WUZI_BIN:-$PWD/target/release/wuzi}"

cd tests/browser
npm ci --no-audit --no-fund --loglevel=error
node --test --test-concurrency=1
