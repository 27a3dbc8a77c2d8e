#!/usr/bin/env bash
# VET's node table in software and on the hash-lookup accelerator: on a full device with GC, both
# pass the integrity oracle and store the same extents and nodes; the accelerator's report shows
# its commands and fewer CPU hash probes. With the RTL built, the Verilated engine in the loop
# gives the same report as the reference model (engine name and wall clock aside) and writes a
# waveform on request. Bad accelerator settings are refused naming the key.
# Usage: accelerator_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
cd "$src"
failures=0
passed=0
full=(--ftl vet --set precondition.fill_ratio=1.0 --set precondition.overwrite_ratio=0.5
      --set workload.read_ratio=0.3 --set workload.trim_ratio=0.05 --set workload.requests=6000)
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
check() {  # NAME CONDITION-EXIT-STATUS
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok   $1"; else failures=$((failures + 1)); echo "FAIL $1"; fi
}

"$ssdsim" run --quiet --out "$work/software" "${full[@]}" > /dev/null
check "software backend passes the oracle" $?
"$ssdsim" run --quiet --out "$work/model" "${full[@]}" --set ftl.vet.hash_backend=accelerator > /dev/null
check "accelerator backend passes the oracle" $?

same=$(field "$work/software/report.json" "r['mapping']['extents'], r['mapping']['nodes'], r['gc'], r['nand_ops']")
accel=$(field "$work/model/report.json" "r['mapping']['extents'], r['mapping']['nodes'], r['gc'], r['nand_ops']")
[ "$same" = "$accel" ]; check "both store the same extents and nodes and do the same flash work" $?
[ "$(field "$work/software/report.json" "r['accelerator'] is None")" = True ]
check "no accelerator section without the accelerator" $?
[ "$(field "$work/model/report.json" "r['accelerator']['commands'] > 0 and r['accelerator']['cycles'] > r['accelerator']['commands'] and r['accelerator']['engine'] == 'model'")" = True ]
check "the accelerator's commands and cycles are reported" $?
probes_sw=$(field "$work/software/report.json" "r['controller']['hash_probes']")
probes_hw=$(field "$work/model/report.json" "r['controller']['hash_probes']")
[ "$probes_hw" -lt "$probes_sw" ]; check "fewer CPU hash probes with the accelerator ($probes_hw < $probes_sw)" $?

# The RTL in the loop, when this build has it, against the model: a smaller run and engine
# (1024 x 4, so that nodes overflow to software), which the sanitizer build can afford.
small=(--ftl vet --set workload.requests=3000 --set ftl.vet.hash_backend=accelerator
       --set accelerator.bucket_bits=10 --set accelerator.ways=4)
"$ssdsim" run --quiet --out "$work/rtl" "${small[@]}" --set accelerator.engine=rtl \
  > /dev/null 2> "$work/rtl.err"
status=$?
if [ $status -eq 1 ] && grep -qF "this build has none" "$work/rtl.err"; then
  echo "skip RTL in the loop: this build has no RTL"
else
  check "RTL engine in the loop passes the oracle" $status
  "$ssdsim" run --quiet --out "$work/model-small" "${small[@]}" > /dev/null
  strip() { python3 "$here/strip_wall_clock.py" "$1" | grep -v '"engine"'; }
  strip "$work/model-small/report.json" > "$work/model.txt"
  strip "$work/rtl/report.json" > "$work/rtl.txt"
  cmp -s "$work/model.txt" "$work/rtl.txt"; check "RTL and reference model give the same report" $?
  [ "$(field "$work/rtl/report.json" "r['accelerator']['refused_inserts'] > 0")" = True ]
  check "the small engine refused inserts (overflow to software exercised)" $?
  # Every cycle is dumped: a short run on an empty device.
  "$ssdsim" run --quiet --out "$work/wave" "${small[@]}" --set accelerator.engine=rtl \
    --set workload.requests=300 --set precondition.fill_ratio=0 --waveform "$work/run.fst" \
    > /dev/null
  check "a run with --waveform passes" $?
  [ -s "$work/run.fst" ]; check "--waveform writes the RTL's signals" $?
fi

# Bad settings: refused naming the key, nothing written.
source "$here/refusal_lib.sh"
failures_before=$failures
expect_refusal bucket-bits "accelerator.bucket_bits" --ftl vet --set accelerator.bucket_bits=14
expect_refusal ways "accelerator.ways" --ftl vet --set accelerator.ways=0
expect_refusal engine "accelerator.engine" --ftl vet --set accelerator.engine=fpga
expect_refusal backend "ftl.vet.hash_backend" --ftl vet --set ftl.vet.hash_backend=gpu
expect_refusal clock "accelerator.clock_mhz" --ftl vet --set accelerator.clock_mhz=0
expect_refusal rtl-size "accelerator.engine" --ftl vet --set ftl.vet.hash_backend=accelerator \
  --set accelerator.engine=rtl --set accelerator.ways=5
expect_refusal waveform "--waveform" --ftl vet --waveform "$work/x.fst"
passed=$((passed + 7 - (failures - failures_before)))
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
