#!/usr/bin/env bash
# Runs a sharded exploration through a real Slurm on this machine and checks
# it against an unsharded one.
#
#   tools/slurm/test-slurm.sh [LIFTC]     (as root; LIFTC defaults to build/tools/liftc/liftc)
#
# Starts a private single-node Slurm (munged, slurmctld, slurmd, with their
# configuration, key, sockets, state and logs in a temporary directory, on
# ports of their own), submits tools/slurm/explore.sbatch for Jacobi2D-5pt at
# 256 x 256 with the exhaustive strategy in 3 shards, waits for the array and
# the dependent merge job, runs the same exploration unsharded, and checks
# that both evaluated the same configurations with the same verdicts, that the
# merged best is the fastest of the shards' best kernels, and compares it with
# the store's fastest record and with the unsharded best configuration
# (tools/slurm/compare_explorations.py: a difference beyond
# timing noise fails only with LIFTCC_SLURM_STRICT_BEST=1, since on a loaded
# shared machine two runs' timings differ by tens of percent). Everything it
# started is stopped on exit.
#
# Exit 0: passed; 1: failed; 77: skipped (the reason is printed), e.g. when
# Slurm or munge is not installed or this is not root. ctest reports 77 as
# skipped. On Debian: apt-get install slurm-wlm munge.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
liftc="${1:-${LIFTC:-$repo/build/tools/liftc/liftc}}"

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  exit 1
}

[[ $(id -u) -eq 0 ]] || skip "not root (slurmd and munged must run as root here)"
for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo python3; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (Debian: apt-get install slurm-wlm munge python3)"
done
[[ -x "$liftc" ]] || fail "liftc not found at '$liftc'"
liftc="$(cd "$(dirname "$liftc")" && pwd)/$(basename "$liftc")"

work="$(mktemp -d /tmp/liftcc-slurm.XXXXXX)"
pids=()
cleanup() {
  local status=$?
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munged.pid"; do
    [[ -s "$pidfile" ]] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 1
  if ((status == 0)); then rm -rf "$work"; else echo "(logs kept in $work)"; fi
}
trap cleanup EXIT

# munge: a key of our own and a private socket.
dd if=/dev/urandom of="$work/munge.key" bs=1 count=1024 status=none
chmod 600 "$work/munge.key"
mkdir -p "$work/munge"
munged --force --key-file="$work/munge.key" --socket="$work/munge/socket" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munged.seed" >/dev/null 2>&1 ||
  skip "munged did not start: $(tail -n 3 "$work/munged.log" 2>/dev/null | tr '\n' ' ')"

# Ports of our own, so a Slurm already running here is not disturbed.
port=$((20000 + RANDOM % 20000))
host="$(hostname -s)"
cpus="$(nproc)"
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=liftcctest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF="$work/slurm.conf"

slurmctld -i >"$work/slurmctld.out" 2>&1 || skip "slurmctld did not start: $(tail -n 3 "$work/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
slurmd >"$work/slurmd.out" 2>&1 || skip "slurmd did not start: $(tail -n 3 "$work/slurmd.log" 2>/dev/null | tr '\n' ' ')"
for ((i = 0; i < 60; ++i)); do
  state="$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)"
  [[ "$state" == idle* || "$state" == mix* ]] && break
  sleep 1
done
[[ "$state" == idle* || "$state" == mix* ]] ||
  skip "the Slurm node did not come up (state '${state:-none}'): $(tail -n 2 "$work/slurmd.log" 2>/dev/null | tr '\n' ' ')"
echo "Slurm is up: node $host, $cpus CPUs, port $port"

# The same exploration, sharded through Slurm and unsharded.
# One task at a time: the shards time kernels on the same CPU device, and
# concurrent tasks would disturb each other's timings (not the results).
# A slice of the space (54 variants: three families, no twins): the test is
# about sharding and merging, and the whole space (over 1,000 kernels) would
# take an hour under the sanitizers.
explore=("$repo/examples/json/jacobi2d_5pt.json" --size N=256,M=256 --search exhaustive --runs 5 --quiet
  --families tiled,local,coarsened --fast-math none --param specialise=off)
cd "$work"
submitted="$(LIFTC="$liftc" LIFTCC_SLURM_PARALLEL=1 "$repo/tools/slurm/explore.sbatch" 3 "$work/sharded" "${explore[@]}")" ||
  fail "submission failed: $submitted"
echo "$submitted"
array="$(awk '$1 == "array" {print $2}' <<<"$submitted")"
merge="$(awk '$1 == "merge" {print $2}' <<<"$submitted")"
[[ -n "$array" && -n "$merge" ]] || fail "explore.sbatch printed no job ids"

job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
deadline=$((SECONDS + 900))
while :; do
  state="$(job_state "$merge")"
  case "$state" in
  COMPLETED) break ;;
  FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
    cat "$work"/sharded/logs/* 2>/dev/null | tail -n 20
    fail "merge job $merge ended $state" ;;
  PENDING)
    # A failed array task leaves the merge job pending forever (afterok).
    if scontrol show job "$merge" 2>/dev/null | grep -q 'Reason=DependencyNeverSatisfied'; then
      cat "$work"/sharded/logs/* 2>/dev/null | tail -n 20
      fail "an array task of job $array failed"
    fi ;;
  esac
  ((SECONDS < deadline)) || fail "the jobs did not finish within 15 minutes (merge job state ${state:-unknown})"
  sleep 2
done
for log in "$work"/sharded/logs/shard-*.out; do echo "--- $(basename "$log")"; tail -n 3 "$log"; done
echo "--- merge.out"; cat "$work/sharded/logs/merge.out"

"$liftc" explore "${explore[@]}" --out "$work/unsharded" >"$work/unsharded.log" 2>&1 ||
  fail "the unsharded exploration failed: $(tail -n 3 "$work/unsharded.log")"

strict=()
[[ "${LIFTCC_SLURM_STRICT_BEST:-0}" == 1 ]] && strict=(--strict-best)
python3 "$repo/tools/slurm/compare_explorations.py" "$work/sharded" "$work/unsharded" "${strict[@]}" ||
  fail "the explorations differ"
echo "PASS: a Slurm job array of 3 shards + merge evaluated the unsharded exploration's configurations with its outcomes"
