#!/usr/bin/env bash
# `ssdsim run` with no options runs the bundled defaults, prints the summary and writes a report
# whose integrity check passed. Usage: default_run_test.sh SSDSIM SOURCE_DIR
set -eu
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"  # defaults must be found from anywhere, not only from the source folder
"$ssdsim" run --out "$work/out" > "$work/stdout"
grep -q "integrity: .* 0 mismatches" "$work/stdout" || { echo "FAIL: summary lacks integrity line"; cat "$work/stdout"; exit 1; }
python3 - "$work/out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["integrity"]["mismatches"] == 0, r["integrity"]
assert r["integrity"]["checked_reads"] > 0
assert r["requests"]["read"] + r["requests"]["write"] + r["requests"]["flush"] == 20000, r["requests"]
for kind in ("read", "write"):
    lat = r["latency_ns"][kind]
    assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["p999"] <= lat["max"], lat
PY
[ ! -e "$work/out/report.json.tmp" ] || { echo "FAIL: temporary report left behind"; exit 1; }
echo "1 passed, 0 failed"
