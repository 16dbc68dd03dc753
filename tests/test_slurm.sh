#!/bin/sh
# The Slurm recipe of docs/ci-recipes.md on a real Slurm: a one-node cluster (slurmctld and
# slurmd on this host, munged for authentication) configured in a temporary directory, a job
# array running shards 1..N (tools/fleet/shard.sh) and a merge job that depends on it
# (tools/fleet/merge.sh); the merged CSV must equal the unsharded run's (--metric
# comparisons: exact counts). Everything is torn down at the end, by process id.
# Exits 77 (skipped) without slurm-wlm and munge, or when not root (the daemons need it).
# Usage: test_slurm.sh PATH/TO/qsortbench
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
for tool in slurmctld slurmd munged sbatch squeue scontrol; do
    command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
    command -v "$tool" >/dev/null 2>&1 || { echo "skipped: no $tool (slurm-wlm, munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "skipped: the Slurm daemons need root"; exit 77; }

N=3
WAIT_S=120
tmp=$(mktemp -d /tmp/qsb-slurm-XXXXXX) || exit 1
chmod 755 "$tmp"
pids=""
teardown() {
    [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user=root >/dev/null 2>&1
    for pid in $pids; do kill "$pid" 2>/dev/null; done
    for pid in $pids; do
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap teardown EXIT
trap 'exit 1' INT TERM
. "$(dirname "$0")/check.sh" # without_run_id; this test's own fail, below, stops at once
fail() { echo "FAIL: $*" >&2; for f in "$tmp"/log/*; do echo "== $f" >&2; tail -5 "$f" >&2; done; exit 1; }

mkdir -p "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/out" "$tmp/munge"
chmod 700 "$tmp/munge"
# munge: a fresh key and a private socket, so no system munged is touched.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --force --socket="$tmp/munge/socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge/seed" || fail "munged did not start"
pids="$(cat "$tmp/munge/munged.pid")"

host=$(hostname -s)
cpus=$(nproc)
port=$((17000 + $$ % 1000))
cat >"$tmp/slurm.conf" <<CONF
ClusterName=qsbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
PlugStackConfig=$tmp/plugstack.conf
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
CONF
: >"$tmp/plugstack.conf"
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q '^idle'; do
    i=$((i + 1))
    [ $i -le 60 ] || fail "the node did not come up"
    sleep 0.5
done
echo "slurm: $(sinfo -h -o '%P %D %t %C')"

# The recipe (docs/ci-recipes.md, "Slurm"), word for word but for the paths.
M="--nelem 100:1000:3000 --sizes 4,32 --patterns random,sorted,reversed --metric comparisons -q"
cat >"$tmp/shard.sbatch" <<JOB
#!/bin/sh
#SBATCH --job-name=qsb-shard
#SBATCH --output=$tmp/log/shard-%a.out
#SBATCH --cpus-per-task=1
exec "$here/tools/fleet/shard.sh" "$bin" "\$SLURM_ARRAY_TASK_ID" "\$SLURM_ARRAY_TASK_COUNT" slurm-node "$tmp/out" $M
JOB
cat >"$tmp/merge.sbatch" <<JOB
#!/bin/sh
#SBATCH --job-name=qsb-merge
#SBATCH --output=$tmp/log/merge.out
exec "$here/tools/fleet/merge.sh" "$bin" "$tmp/out" "$tmp/merged"
JOB
array=$(sbatch --parsable --array=1-$N "$tmp/shard.sbatch") || fail "sbatch of the array"
merge=$(sbatch --parsable --dependency=afterok:$array "$tmp/merge.sbatch") || fail "sbatch merge"
echo "slurm: array job $array (shards 1..$N), merge job $merge (afterok:$array)"
i=0
while squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; do
    i=$((i + 1))
    [ $i -le $((WAIT_S * 2)) ] || fail "the jobs did not finish in $WAIT_S s: $(squeue)"
    sleep 0.5
done
[ -s "$tmp/merged.csv" ] || fail "no merged file: $(cat "$tmp/log/merge.out" 2>/dev/null)"
ls "$tmp/out" | sed 's/^/slurm: shard file /'
"$bin" run $M --json "$tmp/whole.json" --csv "$tmp/whole.csv" >/dev/null 2>&1 || fail "unsharded run"
# Each run has its own id: the rest must be the same.
without_run_id "$tmp/merged.csv" >"$tmp/merged.cut"
without_run_id "$tmp/whole.csv" >"$tmp/whole.cut"
cmp -s "$tmp/merged.cut" "$tmp/whole.cut" || fail "the merged CSV differs from the unsharded run's"
rows=$(($(wc -l <"$tmp/merged.csv") - 1))
echo "slurm: merged $rows rows from $N shards = the unsharded run, byte for byte but the run id (CSV)"
echo "1 passed, 0 failed"
