// One bit per logical unit: does the unit hold data (written and not trimmed since)? The
// block-granular schemes keep it in controller DRAM so that a read of an unwritten or trimmed
// unit returns zeroes without touching flash, and so that merges copy only live pages.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

class ValidUnits {
 public:
  explicit ValidUnits(uint64_t logical_units) : m_bits(logical_units, false) {}

  bool valid(Lun lun) const { return m_bits[lun]; }
  void set(Lun lun) { m_bits[lun] = true; }
  void set_range(Lun first, uint64_t count) {
    std::fill(m_bits.begin() + first, m_bits.begin() + first + count, true);
  }
  void clear(Lun lun) { m_bits[lun] = false; }
  // As the controller would hold it: one bit per logical unit.
  uint64_t memory_bytes() const { return (m_bits.size() + 7) / 8; }

 private:
  std::vector<bool> m_bits;
};

}  // namespace ssd::ftl
