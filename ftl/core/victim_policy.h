// GC victim selection, apart from the mechanism that copies and erases (garbage_collector.h):
// relocation only asks "which block next?". Greedy picks the full block with the fewest valid
// units in the plane (ties: lowest block number, for determinism).
#pragma once

#include <memory>
#include <string>

#include "ftl/core/block_manager.h"

namespace ssd::ftl {

class VictimPolicy {
 public:
  virtual ~VictimPolicy() = default;
  // A full (not open) block of `plane`, or kNone when there is none.
  virtual BlockId select(const BlockManager& blocks, uint32_t plane) const = 0;
};

class GreedyVictimPolicy final : public VictimPolicy {
 public:
  BlockId select(const BlockManager& blocks, uint32_t plane) const override;
};

// Throws std::invalid_argument for an unknown name.
std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name);

}  // namespace ssd::ftl
