# Shared by the CLI bad-input scripts (sourced, not run). Needs $ssdsim, $work and $failures.
# expect_refusal NAME EXPECTED_TEXT ARGS...: ssdsim must exit 1, print EXPECTED_TEXT on stderr
# and create no output folder.
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
