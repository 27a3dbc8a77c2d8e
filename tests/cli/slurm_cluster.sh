#!/usr/bin/env bash
# A one-node Slurm cluster on loopback for the sweep tests (tests/cli/sweep_slurm_test.sh), from
# Debian's slurm-wlm and munge: munged, slurmctld and slurmd, each with its files in DIR, on
# ports of their own, so nothing of a system-wide Slurm or munge is touched.
#   slurm_cluster.sh start DIR   starts them; prints the SLURM_CONF to export; waits until the
#                                node is idle (60 s at most)
#   slurm_cluster.sh stop DIR    stops them
set -euo pipefail
action=$1 dir=$2
case $action in
  stop)
    for pid in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
      [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    exit 0 ;;
  start) ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
for program in munged slurmctld slurmd sbatch sinfo; do
  command -v "$program" > /dev/null || { echo "slurm_cluster: $program missing (tools/setup.sh \
installs slurm-wlm and munge)" >&2; exit 1; }
done
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
# --force: the tests may run as root, which munged otherwise refuses.
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed"
user=$(id -un)
cpus=$(nproc)
memory_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))  # jobs may ask --mem
base=$((20000 + $$ % 20000))  # ports of this cluster's own
cat > "$dir/slurm.conf" <<CONF
ClusterName=ssdsimtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
NodeName=ssdsimnode NodeAddr=127.0.0.1 NodeHostname=$(hostname -s) CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=test Nodes=ssdsimnode Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF" -N ssdsimnode
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then
    echo "$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
echo "slurm_cluster: the node did not come up; logs in $dir" >&2
tail -5 "$dir"/slurmctld.log "$dir"/slurmd.log >&2 || true
exit 1
