// Places mapping units into flash pages for one write stream (host data, or GC relocations).
// Each plane has an open block and a page being assembled in controller DRAM; a page is programmed
// when its last slot fills, and the stream then moves on to the next plane its placement policy
// picks (plane_placement.h: by default the next die in striped order, so consecutive pages spread
// over dies, and the plane of that die with the most free blocks); with a live limit, planes
// that hold too much live data are skipped (plane_balance.h). Every
// unit's logical number goes into its page's spare area (one 32-bit word per unit), which is what
// GC and recovery read back. Until a page is programmed its units live only in DRAM (volatile);
// close_pages() pads and programs them, which is what a flush does. A page's program has the
// stream's class, or the mapping class when every unit in it is mapping metadata.
// For power-loss recovery (set_sequence) each page's spare also carries a 64-bit program
// sequence number after the units' words, and a unit overwritten or trimmed while its page is
// still being assembled is dropped from the page's spare (forget()): a recovery that takes, for
// every logical unit, the copy in the page with the highest sequence then finds the newest copy
// that reached the flash (page_store.h).
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/block_manager.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/plane_placement.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class UnitWriter {
 public:
  // Called before the stream starts a new page on `plane` (`needs_block`: and must open a new
  // block for it), so GC can make room first, a little at a time.
  class SpaceListener {
   public:
    virtual ~SpaceListener() = default;
    virtual void before_new_page(uint32_t plane, bool needs_block) = 0;
  };

  UnitWriter(FlashBackend& backend, BlockManager& blocks, OpClass op_class);
  void set_listener(SpaceListener* listener) { m_listener = listener; }
  // append() starts a new page only on a plane whose live units stay within `limit` with it
  // (plane_balance.h), trying the planes in stripe order; 0 = no limit.
  void set_plane_live_limit(uint64_t limit) { m_plane_live_limit = limit; }
  // How append() chooses the plane of a new page (default round_robin).
  void set_placement(PlacementPolicy policy) { m_placement = policy; }
  // Stamps every page programmed from now on with `*sequence` (then incremented), its bits or'ed
  // with `mark` (the store's name for the stream), in the two spare words after the units'
  // (kSequenceWords); the counter is shared by every stream of a store.
  void set_sequence(uint64_t* sequence, uint64_t mark) {
    m_sequence = sequence;
    m_sequence_mark = mark;
  }
  static constexpr uint32_t kSequenceWords = 2;

  // Appends one unit on the next plane of the stripe (or on `plane`); returns its slot.
  // `after`: operation the page's program must wait for (e.g. the read of a read-modify-write).
  // The unit is written for the stream's class, or for `written_as` (e.g. a translation page a
  // scheme keeps in the host stream is mapping metadata): the backend counts it so.
  SlotId append(Lun lun, Token token, uint32_t after = kNone) {
    return append(lun, token, after, m_op_class);
  }
  SlotId append(Lun lun, Token token, uint32_t after, OpClass written_as);
  SlotId append_on_plane(uint32_t plane, Lun lun, Token token, uint32_t after = kNone) {
    return append_on_plane(plane, lun, token, after, m_op_class);
  }
  SlotId append_on_plane(uint32_t plane, Lun lun, Token token, uint32_t after, OpClass written_as);

  // Copy-back of a whole page (nand.copyback): the next page of `plane` takes every unit of
  // `source` (on the same plane), `luns` and `tokens` being what those units hold, programmed at
  // once through the die's page register. Only when nothing is being assembled on `plane`.
  // Returns the first slot of the new page; the units follow in order.
  SlotId copy_page(uint32_t plane, PageId source, const Lun* luns, const Token* tokens,
                   uint32_t after);

  // Programs the open page of `plane` (or of every plane) if it holds any unit; empty slots are
  // padded. Returns the program's operation index (the last one, for all planes), or kNone.
  uint32_t close_page(uint32_t plane);
  uint32_t close_pages();

  // The operation index of the stream's latest program since forget_last_program() (kNone when
  // none): GC's erase must wait for the page its last copies went into, even when that page
  // filled (and was programmed) inside append().
  uint32_t last_program() const { return m_last_program; }
  void forget_last_program() { m_last_program = kNone; }
  // Pages the stream has programmed (also untimed, when programs record no operation).
  uint64_t programs() const { return m_programs; }

  // --- a sequential fill in bulk (PageStore::fill_sequential) ---
  // Whether the stream has written nothing yet and, unless placement is static, would put its
  // first page on stripe position 0.
  bool fresh() const;
  PlacementPolicy placement() const { return m_placement; }
  uint64_t plane_live_limit() const { return m_plane_live_limit; }
  bool sequenced() const { return m_sequence != nullptr; }
  // The stream's first `pages` pages were programmed in bulk, each full: the stream goes on as
  // it would after them, from stripe position `stripe_cursor` (append() leaves it at pages %
  // planes; append_on_plane() does not move it). `open_blocks`: per plane, the block its next
  // page goes to (kNone: a new one).
  void filled_in_bulk(uint64_t pages, const std::vector<BlockId>& open_blocks,
                      uint32_t stripe_cursor);
  // The block the stream writes on `plane` (kNone: it takes one when it next starts a page).
  BlockId open_block(uint32_t plane) const { return m_open[plane].block; }
  // Sampled aging (PageStore::lay_out_aged): the stream, which has written nothing, goes on
  // writing `block` of `plane`, partly programmed, as the stream it stands for did.
  void resume_block(uint32_t plane, BlockId block) { m_open[plane].block = block; }

  // Whether the stream is assembling a page on `plane` that holds units (not yet on flash).
  bool assembling(uint32_t plane) const {
    return m_open[plane].page != kNone && m_open[plane].filled > 0;
  }

  // Whether `slot` sits in a page this stream is still assembling, and its token there.
  bool holds(SlotId slot) const;
  Token buffered_token(SlotId slot) const;
  // The unit in `slot` (which this stream holds) is stale: its page will not name it.
  void forget(SlotId slot);
  // The unit in `slot` (which this stream holds) replaces a copy whose block is `block`: until
  // this page is programmed, that block holds the unit's copy on flash (PageStore's erase guard).
  void set_origin(SlotId slot, BlockId block);
  BlockId origin(SlotId slot) const;
  // Whether the page being assembled on `plane` holds a unit whose older copy is in `block`.
  bool has_origin(uint32_t plane, BlockId block) const;

 private:
  struct OpenPage {
    BlockId block = kNone;
    PageId page = kNone;
    uint32_t filled = 0;
    uint32_t after = kNone;
    ProgramUnits units;  // what the units assembled so far were written for
    std::vector<Token> tokens;
    std::vector<uint32_t> spare;
    std::vector<BlockId> origins;  // per unit (set_origin), kNone when none
  };
  void start_page(uint32_t plane);
  uint32_t program(uint32_t plane, PageId copy_source = kNone);

  FlashBackend& m_backend;
  BlockManager& m_blocks;
  const Geometry& m_geometry;
  OpClass m_op_class;
  SpaceListener* m_listener = nullptr;
  std::vector<OpenPage> m_open;  // per flat plane
  // The plane append() fills next: the page being filled, or the plane the policy picks.
  uint32_t next_plane(Lun lun);

  uint32_t m_stripe_cursor = 0;
  uint32_t m_current_plane = kNone;  // the plane of the stripe position being filled
  PlacementPolicy m_placement = PlacementPolicy::kRoundRobin;
  uint64_t m_plane_live_limit = 0;
  uint32_t m_last_program = kNone;
  uint64_t m_programs = 0;
  uint64_t* m_sequence = nullptr;  // program sequence (set_sequence), or none
  uint64_t m_sequence_mark = 0;
};

}  // namespace ssd::ftl
