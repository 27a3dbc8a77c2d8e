// Where a trace's addresses land on the simulated device. Each device of the trace gets its own
// equal, disjoint region (one region spanning the device when a single trace device is replayed).
// A device whose addresses reach past its region is handled by the fit mode: an error naming the
// line and the overshoot, wrap (addresses modulo the region) or scale (the device's address
// space shrunk onto the region, never enlarged, in kScaleGrainBytes steps so 4 KiB-aligned
// requests stay aligned). Requests stay at sector granularity: unaligned and sub-page ones are
// kept as they are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workload/trace/trace_scan.h"
#include "workload/workload_source.h"

namespace ssd::workload {

enum class FitMode { kError, kWrap, kScale };

constexpr uint64_t kScaleGrainBytes = 4096;

class TraceLayout {
 public:
  // Throws TraceError (fit error) when a device does not fit its region, or when the device is
  // too small to give every trace device a region.
  TraceLayout(const TraceSummary& summary, uint64_t capacity_bytes, uint32_t sector_bytes,
              FitMode fit);

  // Maps a data record (not a flush) to the simulated device's sectors.
  void place(const TraceRecord& record, Request& request) const;

  uint64_t region_bytes() const { return m_region_bytes; }
  // "none" when every device fitted, else the mode that was applied ("wrap", "scale").
  const std::string& applied() const { return m_applied; }
  double smallest_scale() const { return m_smallest_scale; }  // 1 unless scaled

 private:
  struct Region {
    uint64_t first_byte = 0;
    uint64_t span_grains = 0;  // scale: the trace device's span, in grains (0 = not scaled)
    bool wrap = false;
  };

  std::vector<Region> m_regions;  // by dense device index
  uint64_t m_region_bytes = 0;
  uint32_t m_sector_bytes;
  bool m_single = false;  // one selected device: every record goes to region 0
  std::string m_applied = "none";
  double m_smallest_scale = 1.0;
};

FitMode fit_mode_from_name(const std::string& name);  // "error" | "wrap" | "scale"

}  // namespace ssd::workload
