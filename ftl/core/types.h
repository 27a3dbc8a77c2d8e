// Address and time vocabulary shared by the FTL and the models.
#pragma once

#include <cstdint>
#include <limits>

#include "config/time_limit.h"

namespace ssd::ftl {

using Lun = uint32_t;      // logical mapping unit number (host address / mapping unit size)
using SlotId = uint32_t;   // physical mapping unit: page * units_per_page + unit within the page
using PageId = uint32_t;   // physical flash page, flat over the whole device (see geometry.h)
using BlockId = uint32_t;  // physical flash block, flat over the whole device
using Token = uint32_t;    // content token of a mapping unit (content_token.h); 0 = never written
using Picoseconds = uint64_t;

inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// The latest simulated time a run may reach (config/time_limit.h).
inline constexpr Picoseconds kLatestTime = config::kLatestTimePs;

}  // namespace ssd::ftl
