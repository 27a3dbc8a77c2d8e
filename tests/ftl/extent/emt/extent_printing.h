// Extents print as <lun, length, slot> in failure messages (found by gtest through ADL).
#pragma once

#include <ostream>

#include "ftl/extent/extent_map.h"

namespace ssd::ftl {

inline void PrintTo(const Extent& e, std::ostream* os) {
  *os << "<" << e.lun << ", " << e.length << ", " << e.slot << ">";
}

}  // namespace ssd::ftl
