#!/usr/bin/env bash
# End-to-end test of the scheduler templates (docs/scheduling.md) on this machine, as
# root, without systemd:
#   - installs slurm-wlm, munge, parallel, openssh-server and rsync when missing
#     (scripts/scheduler/setup.sh --ssh);
#   - starts munged, slurmctld and slurmd (one node: this host, its cores) with their
#     key, configuration, state and logs in a temporary directory, submits
#     slurm-array.sbatch as job arrays and a dependent merge job, and checks that the
#     merged counts equal one unsharded run's; requeues a running array task and checks
#     that it goes on from its checkpoint and still gets the shard's count;
#   - runs parallel-shards.sh on this machine, and over ssh to an sshd of its own on
#     127.0.0.1 (a key for root that only that sshd accepts), and checks likewise.
# Prints one line per check and a last line "N passed, N failed" (", N skipped" when
# the ssh part could not be set up); exits non-zero on any failure. Every daemon it
# started is stopped on exit; the temporary directory is removed when all passed and
# kept (its path printed) otherwise.
#
# Usage: bash scripts/scheduler/test.sh
# Environment: POLYTILE=PATH to test that program instead of building
#   this package's release build (scripts/cargo-bin.sh polytile, a no-op when it is
#   up to date); SCHEDULER_TEST_SSH=0 to leave out the ssh part;
#   SCHEDULER_TEST_KEEP=1 to keep the temporary directory.
set -Eeuo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
repo=$PWD
scripts=$repo/scripts/scheduler

passed=0 failed=0 skipped=0 fatal=''
pass() {
    echo "ok: $*"
    passed=$((passed + 1))
}
fail() {
    echo "FAILED: $*"
    failed=$((failed + 1))
}
skip() {
    echo "skipped: $*"
    skipped=$((skipped + 1))
}
# check NAME COMMAND...: one line, ok or FAILED.
check() {
    local label=$1
    shift
    if "$@"; then pass "$label"; else fail "$label"; fi
}
# same A B: A is a count, and B is the same.
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
# same_and_file A B FILE: same A B, and FILE is not empty.
same_and_file() { same "$1" "$2" && [ -s "$3" ]; }
fatal() {
    fail "$*"
    fatal=1
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    echo "scheduler test: must run as root (it installs packages and starts munged, slurmctld, slurmd and sshd)" >&2
    exit 1
fi

tmp=$(mktemp -d /tmp/polytile-scheduler-test.XXXXXX)
# munged wants every directory above its socket searchable by all.
chmod 755 "$tmp"
pids=()
made_run_sshd=
# What stopped the script, if a command failed outside a check.
stopped=
trap 'stopped="line $LINENO: $BASH_COMMAND"' ERR
finish() {
    local rc=$? pid
    set +e
    trap - ERR
    if [ -n "$stopped" ]; then
        fail "the test stopped (exit $rc) at $stopped"
    elif [ "$rc" != 0 ] && [ -z "$fatal" ]; then
        fail "the test stopped (exit $rc)"
    fi
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
        timeout 10 scancel --full --quiet --user=root >/dev/null 2>&1
    fi
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    done
    [ -z "$made_run_sshd" ] || rmdir /run/sshd 2>/dev/null
    if [ "$rc" = 0 ] && [ "$failed" = 0 ] && [ "${SCHEDULER_TEST_KEEP:-0}" != 1 ]; then
        rm -rf "$tmp"
    else
        echo "scheduler test: daemons' logs and outputs kept in $tmp"
    fi
    echo "scheduler test: $SECONDS s"
    local line="$passed passed, $failed failed"
    [ "$skipped" = 0 ] || line+=", $skipped skipped"
    echo "$line"
    [ "$failed" = 0 ] || exit 1
    exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits up to $1 seconds for COMMAND... to succeed, every 0.2 s.
wait_for() {
    local tries=$(($1 * 5))
    shift
    while ! "$@" >/dev/null 2>&1; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || return 1
        sleep 0.2
    done
}

# A TCP port nothing listens on, on 127.0.0.1.
free_port() {
    local port
    for _ in $(seq 50); do
        port=$((20000 + RANDOM % 30000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    return 1
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# --- packages and polytile ------------------------------------------------------------
setup_args=()
[ "${SCHEDULER_TEST_SSH:-1}" = 0 ] || setup_args+=(--ssh)
bash "$scripts/setup.sh" "${setup_args[@]}" >"$tmp/setup.log" 2>&1 ||
    fatal "install the packages (scripts/scheduler/setup.sh ${setup_args[*]}; log: $tmp/setup.log)"
pass "packages installed: slurm-wlm, munge, parallel${setup_args:+, openssh-server, rsync}"

if [ -n "${POLYTILE:-}" ]; then
    polytile=$(cd "$(dirname "$POLYTILE")" && pwd)/$(basename "$POLYTILE")
else
    polytile=$(nice "$repo/scripts/cargo-bin.sh" polytile 2>"$tmp/build.log") ||
        fatal "build polytile (scripts/cargo-bin.sh polytile; log: $tmp/build.log)"
fi
[ -x "$polytile" ] || fatal "$polytile is not an executable"

# The puzzles: name, polytile command, shards, count from docs/known-counts.md.
names=(pentomino-6x10 magic-square-4)
declare -A command shards known single
command[pentomino-6x10]="solve data/pentomino-6x10.puz --count"
shards[pentomino-6x10]=7
known[pentomino-6x10]=9356
command[magic-square-4]="sums data/magic-square-4.sum --count"
shards[magic-square-4]=5
known[magic-square-4]=7040

# The count in a "N solutions" line.
count_of() { { sed -n 's/^\([0-9][0-9]*\) solutions$/\1/p' "$@" 2>/dev/null || true; } | tail -n 1; }

for name in "${names[@]}"; do
    read -r -a args <<<"${command[$name]}"
    single[$name]=$("$polytile" "${args[@]}" | count_of) || true
    check "single run of $name: ${single[$name]:-no} solutions (docs/known-counts.md: ${known[$name]})" \
        same "${single[$name]}" "${known[$name]}"
done

# --- munge ------------------------------------------------------------------------------
mkdir -p "$tmp/munge" "$tmp/run"
chmod 700 "$tmp/munge"
chmod 755 "$tmp/run"
key=$tmp/munge/munge.key
if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --keyfile="$key" 2>>"$tmp/munge/mungekey.log"
else
    dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
fi
chown root:root "$key"
chmod 600 "$key"
socket=$tmp/run/munge.socket
munged --foreground --socket="$socket" --key-file="$key" --log-file="$tmp/munge/munged.log" \
    --pid-file="$tmp/run/munged.pid" --seed-file="$tmp/munge/munged.seed" \
    >"$tmp/munge/munged.out" 2>&1 &
pids+=($!)
munge_round_trip() { munge -n -S "$socket" | unmunge -S "$socket"; }
wait_for 20 munge_round_trip || fatal "munged: no credential round trip (log: $tmp/munge/munged.out)"
pass "munged started (its own key and socket in $tmp)"

# --- Slurm ------------------------------------------------------------------------------
node=$(hostname -s 2>/dev/null || uname -n)
node=${node%%.*}
cpus=$(nproc)
ctld_port=$(free_port) || fatal "no free port for slurmctld"
slurmd_port=$ctld_port
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port) || fatal "no free port for slurmd"; done
mkdir -p "$tmp/slurm/state" "$tmp/slurm/spool" "$tmp/slurm/log"
export SLURM_CONF=$tmp/slurm/slurm.conf
cat >"$SLURM_CONF" <<EOF
# One node, this host, for scripts/scheduler/test.sh; everything in $tmp/slurm.
ClusterName=polytiletest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/slurm/state
SlurmdSpoolDir=$tmp/slurm/spool
SlurmctldPidFile=$tmp/slurm/slurmctld.pid
SlurmdPidFile=$tmp/slurm/slurmd.pid
SlurmctldLogFile=$tmp/slurm/log/slurmctld.log
SlurmdLogFile=$tmp/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=polytile Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c -f "$SLURM_CONF" >"$tmp/slurm/log/slurmctld.out" 2>&1 &
pids+=($!)
wait_for 30 scontrol ping || fatal "slurmctld did not answer (log: $tmp/slurm/log/slurmctld.log)"
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/slurm/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(sinfo -h -n "$node" -o %t)" = idle ]; }
start=$SECONDS
wait_for 60 node_idle ||
    fatal "node $node not idle: $(sinfo -h -n "$node" -o %t 2>&1) (logs: $tmp/slurm/log)"
pass "slurmctld and slurmd started; node $node ($cpus CPUs) idle after $((SECONDS - start)) s"

sbatch_script=$scripts/slurm-array.sbatch
# No shard file half-written or left over, and every one there: shard-K-of-N.json, K=1..N.
shard_files_ok() {
    local dir=$1 n=$2 k
    for ((k = 1; k <= n; k++)); do
        tail -n 1 "$dir/shard-$k-of-$n.json" 2>/dev/null | grep -q "\"shard\":\"$k/$n\"" || return 1
    done
    [ -z "$(find "$dir" -name '.*.tmp')" ]
}

# pentomino-6x10: array 1..N (N from the array), then a dependent merge job.
name=pentomino-6x10
n=${shards[$name]}
out=$tmp/slurm/$name
jobid=$(POLYTILE="$polytile" POLYTILE_ARGS="${command[$name]}" OUTDIR="$out" \
    sbatch --parsable --array="1-$n" --chdir="$repo" --output="$tmp/slurm/$name-%A_%a.out" \
    "$sbatch_script" 2>"$tmp/slurm/$name-sbatch.err") ||
    fatal "sbatch --array=1-$n for $name: $(cat "$tmp/slurm/$name-sbatch.err")"
jobid=${jobid%%;*}
merge_rc=0
POLYTILE="$polytile" OUTDIR="$out" SHARDS=$n timeout 180 sbatch --wait --quiet \
    --dependency="afterok:$jobid" --kill-on-invalid-dep=yes --job-name=polytile-merge --chdir="$repo" \
    --output="$tmp/slurm/$name-merge.out" "$sbatch_script" || merge_rc=$?
check "slurm: $name: array job $jobid (--array=1-$n) left shard-1-of-$n.json .. shard-$n-of-$n.json" \
    shard_files_ok "$out" "$n"
got=$("$polytile" merge "$out"/shard-*-of-"$n".json 2>/dev/null | count_of) || true
check "slurm: $name: polytile merge of the $n shards: ${got:-no} solutions, single run ${single[$name]}" \
    same "$got" "${single[$name]}"
got=$(count_of "$tmp/slurm/$name-merge.out")
merge_job_ok() { [ "$merge_rc" = 0 ] && same_and_file "$got" "${single[$name]}" "$out/merged-of-$n.json"; }
check "slurm: $name: merge job (--dependency=afterok:$jobid, exit $merge_rc): ${got:-no} solutions" \
    merge_job_ok

# magic-square-4: array 0..N-1 (SHARD_BASE=0, SHARDS given), sbatch --wait, merge here.
name=magic-square-4
n=${shards[$name]}
out=$tmp/slurm/$name
array_rc=0
POLYTILE="$polytile" POLYTILE_ARGS="${command[$name]}" OUTDIR="$out" SHARDS=$n SHARD_BASE=0 \
    timeout 180 sbatch --wait --quiet --array="0-$((n - 1))" --chdir="$repo" \
    --output="$tmp/slurm/$name-%A_%a.out" "$sbatch_script" || array_rc=$?
check "slurm: $name: sbatch --wait --array=0-$((n - 1)) (SHARD_BASE=0) exit $array_rc, left shard-1-of-$n.json .. shard-$n-of-$n.json" \
    shard_files_ok "$out" "$n"
got=$("$polytile" merge "$out"/shard-*-of-"$n".json 2>/dev/null | count_of) || true
check "slurm: $name: polytile merge of the $n shards: ${got:-no} solutions, single run ${single[$name]}" \
    same "$got" "${single[$name]}"
rm -f "$out/shard-2-of-$n.json"
merge_err=$("$polytile" merge "$out"/shard-*-of-"$n".json 2>&1 >/dev/null) && merge_rc=0 || merge_rc=$?
check "polytile merge refuses a missing shard: exit $merge_rc, '$merge_err'" \
    same "$merge_rc" 2

# A requeued task goes on from its checkpoint: one shard of 100 of the 5x5 magic square
# (some seconds on one thread), requeued once its checkpoint holds finished tasks.
name=magic-square-5
n=100
out=$tmp/slurm/$name
args=(sums data/magic-square-5.sum --count)
"$polytile" "${args[@]}" --shard "1/$n" --format json --threads 1 >"$tmp/slurm/$name-reference.json" &
reference=$!
jobid=$(POLYTILE="$polytile" POLYTILE_ARGS="${args[*]}" OUTDIR="$out" SHARDS=$n THREADS=1 \
    CHECKPOINT_EVERY=0.5 sbatch --parsable --array=1 --chdir="$repo" \
    --output="$tmp/slurm/$name-%A_%a.out" "$sbatch_script") || fatal "sbatch --array=1 for $name"
jobid=${jobid%%;*}
task=${jobid}_1
checkpoint=$out/shard-1-of-$n.checkpoint
started_work() { grep -qs '"done":[1-9]' "$checkpoint"; }
task_gone() { [ -z "$(squeue -h -j "$task" 2>/dev/null)" ]; }
started_or_gone() { started_work || task_gone; }
requeued=
if wait_for 60 started_or_gone && started_work && scontrol requeue "$task" 2>"$tmp/slurm/requeue.err"; then
    requeued=1
    # Slurm holds a requeued job back for a while (BeginTime); let it start now.
    for _ in $(seq 100); do
        state=$(squeue -h -j "$task" -o '%T %r' 2>/dev/null || true)
        case "$state" in
            "PENDING BeginTime") scontrol update JobId="$task" StartTime=now 2>/dev/null || true ;;
            "" | RUNNING*) break ;;
        esac
        sleep 0.2
    done
fi
check "slurm: requeued running task $task of $name (shard 1/$n) after its checkpoint had tasks done" \
    test -n "$requeued"
wait_for 120 task_gone || true
wait "$reference" || true
log=$tmp/slurm/$name-${jobid}_1.out
resumed=$(grep -o 'resuming from .*(tasks done: [1-9][0-9]* of [0-9]*)' "$log" | head -n 1 || true)
check "slurm: task $task ran again after the requeue and resumed: ${resumed:-no resume in its log}" \
    grep -q '(restarts: 1)' "$log"
solutions_of() { tail -n 1 "$1" 2>/dev/null | grep -o '"solutions":[0-9]*' | cut -d: -f2 || true; }
got=$(solutions_of "$out/shard-1-of-$n.json")
want=$(solutions_of "$tmp/slurm/$name-reference.json")
check "slurm: resumed shard 1/$n of $name: ${got:-no} solutions, ${want:-no} in one run of the shard" \
    same "$got" "$want"

# --- GNU parallel on this machine ---------------------------------------------------------
# parallel keeps its notes under ~/.parallel: here, in the temporary directory.
export HOME=$tmp/home
mkdir -p "$HOME" "$tmp/parallel"
parallel_shards=$scripts/parallel-shards.sh
for name in "${names[@]}"; do
    n=${shards[$name]}
    read -r -a args <<<"${command[$name]}"
    extra=()
    [ "$name" != magic-square-4 ] || extra=(--checkpoint -j 2)
    got=$("$parallel_shards" -p "$polytile" -o "$tmp/parallel/$name" "${extra[@]}" "$n" "${args[@]}" \
        2>"$tmp/parallel/$name.err" | count_of) || true
    check "parallel: $name in $n shards${extra[*]:+ (${extra[*]})}: ${got:-no} solutions, single run ${single[$name]}" \
        same_and_file "$got" "${single[$name]}" "$tmp/parallel/$name/merged-of-$n.json"
done
bad_rc=0
"$parallel_shards" 0 solve data/pentomino-6x10.puz --count >/dev/null 2>&1 || bad_rc=$?
check "parallel-shards.sh with N=0 exits 2 (got $bad_rc)" test "$bad_rc" = 2

# --- GNU parallel over ssh to 127.0.0.1 ---------------------------------------------------
ssh_part() {
    local dir=$tmp/ssh port
    command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || { skip "ssh: no sshd (openssh-server)"; return 0; }
    command -v rsync >/dev/null 2>&1 || { skip "ssh: no rsync"; return 0; }
    port=$(free_port) || { skip "ssh: no free port"; return 0; }
    mkdir -p "$dir"
    ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" -C polytile-test-host
    ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key" -C polytile-test-client
    # Only this key, only from 127.0.0.1, with HOME in the temporary directory (where
    # the remote side of parallel keeps its working directories).
    mkdir -p "$dir/home"
    echo "environment=\"HOME=$dir/home\",from=\"127.0.0.1\" $(cat "$dir/client_key.pub")" >"$dir/authorized_keys"
    chmod 600 "$dir/authorized_keys"
    cat >"$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
AllowUsers root
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitUserEnvironment yes
StrictModes no
X11Forwarding no
PrintMotd no
EOF
    echo "[127.0.0.1]:$port $(cat "$dir/host_key.pub")" >"$dir/known_hosts"
    cat >"$dir/ssh_config" <<EOF
Host polytile-test-ssh
  HostName 127.0.0.1
  Port $port
  User root
  IdentityFile $dir/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $dir/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 5
EOF
    # sshd wants its privilege separation directory.
    if [ ! -d /run/sshd ]; then
        mkdir -p /run/sshd && chmod 755 /run/sshd && made_run_sshd=1
    fi
    if ! /usr/sbin/sshd -t -f "$dir/sshd_config" >"$dir/sshd.out" 2>&1; then
        skip "ssh: sshd refuses its configuration: $(head -n 1 "$dir/sshd.out")"
        return 0
    fi
    /usr/sbin/sshd -D -e -f "$dir/sshd_config" >>"$dir/sshd.out" 2>&1 &
    pids+=($!)
    local ssh=(ssh -F "$dir/ssh_config")
    ssh_ok() { "${ssh[@]}" polytile-test-ssh true </dev/null; }
    if ! wait_for 20 port_open "$port" || ! wait_for 10 ssh_ok; then
        skip "ssh: cannot log in to sshd on 127.0.0.1:$port (log: $dir/sshd.out)"
        return 0
    fi
    pass "ssh: sshd on 127.0.0.1:$port, key login for root"
    local name n got mode
    for name in "${names[@]}"; do
        n=${shards[$name]}
        read -r -a args <<<"${command[$name]}"
        # pentomino: same paths on the "remote" machine; magic square: --transfer.
        mode=()
        [ "$name" != magic-square-4 ] || mode=(--transfer)
        got=$("$parallel_shards" -p "$polytile" --ssh "${ssh[*]}" -S 2/polytile-test-ssh "${mode[@]}" \
            -o "$dir/$name" "$n" "${args[@]}" 2>"$dir/$name.err" </dev/null | count_of) || true
        check "parallel --sshlogin 127.0.0.1: $name in $n shards${mode[*]:+ (${mode[*]})}: ${got:-no} solutions, single run ${single[$name]}" \
            same "$got" "${single[$name]}"
    done
}
if [ "${SCHEDULER_TEST_SSH:-1}" = 0 ]; then
    skip "ssh: SCHEDULER_TEST_SSH=0"
else
    ssh_part
fi
