// Conversions between the FTL's integer picoseconds and SystemC time. SystemC's time resolution
// is 1 ps unless a program changes it, and none here does, so an sc_time's value is a count of
// picoseconds and the conversions are exact and cheap (no floating point on the hot path).
#pragma once

#include <cmath>
#include <cstdint>

#include <systemc>

#include "ftl/core/checked_time.h"
#include "ftl/core/types.h"

namespace ssd::models {

using ftl::Picoseconds;

inline sc_core::sc_time to_sc_time(Picoseconds ps) { return sc_core::sc_time::from_value(ps); }
inline Picoseconds to_ps(const sc_core::sc_time& t) { return t.value(); }

// Configuration values come in microseconds or nanoseconds; round once, at elaboration. `what`
// names the value in the error when it is past the latest simulated time (ftl/core/checked_time.h).
inline Picoseconds us_to_ps(double us, const char* what) { return ftl::checked_ps(us * 1e6, what); }
inline Picoseconds ns_to_ps(double ns, const char* what) { return ftl::checked_ps(ns * 1e3, what); }

// Picoseconds to move one byte at `mb_per_s` megabytes (1e6 B) per second.
inline double ps_per_byte(double mb_per_s) { return 1e6 / mb_per_s; }

}  // namespace ssd::models
