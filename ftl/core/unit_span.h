// Splits a sector range into the mapping units it touches, with the mask of sectors it covers in
// each unit (units hold at most 64 sectors, kMaxSectorsPerUnit; config validation enforces it).
#pragma once

#include <algorithm>
#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

// A sector mask fits one 64-bit word: a 32 KiB unit of 512-byte sectors.
inline constexpr uint32_t kMaxSectorsPerUnit = 64;

using SectorMask = uint64_t;

// Sectors [0, count) of a unit, count <= kMaxSectorsPerUnit.
inline SectorMask low_sectors(uint32_t count) {
  return count >= 64 ? ~SectorMask{0} : (SectorMask{1} << count) - 1;
}

struct UnitSpan {
  Lun first = 0;
  uint32_t count = 0;
  SectorMask head_mask = 0;  // sectors covered in the first unit
  SectorMask tail_mask = 0;  // sectors covered in the last unit (== head_mask when count == 1)
  SectorMask full_mask = 0;

  SectorMask mask_of(uint32_t i) const {
    if (i == 0) return head_mask;
    if (i + 1 == count) return tail_mask;
    return full_mask;
  }
};

inline UnitSpan unit_span(uint64_t start_sector, uint32_t sector_count, uint32_t sectors_per_unit) {
  UnitSpan span;
  span.full_mask = low_sectors(sectors_per_unit);
  if (sector_count == 0) return span;
  const uint64_t end = start_sector + sector_count;  // exclusive
  const uint64_t first = start_sector / sectors_per_unit;
  const uint64_t last = (end - 1) / sectors_per_unit;
  span.first = static_cast<Lun>(first);
  span.count = static_cast<uint32_t>(last - first + 1);
  const auto mask_between = [&](uint64_t lo, uint64_t hi) {  // sectors [lo, hi) of one unit
    return low_sectors(static_cast<uint32_t>(hi - lo)) << (lo % sectors_per_unit);
  };
  const uint64_t head_end = std::min<uint64_t>(end, (first + 1) * sectors_per_unit);
  span.head_mask = mask_between(start_sector, head_end);
  span.tail_mask = span.count == 1 ? span.head_mask : mask_between(last * sectors_per_unit, end);
  return span;
}

}  // namespace ssd::ftl
