// The LSB FTL's settings, `ftl.lsb.*` (Lin, Chiao and Chang; shared/papers/lsb-large-superblock-
// ftl.md; docs/schemes.md, "LSB FTL"). Defaults are the paper's section IV: superblocks of 512
// logical blocks, 8 groups of 8 pages (on its 64-page blocks), 16 cache entries, a 20-byte DI and
// 3-byte PBNs (the sizes its equations (1) and (2) are evaluated with).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct LsbSettings : config::SettingsGroupOf<LsbSettings> {
  static constexpr std::string_view kGroup = "lsb";

  uint32_t superblock_blocks = 512;  // contiguous logical blocks per superblock
  uint32_t groups_per_block = 8;     // N: groups of a logical block (a PMD page's PDEs)
  uint32_t pages_per_group = 0;      // G: pages of a group (0 = pages per block / N)
  uint32_t cache_entries = 16;       // whole-logical-block mapping entries cached in RAM
  uint32_t di_bytes = 20;            // D: spare bytes of data information (LPN, sequence, ECC)
  uint32_t pbn_bytes = 3;            // e / 8: bytes of one PBMT entry

  std::vector<config::KeyDef> keys() override {
    return {
        {"ftl.lsb.superblock_blocks", &superblock_blocks,
         "Contiguous logical blocks grouped into one superblock (blocks from any plane)",
         config::at_least(1)},
        {"ftl.lsb.groups_per_block", &groups_per_block,
         "Groups a logical block is divided into (N: a PMD page's PDEs and PBMT entries)",
         config::at_least(1)},
        {"ftl.lsb.pages_per_group", &pages_per_group,
         "Contiguous logical pages per group (G: a PT; 0 = pages per block / groups_per_block)"},
        {"ftl.lsb.cache_entries", &cache_entries,
         "Logical blocks whose whole mapping (PMD, PTs, PBNs) the RAM cache holds, LRU",
         config::at_least(1)},
        {"ftl.lsb.di_bytes", &di_bytes,
         "Spare bytes of data information (LPN, write sequence number, ECC) ahead of the mapping "
         "fields (D)",
         config::at_least(8)},
        {"ftl.lsb.pbn_bytes", &pbn_bytes,
         "Bytes of one PBMT entry (a physical block number, e / 8)", config::closed(1, 4)}};
  }
};

}  // namespace ssd::ftl
