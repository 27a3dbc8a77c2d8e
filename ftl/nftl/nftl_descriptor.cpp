#include "ftl/nftl/nftl_descriptor.h"

#include "ftl/hybrid/block_rules.h"
#include "ftl/nftl/nftl.h"

namespace ssd::ftl {

SchemeDescriptor nftl_descriptor() {
  SchemeDescriptor d;
  d.name = "nftl";
  d.summary =
      "NFTL: primary and replacement blocks per virtual block, backward spare-area "
      "search (docs/schemes.md)";
  d.check = [](const config::PlatformConfig& p) { return check_block_granular(p, "nftl"); };
  d.spare_words = BlockScheme::spare_words;
  d.simulator_bytes = [](const config::PlatformConfig& p, const Geometry& g) {
    // Chains, positions and replacement lists per virtual block; valid bits.
    return logical_blocks(p) * 4 * sizeof(BlockId) + g.logical_units / 8;
  };
  d.create = [](const SchemeContext& c) { return std::make_unique<Nftl>(c); };
  return d;
}

}  // namespace ssd::ftl
