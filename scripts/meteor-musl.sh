#!/usr/bin/env bash
# Builds the meteor binary statically against musl rather than glibc and prints its
# path: the fastest meteor on x86-64 Linux, as musl's start probes nothing (glibc's
# runs `cpuid` 68 times) and the binary takes dlmalloc for an allocator there (README.md,
# "The static musl meteor", has the figures). Adds rustup's musl standard library first
# if it is missing, which needs static.rust-lang.org. Extra arguments go to
# `cargo build`.
#
#   scripts/meteor-musl.sh
#   "$(scripts/meteor-musl.sh)" --threads 1 2098
#
# For other CPUs than the one that builds, set the flags the target's section of
# .cargo/config.toml gives, for example
#   CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-cpu=x86-64-v2" scripts/meteor-musl.sh
#
# Only the meteor: `polytile` built this way is slower than the glibc build wherever
# its threads allocate (src/bin/meteor.rs says why).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target=x86_64-unknown-linux-musl
[[ $(uname -m) == x86_64 && $(uname -s) == Linux ]] ||
    { echo "${0##*/}: builds for x86-64 Linux only (this is $(uname -sm))" >&2; exit 2; }
if command -v rustup >/dev/null 2>&1; then
    rustup target list --installed | grep -qx "$target" || rustup target add "$target"
fi
exec scripts/cargo-bin.sh meteor --target "$target" "$@"
