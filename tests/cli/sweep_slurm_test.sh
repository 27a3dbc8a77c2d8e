#!/usr/bin/env bash
# ssdsim sweep --slurm on a one-node Slurm started for the test (slurm_cluster.sh): the job array
# runs every point and results.csv is the local pool's byte for byte but for the wall-clock
# columns; a resumed --slurm sweep submits nothing when every point finished; a failed point is
# recorded. Usage: sweep_slurm_test.sh SSDSIM SOURCE_DIR
set -uo pipefail
ssdsim=$1 src=$2
work=$(mktemp -d)
cluster=$work/cluster
trap '"$src/tests/cli/slurm_cluster.sh" stop "$cluster"; rm -rf "$work"' EXIT
failures=0
check() {  # name condition-status detail
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1: $3"; failures=$((failures + 1)); fi
}
python=/usr/bin/python3
[ -x $python ] || python=python3

if ! SLURM_CONF=$("$src/tests/cli/slurm_cluster.sh" start "$cluster"); then
  echo "FAIL the one-node Slurm did not start"; exit 1
fi
export SLURM_CONF
cat > "$work/spec.toml" <<SPEC
[base]
platform = "$src/platforms/default.toml"
scenario = "$src/scenarios/default.toml"
[base.set]
"workload.requests" = 300
"cache.mode" = "write_back"
[sweep]
ftl = ["page", "vet"]
"dram.capacity_bytes" = [67108864, 8388608]
"cache.capacity_bytes" = [1048576, 16777216]
[slurm]
cpus_per_task = 1
mem = "512M"
time = "00:05:00"
SPEC
"$ssdsim" sweep "$work/spec.toml" --out "$work/local" --jobs 2 > /dev/null 2>&1
"$ssdsim" sweep "$work/spec.toml" --out "$work/slurm" --jobs 2 --slurm > "$work/out" 2> "$work/err"
status=$?
check "a failed point makes the --slurm sweep exit 3" $((status != 3)) "$(tail -3 "$work/err")"
strip='import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); keep=[i for i,c in enumerate(rows[0]) if c not in ("wall_s","elapsed_s")]
print("\n".join(",".join(r[i] for i in keep) for r in rows))'
$python -c "$strip" "$work/local/results.csv" > "$work/local.csv"
$python -c "$strip" "$work/slurm/results.csv" > "$work/slurm.csv"
cmp -s "$work/local.csv" "$work/slurm.csv"
check "Slurm gives the local pool's results.csv but for wall-clock columns" $? \
  "$(diff "$work/local.csv" "$work/slurm.csv" | head -5)"
grep -q "^#SBATCH --mem=512M" "$work/slurm/slurm/array.sh"
check "the spec's [slurm] resources are in the array script" $? "$(head -8 "$work/slurm/slurm/array.sh")"
grep -c ',ok,' "$work/slurm.csv" | grep -qx 6
check "six points ran, two failed (a 16 MiB cache in 8 MiB of DRAM)" $? "$(cut -c1-80 "$work/slurm.csv")"
grep -q 'failed,1,.*cache.capacity_bytes' "$work/slurm.csv"
check "the failed points' exit code and error are recorded" $? "$(grep failed "$work/slurm.csv" | head -2)"
"$ssdsim" sweep "$work/spec.toml" --out "$work/slurm" --jobs 2 --slurm > /dev/null 2> "$work/err2"
grep -q "6 finished before, 2 to run" "$work/err2"
check "a resumed --slurm sweep submits only the unfinished points" $? "$(cat "$work/err2")"
echo "$failures failed"
[ "$failures" -eq 0 ]
