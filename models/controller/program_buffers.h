// The page buffers of programs in flight. A controller keeps a page's data in its buffer until
// the flash reports the program done (it needs it to retry a failed program), so a read of that
// page meanwhile is served from the buffer, in controller DRAM, not from the flash: the flash
// could not return the data before the program completes. The FTL hands a page's data to the
// flash when it issues the program; only the controller knows when the program completes.
//
// Called for every program and every flash read, so it allocates nothing in steady state: a flat
// open-addressing table (linear probing) of page -> completion time, consecutive pages hashed to
// neighbouring slots (slot_of). An entry whose program
// completed before the caller's clock is dead: lookups walk past it (so chains stay intact) and
// an insert reuses it; a rebuild, when live and dead entries fill half the table, drops the dead
// ones and grows the table only if the live ones still fill a quarter. The table follows the
// programs in flight, not the length of the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::models {

using ftl::Picoseconds;

class ProgramBuffers {
 public:
  ProgramBuffers() : m_lines(kMinSize / kRun) {}

  // `page`'s program completes at `done` (> 0).
  void programmed(ftl::PageId page, Picoseconds done) {
    if (2 * (m_filled + 1) > size()) rebuild();
    Entry* reusable = nullptr;
    for (size_t i = slot_of(page);; i = (i + 1) & mask()) {
      Entry& e = entry(i);
      if (e.done == 0) {  // end of the chain: the page is not in the table
        Entry& target = reusable != nullptr ? *reusable : e;
        if (&target == &e) ++m_filled;
        target = {page, done};
        return;
      }
      if (e.page == page) {
        e.done = done;
        return;
      }
      if (reusable == nullptr && e.done <= m_now) reusable = &e;
    }
  }
  // Whether a read of `page` ready at `at` finds its program still in flight.
  bool holds(ftl::PageId page, Picoseconds at) const {
    for (size_t i = slot_of(page);; i = (i + 1) & mask()) {
      const Entry& e = entry(i);
      if (e.done == 0) return false;
      if (e.page == page) return e.done > at;
    }
  }
  // Simulated time no read can be ready before any more: programs done by then are dead.
  void advance(Picoseconds now) { m_now = now; }
  // The power went off: no program is in flight any more, and its buffer is gone.
  void clear() {
    m_lines.assign(kMinSize / kRun, Line{});
    m_filled = 0;
  }
  size_t capacity() const { return size(); }

 private:
  struct Entry {
    ftl::PageId page = 0;
    Picoseconds done = 0;  // 0: never used
  };
  static constexpr size_t kMinSize = 1024;  // a power of two
  static constexpr uint32_t kRunBits = 2;
  static constexpr uint32_t kRun = 1u << kRunBits;  // slots of a group (below): 64 bytes
  struct alignas(64) Line {
    Entry entries[kRun];
  };

  size_t size() const { return m_lines.size() * kRun; }
  size_t mask() const { return size() - 1; }
  Entry& entry(size_t slot) { return m_lines[slot / kRun].entries[slot % kRun]; }
  const Entry& entry(size_t slot) const { return m_lines[slot / kRun].entries[slot % kRun]; }
  // Pages are programmed and read in runs (a block's pages in order, GC's copies a victim's), so
  // each aligned group of kRun consecutive pages shares one hashed place, its pages in
  // the slots of one cache line (a Line). Hashed one by one, nearly every program and
  // read of a GC copy missed the cache on this table (`perf` of an aged run on MQSim's device).
  size_t slot_of(ftl::PageId page) const {
    const uint64_t group = (uint64_t{page >> kRunBits} * 0x9E3779B97F4A7C15ull) >> 32;
    return static_cast<size_t>(group << kRunBits | (page & (kRun - 1))) & mask();
  }
  void rebuild() {
    m_live.clear();
    for (const Line& line : m_lines) {
      for (const Entry& e : line.entries) {
        if (e.done > m_now) m_live.push_back(e);
      }
    }
    size_t slots = size();
    while (4 * (m_live.size() + 1) > slots) slots *= 2;
    m_lines.assign(slots / kRun, Line{});
    m_filled = 0;
    for (const Entry& e : m_live) programmed(e.page, e.done);
  }

  std::vector<Line> m_lines;  // the table's slots, kRun to a cache line
  std::vector<Entry> m_live;  // rebuild()'s scratch, kept for its capacity
  size_t m_filled = 0;        // entries ever used since the last rebuild, live or dead
  Picoseconds m_now = 0;
};

}  // namespace ssd::models
