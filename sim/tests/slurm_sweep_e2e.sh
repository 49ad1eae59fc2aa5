#!/usr/bin/env bash
# slurm_sweep_e2e.sh DMASIM SOURCE_DIR - a shipped sweep through a real
# Slurm, end to end: starts a private single-node cluster (munged,
# slurmctld, slurmd from Debian's slurm-wlm, every file in a temporary
# folder, ports of its own), runs `dmasim sweep --slurm 3 --slurm-wait`
# (a job array of 3 shards and a merge job after it), runs the same sweep
# locally, and checks the two results.csv are byte-identical and that
# the same point reports exist. Always stops the daemons it started and
# removes its folder.
#
# Exit status: 0 passed, 1 failed, 77 skipped (ctest SKIP_RETURN_CODE)
# with the reason on the line starting "SKIP:": Slurm or munge not
# installed, not root, or the daemons did not come up. With
# DMASIM_REQUIRE_SLURM=1 (as .ci/run sets) a skip is a failure instead.
set -euo pipefail

dmasim=${1:?usage: slurm_sweep_e2e.sh DMASIM SOURCE_DIR}
source_dir=${2:?usage: slurm_sweep_e2e.sh DMASIM SOURCE_DIR}
# Six points: three engine profiles (a base: list) x two completion modes,
# each replaying the shipped NVMe trace; a few seconds of CPU in all.
sweep=$source_dir/configs/sweeps/trace-engines.yaml
tasks=3
# Every wait is bounded; the sum stays well under the ctest TIMEOUT so the
# trap below always gets to stop the daemons.
start_timeout=60
job_timeout=${DMASIM_SLURM_JOB_TIMEOUT:-300}

# The daemons live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
# CI installs Slurm (scripts/install-deps) and sets DMASIM_REQUIRE_SLURM=1:
# there a skip would hide that the cluster path went untested, so it fails.
skip() {
    if [ "${DMASIM_REQUIRE_SLURM:-0}" = 1 ]; then
        echo "FAIL: DMASIM_REQUIRE_SLURM=1 but the test would skip: $*" >&2
        exit 1
    fi
    echo "SKIP: $*"
    exit 77
}
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

for program in munged mungekey slurmctld slurmd sbatch sinfo squeue scancel; do
    command -v "$program" >/dev/null ||
        skip "$program is not installed (Debian: munge slurmctld slurmd slurm-client; scripts/install-deps installs them)"
done
[ "$(id -u)" -eq 0 ] || skip "not root: slurmd starts jobs as their user, which needs root"

tmp=$(mktemp -d /tmp/dmasim-slurm-e2e.XXXXXX)
pids=()
cleanup() {
    local status=$?
    set +e
    # Jobs still queued or running (a failure or a timeout) are cancelled
    # through the test's own slurmctld, and their steps given up to 10 s to
    # end, before the daemons stop.
    if [ ${#pids[@]} -ge 3 ]; then
        timeout 10 scancel --quiet --full --user=root >/dev/null 2>&1
        local wait
        for ((wait = 0; wait < 20; wait++)); do
            [ -z "$(timeout 5 squeue --noheader 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    # Daemons this script started, newest first, by their PID only.
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill -TERM "${pids[i]}" 2>/dev/null
    done
    for ((i = 0; i < 100; i++)); do
        local alive=0 pid
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    if [ $status -ne 0 ] && [ $status -ne 77 ]; then
        for log in "$tmp"/*.log "$tmp"/out/slurm/*.out; do
            [ -f "$log" ] || continue
            echo "--- $log (last 20 lines)"
            tail -n 20 "$log"
        done
    fi
    rm -rf "$tmp"
    exit $status
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# munge: its own key, socket and files. The socket's folder must be open
# to all (munged checks), the key's private.
mkdir -p "$tmp/munge" "$tmp/run" "$tmp/state" "$tmp/spool" "$tmp/local"
chmod 0700 "$tmp/munge"
chmod 0755 "$tmp" "$tmp/run"
mungekey --create --keyfile="$tmp/munge/munge.key" >/dev/null 2>&1 ||
    skip "mungekey could not create a key"
socket=$tmp/run/munge.socket
munged --foreground --key-file="$tmp/munge/munge.key" --socket="$socket" \
    --pid-file="$tmp/run/munged.pid" --log-file="$tmp/munged.log" \
    --seed-file="$tmp/munge/munged.seed" >>"$tmp/munged.log" 2>&1 &
pids+=($!)
for ((i = 0; i < start_timeout * 10; i++)); do
    [ -S "$socket" ] && break
    kill -0 "${pids[0]}" 2>/dev/null || skip "munged did not start: $(tail -n 1 "$tmp/munged.log")"
    sleep 0.1
done
[ -S "$socket" ] || skip "munged did not create its socket in ${start_timeout} s"

host=$(hostname -s)
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$(free_port)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
# A single-node cluster for this test only (sim/tests/slurm_sweep_e2e.sh).
ClusterName=dmasimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
# The main scheduling loop every 2 s (default 60): the merge job starts soon
# after the array ends, not up to a minute later.
SchedulerParameters=sched_interval=2
# sbatch --wait polls at 2 s, then 8 s, then 32 s unless that is more than
# half of MinJobAge (default 300): 16 keeps its polls at 8 s at most.
MinJobAge=16
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
# No SlurmctldLogFile/SlurmdLogFile: run with -D, the daemons log to stderr
# alone, which goes to $tmp/NAME.log.
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i >>"$tmp/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D >>"$tmp/slurmd.log" 2>&1 &
pids+=($!)
state=""
for ((i = 0; i < start_timeout * 2; i++)); do
    kill -0 "${pids[1]}" 2>/dev/null || skip "slurmctld did not start: $(tail -n 1 "$tmp/slurmctld.log")"
    kill -0 "${pids[2]}" 2>/dev/null || skip "slurmd did not start: $(tail -n 1 "$tmp/slurmd.log")"
    state=$(timeout 10 sinfo --noheader --format=%T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || skip "the Slurm node is not idle after ${start_timeout} s (state: ${state:-none})"
echo "slurm $(slurmctld -V | awk '{print $2}') up: node $host idle, ports $ctld_port/$slurmd_port"

# Through Slurm: one command submits the array and the merge, then waits
# for the merge (its exit status is the command's).
started=$(date +%s)
timeout "$job_timeout" "$dmasim" sweep "$sweep" --out "$tmp/out" --slurm "$tasks" --slurm-wait \
    --slurm-option=--time=00:10:00 ||
    fail "dmasim sweep --slurm exited $? (merge log above)"
echo "through Slurm in $(($(date +%s) - started)) s"
for k in $(seq "$tasks"); do
    [ -f "$tmp/out/shard-$k/sweep.json" ] || fail "task $k wrote no shard-$k/sweep.json"
    [ -f "$tmp/out/slurm/shard-$k.out" ] || fail "task $k wrote no log slurm/shard-$k.out"
done
# Every task ran shard K of N, not the whole sweep.
grep -q "shard 2/$tasks" "$tmp/out/slurm/shard-2.out" || fail "task 2 did not run shard 2/$tasks"

# The same sweep on this machine.
"$dmasim" sweep "$sweep" --out "$tmp/local" -j 2 >"$tmp/local.log" 2>&1 ||
    fail "the local sweep exited $?: $(tail -n 5 "$tmp/local.log")"

cmp "$tmp/local/results.csv" "$tmp/out/results.csv" ||
    fail "results.csv through Slurm differs from the local run's: $(diff "$tmp/local/results.csv" "$tmp/out/results.csv" | head -n 10)"
rows=$(($(wc -l <"$tmp/local/results.csv") - 1))
[ "$rows" -ge 6 ] || fail "results.csv has $rows rows, expected the sweep's 6"
local_ids=$(cd "$tmp/local/points" && ls | sort)
slurm_ids=$(cd "$tmp/out/points" && ls | sort)
[ "$local_ids" = "$slurm_ids" ] || fail "the merged folder's point reports differ from the local run's"
echo "results.csv through Slurm ($tasks tasks and a merge) is byte-identical to the local run's ($rows rows)"
echo "1 passed, 0 failed"
