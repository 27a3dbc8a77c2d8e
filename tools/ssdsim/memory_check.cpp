#include "tools/ssdsim/memory_check.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "config/capacity.h"
#include "ftl/core/geometry.h"
#include "ftl/scheme_registry.h"
#include "models/nand/nand_timing.h"

namespace ssd::tools {

namespace {

// MemAvailable of /proc/meminfo; the physical memory where that is missing.
uint64_t available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> name >> kib >> unit) {
    if (name == "MemAvailable:") return kib * 1024;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

std::string gib(uint64_t bytes) {
  char text[32];
  if (bytes >= (1ull << 30)) {
    std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(1ull << 30));
  } else {
    std::snprintf(text, sizeof text, "%.2f MiB", double(bytes) / double(1ull << 20));
  }
  return text;
}

}  // namespace

std::string memory_problem(const config::LoadedConfig& config) {
  const config::PlatformConfig& p = config.platform;
  const bool oracle = config.scenario.run.oracle;
  // The FTL's state, and the NAND timing's order per block.
  const uint64_t blocks = ftl::Geometry::from_platform(p).blocks();
  const uint64_t needed = ftl::simulator_bytes(p, oracle, config.scenario.power.on()) +
                          blocks * models::NandTiming::bytes_per_block();
  const bool machine = p.sim.memory_limit_bytes == 0;
  const uint64_t limit = machine ? available_bytes() : p.sim.memory_limit_bytes;
  if (limit == 0 || needed <= limit) return "";
  std::ostringstream out;
  const uint64_t units = config::logical_capacity_bytes(p) / config::mapping_unit_bytes(p);
  out << "the device needs about " << gib(needed) << " of simulator memory (" << units
      << " mapping units of " << config::mapping_unit_bytes(p) << " bytes, scheme " << p.ftl.scheme
      << (oracle ? ", with the integrity oracle" : "") << ") but "
      << (machine ? "this machine has " + gib(limit) + " available"
                  : "sim.memory_limit_bytes allows " + gib(limit))
      << "; make the device smaller (nand.channels, nand.chips_per_channel, nand.dies_per_chip, "
         "nand.planes_per_die, nand.blocks_per_plane, nand.pages_per_block), map larger units "
         "(ftl.mapping_unit_bytes)"
      << (oracle ? ", or set run.oracle=false" : "");
  return out.str();
}

}  // namespace ssd::tools
