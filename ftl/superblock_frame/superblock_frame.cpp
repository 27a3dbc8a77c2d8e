#include "ftl/superblock_frame/superblock_frame.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

namespace {
// Candidates a plane's GC looks at, fewest live pages first, before falling back to a full merge
// (the paper does not bound its search; ours stops here).
constexpr uint32_t kCandidates = 256;

// A distribution as the report writes it: trailing zeros dropped, at least one count kept.
std::vector<uint64_t> trimmed_counts(const std::vector<uint64_t>& counts) {
  size_t size = counts.size();
  while (size > 1 && counts[size - 1] == 0) --size;
  return {counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(size)};
}
}  // namespace

SuperblockFrame::SuperblockFrame(const SchemeContext& context, const char* scheme,
                                 const Shape& shape)
    : BlockScheme(context, scheme),
      m_scheme(scheme),
      m_superblock_blocks(shape.superblock_blocks),
      m_max_blocks(shape.max_blocks),
      m_groups(shape.groups),
      m_group_pages(shape.group_pages),
      m_spare_bytes(shape.spare_bytes),
      m_di_bits(shape.di_bytes * 8),
      m_any_plane(shape.any_plane),
      m_power_safe(context.backend.flash().journal_on()) {
  m_pgd.assign(logical_blocks(), kNone);
  m_superblocks.resize((logical_blocks() + m_superblock_blocks - 1) / m_superblock_blocks);
  m_written_pages_of.assign(m_superblocks.size(), 0);
  m_live_pages_of.assign(m_superblocks.size(), 0);
  m_owner.assign(m_geometry.blocks(), kNone);
  // More entries than logical blocks would never be used.
  m_cache.resize(std::min<uint64_t>(shape.cache_entries, logical_blocks()));
  for (CacheEntry& e : m_cache) {
    e.page_of.assign(m_geometry.pages_per_block, kNone);
    e.pt_page.assign(m_groups, kNone);
    e.head.assign(m_groups, kNone);
  }
  m_cache_slot.assign(logical_blocks(), kNone);
  m_victim_free_pages.assign(m_geometry.pages_per_block + 1, 0);
}

std::optional<double> SuperblockFrame::cache_hit_ratio() const {
  if (m_counters.lookups == 0) return std::nullopt;
  return double(m_counters.hits) / double(m_counters.lookups);
}

std::vector<MappingFigure> SuperblockFrame::frame_figures() const {
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
      {"victim_free_pages", double(victims), true, {}, trimmed_counts(m_victim_free_pages)},
  };
}

uint32_t SuperblockFrame::blocks_held() const {
  uint32_t held = 0;
  for (const std::vector<BlockId>& blocks : m_superblocks) {
    held += static_cast<uint32_t>(blocks.size());
  }
  return held;
}

// --- the map -------------------------------------------------------------------------------

void SuperblockFrame::count_lookup(bool hit) {
  if (!counting()) return;
  ++m_counters.lookups;
  m_counters.hits += hit;
}

uint32_t SuperblockFrame::read_map_spare(PageId page, OpClass op_class, uint32_t after) {
  m_counters.map_spare_reads += counting();
  return m_backend.read_spare(page, m_spare_bytes, op_class, after);
}

SuperblockFrame::CacheEntry& SuperblockFrame::free_entry() {
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

SuperblockFrame::CacheEntry& SuperblockFrame::entry(uint32_t lbn, OpClass op_class,
                                                    uint32_t& after) {
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
  std::fill(e.head.begin(), e.head.end(), kNone);
  m_cache_slot[lbn] = slot_of(e);
  load(e, m_pgd[lbn], op_class, after);
  return e;
}

bool SuperblockFrame::keeps(const CacheEntry& e, PageId page, uint32_t offset) const {
  const uint32_t group = group_of(offset);
  return (e.page_of[offset] == page && unit_valid(first_lun(e.lbn) + offset)) ||
         e.pt_page[group] == page || e.head[group] == page;
}

void SuperblockFrame::trimmed(Lun lun) {
  uint32_t after = kNone;
  CacheEntry& e = entry(lbn_of(lun), OpClass::kHostWrite, after);
  const PageId page = e.page_of[offset_of(lun)];
  if (page == kNone || keeps(e, page, offset_of(lun))) return;
  note_dead(page);
  e.page_of[offset_of(lun)] = kNone;  // from now on: "never written"
}

PageId SuperblockFrame::locate(Lun lun, OpClass op_class, uint32_t& after) {
  return entry(lbn_of(lun), op_class, after).page_of[offset_of(lun)];
}

// --- space -----------------------------------------------------------------------------------

uint64_t SuperblockFrame::free_blocks_for(uint32_t sb) const {
  if (!m_any_plane) return m_flash.free_blocks(plane_for(sb));
  uint64_t free = 0;
  for (uint32_t plane = 0; plane < m_geometry.planes(); ++plane) free += m_flash.free_blocks(plane);
  return free;
}

uint32_t SuperblockFrame::plane_for(uint32_t sb) const {
  if (!m_any_plane) return m_geometry.plane_in_stripe_order(sb % m_geometry.planes());
  uint32_t best = 0;
  for (uint32_t plane = 1; plane < m_geometry.planes(); ++plane) {
    if (m_flash.free_blocks(plane) > m_flash.free_blocks(best)) best = plane;
  }
  return best;
}

void SuperblockFrame::free_pages_of(uint32_t sb, uint32_t count, std::vector<PageId>& pages) const {
  pages.clear();
  for (BlockId b : m_superblocks[sb]) {
    for (uint32_t p = written(b); p < m_geometry.pages_per_block && pages.size() < count; ++p) {
      pages.push_back(m_flash.page(b, p));
    }
  }
  if (pages.size() < count) throw std::logic_error("superblock FTL: a merge without room");
}

uint32_t SuperblockFrame::free_pages(uint32_t sb) const {
  return static_cast<uint32_t>(uint64_t(m_superblocks[sb].size()) * m_geometry.pages_per_block -
                               m_written_pages_of[sb]);
}

uint32_t SuperblockFrame::program_with_spare(PageId page, Token token, const uint32_t* spare,
                                             OpClass op_class, uint32_t after, OpClass written_as) {
  const uint32_t op =
      m_backend.program(page, &token, spare, op_class, after, ProgramUnits::all(written_as, 1));
  m_flash.blocks().add_valid(page);
  const BlockId block = m_geometry.block_of_page(page);
  if (written(block) == m_geometry.pages_per_block) m_flash.blocks().close_block(block);
  const uint32_t sb = m_owner[block];
  if (sb != kNone) {
    ++m_written_pages_of[sb];
    ++m_live_pages_of[sb];
  }
  return op;
}

void SuperblockFrame::note_dead(PageId page) {
  m_flash.blocks().remove_valid(page);
  const uint32_t sb = m_owner[m_geometry.block_of_page(page)];
  if (sb != kNone) --m_live_pages_of[sb];
}

void SuperblockFrame::reserve(uint32_t sb, uint32_t count) {
  while (free_pages(sb) < count) {
    const uint32_t plane = plane_for(sb);  // GC below may change which plane has most room
    // Below the reserve, GC frees what it can first; what it cannot, the reserve lends. A GC
    // that moved pages without a block's net gain (LSB's merges can write more pages than they
    // move) does not count: the loop would go on forever.
    if (m_flash.free_blocks(plane) <= m_flash.blocks().gc_reserve_blocks()) {
      const uint64_t before = free_blocks_for(sb);
      if (collect(plane) && free_blocks_for(sb) > before) continue;
    }
    if (m_max_blocks != 0 && m_superblocks[sb].size() >= m_max_blocks) {
      forced_gc(sb);  // the PBMT is full
      continue;
    }
    // The last free block is GC's: a compaction lends it to a superblock while it gives one back.
    if (m_flash.free_blocks(plane) <= 1) {
      throw std::runtime_error(m_scheme + " FTL: plane " + std::to_string(plane) +
                               " has no free block left for writes and GC can free none net "
                               "(over-provisioning too small for the superblocks and the data's "
                               "layout)");
    }
    add_block(sb, m_flash.allocate(plane));
  }
}

bool SuperblockFrame::lend_block(uint32_t sb) {
  const uint32_t plane = plane_for(sb);
  if (m_flash.free_blocks(plane) == 0) return false;
  const BlockId block = m_flash.allocate(plane);
  add_block(sb, block);
  m_lent_to_merges.push_back(block);
  return true;
}

// --- garbage collection ------------------------------------------------------------------------

void SuperblockFrame::add_block(uint32_t sb, BlockId block) {
  m_superblocks[sb].push_back(block);
  m_owner[block] = sb;
  m_written_pages_of[sb] += written(block);
  m_live_pages_of[sb] += live(block);
}

void SuperblockFrame::drop_block(uint32_t sb, BlockId block) {
  std::vector<BlockId>& blocks = m_superblocks[sb];
  blocks.erase(std::find(blocks.begin(), blocks.end(), block));
  m_owner[block] = kNone;  // its pages are no longer the superblock's to name
  m_written_pages_of[sb] -= written(block);
  m_live_pages_of[sb] -= live(block);
}

void SuperblockFrame::recount_pages() {
  for (uint32_t sb = 0; sb < m_superblocks.size(); ++sb) {
    m_written_pages_of[sb] = 0;
    m_live_pages_of[sb] = 0;
    for (BlockId b : m_superblocks[sb]) {
      m_written_pages_of[sb] += written(b);
      m_live_pages_of[sb] += live(b);
    }
  }
}

void SuperblockFrame::merge(const std::vector<BlockId>& victims) {
  // Which pages of the victims are live: each page's DI names its logical page (a spare-area
  // read), and the logical block's map says whether that page is still kept.
  struct Candidate {
    PageId page;
    Lun lpn;
  };
  std::vector<Candidate> candidates;
  uint32_t last_read = kNone;
  for (BlockId victim : victims) {
    for (uint32_t p = 0; p < written(victim); ++p) {
      const PageId page = m_flash.page(victim, p);
      last_read = m_backend.read_spare(page, m_spare_bytes, OpClass::kGc);
      m_counters.gc_spare_reads += counting();
      // A page a power cut tore fails its ECC: it holds nothing.
      if (!m_backend.flash().readable(page)) continue;
      candidates.push_back({page, di_lpn(page)});
    }
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [this](const Candidate& a, const Candidate& b) { return lbn_of(a.lpn) < lbn_of(b.lpn); });
  // One logical block at a time: the scheme copies its kept pages with their maps.
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
    if (!m_moves.empty()) {
      const uint32_t program = relocate(e, m_moves, map_read);
      if (program != kNone) last_program = program;
    }
    --e.pins;
    i = end;
  }
  for (BlockId victim : victims) {
    m_victim_free_pages[m_geometry.pages_per_block - written(victim)] += counting();
    m_flash.erase(victim, last_program != kNone ? last_program : last_read);
    ++m_stats.gc_invocations;
  }
}

bool SuperblockFrame::compact(uint32_t sb, bool partly_written_victims) {
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
      const uint32_t plane = plane_for(sb);
      if (m_flash.free_blocks(plane) == 0) {
        add_block(sb, victim);  // nothing moved: as it was
        return false;
      }
      const BlockId fresh = m_flash.allocate(plane);
      add_block(sb, fresh);
      lent.push_back(fresh);
      --freed;
    }
    if (live(victim) == 0) m_counters.dead_erases += counting();
    m_lent_to_merges.clear();
    merge({victim});
    ++freed;
    // Blocks the merge itself borrowed (LSB's mapping-induced writes) are owed too.
    freed -= static_cast<int>(m_lent_to_merges.size());
    lent.insert(lent.end(), m_lent_to_merges.begin(), m_lent_to_merges.end());
  }
  return true;
}

void SuperblockFrame::forced_gc(uint32_t sb) {
  m_counters.forced_gcs += counting();
  if (!compact(sb, /*partly_written_victims=*/true)) {
    throw std::runtime_error(m_scheme + " FTL: superblock " + std::to_string(sb) +
                             " cannot free a block for its writes");
  }
}

bool SuperblockFrame::collect(uint32_t plane) {
  // The plane's full blocks, fewest live pages first (ties: lowest block number).
  std::vector<BlockId>& candidates = m_candidates;
  candidates.clear();
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
      merge({victim});
      return true;
    }
    if (free_pages(sb) >= live(victim)) {  // intra-superblock partial merge
      m_counters.partial_merges += counting();
      drop_block(sb, victim);
      merge({victim});
      return true;
    }
  }
  // No candidate's superblock has room: the plane's superblock with the most dead pages gives
  // back a block, its blocks with the fewest live pages merged into its free pages and, when they
  // do not fit, into a fresh block (the full merge; see the header).
  // Among the plane's superblocks that hold a block's worth of dead and free pages (so can give
  // one back), the one with the most dead pages.
  // Each superblock is weighed once, however many of the plane's blocks it holds (an LSB
  // superblock can hold hundreds, so weighing it per block made this quadratic).
  m_plane_superblocks.clear();
  for (BlockId b : candidates) m_plane_superblocks.push_back(m_owner[b]);
  std::sort(m_plane_superblocks.begin(), m_plane_superblocks.end());
  m_plane_superblocks.erase(std::unique(m_plane_superblocks.begin(), m_plane_superblocks.end()),
                            m_plane_superblocks.end());
  uint32_t best = kNone;
  uint64_t best_dead = 0;
  for (const uint32_t sb : m_plane_superblocks) {
    const uint64_t dead = m_written_pages_of[sb] - m_live_pages_of[sb];
    const uint64_t slack =
        uint64_t(m_superblocks[sb].size()) * m_geometry.pages_per_block - m_live_pages_of[sb];
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

// --- recovery --------------------------------------------------------------------------------

bool SuperblockFrame::names(PageId target, Lun first, uint32_t count, uint64_t upto) const {
  const FlashArray& flash = m_backend.flash();
  if (target == kNone || !flash.is_programmed(target) || !flash.readable(target)) return false;
  const Lun lpn = di_lpn(target);
  return lpn >= first && lpn - first < count && di_sequence(target) <= upto;
}

void SuperblockFrame::prefetch_dis(const std::vector<PageId>& targets) const {
  const FlashArray& flash = m_backend.flash();
  for (const PageId target : targets) {
    if (target != kNone && flash.is_programmed(target)) __builtin_prefetch(flash.spare(target));
  }
}

void SuperblockFrame::note_live(PageId page) {
  m_flash.blocks().add_valid(page);
  const uint32_t sb = m_owner[m_geometry.block_of_page(page)];
  if (sb != kNone) ++m_live_pages_of[sb];
}

void SuperblockFrame::clear_cache() {
  for (CacheEntry& e : m_cache) {
    if (e.lbn != kNone) m_cache_slot[e.lbn] = kNone;
    e.lbn = kNone;
    e.pins = 0;
  }
}

}  // namespace ssd::ftl
