// Warm-up passes (workload.passes): a workload replayed through the device before the timed run,
// so the run starts from the state the same workload leaves behind (mapping, GC, caches, write
// buffers), as trace studies do when they process a trace twice and measure the second time.
// Functional, like preconditioning: nothing is recorded or timed, reads are still checked by the
// oracle (their mismatches count in the report's integrity figures).
#pragma once

#include <cstdint>
#include <functional>

#include "ftl/core/ftl_device.h"
#include "workload/workload_source.h"

namespace ssd::workload {

// Replays `source` to its end through `device` (arrival times ignored: one command after
// another). Returns the requests replayed. `tick` (may be empty) is called every few thousand
// requests, so the caller can show progress or stop on an interrupt. Throws TraceError when the
// trace turns bad during the pass.
uint64_t replay_untimed(ftl::FtlDevice& device, WorkloadSource& source,
                        const std::function<void(uint64_t requests)>& tick = {});

}  // namespace ssd::workload
