#!/usr/bin/env bash
# Regenerates the golden reports from the current build. Run only when a change of results is
# intended, and say in the commit why the numbers moved. Usage: tests/golden/update.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
ssdsim=${1:-$root/build}/tools/ssdsim
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  "$ssdsim" run --quiet --out "$work/$name" $args > /dev/null
  python3 tests/cli/strip_wall_clock.py "$work/$name/report.json" > "tests/golden/$name.json"
  echo "updated tests/golden/$name.json"
done < tests/golden/cases.txt
