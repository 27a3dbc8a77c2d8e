// Sizes of mapping-table fields as a controller would pack them: whole bytes, just wide enough.
#pragma once

#include <cstdint>

namespace ssd::ftl {

// Whole bytes needed to name `values` distinct values (at least 1).
inline uint32_t bytes_to_name(uint64_t values) {
  uint32_t bytes = 1;
  while (bytes < 8 && (values >> (8 * bytes)) != 0) ++bytes;
  return bytes;
}

}  // namespace ssd::ftl
