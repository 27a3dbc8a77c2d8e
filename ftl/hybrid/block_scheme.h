// The frame the block-granular schemes (block mapping, NFTL, FAST) share. A logical unit is one
// page (construction refuses any other ftl.mapping_unit_bytes); units group into logical blocks
// of pages_per_block units, unit `lun` sitting at offset lun % pages_per_block of logical block
// lun / pages_per_block. Each logical block is homed on one plane, consecutive logical blocks on
// consecutive dies (the stripe order of the page-mapped write stream), so a sequential write
// spreads over the channels and a merge stays on one plane.
//
// This class turns host commands into per-logical-block work: reads ask the scheme where the
// newest copy is; writes compute each unit's token (reading the old unit first for a partial
// write) and hand the scheme one run of units per logical block; trims clear the unit's valid bit.
// A bit per unit says whether it holds data, so unwritten and trimmed units read as zeroes
// without flash access and merges drop them.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/mapping_scheme.h"
#include "ftl/hybrid/block_flash.h"
#include "ftl/hybrid/valid_units.h"

namespace ssd::ftl {

class BlockScheme : public MappingScheme {
 public:
  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  void trim(const HostCommand& command) override;
  // Every write is programmed before it is acknowledged and the tables are rebuilt from the
  // spare areas after a power loss, so there is nothing volatile to persist.
  void flush(const HostCommand& /*command*/) override {}
  // Preconditioning's sequential fill in bulk, for a scheme that says where a logical block's
  // first write goes (map_filled_block): each logical block the fill covers whole takes a block
  // on its home plane and has its pages programmed at their offsets in bulk
  // (BlockFlash::program_in_bulk), in logical-block order as the commands would; write()'s own
  // path for a last, partial logical block. Only while no plane could come near its reserve (no
  // merge or fold could run on the way); false, having done nothing, otherwise.
  bool fill_sequential(const SequentialFill& fill) override;
  // Sampled aging (block_aged.cpp, sampled_aging.h). The miniature describes its pages, the
  // units they name and which are newest, and every block it holds by logical block and role
  // (describe_roles). The device lays each copy's blocks out on its own dies, shuffled within the
  // plane, with the units renumbered to the logical blocks homed there; a logical block that has
  // no place on the device (or holds a role the device has once: role_once_per_device) is written
  // afresh by the fill's commands instead. Not when pages carry sequence numbers (power cuts).
  bool describe_aged_planes(AgedPlanes& planes) const override;
  bool lay_out_aged(const AgedLayout& layout) override;

  const FtlStats& stats() const override { return m_stats; }
  static uint32_t spare_words(const Geometry& /*geometry*/) { return BlockFlash::kSpareWords; }

  uint32_t logical_blocks() const { return m_logical_blocks; }
  bool unit_valid(Lun lun) const { return m_valid.valid(lun); }
  const BlockFlash& flash() const { return m_flash; }
  // Where the newest copy of valid unit `lun` is, without recording anything (for tests).
  virtual PageId peek(Lun lun) const = 0;
  // Blocks the scheme holds (data, replacement, log blocks); every other block must be free.
  virtual uint32_t blocks_held() const = 0;

 protected:
  // `scheme` names the scheme in the error raised for a mapping unit other than a page;
  // `page_sequence`: pages carry their program sequence when power may be cut (BlockFlash).
  BlockScheme(const SchemeContext& context, const char* scheme, bool page_sequence = false);

  // Where the newest copy of valid unit `lun` is. Records whatever lookup work it takes on
  // `op_class` (NFTL reads spare areas) and sets `after` to the last such operation.
  virtual PageId locate(Lun lun, OpClass op_class, uint32_t& after) = 0;
  // Unit `lun`, which held data, was trimmed (its valid bit is already clear). Nothing to do for
  // schemes whose merges consult the valid bits.
  virtual void trimmed(Lun /*lun*/) {}
  // Writes `count` units of logical block `lbn` from offset `first` on, with these tokens;
  // their programs wait for `after`. The scheme marks each unit valid as soon as it is written
  // (mark_valid): a merge later in the same run must copy it.
  virtual void write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                           uint32_t after) = 0;
  // For fill_sequential(): whether the scheme can take it now (the default: no bulk path), and
  // then, per logical block in order, `block` (just allocated on its home plane) becomes what
  // write_units() makes the block a first write to `lbn` programs in place.
  virtual bool fills_in_bulk() const { return false; }
  virtual void map_filled_block(uint32_t /*lbn*/, BlockId /*block*/) {}

  // Sampled aging's roles. A block the scheme holds: the logical block it belongs to (kNone: no
  // one logical block, as FAST's random-write log blocks) and its role, in the scheme's code.
  struct AgedRole {
    uint32_t lbn = kNone;
    uint32_t role = kNone;
  };
  // Whether the scheme can be aged by sampling with its settings (by default not).
  virtual bool ages_by_sampling() const { return false; }
  bool lays_out_miniature_sequences() const override { return m_flash.sequenced(); }
  // On the miniature: each held block's role, by block (the others stay kNone).
  virtual void describe_roles(std::vector<AgedRole>& /*roles*/) const {}
  // Whether a role is held once per device, not per logical block (FAST's sequential log block):
  // the device keeps the first copy's, and the other copies' logical blocks are written afresh.
  virtual bool role_once_per_device(uint32_t /*role*/) const { return false; }
  // On the device, laid out and pooled: `block` plays `role` for `lbn` (the device's logical
  // block, or kNone as described). Called in ascending role order, copies in order within a role.
  virtual void adopt_aged_block(uint32_t /*lbn*/, uint32_t /*role*/, BlockId /*block*/) {}
  // Then, per unit laid out: `page`, in a block of `role`, holds its newest copy (already marked
  // valid).
  virtual void adopt_newest(Lun /*lun*/, PageId /*page*/, uint32_t /*role*/) {}

  uint32_t lbn_of(Lun lun) const { return lun / m_geometry.pages_per_block; }
  uint32_t offset_of(Lun lun) const { return lun % m_geometry.pages_per_block; }
  Lun first_lun(uint32_t lbn) const { return lbn * m_geometry.pages_per_block; }
  // Units of logical block `lbn` (the last block may be short).
  uint32_t units_in(uint32_t lbn) const;
  uint32_t home_plane(uint32_t lbn) const;
  // The newest copy of offset `offset` of `lbn` as a merge source, or empty when the unit holds
  // no data; `newest` is the scheme's answer for a valid unit.
  template <class Newest>
  MergeSource live_copy(uint32_t lbn, uint32_t offset, Newest newest) const {
    const Lun lun = first_lun(lbn) + offset;
    if (offset >= units_in(lbn) || !m_valid.valid(lun)) return MergeSource::empty();
    return MergeSource::copy(newest(lun));
  }
  void mark_valid(Lun lun) { m_valid.set(lun); }
  void mark_valid_range(Lun first, uint32_t count) { m_valid.set_range(first, count); }
  // Bytes of the valid-unit bitmap, which every block-granular scheme holds.
  uint64_t valid_bitmap_bytes() const { return m_valid.memory_bytes(); }

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats m_stats;
  BlockFlash m_flash;
  uint32_t m_entry_bytes = 4;  // bytes of DRAM a command reads per logical block it touches

 private:
  uint32_t m_logical_blocks;
  ValidUnits m_valid;
  std::vector<Token> m_run_tokens;  // reused by write()
};

}  // namespace ssd::ftl
