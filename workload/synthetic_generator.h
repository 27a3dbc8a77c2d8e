// Synthetic workload: sequential or random addresses over a range (uniform, or zipf, pareto or
// normal as fio's random_distribution), a read / trim / write mix, fixed, uniform or split
// (fio's bssplit) request sizes on an alignment grid, a sync after every N writes, and
// either closed-loop issue (the host keeps a fixed queue depth) or open-loop arrivals (fixed or
// Poisson inter-arrival time). Deterministic for a seed. Random positions are drawn independently,
// or (workload.random_map) each once per pass in a seeded order; the workload ends after a number
// of requests, an amount of data (workload.io_bytes) or a simulated time, whichever comes first.
// A sync is a flush command, or what ext4 (ordered journal) sends for fsync or fdatasync: a
// journal commit write into a circular journal region at the end of the span, then a flush. No
// file system beyond that: one file, no directory or allocation metadata, no journal checkpoints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "config/scenario_config.h"
#include "ftl/core/random.h"
#include "ftl/core/random_permutation.h"
#include "workload/address_law.h"
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
  enum class SyncCall { kFlush, kFsync, kFdatasync };

  uint64_t draw_size_sectors();
  // The journal commit's write: the next journal_write_bytes of the journal region, wrapping.
  void journal_write(Request& request);

  config::WorkloadConfig m_config;
  uint32_t m_sector_bytes;
  uint64_t m_first_sector;
  SyncCall m_sync_call;
  uint64_t m_journal_sectors;  // 0 with sync_call "flush"
  uint64_t m_span_sectors;     // data span: the address span less the journal region
  uint64_t m_align_sectors;
  uint64_t m_journal_write_sectors;
  bool m_open_loop;
  bool m_random_pattern;
  uint64_t m_hot_sectors;  // the hot part at the span's start (workload.hot_span_ratio); 0: none
  ftl::Random m_random;
  // workload.random_map: positions in its order.
  std::optional<ftl::RandomPermutation> m_random_map;
  std::optional<AddressLaw> m_address_law;  // a skewed workload.address_distribution
  std::vector<double> m_split_cumulative;   // size_distribution "split": running shares
  uint64_t m_issued = 0;
  uint64_t m_data_bytes = 0;  // read, written or trimmed so far (workload.io_bytes)
  uint64_t m_writes_since_flush = 0;
  uint64_t m_cursor = 0;             // sequential pattern: next offset within the span
  uint64_t m_journal_cursor = 0;     // next offset within the journal region
  bool m_flush_pending = false;      // a sync is due: its flush comes next (after any journal)
  uint64_t m_high_water_sector = 0;  // end of the furthest data write so far (the file's size)
  bool m_grew_since_sync = false;    // a data write since the last sync went past the high water
  double m_arrival_ps = 0.0;
  double m_duration_ps;
};

}  // namespace ssd::workload
