#!/usr/bin/env bash
# fio job files as a user runs them (docs/clients.md): every bundled scenarios/*.fio runs and
# writes fio's JSON, which fio's own fio_jsonplus_clat2csv reads (a CSV per job); its jobs' I/O
# adds up to the run's; one job equals the same workload set by keys, byte for byte; a job file
# that cannot be run is refused naming the file, line and option, with nothing written.
# Usage: fio_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0
cd "$src"

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"
# shellcheck source=report_check_lib.sh
source "$(dirname "$0")/report_check_lib.sh"  # check NAME CONDITION MESSAGE
# fio_check NAME CONDITION MESSAGE: CONDITION over fio.json `f` and report.json `r` of run NAME.
fio_check() {
  if python3 -c "import json,sys; f=json.load(open('$work/$1/fio.json')); r=json.load(open('$work/$1/report.json')); sys.exit(0 if ($2) else 1)"; then
    passed=$((passed + 1))
  else
    echo "FAIL $1: $3"; failures=$((failures + 1))
  fi
}

# Every bundled job file: runs, passes the oracle, and fio's tool reads its json+ output.
for job in scenarios/*.fio; do
  name=$(basename "$job" .fio)
  if ! "$ssdsim" run --quiet --fio "$job" --output-format=json+ --out "$work/$name" \
      > /dev/null 2> "$work/$name.err"; then
    echo "FAIL $name: exit status $?"; cat "$work/$name.err"; failures=$((failures + 1)); continue
  fi
  passed=$((passed + 1))
  check "$name" "r['integrity']['mismatches'] == 0" "the oracle found mismatches"
  fio_check "$name" \
    "all(sum(j[k]['total_ios'] for j in f['jobs']) == r['requests'][k] for k in ('read', 'write', 'trim'))" \
    "the jobs' I/O does not add up to the run's"
  fio_check "$name" "sum(j['sync']['total_ios'] for j in f['jobs']) == r['requests']['flush']" \
    "the jobs' syncs are not the run's flushes"
  jobs=$(python3 -c "import json; print(len(json.load(open('$work/$name/fio.json'))['jobs']))")
  (cd "$work/$name" && fio_jsonplus_clat2csv fio.json clat.csv > /dev/null 2>&1)
  made=$(ls "$work/$name"/clat_job*.csv 2> /dev/null | wc -l)
  if [ "$made" -eq "$jobs" ] && [ "$(wc -l < "$work/$name/clat_job0.csv")" -gt 1 ]; then
    passed=$((passed + 1))
  else
    echo "FAIL $name: fio_jsonplus_clat2csv made $made CSV files for $jobs jobs"
    failures=$((failures + 1))
  fi
done
# The accepted-and-ignored options are noted on stderr, with their line.
if grep -qF "note: scenarios/randread-4k-qd1.fio:5: ioengine: accepted and ignored" \
    "$work/randread-4k-qd1.err"; then
  passed=$((passed + 1))
else
  echo "FAIL: no note for ioengine"; cat "$work/randread-4k-qd1.err"; failures=$((failures + 1))
fi
# Two jobs at once: each has its own I/O, and the scan only reads.
fio_check mixed-70-30 "[j['jobname'] for j in f['jobs']] == ['oltp', 'scan']" "jobs not in order"
fio_check mixed-70-30 "f['jobs'][1]['write']['total_ios'] == 0 and f['jobs'][1]['read']['total_ios'] > 0" \
  "the sequential reader wrote, or read nothing"
fio_check mixed-70-30 "0.6 < f['jobs'][0]['read']['total_ios'] / (f['jobs'][0]['read']['total_ios'] + f['jobs'][0]['write']['total_ios']) < 0.8" \
  "rwmixread=70 did not give about 70 % reads"

# Each job keeps its own queue depth: a reader at QD 1 in the first 16 MiB beside a writer at QD 4
# in the next (told apart by address in the request log): at most 1 and 4 of their commands are
# in flight at any time, and the writer reaches 4.
cat > "$work/depths.fio" <<'JOB'
[reader]
rw=randread
bs=4k
size=16m
iodepth=1
number_ios=2000
[writer]
rw=randwrite
bs=4k
offset=16m
size=16m
iodepth=4
number_ios=2000
JOB
"$ssdsim" run --quiet --fio "$work/depths.fio" --out "$work/depths" --set run.request_log=true \
  > /dev/null 2>&1
if python3 - "$work/depths/requests.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def deepest(rows):
    events = sorted([(int(r["submit_ns"]), 1) for r in rows] + [(int(r["complete_ns"]), -1) for r in rows])
    depth = most = 0
    for _, step in events:
        depth += step
        most = max(most, depth)
    return most
reader = [r for r in rows if int(r["start_sector"]) < 16 * 2048 and r["kind"] != "flush"]
writer = [r for r in rows if int(r["start_sector"]) >= 16 * 2048]
ok = len(reader) == 2000 and len(writer) == 2000 and deepest(reader) == 1 and deepest(writer) == 4
if not ok:
    print("reader", len(reader), deepest(reader), "writer", len(writer), deepest(writer))
sys.exit(0 if ok else 1)
PY
then
  passed=$((passed + 1))
else
  echo "FAIL: a job's commands in flight exceeded its iodepth, or the writer never reached it"
  failures=$((failures + 1))
fi

# A stonewall, a think time and a rate: a sequential fill, then (once its last write is done) a
# reader at QD 1 that thinks 500 us after each read, beside a reader paced at 2000 IOPS at QD 8 in
# the next 16 MiB (told apart by address in the request log).
cat > "$work/phases.fio" <<'JOB'
[fill]
rw=write
bs=64k
size=16m
iodepth=4
[think]
stonewall
rw=randread
bs=4k
size=16m
iodepth=1
thinktime=500
number_ios=200
[paced]
rw=randread
bs=4k
offset=16m
size=16m
iodepth=8
rate_iops=2000
number_ios=400
JOB
"$ssdsim" run --quiet --fio "$work/phases.fio" --out "$work/phases" --set run.request_log=true \
  --output-format=json > /dev/null 2>&1
if python3 - "$work/phases" <<'PY'
import csv, json, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/requests.csv")))
fill = [r for r in rows if r["kind"] == "write"]
think = sorted((r for r in rows if r["kind"] == "read" and int(r["start_sector"]) < 16 * 2048),
               key=lambda r: int(r["submit_ns"]))
paced = sorted((r for r in rows if r["kind"] == "read" and int(r["start_sector"]) >= 16 * 2048),
               key=lambda r: int(r["submit_ns"]))
problems = []
if (len(fill), len(think), len(paced)) != (256, 200, 400):
    problems.append(f"commands {len(fill)}, {len(think)}, {len(paced)}")
fill_end = max(int(r["complete_ns"]) for r in fill)
if min(int(r["submit_ns"]) for r in think + paced) < fill_end:
    problems.append("a read started before the fill behind the stonewall ended")
gaps = [int(b["submit_ns"]) - int(a["complete_ns"]) for a, b in zip(think, think[1:])]
if min(gaps) < 500000 or statistics.median(gaps) != 500000:
    problems.append(f"think gaps: min {min(gaps)}, median {statistics.median(gaps)} ns")
steps = [int(b["submit_ns"]) - int(a["submit_ns"]) for a, b in zip(paced, paced[1:])]
if min(steps) < 500000:
    problems.append(f"paced reads {min(steps)} ns apart")
groups = [j["groupid"] for j in json.load(open(sys.argv[1] + "/fio.json"))["jobs"]]
if groups != [0, 1, 1]:
    problems.append(f"groupids {groups}")
print("; ".join(problems))
sys.exit(1 if problems else 0)
PY
then
  passed=$((passed + 1))
else
  echo "FAIL: stonewall, thinktime or rate_iops not kept (above)"
  failures=$((failures + 1))
fi

# One job through --fio is the same run as its workload set by keys (the stream path with one
# stream is the single-workload path), byte for byte but for the wall clock and the names.
cat > "$work/one.fio" <<'JOB'
[global]
bs=8k
size=32m
offset=16m
[one]
rw=randrw
rwmixread=60
iodepth=4
number_ios=3000
fsync=16
randseed=9
JOB
"$ssdsim" run --quiet --fio "$work/one.fio" --out "$work/by-fio" > /dev/null 2>&1
"$ssdsim" run --quiet --out "$work/by-keys" --set scenario.name=one.fio \
  --set workload.pattern=random --set workload.read_ratio=0.6 --set workload.request_bytes=8192 \
  --set workload.align_bytes=8192 --set workload.address_start_bytes=16777216 \
  --set workload.address_span_bytes=33554432 --set workload.queue_depth=4 \
  --set workload.requests=3000 --set workload.io_bytes=33554432 \
  --set workload.flush_every_writes=16 --set workload.seed=9 --set workload.random_map=true \
  > /dev/null 2>&1
strip() { python3 "$(dirname "$0")/strip_wall_clock.py" "$1"; }
if [ -f "$work/by-fio/report.json" ] && [ -f "$work/by-keys/report.json" ] &&
   cmp -s <(strip "$work/by-fio/report.json") <(strip "$work/by-keys/report.json"); then
  passed=$((passed + 1))
else
  echo "FAIL: one fio job differs from the same workload set by keys"
  diff <(strip "$work/by-fio/report.json") <(strip "$work/by-keys/report.json") | head
  failures=$((failures + 1))
fi

# The same job file twice: fio.json byte for byte the same (no wall-clock field in it).
"$ssdsim" run --quiet --fio scenarios/mixed-70-30.fio --output-format=json+ --out "$work/again" \
  > /dev/null 2>&1
if cmp -s "$work/mixed-70-30/fio.json" "$work/again/fio.json"; then
  passed=$((passed + 1))
else
  echo "FAIL: two runs of one job file wrote different fio.json"; failures=$((failures + 1))
fi

# Refusals: the file, the line and the option; nothing written.
refuse() {  # as expect_refusal, counted
  local before=$failures
  expect_refusal "$@"
  [ "$failures" -eq "$before" ] && passed=$((passed + 1))
}
printf 'bs=4k\n[job]\nrw=read\n' > "$work/outside.fio"
refuse option-outside-a-section "$work/outside.fio:1: option \`bs=4k\` before any [section]" \
  --fio "$work/outside.fio"
printf '[job]\nrw=randread\nzonemode=zbd\n' > "$work/unknown.fio"
refuse option-not-modelled "$work/unknown.fio:3: option \`zonemode=zbd\`: not modelled" \
  --fio "$work/unknown.fio"
printf '[big]\nrw=write\nsize=10g\n' > "$work/big.fio"
refuse size-past-the-device "$work/big.fio:1: job \`big\`: offset + size" \
  --fio "$work/big.fio"
refuse missing-job-file "$work/none.fio: cannot open the fio job file" --fio "$work/none.fio"
refuse fio-and-set-workload "--set workload.requests=5: with --fio the job file sets" \
  --fio scenarios/seqwrite-128k.fio --set workload.requests=5
refuse fio-and-trace "--fio and --trace both name the workload" \
  --fio scenarios/seqwrite-128k.fio --trace scenarios/traces/financial1-head10k.spc
refuse fio-and-power-cuts "power cuts with fio jobs are not modelled" \
  --fio scenarios/mixed-70-30.fio --set power.cuts=2
refuse bad-output-format "--output-format" --output-format=xml

# ramp_time: the jobs run that long first, unmeasured; the report (host figures and device
# counters alike) measures the runtime after it. Against the same job run 30 ms with no ramp:
# about two thirds of the writes, the window 20 ms, and every flash count only the window's.
printf '[w]\nrw=randwrite\nbs=4k\niodepth=8\ntime_based\nruntime=20ms\nramp_time=10ms\n' \
  > "$work/ramped.fio"
printf '[w]\nrw=randwrite\nbs=4k\niodepth=8\ntime_based\nruntime=30ms\n' > "$work/unramped.fio"
for name in ramped unramped; do
  "$ssdsim" run --quiet --fio "$work/$name.fio" --set cache.mode=off --output-format=json \
    --out "$work/$name" > /dev/null 2>&1 || { echo "FAIL $name: the run failed"; failures=$((failures + 1)); }
done
check ramped "20e6 <= r['sim']['simulated_ns'] < 22e6" "the measured window is not the 20 ms runtime"
check ramped "r['ftl']['host_units_written'] == r['requests']['write'] == r['nand_ops']['program']" \
  "the flash counted writes from the ramp (cache off: one program per 4 KiB write)"
fio_check ramped "f['jobs'][0]['write']['total_ios'] == r['requests']['write']" \
  "fio.json counts other writes than the report"
if python3 -c "import json,sys; a=json.load(open('$work/ramped/report.json')); b=json.load(open('$work/unramped/report.json')); sys.exit(0 if 0.55 < a['requests']['write'] / b['requests']['write'] < 0.78 else 1)"; then
  passed=$((passed + 1))
else
  echo "FAIL ramped: not about two thirds of the unramped run's writes"; failures=$((failures + 1))
fi

# A job that ends within its ramp: nothing measured, the device's counters included.
printf '[w]\nrw=randwrite\nbs=4k\nnumber_ios=50\nramp_time=1s\n' > "$work/all-ramp.fio"
"$ssdsim" run --quiet --fio "$work/all-ramp.fio" --set cache.mode=off --out "$work/all-ramp" \
  > /dev/null 2>&1 \
  || { echo "FAIL all-ramp: the run failed"; failures=$((failures + 1)); }
check all-ramp "r['requests']['write'] == 0 and r['ftl']['host_units_written'] == 0 and r['nand_ops']['program'] == 0 and r['sim']['simulated_ns'] == 0" \
  "a job that ended within its ramp still counted something"

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
