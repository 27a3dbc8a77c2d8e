// Block mapping (`--ftl block`): one table entry per logical block naming the physical block that
// holds it; a unit always sits at its fixed offset in that block. A write to a page that is still
// free (at or past the block's next free page) is programmed in place; a write to any page behind
// it (an update, or a page skipped earlier) copies the whole block into a fresh one with the new
// data merged in, then erases the old block (read-modify-write of the block). The smallest
// mapping table of all, and the worst write amplification under small random updates.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/hybrid/block_recovery.h"
#include "ftl/hybrid/block_scheme.h"

namespace ssd::ftl {

class BlockMapping final : public BlockScheme {
 public:
  explicit BlockMapping(const SchemeContext& context);
  // Rebuilt after a power cut from the spare areas (each page names its unit and its block's
  // allocation sequence): each logical block's newest block; a merge the cut interrupted (its
  // old block still readable) is done again into a fresh block, the newest readable copy of each
  // page kept; blocks no logical block keeps are erased.
  static std::unique_ptr<BlockMapping> recovered(const SchemeContext& context);

  // Per logical block: the physical block number and its next free page; plus the valid bitmap.
  uint64_t mapping_memory_bytes() const override;
  PageId peek(Lun lun) const override;
  uint32_t blocks_held() const override;
  BlockId block_of(uint32_t lbn) const { return m_map[lbn]; }

 private:
  PageId locate(Lun lun, OpClass /*op_class*/, uint32_t& /*after*/) override { return peek(lun); }
  void write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                   uint32_t after) override;
  // A sequential fill in bulk: the block is the logical block's, written in place.
  bool fills_in_bulk() const override { return true; }
  void map_filled_block(uint32_t lbn, BlockId block) override { m_map[lbn] = block; }
  // Sampled aging: one role, the logical block's block.
  bool ages_by_sampling() const override { return true; }
  void describe_roles(std::vector<AgedRole>& roles) const override;
  void adopt_aged_block(uint32_t lbn, uint32_t /*role*/, BlockId block) override {
    m_map[lbn] = block;
  }

  void rebuild();
  // The merge a cut interrupted, done again from the logical block's blocks, newest first.
  BlockId redo_merge(uint32_t lbn, const std::vector<NamedBlock>& newest_first);
  // Whether `page` is programmed, readable and holds `lun`.
  bool holds(PageId page, Lun lun) const;

  std::vector<BlockId> m_map;  // logical block -> physical block, kNone = none yet
};

}  // namespace ssd::ftl
