// The interface the extent-mapping structures implement (VET in ftl/extent/vet/, EMT in
// ftl/extent/emt/; shared/papers/vet-emt-extent-mapping.md). An extent maps a run of logical
// mapping units to a run of physical slots of the same length: unit `lun + i` lives in slot `slot +
// i`. Stored extents never overlap; mapping a new extent displaces whatever mapped its units
// before.
//
// The structures are plain data structures: they know nothing of flash. The extent FTL
// (ftl/extent/extent_ftl.h) decides where data goes and feeds them physically contiguous runs.
// They report their work as CPU primitives (hash probes, tree-node visits) into the CpuWork
// they were given, so the controller model prices the mapping cost.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/flash_op.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

struct Extent {
  Lun lun = 0;          // first logical unit
  uint32_t length = 0;  // units
  SlotId slot = kNone;  // slot of the first unit; the others follow it

  Lun end() const { return lun + length; }  // one past the last unit
  SlotId slot_of(Lun unit) const { return slot + (unit - lun); }
  bool operator==(const Extent& o) const {
    return lun == o.lun && length == o.length && slot == o.slot;
  }
};

// The sizes the modelled memory layout is computed from.
struct ExtentSpace {
  uint64_t logical_units = 0;  // addressable units (the trie's universe is the next power of two)
  uint64_t slots = 0;          // physical slots a stored start may name
};

class ExtentMap {
 public:
  virtual ~ExtentMap() = default;

  // Appends to `found` the mapped parts of [lun, lun + length) in ascending order, one entry
  // per stored piece (a VET canonical extent, an EMT node) clipped to the range. Units that
  // nothing maps are left out: a read of them is the paper's page fault.
  virtual void lookup(Lun lun, uint32_t length, std::vector<Extent>& found) = 0;

  // Maps `extent`, replacing any mapping of its units. Appends to `displaced` the parts of
  // stored pieces it replaced, ascending, one entry per stored piece it overlapped, clipped to
  // the extent (the caller frees their slots). Returns how many pieces the new extent itself
  // was stored as (VET: its canonical extents; EMT: 1).
  virtual uint32_t insert(const Extent& extent, std::vector<Extent>& displaced) = 0;

  // insert() of an extent none of whose units is mapped (the caller knows it), without looking
  // for what it would displace: the same map insert() leaves, without insert()'s lookups. For
  // untimed work only (preconditioning): in a timed write those lookups are part of its cost.
  virtual uint32_t insert_unmapped(const Extent& extent) {
    std::vector<Extent> none;
    return insert(extent, none);
  }

  // A sequential fill of an empty map: between the two calls the caller makes only
  // insert_unmapped() calls, at most `extents` of them, each extent starting at or after the end
  // of the one before. A map may make room for them at once, and defer its work to
  // end_ordered_fill() (VET loads its table in bulk); the map after it is the one the inserts one
  // by one leave.
  virtual void begin_ordered_fill(uint64_t /*extents*/) {}
  virtual void end_ordered_fill() {}

  // Unmaps [lun, lun + length) (a trim); appends the displaced parts as insert() does.
  virtual void erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) = 0;

  // The slot that holds `lun`, or kNone. Costs what a one-unit lookup costs.
  virtual SlotId slot_of(Lun lun) = 0;
  // The same answer for a statistic, not for the firmware: the caller puts the CPU counts back.
  // A map whose lookups do more than count (VET on the accelerator sends timed commands) answers
  // without doing so.
  virtual SlotId inspect_slot_of(Lun lun) { return slot_of(lun); }

  // Controller memory the structure takes, with the byte layout its documentation states.
  virtual uint64_t memory_bytes() const = 0;
  // Stored pieces that map data (VET leaves, EMT nodes).
  virtual uint64_t pieces() const = 0;
  // Everything the structure holds (VET: leaf and internal nodes; EMT: nodes).
  virtual uint64_t nodes() const = 0;
};

}  // namespace ssd::ftl
