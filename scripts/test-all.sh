#!/usr/bin/env bash
# The test command: every test of the project (README). CI runs exactly this after .ci/run installs.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
if [ -f fuzz/Cargo.toml ]; then
  echo "== fuzz targets build"
  (cd fuzz && cargo build)
fi
echo "== browser tests"
bash scripts/test-browser.sh
