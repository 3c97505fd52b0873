#!/usr/bin/env bash
# Installs what building and testing polytile needs beyond a Rust toolchain:
# rustfmt and clippy (for .ci/run), and a C++ compiler for libFuzzer (scripts/fuzz.sh,
# which installs cargo-fuzz itself). Idempotent; safe to run on every CI start.
set -euo pipefail
if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust (rustup) first" >&2
    exit 1
fi
if command -v rustup >/dev/null 2>&1; then
    rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
    rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
fi
# libfuzzer-sys compiles libFuzzer's C++ sources.
if ! command -v c++ >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq g++ >/dev/null
    else
        echo "setup: no C++ compiler; scripts/fuzz.sh needs one (Debian: apt-get install g++)" >&2
    fi
fi
