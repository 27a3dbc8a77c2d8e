#include "ftl/fast/fast_descriptor.h"

#include "ftl/fast/fast_ftl.h"
#include "ftl/fast/fast_rules.h"
#include "ftl/fast/fast_settings.h"
#include "ftl/hybrid/block_rules.h"

namespace ssd::ftl {

SchemeDescriptor fast_descriptor() {
  SchemeDescriptor d;
  d.name = "fast";
  d.summary =
      "FAST: block-mapped data blocks and fully associative log blocks "
      "(docs/schemes.md)";
  d.settings = settings_of<FastSettings>;
  d.check = check_fast;
  d.spare_words = spare_words_by_geometry<BlockScheme::spare_words>;
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // Data-block map; each unit's newest log page; valid bits.
    return logical_blocks(p) * sizeof(BlockId) + g.logical_units * (sizeof(PageId) + 1);
  };
  // Sampled aging lays the miniature's blocks out by role (ftl/hybrid/block_aged.cpp), with the
  // miniature's sequence numbers when power may be cut.
  d.ages_by_sampling = true;
  d.create = [](const SchemeContext& c) { return std::make_unique<FastFtl>(c); };
  // The block's allocation sequence (its top bit marking RW log blocks) and the page's program
  // sequence.
  d.recover = [](const SchemeContext& c) { return FastFtl::recovered(c); };
  d.recovery_spare_words = [](const Geometry&) {
    return BlockFlash::kRecoverySpareWords + BlockFlash::kPageSequenceWords;
  };
  return d;
}

}  // namespace ssd::ftl
