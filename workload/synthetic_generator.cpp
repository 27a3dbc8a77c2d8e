#include "workload/synthetic_generator.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ssd::workload {

namespace {

uint64_t span_bytes(const config::WorkloadConfig& config, uint64_t logical_bytes) {
  return config.address_span_bytes ? config.address_span_bytes
                                   : logical_bytes - config.address_start_bytes;
}

}  // namespace

SyntheticGenerator::SyntheticGenerator(const config::WorkloadConfig& config, uint64_t logical_bytes,
                                       uint32_t sector_bytes)
    : m_config(config),
      m_sector_bytes(sector_bytes),
      m_first_sector(config.address_start_bytes / sector_bytes),
      m_sync_call(config.sync_call == "fsync"       ? SyncCall::kFsync
                  : config.sync_call == "fdatasync" ? SyncCall::kFdatasync
                                                    : SyncCall::kFlush),
      m_journal_sectors(m_sync_call == SyncCall::kFlush ? 0 : config.journal_bytes / sector_bytes),
      m_span_sectors(span_bytes(config, logical_bytes) / sector_bytes - m_journal_sectors),
      m_align_sectors(std::max<uint64_t>(1, config.align_bytes / sector_bytes)),
      m_journal_write_sectors(config.journal_write_bytes / sector_bytes),
      m_open_loop(config.mode == "open"),
      m_random_pattern(config.pattern == "random"),
      // Whole alignment grains, so hot requests stay aligned and never reach the cold part.
      m_hot_sectors(
          static_cast<uint64_t>(static_cast<double>(m_span_sectors) * config.hot_span_ratio) /
          m_align_sectors * m_align_sectors),
      m_random(config.seed),
      m_duration_ps(config.duration_ms * 1e9) {
  if (config.size_distribution == "split") {
    double total = 0.0;
    for (const double share : config.split_weights) m_split_cumulative.push_back(total += share);
  }
  if (m_random_pattern && config.address_distribution != "uniform") {
    const uint64_t largest =
        std::min(config.largest_request_bytes() / sector_bytes, m_span_sectors);
    m_address_law.emplace(config.address_distribution, config.address_skew,
                          (m_span_sectors - largest) / m_align_sectors + 1, config.seed ^ 0xad0u);
  }
  if (config.random_map) {
    const uint64_t size = std::min(config.request_bytes / sector_bytes, m_span_sectors);
    // Its own seed, drawn apart from the request kinds' draws.
    m_random_map.emplace((m_span_sectors - size) / m_align_sectors + 1, config.seed ^ 0x5eedu);
  }
}

uint64_t SyntheticGenerator::draw_size_sectors() {
  if (!m_split_cumulative.empty()) {  // the first size whose running share passes the draw
    const double draw = m_random.unit() * m_split_cumulative.back();
    const auto at = std::upper_bound(m_split_cumulative.begin(), m_split_cumulative.end(), draw);
    const auto index = static_cast<size_t>(
        std::min<std::ptrdiff_t>(at - m_split_cumulative.begin(),
                                 static_cast<std::ptrdiff_t>(m_split_cumulative.size()) - 1));
    return m_config.split_bytes[index] / m_sector_bytes;
  }
  const uint64_t min = m_config.request_bytes / m_sector_bytes;
  const uint64_t max = std::max(min, m_config.request_bytes_max / m_sector_bytes);
  if (m_config.size_distribution != "uniform" || max == min) return min;
  // Uniform over the sizes between min and max that are whole multiples of the alignment.
  const uint64_t steps = (max - min) / m_align_sectors + 1;
  return min + m_random.below(steps) * m_align_sectors;
}

bool SyntheticGenerator::next(Request& request) {
  if (m_config.requests != 0 && m_issued >= m_config.requests) return false;
  if (m_config.io_bytes != 0 && m_data_bytes >= m_config.io_bytes) return false;
  if (m_open_loop) {
    const double gap_ps = m_config.interarrival_us * 1e6;
    if (m_issued > 0) {
      m_arrival_ps +=
          m_config.arrival == "poisson" ? -std::log(1.0 - m_random.unit()) * gap_ps : gap_ps;
    }
    if (m_duration_ps > 0 && m_arrival_ps >= m_duration_ps) return false;
    // Past the latest simulated time (a Poisson tail; validation refuses a mean that gets there)
    // the arrival stays just beyond it, where the host stops the run instead of wrapping.
    request.arrival = m_arrival_ps > double(ftl::kLatestTime)
                          ? ftl::kLatestTime + 1
                          : static_cast<ftl::Picoseconds>(m_arrival_ps);
  }
  ++m_issued;

  if (m_config.flush_every_writes != 0 && m_writes_since_flush >= m_config.flush_every_writes) {
    m_writes_since_flush = 0;
    // fsync commits the journal every time; fdatasync only when the file grew (its size is
    // metadata a later read needs). The commit block's FUA is folded into the flush that follows,
    // so each sync call is one journal write at most and exactly one device flush.
    const bool commit = m_sync_call == SyncCall::kFsync ||
                        (m_sync_call == SyncCall::kFdatasync && m_grew_since_sync);
    m_grew_since_sync = false;
    m_flush_pending = true;
    if (commit) {
      journal_write(request);
      return true;
    }
  }
  if (m_flush_pending) {
    m_flush_pending = false;
    request.kind = ftl::CommandKind::kFlush;
    request.start_sector = 0;
    request.sector_count = 0;
    return true;
  }
  const double draw = m_random.unit();
  request.kind = draw < m_config.read_ratio                         ? ftl::CommandKind::kRead
                 : draw < m_config.read_ratio + m_config.trim_ratio ? ftl::CommandKind::kTrim
                                                                    : ftl::CommandKind::kWrite;
  if (request.kind == ftl::CommandKind::kWrite) ++m_writes_since_flush;

  const uint64_t size = std::min(draw_size_sectors(), m_span_sectors);
  uint64_t offset;
  if (m_random_pattern && m_hot_sectors > 0) {  // the hot part, or the rest of the span
    const bool hot = m_random.unit() < m_config.hot_access_ratio;
    const uint64_t first = hot ? 0 : m_hot_sectors;
    const uint64_t length = hot ? m_hot_sectors : m_span_sectors - m_hot_sectors;
    const uint64_t positions = (length - size) / m_align_sectors + 1;
    offset = first + m_random.below(positions) * m_align_sectors;
  } else if (m_address_law) {  // positions sized for the largest request: every size fits
    offset = m_address_law->draw(m_random) * m_align_sectors;
  } else if (m_random_map) {
    offset = m_random_map->next() * m_align_sectors;
  } else if (m_random_pattern) {
    const uint64_t positions = (m_span_sectors - size) / m_align_sectors + 1;
    offset = m_random.below(positions) * m_align_sectors;
  } else {
    if (m_cursor + size > m_span_sectors) m_cursor = 0;
    offset = m_cursor;
    m_cursor += size;
  }
  request.start_sector = m_first_sector + offset;
  request.sector_count = static_cast<uint32_t>(size);
  m_data_bytes += size * m_sector_bytes;
  if (request.kind == ftl::CommandKind::kWrite &&
      request.start_sector + size > m_high_water_sector) {
    m_high_water_sector = request.start_sector + size;
    m_grew_since_sync = true;
  }
  return true;
}

void SyntheticGenerator::journal_write(Request& request) {
  if (m_journal_cursor + m_journal_write_sectors > m_journal_sectors) m_journal_cursor = 0;
  request.kind = ftl::CommandKind::kWrite;
  request.start_sector = m_first_sector + m_span_sectors + m_journal_cursor;
  request.sector_count = static_cast<uint32_t>(m_journal_write_sectors);
  m_journal_cursor += m_journal_write_sectors;
}

std::string SyntheticGenerator::describe() const {
  std::ostringstream out;
  out << "synthetic " << m_config.pattern << ", " << m_config.read_ratio * 100 << "% reads, "
      << m_config.request_bytes << " B";
  if (m_open_loop) {
    out << ", open loop every " << m_config.interarrival_us << " us (" << m_config.arrival << ")";
  } else {
    out << ", closed loop QD " << m_config.queue_depth;
  }
  if (m_sync_call != SyncCall::kFlush && m_config.flush_every_writes != 0) {
    out << ", " << m_config.sync_call << " every " << m_config.flush_every_writes << " writes";
  }
  return out.str();
}

}  // namespace ssd::workload
