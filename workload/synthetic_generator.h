// Synthetic workload: sequential or uniformly random addresses over a range, a read / trim / write
// mix, fixed or uniform request sizes on an alignment grid, a flush after every N writes, and
// either closed-loop issue (the host keeps a fixed queue depth) or open-loop arrivals (fixed or
// Poisson inter-arrival time). Deterministic for a seed.
#pragma once

#include <cstdint>
#include <string>

#include "config/platform_config.h"
#include "config/scenario_config.h"
#include "ftl/core/random.h"
#include "workload/workload_source.h"

namespace ssd::workload {

class SyntheticGenerator final : public WorkloadSource {
 public:
  // `logical_bytes`: the device's capacity as the host sees it; `sector_bytes`: its sector size.
  SyntheticGenerator(const config::WorkloadConfig& config, uint64_t logical_bytes,
                     uint32_t sector_bytes);

  bool next(Request& request) override;
  bool open_loop() const override { return m_open_loop; }
  std::string describe() const override;

 private:
  uint64_t draw_size_sectors();

  config::WorkloadConfig m_config;
  uint32_t m_sector_bytes;
  uint64_t m_first_sector;
  uint64_t m_span_sectors;
  uint64_t m_align_sectors;
  bool m_open_loop;
  bool m_random_pattern;
  ftl::Random m_random;
  uint64_t m_issued = 0;
  uint64_t m_writes_since_flush = 0;
  uint64_t m_cursor = 0;  // sequential pattern: next offset within the span
  double m_arrival_ps = 0.0;
  double m_duration_ps;
};

}  // namespace ssd::workload
