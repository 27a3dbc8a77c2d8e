#!/usr/bin/env bash
# run.timeline from the command line: the file lands in the output folder (or where an absolute
# path says), is valid trace-event JSON, is the same byte for byte for the same inputs; bad
# timeline keys are refused naming the key, and a run that fails leaves no timeline behind.
# Usage: timeline_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$(realpath "$1")
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"

cd "$src"
expect_refusal window-without-file "key 'run.timeline_from_us'" --set run.timeline_from_us=10
expect_refusal window-backwards "key 'run.timeline_to_us'" --set run.timeline=t.json \
  --set run.timeline_from_us=500 --set run.timeline_to_us=100
expect_refusal zero-cap "key 'run.timeline_max_events'" --set run.timeline=t.json \
  --set run.timeline_max_events=0
expect_refusal no-folder "run.timeline" --set run.timeline="$work/none/t.json"
# A trace that cannot be replayed: nothing written, not even an absolute timeline's temporary.
mkdir -p "$work/elsewhere"
printf '1000 0 8 8 1\n2000 0 8 x8 1\n' > "$work/bad.trace"
expect_refusal bad-trace "bad.trace:2:" --trace "$work/bad.trace" \
  --set run.timeline="$work/elsewhere/t.json"
if [ -n "$(ls -A "$work/elsewhere")" ]; then
  echo "FAIL bad-trace: left $(ls "$work/elsewhere")"; failures=$((failures + 1))
fi

check() {  # NAME CONDITION: a passing or failing check
  if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
run() { "$ssdsim" run --quiet --set workload.requests=1500 "$@" > "$work/stdout" 2>&1; }
run --out "$work/a" --set run.timeline=timeline.json
check relative-in-output-folder "[ -f '$work/a/timeline.json' ] && [ ! -e '$work/a/timeline.json.tmp' ]"
check announced "grep -q 'timeline: $work/a/timeline.json (' '$work/stdout'"
check valid-json "python3 -c \"
import json; t = json.load(open('$work/a/timeline.json'))
assert t['otherData']['truncated'] is False
assert any(e['ph'] == 'X' and e['pid'] == 1 for e in t['traceEvents'])
\""
run --out "$work/b" --set run.timeline="$work/b-timeline.json"
check absolute-path "[ -f '$work/b-timeline.json' ] && [ ! -e '$work/b/timeline.json' ]"
check same-bytes "cmp -s '$work/a/timeline.json' '$work/b-timeline.json'"
run --out "$work/c" --set run.timeline=timeline.json --set run.timeline_max_events=100
check cap-warns "grep -q 'warning: the timeline stopped at run.timeline_max_events (100' '$work/stdout'"

exit $((failures > 0))
