// The page buffers of programs in flight. A controller keeps a page's data in its buffer until
// the flash reports the program done (it needs it to retry a failed program), so a read of that
// page meanwhile is served from the buffer, in controller DRAM, not from the flash: the flash
// could not return the data before the program completes. The FTL hands a page's data to the
// flash when it issues the program; only the controller knows when the program completes.
//
// Called for every program and every flash read, so it allocates nothing in steady state: a flat
// open-addressing table (linear probing) of page -> completion time. An entry whose program
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
  ProgramBuffers() : m_table(kMinSize) {}

  // `page`'s program completes at `done` (> 0).
  void programmed(ftl::PageId page, Picoseconds done) {
    if (2 * (m_filled + 1) > m_table.size()) rebuild();
    Entry* reusable = nullptr;
    for (size_t i = slot_of(page);; i = (i + 1) & mask()) {
      Entry& e = m_table[i];
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
      const Entry& e = m_table[i];
      if (e.done == 0) return false;
      if (e.page == page) return e.done > at;
    }
  }
  // Simulated time no read can be ready before any more: programs done by then are dead.
  void advance(Picoseconds now) { m_now = now; }
  // The power went off: no program is in flight any more, and its buffer is gone.
  void clear() {
    m_table.assign(kMinSize, Entry{});
    m_filled = 0;
  }
  size_t capacity() const { return m_table.size(); }

 private:
  struct Entry {
    ftl::PageId page = 0;
    Picoseconds done = 0;  // 0: never used
  };
  static constexpr size_t kMinSize = 1024;  // a power of two

  size_t mask() const { return m_table.size() - 1; }
  size_t slot_of(ftl::PageId page) const {
    return static_cast<size_t>((uint64_t{page} * 0x9E3779B97F4A7C15ull) >> 32) & mask();
  }
  void rebuild() {
    m_live.clear();
    for (const Entry& e : m_table) {
      if (e.done > m_now) m_live.push_back(e);
    }
    size_t size = m_table.size();
    while (4 * (m_live.size() + 1) > size) size *= 2;
    m_table.assign(size, Entry{});
    m_filled = 0;
    for (const Entry& e : m_live) programmed(e.page, e.done);
  }

  std::vector<Entry> m_table;
  std::vector<Entry> m_live;  // rebuild()'s scratch, kept for its capacity
  size_t m_filled = 0;        // entries ever used since the last rebuild, live or dead
  Picoseconds m_now = 0;
};

}  // namespace ssd::models
