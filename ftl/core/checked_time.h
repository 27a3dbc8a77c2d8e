// Real-valued times (from configuration values, rates and byte counts) to whole picoseconds,
// checked: a value past the latest simulated time (ftl::kLatestTime), or not a number, throws
// TimeLimitError naming what it was, instead of wrapping or saturating into a wrong answer.
#pragma once

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "ftl/core/types.h"

namespace ssd::ftl {

class TimeLimitError : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

// "what (1.5e+21 ps) is past the latest simulated time (2^63 ps, about 106.7 days)".
inline std::string past_latest_time(const char* what, double ps) {
  char value[32];
  std::snprintf(value, sizeof value, "%.3g", ps);
  return std::string(what) + " (" + value + " ps) is past the latest simulated time (" +
         config::kLatestTimeText + ")";
}

// `what` is only read when the check fails, so the hot path builds no string.
inline Picoseconds checked_ps(double ps, const char* what) {
  if (!(ps >= 0.0) || ps > double(kLatestTime)) throw TimeLimitError(past_latest_time(what, ps));
  return static_cast<Picoseconds>(std::llround(ps));
}

}  // namespace ssd::ftl
