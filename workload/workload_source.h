// Where host commands come from: the synthetic generator or a trace replayer. A source yields
// requests in submission order; open-loop sources give each an arrival time, closed-loop ones
// leave timing to the host model's fixed queue depth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ftl/core/host_command.h"
#include "ftl/core/types.h"

namespace ssd::workload {

struct Request {
  ftl::CommandKind kind = ftl::CommandKind::kRead;
  uint64_t start_sector = 0;
  uint32_t sector_count = 0;
  ftl::Picoseconds arrival = 0;  // open loop only
  uint16_t queue = 0;
  bool fua = false;           // a write with Force Unit Access (ftl::HostCommand::fua)
  std::byte* data = nullptr;  // a live client's bytes (ftl::HostCommand::data), or none
};

// What a trace replay read and how it placed the trace, for the report.
struct TraceReplayStats {
  std::string file;
  std::string format;                      // "msr", "spc", ...
  std::string blkparse_action;             // "Q" | "D" | "C" ("" for other formats)
  uint64_t lines = 0;                      // lines in the trace
  uint64_t records = 0;                    // requests the trace holds (all selected devices)
  uint64_t skipped_lines = 0;              // bad lines passed over (--skip-bad-lines)
  std::vector<std::string> first_skipped;  // "FILE:LINE: reason: `text`" of the first few
  uint64_t devices = 0;                    // devices / ASUs / files in the trace
  std::string device_selection;            // "all" or the replayed device's number
  std::string fit;                         // the fit mode asked for
  std::string fit_applied;                 // "none" when the trace fitted, else "wrap" | "scale"
  double scale_factor = 1.0;               // smallest scale applied (1 = none)
  double speed = 1.0;                      // open-loop time factor
};

class WorkloadSource {
 public:
  virtual ~WorkloadSource() = default;
  // Fills `request` with the next one; false when the workload is exhausted.
  virtual bool next(Request& request) = 0;
  // True when requests carry arrival times to honour (open loop).
  virtual bool open_loop() const = 0;
  virtual std::string describe() const = 0;
  // Trace sources only: what the trace held and how it was placed; nullptr for generators.
  virtual const TraceReplayStats* trace_stats() const { return nullptr; }
  // Why the source stopped early, "" when it ran to its end. A trace that turns bad during
  // replay ends the workload cleanly and says so here; the caller turns it into an error.
  virtual std::string failure() const { return {}; }
  // The host ran the request next() gave last: it completes at `completion` (simulated), `ok`
  // when the device served it and a read's data passed the integrity check. Live sources
  // (live/live_source.h) answer their client here; others need not listen.
  virtual void completed(ftl::Picoseconds /*completion*/, bool /*ok*/) {}
};

}  // namespace ssd::workload
