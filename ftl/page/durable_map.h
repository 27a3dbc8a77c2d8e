// What a page-mapped FTL's synced table leaves behind that outlives a power cut
// (ftl.page.map_sync other than none; docs/power-loss.md, "Page mapping with a map sync"):
//
// - In NVRAM: the NVRAM-aware sync's segment copies (which segments, their directory words, the
//   entries they hold) and, when the device may lose power, the checkpoint each completed sync
//   leaves: where every map unit is on flash, and the program sequence the sync began at, from
//   which a recovery rolls forward (map_recovery.h).
// - On flash: a map unit's pages carry their segment's version as the token; what each version
//   says is kept here, as the flash array keeps tokens rather than bytes. A version is dropped
//   once a newer version of its segment is programmed for good (no cut can undo it), so this
//   holds about one version per segment written.
//
// The state lives in the FlashBackend (FlashBackend::lasting), which outlives every scheme
// object; every change to its NVRAM part is written with FlashBackend::nvram_write and an undo,
// so a cut before the write completes puts the old content back.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ftl/core/flash_backend.h"
#include "ftl/core/types.h"
#include "ftl/page/nvram_segments.h"

namespace ssd::ftl {

class SegmentVersions {
 public:
  void resize(uint32_t segments) { m_by_segment.resize(segments); }
  // A new version of `segment` saying `entries` (the segment's entries in order); its token,
  // even and never zero (torn pages read as odd garbage, erased ones as zero).
  Token add(uint32_t segment, std::vector<SlotId> entries);
  // The versions added since the last seal are programmed by journal entries below `entry`.
  void seal(uint64_t entry);
  // Drops the versions of `segment` older than its newest one programmed for good (the journal
  // retired every entry below `retired_below`).
  void prune(uint32_t segment, uint64_t retired_below);
  // What version `token` of `segment` says; throws std::logic_error when it is not kept (a bug:
  // a readable map page names a version pruned too early).
  const std::vector<SlotId>& entries(uint32_t segment, Token token) const;
  // After a recovery: each segment's map units hold `entries` (their shares of the versions
  // they carry, merged), under every token in `tokens`, for good; nothing else is kept.
  void clear();
  void keep(uint32_t segment, std::vector<Token> tokens, std::vector<SlotId> entries);
  // Versions kept (for tests: memory follows the device).
  uint64_t size() const;

 private:
  static constexpr uint64_t kUnsealed = ~uint64_t{0};
  struct Version {
    std::vector<Token> tokens;  // one, or after a recovery those its map units carry
    uint64_t durable_at;        // journal entry; kUnsealed until its pass is programmed
    std::vector<SlotId> entries;
  };
  std::vector<std::vector<Version>> m_by_segment;  // oldest first
  std::vector<uint32_t> m_unsealed;                // segments with an unsealed version
  Token m_next = 2;
};

struct DurableMap final : LastingState {
  bool sized = false;  // by the device's first MapSync

  // NVRAM: the segment copies (policy nvram).
  NvramSegments nvram{0, 0};
  std::vector<SlotId> nvram_entries;  // per unit, meaningful for the segments NVRAM holds
  // NVRAM: the last completed sync's checkpoint (device that may lose power only).
  std::vector<SlotId> directory;   // per map unit: its slot then (kNone: never written)
  uint64_t roll_forward_from = 0;  // the program sequence that sync began at (0: no sync yet)

  // Flash content of the map units (device that may lose power only).
  SegmentVersions versions;
};

}  // namespace ssd::ftl
