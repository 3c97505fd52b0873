#!/usr/bin/env bash
# Installs the Debian packages that the scheduler templates and their end-to-end test
# (scripts/scheduler/test.sh) need. Idempotent: installs only what is missing, and runs
# `apt-get update` at most once per call, and only when something is missing.
#
# Usage: scripts/scheduler/setup.sh [--ssh] [--shellcheck] [--check]
#   (no option)   slurm-wlm, munge and parallel: Slurm's daemons and clients, MUNGE
#                 (Slurm's authentication) and GNU parallel
#   --ssh         also openssh-server, openssh-client and rsync (parallel-shards.sh
#                 --sshlogin and --transfer)
#   --shellcheck  also shellcheck (to lint the scripts)
#   --check       install nothing: list what is missing and exit 1 if anything is
#
# May also be sourced (`. scripts/scheduler/setup.sh`): that defines
# `scheduler_missing PKG...` and `scheduler_install PKG...` and does nothing else.
# Installing needs root and apt-get (Debian, Ubuntu). The packages' services are not
# started by the install: the test starts its own daemons with its own configuration.

# The packages of `scheduler_install PKG...` that are not installed, one per line.
scheduler_missing() {
    local pkg status
    for pkg in "$@"; do
        status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
        [ "$status" = "install ok installed" ] || printf '%s\n' "$pkg"
    done
}

# Installs those of PKG... that are missing; `apt-get update` once per shell, and only
# if something is missing.
scheduler_install() {
    local missing
    missing=$(scheduler_missing "$@")
    [ -n "$missing" ] || return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "scheduler setup: missing $(echo "$missing" | tr '\n' ' ')and cannot install" \
            "them (needs root and apt-get)" >&2
        return 1
    fi
    # No service may start from the packages' install scripts: on a machine without
    # systemd, invoke-rc.d would start munged, slurmctld or sshd with the packages'
    # defaults. A policy-rc.d that says "no" does that, unless one is already there.
    local policy=/usr/sbin/policy-rc.d own_policy=
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && own_policy=1
    fi
    local rc=0
    {
        if [ -z "${SCHEDULER_APT_UPDATED:-}" ]; then
            apt-get update -qq && SCHEDULER_APT_UPDATED=1
        fi
        # shellcheck disable=SC2086 # one package per word
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            $missing >/dev/null
    } || rc=$?
    [ -z "$own_policy" ] || rm -f "$policy"
    if [ "$rc" != 0 ]; then
        echo "scheduler setup: apt-get failed (exit $rc) installing: $(echo "$missing" | tr '\n' ' ')" >&2
        return "$rc"
    fi
}

# Sourced: only the functions.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    return 0
fi

set -euo pipefail
packages=(slurm-wlm munge parallel)
check=
for arg in "$@"; do
    case "$arg" in
        --ssh) packages+=(openssh-server openssh-client rsync) ;;
        --shellcheck) packages+=(shellcheck) ;;
        --check) check=1 ;;
        -h | --help)
            sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
            exit 0
            ;;
        *)
            echo "scheduler setup: unknown option '$arg'; expected --ssh, --shellcheck, --check or --help" >&2
            exit 2
            ;;
    esac
done
if [ -n "$check" ]; then
    missing=$(scheduler_missing "${packages[@]}")
    if [ -n "$missing" ]; then
        echo "missing: $(echo "$missing" | tr '\n' ' ')"
        exit 1
    fi
    exit 0
fi
scheduler_install "${packages[@]}"
