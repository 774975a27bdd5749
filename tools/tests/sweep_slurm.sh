#!/usr/bin/env bash
# Integration test of scripts/sweep-slurm on a real Slurm: starts a
# single-node cluster in a temporary directory (munged with its own key and
# socket, slurmctld and slurmd with a minimal slurm.conf on free ports),
# submits a 4-task sweep array and its merge job, and compares the merged
# result with an unsharded run byte for byte. Then stops the daemons.
#
#   sweep_slurm.sh PECHECK SWEEP_SLURM WORK_DIR
#
# Exits 77 (ctest: skipped) with the reason when Slurm or munge is not
# installed (.ci/run installs them: scripts/setup --with-slurm), or when not
# root: slurmd starts jobs as their user, which needs root.
set -euo pipefail
pecheck=$1 sweep_slurm=$2 work=$3

skip() {
  echo "SKIPPED: $*"
  exit 77
}
for program in munged slurmctld slurmd sbatch scontrol squeue sinfo; do
  command -v "$program" >/dev/null || PATH=$PATH:/usr/sbin command -v "$program" >/dev/null ||
    skip "$program not found: install slurm-wlm and munge (scripts/setup --with-slurm, as CI does)"
done
PATH=$PATH:/usr/sbin
[ "$(id -u)" -eq 0 ] || skip "not root: slurmd must run as root to start jobs (CI runs as root)"

rm -rf "$work"
mkdir -p "$work"/{state,spool,run,sweep}
chmod 0755 "$work/run"  # munged wants its socket reachable by every user
export SLURM_CONF=$work/slurm.conf

pids=()
cleanup() {
  local status=$?
  # Our cluster's jobs, then the daemons we started, by their process ids.
  local jobs
  jobs=$(timeout 5 squeue -h -o %i 2>/dev/null || true)
  [ -z "$jobs" ] || timeout 5 scancel --quiet $jobs 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
    for log in "$work"/*.out "$work"/*.log "$work"/sweep/*.log; do
      [ -f "$log" ] && { echo "---- $log"; tail -n 30 "$log"; }
    done
  fi
  exit "$status"
}
trap cleanup EXIT

# Two free TCP ports for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])')

# munge: a fresh key and a private socket, so no system munged is needed.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/run/munge.socket" \
  --pid-file="$work/run/munged.pid" --log-file="$work/munged.log" --seed-file="$work/run/munged.seed" --foreground >"$work/munged.out" 2>&1 &
pids+=($!)

host=$(hostname -s)
# The node as slurmd sees it (CPUs, sockets, memory), so it registers at once;
# addresses given as 127.0.0.1, so nothing depends on the host name resolving.
node_line=$(slurmd -C | head -n 1 | sed "s/^NodeName=[^ ]*/NodeName=$host/")
user=$(id -un)
cat > "$SLURM_CONF" <<EOF
ClusterName=pecheck-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$work/run/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=pecheck Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

for _ in $(seq 50); do [ -S "$work/run/munge.socket" ] && break; sleep 0.1; done
[ -S "$work/run/munge.socket" ] || { echo "munged did not start"; exit 1; }
slurmctld -D -c -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)

# Wait for the node to be idle (registered) before submitting; a daemon
# that died fails the test at once, with its log.
alive() {
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a daemon (pid $pid) exited"; return 1; }; done
}
state=""
for _ in $(seq 60); do
  alive || exit 1
  state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$state" = "idle" ] && break
  sleep 0.5
done
[ "$state" = "idle" ] || { echo "the node did not become idle (state '$state')"; exit 1; }

# The work: small enough for seconds, large enough that 4 shards differ.
sweep=(--convention vaswani --dim 64 --dtype float32 --positions 0:1023)
"$pecheck" sweep "${sweep[@]}" --threads 1 --output "$work/unsharded.json" >/dev/null

timeout 120 "$sweep_slurm" --shards 4 --output "$work/merged.json" --dir "$work/sweep" --pecheck "$pecheck" \
  --sbatch-arg --cpus-per-task=1 --wait -- "${sweep[@]}"

for i in 0 1 2 3; do
  [ -f "$work/sweep/part-$i.json" ] || { echo "task $i wrote no part"; exit 1; }
  grep -q "\"index\": $i," "$work/sweep/part-$i.json" || { echo "part-$i.json is not shard $i"; exit 1; }
done
if ! cmp "$work/unsharded.json" "$work/merged.json"; then
  diff "$work/unsharded.json" "$work/merged.json" | head -n 40
  exit 1
fi
echo "merged result of the 4-task Slurm array equals the unsharded run byte for byte"

# afterok: a task that fails (pecheck's exit 2: tf-tutorial rejects odd
# widths) cancels the merge, and --wait reports it.
status=0
timeout 120 "$sweep_slurm" --shards 2 --output "$work/refused.json" --dir "$work/refused" --pecheck "$pecheck" \
  --wait -- --convention tf-tutorial --dim 7 --positions 0:9 || status=$?
if [ "$status" -eq 0 ] || [ -e "$work/refused.json" ]; then
  echo "a failed array task did not stop the merge (status $status)"
  exit 1
fi
echo "a failed array task cancelled the merge (status $status)"
