// Which of the device's units a laid-out copy of a miniature's unit becomes, for sampled aging
// that keeps the miniature's units where they were relative to each other (sampled_aging.h):
// the extent schemes, whose map is made of runs of units in consecutive slots. The device's
// dies are `copies` copies of the miniature's; its logical space is dealt out to them in chunks
// of `chunk_units`, chunk j to copy j mod copies, as the fill stripes its chunks over the dies.
// So copy c's unit m is the device's unit
//
//   (m / chunk) * copies * chunk + c * chunk + m % chunk
//
// and a run of the miniature's units that stays within one of its chunks stays a run on the
// device, in every copy. (A random permutation of the units, as page mapping's layout uses,
// would leave every unit alone.)
#pragma once

#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

struct AgedUnitInterleave {
  uint32_t copies = 1;
  uint32_t chunk_units = 1;

  uint64_t device_unit(uint32_t copy, uint64_t miniature_unit) const {
    return in_first_copy(miniature_unit) + uint64_t{copy} * chunk_units;
  }
  // Copy 0's unit: copy c's is chunk_units * c further on.
  uint64_t in_first_copy(uint64_t miniature_unit) const {
    return miniature_unit / chunk_units * copies * chunk_units + miniature_unit % chunk_units;
  }
};

}  // namespace ssd::ftl
