# Shared by the CLI scripts that check a run's report (sourced, not run). Needs $work, $passed and
# $failures.
# check NAME CONDITION MESSAGE: CONDITION is a Python expression over the report `r` of the run
# whose output folder is $work/NAME.
check() {
  if python3 -c "import json,sys; r=json.load(open('$work/$1/report.json')); sys.exit(0 if ($2) else 1)"; then
    passed=$((passed + 1))
  else
    echo "FAIL $1: $3"; failures=$((failures + 1))
  fi
}
