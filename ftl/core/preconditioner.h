// Preconditioning: brings a fresh device to a chosen state before the timed run, functionally
// (no operation is recorded or timed). First a sequential fill of a share of the logical space,
// then random single-unit overwrites over the filled range to age it towards GC steady state,
// then a flush so everything written is durable.
#pragma once

#include <cstdint>
#include <functional>

#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"

namespace ssd::ftl {

struct PreconditionResult {
  uint64_t units_written = 0;
  uint64_t overwrites = 0;  // the random overwrites made (or, sampled, laid out for)
  uint64_t commands = 0;
  bool filled_in_bulk = false;    // the scheme built the fill's state at once (fill_sequential)
  bool aged_by_sampling = false;  // precondition.aging = sampled (sampled_aging.h)
};

// With precondition.aging = sampled and overwrites to make, the fill and the overwrites run on a
// miniature of precondition.sample_dies dies whose planes the device then takes (sampled_aging.h);
// std::invalid_argument when the scheme cannot (configuration refuses such a platform first).
// `progress` (may be empty) is called now and then with the share done, in [0, 1].
// `bulk_fill`: let the scheme build the sequential fill's state at once where it can
// (FtlDevice::fill_sequential; the same state as command by command); false: command by command.
PreconditionResult precondition(FtlDevice& device, const config::PreconditionConfig& config,
                                const std::function<void(double)>& progress = {},
                                bool bulk_fill = true);

}  // namespace ssd::ftl
