#include "ftl/superblock/superblock_ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ftl/core/memory_sizes.h"
#include "ftl/superblock/superblock_settings.h"

namespace ssd::ftl {

namespace {
// Candidates a plane's GC looks at, fewest live pages first, before falling back to a full merge
// (the paper does not bound its search; ours stops here).
constexpr uint32_t kCandidates = 256;
}  // namespace

SuperblockFtl::SuperblockFtl(const SchemeContext& context)
    : BlockScheme(context, "superblock"),
      m_layout(SuperblockSpareLayout::of(context.platform.ftl.settings.get<SuperblockSettings>(),
                                         m_geometry, context.platform.nand.spare_bytes)) {
  const SuperblockSettings& s = context.platform.ftl.settings.get<SuperblockSettings>();
  m_superblock_blocks = s.superblock_blocks;
  m_max_blocks = s.max_physical_blocks;
  m_pgd.assign(logical_blocks(), kNone);
  m_superblocks.resize((logical_blocks() + m_superblock_blocks - 1) / m_superblock_blocks);
  m_owner.assign(m_geometry.blocks(), kNone);
  // More entries than logical blocks would never be used.
  m_cache.resize(std::min<uint64_t>(s.cache_entries, logical_blocks()));
  for (CacheEntry& e : m_cache) {
    e.page_of.assign(m_geometry.pages_per_block, kNone);
    e.pt_page.assign(m_layout.groups, kNone);
  }
  m_cache_slot.assign(logical_blocks(), kNone);
  m_spare.assign(m_layout.spare_words(), 0);
  m_victim_free_pages.assign(m_geometry.pages_per_block + 1, 0);
  m_pgd_entry_bytes = bytes_to_name(m_geometry.pages());
  // A block's PMD and PTs (one entry per group and per page) and the PBNs they index.
  m_cache_entry_bytes = (m_layout.groups + m_geometry.pages_per_block) * m_layout.entry_bits() / 8 +
                        m_layout.pbmt_entries * m_layout.pbn_bits / 8;
  m_entry_bytes = m_pgd_entry_bytes;
}

uint64_t SuperblockFtl::mapping_memory_bytes() const {
  return uint64_t(logical_blocks()) * m_pgd_entry_bytes +
         uint64_t(m_superblocks.size()) * m_max_blocks * bytes_to_name(m_geometry.blocks()) +
         uint64_t(m_cache.size()) * m_cache_entry_bytes + valid_bitmap_bytes();
}

std::optional<double> SuperblockFtl::cache_hit_ratio() const {
  if (m_counters.lookups == 0) return std::nullopt;
  return double(m_counters.hits) / double(m_counters.lookups);
}

std::vector<MappingFigure> SuperblockFtl::mapping_figures() const {
  const Counters& c = m_counters;
  uint64_t victims = 0, free_pages = 0;
  for (uint32_t k = 0; k < m_victim_free_pages.size(); ++k) {
    victims += m_victim_free_pages[k];
    free_pages += k * m_victim_free_pages[k];
  }
  return {
      {"cache_lookups", double(c.lookups), true},
      {"cache_hits", double(c.hits), true},
      {"map_spare_reads", double(c.map_spare_reads), true},
      {"gc_spare_reads", double(c.gc_spare_reads), true},
      {"forced_gcs", double(c.forced_gcs), true},
      {"partial_merges", double(c.partial_merges), true},
      {"full_merges", double(c.full_merges), true},
      {"dead_erases", double(c.dead_erases), true},
      {"victim_free_pages_mean", victims ? double(free_pages) / victims : 0.0, false},
  };
}

// --- the map -------------------------------------------------------------------------------

void SuperblockFtl::count_lookup(bool hit) {
  if (!counting()) return;
  ++m_counters.lookups;
  m_counters.hits += hit;
}

SuperblockFtl::CacheEntry& SuperblockFtl::free_entry() {
  CacheEntry* oldest = nullptr;
  for (CacheEntry& e : m_cache) {
    if (e.pins != 0) continue;
    if (e.lbn == kNone) return e;
    if (oldest == nullptr || e.used < oldest->used) oldest = &e;
  }
  if (oldest == nullptr) throw std::logic_error("superblock cache: every entry is pinned");
  m_cache_slot[oldest->lbn] = kNone;
  oldest->lbn = kNone;
  return *oldest;
}

SuperblockFtl::CacheEntry& SuperblockFtl::entry(uint32_t lbn, OpClass op_class, uint32_t& after) {
  ++m_backend.cpu().list_steps;  // the cache's LRU bookkeeping
  if (m_cache_slot[lbn] != kNone) {
    count_lookup(true);
    CacheEntry& e = m_cache[m_cache_slot[lbn]];
    e.used = ++m_clock;
    return e;
  }
  count_lookup(false);
  CacheEntry& e = free_entry();
  e.lbn = lbn;
  e.used = ++m_clock;
  std::fill(e.page_of.begin(), e.page_of.end(), kNone);
  std::fill(e.pt_page.begin(), e.pt_page.end(), kNone);
  m_cache_slot[lbn] = static_cast<uint32_t>(&e - m_cache.data());
  const PageId pmd = m_pgd[lbn];
  if (pmd == kNone) return e;  // never written
  const uint32_t spare_bytes = m_layout.spare_bytes;
  const uint32_t pmd_read = m_backend.read_spare(pmd, spare_bytes, op_class);
  m_counters.map_spare_reads += counting();
  after = pmd_read;
  const SuperblockSpare head =
      decode_superblock_spare(m_layout, m_geometry, pmd, m_backend.flash().spare(pmd));
  e.pt_page = head.pt_page;
  const uint32_t own = group_of(offset_of(head.lpn));
  for (uint32_t group = 0; group < m_layout.groups; ++group) {
    const PageId pt = e.pt_page[group];
    if (pt == kNone) continue;
    SuperblockSpare table = head;
    if (group != own) {  // its PT page is another page: one more spare-area read
      after = m_backend.read_spare(pt, spare_bytes, op_class, pmd_read);
      m_counters.map_spare_reads += counting();
      table = decode_superblock_spare(m_layout, m_geometry, pt, m_backend.flash().spare(pt));
    }
    for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
      e.page_of[group * m_layout.group_pages + k] = table.page_of[k];
    }
  }
  return e;
}

PageId SuperblockFtl::peek(Lun lun) const {
  const PageId pmd = m_pgd[lbn_of(lun)];
  if (pmd == kNone) return kNone;
  const uint32_t offset = offset_of(lun);
  const SuperblockSpare head =
      decode_superblock_spare(m_layout, m_geometry, pmd, m_backend.flash().spare(pmd));
  const PageId pt = head.pt_page[group_of(offset)];
  if (pt == kNone) return kNone;
  const SuperblockSpare table =
      decode_superblock_spare(m_layout, m_geometry, pt, m_backend.flash().spare(pt));
  return table.page_of[offset % m_layout.group_pages];
}

bool SuperblockFtl::keeps(const CacheEntry& e, PageId page, uint32_t offset) const {
  return e.page_of[offset] == page &&
         (unit_valid(first_lun(e.lbn) + offset) || e.pt_page[group_of(offset)] == page);
}

void SuperblockFtl::trimmed(Lun lun) {
  uint32_t after = kNone;
  const CacheEntry& e = entry(lbn_of(lun), OpClass::kHostWrite, after);
  const uint32_t offset = offset_of(lun);
  const PageId page = e.page_of[offset];
  if (page != kNone && e.pt_page[group_of(offset)] != page) note_dead(page);
}

PageId SuperblockFtl::locate(Lun lun, OpClass op_class, uint32_t& after) {
  return entry(lbn_of(lun), op_class, after).page_of[offset_of(lun)];
}

// --- writes ----------------------------------------------------------------------------------

uint32_t SuperblockFtl::program_page(PageId page, const CacheEntry& e, uint32_t offset, Token token,
                                     OpClass op_class, uint32_t after, OpClass written_as) {
  const BlockId block = m_geometry.block_of_page(page);
  SuperblockSpare& spare = m_scratch;  // reused: no allocation per page
  spare.lpn = first_lun(e.lbn) + offset;
  spare.sequence = ++m_sequence;
  spare.pbmt.clear();
  for (BlockId b : m_superblocks[superblock_of(e.lbn)]) {
    if (b != block) spare.pbmt.push_back(b);
  }
  spare.pt_page = e.pt_page;
  const uint32_t first = group_of(offset) * m_layout.group_pages;
  spare.page_of.assign(e.page_of.begin() + first, e.page_of.begin() + first + m_layout.group_pages);
  for (uint32_t k = 0; k < m_layout.group_pages; ++k) {  // trimmed units: "never written"
    if (first + k != offset && !unit_valid(first_lun(e.lbn) + first + k)) spare.page_of[k] = kNone;
  }
  std::fill(m_spare.begin(), m_spare.end(), 0u);
  encode_superblock_spare(m_layout, m_geometry, page, spare, m_spare.data());
  const uint32_t op = m_backend.program(page, &token, m_spare.data(), op_class, after,
                                        ProgramUnits::all(written_as, 1));
  note_live(page);
  if (written(block) == m_geometry.pages_per_block) m_flash.blocks().close_block(block);
  return op;
}

void SuperblockFtl::free_pages_of(uint32_t sb, uint32_t count, std::vector<PageId>& pages) const {
  pages.clear();
  for (BlockId b : m_superblocks[sb]) {
    for (uint32_t p = written(b); p < m_geometry.pages_per_block && pages.size() < count; ++p) {
      pages.push_back(m_flash.page(b, p));
    }
  }
  if (pages.size() < count) throw std::logic_error("superblock FTL: a merge without room");
}

uint32_t SuperblockFtl::free_pages(uint32_t sb) const {
  uint32_t free = 0;
  for (BlockId b : m_superblocks[sb]) free += m_geometry.pages_per_block - written(b);
  return free;
}

void SuperblockFtl::reserve(uint32_t sb, uint32_t count) {
  const uint32_t plane = plane_of_superblock(sb);
  while (free_pages(sb) < count) {
    // Below the reserve, GC frees what it can first; what it cannot, the reserve lends.
    if (m_flash.free_blocks(plane) <= m_flash.blocks().gc_reserve_blocks() && collect(plane)) {
      continue;
    }
    if (m_superblocks[sb].size() >= m_max_blocks) {
      forced_gc(sb);  // the PBMT is full
      continue;
    }
    // The last free block is GC's: a compaction lends it to a superblock while it gives one back.
    if (m_flash.free_blocks(plane) <= 1) {
      throw std::runtime_error("superblock FTL: plane " + std::to_string(plane) +
                               " has no free block left for writes and GC can free none "
                               "(over-provisioning too small for the superblocks)");
    }
    const BlockId block = m_flash.allocate(plane);
    m_superblocks[sb].push_back(block);
    m_owner[block] = sb;
  }
}

void SuperblockFtl::write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                                uint32_t after) {
  const uint32_t sb = superblock_of(lbn);
  uint32_t map_read = kNone;
  CacheEntry& e = entry(lbn, OpClass::kHostWrite, map_read);
  ++e.pins;
  reserve(sb, count);  // the request's pages, before any is written (GC may move this block)
  free_pages_of(sb, count, m_pages);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t offset = first + i;
    const PageId page = m_pages[i];
    const Lun lun = first_lun(lbn) + offset;
    const PageId old = e.page_of[offset];
    const PageId old_pt = e.pt_page[group_of(offset)];
    // What stops being kept: the unit's old copy (if it held data or carried the group's map),
    // and the group's old PT page if it held a trimmed unit (it kept it only for the map).
    const bool old_kept = old != kNone && keeps(e, old, offset);
    PageId old_carrier = kNone;
    if (old_pt != kNone && old_pt != old) {
      const uint32_t carrier_offset = offset_of(m_backend.flash().spare(old_pt)[0]);
      if (!unit_valid(first_lun(lbn) + carrier_offset)) old_carrier = old_pt;
    }
    e.page_of[offset] = page;
    e.pt_page[group_of(offset)] = page;
    mark_valid(lun);
    const uint32_t wait = after != kNone ? after : map_read;
    program_page(page, e, offset, tokens[i], OpClass::kHostWrite, wait, OpClass::kHostWrite);
    if (old_kept) note_dead(old);
    if (old_carrier != kNone) note_dead(old_carrier);
    m_pgd[lbn] = page;
  }
  --e.pins;
}

// --- garbage collection ------------------------------------------------------------------------

void SuperblockFtl::drop_block(uint32_t sb, BlockId block) {
  std::vector<BlockId>& blocks = m_superblocks[sb];
  blocks.erase(std::find(blocks.begin(), blocks.end(), block));
}

void SuperblockFtl::merge(uint32_t sb, const std::vector<BlockId>& victims) {
  // Which pages of the victims are live: each page's DI names its logical page (a spare-area
  // read), and the logical block's map says whether that page is still its newest copy.
  struct Candidate {
    PageId page;
    Lun lpn;
  };
  std::vector<Candidate> candidates;
  uint32_t last_read = kNone;
  for (BlockId victim : victims) {
    for (uint32_t p = 0; p < written(victim); ++p) {
      const PageId page = m_flash.page(victim, p);
      last_read = m_backend.read_spare(page, m_layout.spare_bytes, OpClass::kGc);
      m_counters.gc_spare_reads += counting();
      candidates.push_back({page, m_backend.flash().spare(page)[0]});
    }
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [this](const Candidate& a, const Candidate& b) { return lbn_of(a.lpn) < lbn_of(b.lpn); });
  // One logical block at a time: its live pages get their new places first, then are copied in
  // order. A copy's PMD names each group's PT page as it will be once the merge is done (a later
  // copy, maybe) and its own page as its group's: never a victim, which its PBMT leaves out.
  uint32_t last_program = kNone;
  for (size_t i = 0; i < candidates.size();) {
    const uint32_t lbn = lbn_of(candidates[i].lpn);
    size_t end = i;
    while (end < candidates.size() && lbn_of(candidates[end].lpn) == lbn) ++end;
    uint32_t map_read = kNone;
    CacheEntry& e = entry(lbn, OpClass::kGc, map_read);
    ++e.pins;
    m_moves.clear();
    for (size_t k = i; k < end; ++k) {
      const uint32_t offset = offset_of(candidates[k].lpn);
      if (keeps(e, candidates[k].page, offset)) {
        m_moves.push_back({candidates[k].page, offset});
      } else if (e.page_of[offset] == candidates[k].page) {
        e.page_of[offset] = kNone;  // a trimmed unit's page, dropped: "never written" from now
      }
    }
    // Each group's PT page is copied last of its group, so it stays the group's newest page (a
    // trimmed unit's page is kept only while it is).
    std::stable_sort(m_moves.begin(), m_moves.end(), [&e, this](const Move& a, const Move& b) {
      const bool a_pt = e.pt_page[group_of(a.offset)] == a.from;
      const bool b_pt = e.pt_page[group_of(b.offset)] == b.from;
      return !a_pt && b_pt;
    });
    std::vector<PageId>& to = m_pages;
    free_pages_of(sb, static_cast<uint32_t>(m_moves.size()), to);
    std::vector<PageId>& final_pt = m_final_pt;
    final_pt = e.pt_page;
    for (size_t k = 0; k < m_moves.size(); ++k) {
      e.page_of[m_moves[k].offset] = to[k];
      final_pt[group_of(m_moves[k].offset)] = to[k];
    }
    for (size_t k = 0; k < m_moves.size(); ++k) {
      const Move& move = m_moves[k];
      e.pt_page = final_pt;
      e.pt_page[group_of(move.offset)] = to[k];
      const uint32_t read = m_flash.read(move.from, OpClass::kGc, map_read);
      last_program = program_page(to[k], e, move.offset, m_flash.token(move.from), OpClass::kGc,
                                  read, OpClass::kGc);
      note_dead(move.from);
      m_pgd[lbn] = to[k];
      ++m_stats.gc_units_copied;
    }
    e.pt_page = final_pt;
    --e.pins;
    i = end;
  }
  for (BlockId victim : victims) {
    m_victim_free_pages[m_geometry.pages_per_block - written(victim)] += counting();
    m_owner[victim] = kNone;
    m_flash.erase(victim, last_program != kNone ? last_program : last_read);
    ++m_stats.gc_invocations;
  }
}

bool SuperblockFtl::compact(uint32_t sb, bool partly_written_victims) {
  const uint32_t plane = plane_of_superblock(sb);
  std::vector<BlockId> lent;  // fresh blocks this compaction took: never its victims
  int freed = 0;
  while (freed < 1) {
    // The block with the fewest live pages (ties: the oldest). A partly written victim's
    // unwritten pages are lost to its erase (victim_free_pages counts them).
    BlockId victim = kNone;
    for (BlockId b : m_superblocks[sb]) {
      if (std::find(lent.begin(), lent.end(), b) != lent.end()) continue;
      if (!partly_written_victims && written(b) < m_geometry.pages_per_block) continue;
      if (victim == kNone || live(b) < live(victim)) victim = b;
    }
    if (victim == kNone) return false;
    drop_block(sb, victim);
    if (live(victim) > free_pages(sb)) {
      if (m_flash.free_blocks(plane) == 0) {
        m_superblocks[sb].push_back(victim);  // nothing moved: as it was
        return false;
      }
      const BlockId fresh = m_flash.allocate(plane);
      m_superblocks[sb].push_back(fresh);
      m_owner[fresh] = sb;
      lent.push_back(fresh);
      --freed;
    }
    if (live(victim) == 0) m_counters.dead_erases += counting();
    merge(sb, {victim});
    ++freed;
  }
  return true;
}

void SuperblockFtl::forced_gc(uint32_t sb) {
  m_counters.forced_gcs += counting();
  if (!compact(sb, /*partly_written_victims=*/true)) {
    throw std::runtime_error("superblock FTL: superblock " + std::to_string(sb) +
                             " cannot free a block for its writes");
  }
}

bool SuperblockFtl::collect(uint32_t plane) {
  // The plane's full blocks, fewest live pages first (ties: lowest block number).
  std::vector<BlockId> candidates;
  const BlockId first = plane * m_geometry.blocks_per_plane;
  for (BlockId b = first; b < first + m_geometry.blocks_per_plane; ++b) {
    if (m_owner[b] != kNone && written(b) == m_geometry.pages_per_block) candidates.push_back(b);
  }
  // Only the best kCandidates need an order: fewest live pages, then lowest block number.
  const size_t look = std::min<size_t>(candidates.size(), kCandidates);
  std::partial_sort(
      candidates.begin(), candidates.begin() + look, candidates.end(),
      [this](BlockId a, BlockId b) { return live(a) != live(b) ? live(a) < live(b) : a < b; });
  for (size_t i = 0; i < look; ++i) {
    const BlockId victim = candidates[i];
    const uint32_t sb = m_owner[victim];
    if (live(victim) == 0) {
      m_counters.dead_erases += counting();
      drop_block(sb, victim);
      merge(sb, {victim});
      return true;
    }
    if (free_pages(sb) >= live(victim)) {  // intra-superblock partial merge
      m_counters.partial_merges += counting();
      drop_block(sb, victim);
      merge(sb, {victim});
      return true;
    }
  }
  // No candidate's superblock has room: the plane's superblock with the most dead pages gives
  // back a block, its blocks with the fewest live pages merged into its free pages and, when they
  // do not fit, into a fresh block (the full merge; see the header).
  // Among the plane's superblocks that hold a block's worth of dead and free pages (so can give
  // one back), the one with the most dead pages.
  uint32_t best = kNone;
  uint64_t best_dead = 0;
  for (BlockId b : candidates) {
    const uint32_t sb = m_owner[b];
    if (sb == best) continue;
    uint64_t dead = 0, slack = 0;
    for (BlockId x : m_superblocks[sb]) {
      dead += written(x) - live(x);
      slack += m_geometry.pages_per_block - live(x);
    }
    if (slack < m_geometry.pages_per_block) continue;
    if (best == kNone || dead > best_dead || (dead == best_dead && sb < best)) {
      best = sb;
      best_dead = dead;
    }
  }
  if (best == kNone) return false;
  m_counters.full_merges += counting();
  return compact(best, /*partly_written_victims=*/false);
}

uint32_t SuperblockFtl::blocks_held() const {
  uint32_t held = 0;
  for (const std::vector<BlockId>& blocks : m_superblocks) {
    held += static_cast<uint32_t>(blocks.size());
  }
  return held;
}

// --- recovery --------------------------------------------------------------------------------

void SuperblockFtl::rebuild_from_spare_areas() {
  for (CacheEntry& e : m_cache) {
    if (e.lbn != kNone) m_cache_slot[e.lbn] = kNone;
    e.lbn = kNone;
  }
  std::fill(m_pgd.begin(), m_pgd.end(), kNone);
  for (std::vector<BlockId>& blocks : m_superblocks) blocks.clear();
  std::fill(m_owner.begin(), m_owner.end(), kNone);
  std::vector<uint32_t> newest(logical_blocks(), 0);
  std::vector<std::pair<uint32_t, BlockId>> first_written;  // (sequence, block)
  for (BlockId b = 0; b < m_geometry.blocks(); ++b) {
    if (written(b) == 0) continue;
    bool owned = false;
    for (uint32_t p = 0; p < written(b); ++p) {
      const PageId page = m_flash.page(b, p);
      const SuperblockSpare s =
          decode_superblock_spare(m_layout, m_geometry, page, m_backend.flash().spare(page));
      const uint32_t lbn = lbn_of(s.lpn);
      if (!owned) {
        first_written.push_back({s.sequence, b});
        owned = true;
      }
      if (m_pgd[lbn] == kNone || s.sequence > newest[lbn]) {
        m_pgd[lbn] = page;
        newest[lbn] = s.sequence;
      }
      m_sequence = std::max(m_sequence, s.sequence);
    }
  }
  // Blocks in the order they were first written, each to the superblock of its pages.
  std::sort(first_written.begin(), first_written.end());
  for (const auto& [sequence, block] : first_written) {
    const PageId page = m_flash.page(block, 0);
    const uint32_t sb = superblock_of(lbn_of(m_backend.flash().spare(page)[0]));
    m_superblocks[sb].push_back(block);
    m_owner[block] = sb;
  }
}

}  // namespace ssd::ftl
