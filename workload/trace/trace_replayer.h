// Trace replay as a workload source: the second streaming pass over the file, after scan_trace
// validated it and TraceLayout placed it. Open loop replays at trace time divided by the speed
// factor; closed loop ignores timestamps and leaves pacing to the host's queue depth. blkparse
// preflush and FUA become flush commands around their write. Stops after max_requests (0 = all).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "workload/trace/trace_layout.h"
#include "workload/trace/trace_reader.h"
#include "workload/trace/trace_scan.h"
#include "workload/workload_source.h"

namespace ssd::workload {

struct TraceReplayOptions {
  bool open_loop = true;
  double speed = 1.0;         // open loop: 2 replays twice as fast as recorded
  uint64_t max_requests = 0;  // 0 = the whole trace
  std::string fit = "error";
  std::string device_selection = "all";
};

class TraceReplayer final : public WorkloadSource {
 public:
  TraceReplayer(const TraceSummary& summary, const TraceLayout& layout,
                const TraceReplayOptions& options);

  bool next(Request& request) override;
  bool open_loop() const override { return m_options.open_loop; }
  std::string describe() const override;
  const TraceReplayStats* trace_stats() const override { return &m_stats; }
  std::string failure() const override { return m_failure; }

 private:
  bool refill();  // turns the next trace record into pending requests

  TraceReplayOptions m_options;
  TraceLayout m_layout;
  TraceReader m_reader;
  TraceReplayStats m_stats;
  std::array<Request, 2> m_pending;  // flush before, the data request
  size_t m_pending_count = 0;
  size_t m_pending_next = 0;
  uint64_t m_issued = 0;
  std::string m_failure;
};

}  // namespace ssd::workload
