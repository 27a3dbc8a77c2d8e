#!/usr/bin/env bash
# The same inputs and seed give the same report byte for byte, apart from the wall-clock fields;
# a different seed gives a different one. Usage: determinism_test.sh SSDSIM SOURCE_DIR
set -eu
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
run() { "$ssdsim" run --quiet --out "$work/$1" --set workload.requests=5000 "${@:2}" > /dev/null; }
run a
run b
run c --set workload.seed=2
strip() { python3 "$(dirname "$0")/strip_wall_clock.py" "$1"; }
strip "$work/a/report.json" > "$work/a.txt"
strip "$work/b/report.json" > "$work/b.txt"
strip "$work/c/report.json" > "$work/c.txt"
if ! cmp -s "$work/a.txt" "$work/b.txt"; then
  echo "FAIL: two runs with one seed differ"; diff "$work/a.txt" "$work/b.txt" | head; exit 1
fi
if cmp -s "$work/a.txt" "$work/c.txt"; then echo "FAIL: a different seed gave the same report"; exit 1; fi
echo "2 passed, 0 failed"
