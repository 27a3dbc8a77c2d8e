// Pieces every format parser shares: the 512-byte sector traces count in, the limits that keep a
// record's arithmetic from overflowing, and the field-error helpers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "workload/trace/field_parsing.h"
#include "workload/trace/trace_record.h"

namespace ssd::workload {

constexpr uint64_t kTraceSectorBytes = 512;
// Larger requests or addresses are corrupt lines rather than workloads; the limits also keep
// offset + size and time arithmetic far from overflow.
constexpr uint64_t kMaxRequestBytes = uint64_t(1) << 32;  // 4 GiB
constexpr uint64_t kMaxOffsetBytes = uint64_t(1) << 60;   // 1 EiB
constexpr uint64_t kMaxTimeNs = uint64_t(1) << 62;

// Checks a filled record's extent; empty on success.
inline std::string check_extent(const TraceRecord& record) {
  if (record.size_bytes > kMaxRequestBytes) {
    return "size " + std::to_string(record.size_bytes) + " bytes is larger than 4 GiB";
  }
  if (record.offset_bytes > kMaxOffsetBytes) {
    return "offset " + std::to_string(record.offset_bytes) + " bytes is beyond 1 EiB";
  }
  if (record.time_ns > kMaxTimeNs) return "timestamp is too large";
  return {};
}

inline std::string field_count_reason(size_t expected, size_t got, std::string_view layout) {
  return "expected " + std::to_string(expected) + " fields (" + std::string(layout) + "), got " +
         std::to_string(got);
}

// Sector count times 512 with a guard against overflow; empty on success.
inline std::string sectors_to_bytes(uint64_t sectors, std::string_view what, uint64_t& bytes) {
  if (sectors > kMaxOffsetBytes / kTraceSectorBytes) return std::string(what) + " is too large";
  bytes = sectors * kTraceSectorBytes;
  return {};
}

}  // namespace ssd::workload
