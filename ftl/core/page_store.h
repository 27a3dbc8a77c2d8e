// Page-granular flash management that the page-level schemes (page mapping, DFTL, VET, EMT, DAC)
// share: block pools, the host and GC write streams, greedy GC on the plane that runs short, and
// reading units back whether they are on flash or still in a page being assembled in DRAM.
// The scheme keeps the mapping and answers GC through MappingOwner.
// A scheme that separates data by hotness (DAC, ftl/dac/) asks for several streams: host streams
// and GC streams, each with its own open block per plane. It writes host data with
// write_in_stream() and names the GC stream of each unit GC moves
// (MappingOwner::relocation_stream). Blocks are opened lazily, so a stream never written holds
// none. page_store_rules.h states what a platform must hold for the streams.
//
// Power loss: when the flash has room for them (the device may lose power: FtlDeviceOptions),
// every page carries a program sequence number in its spare area (unit_writer.h). A scheme
// rebuilt after a cut scans the spare areas with scan_flash(), keeps the copy of each unit with
// the highest sequence, and hands its table to adopt(): the blocks and their valid counts follow.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/aged_planes.h"
#include "ftl/core/aged_unit_interleave.h"
#include "ftl/core/block_manager.h"
#include "ftl/core/content_token.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/ftl_stats.h"
#include "ftl/core/garbage_collector.h"
#include "ftl/core/host_command.h"
#include "ftl/core/stream_code.h"
#include "ftl/core/unit_span.h"
#include "ftl/core/unit_writer.h"
#include "ftl/core/victim_policy.h"

namespace ssd::ftl {

class PageStore final : private EraseGuard {
 public:
  // `streams`: host write streams, 1 to kMaxStreams; `gc_streams`: GC streams (the values
  // MappingOwner::relocation_stream may answer), 1 to kMaxStreams, 0 = as many as `streams`.
  PageStore(const config::PlatformConfig& platform, FlashBackend& backend, MappingOwner& owner,
            FtlStats& stats, uint32_t streams = 1, uint32_t gc_streams = 0);

  static constexpr uint32_t kMaxStreams = StreamCodes::kMaxPerKind;

  // Spare words per page this store writes (one LUN per unit), and the words it adds when the
  // device may lose power (a 64-bit program sequence number).
  static uint32_t spare_words(const Geometry& geometry) { return geometry.units_per_page; }
  static uint32_t recovery_spare_words(const Geometry& /*geometry*/) {
    return UnitWriter::kSequenceWords;
  }

  // Writes one unit of host data; may run GC first. `after`: the op the program waits for.
  SlotId write(Lun lun, Token token, uint32_t after = kNone) {
    return m_host_writers[0].append(lun, token, after);
  }
  // The same in host stream `stream` (below streams()): its own open block per plane.
  SlotId write_in_stream(uint32_t stream, Lun lun, Token token, uint32_t after = kNone) {
    return m_host_writers[stream].append(lun, token, after);
  }
  uint32_t streams() const { return static_cast<uint32_t>(m_host_writers.size()); }
  // The block the stream `code` (stream_code.h) writes on `plane`; kNone when it has none.
  BlockId stream_block(StreamCode code, uint32_t plane) const {
    const UnitWriter* writer = writer_of(code);
    return writer != nullptr ? writer->open_block(plane) : kNone;
  }
  // Writes one unit of mapping metadata (e.g. a translation page) in the host stream, under
  // `key` (a number beyond the logical units, which GC hands back to the scheme).
  SlotId write_mapping(Lun key, Token token, uint32_t after = kNone) {
    return m_host_writers[0].append(key, token, after, OpClass::kMapping);
  }
  // Writes one unit of mapping metadata in the mapping stream: its own open blocks, so map pages
  // are written apart from data (a page-mapped FTL's translation region, ftl/page/map_sync.h);
  // GC later moves live map units with the data it relocates.
  SlotId write_map(Lun key, Token token, uint32_t after = kNone) {
    return m_map_writer.append(key, token, after, OpClass::kMapping);
  }
  // The same on a chosen plane (the k-th of the stripe order is
  // geometry().plane_in_stripe_order(k)), for schemes that keep a request's units together:
  // consecutive units on one plane get consecutive slots until the plane's open block is full.
  SlotId write_on_plane(uint32_t plane, Lun lun, Token token, uint32_t after = kNone) {
    return m_host_writers[0].append_on_plane(plane, lun, token, after);
  }
  // The unit in `slot` is stale (overwritten or trimmed). With sequence numbers, a stale unit
  // still in DRAM is dropped from its page's spare, so no recovery takes it for the newest copy.
  void invalidate(SlotId slot) {
    m_blocks.remove_valid(slot);
    if (m_sequenced) {
      if (UnitWriter* writer = holder(slot)) writer->forget(slot);
    }
  }
  // The unit in `old` was written again into `now`: `old` is stale. With sequence numbers, the
  // block holding the unit's copy on flash is not erased before `now` is programmed (EraseGuard).
  void replace(SlotId old, SlotId now) {
    if (m_sequenced) guard_old_copy(old, now);
    invalidate(old);
  }

  // Reads `units` consecutive units of one page starting at `slot`, recording a flash read, or a
  // DRAM read when the page is still being assembled. Returns the op index.
  uint32_t read(SlotId slot, uint32_t units, OpClass op_class, uint32_t after = kNone);
  // Reads the units of `span` where `table` (unit -> slot, kNone = unmapped) puts them and
  // delivers each: one read per run of units in the same page; an unmapped unit reads as zeroes
  // with no flash access. A page-mapped scheme's whole read path.
  void read_units(const UnitSpan& span, const std::vector<SlotId>& table);
  // The content unit `i` of write `command` (split as `span`) gives its unit, whose current copy
  // is in `old` (kNone: none): the token a layer above supplies (HostCommand::unit_tokens), else
  // the one the command's id makes (content_token.h), reading the old copy first when the write
  // covers part of the unit (read-modify-write). The read waits for `after`, which then names
  // the read, for the program to wait on.
  Token unit_content(const HostCommand& command, const UnitSpan& span, uint32_t i, SlotId old,
                     uint32_t& after) {
    if (command.unit_tokens != nullptr) return command.unit_tokens[i];
    const SectorMask mask = span.mask_of(i);
    if (mask == span.full_mask) return whole_unit_token(command.id, span.first + i);
    Token previous = 0;
    if (old != kNone) {  // read-modify-write of a partial unit
      after = read(old, 1, OpClass::kHostWrite, after);
      previous = token(old);
    }
    return partial_unit_token(previous, command.id, span.first + i, mask);
  }
  // The unit's content token, wherever it is (no operation recorded).
  Token token(SlotId slot) const {
    if (const UnitWriter* writer = holder(slot)) return writer->buffered_token(slot);
    return m_backend.flash().token(slot);
  }
  bool buffered(SlotId slot) const { return holder(slot) != nullptr; }

  // Programs every page still being assembled (padding empty slots). Returns the last op or kNone.
  uint32_t flush();

  // --- preconditioning's sequential fill in bulk (page_store_fill.cpp) ---
  // Units 0, 1, 2 ... written in order with write() into a store that has written nothing land
  // in a regular layout while no plane reaches its live limit or its GC reserve: page n of the
  // stream on stripe position n % planes, the planes' blocks taken in order (the placement
  // policies other than static all choose so, as no plane ever has more free blocks than the
  // one the stripe names). This writes that layout's whole pages at once: the flash's spare words
  // (and tokens, `token(lun)`, when it stores them), the blocks and their valid counts, the
  // stream's position and the write counts, with `table[lun]` the slot of each unit, exactly as
  // write() would have. It returns the data units written, those the whole pages hold (the caller
  // writes the rest with write()), or 0 when the layout is not guaranteed (the store has written,
  // static placement, sequence numbers or the journal on, dies of unequal load for least_busy_die,
  // or a plane would reach its live limit or GC's reserve): write() must then do it all. `stream`:
  // the host stream the writes go to (write_in_stream()).
  //
  // `inserts`: units of mapping metadata the scheme writes between the data units, as it would
  // with write_mapping() (e.g. DFTL's translation pages, which its cache's evictions write), in
  // the order of `before` (the data unit each is written just before). They take their places in
  // the stream, counted as mapping writes; each one the bulk pages hold gets its `slot` (the rest
  // kNone, for the caller to write with the data units that follow). The store keeps no key's
  // older copy from being valid: a scheme that writes a key twice replaces the older slot itself.
  struct FillInsert {
    uint64_t before = 0;
    Lun key = kNone;
    Token token = 0;
    SlotId slot = kNone;
  };
  //
  // `chunk_pages` above 1: each plane takes that many pages at each visit of the stripe, as the
  // extent FTL places its chunks (write_on_plane(), which leaves the stream's stripe position
  // alone); only whole chunks are written in bulk, and none with inserts. A plane's pages are
  // numbered across its blocks, so a chunk may span two. `table` may be null (a scheme that maps
  // the layout otherwise).
  uint64_t fill_sequential(uint64_t units, SlotId* table, const std::function<Token(Lun)>& token,
                           uint32_t stream = 0, std::vector<FillInsert>* inserts = nullptr,
                           uint32_t chunk_pages = 1);

  // --- sampled aging (page_store_aged.cpp, sampled_aging.h) ---
  // The planes as they are, `table` (unit -> slot, kNone = unmapped) naming the valid slots;
  // every mapped unit must be on flash (after a flush). Throws std::logic_error if one is not.
  // `with_slot_units`: also which unit each valid slot holds (AgedPlanes::slot_units).
  AgedPlanes describe_planes(const std::vector<SlotId>& table, bool with_slot_units = false) const;
  // Into a store that has written nothing: on each plane p, the blocks of `aged`'s plane
  // p mod aged.planes (so die d takes the planes of the miniature's die d mod its dies), in an
  // order `seed` draws per plane (programmed pages, erase counts, valid slots), and units
  // 0 .. units-1 in the valid slots, `table[lun]` the slot of each (unless `table` is null), the
  // flash's spare words and tokens (`token(lun)`) written; a valid slot left over holds no unit.
  // Which unit a valid slot takes: by default the next in the order of a seeded permutation
  // (random_permutation.h); with `interleave`, the device's unit its copy of the miniature's
  // unit there is (AgedUnitInterleave; the copy of plane p is p / aged.planes), so units that
  // were neighbours in neighbouring slots still are (a slot whose unit is `units` or beyond holds
  // none). Free and full blocks then follow the flash, and each
  // write stream goes on in the blocks its counterpart was writing (AgedPlanes::open_in_stream).
  // Appends to `left` the units no valid slot took (the caller writes them), in ascending order
  // with `interleave`. Returns false,
  // having done nothing, when the layout cannot be made: the store has written, `aged` is of
  // another geometry (blocks, pages, units, planes not dividing the store's), static placement,
  // or the journal on; with `interleave`, when `aged` has no slot units or the copies are not
  // the store's planes over the miniature's. With sequence numbers each page gets the next, and
  // the stream bits of the
  // stream writing its block. `copied_from`, when given, is set to the miniature's block each
  // block copies, block by block (slot u of block b copies slot u of block copied_from[b]).
  // A scheme whose miniature kept pages of its own among the units (AgedPlanes::scheme_page_bits)
  // gives `scheme_pages`, which names the page each copy of those slots holds; without it such a
  // miniature is refused (false).
  struct AgedSchemePages {
    // The key of the page the device's copy at `slot` holds (kNone: it holds nothing), its
    // content token set in `token`.
    std::function<Lun(SlotId slot, Token& token)> place;
  };
  struct AgedLayoutOptions {
    std::vector<uint32_t>* copied_from = nullptr;
    const AgedSchemePages* scheme_pages = nullptr;
    const AgedUnitInterleave* interleave = nullptr;
  };
  bool lay_out_aged(const AgedPlanes& aged, uint64_t units, uint64_t seed, SlotId* table,
                    const std::function<Token(Lun)>& token, std::vector<Lun>& left,
                    const AgedLayoutOptions& options);
  bool lay_out_aged(const AgedPlanes& aged, uint64_t units, uint64_t seed, SlotId* table,
                    const std::function<Token(Lun)>& token, std::vector<Lun>& left) {
    return lay_out_aged(aged, units, seed, table, token, left, AgedLayoutOptions{});
  }
  // The content token of a slot lay_out_aged() filled, for a page whose content is known only
  // once every unit is laid out (DFTL's translation pages, sealed with a digest of what they say).
  void set_laid_out_token(SlotId slot, Token token) {
    const PageId page = geometry().page_of_slot(slot);
    if (Token* tokens = m_backend.flash().tokens_to_fill(page)) {
      tokens[slot - geometry().first_slot(page)] = token;
    }
  }

  // --- power-loss recovery, on a store just built over the flash a cut left behind ---
  bool sequenced() const { return m_sequenced; }
  // Reads the spare area of every programmed page (a recorded spare read each; the operations are
  // handed on a block at a time, FlashBackend::end_batch) and calls `found(lun, slot, sequence)`
  // for every unit a readable page names; a page the cut tore fails its ECC and names none, and
  // so does a page a layer above marked (kLentPageMark), whose block adopt() keeps lent.
  // A block whose erase the cut tore is erased again. Returns the pages read.
  uint64_t scan_flash(const std::function<void(Lun, SlotId, uint64_t)>& found);
  // The whole rebuild of a unit -> slot table, for a scheme that maps each logical unit to a slot:
  // scan_flash(), keeping for every logical unit the copy in the page with the highest sequence
  // (a tie is one page naming a unit twice: a rewrite that filled the page holding its older copy
  // programmed it before the older slot could be dropped from its spare; units fill a page in
  // slot order, which the scan follows, so the later slot wins), then adopt(). Names beyond the
  // logical units are not kept. Each name read costs a table lookup in `cpu`.
  std::vector<SlotId> recover_table(CpuWork& cpu);
  // After the scan: `table` (unit -> slot, kNone = unmapped) is what the scheme kept, and the
  // units of `table` are the valid ones. Blocks with no programmed page are free; blocks the cut
  // left partly programmed are taken by the streams before any free block (after a cut GC may
  // need their erased pages to write into before it can free a block): each by the stream its
  // last readable page names (stream_of: each stream goes on in its own block), else by
  // whichever stream needs one on its plane first (BlockManager::reopen); every other block is
  // full. Programs continue from the highest sequence the scan saw.
  void adopt(const std::vector<SlotId>& table);
  // For a scheme that rebuilds from less than the whole flash (a synced map, ftl/page/): the
  // program sequence a readable page carries; the next program's; and, after its own scan, where
  // programs go on (after the highest sequence it saw).
  uint64_t sequence_of(PageId page) const {
    return program_sequence(m_backend.flash().spare(page), geometry().units_per_page);
  }
  // The same from a page's spare words (`units_per_page` words of units, then the sequence's).
  static uint64_t program_sequence(const uint32_t* spare, uint32_t units_per_page) {
    return sequence_words(spare, units_per_page) & ~kStreamMarkBits;
  }
  // The stream that programmed a readable page (stream_code.h; kNone before sequence numbers).
  StreamCode stream_of(PageId page) const {
    const uint64_t words = sequence_words(m_backend.flash().spare(page), geometry().units_per_page);
    return static_cast<StreamCode>((words & kStreamMarkBits) >> kStreamMarkShift);
  }
  uint64_t next_sequence() const { return m_sequence; }
  void continue_after(uint64_t highest) { m_sequence = highest + 1; }
  // A layer above that writes blocks it borrowed (lend_block) marks its pages with this bit in the
  // 64-bit sequence words (the store's own sequences never reach it): the scan leaves such a
  // page to the layer, and adopt() keeps its block lent (BlockState::kLent) for the layer to
  // take up again; GC and the streams do not touch it.
  static constexpr uint64_t kLentPageMark = uint64_t{1} << 63;
  // Below it, the stream that programmed the page (stream_code.h), which sequence_of() leaves out:
  // 2^56 programs is more than any run makes.
  static constexpr uint32_t kStreamMarkShift = 56;
  static constexpr uint64_t kStreamMarkBits = ((uint64_t{1} << StreamCodes::kBits) - 1)
                                              << kStreamMarkShift;
  static_assert(kStreamMarkShift + StreamCodes::kBits <= 63, "below the lent page mark");

  const BlockManager& blocks() const { return m_blocks; }
  // Erased blocks for a layer above the scheme (BlockManager::lend_block, take_back). The host
  // streams' plane live limit (plane_balance.h) leaves room for the most any plane has lent, as
  // it does for the open blocks of streams beyond one host and one GC stream.
  BlockId lend_block(uint32_t plane);
  // GC's copies of mapping metadata wait for every earlier operation
  // (GarbageCollector::set_metadata_copies_wait): for a scheme whose recovery trusts them.
  void set_metadata_copies_wait(bool on) { m_gc.set_metadata_copies_wait(on); }
  void take_back(BlockId block);
  const Geometry& geometry() const { return m_blocks.geometry(); }

 private:
  // `code` in the sequence words' stream bits.
  static uint64_t stream_mark(StreamCode code) { return uint64_t{code} << kStreamMarkShift; }
  static uint64_t sequence_words(const uint32_t* spare, uint32_t units_per_page) {
    return spare[units_per_page] | uint64_t{spare[units_per_page + 1]} << 32;
  }
  // The stream `code` names (nullptr: none of this store's).
  const UnitWriter* writer_of(StreamCode code) const;
  UnitWriter* writer_of(StreamCode code) {
    return const_cast<UnitWriter*>(static_cast<const PageStore&>(*this).writer_of(code));
  }
  // `block`, partly programmed, after rebuild(): the stream `code` names goes on writing it if
  // it has no block on that plane yet; else whichever stream needs one first takes it.
  void continue_block(BlockId block, StreamCode code);
  // One more block of `plane` is lent: the host streams' plane live limit follows.
  void note_lent(uint32_t plane);
  // The stream assembling the page `slot` is in (nullptr: the slot is on flash or free).
  const UnitWriter* holder(SlotId slot) const {
    for (const UnitWriter& writer : m_host_writers) {
      if (writer.holds(slot)) return &writer;
    }
    for (const UnitWriter& writer : m_gc_writers) {
      if (writer.holds(slot)) return &writer;
    }
    return m_map_writer.holds(slot) ? &m_map_writer : nullptr;
  }
  UnitWriter* holder(SlotId slot) {
    return const_cast<UnitWriter*>(static_cast<const PageStore&>(*this).holder(slot));
  }
  void before_erase(BlockId victim) override;
  // replace(): the block holding the unit's copy on flash is not erased before `now` is
  // programmed (EraseGuard).
  void guard_old_copy(SlotId old, SlotId now);

  FlashBackend& m_backend;
  BlockManager m_blocks;
  std::unique_ptr<VictimPolicy> m_policy;
  // By stream; never resized after construction (the collector holds pointers into m_gc_writers).
  std::vector<UnitWriter> m_host_writers;
  std::vector<UnitWriter> m_gc_writers;
  UnitWriter m_map_writer;  // used only by schemes that call write_map()
  GarbageCollector m_gc;
  std::vector<uint32_t> m_lent;  // blocks lent per plane
  uint32_t m_most_lent = 0;      // the plane live limit allows for this many
  uint32_t m_stream_blocks = 0;  // open blocks per plane of the streams beyond one host, one GC
  std::vector<BlockId> m_found_lent;  // scan_flash(): blocks whose pages a layer marked
  bool m_sequenced = false;           // pages carry program sequence numbers
  uint64_t m_sequence = 1;            // the next program's
};

}  // namespace ssd::ftl
