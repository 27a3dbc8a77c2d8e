// MSR Cambridge CSV: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime.
// Timestamp in 100 ns ticks (Windows FILETIME), Offset and Size in bytes, Type Read or Write.
// Each Hostname/DiskNumber pair is a device. A "Timestamp,..." header line is ignored.
#include <algorithm>

#include "workload/trace/device_index.h"
#include "workload/trace/parser_support.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {

namespace {

class MsrParser final : public TraceParser {
 public:
  LineKind parse(std::string_view line, TraceRecord& record, std::string& reason) override {
    std::string_view f[8];
    const size_t count = split_fields(line, ',', f, 8);
    if (count != 7) {
      reason = field_count_reason(7, count,
                                  "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime");
      return LineKind::kBad;
    }
    if (equals_ignore_case(f[0], "Timestamp")) return LineKind::kIgnore;
    uint64_t ticks = 0, disk = 0;
    if (!(reason = parse_unsigned(f[0], "Timestamp", ticks)).empty()) return LineKind::kBad;
    if (!(reason = parse_unsigned(f[2], "DiskNumber", disk)).empty()) return LineKind::kBad;
    if (!(reason = parse_unsigned(f[4], "Offset", record.offset_bytes)).empty())
      return LineKind::kBad;
    if (!(reason = parse_unsigned(f[5], "Size", record.size_bytes)).empty()) return LineKind::kBad;
    if (equals_ignore_case(f[3], "Read")) {
      record.kind = ftl::CommandKind::kRead;
    } else if (equals_ignore_case(f[3], "Write")) {
      record.kind = ftl::CommandKind::kWrite;
    } else {
      reason = "unknown Type '" + std::string(f[3].substr(0, 40)) + "' (expected Read or Write)";
      return LineKind::kBad;
    }
    // FILETIME counts from 1601: in nanoseconds that overflows 64 bits, so times are taken
    // from a base a little before the first record (the margin keeps slightly earlier records,
    // which the reader's tolerance may accept, representable).
    if (!m_have_base) {
      m_base_ticks = ticks - std::min(ticks, kBaseMarginTicks);
      m_have_base = true;
    }
    if (ticks < m_base_ticks) {
      reason = "Timestamp is more than 1 s before the first record's";
      return LineKind::kBad;
    }
    if (ticks - m_base_ticks > kMaxTimeNs / 100) {
      reason = "Timestamp is too far after the first record's";
      return LineKind::kBad;
    }
    record.time_ns = (ticks - m_base_ticks) * 100;
    record.device_number = disk;
    m_key.assign(f[1].data(), f[1].size());
    m_key += ',';
    m_key.append(f[2].data(), f[2].size());
    if (!m_devices.index_of(m_key, record.device)) {
      reason = m_devices.too_many();
      return LineKind::kBad;
    }
    reason = check_extent(record);
    return reason.empty() ? LineKind::kRecord : LineKind::kBad;
  }

 private:
  static constexpr uint64_t kBaseMarginTicks = 10000000;  // 1 s

  DeviceIndex m_devices;
  bool m_have_base = false;
  uint64_t m_base_ticks = 0;
  std::string m_key;  // reused, so the good path does not allocate
};

}  // namespace

std::unique_ptr<TraceParser> make_msr_parser() { return std::make_unique<MsrParser>(); }

}  // namespace ssd::workload
