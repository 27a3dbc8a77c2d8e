#include "ftl/core/block_manager.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

BlockManager::BlockManager(const Geometry& geometry, uint32_t gc_reserve_blocks)
    : m_geometry(geometry),
      m_slots_per_block(geometry.pages_per_block * geometry.units_per_page),
      m_gc_reserve(gc_reserve_blocks),
      m_free(geometry.planes()),
      m_partial(geometry.planes()),
      m_state(geometry.blocks(), BlockState::kFree),
      m_valid(geometry.blocks(), 0),
      m_plane_valid(geometry.planes(), 0) {
  if (m_slots_per_block > 0xffff) {
    throw std::invalid_argument("a block holds more than 65535 mapping units");
  }
  if (m_gc_reserve < 1) m_gc_reserve = 1;
  for (BlockId b = 0; b < geometry.blocks(); ++b) m_free[geometry.plane_of_block(b)].push_back(b);
}

BlockId BlockManager::open_block(uint32_t plane) {
  if (!m_partial[plane].empty()) {
    const BlockId block = m_partial[plane].front();
    m_partial[plane].pop_front();
    return block;  // kOpen since reopen()
  }
  return take_free(plane);
}

BlockId BlockManager::take_free(uint32_t plane) {
  auto& pool = m_free[plane];
  if (pool.empty()) {
    throw std::runtime_error("plane " + std::to_string(plane) +
                             " has no free block left: garbage collection could not reclaim "
                             "space on it (raise ftl.over_provisioning or nand.blocks_per_plane)");
  }
  const BlockId block = pool.front();
  pool.pop_front();
  m_state[block] = BlockState::kOpen;
  return block;
}

bool BlockManager::untouched() const {
  for (uint32_t plane = 0; plane < m_geometry.planes(); ++plane) {
    const auto& pool = m_free[plane];
    if (!m_partial[plane].empty() || pool.size() != m_geometry.blocks_per_plane) return false;
    for (uint32_t i = 0; i < pool.size(); ++i) {
      if (pool[i] != plane * m_geometry.blocks_per_plane + i) return false;
    }
  }
  return true;
}

void BlockManager::release_block(BlockId block) {
  m_state[block] = BlockState::kFree;
  m_plane_valid[m_geometry.plane_of_block(block)] -= m_valid[block];
  m_valid[block] = 0;
  m_free[m_geometry.plane_of_block(block)].push_back(block);
}

void BlockManager::rebuild(const FlashArray& flash) {
  for (auto& pool : m_free) pool.clear();
  for (auto& pool : m_partial) pool.clear();
  std::fill(m_valid.begin(), m_valid.end(), 0);
  std::fill(m_plane_valid.begin(), m_plane_valid.end(), 0);
  for (BlockId b = 0; b < m_geometry.blocks(); ++b) {
    const bool erased = flash.write_pointer(b) == 0;
    m_state[b] = erased ? BlockState::kFree : BlockState::kFull;
    if (erased) m_free[m_geometry.plane_of_block(b)].push_back(b);
  }
}

}  // namespace ssd::ftl
