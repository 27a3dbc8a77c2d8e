#!/usr/bin/env bash
# Inputs that used to run to a wrong answer or fail late (issue: bad input refused before the
# run, naming its key): each is refused before anything runs, or stops cleanly saying why, with
# the exit status of docs/errors.md and no output left behind. Usage: input_limits_test.sh SSDSIM SRC
set -u
ssdsim=$(realpath "$1")
src=$2
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
failures=0

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"
cd "$src"

# --- simulated time past 2^63 ps ---
printf '0 0 0 8 0\n100000000000000000 0 8 8 1\n' > "$work/far.trace"
expect_refusal trace-arrival-past-limit "far.trace:2: this request's arrival" --trace "$work/far.trace"
expect_refusal speed-past-limit "msr-cut-rw40.csv:" --scenario scenarios/trace-msr-rw40.toml \
  --set workload.speed=0.000001
expect_refusal read-time-range "key 'nand.t_read_us': must be in (0, 1000000]" \
  --set nand.t_read_us=1e300
expect_refusal cpu-clock-range "key 'controller.cpu_mhz': must be in [0.001, 1000000]" \
  --set controller.cpu_mhz=1e-300
expect_refusal pcie-rate-range "key 'host.pcie_gt_s': must be in [0.001, 1000]" \
  --set host.pcie_gt_s=1e-300
expect_refusal open-loop-too-long "key 'workload.interarrival_us': x workload.requests" \
  --set workload.mode=open --set workload.interarrival_us=1e9 --set workload.requests=10000000
# Arrives 776 ns before the limit: its completion passes it, and the run stops there.
printf '0 0 0 8 0\n9223372036854000 0 8 8 1\n' > "$work/edge.trace"
expect_refusal completion-past-limit "the run stopped: request 2 at simulated time" \
  --trace "$work/edge.trace"

# --- files and folders ---
expect_refusal platform-is-a-folder "platforms: is a directory, not a TOML file" --platform platforms
expect_refusal scenario-is-a-folder "scenarios: is a directory, not a TOML file" --scenario scenarios
# expect_out_refused NAME FOLDER TEXT: refused before the run, nothing written there.
expect_out_refused() {
  "$ssdsim" run --quiet --out "$2" > /dev/null 2> "$work/stderr"
  local status=$?
  if [ $status -eq 1 ] && grep -qF -- "$3" "$work/stderr" && [ ! -e "$2/report.json" ]; then
    echo "ok   $1"
  else
    echo "FAIL $1: exit $status"; cat "$work/stderr"; failures=$((failures + 1))
  fi
}
touch "$work/a-file"
expect_out_refused out-is-a-file "$work/a-file" "--out $work/a-file: exists and is not a folder"
expect_out_refused out-in-proc /proc "--out /proc: cannot create a file in this folder"
if [ "$(id -u)" -ne 0 ]; then  # root writes into read-only folders
  mkdir "$work/read-only" && chmod 555 "$work/read-only"
  expect_out_refused out-read-only "$work/read-only" "cannot create a file in this folder"
fi

# --- what the schemes cannot run, and devices too large to hold ---
for scheme in vet emt page dftl; do
  expect_refusal "one-page-blocks-$scheme" "key 'nand.pages_per_block': must be >= 2 for the $scheme scheme" \
    --ftl "$scheme" --set nand.pages_per_block=1 --set nand.blocks_per_plane=64 \
    --set ftl.over_provisioning=0.3
done
expect_refusal huge-device "make the device smaller (nand.channels" \
  --set nand.blocks_per_plane=15000000
expect_refusal memory-limit "sim.memory_limit_bytes allows" --set sim.memory_limit_bytes=100000
expect_refusal small-spare-area "key 'nand.spare_bytes': the fast scheme keeps 4 bytes" \
  --ftl fast --set nand.spare_bytes=1
for scheme in block nftl fast; do
  expect_refusal "placement-$scheme" "key 'ftl.placement': does not apply to the $scheme scheme" \
    --ftl "$scheme" --set ftl.placement=static
done
expect_refusal unknown-placement "key 'ftl.placement'" --set ftl.placement=random
expect_refusal unknown-gc-mode "key 'ftl.gc_mode'" --set ftl.gc_mode=lazy
expect_refusal unknown-die-scheduling "key 'nand.die_scheduling'" --set nand.die_scheduling=edf
expect_refusal zero-gc-backlog "key 'nand.gc_backlog_victims_per_die': must be in [1, 1024]" \
  --set nand.gc_backlog_victims_per_die=0

# --- options ---
expect_refusal empty-ftl "--ftl: key 'ftl.scheme': must name a scheme" --ftl ""
expect_refusal fit-names-itself "--fit: key 'workload.fit': must be one of" --fit bogus
expect_refusal default-origin "(built-in platform defaults): key 'nvram.capacity_bytes'" \
  --set nvram.kind=pcm
scheme_of() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['run']['scheme'])" "$1"; }
"$ssdsim" run --quiet --out "$work/later-ftl" --set ftl.scheme=dftl --ftl page > /dev/null &&
"$ssdsim" run --quiet --out "$work/later-set" --ftl page --set ftl.scheme=dftl > /dev/null
if [ "$(scheme_of "$work/later-ftl/report.json")" = page ] &&
   [ "$(scheme_of "$work/later-set/report.json")" = dftl ]; then
  echo "ok   later-option-wins"
else
  echo "FAIL later-option-wins"; failures=$((failures + 1))
fi
"$ssdsim" run --quiet --out "$work/fit-then-set" --trace scenarios/traces/tpcc-small.trace \
  --fit scale --set workload.fit=error > /dev/null 2> "$work/stderr"
status=$?
if [ $status -eq 1 ] && grep -qF "use --fit wrap or --fit scale" "$work/stderr"; then
  echo "ok   set-after-fit-wins"
else
  echo "FAIL set-after-fit-wins: exit $status"; cat "$work/stderr"; failures=$((failures + 1))
fi
"$ssdsim" run --out "$work/trace-summary" --trace scenarios/traces/msr-cut-rw40.csv --fit scale \
  > "$work/stdout" 2> "$work/stderr"
if grep -qF "scenario msr-cut-rw40.csv" "$work/stdout" &&
   ! grep -q "scenarios/default.toml" "$work/stdout"; then
  echo "ok   trace-names-the-scenario"
else
  echo "FAIL trace-names-the-scenario"; cat "$work/stdout"; failures=$((failures + 1))
fi
printf '8,0 0 1 0.000001000 10 A W 100 + 8 <- (8,1) 36\n8,0 0 2 0.000002000 10 G W 100 + 8 [fio]\n' \
  > "$work/no-queue.blkparse"
expect_refusal blkparse-actions "it has no Q events, only A 1, G 1" --trace "$work/no-queue.blkparse" \
  --trace-format blkparse --set workload.blkparse_action=Q

# --- results folders: a second run in the same second gets its own ---
mkdir "$work/cwd" && (cd "$work/cwd" && "$ssdsim" run --quiet > /dev/null && "$ssdsim" run --quiet > /dev/null)
if [ "$(ls "$work/cwd/results" | wc -l)" -eq 2 ]; then
  echo "ok   fresh-results-folders"
else
  echo "FAIL fresh-results-folders: $(ls "$work/cwd/results")"; failures=$((failures + 1))
fi

# --- SIGINT: progress while it runs, then a clean stop ---
"$ssdsim" run --out "$work/interrupted" --set workload.requests=200000000 --set run.progress=true \
  > "$work/stdout" 2> "$work/stderr" &
pid=$!
sleep 4
kill -INT $pid
wait $pid
status=$?
if [ $status -eq 130 ] && grep -q "interrupted; nothing was written" "$work/stderr" &&
   grep -q "requests/s" "$work/stderr" && [ ! -e "$work/interrupted" ]; then
  echo "ok   sigint"
else
  echo "FAIL sigint: exit $status"; tr '\r' '\n' < "$work/stderr" | tail -3; failures=$((failures + 1))
fi

echo "$failures failed"
[ $failures -eq 0 ]
