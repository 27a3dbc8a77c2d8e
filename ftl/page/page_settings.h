// Page mapping's settings, `ftl.page.*`: whether and how the mapping table is made durable when
// the host asks for durability (shared/papers/nvram-mapping-table.md; docs/ftl.md, "Mapping
// table durability").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/scheme_settings.h"

namespace ssd::ftl {

struct PageSettings : config::SettingsGroupOf<PageSettings> {
  static constexpr std::string_view kGroup = "page";

  // none: the table stays volatile (a flush programs open data pages only; the table would be
  // rebuilt from spare areas). conventional: every dirty segment to flash on each sync (the
  // paper's baseline). whole: every segment, dirty or not (the stock Jasmine OpenSSD greedy FTL's
  // flush, which logs its entire page map). nvram: the paper's Algorithm 1.
  std::string map_sync = "none";
  // Contiguous table entries handled together (the paper's 8 KB: one Jasmine page).
  uint64_t segment_bytes = 8192;
  // A segment whose share of dirty entries is above this is dense, at or below it sparse.
  double dense_threshold = 0.25;
  // Bytes of one table entry, in DRAM and in the segments (0 = the fewest bytes that name every
  // slot; the paper's firmware uses 4-byte words).
  uint32_t entry_bytes = 0;
  // NVRAM the map may use: a fraction of the mapping table (when > 0), else bytes (0 = the
  // platform's whole NVRAM, nvram.capacity_bytes).
  double nvram_fraction = 0.0;
  uint64_t nvram_bytes = 0;

  std::vector<config::KeyDef> keys() override {
    return {
        {"ftl.page.map_sync",
         &map_sync,
         "What a flush does with the page table: none (it stays volatile), conventional "
         "(every dirty segment to flash), whole (every segment to flash) or nvram (full and "
         "dense segments to flash, sparse ones to NVRAM: the NVRAM-aware scheme)",
         std::nullopt,
         {"none", "conventional", "whole", "nvram"}},
        {"ftl.page.segment_bytes", &segment_bytes,
         "Bytes of page table handled as one mapping segment (a whole number of mapping "
         "units of flash)",
         config::closed(1, 1 << 30)},
        {"ftl.page.dense_threshold", &dense_threshold,
         "Share of dirty entries above which a segment is dense (written to flash) rather "
         "than sparse (copied to NVRAM)",
         config::left_open(0.0, 1.0)},
        {"ftl.page.entry_bytes", &entry_bytes,
         "Bytes of one page-table entry, in DRAM and in map segments (0 = the fewest bytes that "
         "name every slot)",
         config::closed(0, 8)},
        {"ftl.page.nvram_fraction", &nvram_fraction,
         "NVRAM for map segments as a share of the page table (0 = use ftl.page.nvram_bytes)",
         config::closed(0.0, 1.0)},
        {"ftl.page.nvram_bytes", &nvram_bytes,
         "NVRAM for map segments in bytes when ftl.page.nvram_fraction is 0 (0 = the "
         "platform's whole nvram.capacity_bytes)"}};
  }
};

}  // namespace ssd::ftl
