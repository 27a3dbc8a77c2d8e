// What the controller knows of the data cache's frames (cache_lines.h): when the write-back of
// the data each frame last held completes. The cache only compares frames with it and with the
// current time, to give new data the free frame that frees first (or a clean line's frame when
// every free one is still being written back from), and never learns the time otherwise (as
// placement asks the dies' queues, die_load.h). Without a timing model there is none, and freed
// frames are reused oldest first.
#pragma once

#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

class FrameClock {
 public:
  virtual ~FrameClock() = default;
  // When frame `frame` may take new data (0: from the start).
  virtual Picoseconds frame_free_at(uint32_t frame) const = 0;
  // The controller's time as the current command reaches its firmware.
  virtual Picoseconds now() const = 0;
};

}  // namespace ssd::ftl
