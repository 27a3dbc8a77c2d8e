#!/usr/bin/env bash
# ssdsim must refuse bad input with a message naming the file or --set and the key, exit 1, and
# leave nothing behind. Usage: bad_input_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect_refusal NAME EXPECTED_TEXT ARGS...: exit 1, the text in stderr, no output folder.
expect_refusal() {
  local name=$1 expected=$2
  shift 2
  local out="$work/out-$name"
  "$ssdsim" run --out "$out" "$@" > "$work/stdout" 2> "$work/stderr"
  local status=$?
  if [ $status -ne 1 ]; then
    echo "FAIL $name: exit $status, expected 1"; cat "$work/stderr"; failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$expected" "$work/stderr"; then
    echo "FAIL $name: stderr lacks '$expected':"; cat "$work/stderr"; failures=$((failures + 1)); return
  fi
  if [ -e "$out" ]; then
    echo "FAIL $name: output folder was created"; failures=$((failures + 1)); return
  fi
  echo "ok   $name"
}

cd "$src"
expect_refusal unknown-set-key "key 'nand.chanels'" --set nand.chanels=4
expect_refusal bad-set-value "key 'nand.channels'" --set nand.channels=four
expect_refusal zero-channels "key 'nand.channels'" --set nand.channels=0
expect_refusal negative-size "key 'workload.request_bytes'" --set workload.request_bytes=-4096
expect_refusal unknown-scheme "ftl.scheme" --ftl no-such-scheme

printf '[nand]\nchannels = 2\nsparkles = 1\n' > "$work/bad-platform.toml"
expect_refusal unknown-file-key "bad-platform.toml" --platform "$work/bad-platform.toml"
expect_refusal unknown-file-key-name "nand.sparkles" --platform "$work/bad-platform.toml"

printf '[nand]\npage_bytes = 4000\n' > "$work/bad-geometry.toml"
expect_refusal impossible-geometry "nand.page_bytes" --platform "$work/bad-geometry.toml"

printf '[workload]\nrequests = "many"\n' > "$work/bad-scenario.toml"
expect_refusal wrong-type "workload.requests" --scenario "$work/bad-scenario.toml"

expect_refusal missing-file "no-such.toml" --platform "$work/no-such.toml"

echo "$(( 10 - failures )) passed, $failures failed"
[ $failures -eq 0 ]
