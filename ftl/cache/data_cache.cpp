#include "ftl/cache/data_cache.h"

#include <algorithm>
#include <cmath>

#include "ftl/core/content_token.h"
#include "ftl/core/unit_span.h"

namespace ssd::ftl {

namespace {

uint32_t units_per_line(const config::CacheConfig& cache, const Geometry& geometry) {
  return cache.line_bytes == 0 ? 1 : cache.line_bytes / geometry.unit_bytes;
}

}  // namespace

uint64_t DataCache::simulator_bytes(const config::PlatformConfig& platform,
                                    const Geometry& geometry) {
  if (!platform.cache.on()) return 0;
  const uint32_t units = units_per_line(platform.cache, geometry);
  const uint64_t lines = platform.cache.capacity_bytes / (uint64_t{units} * geometry.unit_bytes);
  return lines * (CacheLines::bytes_per_line(units) + sizeof(uint64_t));  // + the frame's time
}

DataCache::DataCache(const config::PlatformConfig& platform, const Geometry& geometry,
                     FlashBackend& backend)
    : m_geometry(geometry),
      m_backend(backend),
      m_write_back(platform.cache.write_back()),
      m_read_caching(platform.cache.read_caching),
      m_units_per_line(units_per_line(platform.cache, geometry)),
      m_capacity_lines(platform.cache.capacity_bytes /
                       (uint64_t{m_units_per_line} * geometry.unit_bytes)),
      m_dirty_high(static_cast<uint64_t>(
          std::floor(platform.cache.dirty_high_watermark * double(m_capacity_lines)))),
      m_dirty_low(static_cast<uint64_t>(
          std::floor(platform.cache.dirty_low_watermark * double(m_capacity_lines)))),
      m_read_ahead_units(platform.cache.read_ahead_bytes / geometry.unit_bytes),
      m_read_ahead_trigger(platform.cache.read_ahead_trigger),
      m_lines(m_units_per_line, m_capacity_lines),
      m_line_tokens(m_units_per_line, 0) {}

bool DataCache::holds(Lun lun) const {
  return (m_lines.valid(lun / m_units_per_line) >> (lun % m_units_per_line) & 1) != 0;
}

bool DataCache::holds_dirty(Lun lun) const {
  return (m_lines.dirty(lun / m_units_per_line) >> (lun % m_units_per_line) & 1) != 0;
}

uint32_t DataCache::bytes_of(uint64_t slots) const {
  return static_cast<uint32_t>(__builtin_popcountll(slots)) * m_geometry.unit_bytes;
}

void DataCache::execute(const HostCommand& command, MappingScheme& scheme) {
  switch (command.kind) {
    case CommandKind::kRead:
      read(command, scheme);
      break;
    case CommandKind::kWrite:
      write(command, scheme);
      if (command.fua && m_write_back) write_back_range(command, scheme);
      break;
    case CommandKind::kTrim:
      trim(command, scheme);
      break;
    case CommandKind::kFlush:
      write_back_all(scheme);
      scheme.flush(command);
      break;
  }
  note_peaks();
}

void DataCache::read(const HostCommand& command, MappingScheme& scheme) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  uint64_t hit_bytes = 0;
  m_hit_frames.clear();
  uint32_t i = 0;
  while (i < span.count) {
    const Lun lun = span.first + i;
    if (holds(lun)) {
      const uint64_t line = lun / m_units_per_line;
      const uint64_t slot_bit = uint64_t{1} << (lun % m_units_per_line);
      m_backend.deliver(lun, m_lines.tokens(line)[lun % m_units_per_line]);
      m_lines.touch(line);
      hit_bytes += uint64_t{m_geometry.sector_bytes} * __builtin_popcountll(span.mask_of(i));
      ++m_counts.read_hit_units;
      if (m_read_ahead_units != 0) {  // what only read-ahead needs: its marks, the frames read
        if (m_lines.take_marks(line, slot_bit) != 0) ++m_counts.read_ahead_hit_units;
        const uint32_t frame = m_lines.frame(line);
        if (m_hit_frames.empty() || m_hit_frames.back() != frame) m_hit_frames.push_back(frame);
      }
      ++i;
      continue;
    }
    uint32_t end = i + 1;
    while (end < span.count && !holds(span.first + end)) ++end;
    read_below(lun, end - i, scheme, m_read_caching);
    m_counts.read_miss_units += end - i;
    i = end;
  }
  // The hits go from DRAM to the host, once data read ahead into their frames has landed.
  if (hit_bytes > 0) {
    const uint32_t op = m_backend.dram(false, static_cast<uint32_t>(hit_bytes), OpClass::kHostRead);
    if (m_read_ahead_units != 0) {
      for (const uint32_t frame : m_hit_frames) m_backend.note_frame_read(op, frame);
    }
  }
  if (m_read_ahead_units != 0) read_ahead(command, scheme);
}

void DataCache::read_ahead(const HostCommand& command, MappingScheme& scheme) {
  const uint64_t end_sector = command.start_sector + command.sector_count;
  if (command.start_sector == m_run_next_sector) {
    ++m_run_reads;
  } else {
    m_run_reads = 0;
    m_read_ahead_end = 0;
  }
  m_run_next_sector = end_sector;
  if (m_run_reads < m_read_ahead_trigger) return;
  const uint64_t spu = m_geometry.sectors_per_unit;
  const Lun end_unit = static_cast<Lun>((end_sector + spu - 1) / spu);
  const Lun from = std::max(m_read_ahead_end, end_unit);
  const Lun to = static_cast<Lun>(
      std::min<uint64_t>(uint64_t{end_unit} + m_read_ahead_units, m_geometry.logical_units));
  if (from >= to) return;
  m_read_ahead_end = to;
  // Behind the host: the command completes without these reads (and any write-back their room
  // needs), and they take the read's own die priority.
  m_backend.set_background(true);
  Lun lun = from;
  while (lun < to) {
    if (holds(lun)) {
      ++lun;
      continue;
    }
    Lun end = lun + 1;
    while (end < to && !holds(end)) ++end;
    read_below(lun, end - lun, scheme, true, true);
    m_counts.read_ahead_units += end - lun;
    lun = end;
  }
  m_backend.set_background(false);
}

void DataCache::read_below(Lun first, uint32_t count, MappingScheme& scheme, bool keep,
                           bool ahead) {
  HostCommand below;
  below.kind = CommandKind::kRead;
  below.start_sector = uint64_t{first} * m_geometry.sectors_per_unit;
  below.sector_count = count * m_geometry.sectors_per_unit;
  const size_t delivered_before = m_backend.delivered().size();
  const uint32_t ops_before = m_backend.next_op();
  scheme.read(below);
  const std::vector<DeliveredUnit>& delivered = m_backend.delivered();
  m_read_tokens.assign(count, 0);
  for (uint32_t k = 0; k < count && delivered_before + k < delivered.size(); ++k) {
    m_read_tokens[k] = delivered[delivered_before + k].token;
  }
  // Not data the host asked for: taken back from what the command delivers.
  while (ahead && m_backend.delivered().size() > delivered_before) m_backend.take_last_delivered();
  if (!keep) return;
  // The data lands in the cache once read: the DRAM write waits for the reads.
  const uint32_t after = m_backend.next_op() > ops_before ? m_backend.next_op() - 1 : kNone;
  uint32_t k = 0;
  while (k < count) {
    const Lun lun = first + k;
    const uint64_t line = lun / m_units_per_line;
    uint64_t slots = 0;
    for (; k < count && (first + k) / m_units_per_line == line; ++k) {
      const uint32_t slot = (first + k) % m_units_per_line;
      slots |= uint64_t{1} << slot;
      m_line_tokens[slot] = m_read_tokens[k];
    }
    put(line, slots, m_line_tokens.data(), false, OpClass::kHostRead, scheme, after);
    if (ahead) {
      m_lines.mark(line, slots);
      m_backend.note_frame_loaded(m_backend.next_op() - 1, m_lines.frame(line));
    }
  }
}

Token DataCache::fill_from_below(Lun lun, MappingScheme& scheme) {
  HostCommand below;
  below.kind = CommandKind::kRead;
  below.start_sector = uint64_t{lun} * m_geometry.sectors_per_unit;
  below.sector_count = m_geometry.sectors_per_unit;
  const size_t delivered_before = m_backend.delivered().size();
  scheme.read(below);
  ++m_counts.fill_units;
  // Not data the host asked for: taken back from what the command delivers.
  Token token = 0;
  while (m_backend.delivered().size() > delivered_before) {
    token = m_backend.take_last_delivered().token;
  }
  return token;
}

void DataCache::write(const HostCommand& command, MappingScheme& scheme) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  if (!m_write_back) scheme.write(command);  // write-through: the data goes down at once
  uint32_t i = 0;
  while (i < span.count) {
    const uint64_t line = (span.first + i) / m_units_per_line;
    const uint64_t held = m_lines.valid(line);
    const Token* cached = m_lines.tokens(line);
    uint64_t slots = 0;
    for (; i < span.count && (span.first + i) / m_units_per_line == line; ++i) {
      const Lun lun = span.first + i;
      const uint32_t slot = lun % m_units_per_line;
      const uint64_t bit = uint64_t{1} << slot;
      const SectorMask mask = span.mask_of(i);
      const bool hit = (held & bit) != 0;
      if (hit) {
        ++m_counts.write_hit_units;
      } else {
        ++m_counts.write_miss_units;
      }
      if (mask == span.full_mask) {
        m_line_tokens[slot] = whole_unit_token(command.id, lun);
      } else if (hit) {
        m_line_tokens[slot] = partial_unit_token(cached[slot], command.id, lun, mask);
      } else if (m_write_back) {
        // Lines hold whole units: the rest of this one comes from the scheme first.
        m_line_tokens[slot] =
            partial_unit_token(fill_from_below(lun, scheme), command.id, lun, mask);
      } else {
        continue;  // write-through keeps no copy of a part of a unit it does not hold
      }
      slots |= bit;
    }
    if (slots != 0)
      put(line, slots, m_line_tokens.data(), m_write_back, OpClass::kHostWrite, scheme);
  }
  write_back_behind(scheme);
}

void DataCache::trim(const HostCommand& command, MappingScheme& scheme) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    // Like the scheme and the oracle, a trim forgets only the units it covers whole.
    if (span.mask_of(i) != span.full_mask) continue;
    const Lun lun = span.first + i;
    m_lines.forget(lun / m_units_per_line, uint64_t{1} << (lun % m_units_per_line));
  }
  scheme.trim(command);
}

void DataCache::put(uint64_t line, uint64_t slots, const Token* tokens, bool dirty,
                    OpClass op_class, MappingScheme& scheme, uint32_t after) {
  const uint32_t frame_before = m_lines.frame(line);
  if (frame_before == kNone) {
    while (m_lines.lines() >= m_capacity_lines) {
      m_lines.evict_oldest(m_victim);
      ++m_counts.evicted_lines;
      if (m_victim.dirty != 0) {
        ++m_counts.dirty_evictions;
        write_back(m_victim, scheme);  // in the foreground: the command waits for it
      }
    }
  }
  // The line's data may still be on its way to flash from its frame (written back since it was
  // last written): new data goes to another frame when one is free, as a controller allocates a
  // buffer rather than overwrite one a program is reading.
  const bool overwrites = frame_before != kNone && dirty && m_lines.dirty(line) == 0;
  if (frame_before == kNone) free_a_ready_frame(line);
  if (overwrites) {
    free_a_ready_frame(line);
    m_lines.rehome(line);
  }
  m_lines.write(line, slots, tokens, dirty);
  const uint32_t op = m_backend.dram(true, bytes_of(slots), op_class, after);
  // A frame taken for this data (or overwritten, when none was free) may still hold data whose
  // write-back is in flight: the new data waits for it. Units added to a line's own frame
  // otherwise overwrite nothing being written back.
  if (frame_before == kNone || overwrites) m_backend.note_frame_filled(op, m_lines.frame(line));
}

void DataCache::free_a_ready_frame(uint64_t keep) {
  if (m_clock == nullptr || m_lines.empty()) return;
  const Picoseconds now = m_clock->now();
  if (m_lines.next_free_at() <= now) return;
  if (m_lines.oldest_line() == keep || m_lines.oldest_is_dirty()) return;
  if (m_clock->frame_free_at(m_lines.oldest_frame()) > now) return;
  m_lines.evict_oldest(m_victim);
  ++m_counts.evicted_lines;
}

void DataCache::write_back(const CacheLines::Victim& victim, MappingScheme& scheme) {
  const uint32_t first_op = m_backend.next_op();
  const uint64_t first_lun = victim.line * m_units_per_line;
  uint64_t dirty = victim.dirty;
  while (dirty != 0) {
    const auto from = static_cast<uint32_t>(__builtin_ctzll(dirty));
    uint32_t to = from;
    while (to < m_units_per_line && (dirty >> to & 1) != 0) ++to;
    const uint64_t run =
        (to == 64 ? ~uint64_t{0} : (uint64_t{1} << to) - 1) & ~((uint64_t{1} << from) - 1);
    dirty &= ~run;
    // Out of the cache's DRAM, into the scheme as whole units with their content.
    m_backend.dram(false, (to - from) * m_geometry.unit_bytes, OpClass::kHostWrite);
    HostCommand below;
    below.kind = CommandKind::kWrite;
    below.start_sector = (first_lun + from) * m_geometry.sectors_per_unit;
    below.sector_count = (to - from) * m_geometry.sectors_per_unit;
    below.unit_tokens = &victim.tokens[from];
    scheme.write(below);
    m_counts.write_back_units += to - from;
  }
  m_backend.note_frame_released(victim.frame, first_op, m_backend.next_op());
}

void DataCache::write_back_behind(MappingScheme& scheme) {
  if (!m_write_back || m_lines.dirty_lines() <= m_dirty_high) return;
  m_backend.set_background(true);
  while (m_lines.dirty_lines() > m_dirty_low && m_lines.clean_oldest_dirty(m_victim)) {
    write_back(m_victim, scheme);
    m_counts.background_write_back_units += __builtin_popcountll(m_victim.dirty);
  }
  m_backend.set_background(false);
}

void DataCache::write_back_all(MappingScheme& scheme) {
  while (m_lines.clean_oldest_dirty(m_victim)) {
    write_back(m_victim, scheme);
    m_counts.flush_write_back_units += __builtin_popcountll(m_victim.dirty);
  }
}

void DataCache::write_back_range(const HostCommand& command, MappingScheme& scheme) {
  const UnitSpan span =
      unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  const uint64_t first_line = span.first / m_units_per_line;
  const uint64_t last_line = (uint64_t{span.first} + span.count - 1) / m_units_per_line;
  for (uint64_t line = first_line; line <= last_line; ++line) {
    if (!m_lines.clean(line, m_victim)) continue;
    write_back(m_victim, scheme);
    m_counts.flush_write_back_units += __builtin_popcountll(m_victim.dirty);
  }
}

void DataCache::note_peaks() {
  m_counts.peak_lines = std::max(m_counts.peak_lines, m_lines.lines());
  m_counts.peak_dirty_lines = std::max(m_counts.peak_dirty_lines, m_lines.dirty_lines());
}

void DataCache::clear() {
  m_run_next_sector = ~uint64_t{0};
  m_run_reads = 0;
  m_read_ahead_end = 0;
  m_lines = CacheLines(m_units_per_line, m_capacity_lines);
  m_lines.set_frame_clock(m_clock);
}

void DataCache::start_measuring() {
  m_counts = CacheCounts{};
  note_peaks();
}

}  // namespace ssd::ftl
