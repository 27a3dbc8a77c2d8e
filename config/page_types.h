// Page types of an MLC/TLC part: how many there are (the longer of the per-type timing lists,
// nand.t_read_us and nand.t_program_us) and which type each page of a block has
// (nand.page_type_order, tiled over the block; empty: page p has type p % types, the rule MQSim
// uses for its LSB/CSB/MSB latencies). Validation and the NAND timing both read these.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "config/platform_config.h"

namespace ssd::config {

inline uint32_t page_types(const NandConfig& nand) {
  return static_cast<uint32_t>(std::max(nand.t_read_us.size(), nand.t_program_us.size()));
}

// The page type of each page of a block, by its number in the block (a valid platform:
// page_type_order tiles the block and names only existing types).
inline std::vector<uint8_t> page_type_by_offset(const NandConfig& nand) {
  const uint32_t types = page_types(nand);
  const std::vector<uint32_t>& order = nand.page_type_order;
  std::vector<uint8_t> by_offset(nand.pages_per_block);
  for (uint32_t page = 0; page < nand.pages_per_block; ++page) {
    by_offset[page] =
        static_cast<uint8_t>(order.empty() ? page % types : order[page % order.size()]);
  }
  return by_offset;
}

}  // namespace ssd::config
