#!/usr/bin/env bash
# Capacitors as a user sizes them (docs/cache.md, "Power cuts and capacitors"): a write-back cache
# on capacitors through power cuts reports how long each cut held the device up; capacitors that
# last that long (controller.capacitor_hold_up_us just above the longest hold-up) give the same
# cuts, hold-ups and recoveries as unlimited ones and lose nothing; capacitors that last a tenth of
# it run out (power.hold_up_exhausted), lose acknowledged writes and the run fails with exit 2,
# naming the capacitors in the report and the summary; a hold-up without capacitors is refused naming the key.
# Usage: capacitor_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"
cd "$src"

before=$failures
expect_refusal hold-up-without-capacitors \
  "key 'controller.capacitor_hold_up_us': needs controller.capacitor_backed = true" \
  --set controller.capacitor_hold_up_us=500
[ "$failures" -eq "$before" ] && passed=$((passed + 1))

# shellcheck source=report_check_lib.sh
source "$(dirname "$0")/report_check_lib.sh"  # check NAME CONDITION MESSAGE
# soak NAME WANT ARGS...: a soak of a write-back cache on capacitors; exit status WANT expected.
soak() {
  local name=$1 want=$2
  shift 2
  "$ssdsim" soak --quiet --out "$work/$name" --cuts 8 --set cache.mode=write_back \
    --set cache.capacity_bytes=16777216 --set workload.requests=8000 \
    --set controller.capacitor_backed=true "$@" > /dev/null 2> "$work/$name.err"
  local status=$?
  if [ $status -eq "$want" ]; then
    passed=$((passed + 1))
    return 0
  fi
  echo "FAIL $name: exit status $status, expected $want"; cat "$work/$name.err"
  failures=$((failures + 1))
  return 1
}

soak unlimited 0 || { echo "$passed passed, $failures failed"; exit 1; }
check unlimited "r['power']['hold_up_exhausted'] == 0 and r['power']['hold_up_us']['max'] > 1" \
  "expected a hold-up of more than 1 us and none exhausted"
longest_us=$(python3 -c "import json; print(json.load(open('$work/unlimited/report.json'))['power']['hold_up_us']['max'])")
enough=$(python3 -c "import math; print(math.ceil($longest_us) + 1)")
tenth=$(python3 -c "print(int($longest_us / 10))")

if soak enough 0 --set controller.capacitor_hold_up_us="$enough"; then
  check enough "r['power']['hold_up_exhausted'] == 0 and r['power']['lost_durable_units'] == 0" \
    "capacitors that last the longest flush ran out or lost data"
  same="json.load(open('$work/unlimited/report.json'))['power']"
  check enough "all(r['power'][k] == $same[k] for k in ('hold_up_us', 'recovery_us', 'rolled_back_units', 'torn_programs'))" \
    "long enough capacitors changed the cuts"
fi

if soak tenth 2 --set controller.capacitor_hold_up_us="$tenth"; then
  check tenth "r['power']['hold_up_exhausted'] >= 1 and r['power']['hold_up_us']['max'] <= $tenth" \
    "expected exhausted capacitors, each hold-up at most $tenth us"
  check tenth "r['power']['lost_durable_units'] > 0 and 'the capacitors ran out after $tenth us' in r['power']['first_lost_unit']" \
    "expected acknowledged writes lost, named as the capacitors'"
  summary=$("$ssdsim" soak --out "$work/summary" --cuts 8 --set cache.mode=write_back \
    --set cache.capacity_bytes=16777216 --set workload.requests=8000 \
    --set controller.capacitor_backed=true --set controller.capacitor_hold_up_us="$tenth" 2>&1)
  if grep -q "lost durable.*capacitors held up [0-9.]* us max, ran out at [1-9][0-9]* cuts" \
    <<< "$summary"; then passed=$((passed + 1)); else
    echo "FAIL tenth: the summary does not give the hold-up and the cuts it ran out at:"
    grep "^power" <<< "$summary"; failures=$((failures + 1))
  fi
fi

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
