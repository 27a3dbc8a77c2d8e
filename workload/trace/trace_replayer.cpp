#include "workload/trace/trace_replayer.h"

#include <sstream>

#include "workload/trace/trace_error.h"

namespace ssd::workload {

TraceReplayer::TraceReplayer(const TraceSummary& summary, const TraceLayout& layout,
                             const TraceReplayOptions& options)
    : m_options(options), m_layout(layout), m_reader(summary.spec) {
  m_stats.file = summary.spec.path;
  m_stats.format = std::string(format_name(summary.spec.format));
  if (summary.spec.format == TraceFormat::kBlkparse) {
    m_stats.blkparse_action = std::string(1, summary.spec.blkparse_action);
  }
  m_stats.lines = summary.read.lines;
  m_stats.records = summary.read.records;
  m_stats.skipped_lines = summary.read.skipped_lines;
  m_stats.first_skipped = summary.read.first_skipped;
  m_stats.devices = devices_replayed(summary);
  m_stats.device_selection = options.device_selection;
  m_stats.fit = options.fit;
  m_stats.fit_applied = layout.applied();
  m_stats.scale_factor = layout.smallest_scale();
  m_stats.speed = options.speed;
}

bool TraceReplayer::refill() {
  TraceRecord record;
  try {
    if (!m_reader.next(record)) return false;
  } catch (const TraceError& error) {
    // The file changed since the scan (or cannot be read again): end the workload cleanly; the
    // platform reports failure() as bad input after the kernel stops.
    m_failure = error.what();
    return false;
  }
  // scan_trace checked the last (latest) arrival against the latest simulated time; closed loop
  // ignores arrivals, so a record past it arrives at the limit instead of wrapping.
  const double arrival_ps = static_cast<double>(record.time_ns) * 1000.0 / m_options.speed;
  const ftl::Picoseconds arrival = arrival_ps > double(ftl::kLatestTime)
                                       ? ftl::kLatestTime
                                       : static_cast<ftl::Picoseconds>(arrival_ps);
  Request flush;
  flush.kind = ftl::CommandKind::kFlush;
  flush.arrival = arrival;
  m_pending_count = m_pending_next = 0;
  if (record.flush_before) m_pending[m_pending_count++] = flush;
  if (record.kind == ftl::CommandKind::kFlush) {
    m_pending[m_pending_count++] = flush;
  } else {
    Request& data = m_pending[m_pending_count++];
    data = Request{};
    data.kind = record.kind;
    data.arrival = arrival;
    data.fua = record.fua;
    m_layout.place(record, data);
  }
  return true;
}

bool TraceReplayer::next(Request& request) {
  if (m_options.max_requests != 0 && m_issued >= m_options.max_requests) return false;
  if (m_pending_next == m_pending_count && !refill()) return false;
  request = m_pending[m_pending_next++];
  ++m_issued;
  return true;
}

std::string TraceReplayer::describe() const {
  std::ostringstream out;
  out << "trace " << m_stats.file << " (" << m_stats.format << ", " << m_stats.devices << " device"
      << (m_stats.devices == 1 ? "" : "s") << ")";
  if (m_options.open_loop) {
    out << ", open loop at " << m_options.speed << "x trace time";
  } else {
    out << ", closed loop";
  }
  return out.str();
}

}  // namespace ssd::workload
