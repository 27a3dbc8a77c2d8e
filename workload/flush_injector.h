// A flush after every N writes of another source (workload.flush_every_writes on a trace replay):
// a trace of block requests rarely records the host's flushes, and a power-cut experiment needs
// durable points. Each flush arrives with the write it follows and on its queue.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "workload/workload_source.h"

namespace ssd::workload {

class FlushInjector final : public WorkloadSource {
 public:
  FlushInjector(std::unique_ptr<WorkloadSource> inner, uint64_t every_writes)
      : m_inner(std::move(inner)), m_every(every_writes) {}

  bool next(Request& request) override;
  bool open_loop() const override { return m_inner->open_loop(); }
  std::string describe() const override;
  const TraceReplayStats* trace_stats() const override { return m_inner->trace_stats(); }
  std::string failure() const override { return m_inner->failure(); }

 private:
  std::unique_ptr<WorkloadSource> m_inner;
  uint64_t m_every;
  uint64_t m_writes = 0;
  bool m_flush_next = false;
  Request m_last;  // the write the flush follows
};

}  // namespace ssd::workload
