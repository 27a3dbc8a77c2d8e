// The byte layout VET's memory figure is computed from (docs/vet.md, "Memory accounting"): what a
// 32-bit controller would hold, every field in whole bytes just wide enough, pointers 4 bytes.
// The simulator's own structures are laid out for speed instead (NodeValue is three 32-bit
// words); only the figure follows this layout.
//
//   key     ceil((B + bits(B + 1)) / 8) bytes: B prefix bits and the level (0..B)
//   unit    bytes(logical_units + 1): a start unit or a length (1..logical_units)
//   slot    bytes(slots)
//   PF-VET node   key + start + length + slot  (an internal node keeps its count in the start
//                 field and length 0, so every node is the same size)
//   PD-VET node   key + 4-byte record pointer (leaf) or count (internal) + 1 type byte
//   PD record     start + length + slot + 1-byte count of the leaves pointing to it
// The hash table adds its own overhead (ChainingTable, CuckooTable: memory_bytes).
#pragma once

#include <cstdint>

#include "ftl/core/memory_sizes.h"
#include "ftl/extent/extent_map.h"
#include "ftl/extent/vet/canonical_extent.h"

namespace ssd::ftl {

struct VetMemoryLayout {
  static constexpr uint32_t kPointerBytes = 4;
  static constexpr uint32_t kTypeBytes = 1;
  static constexpr uint32_t kRecordCountBytes = 1;
  // The largest count a PD record's one-byte field holds; a record that would need more is
  // copied (VetMap::acquire_record).
  static constexpr uint32_t kMaxRecordRefs = 255;

  uint32_t key_bytes = 0;
  uint32_t unit_bytes = 0;
  uint32_t slot_bytes = 0;
  uint32_t pf_node_bytes = 0;
  uint32_t pd_node_bytes = 0;
  uint32_t pd_record_bytes = 0;

  static VetMemoryLayout make(const ExtentSpace& space, uint32_t universe_bits) {
    VetMemoryLayout m;
    m.key_bytes = (universe_bits + vet_bits_for(universe_bits) + 7) / 8;
    m.unit_bytes = bytes_to_name(space.logical_units + 1);
    m.slot_bytes = bytes_to_name(space.slots);
    m.pf_node_bytes = m.key_bytes + 2 * m.unit_bytes + m.slot_bytes;
    m.pd_node_bytes = m.key_bytes + kPointerBytes + kTypeBytes;
    m.pd_record_bytes = 2 * m.unit_bytes + m.slot_bytes + kRecordCountBytes;
    return m;
  }
};

}  // namespace ssd::ftl
