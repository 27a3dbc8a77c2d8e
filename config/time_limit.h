// The latest simulated time a run may reach: 2^63 ps, about 106.7 days. Inputs that would pass it
// are refused before the run, and a run that reaches it stops with an error (docs/errors.md).
// Every single duration is far shorter (the timing keys' ranges bound them), so the other half of
// the 64-bit range keeps sums of them from wrapping before a check sees them.
#pragma once

#include <cstdint>

namespace ssd::config {

inline constexpr uint64_t kLatestTimePs = uint64_t(1) << 63;
inline constexpr const char* kLatestTimeText = "2^63 ps, about 106.7 days";

}  // namespace ssd::config
