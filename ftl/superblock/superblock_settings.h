// The Superblock FTL's settings, `ftl.superblock.*` (Kang et al., EMSOFT 2006, as section II.C of
// shared/papers/lsb-large-superblock-ftl.md summarises it; docs/schemes.md, "Superblock FTL").
// Defaults are the configuration the LSB paper runs it with: 4-block superblocks, at most 8
// physical blocks each, 4 groups (of 16 pages, on its 64-page blocks), 48 cache entries.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct SuperblockSettings : config::SettingsGroupOf<SuperblockSettings> {
  static constexpr std::string_view kGroup = "superblock";

  uint32_t superblock_blocks = 4;    // N: contiguous logical blocks per superblock
  uint32_t max_physical_blocks = 8;  // N + M: physical blocks a superblock may hold
  uint32_t groups_per_block = 4;     // PMD entries: groups of a logical block
  uint32_t pages_per_group = 0;      // PT entries: pages of a group (0 = pages per block / groups)
  uint32_t cache_entries = 48;       // whole-logical-block mapping entries cached in RAM
  uint32_t di_bytes = 20;            // spare bytes of data information (LPN, sequence, ECC)
  uint32_t pbn_bytes = 3;            // bytes of one PBMT entry (a physical block number)

  std::vector<config::KeyDef> keys() override {
    return {
        {"ftl.superblock.superblock_blocks", &superblock_blocks,
         "Contiguous logical blocks grouped into one superblock (N)", config::at_least(1)},
        {"ftl.superblock.max_physical_blocks", &max_physical_blocks,
         "Physical blocks one superblock may hold (N + M); its PBMT has one entry fewer",
         config::closed(2, 256)},
        {"ftl.superblock.groups_per_block", &groups_per_block,
         "Groups a logical block is divided into (PMD entries)", config::at_least(1)},
        {"ftl.superblock.pages_per_group", &pages_per_group,
         "Contiguous logical pages per group (PT entries; 0 = pages per block / "
         "groups_per_block)"},
        {"ftl.superblock.cache_entries", &cache_entries,
         "Logical blocks whose whole mapping (PMD, PTs, PBNs) the RAM cache holds, LRU",
         config::at_least(1)},
        {"ftl.superblock.di_bytes", &di_bytes,
         "Spare bytes of data information (LPN, write sequence number, ECC) ahead of the mapping "
         "fields",
         config::at_least(8)},
        {"ftl.superblock.pbn_bytes", &pbn_bytes,
         "Bytes of one PBMT entry (a physical block number)", config::closed(1, 4)}};
  }
};

}  // namespace ssd::ftl
