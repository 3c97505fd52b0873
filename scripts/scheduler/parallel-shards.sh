#!/usr/bin/env bash
# Runs the N shards of one polytile run with GNU parallel, on this machine or on
# others over ssh, then merges them. See --help and docs/scheduling.md.
set -euo pipefail

me=parallel-shards.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
    cat <<EOF
Usage: $me [OPTIONS] N COMMAND [ARGS...]

Runs \`polytile COMMAND ARGS... --shard K/N --format json\` for K = 1..N with GNU
parallel, leaves shard K's summary in OUTDIR/shard-K-of-N.json, and, once every shard
has ended well, merges them (\`polytile merge\`): prints the count (e.g.
"9356 solutions") and leaves the merged JSON summary in OUTDIR/merged-of-N.json.
Give COMMAND ARGS as for polytile, without --shard, --format, --threads and
--checkpoint, e.g.

  $me 7 solve data/pentomino-6x10.puz --count
  $me -j 4 -t 2 -o /scratch/ms5 64 sums data/magic-square-5.sum --count
  $me -S 8/node1 -S 8/node2 -c -o /shared/ms5 64 sums data/magic-square-5.sum --count

Options:
  -o, --outdir DIR       where the shards' summaries go, created if missing [shards]
  -j, --jobs J           shards at once on each machine (parallel -j: a number, or
                         e.g. 50%) [one per core of each machine]
  -t, --threads T        polytile --threads of each shard; 0: polytile's default, one
                         per core [1]
  -p, --polytile PATH    the polytile program [polytile on PATH, else this
                         repository's release build, target/*/release/polytile]
  -S, --sshlogin LOGIN   run shards on LOGIN over ssh (parallel --sshlogin; may be
                         given more than once; ':' is this machine; e.g. 8/user@host,
                         'ssh -p 2222 host')
      --sshloginfile F   the sshlogins in file F, one a line (parallel --sshloginfile)
      --ssh CMD          the ssh command (parallel --ssh), e.g. 'ssh -F my_config'
      --transfer         copy polytile and every argument that names a file here to
                         the remote machine of each shard (parallel --transferfile:
                         rsync, into a temporary directory under ~/.parallel/tmp
                         there, removed afterwards). Without it, every machine runs
                         the shards in this directory's path, with polytile and the
                         puzzle file at the same paths as here
  -c, --checkpoint       polytile --checkpoint OUTDIR/shard-K-of-N.checkpoint (needs
                         --count): a shard run again goes on from there, and a
                         finished one only prints its summary again. With remote
                         machines, OUTDIR must be a directory they share, at the same
                         path
  -r, --retries R        run a failed shard up to R times, on another machine if
                         there is one (parallel --retries)
      --no-merge         leave the shards' summaries, do not merge
  -h, --help             print this help

Remote machines need GNU parallel (it asks them their number of cores; or give the
cores as in -S 8/host), and rsync for --transfer; the sshlogins must not ask for a
password. Each summary is written to a file under OUTDIR/.parallel-of-N/ and renamed
to shard-K-of-N.json only once its shard has ended well.

Exit status: 0 when every shard ended well and (unless --no-merge) merged; 1 when a
shard failed or the merge refused; 2 for bad arguments.
EOF
}

bad() {
    echo "$me: $*" >&2
    echo "Try '$me --help'." >&2
    exit 2
}

outdir=shards jobs='' threads=1 polytile='' transfer='' checkpoint='' retries='' merge=1 ssh=''
sshlogins=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help)
            usage
            exit 0
            ;;
        -o | --outdir | -j | --jobs | -t | --threads | -p | --polytile | -S | --sshlogin | \
            --sshloginfile | --ssh | -r | --retries)
            [ $# -ge 2 ] || bad "$1 needs a value"
            case "$1" in
                -o | --outdir) outdir=$2 ;;
                -j | --jobs) jobs=$2 ;;
                -t | --threads) threads=$2 ;;
                -p | --polytile) polytile=$2 ;;
                -S | --sshlogin) sshlogins+=(--sshlogin "$2") ;;
                --sshloginfile)
                    [ -r "$2" ] || bad "--sshloginfile $2: no such readable file"
                    sshlogins+=(--sshloginfile "$2")
                    ;;
                --ssh) ssh=$2 ;;
                -r | --retries) retries=$2 ;;
            esac
            shift 2
            ;;
        --transfer) transfer=1 && shift ;;
        -c | --checkpoint) checkpoint=1 && shift ;;
        --no-merge) merge= && shift ;;
        --)
            shift
            break
            ;;
        -*) bad "unknown option '$1'" ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || bad "expected N and a polytile command, e.g. '7 solve data/pentomino-6x10.puz --count'"
shards=$1
shift
args=("$@")
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || bad "N=$shards: expected a whole number, at least 1"
[[ -z "$jobs" || "$jobs" =~ ^[0-9]+%?$ ]] || bad "--jobs $jobs: expected a number or a percentage"
[[ "$threads" =~ ^[0-9]+$ ]] || bad "--threads $threads: expected a whole number (0: one per core)"
[[ -z "$retries" || "$retries" =~ ^[0-9]+$ ]] || bad "--retries $retries: expected a whole number"
[ -n "$outdir" ] || bad "--outdir needs a directory"
has_count=
for a in "${args[@]}"; do
    case "$a" in
        --shard | --shard=* | --format | --format=* | --threads | --threads=* | --checkpoint | --checkpoint=*)
            bad "the polytile command must not hold $a: this script sets it" ;;
        --count) has_count=1 ;;
    esac
done
[ -z "$checkpoint" ] || [ -n "$has_count" ] || bad "--checkpoint needs --count in the polytile command"
[ -z "$transfer" ] || [ ${#sshlogins[@]} -gt 0 ] || bad "--transfer needs --sshlogin or --sshloginfile"

if [ -z "$polytile" ]; then
    if command -v polytile >/dev/null 2>&1; then
        polytile=$(command -v polytile)
    else
        # cargo build --release puts it in target/<host triple>/release (.cargo/config.toml).
        repo=$(cd "$here/../.." && pwd)
        polytile=$repo/target/release/polytile
        for built in "$repo"/target/*/release/polytile; do
            if [ -x "$built" ]; then polytile=$built; break; fi
        done
    fi
fi
command -v parallel >/dev/null 2>&1 ||
    { echo "$me: GNU parallel not found (Debian: scripts/scheduler/setup.sh, or apt-get install parallel)" >&2; exit 1; }
# Here polytile merges, and runs the shards unless they all go to other machines.
[ -x "$polytile" ] || { echo "$me: $polytile: no such program; build it (cargo build --release) or give -p PATH" >&2; exit 1; }

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
work=$outdir/.parallel-of-$shards
rm -rf "$work"
mkdir -p "$work"

# The command of shard {}: parallel puts K in place of {}.
opts=(--will-cite --quote --joblog "$work/joblog" --results "$work/{}")
if [ -n "$transfer" ]; then
    # Each file argument goes, with polytile, into the shard's own working directory on
    # its machine (DIR/./NAME: rsync puts it at NAME there; parallel wants DIR
    # absolute), and the command names them there.
    opts+=(--workdir ... --cleanup --transferfile "$(cd "$(dirname "$polytile")" && pwd)/./$(basename "$polytile")")
    cmd=("./$(basename "$polytile")")
    for a in "${args[@]}"; do
        if [ -f "$a" ]; then
            opts+=(--transferfile "$(cd "$(dirname "$a")" && pwd)/./$(basename "$a")")
            cmd+=("$(basename "$a")")
        else
            cmd+=("$a")
        fi
    done
else
    # Every machine runs the shards in this directory, so relative paths stay right.
    opts+=(--workdir "$PWD")
    cmd=("$polytile" "${args[@]}")
fi
cmd+=(--shard "{}/$shards" --format json)
[ "$threads" = 0 ] || cmd+=(--threads "$threads")
[ -z "$checkpoint" ] || cmd+=(--checkpoint "$outdir/shard-{}-of-$shards.checkpoint")
[ -z "$jobs" ] || opts+=(--jobs "$jobs")
[ -z "$retries" ] || opts+=(--retries "$retries")
[ -z "$ssh" ] || opts+=(--ssh "$ssh")
opts+=("${sshlogins[@]}")

echo "$me: $shards shards of: ${cmd[*]}" >&2
rc=0
seq 1 "$shards" | parallel "${opts[@]}" "${cmd[@]}" || rc=$?

# The joblog: one line per run of a shard (Seq Host Starttime JobRuntime Send Receive
# Exitval Signal Command), Seq = K; the last run of a shard is the one that counts.
declare -A status host
while IFS=$'\t' read -r seq h _ _ _ _ exitval signal _; do
    [[ "$seq" =~ ^[0-9]+$ ]] || continue
    status[$seq]=$exitval/$signal
    host[$seq]=$h
done <"$work/joblog"
failed=()
files=()
for ((k = 1; k <= shards; k++)); do
    file=$outdir/shard-$k-of-$shards.json
    files+=("$file")
    if [ "${status[$k]:-}" = 0/0 ] && [ -s "$work/$k" ]; then
        mv -f "$work/$k" "$file"
        echo "shard $k/$shards (${host[$k]}): $(tail -n 1 "$file")" >&2
    else
        failed+=("$k")
        why=${status[$k]:-not run}
        echo "shard $k/$shards (${host[$k]:-?}): failed (exit/signal $why): $(tail -n 1 "$work/$k.err" 2>/dev/null)" >&2
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "$me: ${#failed[@]} of $shards shards failed (${failed[*]}; parallel exited with $rc);" \
        "their output is in $work" >&2
    exit 1
fi
rm -rf "$work"
[ -n "$merge" ] || exit 0
merged=$outdir/merged-of-$shards.json
"$polytile" merge --format json "${files[@]}" >"$merged.tmp" || { rm -f "$merged.tmp"; exit 1; }
mv -f "$merged.tmp" "$merged"
"$polytile" merge "${files[@]}"
