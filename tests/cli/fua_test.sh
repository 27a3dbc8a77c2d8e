#!/usr/bin/env bash
# FUA writes as a user meets them: workload.fua_ratio outside [0, 1] is refused naming the key;
# `ssdsim soak` with a share of FUA writes and no flush at all loses nothing a FUA write was
# acknowledged for (power.lost_durable_units 0) and counts them (requests.fua_write), also with
# GC behind the writes (controller.write_waits_for_gc=false: a block-mapping merge programs the
# write's own data as GC work); a blkparse FUA write (WFS) is one FUA write, not a write and a
# flush; a run without FUA writes reports none.
# Usage: fua_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"
refuse() {
  local before=$failures
  expect_refusal "$@"
  [ "$failures" -eq "$before" ] && passed=$((passed + 1))
}

cd "$src"
refuse ratio-above-one "key 'workload.fua_ratio': must be in [0, 1] (got 1.5)" \
  --set workload.fua_ratio=1.5
refuse ratio-negative "key 'workload.fua_ratio': must be in [0, 1]" --set workload.fua_ratio=-0.2
refuse ratio-not-a-number "key 'workload.fua_ratio'" --set workload.fua_ratio=half

# shellcheck source=report_check_lib.sh
source "$(dirname "$0")/report_check_lib.sh"  # check NAME CONDITION MESSAGE
# soak NAME ARGS...: exit 0 expected (2 would mean durable data lost).
soak() {
  local name=$1
  shift
  "$ssdsim" soak --quiet --out "$work/$name" "$@" > /dev/null
  local status=$?
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
    return 0
  fi
  echo "FAIL $name: exit status $status"; failures=$((failures + 1))
  return 1
}

# Page mapping, a fifth of the writes FUA, no flush: only FUA writes are durable points. Two
# units per page, so that a lone unit's write waits in DRAM for its page to fill, unless its FUA
# programs the page (with whole-page units every write is programmed at once, FUA or not).
if soak page --cuts 50 --set workload.fua_ratio=0.2 --set workload.requests=6000 \
  --set workload.flush_every_writes=0 --set ftl.mapping_unit_bytes=2048 \
  --set workload.request_bytes=2048 --set workload.align_bytes=2048; then
  check page "r['power']['cuts'] == 50" "expected 50 cuts"
  check page "r['power']['lost_durable_units'] == 0 and r['power']['first_lost_unit'] is None" \
    "durable data lost"
  check page "'fua_write' in r['requests']" "no requests.fua_write in the report"
  check page "0.1 * r['requests']['write'] < r['requests'].get('fua_write', 0) < 0.3 * r['requests']['write']" \
    "requests.fua_write is not about a fifth of the writes"
  check page "r['requests']['flush'] == 0" "a FUA write was counted as a flush"
  check page "r['power']['rolled_back_units'] > 0" "no plain write was ever rolled back"
  check page "r['integrity']['mismatches'] == 0" "reads failed the oracle after recoveries"
fi

# Block mapping with GC behind the writes: a FUA write that merges completes with the merge.
if soak block-gc-behind --ftl block --cuts 50 --set workload.requests=6000 \
  --set workload.fua_ratio=0.2 --set precondition.fill_ratio=0.5 \
  --set controller.write_waits_for_gc=false; then
  check block-gc-behind "r['power']['lost_durable_units'] == 0" "durable data lost"
  check block-gc-behind "r['requests'].get('fua_write', 0) > 0" "no FUA writes"
fi

# A blkparse FUA write (WFS) is one command: a FUA write, no flush after it.
trace="$work/fua.blkparse"
for i in $(seq 0 39); do
  printf '  8,0  1  %d  0.%09d  1  Q  %s %d + 8 [x]\n' $((i + 1)) $((i * 1000)) \
    "$([ $((i % 4)) -eq 0 ] && echo WFS || echo WS)" $((i * 64)) >> "$trace"
done
"$ssdsim" run --quiet --out "$work/trace" --trace "$trace" > /dev/null
status=$?
if [ $status -eq 0 ]; then
  check trace "r['requests']['write'] == 40 and r['requests'].get('fua_write') == 10" \
    "expected 40 writes, 10 of them FUA"
  check trace "r['requests']['flush'] == 0" "a FUA write became a flush"
else
  echo "FAIL trace: exit status $status"; failures=$((failures + 1))
fi

# Without FUA writes, the report has no requests.fua_write (reports stay as they were).
"$ssdsim" run --quiet --out "$work/none" --set workload.requests=1000 > /dev/null
check none "'fua_write' not in r['requests']" "a run without FUA writes reports some"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
