// UMass / SPC: ASU,LBA,Size,Opcode,Timestamp[,more]. LBA in 512-byte sectors, Size in bytes,
// Opcode r or w (either case), Timestamp in seconds. Each ASU is a device. Fields past the fifth
// (some UMass files carry extra columns) are ignored.
#include "workload/trace/device_index.h"
#include "workload/trace/parser_support.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {

namespace {

class SpcParser final : public TraceParser {
 public:
  LineKind parse(std::string_view line, TraceRecord& record, std::string& reason) override {
    std::string_view f[5];
    const size_t count = split_fields(line, ',', f, 5);
    if (count < 5) {
      reason = field_count_reason(5, count, "ASU,LBA,Size,Opcode,Timestamp");
      return LineKind::kBad;
    }
    uint64_t lba = 0, asu = 0;
    if (!(reason = parse_unsigned(f[0], "ASU", asu)).empty()) return LineKind::kBad;
    if (!(reason = parse_unsigned(f[1], "LBA", lba)).empty()) return LineKind::kBad;
    if (!(reason = parse_unsigned(f[2], "Size", record.size_bytes)).empty()) return LineKind::kBad;
    if (!(reason = parse_decimal_ns(f[4], "Timestamp", 1000000000, record.time_ns)).empty()) {
      return LineKind::kBad;
    }
    if (equals_ignore_case(f[3], "r")) {
      record.kind = ftl::CommandKind::kRead;
    } else if (equals_ignore_case(f[3], "w")) {
      record.kind = ftl::CommandKind::kWrite;
    } else {
      reason = "unknown Opcode '" + std::string(f[3].substr(0, 40)) + "' (expected r or w)";
      return LineKind::kBad;
    }
    if (!(reason = sectors_to_bytes(lba, "LBA", record.offset_bytes)).empty())
      return LineKind::kBad;
    record.device_number = asu;
    if (!m_devices.index_of(f[0], record.device)) {
      reason = m_devices.too_many();
      return LineKind::kBad;
    }
    reason = check_extent(record);
    return reason.empty() ? LineKind::kRecord : LineKind::kBad;
  }

 private:
  DeviceIndex m_devices;
};

}  // namespace

std::unique_ptr<TraceParser> make_spc_parser() { return std::make_unique<SpcParser>(); }

}  // namespace ssd::workload
