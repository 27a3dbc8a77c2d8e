#!/usr/bin/env bash
# A trace that cannot be replayed is bad input: exit 1, FILE:LINE: reason and the line's text on
# stderr, and no output folder. --skip-bad-lines replays the rest and reports what it skipped.
# Usage: trace_bad_input_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$(realpath "$1")
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"

cd "$src"
printf '1000 0 8 8 1\n2000 0 8 8 1\n3000 0 8 x8 1\n4000 0 8 8 0\n' > "$work/bad.trace"
expect_refusal bad-line "bad.trace:3: size_sectors is not a number ('x8'): \`3000 0 8 x8 1\`" \
  --trace "$work/bad.trace"
printf '5000000 0 8 8 1\n1000 0 8 8 1\n' > "$work/back.trace"
expect_refusal time-backwards "back.trace:2: time goes backwards" --trace "$work/back.trace"
: > "$work/empty.trace"
expect_refusal empty "empty.trace: empty trace" --trace "$work/empty.trace"
head -c 4096 /dev/urandom > "$work/garbage.bin"
expect_refusal garbage "garbage.bin" --trace "$work/garbage.bin"
seq 1 20000 | awk '{print $1*1000, 0, $1*8, 8, 1}' | gzip -c > "$work/whole.gz"
head -c 20000 "$work/whole.gz" > "$work/cut.gz"
expect_refusal truncated-gzip "the gzip stream is truncated" --trace "$work/cut.gz"
expect_refusal missing-file "cannot open the trace" --trace "$work/none.trace"
expect_refusal unknown-format "key 'workload.trace_format'" --trace "$work/bad.trace" --trace-format vhd
expect_refusal past-end "tpcc-small.trace:4512: the request ends" --trace scenarios/traces/tpcc-small.trace
expect_refusal bad-device "key 'workload.device'" --trace "$work/bad.trace" --device first
expect_refusal fsync-on-trace "key 'workload.sync_call'" --trace scenarios/traces/tpcc-small.trace \
  --set workload.flush_every_writes=8 --set workload.sync_call=fsync
# With a request log: the folder this run created is removed again.
expect_refusal with-log "bad.trace:3:" --trace "$work/bad.trace" --set run.request_log=true

# --skip-bad-lines: the run goes on and reports the skipped line.
out="$work/out-skip"
if "$ssdsim" run --quiet --out "$out" --trace "$work/bad.trace" --skip-bad-lines > /dev/null 2>&1 &&
   python3 -c "
import json, sys
w = json.load(open('$out/report.json'))['workload']
assert w['skipped_lines'] == 1, w
assert 'bad.trace:3:' in w['first_skipped_lines'][0], w
"; then echo "ok   skip-bad-lines"; else echo "FAIL skip-bad-lines"; failures=$((failures + 1)); fi

exit $((failures > 0))
