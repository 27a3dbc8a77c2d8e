// What a sector-log page holds besides its sectors' data when the device may lose power, so that
// a recovery can find the log and rebuild its map from the flash alone (the paper, section 4:
// "Sector log can use spare area in flash memory to store logical addresses to recover from a
// crash. In case that the spare area is too small to fit the entire sector address, a small part
// of data area can be used for recovery addresses.").
//
// Spare area, after the words the scheme below keeps per page (PageStore: one per unit, then a
// 64-bit program sequence):
//   - the unit words: none (a log page names no unit of the scheme below);
//   - the sequence words: the log's own 64-bit page sequence, with PageStore::kLentPageMark set
//     (the scheme's recovery scan leaves the page to the log and keeps its block lent);
//   - the logical sector address of every sector slot, `address_bits` each, packed; a padded
//     slot holds all ones (no address: the bits count one more than the highest address).
// When the addresses do not fit in nand.spare_bytes beside the scheme's words, they go to the
// last `address_sectors` sectors of the page's data area instead, which then carries that many
// sectors of data fewer, and a recovery reads them with the page.
//
// Beside each sector's data the simulation keeps, in the page's data words
// (FlashArray::set_data_words), the sector's content token and two tokens describing the scheme
// copy the sector patches (kWordsPerSector): see sector_log.h, "Power loss".
#pragma once

#include <cstdint>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/geometry.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

struct LogPageLayout {
  // Data words per sector slot: its token, the token the scheme copy has under it, and that
  // copy's unit token.
  static constexpr uint32_t kWordsPerSector = 3;

  bool recoverable = false;        // pages carry a sequence and addresses (power may be cut)
  uint32_t unit_words = 0;         // the scheme's unit words, left empty
  uint32_t sectors = 0;            // sector slots of data per page
  uint32_t address_bits = 0;       // bits per logical sector address
  bool addresses_in_spare = true;  // else in the last address_sectors sectors of the data area
  uint32_t address_sectors = 0;
  uint32_t address_words = 0;  // 32-bit words the packed addresses take

  // The layout of a device whose flash keeps `spare_words_per_page` spare words per page (what
  // the scheme descriptors sized it to: with power cuts, sector_log_spare_words() beyond the
  // scheme's own when the addresses fit).
  static LogPageLayout of(const Geometry& geometry, uint32_t spare_words_per_page);

  // Bits per logical sector address (one value beyond the highest address is left for none),
  // and the words the addresses of `sectors` slots take packed.
  static uint32_t bits_per_address(const Geometry& geometry);
  static uint32_t address_words_for(const Geometry& geometry, uint32_t sectors);
  // Sectors of a page the addresses take in the data area when they do not fit in the spare
  // (0: the page would hold no data).
  static uint32_t address_sectors_for(const Geometry& geometry);

  uint64_t no_address() const { return (uint64_t{1} << address_bits) - 1; }
  // Packs `addresses` (one per sector slot, no_address() for padding) into `words`
  // (address_words of them).
  void pack(const std::vector<uint64_t>& addresses, uint32_t* words) const;
  // The address of slot `slot` in the packed `words`.
  uint64_t unpack(const uint32_t* words, uint32_t slot) const;
};

// Spare words the sector log adds per page when power may be cut (SchemeDescriptor::
// settings_recovery_spare_words): its sector addresses, when the platform's spare area holds them
// beside the scheme's words; 0 without a log, or when they go to the data area.
uint32_t sector_log_spare_words(const config::PlatformConfig& platform, const Geometry& geometry);

}  // namespace ssd::ftl
