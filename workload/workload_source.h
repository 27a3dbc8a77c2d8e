// Where host commands come from: a synthetic generator now, trace readers later. A source yields
// requests in submission order; open-loop sources give each an arrival time, closed-loop ones
// leave timing to the host model's fixed queue depth.
#pragma once

#include <cstdint>
#include <string>

#include "ftl/core/host_command.h"
#include "ftl/core/types.h"

namespace ssd::workload {

struct Request {
  ftl::CommandKind kind = ftl::CommandKind::kRead;
  uint64_t start_sector = 0;
  uint32_t sector_count = 0;
  ftl::Picoseconds arrival = 0;  // open loop only
  uint16_t queue = 0;
};

class WorkloadSource {
 public:
  virtual ~WorkloadSource() = default;
  // Fills `request` with the next one; false when the workload is exhausted.
  virtual bool next(Request& request) = 0;
  // True when requests carry arrival times to honour (open loop).
  virtual bool open_loop() const = 0;
  virtual std::string describe() const = 0;
};

}  // namespace ssd::workload
