// Recovery of a Superblock or LSB FTL after a power cut (docs/power-loss.md): a scheme object
// just built over the flash a cut left behind rebuilds what it kept in DRAM (the PGD, the
// superblocks' block lists, the free pools, the live-page counts and valid bits, the sequence
// counter) from the flash alone, recording every operation it needs on the backend.
//
// Neither paper says how. The Superblock FTL keeps the whole page map in the spare areas so that
// nothing else need reach the flash, and LSB inherits that; what firmware of this kind most
// plausibly does, and what we do:
// 1. Scan: every programmed page's spare area is read (a block at a time, so the dies work in
//    parallel); a torn page fails its ECC and names nothing; a block whose erase was torn is
//    erased again. The DI gives each page's logical page and sequence number: per unit its newest
//    readable copy, and the newest readable page whose map says the unit holds nothing (each page
//    carries its group's PT: recorded_empty()); per logical block its newest readable page that
//    can head its map (any page in the Superblock FTL, a PMD page in LSB); per block its
//    superblock. A unit's place after recovery is its newest copy, unless a map written after
//    that copy says it holds nothing (it was trimmed since, and stays so). Nothing durable is
//    older than the newest copy (an old copy is erased only after the program of the copy
//    superseding it completes: SuperblockFrame::note_superseded); a trimmed unit whose trim no
//    map recorded may come back with an older value of its own, as in every scheme here.
// 2. Blocks: a block with a readable page joins its superblock, the blocks in the order they were
//    first written; one with torn pages only is erased; the others are free.
// 3. Maps, a logical block at a time, all read before anything is written: the map is followed
//    from the head with every location checked (SuperblockFrame::resolve) and compared with where
//    step 1 puts each unit. When they agree, the head is the PGD entry. When they do not, a run of
//    pages was cut short (a merge's copies name pages it had not written yet; LSB's PMD page comes
//    last in a run) or a page a map names was erased (a trimmed unit's), and the logical block's
//    map is written anew: one page of each group holding data is copied by the scheme's
//    relocate(), as GC copies, with the units where step 1 puts them as the map.
// 4. A superblock left holding more blocks than its PBMT names (a compaction cut before its
//    victim's erase: the Superblock FTL's cap) finishes the compaction: the blocks with the fewest
//    live pages give theirs to the others' free pages (fresh blocks join while under the cap), as
//    a merge does, and are erased once the copies are programmed. Blocks with no live page left
//    are erased. A merge cut short otherwise needs nothing more: its victim is an ordinary block
//    again, with fewer live pages, for GC to pick.
// 5. The cache starts empty; GC's counts and the scheme's figures start from zero (recovery's
//    copies and erases are its own, power.recovery_operations).
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/superblock_frame/superblock_frame.h"

namespace ssd::ftl {

class FrameRecovery {
 public:
  explicit FrameRecovery(SuperblockFrame& frame);
  void run();

 private:
  using CacheEntry = SuperblockFrame::CacheEntry;

  void scan_block(BlockId block);
  void take_blocks();
  // Step 3 for `sb`'s logical blocks: keeps the maps that hold (PGD, valid bits, live pages) and
  // appends the others to `rewritten`.
  void check_maps(uint32_t sb, std::vector<uint32_t>& rewritten);
  // Steps 3 and 4 for `sb`: erases its dead blocks, writes the `rewritten` maps anew, finishes a
  // compaction.
  void repair(uint32_t sb, const std::vector<uint32_t>& rewritten);
  bool has_copy(uint32_t lbn) const;
  // Where `lun` is after recovery: its newest copy, unless a map written after that copy says it
  // holds nothing (trimmed since); kNone then.
  PageId intended(Lun lun) const;
  // Resolves `lbn`'s map from its head into `e`: true when it names every unit where intended()
  // says.
  bool map_is_newest(uint32_t lbn, CacheEntry& e);
  // `e` as intended() makes it: every unit where its newest copy is, no map page yet.
  void newest_map(uint32_t lbn, CacheEntry& e);
  // Valid bits and live pages from a map that holds.
  void account(const CacheEntry& e);
  void erase_dead_blocks(uint32_t sb);
  // Makes room in `sb` for rewriting `rewritten`'s maps and keeps it to its cap: returns the
  // blocks given back (out of its list, their live pages to be copied before their erase).
  std::vector<BlockId> make_room(uint32_t sb, const std::vector<uint32_t>& rewritten);
  // Copies what `lbn` keeps in `victims`, and, when `rewrite_map`, a page of every group holding
  // data (its map rewritten). Returns the last program (kNone: none).
  uint32_t relocate(uint32_t lbn, bool rewrite_map, const std::vector<BlockId>& victims);
  CacheEntry& take_entry(uint32_t lbn);
  static void give_back(CacheEntry& e) { e.lbn = kNone; }

  SuperblockFrame& m_frame;
  FlashBackend& m_backend;
  const Geometry& m_geometry;
  std::vector<PageId> m_newest;   // per unit: its newest readable copy
  std::vector<PageId> m_emptied;  // per unit: the newest readable page whose map says it is empty
  std::vector<PageId> m_head;     // per logical block: its newest readable map head
  std::vector<uint32_t> m_block_superblock;  // per block: the superblock of its pages, kNone
  std::vector<uint64_t> m_block_first;       // per block: its first readable page's sequence
  uint64_t m_highest = 0;                    // the newest sequence read
  std::vector<uint32_t> m_offsets;           // reused by scan_block()
};

}  // namespace ssd::ftl
