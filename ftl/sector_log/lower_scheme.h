// What the sector layer reads of the page-mapped scheme below it beyond MappingScheme and
// BlockLender, for power loss (sector_log.h, "Power loss"): whether a logical page has a copy
// there and that copy's content token, and, after a cut, the blocks the scheme's recovery found
// lent (PageStore::kLentPageMark). Page mapping and DAC both answer it from their table and page
// store (LowerSchemeOf); the layer's descriptor helpers build it (sector_layer_descriptor.h).
#pragma once

#include <vector>

#include "ftl/core/block_manager.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class LowerScheme {
 public:
  virtual ~LowerScheme() = default;
  // Whether `lpn` has a copy in the scheme (its table maps it).
  virtual bool maps(Lun lpn) const = 0;
  // The content token of that copy (0: none): simulation bookkeeping read where the copy is, no
  // operation recorded.
  virtual Token copy_token(Lun lpn) const = 0;
  // After the scheme's recovery: the blocks it keeps lent because a layer's pages are in them.
  virtual std::vector<BlockId> lent_blocks() const = 0;
};

// For a scheme with a unit table (slot_of) over a PageStore (store()).
template <class Scheme>
class LowerSchemeOf final : public LowerScheme {
 public:
  explicit LowerSchemeOf(const Scheme& scheme) : m_scheme(scheme) {}

  bool maps(Lun lpn) const override { return m_scheme.slot_of(lpn) != kNone; }
  Token copy_token(Lun lpn) const override {
    const SlotId slot = m_scheme.slot_of(lpn);
    return slot == kNone ? 0 : m_scheme.store().token(slot);
  }
  std::vector<BlockId> lent_blocks() const override {
    const BlockManager& blocks = m_scheme.store().blocks();
    std::vector<BlockId> lent;
    for (BlockId b = 0; b < blocks.geometry().blocks(); ++b) {
      if (blocks.state(b) == BlockState::kLent) lent.push_back(b);
    }
    return lent;
  }

 private:
  const Scheme& m_scheme;
};

}  // namespace ssd::ftl
