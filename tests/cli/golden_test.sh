#!/usr/bin/env bash
# Golden reports: small runs whose whole report (less the wall-clock fields) is committed in
# tests/golden/. Any change in timing, GC or counting shows up as a diff; change the goldens on
# purpose only, with tests/golden/update.sh, and say why in the commit.
# Usage: golden_test.sh SSDSIM SOURCE_DIR
set -eu
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
cd "$src"
failures=0
passed=0
while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  "$ssdsim" run --quiet --out "$work/$name" $args > /dev/null
  python3 "$here/strip_wall_clock.py" "$work/$name/report.json" > "$work/$name.json"
  if diff -u "tests/golden/$name.json" "$work/$name.json" > "$work/$name.diff"; then
    passed=$((passed + 1))
  else
    echo "FAIL $name: report differs from tests/golden/$name.json"; head -40 "$work/$name.diff"
    failures=$((failures + 1))
  fi
done < tests/golden/cases.txt
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
