# Shared by the CLI bad-input scripts (sourced, not run). Needs $ssdsim, $work and $failures.
# expect_exit NAME STATUS EXPECTED_TEXT ARGS...: ssdsim must exit STATUS, print EXPECTED_TEXT on
# stderr and leave no output folder behind.
expect_exit() {
  local name=$1 want=$2 expected=$3
  shift 3
  local out="$work/out-$name"
  "$ssdsim" run --out "$out" "$@" > "$work/stdout" 2> "$work/stderr"
  local status=$?
  if [ $status -ne "$want" ]; then
    echo "FAIL $name: exit $status, expected $want"; cat "$work/stderr"; failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$expected" "$work/stderr"; then
    echo "FAIL $name: stderr lacks '$expected':"; cat "$work/stderr"; failures=$((failures + 1)); return
  fi
  if [ -e "$out" ]; then
    echo "FAIL $name: output folder was created"; failures=$((failures + 1)); return
  fi
  echo "ok   $name"
}

# expect_refusal NAME EXPECTED_TEXT ARGS...: bad input, refused before anything ran (exit 1).
expect_refusal() {
  local name=$1 expected=$2
  shift 2
  expect_exit "$name" 1 "$expected" "$@"
}
