#!/usr/bin/env bash
# ssdsim must refuse bad input with a message naming the file or --set and the key, exit 1, and
# leave nothing behind. Usage: bad_input_test.sh SSDSIM SOURCE_DIR
set -u
ssdsim=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# shellcheck source=refusal_lib.sh
source "$(dirname "$0")/refusal_lib.sh"

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
