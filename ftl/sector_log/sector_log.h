// The sector log (paper section 4, figures 3-5): sub-page writes gathered in a one-page page buffer
// in DRAM, then written to the sector-data region, a circular log of flash blocks lent by the FTL
// below (block_lender.h); the sector map (sector_map.h) says where each logged sector is. When the
// log has no free page left, its tail block (the least recently written) is cleaned: for every
// sector still valid there, all the sectors of its logical page are gathered (each log page that
// holds some is read), merged with the FTL's copy and written to the FTL as one page (the layer's
// MergeSink does that part); the block is erased and exchanged for a free one from the FTL, so the
// FTL's wear levelling covers the log too (the paper's section 4.3, "Flush & Merge").
//
// Power loss (log_page_layout.h; on when the flash keeps the scheme's sequence words): every log
// page carries the log's page sequence and its sectors' logical addresses, and its block stays
// lent through the scheme's recovery (PageStore::kLentPageMark). Each logged sector also keeps,
// as simulation bookkeeping in the page's data words, which copy of its logical page in the scheme
// below it patches (that copy's content token) and the token that copy has under it: a recovery
// keeps a logged sector only while the scheme's recovered copy is the one it patches. A newer copy
// (a merge, or a whole-page write, which the log's map forgot the sector for) is newer than the
// sector, and an older one means the copy it patches never reached the flash, so neither was it
// durable. A real controller would compare a version number kept with each unit and carried by
// GC; the page store stamps program sequences per page, renewed by every GC move, so comparing
// them would lose a sector whose copy GC moved after it. The content token identifies the version
// the same way. Before a cleaned block is erased, the merged copies are programmed (the scheme
// is flushed) and the erase waits for them (FlashBackend::note_supersedes): a cut never finds a
// sector neither in the log nor merged. recover() rebuilds the log after a cut.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/block_lender.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/flash_op.h"
#include "ftl/core/geometry.h"
#include "ftl/core/types.h"
#include "ftl/sector_log/log_page_layout.h"
#include "ftl/sector_log/sector_map.h"

namespace ssd::ftl {

struct SectorLogCounts {
  uint64_t page_programs = 0;    // log pages written (Writes_SL)
  uint64_t padded_sectors = 0;   // empty sectors of pages a flush programmed early
  uint64_t page_reads = 0;       // log pages read (host reads and merges)
  uint64_t erases = 0;           // log blocks cleaned
  uint64_t writes = 0;           // sub-page writes taken in
  uint64_t write_hits = 0;       // ... every sector of which the log already held
  uint64_t sectors_in = 0;       // sectors taken in
  uint64_t evictions = 0;        // logical pages merged out to the FTL (Evicts_SL)
  uint64_t evicted_sectors = 0;  // their sectors that came from the log
};

class SectorLog {
 public:
  // What the log asks of the layer about the scheme below.
  class MergeSink {
   public:
    virtual ~MergeSink() = default;
    // Where a cleaned logical page goes: `sectors` of `lpn`, with the token of each (indexed by
    // sector of the unit), to be merged with the FTL's copy and written there.
    virtual void merge_to_ftl(Lun lpn, uint64_t sectors, const Token* tokens) = 0;
    // --- power loss ---
    // The content token of the scheme's copy of `lpn` (0: none), and the token it has under
    // `sector`, which the layer holds (simulation bookkeeping kept with each logged sector).
    virtual Token copy_token(Lun lpn) const = 0;
    virtual Token copy_token_under(Lun lpn, uint32_t sector) const = 0;
    // Programs every page the scheme is still assembling in DRAM.
    virtual void flush_below() = 0;
    // Recovery: the log holds `sector` of `lpn` again, over the scheme's copy, which has `under`
    // there.
    virtual void recovered_sector(Lun lpn, uint32_t sector, Token under) = 0;
  };

  // A region of `blocks` blocks (at least 2), borrowed from `lender` round-robin over planes;
  // after a power cut (kAfterCut) none yet: recover() follows.
  enum class Start { kFresh, kAfterCut };
  SectorLog(FlashBackend& backend, BlockLender& lender, MergeSink& sink, uint32_t blocks,
            uint64_t hash_buckets, Start start = Start::kFresh);
  // After a power cut (sector_log_recovery.cpp): the region rebuilt from `lent`, the blocks the
  // scheme's recovery kept lent, borrowing what it lacks; its map too, and the layer told what
  // the scheme's copies hold under the sectors it keeps (MergeSink::recovered_sector). Records
  // every read and merge on the backend, a block at a time.
  void recover(const std::vector<BlockId>& lent);

  // Takes in `sectors` of `lpn` (`tokens[s]` per sector of the mask). May program the page
  // buffer and clean the tail block.
  void write(Lun lpn, uint64_t sectors, const Token* tokens);
  // The sectors of `lpn` the log holds (page buffer or region), through the map (a counted
  // search).
  uint64_t held(Lun lpn);
  // The same, uncounted: simulation bookkeeping, not firmware work.
  uint64_t held_uncounted(Lun lpn) const;
  // Reads `wanted` sectors of `lpn` (held ones only) into `tokens`: the page buffer's from DRAM,
  // the region's with one flash read per log page. The map entry is the one held() found (no
  // second search).
  void read(Lun lpn, uint64_t wanted, Token* tokens, OpClass op_class);
  // The tokens of `wanted` sectors of `lpn` the log holds, with no operation recorded (what the
  // layer needs to know of sectors a read does not ask for).
  void peek(Lun lpn, uint64_t wanted, Token* tokens) const;
  // Forgets every sector of `lpn` (the page was written whole below, or trimmed).
  void drop(Lun lpn);
  // Programs the page buffer if it holds anything (padding the rest), so nothing written stays
  // in DRAM only.
  void flush();
  // While on, every log page program waits for every operation issued before it (kAfterAll):
  // a FUA write is acknowledged when its own operations complete, and its logged sectors are
  // durable only once the copies below they patch are on flash too.
  void set_program_barrier(bool on) { m_program_after = on ? kAfterAll : kNone; }
  // Cleans the tail block if the log uses more than its head block; false otherwise.
  bool clean_tail();

  // DRAM the log's map and page buffer take now.
  uint64_t memory_bytes() const { return m_map.memory_bytes() + m_page_bytes; }
  const SectorMap& map() const { return m_map; }
  SectorMap& map() { return m_map; }
  const SectorLogCounts& counts() const { return m_counts; }
  // Counts and map searches start again (the timed run begins).
  void restart_counts() {
    m_counts = SectorLogCounts{};
    m_map.restart_counts();
  }
  uint32_t blocks() const { return static_cast<uint32_t>(m_ring.size()); }
  uint32_t blocks_in_use() const { return m_used; }
  // The flash block at position `i` of the log's ring (block numbers of the paper's figures).
  BlockId ring_block(uint32_t i) const { return m_ring[i]; }
  const LogPageLayout& layout() const { return m_layout; }
  // The ring position of the oldest block with data and of the block written now, and the next
  // page there.
  uint32_t tail() const { return m_tail; }
  uint32_t head() const { return m_head; }
  uint32_t head_page() const { return m_head_page; }
  // What sector slot `slot` of the region holds (kNone: nothing, or padding).
  Lun slot_lpn(uint64_t slot) const { return m_slot_lpn[slot]; }
  uint32_t slot_sector(uint64_t slot) const { return m_slot_sector[slot]; }
  Token slot_token(uint64_t slot) const { return m_slot_token[slot]; }
  uint32_t sectors_per_page() const { return m_sectors_per_page; }
  // What the recovery that built this log found and did.
  struct RecoveryCounts {
    uint32_t blocks_found = 0;    // lent blocks holding log pages
    uint32_t blocks_retired = 0;  // ... beyond the region's size, merged out and erased again
    uint64_t sectors_kept = 0;    // logged sectors the map names again
  };
  const RecoveryCounts& recovery() const { return m_recovery; }

 private:
  struct Pending {
    Lun lpn;
    uint32_t sector;
    Token token;
  };
  static constexpr uint32_t kNoPending = kNone;

  uint32_t pending_index(Lun lpn, uint32_t sector) const;
  uint64_t pending_sectors(Lun lpn) const;
  void program_page_buffer();
  // The spare words and data words of the page buffer's program, when power may be cut.
  void stamp_page(std::vector<uint32_t>& data_words);
  // A free page at the head of the log (cleaning the tail when the log is full).
  PageId next_head_page();
  // Merges every logical page with a valid sector in ring block `ring_index` out to the FTL and
  // erases the block (after the merged copies are programmed, when power may be cut).
  void empty_block(uint32_t ring_index);
  void resize_slots(uint32_t blocks);
  // --- recovery (sector_log_recovery.cpp) ---
  // Reads the log pages of `block` back into ring position `ring_index`; returns the sequence of
  // its first readable page and updates `highest`.
  uint64_t read_back_block(BlockId block, uint32_t ring_index, std::vector<Token>& unders,
                           std::vector<Token>& bases, uint64_t& highest);
  // Points the map at every logged sector that patches the scheme's current copy, newest last.
  void rebuild_map(const std::vector<Token>& bases);
  // Calls `visit(slot)` for every slot the map names.
  template <class Visit>
  void for_each_mapped_slot(const Visit& visit) const;
  uint64_t slot_of(uint32_t ring_index, uint32_t page, uint32_t offset) const {
    return (uint64_t{ring_index} * m_geometry.pages_per_block + page) * m_sectors_per_page + offset;
  }

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  BlockLender& m_lender;
  MergeSink& m_sink;
  LogPageLayout m_layout;
  uint32_t m_sectors_per_unit;
  uint32_t m_sectors_per_page;  // data sectors (fewer when the addresses take some)
  uint64_t m_page_bytes;
  uint32_t m_blocks;  // the region's size
  SectorMap m_map;
  std::vector<Pending> m_pending;  // the page buffer
  // The region: ring of borrowed blocks; what each sector slot holds (its logical page, sector
  // and content: the spare area's reverse map and the data, as the simulation keeps them).
  std::vector<BlockId> m_ring;
  std::vector<Lun> m_slot_lpn;
  std::vector<uint8_t> m_slot_sector;
  std::vector<Token> m_slot_token;
  uint32_t m_head = 0;       // ring index written now
  uint32_t m_head_page = 0;  // its next free page
  uint32_t m_tail = 0;       // oldest ring index with data
  uint32_t m_used = 1;       // ring blocks from tail to head, both included
  uint32_t m_next_plane = 0;
  std::vector<Token> m_scratch;  // a unit's tokens
  std::vector<Token> m_unit_tokens;
  std::vector<uint32_t> m_spare;
  std::vector<uint64_t> m_addresses;  // scratch: the page buffer's sector addresses
  uint64_t m_sequence = 1;            // the next log page's (power loss)
  uint32_t m_program_after = kNone;   // set_program_barrier()
  SectorLogCounts m_counts;
  RecoveryCounts m_recovery;
};

}  // namespace ssd::ftl
