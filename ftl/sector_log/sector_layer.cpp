#include "ftl/sector_log/sector_layer.h"

#include <stdexcept>

#include "ftl/core/content_token.h"
#include "ftl/core/unit_span.h"
#include "ftl/sector_log/sector_log_settings.h"

namespace ssd::ftl {

namespace {

uint32_t sectors_in(uint64_t mask) { return static_cast<uint32_t>(__builtin_popcountll(mask)); }

Token sum_of(const Token* tokens, uint64_t sectors) {
  Token sum = 0;
  for (uint64_t m = sectors; m != 0; m &= m - 1) sum += tokens[__builtin_ctzll(m)];
  return sum;
}

uint32_t log_blocks(const config::PlatformConfig& platform, const Geometry& geometry) {
  const uint64_t block_bytes = uint64_t{geometry.pages_per_block} * geometry.page_bytes;
  return static_cast<uint32_t>(platform.ftl.settings.get<SectorLogSettings>().size_bytes /
                               block_bytes);
}

}  // namespace

SectorLayer::SectorLayer(const SchemeContext& context, std::unique_ptr<MappingScheme> below,
                         BlockLender& lender, std::unique_ptr<LowerScheme> lower, Start start)
    : m_backend(context.backend),
      m_geometry(context.backend.geometry()),
      m_oracle(context.oracle),
      m_below(std::move(below)),
      m_lower(std::move(lower)),
      m_dram_budget(context.platform.ftl.settings.get<WriteBufferSettings>().bytes),
      m_buffer(m_geometry.sectors_per_unit),
      m_shadow_tokens(m_geometry.sectors_per_unit),
      m_tokens(m_geometry.sectors_per_unit, 0) {
  const uint32_t blocks = log_blocks(context.platform, m_geometry);
  if (blocks > 0) {
    m_log.emplace(
        m_backend, lender, static_cast<SectorLog::MergeSink&>(*this), blocks,
        context.platform.ftl.settings.get<SectorLogSettings>().hash_buckets,
        start == Start::kAfterCut ? SectorLog::Start::kAfterCut : SectorLog::Start::kFresh);
    m_power_safe = m_log->layout().recoverable;
  }
  if (start == Start::kAfterCut) recover();
}

void SectorLayer::recover() {
  // The buffer and the log's page buffer were DRAM: gone. The log comes back from its blocks.
  if (m_log) m_log->recover(m_lower->lent_blocks());
  take_map_work();
  m_backend.end_batch();
  // What the recovery did is not the run's: its merges are not GC, its searches not the host's.
  m_counts = SectorLayerCounts{};
  if (m_log) m_log->restart_counts();
  m_recovery_stats = m_below->stats();
  m_peak_dram = dram_bytes();
}

const FtlStats& SectorLayer::stats() const {
  const FtlStats& below = m_below->stats();
  m_stats.gc_invocations = below.gc_invocations - m_recovery_stats.gc_invocations;
  m_stats.gc_units_copied = below.gc_units_copied - m_recovery_stats.gc_units_copied;
  m_stats.gc_erases = below.gc_erases - m_recovery_stats.gc_erases;
  return m_stats;
}

uint64_t SectorLayer::buffer_capacity_pages() const {
  const uint64_t map = m_log ? m_log->memory_bytes() : 0;
  return m_dram_budget > map ? (m_dram_budget - map) / m_geometry.unit_bytes : 0;
}

uint64_t SectorLayer::dram_bytes() const {
  return m_buffer.lines() * m_geometry.unit_bytes + (m_log ? m_log->memory_bytes() : 0);
}

uint64_t SectorLayer::held_uncounted(Lun lpn) const {
  return m_buffer.dirty(lpn) | (m_log ? m_log->held_uncounted(lpn) : 0);
}

void SectorLayer::write(const HostCommand& command) {
  // A FUA write's logged sectors must not outrun the copies below they patch (set_program_barrier);
  // FtlDevice serves it as this write, then flush() with the same command.
  if (m_power_safe) m_log->set_program_barrier(command.fua);
  const uint32_t spu = m_geometry.sectors_per_unit;
  const UnitSpan span = unit_span(command.start_sector, command.sector_count, spu);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lpn = span.first + i;
    const uint64_t sectors = span.mask_of(i);
    const uint64_t first_sector = uint64_t{lpn} * spu;
    for (uint64_t m = sectors; m != 0; m &= m - 1) {
      const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
      m_tokens[s] = sector_token(command.id, first_sector + s);
    }
    ++m_counts.host_writes;
    if (sectors != span.full_mask) ++m_counts.host_subpage_writes;
    note_entering(lpn, sectors & ~held_uncounted(lpn));
    if (m_dram_budget == 0) {
      write_down(lpn, sectors, m_tokens.data());
      continue;
    }
    m_backend.dram(true, sectors_in(sectors) * m_geometry.sector_bytes, OpClass::kHostWrite);
    if (m_buffer.write(lpn, sectors, m_tokens.data(), true)) ++m_counts.buffer_hits;
    fit_dram();
  }
  take_map_work();
}

void SectorLayer::fit_dram() {
  if (m_dram_budget == 0) return;
  while (dram_bytes() > m_dram_budget) {
    if (!m_buffer.empty()) {
      ++m_counts.buffer_evictions;
      evict_oldest();
      continue;
    }
    if (!m_log || !m_log->clean_tail()) break;  // the rules leave room for one log block's map
  }
  const uint64_t now = dram_bytes();
  if (now > m_peak_dram) m_peak_dram = now;
}

void SectorLayer::evict_oldest() {
  m_buffer.evict_oldest(m_victim);
  m_backend.dram(false, sectors_in(m_victim.dirty) * m_geometry.sector_bytes, OpClass::kHostWrite);
  write_down(static_cast<Lun>(m_victim.line), m_victim.dirty, m_victim.tokens.data());
}

void SectorLayer::write_down(Lun lpn, uint64_t sectors, const Token* tokens) {
  const uint64_t full = low_sectors(m_geometry.sectors_per_unit);
  if (sectors == full) {  // a full page: straight to the scheme; older logged sectors are stale
    write_page_below(lpn, sum_of(tokens, full));
    if (m_log) m_log->drop(lpn);
    prune_shadow(lpn);
    return;
  }
  ++m_counts.subpage_down;
  m_counts.subpage_down_sectors += sectors_in(sectors);
  // Logged sectors patch the scheme's copy: with power cuts, a page it does not map is written
  // whole instead (sector_layer.h, "Power loss").
  if (m_log && (!m_power_safe || m_lower->maps(lpn))) {
    m_log->write(lpn, sectors, tokens);
    return;
  }
  // No log: the page is read, merged and written whole (a read-modify-write).
  const Token below = read_page_below(lpn);
  ++m_counts.merge_reads;
  write_page_below(lpn, below - shadow_sum(lpn, sectors) + sum_of(tokens, sectors));
  prune_shadow(lpn);
}

void SectorLayer::merge_to_ftl(Lun lpn, uint64_t sectors, const Token* tokens) {
  const uint64_t full = low_sectors(m_geometry.sectors_per_unit);
  Token merged = sum_of(tokens, sectors);
  if (sectors != full) {
    merged += read_page_below(lpn) - shadow_sum(lpn, sectors);
    ++m_counts.merge_reads;
  }
  write_page_below(lpn, merged);
  note_written_below(lpn, sectors, tokens, merged);
  prune_shadow(lpn);
}

Token SectorLayer::copy_token(Lun lpn) const {
  const auto found = m_shadow.find(lpn);
  return found != m_shadow.end() ? found->second.base : m_lower->copy_token(lpn);
}

Token SectorLayer::copy_token_under(Lun lpn, uint32_t sector) const {
  const auto found = m_shadow.find(lpn);
  if (found == m_shadow.end() || (found->second.known >> sector & 1) == 0) return 0;
  return m_shadow_tokens.at(found->second.tokens)[sector];
}

void SectorLayer::flush_below() {
  HostCommand command;
  command.kind = CommandKind::kFlush;
  m_below->flush(command);
}

void SectorLayer::recovered_sector(Lun lpn, uint32_t sector, Token under) {
  Shadow& shadow = shadow_of(lpn);
  m_shadow_tokens.at(shadow.tokens)[sector] = under;
  shadow.known |= uint64_t{1} << sector;
}

void SectorLayer::write_page_below(Lun lpn, Token token) {
  HostCommand command;
  command.kind = CommandKind::kWrite;
  command.start_sector = uint64_t{lpn} * m_geometry.sectors_per_unit;
  command.sector_count = m_geometry.sectors_per_unit;
  command.unit_tokens = &token;
  m_below->write(command);
  ++m_counts.ftl_page_writes;
}

Token SectorLayer::read_page_below(Lun lpn) {
  HostCommand command;
  command.kind = CommandKind::kRead;
  command.start_sector = uint64_t{lpn} * m_geometry.sectors_per_unit;
  command.sector_count = m_geometry.sectors_per_unit;
  // The scheme delivers the page after what the layer delivered so far; the layer takes it back
  // and delivers the unit it assembles instead.
  const size_t before = m_backend.delivered().size();
  m_below->read(command);
  if (m_backend.delivered().size() != before + 1) {
    throw std::logic_error("the scheme below delivered no single page for a one-page read");
  }
  ++m_counts.ftl_page_reads;
  return m_backend.take_last_delivered().token;
}

void SectorLayer::read(const HostCommand& command) {
  const uint32_t spu = m_geometry.sectors_per_unit;
  const UnitSpan span = unit_span(command.start_sector, command.sector_count, spu);
  for (uint32_t i = 0; i < span.count; ++i) {
    const Lun lpn = span.first + i;
    const uint64_t wanted = span.mask_of(i);
    const uint64_t in_buffer = m_buffer.dirty(lpn);
    const uint64_t in_log = m_log ? m_log->held(lpn) & ~in_buffer : 0;
    const uint64_t held = in_buffer | in_log;
    // The newest copy of every held sector: the buffer's, else the log's (read from flash only
    // where the command asks for it).
    if (in_buffer != 0) {
      const Token* buffered = m_buffer.tokens(lpn);
      for (uint64_t m = in_buffer; m != 0; m &= m - 1) {
        m_tokens[__builtin_ctzll(m)] = buffered[__builtin_ctzll(m)];
      }
      m_backend.dram(false, sectors_in(in_buffer & wanted) * m_geometry.sector_bytes,
                     OpClass::kHostRead);
    }
    if (in_log != 0) {
      m_log->read(lpn, in_log & wanted, m_tokens.data(), OpClass::kHostRead);
      m_log->peek(lpn, in_log & ~wanted, m_tokens.data());
    }
    if ((held & wanted) == wanted) {  // served by the layer alone
      ++m_counts.reads_from_layer;
      const bool whole = wanted == span.full_mask;
      m_backend.deliver(lpn, sum_of(m_tokens.data(), wanted), whole ? 0 : wanted);
      continue;
    }
    const Token below = read_page_below(lpn);
    const Token page = below - shadow_sum(lpn, held) + sum_of(m_tokens.data(), held);
    m_backend.deliver(lpn, page);
  }
  take_map_work();
}

void SectorLayer::trim(const HostCommand& command) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    if (span.mask_of(i) != span.full_mask) continue;  // advisory: whole pages only
    const Lun lpn = span.first + i;
    m_buffer.drop(lpn);
    if (m_log) m_log->drop(lpn);
    prune_shadow(lpn);
  }
  m_below->trim(command);
  take_map_work();
}

void SectorLayer::flush(const HostCommand& command) {
  // Everything the layer holds goes down before the scheme's own flush: the buffer's pages to the
  // log or the scheme, then the log's page buffer to flash. A flush completes when every
  // operation issued before it has; a FUA write's flush when its own have (write()).
  while (!m_buffer.empty()) evict_oldest();
  if (m_log) m_log->flush();
  m_below->flush(command);
  if (m_power_safe) m_log->set_program_barrier(false);
  take_map_work();
}

SectorLayer::Shadow& SectorLayer::shadow_of(Lun lpn) {
  auto found = m_shadow.find(lpn);
  if (found == m_shadow.end()) {
    found =
        m_shadow.emplace(lpn, Shadow{m_shadow_tokens.acquire(), 0, m_lower->copy_token(lpn)}).first;
  }
  return found->second;
}

void SectorLayer::note_entering(Lun lpn, uint64_t sectors) {
  if (sectors == 0) return;
  Shadow& shadow = shadow_of(lpn);
  Token* tokens = m_shadow_tokens.at(shadow.tokens);
  const uint64_t first_sector = uint64_t{lpn} * m_geometry.sectors_per_unit;
  for (uint64_t m = sectors; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    tokens[s] = m_oracle != nullptr ? m_oracle->sector(first_sector + s) : 0;
  }
  shadow.known |= sectors;
}

void SectorLayer::note_written_below(Lun lpn, uint64_t sectors, const Token* tokens, Token copy) {
  const auto found = m_shadow.find(lpn);
  if (found == m_shadow.end()) return;
  Token* kept = m_shadow_tokens.at(found->second.tokens);
  for (uint64_t m = sectors; m != 0; m &= m - 1) {
    const auto s = static_cast<uint32_t>(__builtin_ctzll(m));
    kept[s] = tokens[s];
  }
  found->second.base = copy;
}

void SectorLayer::prune_shadow(Lun lpn) {
  if (held_uncounted(lpn) != 0) return;
  const auto found = m_shadow.find(lpn);
  if (found == m_shadow.end()) return;
  m_shadow_tokens.release(found->second.tokens);
  m_shadow.erase(found);
}

Token SectorLayer::shadow_sum(Lun lpn, uint64_t sectors) const {
  const auto found = m_shadow.find(lpn);
  if (found == m_shadow.end()) return 0;
  return sum_of(m_shadow_tokens.at(found->second.tokens), sectors & found->second.known);
}

void SectorLayer::take_map_work() {
  if (!m_log) return;
  m_backend.cpu().hash_probes += m_log->map().take_probes();
  m_backend.cpu().list_steps += m_log->map().take_steps();
}

void SectorLayer::start_measuring() {
  m_below->start_measuring();
  m_counts = SectorLayerCounts{};
  if (m_log) m_log->restart_counts();
}

uint64_t SectorLayer::mapping_memory_bytes() const {
  return m_below->mapping_memory_bytes() + (m_log ? m_log->map().memory_bytes() : 0);
}

std::vector<MappingFigure> SectorLayer::mapping_figures() const {
  std::vector<MappingFigure> figures = m_below->mapping_figures();
  const auto ratio = [](uint64_t part, uint64_t whole) {
    return whole == 0 ? 0.0 : double(part) / double(whole);
  };
  const SectorLogCounts none{};
  const SectorLogCounts& log = m_log ? m_log->counts() : none;
  const uint64_t searches = m_log ? m_log->map().searches() : 0;
  const uint64_t visited = m_log ? m_log->map().visited() : 0;
  const std::vector<MappingFigure> mine = {
      {"subpage_writes", double(m_counts.host_subpage_writes)},
      {"buffer_hit_ratio", ratio(m_counts.buffer_hits, m_counts.host_writes), false},
      {"buffer_evictions", double(m_counts.buffer_evictions)},
      {"dram_peak_bytes", double(m_peak_dram)},
      {"ftl_page_reads", double(m_counts.ftl_page_reads)},
      {"ftl_page_writes", double(m_counts.ftl_page_writes)},
      {"merge_reads", double(m_counts.merge_reads)},
      {"subpage_down_sectors", ratio(m_counts.subpage_down_sectors, m_counts.subpage_down), false},
      {"log_writes", double(log.writes)},
      {"log_hit_ratio", ratio(log.write_hits, log.writes), false},
      {"log_page_programs", double(log.page_programs)},
      {"log_page_reads", double(log.page_reads)},
      {"log_erases", double(log.erases)},
      {"log_evictions", double(log.evictions)},
      {"log_eviction_sectors", ratio(log.evicted_sectors, log.evictions), false},
      {"sector_map_peak_bytes", double(m_log ? m_log->map().peak_memory_bytes() : 0)},
      {"hash_searches", double(searches)},
      {"hash_search_length", ratio(visited, searches), false},
  };
  figures.insert(figures.end(), mine.begin(), mine.end());
  return figures;
}

}  // namespace ssd::ftl
