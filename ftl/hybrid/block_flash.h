// Flash access for the block-granular schemes (block mapping, NFTL, FAST): whole blocks taken
// from and given back to the per-plane free pools, pages programmed at a fixed offset, and the
// one merge primitive they all share, which fills a fresh block offset by offset from old copies
// and new host data.
//
// Pages of a block are programmed in order (FlashArray enforces it). A write to offset k of a block
// whose next free page is below k skips the pages in between: they stay erased and can never be
// programmed until the next erase, as SLC NAND allows. A skip is no NAND command, so it is
// applied to the functional flash without recording an operation.
//
// Requires one mapping unit per page (BlockScheme checks it); every programmed page carries its
// logical unit number in spare word 0. When the device may lose power (the flash keeps a second
// spare word: kRecoverySpareWords), word 1 is the sequence number of its block's allocation, so a
// recovery can tell a merge's fresh block from the one it replaces (ftl/block/block_mapping.h),
// with its top bit set in the pages of an appended block (one whose pages take units in arrival
// order, not at their offsets: NFTL's replacement blocks, FAST's random-write log blocks). A
// scheme that also needs the order in which pages were programmed across blocks (FAST: a data
// block's page may be newer than a log page, a log page newer than a later-allocated block's)
// asks for word 2, the page's program sequence (kPageSequenceWords). Both counters are 32-bit (31
// for allocations): far more programs than any simulated run makes.
//
// Power loss: a merge's copies supersede their sources, so fill() makes the erases of the source
// blocks wait for its last program (FlashBackend::note_supersedes) even when the scheme erases them
// later; note_supersedes() does the same for a scheme's own writes.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/block_manager.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/ftl_stats.h"

namespace ssd::ftl {

// Where a merge takes the page at one offset from.
struct MergeSource {
  enum class Kind : uint8_t { kEmpty, kCopy, kNew };
  Kind kind = Kind::kEmpty;
  PageId from = kNone;     // kCopy: the page holding the newest copy
  Token token = 0;         // kNew: the host data
  uint32_t after = kNone;  // kNew: the operation the program waits for (a read-modify-write)

  static MergeSource empty() { return {}; }
  static MergeSource copy(PageId page) { return {Kind::kCopy, page, 0, kNone}; }
  static MergeSource fresh(Token token, uint32_t after) {
    return {Kind::kNew, kNone, token, after};
  }
};

class BlockFlash {
 public:
  static constexpr uint32_t kSpareWords = 1;          // the page's logical unit number
  static constexpr uint32_t kRecoverySpareWords = 1;  // its block's allocation sequence
  static constexpr uint32_t kPageSequenceWords = 1;   // its program sequence (page_sequenced)
  static constexpr uint32_t kAppendedBit = 1u << 31;  // in word 1: an appended block

  // `page_sequence`: whether pages carry their program sequence when the device may lose power
  // (the flash must then keep kSpareWords + kRecoverySpareWords + kPageSequenceWords words).
  BlockFlash(const config::PlatformConfig& platform, FlashBackend& backend, FtlStats& stats,
             bool page_sequence = false);

  const Geometry& geometry() const { return m_geometry; }
  FlashBackend& backend() { return m_backend; }
  BlockManager& blocks() { return m_blocks; }
  const BlockManager& blocks() const { return m_blocks; }

  PageId page(BlockId block, uint32_t offset) const {
    return m_geometry.first_page(block) + offset;
  }
  uint32_t next_free(BlockId block) const { return m_backend.flash().write_pointer(block); }
  bool full(BlockId block) const { return next_free(block) == m_geometry.pages_per_block; }
  uint32_t free_blocks(uint32_t plane) const { return m_blocks.free_blocks(plane); }

  // Functional views of a programmed page (no operation recorded): its unit number and data.
  Lun lun_in(PageId page) const { return m_backend.flash().spare(page)[0]; }
  Token token(PageId page) const { return m_backend.flash().token(page); }

  // An erased block of `plane`; throws std::runtime_error when the plane has none. `appended`:
  // its pages will take units in arrival order (marked so in their spare areas when sequenced).
  BlockId allocate(uint32_t plane, bool appended = false) {
    const BlockId block = m_blocks.open_block(plane);
    if (m_sequenced) m_allocated[block] = ++m_sequence | (appended ? kAppendedBit : 0);
    return block;
  }
  // A sequential fill in bulk (BlockScheme::fill_sequential): `pages` pages of `block`, erased
  // and never programmed, take units first_lun, first_lun + 1, ... at their offsets with
  // `token(lun)`, written straight into the flash's spare words and tokens, and count as host
  // writes, as `pages` program() calls would leave them. Not for sequenced pages (power loss).
  void program_in_bulk(BlockId block, Lun first_lun, uint32_t pages,
                       const std::function<Token(Lun)>& token);

  // --- power-loss recovery ---
  bool sequenced() const { return m_sequenced; }
  bool page_sequenced() const { return m_page_sequenced; }
  // The allocation sequence `page`'s spare area names (sequenced only).
  uint32_t sequence_in(PageId page) const {
    return m_backend.flash().spare(page)[1] & ~kAppendedBit;
  }
  // Whether `page`'s spare area says its block is an appended one (sequenced only).
  bool appended_in(PageId page) const {
    return (m_backend.flash().spare(page)[1] & kAppendedBit) != 0;
  }
  // The program sequence `page`'s spare area names (page_sequenced only).
  uint32_t page_sequence_in(PageId page) const { return m_backend.flash().spare(page)[2]; }
  // Whether `page` is programmed, reads back and names a unit (not torn, not skipped).
  bool names_unit(PageId page) const {
    const FlashArray& flash = m_backend.flash();
    return flash.is_programmed(page) && flash.readable(page) && lun_in(page) != kNone;
  }
  // The allocation word `block`'s pages carry (its sequence and appended bit; sequenced only).
  uint32_t allocation_word(BlockId block) const { return m_allocated[block]; }
  // Sampled aging's layout (block_aged.cpp): `block` was allocated with `word`.
  void set_allocation_in_bulk(BlockId block, uint32_t word) { m_allocated[block] = word; }
  // After a cut: blocks with programmed pages are taken (the scheme erases those it does not
  // keep), the others free; allocations go on after `highest`, programs after `highest_page`.
  void rebuild(uint32_t highest, uint32_t highest_page = 0) {
    m_blocks.rebuild(m_backend.flash());
    m_sequence = highest;
    m_page_sequence = highest_page;
  }
  // Program `op` of this command wrote a newer copy of a unit whose older copy is in `block`:
  // erasing `block` waits for it (only when the device may lose power).
  void note_supersedes(uint32_t op, BlockId block) {
    if (m_sequenced && block != kNone) m_backend.note_supersedes(op, block);
  }
  // Erases `block` (a merge's work: OpClass::kGc) and returns it to its plane's pool.
  uint32_t erase(BlockId block, uint32_t after);
  // Programs `lun` with `token` at `offset` of `block`, skipping erased pages before it. The unit
  // is written for `op_class`, or for `written_as` when given (new host data in a merge).
  uint32_t program(BlockId block, uint32_t offset, Lun lun, Token token, OpClass op_class,
                   uint32_t after) {
    return program(block, offset, lun, token, op_class, after, op_class);
  }
  uint32_t program(BlockId block, uint32_t offset, Lun lun, Token token, OpClass op_class,
                   uint32_t after, OpClass written_as);
  uint32_t read(PageId page, OpClass op_class, uint32_t after = kNone) {
    return m_backend.read(page, 1, op_class, after);
  }
  // Reads only the spare area (the unit number), as NFTL's search does.
  uint32_t read_spare(PageId page, OpClass op_class, uint32_t after = kNone) {
    return m_backend.read_spare(page, kSpareWords * 4, op_class, after);
  }

  // Merge: programs offsets [first_offset, last non-empty] of `to` with what `source(offset)`
  // names (offset order, empty offsets skipped), as GC-class work. Copies are read first (or,
  // with nand.copyback and the old page on the plane of `to`, copied back inside the die) and
  // are written for GC; new data is written for the host (FlashBackend::written()). `first_lun` is
  // the unit at offset 0. Returns the last operation (what erasing the old blocks must wait for),
  // or kNone.
  uint32_t fill(BlockId to, uint32_t first_offset, Lun first_lun,
                const std::function<MergeSource(uint32_t offset)>& source);

 private:
  void skip_to(BlockId block, uint32_t offset);
  // The spare words of the next page programmed in `block`, holding `lun`.
  void spare_of(BlockId block, Lun lun, uint32_t* spare) {
    spare[0] = lun;
    if (m_sequenced) spare[1] = m_allocated[block];
    if (m_page_sequenced) spare[2] = ++m_page_sequence;
  }
  bool same_plane(PageId page, BlockId block) const;
  // Copies page `from` to `offset` of `to` (same plane) by copy-back.
  uint32_t copy_back(PageId from, BlockId to, uint32_t offset, Lun lun);

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats& m_stats;
  BlockManager m_blocks;
  bool m_copyback;                       // nand.copyback
  bool m_sequenced;                      // pages carry their block's allocation sequence
  bool m_page_sequenced;                 // ... and their own program sequence
  uint32_t m_sequence = 0;               // the latest allocation's
  uint32_t m_page_sequence = 0;          // the latest program's (page_sequenced only)
  std::vector<uint32_t> m_allocated;     // per block: its allocation sequence (sequenced only)
  std::vector<MergeSource> m_sources;    // reused by fill()
  std::vector<BlockId> m_source_blocks;  // reused by fill(): blocks its copies came from
};

}  // namespace ssd::ftl
