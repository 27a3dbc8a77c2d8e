// What a scheme offers a layer above it that keeps its own flash region (the sector log's data
// region, ftl/sector_log/): erased blocks out of the scheme's free pool, taken back once the
// layer has erased them, so the region's blocks wear with the scheme's own.
#pragma once

#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

class BlockLender {
 public:
  virtual ~BlockLender() = default;
  // An erased block of `plane` (BlockState::kLent: no GC, no writes of the scheme's own).
  virtual BlockId lend_block(uint32_t plane) = 0;
  // `block`, erased by the layer, back into the scheme's free pool.
  virtual void take_back(BlockId block) = 0;
};

}  // namespace ssd::ftl
