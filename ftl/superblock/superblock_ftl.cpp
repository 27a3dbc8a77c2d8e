#include "ftl/superblock/superblock_ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ftl/core/memory_sizes.h"
#include "ftl/superblock/superblock_settings.h"
#include "ftl/superblock_frame/frame_recovery.h"

namespace ssd::ftl {

namespace {

SuperblockSpareLayout layout_of(const SchemeContext& context) {
  return SuperblockSpareLayout::of(context.platform.ftl.settings.get<SuperblockSettings>(),
                                   Geometry::from_platform(context.platform),
                                   context.platform.nand.spare_bytes);
}

SuperblockFrame::Shape shape_of(const SchemeContext& context) {
  const SuperblockSettings& s = context.platform.ftl.settings.get<SuperblockSettings>();
  const SuperblockSpareLayout l = layout_of(context);
  SuperblockFrame::Shape shape;
  shape.superblock_blocks = s.superblock_blocks;
  shape.max_blocks = s.max_physical_blocks;
  shape.groups = l.groups;
  shape.group_pages = l.group_pages;
  shape.cache_entries = s.cache_entries;
  shape.spare_bytes = l.spare_bytes;
  shape.di_bytes = s.di_bytes;
  shape.any_plane = false;  // a superblock's at most max_physical_blocks share its home plane
  return shape;
}

}  // namespace

SuperblockFtl::SuperblockFtl(const SchemeContext& context)
    : SuperblockFrame(context, "superblock", shape_of(context)), m_layout(layout_of(context)) {
  const SuperblockSettings& s = context.platform.ftl.settings.get<SuperblockSettings>();
  m_max_blocks = s.max_physical_blocks;
  m_spare.assign(m_layout.spare_words(), 0);
  m_pgd_entry_bytes = bytes_to_name(m_geometry.pages());
  // A block's PMD and PTs (one entry per group and per page) and the PBNs they index.
  m_cache_entry_bytes = (m_layout.groups + m_geometry.pages_per_block) * m_layout.entry_bits() / 8 +
                        m_layout.pbmt_entries * m_layout.pbn_bits / 8;
  m_entry_bytes = m_pgd_entry_bytes;
}

std::unique_ptr<SuperblockFtl> SuperblockFtl::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<SuperblockFtl>(context);
  FrameRecovery(*scheme).run();
  return scheme;
}

uint64_t SuperblockFtl::mapping_memory_bytes() const {
  return uint64_t(logical_blocks()) * m_pgd_entry_bytes +
         superblock_count() * m_max_blocks * bytes_to_name(m_geometry.blocks()) +
         cache_size() * m_cache_entry_bytes + valid_bitmap_bytes();
}

// --- the map -------------------------------------------------------------------------------

void SuperblockFtl::load(CacheEntry& e, PageId pmd, OpClass op_class, uint32_t& after) {
  bool holds = resolve(e, pmd, op_class, after);
  for (uint32_t offset = 0; holds && offset < units_in(e.lbn); ++offset) {
    holds = e.page_of[offset] != kNone || !unit_valid(first_lun(e.lbn) + offset);
  }
  if (!holds) {
    throw std::logic_error("Superblock FTL: the map of logical block " + std::to_string(e.lbn) +
                           " on flash is not the one kept");
  }
}

bool SuperblockFtl::resolve(CacheEntry& e, PageId pmd, OpClass op_class, uint32_t& after) {
  std::fill(e.page_of.begin(), e.page_of.end(), kNone);
  std::fill(e.pt_page.begin(), e.pt_page.end(), kNone);
  std::fill(e.head.begin(), e.head.end(), kNone);
  if (pmd == kNone) return true;  // never written
  const uint32_t pmd_read = read_map_spare(pmd, op_class);
  after = pmd_read;
  // Decoded into reused scratch: a miss is on the request's path.
  SuperblockSpare& head = m_load_head;
  decode_superblock_spare(m_layout, m_geometry, pmd, m_backend.flash().spare(pmd), head);
  const Lun first = first_lun(e.lbn);
  if (!names(pmd, first, m_geometry.pages_per_block, di_sequence(pmd))) return false;
  e.pt_page = head.pt_page;
  e.head = head.pt_page;  // every page carries its group's whole PT
  const uint32_t own = group_of(offset_of(head.lpn));
  for (uint32_t group = 0; group < m_layout.groups; ++group) {
    const PageId pt = e.pt_page[group];
    if (pt == kNone) continue;  // never written
    const SuperblockSpare* table = &head;
    if (group != own) {  // its PT page is another page: one more spare-area read
      // Written before the PMD page, in the group: else a cut left the map half written.
      if (!names(pt, first + group * m_layout.group_pages, m_layout.group_pages, head.sequence)) {
        return false;
      }
      after = read_map_spare(pt, op_class, pmd_read);
      decode_superblock_spare(m_layout, m_geometry, pt, m_backend.flash().spare(pt), m_load_table);
      table = &m_load_table;
    }
    prefetch_dis(table->page_of);
    for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
      const uint32_t offset = group * m_layout.group_pages + k;
      const PageId page = table->page_of[k];
      // A copy erased since (a trimmed unit's) names nothing.
      if (names(page, first + offset, 1, table->sequence)) e.page_of[offset] = page;
    }
  }
  return true;
}

void SuperblockFtl::recorded_empty(PageId page, std::vector<uint32_t>& offsets) const {
  // Every page carries its own group's PT: kNone for the pages that held nothing then.
  const SuperblockSpare spare =
      decode_superblock_spare(m_layout, m_geometry, page, m_backend.flash().spare(page));
  const uint32_t first = group_of(offset_of(spare.lpn)) * m_layout.group_pages;
  offsets.clear();
  for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
    if (spare.page_of[k] == kNone) offsets.push_back(first + k);
  }
}

PageId SuperblockFtl::peek(Lun lun) const {
  const PageId pmd = pgd(lbn_of(lun));
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

// --- writes ----------------------------------------------------------------------------------

uint32_t SuperblockFtl::program_page(PageId page, const CacheEntry& e, uint32_t offset, Token token,
                                     OpClass op_class, uint32_t after, OpClass written_as) {
  const BlockId block = m_geometry.block_of_page(page);
  SuperblockSpare& spare = m_scratch;  // reused: no allocation per page
  spare.lpn = first_lun(e.lbn) + offset;
  spare.sequence = next_sequence();
  spare.pbmt.clear();
  for (BlockId b : blocks_of(superblock_of(e.lbn))) {
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
  return program_with_spare(page, token, m_spare.data(), op_class, after, written_as);
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
      const uint32_t carrier_offset = offset_of(di_lpn(old_pt));
      if (!unit_valid(first_lun(lbn) + carrier_offset)) old_carrier = old_pt;
    }
    e.page_of[offset] = page;
    e.pt_page[group_of(offset)] = page;
    e.head[group_of(offset)] = page;
    mark_valid(lun);
    const uint32_t wait = after != kNone ? after : map_read;
    const uint32_t op =
        program_page(page, e, offset, tokens[i], OpClass::kHostWrite, wait, OpClass::kHostWrite);
    note_superseded(op, old);
    if (old_kept) note_dead(old);
    if (old_carrier != kNone) note_dead(old_carrier);
    set_pgd(lbn, page);
  }
  --e.pins;
}

// --- garbage collection ------------------------------------------------------------------------

uint32_t SuperblockFtl::relocate(CacheEntry& e, std::vector<Move>& moves, uint32_t map_read) {
  // A copy's PMD names each group's PT page as it will be once the merge is done (a later copy,
  // maybe) and its own page as its group's: never a victim, which its PBMT leaves out. Each
  // group's PT page is copied last of its group, so it stays the group's newest page (a trimmed
  // unit's page is kept only while it is).
  std::stable_sort(moves.begin(), moves.end(), [&e, this](const Move& a, const Move& b) {
    const bool a_pt = e.pt_page[group_of(a.offset)] == a.from;
    const bool b_pt = e.pt_page[group_of(b.offset)] == b.from;
    return !a_pt && b_pt;
  });
  const uint32_t sb = superblock_of(e.lbn);
  std::vector<PageId>& to = m_pages;
  free_pages_of(sb, static_cast<uint32_t>(moves.size()), to);
  std::vector<PageId>& final_pt = m_final_pt;
  final_pt = e.pt_page;
  for (size_t k = 0; k < moves.size(); ++k) {
    e.page_of[moves[k].offset] = to[k];
    final_pt[group_of(moves[k].offset)] = to[k];
  }
  uint32_t last_program = kNone;
  for (size_t k = 0; k < moves.size(); ++k) {
    const Move& move = moves[k];
    e.pt_page = final_pt;
    e.pt_page[group_of(move.offset)] = to[k];
    const uint32_t read = m_flash.read(move.from, OpClass::kGc, map_read);
    last_program = program_page(to[k], e, move.offset, m_flash.token(move.from), OpClass::kGc, read,
                                OpClass::kGc);
    note_superseded(last_program, move.from);
    note_dead(move.from);
    set_pgd(e.lbn, to[k]);
    ++m_stats.gc_units_copied;
  }
  e.pt_page = final_pt;
  e.head = final_pt;
  return last_program;
}

}  // namespace ssd::ftl
