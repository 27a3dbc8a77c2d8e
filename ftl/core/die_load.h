// What the controller knows of each die's queue, for placement that follows load
// (ftl.placement=least_busy_die): when the flash work already sent to a die ends, its queued GC
// included. A controller sees this in its per-die command queues; the timed platform answers from
// the NAND model. The FTL only compares dies with it and never learns the time otherwise; without
// a timing model (untimed preconditioning, unit tests) there is none and placement stripes.
#pragma once

#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

class DieLoad {
 public:
  virtual ~DieLoad() = default;
  // When the work queued on `die` so far ends (0: idle).
  virtual Picoseconds work_ends(uint32_t die) const = 0;
};

}  // namespace ssd::ftl
