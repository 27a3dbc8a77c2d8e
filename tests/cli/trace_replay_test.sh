#!/usr/bin/env bash
# Every bundled trace replays end to end through its scenario with the integrity oracle on: exit 0,
# 0 mismatches, and report.json carries the workload block. Also the --trace sugar without a
# scenario file, closed loop and a request limit. Usage: trace_replay_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$(realpath "$1")
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect_run NAME EXPECTED_FORMAT EXPECTED_REQUESTS ARGS...: exit 0, no mismatches, workload fields.
expect_run() {
  local name=$1 format=$2 requests=$3
  shift 3
  local out="$work/out-$name"
  "$ssdsim" run --quiet --out "$out" "$@" > "$work/stdout" 2> "$work/stderr"
  local status=$?
  if [ $status -ne 0 ]; then
    echo "FAIL $name: exit $status"; cat "$work/stderr"; failures=$((failures + 1)); return
  fi
  if ! python3 - "$out/report.json" "$format" "$requests" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
w = report["workload"]
assert w["format"] == sys.argv[2], w
assert w["skipped_lines"] == 0 and w["lines"] > 0 and w["devices"] >= 1, w
assert report["integrity"]["enabled"] and report["integrity"]["mismatches"] == 0, report["integrity"]
done = sum(report["requests"].values())
assert done == int(sys.argv[3]), (done, sys.argv[3])
PY
  then
    echo "FAIL $name: report check"; failures=$((failures + 1)); return
  fi
  echo "ok   $name"
}

cd "$src"
expect_run financial1 spc 10000 --scenario scenarios/trace-financial1.toml
expect_run msr msr 10000 --scenario scenarios/trace-msr-rw40.toml
expect_run tpcc mqsim 6999 --scenario scenarios/trace-tpcc.toml
expect_run websearch mqsim 24783 --scenario scenarios/trace-websearch.toml
expect_run leveldb blkparse 840 --scenario scenarios/trace-leveldb.toml
expect_run sugar-scale msr 10000 --trace scenarios/traces/msr-cut-rw40.csv --fit scale
expect_run closed-limited mqsim 500 --trace scenarios/traces/tpcc-small.trace --fit wrap \
  --set workload.mode=closed --set workload.requests=500
expect_run one-device mqsim 453 --trace scenarios/traces/tpcc-small.trace --device 4 --fit scale

# A scenario elsewhere finds its trace relative to its own folder.
mkdir -p "$work/elsewhere/traces"
cp scenarios/traces/msr-cut-rw40.csv "$work/elsewhere/traces/"
gzip -c scenarios/traces/msr-cut-rw40.csv > "$work/elsewhere/traces/msr.csv.gz"
sed 's|traces/msr-cut-rw40.csv|traces/msr.csv.gz|' scenarios/trace-msr-rw40.toml > "$work/elsewhere/gz.toml"
(cd / && expect_run relative-gzip msr 10000 --scenario "$work/elsewhere/gz.toml")

# The summary says which fit was applied.
"$ssdsim" run --out "$work/summary" --trace scenarios/traces/msr-cut-rw40.csv --fit scale > "$work/stdout" 2>&1
if grep -q "fit scale -> scale (factor" "$work/stdout"; then echo "ok   summary-fit"; else
  echo "FAIL summary-fit"; cat "$work/stdout"; failures=$((failures + 1)); fi

exit $((failures > 0))
