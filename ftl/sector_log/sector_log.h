// The sector log (paper section 4, figures 3-5): sub-page writes gathered in a one-page page buffer
// in DRAM, then written to the sector-data region, a circular log of flash blocks lent by the FTL
// below (block_lender.h); the sector map (sector_map.h) says where each logged sector is. When the
// log has no free page left, its tail block (the least recently written) is cleaned: for every
// sector still valid there, all the sectors of its logical page are gathered (each log page that
// holds some is read), merged with the FTL's copy and written to the FTL as one page (the layer's
// MergeSink does that part); the block is erased and exchanged for a free one from the FTL, so the
// FTL's wear levelling covers the log too (the paper's section 4.3, "Flush & Merge").
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/block_lender.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/geometry.h"
#include "ftl/core/types.h"
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
  // Where a cleaned logical page goes: `sectors` of `lpn`, with the token of each (indexed by
  // sector of the unit), to be merged with the FTL's copy and written there.
  class MergeSink {
   public:
    virtual ~MergeSink() = default;
    virtual void merge_to_ftl(Lun lpn, uint64_t sectors, const Token* tokens) = 0;
  };

  // A region of `blocks` blocks (at least 2), borrowed from `lender` round-robin over planes.
  SectorLog(FlashBackend& backend, BlockLender& lender, MergeSink& sink, uint32_t blocks,
            uint64_t hash_buckets);

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
  // A free page at the head of the log (cleaning the tail when the log is full).
  PageId next_head_page();
  BlockId borrow_block();
  uint64_t slot_of(uint32_t ring_index, uint32_t page, uint32_t offset) const {
    return (uint64_t{ring_index} * m_geometry.pages_per_block + page) * m_sectors_per_page + offset;
  }

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  BlockLender& m_lender;
  MergeSink& m_sink;
  uint32_t m_sectors_per_unit;
  uint32_t m_sectors_per_page;
  uint64_t m_page_bytes;
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
  SectorLogCounts m_counts;
};

}  // namespace ssd::ftl
