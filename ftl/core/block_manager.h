// Block bookkeeping shared by page-granular schemes: per-plane pools of free (erased) blocks,
// the state of every block, how many valid mapping units each holds, and the GC reserve.
// Free blocks are handed out first-in first-out, which spreads erases without a wear policy.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "ftl/core/flash_array.h"
#include "ftl/core/geometry.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

// kCollecting: a GC victim whose valid units are moved out but not all programmed yet; it is
// erased once they are, and no victim policy picks it meanwhile. kLent: handed to a layer above
// the scheme (the sector log's data region, ftl/sector_log/), which writes, erases and returns it;
// GC never picks it.
enum class BlockState : uint8_t { kFree, kOpen, kFull, kCollecting, kLent };

class BlockManager {
 public:
  // `gc_reserve_blocks`: free blocks each plane keeps; below it, writes trigger GC
  // (config::gc_reserve_blocks_per_plane, so the FTL and validation agree).
  BlockManager(const Geometry& geometry, uint32_t gc_reserve_blocks);

  const Geometry& geometry() const { return m_geometry; }
  uint32_t gc_reserve_blocks() const { return m_gc_reserve; }
  uint32_t free_blocks(uint32_t plane) const { return static_cast<uint32_t>(m_free[plane].size()); }
  bool below_gc_threshold(uint32_t plane) const { return free_blocks(plane) < m_gc_reserve; }

  // Takes a block for a write stream on `plane` and marks it open: one a power cut left partly
  // programmed first (reopen()), else the oldest free block. Throws std::runtime_error when the
  // plane has none: GC could not keep up, which means over-provisioning is too small.
  BlockId open_block(uint32_t plane);
  void close_block(BlockId block) { m_state[block] = BlockState::kFull; }
  // Lends the oldest free block of `plane` to a layer above (throws as open_block does), so
  // the layer's blocks wear with the scheme's own. The layer erases it before taking it back.
  BlockId lend_block(uint32_t plane) {
    const BlockId block = take_free(plane);
    m_state[block] = BlockState::kLent;
    return block;
  }
  void take_back(BlockId block) { release_block(block); }
  // After rebuild(): `block`, which holds a layer's pages, stays lent to it (PageStore::adopt).
  void keep_lent(BlockId block) { m_state[block] = BlockState::kLent; }
  void mark_collecting(BlockId block) { m_state[block] = BlockState::kCollecting; }
  // The block was erased: back to the free pool.
  void release_block(BlockId block);
  // After a power cut: blocks with programmed pages are full, the others free (in block order),
  // and none holds a valid unit until add_valid() says so.
  void rebuild(const FlashArray& flash);
  // After rebuild(): a partly programmed block goes on being written: the next stream to open a
  // block on its plane takes it before any free one (its erased pages are space GC cannot
  // reclaim without moving the block's data, and after a cut GC may need them to write into).
  void reopen(BlockId block) {
    m_state[block] = BlockState::kOpen;
    m_partial[m_geometry.plane_of_block(block)].push_back(block);
  }
  // After rebuild(): `block`, partly programmed, is a stream's open block again (sampled aging,
  // where each stream takes back its own; reopen() leaves the choice to whichever comes first).
  void resume(BlockId block) { m_state[block] = BlockState::kOpen; }
  // Partly programmed blocks waiting for a stream on `plane`.
  uint32_t partial_blocks(uint32_t plane) const {
    return static_cast<uint32_t>(m_partial[plane].size());
  }

  // No block was ever taken: every block free, in the order the constructor pooled them.
  bool untouched() const;
  // `count` units of `block` became valid at once (a bulk fill).
  void add_valid_units(BlockId block, uint32_t count) {
    m_valid[block] = static_cast<uint16_t>(m_valid[block] + count);
    m_plane_valid[m_geometry.plane_of_block(block)] += count;
  }

  BlockState state(BlockId block) const { return m_state[block]; }
  uint32_t valid_units(BlockId block) const { return m_valid[block]; }
  void add_valid(SlotId slot) {
    const BlockId block = block_of_slot(slot);
    ++m_valid[block];
    ++m_plane_valid[m_geometry.plane_of_block(block)];
  }
  void remove_valid(SlotId slot) {
    const BlockId block = block_of_slot(slot);
    --m_valid[block];
    --m_plane_valid[m_geometry.plane_of_block(block)];
  }
  // Valid units on all blocks of `plane`: the live data GC must keep there.
  uint64_t plane_valid_units(uint32_t plane) const { return m_plane_valid[plane]; }
  BlockId block_of_slot(SlotId slot) const {
    return static_cast<BlockId>(slot / m_slots_per_block);
  }

 private:
  BlockId take_free(uint32_t plane);

  Geometry m_geometry;
  uint32_t m_slots_per_block;
  uint32_t m_gc_reserve;
  std::vector<std::deque<BlockId>> m_free;     // per flat plane
  std::vector<std::deque<BlockId>> m_partial;  // per flat plane: reopen()ed, for open_block()
  std::vector<BlockState> m_state;
  std::vector<uint16_t> m_valid;
  std::vector<uint64_t> m_plane_valid;
};

}  // namespace ssd::ftl
