// blkparse's default text output:
//   maj,min cpu seq seconds.nanoseconds pid action RWBS [sector + count] [extra...]
// Only events of the chosen action (Q queued, D issued to the driver, C completed) are replayed;
// other actions are ignored. RWBS: an optional leading F (preflush), the operation (R read,
// W write, D discard -> trim, N no data), then flags (F = FUA, S sync, M meta, A ahead; only FUA
// matters here). A no-data request with a flush flag becomes a flush command; a preflush before
// data becomes a flush before it; a FUA write stays one command, a write with FUA.
// The per-CPU summary blkparse prints at the end ("CPU0 (8,0):", "Total (8,0):") is ignored.
#include <map>
#include <string>

#include "workload/trace/device_index.h"
#include "workload/trace/parser_support.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

class BlkparseParser final : public TraceParser {
 public:
  explicit BlkparseParser(char action) : m_action(action) {}

  LineKind parse(std::string_view line, TraceRecord& record, std::string& reason) override {
    std::string_view f[10];
    const size_t count = split_fields(line, ' ', f, 10);
    if (m_in_trailer) return LineKind::kIgnore;
    if (count > 0 && (starts_with(f[0], "CPU") || f[0] == "Total")) {
      m_in_trailer = true;  // the statistics blkparse prints after the events
      return LineKind::kIgnore;
    }
    if (count < 7 || f[0].find(',') == std::string_view::npos) {
      reason = count < 7 ? field_count_reason(7, count, "maj,min cpu seq time pid action RWBS ...")
                         : "not a blkparse event line (expected 'maj,min' first)";
      return LineKind::kBad;
    }
    if (f[5].size() != 1 && f[5] != "UT") {
      reason = "unknown action '" + std::string(f[5].substr(0, 20)) + "'";
      return LineKind::kBad;
    }
    if (f[5][0] != m_action || f[5].size() != 1) {
      ++m_other_actions[std::string(f[5])];
      return LineKind::kIgnore;
    }
    if (!(reason = parse_decimal_ns(f[3], "time", 1000000000, record.time_ns)).empty()) {
      return LineKind::kBad;
    }
    if (!read_rwbs(f[6], record, reason)) return LineKind::kBad;
    if (m_no_data) return LineKind::kIgnore;  // N without a flush flag: nothing to replay
    const bool data = record.kind != ftl::CommandKind::kFlush;
    record.offset_bytes = 0;
    record.size_bytes = 0;
    if (count >= 10 && f[8] == "+") {
      uint64_t sector = 0, sectors = 0;
      if (!(reason = parse_unsigned(f[7], "sector", sector)).empty()) return LineKind::kBad;
      if (!(reason = parse_unsigned(f[9], "sector count", sectors)).empty()) return LineKind::kBad;
      if (!(reason = sectors_to_bytes(sector, "sector", record.offset_bytes)).empty())
        return LineKind::kBad;
      if (!(reason = sectors_to_bytes(sectors, "sector count", record.size_bytes)).empty())
        return LineKind::kBad;
    } else if (data) {
      reason = "missing 'sector + count' for a " + std::string(f[6]) + " request";
      return LineKind::kBad;
    }
    if (!data) record.offset_bytes = record.size_bytes = 0;  // a flush has no extent
    if (!m_devices.index_of(f[0], record.device)) {
      reason = m_devices.too_many();
      return LineKind::kBad;
    }
    record.device_number = record.device;
    reason = check_extent(record);
    return reason.empty() ? LineKind::kRecord : LineKind::kBad;
  }

 private:
  bool read_rwbs(std::string_view rwbs, TraceRecord& record, std::string& reason) {
    size_t i = 0;
    record.flush_before = rwbs.size() > 1 && rwbs[0] == 'F';
    if (record.flush_before) ++i;
    const char op = i < rwbs.size() ? rwbs[i] : 'N';
    ++i;
    bool fua = false;
    for (; i < rwbs.size(); ++i) {
      if (rwbs[i] == 'F') fua = true;
    }
    m_no_data = false;
    record.fua = false;
    switch (op) {
      case 'R':
        record.kind = ftl::CommandKind::kRead;
        return true;
      case 'W':
        record.kind = ftl::CommandKind::kWrite;
        record.fua = fua;
        return true;
      case 'D':
        record.kind = ftl::CommandKind::kTrim;
        return true;
      case 'N':
      case 'F':  // "F" alone: a flush request with no data
        if (record.flush_before || fua || op == 'F') {
          record.kind = ftl::CommandKind::kFlush;
          record.flush_before = false;
        } else {
          record.kind = ftl::CommandKind::kRead;
          m_no_data = true;
        }
        return true;
      default:
        reason = "unknown RWBS '" + std::string(rwbs.substr(0, 20)) +
                 "' (expected R, W, D or N with optional F/FUA/S flags)";
        return false;
    }
  }

  std::string ignored_summary() const override {
    if (m_other_actions.empty()) return {};
    std::string seen;
    for (const auto& [action, count] : m_other_actions) {
      seen += (seen.empty() ? "" : ", ") + action + " " + std::to_string(count);
    }
    return std::string("it has no ") + m_action + " events, only " + seen +
           " (workload.blkparse_action picks Q, D or C)";
  }

  char m_action;
  std::map<std::string, uint64_t> m_other_actions;  // events ignored, by action
  bool m_in_trailer = false;
  bool m_no_data = false;
  DeviceIndex m_devices;
};

}  // namespace

std::unique_ptr<TraceParser> make_blkparse_parser(char action) {
  return std::make_unique<BlkparseParser>(action);
}

}  // namespace ssd::workload
