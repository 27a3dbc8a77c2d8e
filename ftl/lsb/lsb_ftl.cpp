#include "ftl/lsb/lsb_ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ftl/core/memory_sizes.h"
#include "ftl/lsb/lsb_settings.h"
#include "ftl/superblock_frame/frame_recovery.h"

namespace ssd::ftl {

namespace {

// One MIW always makes a PMD page fit: the copy holds current data and the group's whole PT, every
// PTE then goes through it, and the PBMT names at most the other N - 1 groups' blocks and the
// copy's.
constexpr uint32_t kMaxMiws = 1;

LsbSpareLayout layout_of(const SchemeContext& context) {
  const LsbSettings& s = context.platform.ftl.settings.get<LsbSettings>();
  const uint32_t pages_per_block = context.platform.nand.pages_per_block;
  const uint32_t group_pages =
      s.pages_per_group != 0 ? s.pages_per_group : pages_per_block / s.groups_per_block;
  return LsbSpareLayout::of(s.groups_per_block, group_pages, pages_per_block,
                            context.platform.nand.spare_bytes, s.di_bytes, s.pbn_bytes);
}

SuperblockFrame::Shape shape_of(const SchemeContext& context) {
  const LsbSettings& s = context.platform.ftl.settings.get<LsbSettings>();
  const LsbSpareLayout l = layout_of(context);
  SuperblockFrame::Shape shape;
  shape.superblock_blocks = s.superblock_blocks;
  shape.max_blocks = 0;  // PBMTs per group and per page: no cap on a superblock's blocks
  shape.groups = l.groups;
  shape.group_pages = l.group_pages;
  shape.cache_entries = s.cache_entries;
  shape.spare_bytes = l.spare_bytes;
  shape.di_bytes = s.di_bytes;
  // Superblocks of hundreds of blocks up to the whole device: blocks come from every plane, as
  // from the paper's one flash module.
  shape.any_plane = true;
  return shape;
}

bool contains(const std::vector<BlockId>& blocks, BlockId block) {
  return std::find(blocks.begin(), blocks.end(), block) != blocks.end();
}

}  // namespace

LsbFtl::LsbFtl(const SchemeContext& context)
    : SuperblockFrame(context, "lsb", shape_of(context)), m_layout(layout_of(context)) {
  m_view.assign(cache_size(), std::vector<PageId>(m_geometry.pages_per_block, kNone));
  m_spare.assign(m_layout.spare_words(), 0);
  m_pgd_entry_bytes = bytes_to_name(m_geometry.pages());
  // The paper's entry: a one-entry PMD, N PTs of G entries and a PBN per page (300 bytes for
  // N = G = 8 by its count; ours counts entries of delta + beta bits).
  const uint32_t pages = m_layout.groups * m_layout.group_pages;
  m_cache_entry_bytes =
      ((1 + pages) * (m_layout.delta + m_layout.beta) + 7) / 8 + pages * m_layout.pbn_bits / 8;
  m_entry_bytes = m_pgd_entry_bytes;
}

uint64_t LsbFtl::mapping_memory_bytes() const {
  return uint64_t(logical_blocks()) * m_pgd_entry_bytes +
         uint64_t(m_geometry.blocks()) * bytes_to_name(m_geometry.blocks()) +
         cache_size() * m_cache_entry_bytes + valid_bitmap_bytes();
}

std::vector<MappingFigure> LsbFtl::mapping_figures() const {
  std::vector<MappingFigure> figures = frame_figures();
  figures.push_back({"miw_writes", double(m_miw_writes), true});
  figures.push_back({"pmd_pages", double(m_pmd_pages), true});
  figures.push_back({"pt_pages", double(m_pt_pages), true});
  return figures;
}

// --- translation -----------------------------------------------------------------------------

template <class ReadPt>
bool LsbFtl::resolve_group(PageId mapper, const LsbSpare& spare, ReadPt read_pt,
                           GroupMap& out) const {
  out.head = mapper;
  out.pt_page = kNone;
  out.pages.assign(m_layout.group_pages, kNone);
  out.view.assign(m_layout.group_pages, kNone);
  if (mapper == kNone) return true;
  // Every location is checked (names()): a copy erased since (a trimmed unit's) names nothing, a
  // map page that is not what its namer says fails the group.
  const Lun first = spare.lpn - (spare.lpn % m_geometry.pages_per_block) % m_layout.group_pages;
  prefetch_dis(spare.pte);
  for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
    if (names(spare.pte[k], first + k, 1, spare.sequence)) out.pages[k] = spare.pte[k];
  }
  if (!spare.pmd) {  // a PT page: its PTEs name every page of the group
    out.pt_page = mapper;
    out.view.assign(spare.pte.begin(), spare.pte.end());
    return true;
  }
  const PageId pt = pt_page_named_by(spare);
  if (pt == kNone) return true;  // every PTE is direct
  if (!names(pt, first, m_layout.group_pages, spare.sequence)) return false;
  const LsbSpare& table = read_pt(pt);
  if (table.pmd) return false;  // a PMD page's PT page has the PT format
  out.pt_page = pt;
  out.view.assign(table.pte.begin(), table.pte.end());
  prefetch_dis(table.pte);
  for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
    if (spare.pte[k] != pt) continue;  // indirect: through the PT page
    // The PMD page vouches for what the PT page records of this page (build_pmd: the record is
    // where the page still is, even if the PT page wrote it of an older copy at that place).
    out.pages[k] = names(table.pte[k], first + k, 1, spare.sequence) ? table.pte[k] : kNone;
  }
  return true;
}

PageId LsbFtl::pt_page_named_by(const LsbSpare& spare) {
  for (size_t k = 0; k < spare.pte.size(); ++k) {
    if (spare.pte[k] == kNone) continue;
    for (size_t other = k + 1; other < spare.pte.size(); ++other) {
      if (spare.pte[other] == spare.pte[k]) return spare.pte[k];
    }
  }
  return kNone;
}

void LsbFtl::load(CacheEntry& e, PageId pmd, OpClass op_class, uint32_t& after) {
  bool holds = resolve(e, pmd, op_class, after);
  // What the PTEs still name of trimmed units is not theirs any more.
  for (uint32_t offset = 0; holds && offset < m_geometry.pages_per_block; ++offset) {
    if (offset >= units_in(e.lbn) || !unit_valid(first_lun(e.lbn) + offset)) {
      e.page_of[offset] = kNone;
    } else {
      holds = e.page_of[offset] != kNone;
    }
  }
  if (!holds) {
    throw std::logic_error("LSB FTL: the map of logical block " + std::to_string(e.lbn) +
                           " on flash is not the one kept");
  }
}

bool LsbFtl::resolve(CacheEntry& e, PageId pmd, OpClass op_class, uint32_t& after) {
  std::fill(e.page_of.begin(), e.page_of.end(), kNone);
  std::fill(e.pt_page.begin(), e.pt_page.end(), kNone);
  std::fill(e.head.begin(), e.head.end(), kNone);
  std::vector<PageId>& view = view_of(e);
  std::fill(view.begin(), view.end(), kNone);
  if (pmd == kNone) return true;  // never written
  const uint32_t pmd_read = read_map_spare(pmd, op_class);
  after = pmd_read;
  // Decoded into reused scratch: a miss is on the request's path.
  LsbSpare& head = m_load_head;
  decode_into(pmd, head);
  const Lun first = first_lun(e.lbn);
  if (!names(pmd, first, m_geometry.pages_per_block, di_sequence(pmd)) || !head.pmd) return false;
  const uint32_t own = group_of(offset_of(head.lpn));
  GroupMap& map = m_load_map;
  for (uint32_t group = 0; group < m_layout.groups; ++group) {
    PageId mapper = pmd;
    uint32_t mapper_read = pmd_read;
    if (group != own) {
      mapper = head.pde[group];
      if (mapper == kNone) continue;  // never written, or every page trimmed
      // The group's newest mapping page, written before the PMD page: else a cut left the map
      // half written.
      if (!names(mapper, first + group * m_layout.group_pages, m_layout.group_pages,
                 head.sequence)) {
        return false;
      }
      mapper_read = after = read_map_spare(mapper, op_class, pmd_read);
      decode_into(mapper, m_load_other);
    }
    const bool resolved = resolve_group(
        mapper, group == own ? head : m_load_other,
        [&](PageId pt) -> const LsbSpare& {
          after = read_map_spare(pt, op_class, mapper_read);
          decode_into(pt, m_load_table);
          return m_load_table;
        },
        map);
    if (!resolved) return false;
    e.head[group] = map.head;
    e.pt_page[group] = map.pt_page;
    const uint32_t begin = group * m_layout.group_pages;
    for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
      e.page_of[begin + k] = map.pages[k];
      view[begin + k] = map.view[k];
    }
  }
  return true;
}

bool LsbFtl::heads_map(PageId page) const {
  return lsb_pmd_flag(m_layout, m_backend.flash().spare(page));
}

void LsbFtl::recorded_empty(PageId page, std::vector<uint32_t>& offsets) const {
  // Both formats carry their own group's PTEs (kNone: the page held nothing then, build_pmd and
  // group_ptes); a PMD page's PDEs say which other groups had no page left (kNone).
  const LsbSpare spare = decoded(page);
  const uint32_t own = group_of(offset_of(spare.lpn));
  offsets.clear();
  for (uint32_t group = 0; group < m_layout.groups; ++group) {
    const bool emptied = group != own && spare.pmd && spare.pde[group] == kNone;
    for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
      if (group == own ? spare.pte[k] == kNone : emptied) {
        offsets.push_back(group * m_layout.group_pages + k);
      }
    }
  }
}

void LsbFtl::reset_figures() { m_miw_writes = m_pmd_pages = m_pt_pages = 0; }

std::unique_ptr<LsbFtl> LsbFtl::recovered(const SchemeContext& context) {
  auto scheme = std::make_unique<LsbFtl>(context);
  FrameRecovery(*scheme).run();
  return scheme;
}

PageId LsbFtl::peek(Lun lun) const {
  const PageId pmd = pgd(lbn_of(lun));
  if (pmd == kNone) return kNone;
  const LsbSpare head = decoded(pmd);
  const uint32_t group = group_of(offset_of(lun));
  const PageId mapper = group == group_of(offset_of(head.lpn)) ? pmd : head.pde[group];
  if (mapper == kNone) return kNone;
  GroupMap map;
  LsbSpare table;
  const bool resolved = resolve_group(
      mapper, mapper == pmd ? head : decoded(mapper),
      [&](PageId pt) -> const LsbSpare& { return table = decoded(pt); }, map);
  return resolved ? map.pages[offset_of(lun) % m_layout.group_pages] : kNone;
}

uint32_t LsbFtl::translation_reads(Lun lun) const {
  const PageId pmd = pgd(lbn_of(lun));
  if (pmd == kNone) return 0;
  const LsbSpare head = decoded(pmd);
  const uint32_t group = group_of(offset_of(lun));
  const uint32_t k = offset_of(lun) % m_layout.group_pages;
  if (group == group_of(offset_of(head.lpn))) {
    return head.pte[k] != kNone && head.pte[k] == pt_page_named_by(head) ? 2 : 1;
  }
  if (head.pde[group] == kNone) return 1;
  const LsbSpare mapper = decoded(head.pde[group]);
  if (!mapper.pmd) return 2;
  return mapper.pte[k] != kNone && mapper.pte[k] == pt_page_named_by(mapper) ? 3 : 2;
}

// --- writes ----------------------------------------------------------------------------------

void LsbFtl::touch(const CacheEntry& e, PageId page) {
  if (page == kNone || std::find(m_touched.begin(), m_touched.end(), page) != m_touched.end()) {
    return;
  }
  if (kept(e, page)) m_touched.push_back(page);
}

void LsbFtl::settle(const CacheEntry& e) {
  for (PageId page : m_touched) {
    if (!kept(e, page)) note_dead(page);
  }
  m_touched.clear();
}

PageId LsbFtl::next_page(uint32_t sb) {
  if (m_next == m_pages.size()) {
    // Only MIW copies outrun the pages found for a run: a fresh block is lent (no GC can run in
    // the middle of a run; the next request's room is found with GC first).
    if (free_pages(sb) == 0 && !lend_block(sb)) {
      throw std::runtime_error("LSB FTL: no free page left in superblock " + std::to_string(sb) +
                               " for a mapping-induced write");
    }
    free_pages_of(sb, 1, m_pages);
    m_next = 0;
  }
  return m_pages[m_next];
}

PageId LsbFtl::take_page(uint32_t sb) {
  const PageId page = next_page(sb);
  ++m_next;
  return page;
}

void LsbFtl::group_ptes(const CacheEntry& e, uint32_t group, std::vector<PageId>& ptes) const {
  const uint32_t first = group * m_layout.group_pages;
  ptes.assign(m_layout.group_pages, kNone);
  for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
    if (unit_valid(first_lun(e.lbn) + first + k)) ptes[k] = e.page_of[first + k];
  }
}

uint32_t LsbFtl::program(PageId page, LsbSpare& spare, Token token, OpClass op_class, uint32_t wait,
                         OpClass written_as) {
  const BlockId block = m_geometry.block_of_page(page);
  if (!spare.pmd) {  // a PT page's PBMT: its PTEs' blocks, on demand
    spare.pbmt.clear();
    for (PageId target : spare.pte) {
      if (target == kNone) continue;
      const BlockId b = m_geometry.block_of_page(target);
      if (b != block && !contains(spare.pbmt, b)) spare.pbmt.push_back(b);
    }
  }
  spare.sequence = next_sequence();
  std::fill(m_spare.begin(), m_spare.end(), 0u);
  encode_lsb_spare(m_layout, m_geometry, page, spare, m_spare.data());
  const uint32_t op = program_with_spare(page, token, m_spare.data(), op_class, wait, written_as);
  if (counting()) ++(spare.pmd ? m_pmd_pages : m_pt_pages);
  return op;
}

uint32_t LsbFtl::write_pt_page(CacheEntry& e, const Item& item, bool is_pt, OpClass op_class,
                               uint32_t after) {
  const PageId page = take_page(superblock_of(e.lbn));
  const uint32_t group = group_of(item.offset);
  const PageId old = e.page_of[item.offset];
  touch(e, old);
  touch(e, e.head[group]);
  if (is_pt) touch(e, e.pt_page[group]);
  e.page_of[item.offset] = page;
  mark_valid(first_lun(e.lbn) + item.offset);
  LsbSpare& spare = m_scratch;
  spare.lpn = first_lun(e.lbn) + item.offset;
  spare.pmd = false;
  spare.pde.clear();
  group_ptes(e, group, spare.pte);
  if (is_pt) {
    e.pt_page[group] = page;
    std::copy(spare.pte.begin(), spare.pte.end(),
              view_of(e).begin() + group * m_layout.group_pages);
  }
  e.head[group] = page;
  const uint32_t wait = item.from != kNone ? m_flash.read(item.from, op_class, after) : after;
  const uint32_t op = program(page, spare, item.token, op_class, wait, op_class);
  note_superseded(op, old);
  return op;
}

bool LsbFtl::build_pmd(const CacheEntry& e, PageId page, uint32_t offset, LsbSpare& spare,
                       bool& through_pt) const {
  const uint32_t group = group_of(offset);
  const uint32_t first = group * m_layout.group_pages;
  const BlockId self = m_geometry.block_of_page(page);
  const PageId pt = e.pt_page[group];
  // A PT page in a victim being merged cannot be named: its pages are named directly instead.
  const bool pt_usable = pt != kNone && held(m_geometry.block_of_page(pt));
  const std::vector<PageId>& view = view_of(e);
  spare.lpn = first_lun(e.lbn) + offset;
  spare.pmd = true;
  spare.pte.assign(m_layout.group_pages, kNone);
  spare.pde.assign(m_layout.groups, kNone);
  uint32_t covered = 0, last_covered = 0;
  for (uint32_t k = 0; k < m_layout.group_pages; ++k) {
    const uint32_t at = first + k;
    if (at == offset) {
      spare.pte[k] = page;
    } else if (unit_valid(first_lun(e.lbn) + at) && e.page_of[at] != kNone) {
      // Indirect when the PT page still records where the page is; direct when written since.
      const bool indirect = pt_usable && e.page_of[at] == view[at];
      spare.pte[k] = indirect ? pt : e.page_of[at];
      if (indirect) {
        ++covered;
        last_covered = k;
      }
    }
  }
  // A reader takes the page two or more PTEs name for the PT page (one page holds one logical
  // page): a lone PTE through it is made direct, unless the PT page holds that very page.
  if (covered == 1 && e.page_of[first + last_covered] != pt) {
    spare.pte[last_covered] = e.page_of[first + last_covered];
    covered = 0;
  }
  through_pt = covered >= 2;
  for (uint32_t n = 0; n < m_layout.groups; ++n) {
    if (n != group) spare.pde[n] = e.head[n];
  }
  // The PBMT, on demand: the PDEs' blocks first (a PDE indexes only the first N - 1 entries),
  // then the PTEs' (any of the N).
  spare.pbmt.clear();
  auto fits = [&](PageId target, size_t entries) {
    if (target == kNone) return true;
    const BlockId b = m_geometry.block_of_page(target);
    if (!held(b)) throw std::logic_error("LSB FTL: a PMD page would name a block being erased");
    if (b == self || contains(spare.pbmt, b)) return true;
    if (spare.pbmt.size() >= entries) return false;
    spare.pbmt.push_back(b);
    return true;
  };
  for (PageId target : spare.pde) {
    if (!fits(target, m_layout.groups - 1)) return false;
  }
  for (PageId target : spare.pte) {
    if (!fits(target, m_layout.groups)) return false;
  }
  return true;
}

uint32_t LsbFtl::copy_pt_page(CacheEntry& e, uint32_t group, uint32_t offset, OpClass op_class,
                              uint32_t after) {
  const uint32_t first = group * m_layout.group_pages;
  // The paper copies the old PT page. When its own page has been written since, its copy would
  // still leave that page to be named directly: a page holding current data is copied instead,
  // the group's lowest valid one (our choice), so every PTE can go through the copy.
  PageId source = e.pt_page[group];
  if (source != kNone && e.page_of[offset_of(di_lpn(source))] != source) source = kNone;
  for (uint32_t k = 0; source == kNone && k < m_layout.group_pages; ++k) {
    if (first + k != offset && unit_valid(first_lun(e.lbn) + first + k)) {
      source = e.page_of[first + k];
    }
  }
  if (source == kNone) throw std::logic_error("LSB FTL: an MIW with no page to copy");
  const uint32_t source_offset = offset_of(di_lpn(source));
  const PageId page = take_page(superblock_of(e.lbn));
  touch(e, source);
  touch(e, e.pt_page[group]);
  touch(e, e.head[group]);
  // The copy holds the source's data: the unit's newest unless written since (then the copy is
  // kept only for its PT, and the PMD page names the unit's page directly).
  if (e.page_of[source_offset] == source) e.page_of[source_offset] = page;
  LsbSpare& spare = m_scratch;
  spare.lpn = first_lun(e.lbn) + source_offset;
  spare.pmd = false;
  spare.pde.clear();
  group_ptes(e, group, spare.pte);
  spare.pte[source_offset - first] = page;
  e.pt_page[group] = page;
  e.head[group] = page;
  std::copy(spare.pte.begin(), spare.pte.end(), view_of(e).begin() + first);
  m_miw_writes += counting();
  const uint32_t read = m_flash.read(source, op_class, after);
  const uint32_t op =
      program(page, spare, m_flash.token(source), op_class, read, OpClass::kMapping);
  note_superseded(op, source);  // the copy holds the source's data
  return op;
}

uint32_t LsbFtl::write_pmd_page(CacheEntry& e, const Item& item, OpClass op_class, uint32_t after) {
  const uint32_t sb = superblock_of(e.lbn);
  const uint32_t group = group_of(item.offset);
  LsbSpare& spare = m_scratch;
  bool through_pt = false;
  // The MIW when the PBMT overflows (kMaxMiws).
  for (uint32_t copies = 0; !build_pmd(e, next_page(sb), item.offset, spare, through_pt);
       ++copies) {
    if (copies == kMaxMiws) {
      throw std::logic_error("LSB FTL: a PMD page's PBMT still overflows after an MIW");
    }
    copy_pt_page(e, group, item.offset, op_class, after);
  }
  const PageId page = take_page(sb);
  const PageId old = e.page_of[item.offset];
  touch(e, old);
  touch(e, e.head[group]);
  touch(e, e.pt_page[group]);
  e.page_of[item.offset] = page;
  mark_valid(first_lun(e.lbn) + item.offset);
  e.head[group] = page;
  if (!through_pt) e.pt_page[group] = kNone;  // no longer followed
  const uint32_t wait = item.from != kNone ? m_flash.read(item.from, op_class, after) : after;
  const uint32_t op = program(page, spare, item.token, op_class, wait, op_class);
  note_superseded(op, old);
  set_pgd(e.lbn, page);
  return op;
}

uint32_t LsbFtl::write_run(CacheEntry& e, const std::vector<Item>& items, OpClass op_class,
                           uint32_t after) {
  const size_t n = items.size();
  for (size_t i = 0; i + 1 < n; ++i) {
    // The last page written of a group is its PT page, and so is the next-to-last of the run.
    const bool ends_group = group_of(items[i + 1].offset) != group_of(items[i].offset);
    write_pt_page(e, items[i], ends_group || i + 2 == n, op_class, after);
  }
  return write_pmd_page(e, items[n - 1], op_class, after);
}

void LsbFtl::write_units(uint32_t lbn, uint32_t first, const Token* tokens, uint32_t count,
                         uint32_t after) {
  const uint32_t sb = superblock_of(lbn);
  uint32_t map_read = kNone;
  CacheEntry& e = entry(lbn, OpClass::kHostWrite, map_read);
  ++e.pins;
  reserve(sb, count);  // before any page is written (GC may move this block)
  free_pages_of(sb, count, m_pages);
  m_next = 0;
  m_items.clear();
  for (uint32_t i = 0; i < count; ++i) m_items.push_back({first + i, tokens[i], kNone});
  m_touched.clear();
  write_run(e, m_items, OpClass::kHostWrite, after != kNone ? after : map_read);
  settle(e);
  --e.pins;
}

// --- garbage collection ------------------------------------------------------------------------

uint32_t LsbFtl::relocate(CacheEntry& e, std::vector<Move>& moves, uint32_t map_read) {
  const uint32_t sb = superblock_of(e.lbn);
  m_touched.clear();
  m_items.clear();
  std::vector<uint8_t>& remap = m_remap;          // per group: its map is in a victim
  std::vector<uint8_t>& rewritten = m_rewritten;  // per group: a page of it is in the run
  remap.assign(m_layout.groups, 0);
  rewritten.assign(m_layout.groups, 0);
  for (const Move& move : moves) {
    touch(e, move.from);
    const uint32_t group = group_of(move.offset);
    if (e.page_of[move.offset] == move.from && unit_valid(first_lun(e.lbn) + move.offset)) {
      m_items.push_back({move.offset, m_flash.token(move.from), move.from});
      rewritten[group] = 1;
    } else {
      remap[group] = 1;  // kept only for its map
    }
  }
  // The lowest valid page of `group` (of the whole block when kNone), copied to carry a map.
  auto copy_lowest = [&](uint32_t from, uint32_t to) {
    for (uint32_t at = from; at < to; ++at) {
      if (unit_valid(first_lun(e.lbn) + at) && e.page_of[at] != kNone) {
        m_items.push_back({at, m_flash.token(e.page_of[at]), e.page_of[at]});
        rewritten[group_of(at)] = 1;
        return true;
      }
    }
    return false;
  };
  bool dropped = false;
  for (uint32_t group = 0; group < m_layout.groups; ++group) {
    if (!remap[group] || rewritten[group]) continue;
    if (!copy_lowest(group * m_layout.group_pages, (group + 1) * m_layout.group_pages)) {
      touch(e, e.pt_page[group]);  // nothing valid left in the group: its map goes
      touch(e, e.head[group]);
      e.pt_page[group] = e.head[group] = kNone;
      dropped = true;
    }
  }
  // Nothing written, but the PGD's PMD page is in a victim or names a dropped group's page:
  // another page becomes the PMD page, or with no valid page left the block's map goes.
  const PageId newest = pgd(e.lbn);
  const bool newest_gone = newest != kNone && !held(m_geometry.block_of_page(newest));
  if (m_items.empty() && (newest_gone || (dropped && newest != kNone)) &&
      !copy_lowest(0, m_geometry.pages_per_block)) {
    for (uint32_t group = 0; group < m_layout.groups; ++group) {
      touch(e, e.pt_page[group]);
      touch(e, e.head[group]);
      e.pt_page[group] = e.head[group] = kNone;
    }
    set_pgd(e.lbn, kNone);
  }
  uint32_t last_program = kNone;
  if (!m_items.empty()) {
    std::sort(m_items.begin(), m_items.end(),
              [](const Item& a, const Item& b) { return a.offset < b.offset; });
    free_pages_of(sb, std::min<uint32_t>(free_pages(sb), uint32_t(m_items.size())), m_pages);
    m_next = 0;
    last_program = write_run(e, m_items, OpClass::kGc, map_read);
    m_stats.gc_units_copied += m_items.size();
  }
  settle(e);
  for (const Move& move : moves) {
    if (kept(e, move.from)) throw std::logic_error("LSB FTL: a merge left its victim in the map");
  }
  return last_program;
}

}  // namespace ssd::ftl
