#include "ftl/nftl/nftl.h"

#include <algorithm>

#include "ftl/core/memory_sizes.h"
#include "ftl/nftl/nftl_settings.h"

namespace ssd::ftl {

namespace {
TranslationCacheOptions cache_options(const NftlSettings& settings) {
  return TranslationCacheOptions{settings.cache, settings.cache_bytes, settings.lmt_fanout};
}
}  // namespace

Nftl::Nftl(const SchemeContext& context)
    : BlockScheme(context, "nftl"),
      m_cache(
          make_translation_cache(cache_options(context.platform.ftl.settings.get<NftlSettings>()))),
      m_fill_on_read(context.platform.ftl.settings.get<NftlSettings>().cache_fill_on_read),
      m_forget_on_fold(context.platform.ftl.settings.get<NftlSettings>().cache_on_fold == "forget"),
      m_cache_bytes(m_cache ? context.platform.ftl.settings.get<NftlSettings>().cache_bytes : 0),
      m_prices(context.platform.controller),
      m_chains(logical_blocks()),
      m_with_replacement(m_geometry.planes()),
      m_position(logical_blocks(), kNone),
      m_newest(m_geometry.pages_per_block, kNone) {
  m_entry_bytes =
      2 * (bytes_to_name(m_geometry.blocks()) + bytes_to_name(m_geometry.pages_per_block + 1));
}

uint64_t Nftl::mapping_memory_bytes() const {
  return uint64_t(logical_blocks()) * m_entry_bytes + valid_bitmap_bytes() + m_cache_bytes;
}

std::vector<MappingFigure> Nftl::mapping_figures() const {
  const CacheTotals& t = m_cache_totals;
  const auto per = [](double total, uint64_t count) { return count == 0 ? 0.0 : total / count; };
  const double us_per_cycle = 1.0 / m_prices.cpu_mhz;
  return {
      {"search_spare_reads", double(m_search_spare_reads), true},
      {"searches", double(m_searches), true},
      {"cache_lookups", double(t.lookups), true},
      {"cache_hits", double(t.hits), true},
      {"cache_insertions", double(t.insertions), true},
      {"cache_bytes_used", m_cache ? double(m_cache->memory_bytes()) : 0.0, true},
      {"cache_lookup_us_mean",
       per(mapping_cycles(t.lookup_work, m_prices) * us_per_cycle, t.lookups), false},
      {"cache_insertion_us_mean",
       per(mapping_cycles(t.insertion_work, m_prices) * us_per_cycle, t.insertions), false},
      {"cache_lookup_tree_nodes_mean", per(double(t.lookup_work.tree_nodes), t.lookups), false},
      {"cache_lookup_list_steps_mean", per(double(t.lookup_work.list_steps), t.lookups), false},
      {"cache_insertion_list_steps_mean", per(double(t.insertion_work.list_steps), t.insertions),
       false},
      {"cache_insertion_unit_merges_mean", per(double(t.insertion_work.unit_merges), t.insertions),
       false},
  };
}

std::optional<double> Nftl::cache_hit_ratio() const {
  if (!m_cache || m_cache_totals.lookups == 0) return std::nullopt;
  return double(m_cache_totals.hits) / double(m_cache_totals.lookups);
}

PageId Nftl::cache_lookup(Lun lun) {
  CpuWork spent;
  const PageId page = m_cache->lookup(lun, spent);
  m_backend.cpu() += spent;
  if (m_backend.recording()) {
    ++m_cache_totals.lookups;
    m_cache_totals.hits += page != kNone;
    m_cache_totals.lookup_work += spent;
  }
  return page;
}

void Nftl::tell_cache(CacheCall call, Lun lun, PageId page, uint32_t count) {
  CpuWork spent;
  switch (call) {
    case CacheCall::kInsert:
      m_cache->insert(lun, page, count, spent);
      break;
    case CacheCall::kRelocate:
      m_cache->relocate(lun, page, count, spent);
      break;
    case CacheCall::kForget:
      m_cache->forget(lun, count, spent);
      break;
  }
  m_backend.cpu() += spent;
  if (m_backend.recording()) {
    ++m_cache_totals.insertions;
    m_cache_totals.insertion_work += spent;
  }
}

uint32_t Nftl::blocks_held() const {
  uint32_t held = 0;
  for (const Chain& c : m_chains) held += (c.primary != kNone) + (c.replacement != kNone);
  return held;
}

void Nftl::describe_roles(std::vector<AgedRole>& roles) const {
  for (uint32_t vba = 0; vba < m_chains.size(); ++vba) {
    const Chain& c = m_chains[vba];
    if (c.primary != kNone) roles[c.primary] = {vba, kPrimaryRole};
    if (c.replacement != kNone) roles[c.replacement] = {vba, kReplacementRole};
  }
}

void Nftl::adopt_aged_block(uint32_t vba, uint32_t role, BlockId block) {
  if (role == kPrimaryRole) {
    m_chains[vba].primary = block;
  } else {
    add_replacement(vba, block);
  }
}

PageId Nftl::newest_in_replacement(BlockId replacement, Lun lun) const {
  for (uint32_t p = m_flash.next_free(replacement); p-- > 0;) {
    const PageId page = m_flash.page(replacement, p);
    if (m_flash.names_unit(page) && m_flash.lun_in(page) == lun) return page;
  }
  return kNone;
}

PageId Nftl::peek(Lun lun) const {
  const Chain& c = m_chains[lbn_of(lun)];
  if (c.replacement != kNone) {
    const PageId page = newest_in_replacement(c.replacement, lun);
    if (page != kNone) return page;
  }
  return c.primary == kNone ? kNone : m_flash.page(c.primary, offset_of(lun));
}

PageId Nftl::locate(Lun lun, OpClass op_class, uint32_t& after) {
  if (m_cache) {
    const PageId cached = cache_lookup(lun);
    if (cached != kNone) return cached;
  }
  const PageId found = search(lun, op_class, after);
  if (m_cache && m_fill_on_read) tell_cache(CacheCall::kInsert, lun, found, 1);
  return found;
}

PageId Nftl::search(Lun lun, OpClass op_class, uint32_t& after) {
  const Chain& c = m_chains[lbn_of(lun)];
  if (m_backend.recording()) ++m_searches;
  if (c.replacement != kNone) {
    // Backwards from the last written page, one spare-area read each, each waiting for the one
    // before (the firmware looks at every answer before it asks for the next page).
    const PageId found = newest_in_replacement(c.replacement, lun);
    const uint32_t stop = found == kNone ? 0 : m_geometry.page_in_block(found);
    for (uint32_t p = m_flash.next_free(c.replacement); p-- > stop;) {
      after = m_flash.read_spare(m_flash.page(c.replacement, p), op_class, after);
      ++m_backend.cpu().list_steps;
      if (m_backend.recording()) ++m_search_spare_reads;
    }
    if (found != kNone) return found;
  }
  return m_flash.page(c.primary, offset_of(lun));
}

void Nftl::write_units(uint32_t vba, uint32_t first, const Token* tokens, uint32_t count,
                       uint32_t after) {
  for (uint32_t k = 0; k < count; ++k) write_unit(vba, first + k, tokens[k], after);
}

void Nftl::write_unit(uint32_t vba, uint32_t offset, Token token, uint32_t after) {
  Chain& c = m_chains[vba];
  const Lun lun = first_lun(vba) + offset;
  if (c.primary == kNone) c.primary = take_block(vba);
  if (c.replacement == kNone && offset < m_flash.next_free(c.primary)) {
    add_replacement(vba, take_block(vba, /*replacement=*/true));
  }
  PageId page = kNone;
  if (offset >= m_flash.next_free(c.primary)) {  // the page at its offset is still free
    page = m_flash.page(c.primary, offset);
    m_flash.program(c.primary, offset, lun, token, OpClass::kHostWrite, after);
  } else if (m_flash.full(c.replacement)) {
    fold(vba, offset, token, after);  // counts the unit as written
    page = m_flash.page(c.primary, offset);
  } else {
    page = m_flash.page(c.replacement, m_flash.next_free(c.replacement));
    m_flash.program(c.replacement, m_flash.next_free(c.replacement), lun, token,
                    OpClass::kHostWrite, after);
  }
  mark_valid(lun);
  if (m_cache) tell_cache(CacheCall::kInsert, lun, page, 1);
}

BlockId Nftl::take_block(uint32_t vba, bool replacement) {
  const uint32_t plane = home_plane(vba);
  // Each fold takes one block and frees two; keeping the reserve means a fold always has one.
  while (m_flash.free_blocks(plane) < m_flash.blocks().gc_reserve_blocks()) {
    const uint32_t victim = fold_victim(plane);
    if (victim == kNone) break;
    fold(victim);
  }
  return m_flash.allocate(plane, replacement);
}

uint32_t Nftl::fold_victim(uint32_t plane) const {
  uint32_t best = kNone;
  uint32_t best_used = 0;
  for (const uint32_t vba : m_with_replacement[plane]) {
    const uint32_t used = m_flash.next_free(m_chains[vba].replacement);
    if (best == kNone || used > best_used || (used == best_used && vba < best)) {
      best = vba;
      best_used = used;
    }
  }
  return best;
}

void Nftl::fold(uint32_t vba, uint32_t incoming_offset, Token incoming_token,
                uint32_t incoming_after) {
  Chain& c = m_chains[vba];
  const BlockId primary = c.primary;
  const BlockId replacement = c.replacement;
  // Which page holds each offset's newest copy: read every spare area of the replacement block,
  // newest first.
  std::fill(m_newest.begin(), m_newest.end(), kNone);
  for (uint32_t p = m_flash.next_free(replacement); p-- > 0;) {
    const PageId page = m_flash.page(replacement, p);
    m_flash.read_spare(page, OpClass::kGc);
    if (!m_flash.names_unit(page)) continue;  // torn by a power cut
    const Lun lun = m_flash.lun_in(page);
    if (m_newest[offset_of(lun)] == kNone) m_newest[offset_of(lun)] = page;
  }
  const BlockId fresh = m_flash.allocate(home_plane(vba));
  ++m_stats.gc_invocations;
  const uint32_t last = m_flash.fill(fresh, 0, first_lun(vba), [&](uint32_t offset) {
    if (offset == incoming_offset) return MergeSource::fresh(incoming_token, incoming_after);
    return live_copy(vba, offset, [&](Lun lun) {
      const PageId newest = m_newest[offset_of(lun)];
      return newest != kNone ? newest : m_flash.page(primary, offset_of(lun));
    });
  });
  m_flash.erase(primary, last);
  m_flash.erase(replacement, last);
  drop_replacement(vba);
  c.primary = fresh;
  // Every unit of the virtual block now sits at its offset in the fresh block (units that hold
  // no data are never looked up, so the whole block may be named at once).
  if (m_cache) {
    tell_cache(m_forget_on_fold ? CacheCall::kForget : CacheCall::kRelocate, first_lun(vba),
               m_flash.page(fresh, 0), units_in(vba));
  }
}

void Nftl::add_replacement(uint32_t vba, BlockId block) {
  auto& list = m_with_replacement[home_plane(vba)];
  m_position[vba] = static_cast<uint32_t>(list.size());
  list.push_back(vba);
  m_chains[vba].replacement = block;
}

void Nftl::drop_replacement(uint32_t vba) {
  auto& list = m_with_replacement[home_plane(vba)];
  const uint32_t at = m_position[vba];
  list[at] = list.back();
  m_position[list[at]] = at;
  list.pop_back();
  m_position[vba] = kNone;
  m_chains[vba].replacement = kNone;
}

}  // namespace ssd::ftl
