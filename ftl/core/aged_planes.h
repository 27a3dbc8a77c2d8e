// What sampled aging (precondition.aging = sampled, sampled_aging.h) carries from the miniature
// it ages to the device it lays out: every block of the miniature's planes as the aging left it,
// how many pages are programmed, how often it was erased, which of its slots hold a valid unit and
// which write stream was writing it. Which unit each slot holds is not kept: the device gives its
// own units to the valid slots.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ftl/core/random.h"
#include "ftl/core/stream_code.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

struct AgedPlanes {
  uint32_t planes = 0;  // of the miniature (its dies x planes per die)
  uint32_t blocks_per_plane = 0;
  uint32_t units_per_block = 0;
  // Per block of the miniature, plane by plane (block b of plane p is p * blocks_per_plane + b).
  std::vector<uint16_t> programmed_pages;
  std::vector<uint32_t> erase_counts;
  std::vector<uint64_t> valid_bits;  // words_per_block() words per block, bit u: slot u is valid
  // Per block, the write stream that was writing it (a partly programmed block), as its code
  // (stream_code.h); StreamCodes::kNone for the others. The device's streams go on in the same
  // blocks: which stream continues which block sets when each plane next needs a free block,
  // and with several planes per die a stream handed another's block changes how the die's
  // planes take turns at GC for the rest of a run (docs/ftl.md, sampled aging).
  std::vector<StreamCode> open_in_stream;
  // The miniature's logical units and the host units written to it (its fill and overwrites):
  // what a scheme scales a count of host writes by on the device (DAC's ages).
  uint64_t logical_units = 0;
  uint64_t host_unit_writes = 0;
  // What the scheme keeps per unit beside its map entry, by slot of the miniature (block b's slot
  // u at b * units_per_block + u: the state of the unit there), packed as the scheme likes (DAC:
  // region and age); empty when it keeps nothing. The unit the device lays out in a slot takes
  // the slot's state.
  std::vector<uint64_t> unit_state;
  // Which valid slots hold a page the scheme keeps of its own among the units rather than a unit
  // (DFTL's translation pages), as valid_bits; empty when there are none. The device lays its
  // own such pages out in their copies (PageStore::lay_out_aged's AgedSchemePages).
  std::vector<uint64_t> scheme_page_bits;
  // Which unit each slot of the miniature holds (by slot, as unit_state; kNone where none), for a
  // layout that keeps units together (AgedUnitInterleave); empty unless the scheme asked for it
  // (PageStore::describe_planes).
  std::vector<Lun> slot_units;
  // For the block-granular schemes (ftl/hybrid/block_aged.cpp), whose pages name their unit
  // whether current or stale: slot_units holds every programmed page's unit (kNone for a page
  // left erased), valid_bits the pages holding a unit's newest copy, and these say, per block,
  // which logical block holds it (kNone: none, or no one logical block, as FAST's random-write
  // log blocks) and in what role, in the scheme's own code (kNone: the block is free). Empty for
  // the other schemes.
  std::vector<uint32_t> block_lbns;
  std::vector<uint32_t> block_roles;
  // The same schemes on a device that may lose power, whose miniature aged with the recovery
  // words in its pages (BlockFlash, sequenced): per block, the allocation word its pages carry
  // (its allocation sequence and appended bit; 0 for a block not allocated), and per programmed
  // page (by slot, as slot_units) its program sequence where the scheme keeps one (FAST). Empty
  // otherwise. Every copy's sequences keep the miniature's order (block_aged.cpp).
  std::vector<uint32_t> block_allocations;
  std::vector<uint32_t> page_sequences;
  // For the superblock frame (ftl/superblock_frame/frame_aged.cpp), whose pages' spare areas hold
  // the map: block_lbns says each block's superblock and block_roles its place in the
  // superblock's list of blocks (0: the oldest), kNone for a free block; these carry the rest.
  // Every programmed page's spare words as the miniature's flash holds them, by slot, a page's
  // spare_words_per_page words after another (shared: the device's laid-out blocks take their
  // words from them when first read, long after the layout).
  std::shared_ptr<const std::vector<uint32_t>> spare_words;
  uint32_t spare_words_per_page = 0;
  std::vector<uint32_t> live_pages;  // per block: the pages the frame counts live
  std::vector<PageId> lbn_heads;     // per logical block: its newest page (the PGD), or kNone
  std::vector<uint64_t> unit_valid;  // per logical unit, a bit: it holds data
  uint64_t write_sequence = 0;       // the last write sequence number the DIs hold

  uint32_t words_per_block() const { return (units_per_block + 63) / 64; }
  // The layouts' order (PageStore::lay_out_aged, BlockScheme::lay_out_aged): the device's plane
  // `plane` copies the miniature's plane plane % planes, its block b the miniature's block
  // `sources[b]`, the plane's blocks in an order `shuffle` draws (Fisher-Yates).
  void block_sources(uint32_t plane, Random& shuffle, std::vector<uint64_t>& sources) const {
    sources.resize(blocks_per_plane);
    const uint64_t first = uint64_t{plane % planes} * blocks_per_plane;
    for (uint32_t b = 0; b < blocks_per_plane; ++b) sources[b] = first + b;
    for (uint32_t i = blocks_per_plane; i > 1; --i) {
      std::swap(sources[i - 1], sources[shuffle.below(i)]);
    }
  }
  bool valid(uint64_t block, uint32_t unit) const {
    return (valid_bits[block * words_per_block() + unit / 64] >> (unit % 64) & 1u) != 0;
  }
  void set_valid(uint64_t block, uint32_t unit) {
    valid_bits[block * words_per_block() + unit / 64] |= uint64_t{1} << (unit % 64);
  }
  bool scheme_page(uint64_t block, uint32_t unit) const {
    return !scheme_page_bits.empty() &&
           (scheme_page_bits[block * words_per_block() + unit / 64] >> (unit % 64) & 1u) != 0;
  }
  void set_scheme_page(uint64_t block, uint32_t unit) {
    if (scheme_page_bits.empty()) scheme_page_bits.assign(valid_bits.size(), 0);
    scheme_page_bits[block * words_per_block() + unit / 64] |= uint64_t{1} << (unit % 64);
  }
};

}  // namespace ssd::ftl
