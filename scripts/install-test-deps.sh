#!/usr/bin/env bash
# Installs what the tests need and a fresh Debian machine lacks (apt-get only when something
# is missing): a C/C++ compiler for libFuzzer's sources, Debian's chromium and CJK fonts for
# the browser tests, node and npm to run them, Debian's PostgreSQL for the server's tests on
# PostgreSQL, the rustfmt and clippy components and the wasm32-unknown-unknown target.
# scripts/test-all.sh (the README's test command) runs this first.
set -euo pipefail

apt_packages=()
# libfuzzer-sys (the fuzz targets' build) compiles libFuzzer's C++ sources.
command -v cc >/dev/null 2>&1 || apt_packages+=(build-essential)
command -v c++ >/dev/null 2>&1 || apt_packages+=(g++)
command -v git >/dev/null 2>&1 || apt_packages+=(git)
command -v curl >/dev/null 2>&1 || apt_packages+=(curl ca-certificates)
# Debian's chromium drives the browser tests (playwright-core never downloads a browser);
# CJK fonts let the page's Chinese render in the screenshots; node + npm run the tests.
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || apt_packages+=(chromium)
{ command -v fc-list >/dev/null 2>&1 && fc-list | grep -qi "Noto Sans CJK"; } || apt_packages+=(fonts-noto-cjk)
command -v node >/dev/null 2>&1 || apt_packages+=(nodejs)
command -v npm >/dev/null 2>&1 || apt_packages+=(npm)
# Debian's PostgreSQL: the server's tests run against a throwaway cluster too
# (scripts/pg-throwaway.sh); runuser (util-linux) runs it as the `postgres` user under root.
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || apt_packages+=(postgresql)
command -v runuser >/dev/null 2>&1 || apt_packages+=(util-linux)
command -v python3 >/dev/null 2>&1 || apt_packages+=(python3)
# nginx: a test runs the documented reverse-proxy configuration (docs/deploy/nginx.conf).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || apt_packages+=(nginx-light)

if ((${#apt_packages[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "installing: ${apt_packages[*]}"
    $sudo apt-get update
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${apt_packages[@]}"
fi

# rustfmt and clippy are rustup components that minimal toolchains leave out.
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
# The page's engine (crates/wasm) is built for wasm32-unknown-unknown, a rustup target; the
# browser tests play with it offline. Without rustup (a distribution's Rust) it cannot be added:
# the build says so and the page falls back to the server's engine (the offline tests fail).
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
