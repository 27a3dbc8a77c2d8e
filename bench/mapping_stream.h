// The input of the extent-mapping experiments (docs/results/extent-mapping.md): a workload as the
// mapping table sees it, reads, writes and trims in 4 KiB mapping units, with no flash underneath.
// A trace keeps its own address space (every trace device in a region of its own, as large as the
// largest device's span), the way the paper replayed traces over their native address spaces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/scenario_config.h"
#include "ftl/core/host_command.h"
#include "ftl/core/types.h"

namespace ssd::bench {

constexpr uint32_t kUnitBytes = 4096;

struct MappingOp {
  ftl::CommandKind kind = ftl::CommandKind::kRead;  // read, write or trim
  ftl::Lun lun = 0;
  uint32_t length = 0;  // units
};

struct MappingStream {
  std::string name;
  uint64_t units = 0;  // the address space, in units
  std::vector<MappingOp> ops;
  uint64_t reads = 0, writes = 0, trims = 0;
  uint64_t read_units = 0, write_units = 0;
};

// Every read, write and trim of a trace file (any format ssdsim reads; flushes are dropped).
// Throws workload::TraceError for a bad file or line.
MappingStream trace_stream(const std::string& path, const std::string& name);
// The same for a command-line argument "FILE" or "FILE=NAME" (NAME defaults to the file's name).
MappingStream trace_stream_argument(const std::string& argument);

// What the synthetic generator issues for `workload` over an address space of `address_bytes`.
MappingStream synthetic_stream(const std::string& name, const config::WorkloadConfig& workload,
                               uint64_t address_bytes);

// The workload of a scenario file (e.g. scenarios/spew.toml, the Spew-like workload of the
// paper's figure 16) over an address space of `address_bytes`. Throws config::ConfigError.
MappingStream scenario_stream(const std::string& name, const std::string& scenario_path,
                              uint64_t address_bytes);

}  // namespace ssd::bench
