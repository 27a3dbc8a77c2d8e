// A unit -> slot table behind the extent-map interface, for a device that is never timed: sampled
// aging's miniature (ftl/core/sampled_aging.h). The extent FTL's flash work (where it writes, what
// GC finds valid and moves) depends only on which slot holds each unit, not on how a structure
// stores the runs, so a miniature aged with this table leaves the flash VET's or EMT's would
// (tests/ftl/extent/extent_sampled_aging_test.cpp compares them), at one table access per unit
// instead of a tree descent or hash probes. It counts no CPU work and models no controller
// memory: nothing of the miniature is priced or reported.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/extent/extent_map.h"

namespace ssd::ftl {

class FlatExtentMap final : public ExtentMap {
 public:
  explicit FlatExtentMap(uint64_t logical_units) : m_slots(logical_units, kNone) {}

  // Pieces are the maximal runs of units in consecutive slots within the range.
  void lookup(Lun lun, uint32_t length, std::vector<Extent>& found) override {
    runs_in(lun, length, found);
  }
  uint32_t insert(const Extent& extent, std::vector<Extent>& displaced) override;
  void erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) override;
  SlotId slot_of(Lun lun) override { return m_slots[lun]; }

  uint64_t memory_bytes() const override { return 0; }
  // The maximal runs of the whole map (a walk over it).
  uint64_t pieces() const override;
  uint64_t nodes() const override { return pieces(); }

 private:
  // Appends the runs of mapped units in [lun, lun + length) to `runs`.
  void runs_in(Lun lun, uint32_t length, std::vector<Extent>& runs) const;

  std::vector<SlotId> m_slots;  // per unit, kNone: unmapped
};

}  // namespace ssd::ftl
