// The two whitespace-separated five-column formats, which differ in time unit and opcode:
//   MQSim:   arrival_ns device lba_sectors size_sectors type   (type 0 = write, 1 = read)
//   DiskSim: arrival_ms device blkno     count        flags  (flags bit 0 set = read)
// Both count addresses and sizes in 512-byte sectors.
#include "workload/trace/device_index.h"
#include "workload/trace/parser_support.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {

namespace {

enum class AsciiDialect { kMqsim, kDisksim };

class AsciiParser final : public TraceParser {
 public:
  explicit AsciiParser(AsciiDialect dialect) : m_dialect(dialect) {}

  LineKind parse(std::string_view line, TraceRecord& record, std::string& reason) override {
    const bool mqsim = m_dialect == AsciiDialect::kMqsim;
    std::string_view f[5];
    const size_t count = split_fields(line, ' ', f, 5);
    if (count != 5) {
      reason = field_count_reason(5, count,
                                  mqsim ? "arrival_ns device lba_sectors size_sectors type"
                                        : "arrival_ms device blkno count flags");
      return LineKind::kBad;
    }
    uint64_t start = 0, sectors = 0, opcode = 0, device = 0;
    if (mqsim) {
      if (!(reason = parse_unsigned(f[0], "arrival_ns", record.time_ns)).empty())
        return LineKind::kBad;
    } else if (!(reason = parse_decimal_ns(f[0], "arrival_ms", 1000000, record.time_ns)).empty()) {
      return LineKind::kBad;
    }
    if (!(reason = parse_unsigned(f[1], "device", device)).empty()) return LineKind::kBad;
    if (!(reason = parse_unsigned(f[2], mqsim ? "lba_sectors" : "blkno", start)).empty())
      return LineKind::kBad;
    if (!(reason = parse_unsigned(f[3], mqsim ? "size_sectors" : "count", sectors)).empty())
      return LineKind::kBad;
    if (!(reason = parse_unsigned(f[4], mqsim ? "type" : "flags", opcode)).empty())
      return LineKind::kBad;
    if (mqsim) {
      if (opcode > 1) {
        reason = "unknown type " + std::to_string(opcode) + " (expected 0 = write or 1 = read)";
        return LineKind::kBad;
      }
      record.kind = opcode == 0 ? ftl::CommandKind::kWrite : ftl::CommandKind::kRead;
    } else {
      record.kind = (opcode & 1) ? ftl::CommandKind::kRead : ftl::CommandKind::kWrite;
    }
    if (!(reason = sectors_to_bytes(start, "start sector", record.offset_bytes)).empty())
      return LineKind::kBad;
    if (!(reason = sectors_to_bytes(sectors, "sector count", record.size_bytes)).empty())
      return LineKind::kBad;
    if (!m_devices.index_of(f[1], record.device)) {
      reason = m_devices.too_many();
      return LineKind::kBad;
    }
    record.device_number = device;
    reason = check_extent(record);
    return reason.empty() ? LineKind::kRecord : LineKind::kBad;
  }

 private:
  AsciiDialect m_dialect;
  DeviceIndex m_devices;
};

}  // namespace

std::unique_ptr<TraceParser> make_mqsim_parser() {
  return std::make_unique<AsciiParser>(AsciiDialect::kMqsim);
}
std::unique_ptr<TraceParser> make_disksim_parser() {
  return std::make_unique<AsciiParser>(AsciiDialect::kDisksim);
}

}  // namespace ssd::workload
