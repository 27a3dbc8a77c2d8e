# Sourced (not run) by the scripts in bench/ and by rtl/run-coverage: the one convention for the
# build folder they take their programs from (bench/README.md).
#
#   BUILD_DIR   the build folder; default build/ under the repository root. A relative path is
#               taken from the current folder. JOBS: parallel build jobs (default: CMake's).
#
# - A folder that does not exist yet (or holds no CMakeCache.txt) is configured:
#   cmake -S ROOT -B BUILD_DIR -G Ninja -DCMAKE_BUILD_TYPE=Release (plus the extra options a
#   script passes to bench_build_init, e.g. rtl/run-coverage's coverage build).
# - An existing build folder is never reconfigured: no -D options are passed to it, so a script
#   cannot switch off (or on) anything another build of yours relies on.
# - Only the targets a script needs are built (bench_build TARGET...). A target the build does
#   not define (the RTL or Google Benchmark was off or missing when it was configured) stops the
#   script with a message, before anything runs; bench_has_target lets a script skip that part
#   instead.
#
# Sets: root (repository root), build_dir (absolute). Messages go to stderr, never stdout (the
# scripts print their tables there). Build output is shown only when the build fails.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
case $build_dir in
  /*) ;;
  *) build_dir=$PWD/$build_dir ;;
esac
build_dir=${build_dir%/}
bench_script=$(basename "$0")

bench_fail() {  # message...
  echo "$bench_script: $*" >&2
  exit 1
}

# Configures BUILD_DIR if it is not a build folder yet; extra arguments (-D options) are used only
# then. Called by bench_build; call it first only to pass such options.
bench_build_init() {
  [ -f "$build_dir/CMakeCache.txt" ] && return 0
  local log
  echo "$bench_script: configuring $build_dir (Release, Ninja)" >&2
  if ! log=$(cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" 2>&1); then
    echo "$log" >&2
    bench_fail "configuring $build_dir failed"
  fi
}

# True when the build defines TARGET (configures the folder first if needed).
bench_has_target() {  # target
  bench_build_init
  if [ -z "${bench_targets:-}" ]; then
    # `help` lists the targets: "name: phony" (Ninja) or "... name" (Makefiles).
    bench_targets=$(cmake --build "$build_dir" --target help 2>/dev/null \
                      | sed -e 's/^\.\.\. //' -e 's/[: ].*//') || true
  fi
  grep -qxF -- "$1" <<< "$bench_targets"
}

# Builds these targets only; stops with a message if the build does not define one of them
# (bench_hint, if set, says what the target needs).
bench_build() {  # target...
  local t log missing=()
  for t in "$@"; do bench_has_target "$t" || missing+=("$t"); done
  if [ ${#missing[@]} -gt 0 ]; then
    bench_fail "$build_dir has no target ${missing[*]}:" \
      "${bench_hint:-it was configured without something the target needs (see CMakeCache.txt)}." \
      "Scripts never reconfigure an existing build: point BUILD_DIR at a folder that does not" \
      "exist yet (the script configures it) or reconfigure this one yourself."
  fi
  echo "$bench_script: building $* in $build_dir" >&2
  if ! log=$(cmake --build "$build_dir" ${JOBS:+-j "$JOBS"} --target "$@" 2>&1); then
    echo "$log" >&2
    bench_fail "building $* in $build_dir failed"
  fi
}
