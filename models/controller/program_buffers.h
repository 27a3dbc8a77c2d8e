// The page buffers of programs in flight. A controller keeps a page's data in its buffer until
// the flash reports the program done (it needs it to retry a failed program), so a read of that
// page meanwhile is served from the buffer, in controller DRAM, not from the flash: the flash
// could not return the data before the program completes. The FTL hands a page's data to the
// flash when it issues the program; only the controller knows when the program completes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <unordered_map>

#include "ftl/core/types.h"

namespace ssd::models {

using ftl::Picoseconds;

class ProgramBuffers {
 public:
  // `page`'s program completes at `done`.
  void programmed(ftl::PageId page, Picoseconds done) {
    m_done[page] = done;
    if (m_done.size() >= m_forget_at) forget_completed();
  }
  // Whether a read of `page` ready at `at` finds its program still in flight.
  bool holds(ftl::PageId page, Picoseconds at) const {
    const auto it = m_done.find(page);
    return it != m_done.end() && it->second > at;
  }
  // Simulated time no read can be ready before any more: programs done by then are forgotten
  // (at the next growth step), which keeps the table at the programs in flight.
  void advance(Picoseconds now) { m_now = now; }
  size_t size() const { return m_done.size(); }

 private:
  void forget_completed() {
    for (auto it = m_done.begin(); it != m_done.end();) {
      it = it->second <= m_now ? m_done.erase(it) : std::next(it);
    }
    m_forget_at = std::max<size_t>(kMinForgetAt, 2 * m_done.size());
  }

  static constexpr size_t kMinForgetAt = 1024;
  std::unordered_map<ftl::PageId, Picoseconds> m_done;
  size_t m_forget_at = kMinForgetAt;
  Picoseconds m_now = 0;
};

}  // namespace ssd::models
