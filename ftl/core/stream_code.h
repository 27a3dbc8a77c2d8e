// Which write stream of a PageStore wrote a block, as one small number. Two things carry it:
// sampled aging, from the miniature to the device (AgedPlanes::open_in_stream), and every page's
// spare area when the device may lose power (the sequence words, PageStore::kStreamMarkShift), so
// that after a cut each stream goes on in the block it was writing. Which stream continues which
// block sets how the planes of a die take turns at GC for the rest of a run (docs/ftl.md,
// sampled aging; docs/power-loss.md).
#pragma once

#include <cstdint>

namespace ssd::ftl {

using StreamCode = uint8_t;

struct StreamCodes {
  static constexpr StreamCode kNone = 0;      // no stream known (e.g. a page of before)
  static constexpr uint32_t kMaxPerKind = 8;  // host and GC streams of a store, each at most
  static constexpr StreamCode host(uint32_t stream) { return static_cast<StreamCode>(1 + stream); }
  static constexpr StreamCode gc(uint32_t stream) {
    return static_cast<StreamCode>(1 + kMaxPerKind + stream);
  }
  static constexpr StreamCode kMapWriter = 1 + 2 * kMaxPerKind;  // the synced map's pages
  static constexpr uint32_t kBits = 7;  // every code fits in this many bits
};
static_assert(StreamCodes::kMapWriter < (1u << StreamCodes::kBits), "stream codes fit their bits");

}  // namespace ssd::ftl
