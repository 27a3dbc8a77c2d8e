// One I/O of a trace, in the trace's own address space (bytes from the start of its device) and
// time (nanoseconds as the trace counts them). Parsers fill it; the replayer maps it onto the
// simulated device.
#pragma once

#include <cstdint>

#include "ftl/core/host_command.h"

namespace ssd::workload {

struct TraceRecord {
  ftl::CommandKind kind = ftl::CommandKind::kRead;
  // Dense index of the trace's device / ASU / file, in order of appearance.
  uint32_t device = 0;
  // The number the trace gives it (DiskNumber, ASU, device), for --device N; blkparse and fio,
  // which name their devices, use the dense index.
  uint64_t device_number = 0;
  uint64_t offset_bytes = 0;
  uint64_t size_bytes = 0;
  uint64_t time_ns = 0;       // absolute, in the trace's clock; the reader rebases it
  bool flush_before = false;  // blkparse preflush (F before the op): a flush precedes the data
  bool fua = false;           // blkparse FUA: a write with Force Unit Access (one command)
};

}  // namespace ssd::workload
