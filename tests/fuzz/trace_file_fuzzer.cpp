// libFuzzer target for whole files: the input is written to a temporary file (so the gzip and
// plain line reader, format detection, the time rules and the scan all run on it) and scanned
// with bad lines skipped and then without. Any TraceError is an accepted outcome; a crash, a
// hang or another exception is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "workload/trace/trace_error.h"
#include "workload/trace/trace_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/ssd-trace-fuzz-" + std::to_string(::getpid());
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) std::abort();
  std::fwrite(data, 1, size, file);
  std::fclose(file);
  for (bool skip : {true, false}) {
    try {
      ssd::workload::scan_trace(ssd::workload::resolve_trace(path, "auto", "auto", skip));
    } catch (const ssd::workload::TraceError&) {
      // bad input, reported: the expected outcome for most inputs
    }
  }
  return 0;
}
