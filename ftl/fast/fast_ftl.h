// FAST (`--ftl fast`; Lee et al., "A log buffer-based flash translation layer using
// fully-associative sector translation", ACM TECS 2007): block-mapped data blocks plus a small
// set of log blocks (ftl.fast.log_blocks_ratio of all blocks, at least 2) that absorb updates.
// One of them is the sequential (SW) log block, which receives the writes of one logical block
// from offset 0 on in order; the others are random-write (RW) log blocks, fully associative: any
// update of any logical block is appended to the current one, and a page-level map finds the
// newest copy. Merges:
//   switch  - the SW log block holds its logical block's every page: it becomes the data block;
//   partial - it holds pages 0..k-1: the rest are copied in behind them, then it becomes the
//             data block;
//   full    - when the RW log blocks are all used, the oldest is the victim: every logical block
//             with a live page in it is rewritten into a fresh data block from its newest copies
//             (data block, SW and RW log pages), and the victim is erased.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include <memory>

#include "ftl/hybrid/block_recovery.h"
#include "ftl/hybrid/block_scheme.h"

namespace ssd::ftl {

class FastFtl final : public BlockScheme {
 public:
  explicit FastFtl(const SchemeContext& context);
  // Rebuilt after a power cut from the spare areas (fast_recovery.cpp): data blocks, the SW log
  // block, the RW log blocks in allocation order and each unit's newest log page; merges the cut
  // interrupted are done again; blocks nobody keeps are erased.
  static std::unique_ptr<FastFtl> recovered(const SchemeContext& context);

  // Data-block map, log-block list and the log pages' unit numbers, plus the valid bitmap.
  uint64_t mapping_memory_bytes() const override;
  // The same for any size: a hybrid mapping table (the extent-mapping paper's "HMT").
  static uint64_t table_bytes(uint64_t logical_units, uint64_t blocks, uint32_t pages_per_block,
                              uint32_t log_blocks);
  PageId peek(Lun lun) const override;
  uint32_t blocks_held() const override;

  // --- for tests ---
  struct MergeCounts {
    uint64_t switches = 0;
    uint64_t partials = 0;
    uint64_t fulls = 0;  // logical blocks rewritten by full merges
  };
  const MergeCounts& merges() const { return m_merges; }
  uint32_t log_blocks() const { return m_log_blocks; }
  BlockId data_block(uint32_t lbn) const { return m_data[lbn]; }
  BlockId sequential_log() const { return m_sw_block; }
  uint32_t sequential_lbn() const { return m_sw_lbn; }
  uint32_t random_logs() const { return static_cast<uint32_t>(m_rw.size()); }
  const std::deque<BlockId>& random_log_blocks() const { return m_rw; }  // oldest first
  // Sampled aging's roles (describe_roles): a RW log block's is kRandomLogRole + its place.
  enum AgedRoles : uint32_t { kDataRole = 0, kSequentialLogRole = 1, kRandomLogRole = 2 };

 private:
  PageId locate(Lun lun, OpClass /*op_class*/, uint32_t& /*after*/) override;
  void write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                   uint32_t after) override;
  void write_unit(uint32_t lbn, uint32_t offset, Token token, uint32_t after);
  // A sequential fill in bulk: the block is the data block, written in place.
  bool fills_in_bulk() const override { return true; }
  void map_filled_block(uint32_t lbn, BlockId block) override { m_data[lbn] = block; }
  // Sampled aging: data blocks, the SW log block (one per device) and the RW log blocks, whose
  // role is kRandomLogRole + their place in the list, oldest first, so that the device lists
  // every copy's oldest before any copy's second. The log pages holding newest copies are mapped.
  bool ages_by_sampling() const override { return true; }
  void describe_roles(std::vector<AgedRole>& roles) const override;
  bool role_once_per_device(uint32_t role) const override { return role == kSequentialLogRole; }
  void adopt_aged_block(uint32_t lbn, uint32_t role, BlockId block) override;
  void adopt_newest(Lun lun, PageId page, uint32_t role) override {
    if (role != kDataRole) m_log_page[lun] = page;
  }
  void append_sequential(uint32_t lbn, uint32_t offset, Token token, uint32_t after);
  void append_random(Lun lun, Token token, uint32_t after);
  void program_log(BlockId block, Lun lun, Token token, uint32_t after);

  // Space. Outside merges every plane keeps a free block, so a merge always has one. `random`: a
  // RW log block (its pages take units in arrival order; so marked in their spare areas).
  BlockId take_block(uint32_t plane, bool random = false);
  BlockId take_random_log_block();
  void make_room(uint32_t plane);

  // Merges (fast_merges.cpp).
  MergeSource newest_copy(uint32_t lbn, uint32_t offset) const;
  void merge_sequential();          // switch or partial
  void merge_random(size_t index);  // full merges of the live pages of m_rw[index]
  void full_merge(uint32_t lbn);
  void forget_log_pages(uint32_t lbn);

  // Recovery (fast_recovery.cpp).
  void rebuild();
  // Whether `sw` can go on as the SW log block of `lbn`, `data` being its data block: its pages
  // hold the logical block's units from offset 0 on, each readable, none older than the data
  // block's copy (`newest`: each unit's newest readable copy).
  bool can_be_sequential_log(uint32_t lbn, BlockId sw, BlockId data,
                             const std::vector<PageId>& newest) const;
  // Merges `lbn` again from `newest` into a fresh data block; `blocks` (its block-mapped blocks)
  // are erased.
  void remerge(uint32_t lbn, const std::vector<NamedBlock>& blocks, std::vector<PageId>& newest);

  uint32_t m_log_blocks;           // the budget: SW + RW
  std::vector<BlockId> m_data;     // per logical block
  std::vector<PageId> m_log_page;  // per unit: its newest copy in a log block, or kNone
  BlockId m_sw_block = kNone;
  uint32_t m_sw_lbn = kNone;
  std::deque<BlockId> m_rw;  // oldest first; the back one is being filled
  MergeCounts m_merges;
};

}  // namespace ssd::ftl
