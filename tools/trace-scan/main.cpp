// ssd-trace-scan: reads a trace once, as ssdsim's validation pass does, and prints what it holds
// (format, lines, requests by kind, bytes, address span, devices) and how fast it parsed.
// bench/run-trace-parse uses it to measure parsing speed; users, to look at a trace before a run.
// Exit status: 0 the trace is valid, 1 it is not (the message names FILE:LINE).
#include <chrono>
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "workload/trace/trace_error.h"
#include "workload/trace/trace_scan.h"

int main(int argc, char* argv[]) {
  CLI::App app{"ssd-trace-scan: validate a block trace and print its figures"};
  std::string path;
  std::string format = "auto";
  std::string action = "auto";
  bool skip = false;
  bool closed = false;
  app.add_option("trace", path, "trace file (plain or gzip)")->required();
  app.add_option("--trace-format", format, "auto, msr, spc, mqsim, disksim, blkparse, fio");
  app.add_option("--blkparse-action", action, "auto, Q, D, C");
  app.add_flag("--skip-bad-lines", skip, "count bad lines instead of stopping");
  app.add_flag("--closed", closed, "ignore timestamps (no time-order check), as closed loop does");
  CLI11_PARSE(app, argc, argv);
  try {
    const auto start = std::chrono::steady_clock::now();
    ssd::workload::TraceSpec spec = ssd::workload::resolve_trace(path, format, action, skip);
    spec.check_time = !closed;
    const ssd::workload::TraceSummary s = ssd::workload::scan_trace(spec);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("format {}  lines {}  records {}  skipped {}  devices {}\n",
               ssd::workload::format_name(spec.format), s.read.lines, s.read.records,
               s.read.skipped_lines, s.devices.size());
    fmt::print("reads {} ({} B)  writes {} ({} B)  trims {}  flushes {}\n", s.reads, s.bytes_read,
               s.writes, s.bytes_written, s.trims, s.flushes);
    fmt::print("address span [{}, {}) bytes  duration {} ns\n", s.min_offset_bytes, s.max_end_bytes,
               s.duration_ns);
    fmt::print("parsed in {:.3f} s: {:.0f} lines/s\n", seconds, double(s.read.lines) / seconds);
    for (const std::string& line : s.read.first_skipped) fmt::print("skipped: {}\n", line);
    return 0;
  } catch (const ssd::workload::TraceError& error) {
    std::fprintf(stderr, "ssd-trace-scan: %s\n", error.what());
    return 1;
  }
}
