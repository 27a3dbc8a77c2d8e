#include "ftl/block/block_descriptor.h"

#include "ftl/block/block_mapping.h"
#include "ftl/hybrid/block_rules.h"

namespace ssd::ftl {

SchemeDescriptor block_descriptor() {
  SchemeDescriptor d;
  d.name = "block";
  d.summary =
      "block mapping: a unit at a fixed offset of its logical block's block "
      "(docs/schemes.md)";
  d.check = [](const config::PlatformConfig& p) { return check_block_granular(p, "block"); };
  d.spare_words = spare_words_by_geometry<BlockScheme::spare_words>;
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    return logical_blocks(p) * sizeof(BlockId) + g.logical_units / 8;  // map, valid bits
  };
  // Sampled aging lays the miniature's blocks out by role (ftl/hybrid/block_aged.cpp), with the
  // miniature's sequence numbers when power may be cut.
  d.ages_by_sampling = true;
  d.create = [](const SchemeContext& c) { return std::make_unique<BlockMapping>(c); };
  d.recover = [](const SchemeContext& c) { return BlockMapping::recovered(c); };
  d.recovery_spare_words = [](const Geometry&) { return BlockFlash::kRecoverySpareWords; };
  return d;
}

}  // namespace ssd::ftl
