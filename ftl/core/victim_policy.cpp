#include "ftl/core/victim_policy.h"

#include <stdexcept>

namespace ssd::ftl {

BlockId GreedyVictimPolicy::select(const BlockManager& blocks, uint32_t plane) const {
  const Geometry& g = blocks.geometry();
  const BlockId first = plane * g.blocks_per_plane;
  BlockId best = kNone;
  uint32_t best_valid = kNone;
  for (BlockId b = first; b < first + g.blocks_per_plane; ++b) {
    if (blocks.state(b) != BlockState::kFull) continue;
    const uint32_t valid = blocks.valid_units(b);
    if (valid < best_valid) {
      best = b;
      best_valid = valid;
      if (valid == 0) break;
    }
  }
  return best;
}

std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name) {
  if (name == "greedy") return std::make_unique<GreedyVictimPolicy>();
  throw std::invalid_argument("unknown GC policy '" + name + "' (known: greedy)");
}

}  // namespace ssd::ftl
