// Invariants of the sector layer after a power-cut recovery: the scheme below keeps exactly the
// log's blocks lent; the log's ring names distinct blocks; every sector its map names is in a
// readable page of the ring, in the slot the map says, holding what the flash holds there; the
// head block is written up to the head page and no further; and the scheme's table agrees with
// its blocks' valid counts. Call with ASSERT_NO_FATAL_FAILURE.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/page_store.h"
#include "ftl/dac/dac_ftl.h"
#include "ftl/page/page_mapping.h"
#include "ftl/sector_log/log_page_layout.h"
#include "ftl/sector_log/sector_layer.h"

namespace ssd::testing {

template <class Scheme>
void expect_table_matches_blocks(const ftl::Geometry& g, const Scheme& scheme) {
  const ftl::BlockManager& blocks = scheme.store().blocks();
  std::vector<uint32_t> valid(g.blocks(), 0);
  for (ftl::Lun lun = 0; lun < g.logical_units; ++lun) {
    const ftl::SlotId slot = scheme.slot_of(lun);
    if (slot != ftl::kNone) ++valid[blocks.block_of_slot(slot)];
  }
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    ASSERT_EQ(blocks.valid_units(b), valid[b]) << "block " << b;
  }
}

inline const ftl::BlockManager& blocks_below(const ftl::SectorLayer& layer) {
  if (const auto* page = dynamic_cast<const ftl::PageMapping*>(&layer.below())) {
    return page->store().blocks();
  }
  return dynamic_cast<const ftl::DacFtl&>(layer.below()).store().blocks();
}

inline void expect_sector_layer_invariants(ftl::FtlDevice& device, const ftl::SectorLayer& layer) {
  const ftl::Geometry& g = device.geometry();
  const ftl::FlashArray& flash = device.flash();
  if (const auto* page = dynamic_cast<const ftl::PageMapping*>(&layer.below())) {
    ASSERT_NO_FATAL_FAILURE(expect_table_matches_blocks(g, *page));
  } else {
    ASSERT_NO_FATAL_FAILURE(
        expect_table_matches_blocks(g, dynamic_cast<const ftl::DacFtl&>(layer.below())));
  }
  const ftl::BlockManager& blocks = blocks_below(layer);
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    if (blocks.state(b) == ftl::BlockState::kFree) {
      ASSERT_EQ(flash.write_pointer(b), 0u) << "free block " << b << " not erased";
    }
  }
  const ftl::SectorLog* log = layer.log();
  std::set<ftl::BlockId> ring;
  if (log != nullptr) {
    for (uint32_t i = 0; i < log->blocks(); ++i) {
      ASSERT_TRUE(ring.insert(log->ring_block(i)).second) << "ring block " << i << " twice";
      ASSERT_EQ(blocks.state(log->ring_block(i)), ftl::BlockState::kLent) << "ring block " << i;
    }
  }
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    if (blocks.state(b) == ftl::BlockState::kLent) {
      ASSERT_EQ(ring.count(b), 1u) << "block " << b << " lent but not in the log";
    }
  }
  if (log == nullptr) return;
  const uint32_t per_page = log->sectors_per_page();
  const uint64_t block_slots = uint64_t{g.pages_per_block} * per_page;
  const ftl::BlockId head = log->ring_block(log->head());
  ASSERT_EQ(flash.write_pointer(head), log->head_page());
  const ftl::SectorMap& map = log->map();
  uint64_t mapped = 0;
  for (uint64_t slot = 0; slot < uint64_t{log->blocks()} * block_slots; ++slot) {
    const ftl::Lun lpn = log->slot_lpn(slot);
    const auto ring_index = static_cast<uint32_t>(slot / block_slots);
    const auto page_in_block = static_cast<uint32_t>(slot % block_slots / per_page);
    if (ring_index == log->head() && page_in_block >= log->head_page()) {
      ASSERT_EQ(lpn, ftl::kNone) << "slot " << slot << " past the head";
    }
    if (lpn == ftl::kNone) continue;
    const uint32_t entry = map.peek(lpn);
    if (entry == ftl::kNone || map.location(entry, log->slot_sector(slot)) != slot) continue;
    ++mapped;
    const ftl::PageId page = g.first_page(log->ring_block(ring_index)) + page_in_block;
    ASSERT_TRUE(flash.is_programmed(page) && flash.readable(page)) << "slot " << slot;
    if (log->layout().recoverable) {
      const std::vector<uint32_t>* words = flash.data_words(page);
      ASSERT_NE(words, nullptr) << "slot " << slot;
      ASSERT_EQ((*words)[slot % per_page * ftl::LogPageLayout::kWordsPerSector],
                log->slot_token(slot))
          << "slot " << slot;
    }
  }
  // Every sector the map names was found at its slot.
  uint64_t named = 0;
  for (ftl::Lun lpn = 0; lpn < g.logical_units; ++lpn) {
    const uint32_t entry = map.peek(lpn);
    if (entry != ftl::kNone) named += __builtin_popcountll(map.sectors(entry));
  }
  ASSERT_EQ(named, mapped);
}

}  // namespace ssd::testing
