#!/usr/bin/env bash
# The simulated SSD served to real clients over NBD (`ssdsim serve`, nbdkit; docs/clients.md):
# - fio's nbd engine with verify=crc32c on every scheme, on a full device with GC running, with
#   flushes (fsync) and trims (randtrimwrite): fio verifies every block, the oracle finds nothing;
# - our own minimal client (nbd_client.py): trims and write-zeroes read as zeros, FUA, a write of
#   two sectors merged, an unaligned request refused, and a client that hangs up in the middle of
#   a write's data: a new client then reads everything flushed, unchanged;
# - nbdcopy of a file in and back out, and qemu-img convert to and from the device: byte for byte;
# - SIGTERM ends the server and writes the report;
# - the same fio job (4 KiB random reads, QD 1) through NBD and through `ssdsim run --fio`: the
#   simulated read latency agrees within 10 % (mean and median);
# - bad parameters are refused naming the parameter or key, with nothing written.
# Usage: nbd_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0
cd "$src"
plugin=$(dirname "$ssdsim")/nbdkit-ssdsim-plugin.so
for needed in nbdkit fio nbdcopy; do
  command -v "$needed" > /dev/null || { echo "FAIL: $needed is not installed (tools/setup.sh)"; exit 1; }
done
[ -f "$plugin" ] || { echo "FAIL: no $plugin (nbdkit-plugin-dev missing at configure time?)"; exit 1; }

# shellcheck source=report_check_lib.sh
source "$(dirname "$0")/report_check_lib.sh"  # check NAME CONDITION MESSAGE
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

# serve NAME COMMAND [SERVE OPTIONS...]: `ssdsim serve` with --run COMMAND, report in $work/NAME.
serve() {
  local name=$1 command=$2
  shift 2
  "$ssdsim" serve --socket "$work/socket" --out "$work/$name" "$@" --run "$command" \
    > "$work/$name.log" 2>&1
}

# 1. fio with verification on every scheme, the device full and GC running.
full=(--set precondition.fill_ratio=1.0)
for scheme in page block dftl nftl fast vet emt superblock lsb dac; do
  # Two fio runs, one after the other: random overwrites with an fsync every 32 writes, then
  # trim-then-write of each block (QD 1: a trim and the write after it must not pass each
  # other). fio 3.33's randtrimwrite writes nothing when given an offset, so it starts at 0.
  # (No verify state file: fio would leave one in the source tree.)
  common="fio --ioengine=nbd --uri=\"\$uri\" --bs=4k --verify=crc32c --do_verify=1 --randseed=3 \
          --verify_state_save=0 --output-format=json"
  job="$common --output=$work/fio-$scheme-1.json --name=overwrite --rw=randwrite --iodepth=16 \
         --size=48m --io_size=16m --fsync=32 && \
       $common --output=$work/fio-$scheme-2.json --name=trimwrite --rw=randtrimwrite \
         --iodepth=1 --size=4m"
  if ! serve "v-$scheme" "$job" --ftl "$scheme" "${full[@]}"; then
    fail "$scheme: the server or fio failed"; tail -5 "$work/v-$scheme.log"; continue
  fi
  if python3 - "$work/fio-$scheme-1.json" "$work/fio-$scheme-2.json" <<'PY'
import json, sys
jobs = [json.load(open(path))["jobs"][0] for path in sys.argv[1:]]
# Each verified what it wrote (its reads), and the second trimmed as it went.
sys.exit(0 if all(j["error"] == 0 and j["read"]["total_ios"] > 0 for j in jobs) and
         jobs[1]["trim"]["total_ios"] > 0 and jobs[1]["write"]["total_ios"] > 0 else 1)
PY
  then ok; else fail "$scheme: fio's verification failed"; fi
  check "v-$scheme" "r['integrity']['mismatches'] == 0 and r['integrity']['checked_reads'] > 0" \
    "$scheme: the oracle found mismatches"
  check "v-$scheme" "r['requests']['flush'] > 0 and r['requests']['trim'] > 0" \
    "$scheme: no flush or no trim reached the device"
  check "v-$scheme" "r['gc']['erases'] > 0 or r['gc']['invocations'] > 0" \
    "$scheme: GC never ran on the full device"
done

# 2. Our client: zeros, FUA, merges, refusals, a client that hangs up mid-write.
if serve client "python3 $src/tests/cli/nbd_client.py \"\$unixsocket\"" "${full[@]}"; then
  ok
else
  fail "nbd_client.py:"; grep -E "FAIL|Error" "$work/client.log"
fi
check client "r['integrity']['mismatches'] == 0 and r['requests'].get('fua_write') == 1" \
  "the client's run mismatched or lost its FUA write"

# 3. nbdcopy in and out; qemu-img convert to and from the device when qemu-img is there.
head -c $((12 * 1024 * 1024)) /dev/urandom > "$work/in.img"
copy="nbdcopy $work/in.img \"\$uri\" && nbdcopy --flush \"\$uri\" $work/out.img"
if command -v qemu-img > /dev/null; then
  copy="$copy && qemu-img convert -n -f raw -O raw $work/in.img \"\$uri\" && \
        qemu-img convert -f raw -O raw \"\$uri\" $work/qemu.img"
fi
if serve copy "$copy" --ftl dftl; then ok; else fail "nbdcopy/qemu-img:"; tail -5 "$work/copy.log"; fi
if cmp -s -n $((12 * 1024 * 1024)) "$work/in.img" "$work/out.img"; then ok; else
  fail "nbdcopy: what came back out differs from what went in"
fi
if command -v qemu-img > /dev/null; then
  if cmp -s -n $((12 * 1024 * 1024)) "$work/in.img" "$work/qemu.img"; then ok; else
    fail "qemu-img convert: what came back out differs"
  fi
fi
check copy "r['integrity']['mismatches'] == 0" "the copies mismatched"

# 4. SIGTERM ends the server, which writes its report.
"$ssdsim" serve --socket "$work/term.sock" --out "$work/term" > "$work/term.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do [ -S "$work/term.sock" ] && break; sleep 0.1; done
nbdcopy "$work/in.img" "nbd+unix://?socket=$work/term.sock" || fail "nbdcopy to a served socket"
kill -TERM "$server"
wait "$server"
if [ -f "$work/term/report.json" ]; then ok; else fail "no report after SIGTERM"; cat "$work/term.log"; fi
[ -f "$work/term/report.json" ] && check term "r['requests']['write'] > 0" "the report lacks the writes"

# 5. One fio job through NBD (both pacings) and through `ssdsim run --fio`: the simulated read
# latency agrees. QD 1 random reads on a full device: every read finds the device idle in both,
# so what differs is only which addresses the two random streams drew.
cat > "$work/qd1.fio" <<'JOB'
[qd1]
rw=randread
bs=4k
iodepth=1
number_ios=3000
JOB
"$ssdsim" run --quiet --fio "$work/qd1.fio" "${full[@]}" --out "$work/qd1-model" > /dev/null \
  || fail "ssdsim run --fio qd1.fio"
for pacing in as_fast_as_possible real_time; do
  serve "qd1-$pacing" "fio --ioengine=nbd --uri=\"\$uri\" --output=/dev/null $work/qd1.fio" \
    --pacing "$pacing" "${full[@]}" || fail "qd1 through NBD ($pacing)"
  if python3 - "$work/qd1-model/report.json" "$work/qd1-$pacing/report.json" <<'PY'
import json, sys
model, served = (json.load(open(p))["latency_ns"]["read"] for p in sys.argv[1:])
for key in ("mean", "p50"):
    if abs(served[key] - model[key]) > 0.10 * model[key]:
        sys.exit(f"{key}: {served[key]:.0f} ns through NBD, {model[key]:.0f} ns from the job file")
PY
  then ok; else fail "qd1 ($pacing): the simulated latencies differ by more than 10 %"; fi
done

# 6. Refusals: nbdkit exits with our message; nothing is written.
refuse() {  # NAME EXPECTED_TEXT PLUGIN_ARGS...
  local name=$1 expected=$2
  shift 2
  if nbdkit --foreground -U "$work/refused.sock" "$plugin" out="$work/refused-$name" "$@" \
      > "$work/refused.log" 2>&1; then
    fail "$name: nbdkit started"; return
  fi
  if ! grep -qF -- "$expected" "$work/refused.log"; then
    fail "$name: no '$expected' in:"; cat "$work/refused.log"; return
  fi
  if [ -e "$work/refused-$name" ]; then fail "$name: an output folder was made"; return; fi
  ok
}
refuse unknown-parameter "unknown parameter 'colour'" colour=blue
refuse bad-key "nand.colour" set=nand.colour=1
refuse bad-scheme "unknown scheme 'nope'" scheme=nope
refuse bad-pacing "pacing=fast" pacing=fast
refuse no-oracle "run.oracle=false" set=run.oracle=false
refuse power-cuts "power.cuts" set=power.cuts=3
refuse missing-platform "nowhere.toml" platform=nowhere.toml
if "$ssdsim" serve --pacing fast > "$work/cli.log" 2>&1; then fail "serve --pacing fast ran"; else
  grep -qF -- "--pacing" "$work/cli.log" && ok || { fail "serve --pacing fast:"; cat "$work/cli.log"; }
fi

echo "$passed checks passed, $failures failed"
[ "$failures" -eq 0 ]
