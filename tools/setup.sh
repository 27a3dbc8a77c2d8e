#!/usr/bin/env bash
# One-step set-up for a fresh Debian (bookworm) machine: installs what is missing, configures and
# builds, then either runs the bundled default scenario (`run`) or the whole test suite (`test`).
#   tools/setup.sh run     build and run `ssdsim run` on platforms/default.toml + scenarios/default.toml
#   tools/setup.sh test    build and run every test (ctest)
# Environment: BUILD_DIR (default build), SSD_SANITIZE=ON for an ASan+UBSan build.
set -euo pipefail

mode=${1:-run}
case "$mode" in run|test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}

# Debian packages: the toolchain (cmake, g++, ninja-build, pkg-config, which finds SystemC);
# python3 for the command-line tests and bench/ scripts; the libraries the simulator links
# (SystemC/TLM-2.0, TOML, JSON, CLI11 options, fmt, zlib for gzipped traces); GoogleTest and
# GoogleMock for the suite; Google Benchmark for bench/'s micro-benchmarks; Verilator for the RTL
# accelerator and its tests; clang-format for the formatting check CI runs
# (tools/check-format.sh); matplotlib and Dask distributed for `ssdsim plot` and `ssdsim sweep
# --dask`, Slurm and munge for `ssdsim sweep --slurm` and its test's one-node cluster
# (docs/exploration.md); fio, whose fio_jsonplus_clat2csv the tests run on `ssdsim run --fio`'s
# JSON, and python3-six, which that script imports and Debian's fio does not pull in; nbdkit and
# its plugin headers for `ssdsim serve`'s NBD plugin, and the NBD clients its test runs (nbdcopy
# from libnbd-bin, qemu-img from qemu-utils; fio's nbd engine is in Debian's fio)
# (docs/clients.md).
packages=(cmake g++ ninja-build pkg-config python3 libsystemc-dev libgtest-dev libgmock-dev
          libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev zlib1g-dev
          libbenchmark-dev verilator clang-format python3-matplotlib python3-distributed
          slurm-wlm munge fio python3-six nbdkit nbdkit-plugin-dev libnbd-bin qemu-utils)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DSSD_SANITIZE="${SSD_SANITIZE:-OFF}" > "$build_dir.configure.log" 2>&1 \
  || { cat "$build_dir.configure.log"; exit 1; }
cmake --build "$build_dir" -j "$(nproc)"

if [ "$mode" = run ]; then
  cd "$root"
  exec "$build_dir/tools/ssdsim" run
fi
cd "$build_dir"
exec ctest -j "$(nproc)" --output-on-failure --timeout 900
