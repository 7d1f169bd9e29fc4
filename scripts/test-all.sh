#!/usr/bin/env bash
# Every test of wuzi, in the order a failure is cheapest to see: formatting, lints, the
# Rust tests of the whole workspace, the server's tests again on PostgreSQL, the fuzz
# targets' build, then the browser tests.
# This is the README's test command, and .ci/run runs exactly it: on a fresh Debian machine
# it first installs what is missing (scripts/install-test-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "install what is missing (scripts/install-test-deps.sh)"
bash scripts/install-test-deps.sh

# Every build below embeds the page's engine (WebAssembly, see crates/server/build.rs), which
# the browser tests play with offline; set here once so the builds agree and none is redone.
export WUZI_WASM=1

step "cargo fmt --all -- --check"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check

step "cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo test --workspace (the server on SQLite)"
cargo test --workspace

# The server's store, API and online tests again on PostgreSQL: a throwaway cluster
# (initdb in a temporary folder, its own port, a non-root user), removed afterwards.
step "cargo test -p wuzi-server --tests on PostgreSQL (scripts/pg-throwaway.sh)"
pg_dir="$(mktemp -d -u "${TMPDIR:-/tmp}/wuzi-pg-XXXXXX")"
trap 'bash scripts/pg-throwaway.sh stop "$pg_dir"' EXIT
eval "$(bash scripts/pg-throwaway.sh start "$pg_dir")"
WUZI_TEST_POSTGRES="$WUZI_TEST_POSTGRES" cargo test -p wuzi-server --tests
bash scripts/pg-throwaway.sh stop "$pg_dir"
trap - EXIT
unset WUZI_TEST_POSTGRES

step "cargo build --manifest-path fuzz/Cargo.toml (fuzz targets build on stable)"
cargo build --manifest-path fuzz/Cargo.toml

# ---- browser tests ------------------------------------------------------------------------
# Playwright (npm playwright-core) driving /usr/bin/chromium against the real server. They use
# the `wuzi` binary that `cargo test --workspace` built for the CLI's integration tests (same
# features, so nothing is compiled again).
step "browser tests (scripts/test-browser.sh)"
WUZI_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/wuzi" bash scripts/test-browser.sh
# ---- end of browser tests -----------------------------------------------------------------

step "all tests passed"
