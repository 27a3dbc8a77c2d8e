#include "workload/trace/trace_layout.h"

#include <algorithm>

#include "workload/trace/trace_error.h"

namespace ssd::workload {

TraceLayout::TraceLayout(const TraceSummary& summary, uint64_t capacity_bytes,
                         uint32_t sector_bytes, FitMode fit)
    : m_sector_bytes(sector_bytes), m_single(summary.spec.only_device.has_value()) {
  const uint64_t count = m_single ? 1 : summary.devices.size();
  // Regions start on a grain boundary so aligned trace requests stay aligned on the device.
  m_region_bytes = capacity_bytes / count / kScaleGrainBytes * kScaleGrainBytes;
  if (m_region_bytes == 0) {
    throw TraceError(summary.spec.path, 0,
                     "the trace names " + std::to_string(count) +
                         " devices; the simulated device is too small to give each a region");
  }
  m_regions.resize(summary.devices.size());
  for (size_t d = 0; d < summary.devices.size(); ++d) {
    const TraceDeviceExtent& extent = summary.devices[d];
    Region& region = m_regions[d];
    region.first_byte = m_single ? 0 : d * m_region_bytes;
    if (extent.end_bytes <= m_region_bytes) continue;
    if (fit == FitMode::kError) {
      std::string where =
          count > 1 ? "the region of trace device " + std::to_string(extent.device_number) + " (" +
                          std::to_string(m_region_bytes) + " bytes)"
                    : "the device end (" + std::to_string(m_region_bytes) + " bytes)";
      throw TraceError(summary.spec.path, extent.end_line,
                       "the request ends " + std::to_string(extent.end_bytes - m_region_bytes) +
                           " bytes past " + where +
                           "; use --fit wrap or --fit scale (workload.fit)",
                       trace_line_text(summary.spec.path, extent.end_line));
    }
    if (fit == FitMode::kWrap) {
      region.wrap = true;
      m_applied = "wrap";
    } else {
      region.span_grains = (extent.end_bytes + kScaleGrainBytes - 1) / kScaleGrainBytes;
      m_applied = "scale";
      m_smallest_scale = std::min(
          m_smallest_scale, double(m_region_bytes / kScaleGrainBytes) / double(region.span_grains));
    }
  }
}

void TraceLayout::place(const TraceRecord& record, Request& request) const {
  const Region& region = m_regions[record.device];
  const uint64_t size = std::min(record.size_bytes, m_region_bytes);
  uint64_t offset = record.offset_bytes;
  if (region.wrap) {
    offset %= m_region_bytes;
  } else if (region.span_grains != 0) {
    const uint64_t grains = m_region_bytes / kScaleGrainBytes;
    // grain index times region grains can pass 2^64 on large devices: multiply in 128 bits.
    const unsigned __int128 scaled =
        static_cast<unsigned __int128>(offset / kScaleGrainBytes) * grains / region.span_grains;
    offset = static_cast<uint64_t>(scaled) * kScaleGrainBytes + offset % kScaleGrainBytes;
  }
  // A request running past its region's end (wrap, scale, or one larger than the region) is
  // moved back to end there, keeping its size and its offset within the grain where possible.
  if (offset + size > m_region_bytes) {
    offset = (m_region_bytes - size) / kScaleGrainBytes * kScaleGrainBytes;
    if (offset + size > m_region_bytes) offset = m_region_bytes - size;
  }
  const uint64_t first = region.first_byte + offset;
  const uint64_t last = first + size;  // one past
  request.start_sector = first / m_sector_bytes;
  request.sector_count =
      static_cast<uint32_t>((last + m_sector_bytes - 1) / m_sector_bytes - request.start_sector);
}

FitMode fit_mode_from_name(const std::string& name) {
  if (name == "wrap") return FitMode::kWrap;
  if (name == "scale") return FitMode::kScale;
  return FitMode::kError;
}

}  // namespace ssd::workload
