// EMT, the Extent Mapping Tree (shared/papers/vet-emt-extent-mapping.md, sec. 2.3, 4, 5.3;
// docs/emt.md): one tree node per stored extent, keyed by its first logical unit, holding its
// length and first slot. A write (Algorithm 4) finds the last extent starting at or before the
// write, walks successors while they overlap it, deletes each, keeps the parts outside the write
// and inserts the new extent and those parts. A read (Algorithm 5) walks the same way and returns
// the overlapping parts, clipped to the range.
//
// Departures from the printed pseudo-code, all to reach the semantics the text states on
// half-open ranges: the off-by-one conditions of Algorithm 4 are corrected, an extent before the
// write that does not reach it is not deleted, extents are found when no extent starts at or
// before the write, and reads continue past unmapped units (holes read as zeroes) instead of
// failing the whole read as the printed "page fault" does. Each is commented where it applies.
//
// What it leaves out: the tree is volatile, as page mapping's table is (the spare areas name
// every unit); extents are not merged with neighbours that happen to continue them.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/flash_op.h"
#include "ftl/extent/emt/extent_tree.h"
#include "ftl/extent/extent_map.h"

namespace ssd::ftl {

class EmtMap final : public ExtentMap {
 public:
  EmtMap(const ExtentSpace& space, CpuWork& cpu);

  void lookup(Lun lun, uint32_t length, std::vector<Extent>& found) override;
  uint32_t insert(const Extent& extent, std::vector<Extent>& displaced) override;
  uint32_t insert_unmapped(const Extent& extent) override;
  // Makes room in the tree's pool for two nodes an extent: the fill's, one an extent, and as many
  // again for the run after it before the pool grows (growing copies it into twice its room).
  // The fill's appends are linked at its end, in one pass (ExtentTree::begin_appends).
  void begin_ordered_fill(uint64_t extents) override {
    m_tree.reserve_more(2 * extents);
    m_tree.begin_appends();
  }
  void end_ordered_fill() override { m_tree.end_appends(); }
  void erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) override;
  SlotId slot_of(Lun lun) override;

  uint64_t memory_bytes() const override { return kRootBytes + m_tree.size() * m_node_bytes; }
  uint64_t pieces() const override { return m_tree.size(); }
  uint64_t nodes() const override { return m_tree.size(); }

  // Bytes of one node in the modelled layout (docs/emt.md): start and length of
  // bytes(logical_units + 1) each, first slot of bytes(slots), left, right and parent pointers of
  // 4 bytes (a 32-bit controller), the colour in one byte.
  uint32_t node_bytes() const { return m_node_bytes; }
  static constexpr uint32_t kPointerBytes = 4;
  static constexpr uint32_t kRootBytes = kPointerBytes;  // the tree's root pointer

  // --- for tests ---
  const ExtentTree& tree() const { return m_tree; }
  // Every stored extent in ascending order (not counted).
  std::vector<Extent> extents() const;

 private:
  // Algorithm 4, lines 2-14: deletes every stored extent overlapping [lun, end), appends the
  // overlapped parts to `displaced` and remembers the parts outside the range in m_keep.
  void cut(Lun lun, Lun end, std::vector<Extent>& displaced);
  // Algorithm 4, line 15 for the remainders.
  void insert_kept();
  void check_range(Lun lun, uint32_t length) const;
  void check_extent(const Extent& extent) const;
  Extent extent_of(uint32_t n) const { return {m_tree.start(n), m_tree.length(n), m_tree.slot(n)}; }

  ExtentSpace m_space;
  ExtentTree m_tree;
  uint32_t m_node_bytes;
  // At most two remainders per write: the part of the extent holding the write's first unit
  // that lies before it, and of the one holding its last unit that lies after it.
  Extent m_keep[2];
  uint32_t m_kept = 0;
};

}  // namespace ssd::ftl
