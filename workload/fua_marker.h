// A share of another source's writes sent with Force Unit Access (workload.fua_ratio): each write
// is FUA with that probability, drawn from a stream of its own seeded by workload.seed, so the
// requests themselves (kinds, addresses, sizes, arrivals) are those of the same workload without
// FUA. A write the source already marks FUA (a blkparse trace's) stays FUA.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ftl/core/random.h"
#include "workload/workload_source.h"

namespace ssd::workload {

class FuaMarker final : public WorkloadSource {
 public:
  FuaMarker(std::unique_ptr<WorkloadSource> inner, double ratio, uint64_t seed);

  bool next(Request& request) override;
  bool open_loop() const override { return m_inner->open_loop(); }
  std::string describe() const override;
  const TraceReplayStats* trace_stats() const override { return m_inner->trace_stats(); }
  std::string failure() const override { return m_inner->failure(); }

 private:
  std::unique_ptr<WorkloadSource> m_inner;
  double m_ratio;
  ftl::Random m_random;
};

}  // namespace ssd::workload
