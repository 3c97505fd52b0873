#!/usr/bin/env bash
# Builds one of this package's binaries in the release profile (a no-op when it is up to
# date) and prints its path, as Cargo reports it.
#
#   scripts/cargo-bin.sh NAME [CARGO_BUILD_ARGS...]
#   e.g. scripts/cargo-bin.sh polytile;
#        scripts/cargo-bin.sh meteor --target x86_64-unknown-linux-musl (scripts/meteor-musl.sh)
#
# Scripts ask Cargo rather than assume target/release/NAME: .cargo/config.toml builds for
# the host's target triple by name (so the x86-64 binaries can be linked statically), and
# Cargo then puts them in target/<triple>/release/; CARGO_TARGET_DIR moves them too.
# Cargo's own messages go to standard error; exits non-zero when the build fails.
set -euo pipefail
(($# >= 1)) || { echo "usage: ${0##*/} NAME [CARGO_BUILD_ARGS...]" >&2; exit 2; }
name=$1
shift
cd "$(dirname "${BASH_SOURCE[0]}")/.."

path=$(cargo build --release --quiet --bin "$name" --message-format=json "$@" |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[[ -n $path && -x $path ]] || { echo "${0##*/}: cargo built no executable named $name" >&2; exit 1; }
printf '%s\n' "$path"
