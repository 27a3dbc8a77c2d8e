// What the host interface measured: completed commands by kind with their latency histograms,
// data moved, and integrity results reported back by the controller.
#pragma once

#include <array>
#include <cstdint>

#include "ftl/core/host_command.h"
#include "report/latency_histogram.h"

namespace ssd::models {

struct HostStats {
  std::array<uint64_t, ftl::kCommandKinds> completed{};
  uint64_t fua_writes = 0;  // of the completed writes, those with FUA (ftl::HostCommand::fua)
  std::array<report::LatencyHistogram, ftl::kCommandKinds> latency;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t bytes_trimmed = 0;
  uint64_t mismatches = 0;
  uint64_t lost_commands = 0;  // in flight at a power cut: never acknowledged, not in latency
  ftl::Picoseconds first_issue = 0;
  ftl::Picoseconds last_completion = 0;

  uint64_t total_completed() const {
    uint64_t total = 0;
    for (uint64_t c : completed) total += c;
    return total;
  }
};

}  // namespace ssd::models
