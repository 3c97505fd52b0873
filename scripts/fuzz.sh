#!/usr/bin/env bash
# Fuzzes the file parsers and end-to-end solving of tiny puzzles and models with
# cargo-fuzz (libFuzzer). Installs cargo-fuzz if it is missing.
#
#   scripts/fuzz.sh [-t SECONDS | -r RUNS] [-s none] [TARGET...]
#
# Targets (fuzz/fuzz_targets/): parse_puzzle, parse_sums, solve_puzzle, solve_sums;
# default all four. Each runs for SECONDS (default 60) or RUNS executions, starting
# from its corpus in fuzz/corpus/TARGET (kept between runs, not committed) and the
# shipped data files as seeds. Prints each target's executions; a crash stops the
# script with libFuzzer's report and the input under fuzz/artifacts/TARGET/.
# -s none builds without AddressSanitizer: two to three times the executions a second,
# for long runs (the library's unsafe code is a few lines; the default keeps ASan).
#
# cargo-fuzz needs nightly-only compiler flags; RUSTC_BOOTSTRAP=1 lets the stable
# toolchain accept them (the same compiler, with the gate lifted for this build).
set -euo pipefail
cd "$(dirname "$0")/.."

limit=(-max_total_time=60)
sanitizer=()
while (($# > 0)); do
    case $1 in
        -s) sanitizer=(--sanitizer "$2"); shift 2 ;;
        -t) limit=(-max_total_time="$2"); shift 2 ;;
        -r) limit=(-runs="$2"); shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1 (expected -t SECONDS or -r RUNS)" >&2; exit 2 ;;
        *) break ;;
    esac
done
targets=("$@")
((${#targets[@]})) || targets=(parse_puzzle parse_sums solve_puzzle solve_sums)

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz
fi

seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds/puz" "$seeds/sum"
cp data/*.puz "$seeds/puz/"
cp data/*.sum "$seeds/sum/"

for target in "${targets[@]}"; do
    case $target in
        *puzzle) seed=$seeds/puz ;;
        *sums) seed=$seeds/sum ;;
        *) echo "fuzz.sh: unknown target $target" >&2; exit 2 ;;
    esac
    mkdir -p "fuzz/corpus/$target"
    log=$(mktemp)
    # Small inputs keep the solving targets' brute force quick; one worker per target.
    if ! RUSTC_BOOTSTRAP=1 cargo fuzz run --release "${sanitizer[@]}" "$target" "fuzz/corpus/$target" "$seed" -- \
        "${limit[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "fuzz.sh: $target failed; the input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    echo "fuzz: $target: ${runs:-?} executions, no crash"
    rm -f "$log"
done
