// What the host interface asks of a power-cut experiment (models/platform/power_cuts.h), so that
// the host stays free of the device's internals. Before each submission the host asks whether the
// power goes off first; if it does, the commands that had not completed by then are lost (never
// acknowledged), the cut is made and the device recovers, and the host goes on once it is back.
#pragma once

#include <cstdint>
#include <optional>

#include "ftl/core/types.h"
#include "ftl/power/durability_check.h"

namespace ssd::models {

class PowerLoss {
 public:
  virtual ~PowerLoss() = default;
  // Whether the power goes off before request `number` (from 1) is submitted at `submit`, the
  // previous one having been submitted at `previous`: the instant, in (previous, submit], if so.
  virtual std::optional<ftl::Picoseconds> cut_before(uint64_t number, ftl::Picoseconds previous,
                                                     ftl::Picoseconds submit) = 0;
  // The power goes off at `at` and comes back; returns when the device serves commands again.
  virtual ftl::Picoseconds cut(ftl::Picoseconds at) = 0;
  // Taken when a flush has just run: what it makes durable if it completes before a cut.
  virtual uint64_t flush_marker() const = 0;
  // The flush taken at `marker` completed before any cut.
  virtual void flush_completed(uint64_t marker) = 0;
  // Taken when a FUA write has just run: the changes it made, durable if it completes before a
  // cut (its own units only).
  virtual ftl::ChangeSpan fua_changes() const = 0;
  // The FUA write that made `changes` completed before any cut.
  virtual void fua_completed(ftl::ChangeSpan changes) = 0;
};

}  // namespace ssd::models
