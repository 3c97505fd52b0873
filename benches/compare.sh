#!/usr/bin/env bash
# Compares the whole-process wall time of a reference command with ours.
# Run `benches/compare.sh --help` for usage.
set -euo pipefail

prog=${0##*/}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
default_ours="meteor 2098, the release build of this package (scripts/cargo-bin.sh meteor)"

usage() {
    cat <<EOF
usage: $prog [-n RUNS] [-o OURS_CMD] -- REF_CMD [ARGS...]

Runs REF_CMD and OURS_CMD alternately (ref, ours, ref, ours, ...) RUNS times each and
prints, for each, the number of runs and the median, minimum and maximum whole-process
wall time in milliseconds, then the ratio ours/ref of the medians. No run is discarded.
Standard output of the first run of each is compared byte for byte; a warning is
printed if they differ. Standard error of the commands is discarded unless one fails.

To compare two builds, copy both binaries just before the run: on the project's
machine a file written moments before ran 4 to 5% faster than an older file with the
same bytes, enough to fake or hide a change.

options:
  -n RUNS      runs of each command, at least 20 (default 21)
  -o OURS_CMD  our command as one string, split into words like a shell line
               (default: $default_ours;
               built or brought up to date first)
  -h, --help   print this help

example:
  $prog -- \$(scripts/cargo-bin.sh meteor) --threads 1 2098
EOF
}

die_usage() {
    echo "$prog: $1" >&2
    echo "usage: $prog [-n RUNS] [-o OURS_CMD] -- REF_CMD [ARGS...]  (see --help)" >&2
    exit 2
}

runs=21
ours_cmd=""
saw_dashdash=0
while (($# > 0)); do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        -n)
            (($# >= 2)) || die_usage "-n needs a value"
            runs=$2
            shift 2
            ;;
        -n*)
            runs=${1#-n}
            shift
            ;;
        -o)
            (($# >= 2)) || die_usage "-o needs a value"
            ours_cmd=$2
            shift 2
            ;;
        --)
            saw_dashdash=1
            shift
            break
            ;;
        *)
            die_usage "unexpected argument '$1' (the reference command goes after '--')"
            ;;
    esac
done

((saw_dashdash)) || die_usage "missing '-- REF_CMD'"
(($# > 0)) || die_usage "no reference command after '--'"
[[ $runs =~ ^[0-9]+$ ]] || die_usage "RUNS must be a whole number, got '$runs'"
((10#$runs >= 20)) || die_usage "RUNS must be at least 20, got $runs"
runs=$((10#$runs))

ref=("$@")
if [[ -z $ours_cmd ]]; then
    meteor=$("$root/scripts/cargo-bin.sh" meteor)
    ours=("$meteor" 2098)
else
    # The user's own command line, split into words as the shell would.
    eval "ours=($ours_cmd)"
    ((${#ours[@]} > 0)) || die_usage "OURS_CMD is empty"
fi
for cmd in "${ref[0]}" "${ours[0]}"; do
    command -v -- "$cmd" >/dev/null || die_usage "command not found: $cmd"
done

# Microseconds since the epoch, without starting a process when bash can (bash 5+).
if [[ -n ${EPOCHREALTIME:-} ]]; then
    now_us() { now=${EPOCHREALTIME//[!0-9]/}; }
else
    now_us() { now=$(($(date +%s%N) / 1000)); }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME OUTFILE CMD...: runs CMD once and appends its wall time in microseconds to
# $tmp/NAME.times; stops the script if it fails.
run() {
    local name=$1 out=$2 status=0 start
    shift 2
    now_us
    start=$now
    "$@" >"$out" 2>"$tmp/stderr" </dev/null || status=$?
    now_us
    if ((status != 0)); then
        echo "$prog: $name command failed with status $status: $*" >&2
        sed 's/^/  /' "$tmp/stderr" >&2
        exit 1
    fi
    echo $((now - start)) >>"$tmp/$name.times"
}

progress=0
[[ -t 2 ]] && progress=1
for ((i = 0; i < runs; i++)); do
    if ((i == 0)); then
        run ref "$tmp/ref.out" "${ref[@]}"
        run ours "$tmp/ours.out" "${ours[@]}"
    else
        run ref /dev/null "${ref[@]}"
        run ours /dev/null "${ours[@]}"
    fi
    ((progress)) && printf '.' >&2
done
((progress)) && printf '\n' >&2

echo "ref:  ${ref[*]}"
echo "ours: ${ours[*]}"
if cmp -s "$tmp/ref.out" "$tmp/ours.out"; then
    echo "output: identical on the first run ($(wc -c <"$tmp/ref.out") bytes)"
else
    echo "WARNING: outputs differ on the first run" \
        "(ref $(wc -c <"$tmp/ref.out") bytes, ours $(wc -c <"$tmp/ours.out") bytes)" >&2
fi

# stats NAME: "runs median min max" in microseconds.
stats() {
    sort -n "$tmp/$1.times" | awk '
        { t[NR] = $1 }
        END {
            m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            print NR, m, t[1], t[NR]
        }'
}
read -r ref_n ref_med ref_min ref_max < <(stats ref)
read -r ours_n ours_med ours_min ours_max < <(stats ours)

awk -v rn="$ref_n" -v rmed="$ref_med" -v rmin="$ref_min" -v rmax="$ref_max" \
    -v on="$ours_n" -v omed="$ours_med" -v omin="$ours_min" -v omax="$ours_max" '
    BEGIN {
        printf "wall time, ms   runs    median       min       max\n"
        printf "ref            %5d %9.2f %9.2f %9.2f\n", rn, rmed / 1000, rmin / 1000, rmax / 1000
        printf "ours           %5d %9.2f %9.2f %9.2f\n", on, omed / 1000, omin / 1000, omax / 1000
        if (rmed > 0) printf "ratio ours/ref of medians: %.3f\n", omed / rmed
        else print "ratio ours/ref of medians: undefined (ref median is 0)"
    }'
