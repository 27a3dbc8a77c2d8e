// Workloads every mapping scheme's test runs against the integrity oracle: a million random
// commands (sector-granular writes, reads, trims and flushes anywhere on the device) and a million
// sequential ones (streams that write the device front to back and read behind themselves), with
// a scheme-specific invariant check every so often. Each returns the units that failed the oracle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/random.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

inline ftl::HostCommand command(ftl::CommandKind kind, uint64_t sector, uint32_t count) {
  ftl::HostCommand c;
  c.kind = kind;
  c.start_sector = kind == ftl::CommandKind::kFlush ? 0 : sector;
  c.sector_count = kind == ftl::CommandKind::kFlush ? 0 : count;
  return c;
}

inline uint64_t run_one(ftl::FtlDevice& device, ftl::CommandKind kind, uint64_t sector,
                        uint32_t count) {
  ftl::HostCommand c = command(kind, sector, count);
  return device.run(c);
}

// `writes` single-unit writes at units drawn uniformly (an aged device's steady state), returning
// the units that failed the oracle.
inline uint64_t write_random_units(ftl::FtlDevice& device, uint64_t writes, uint64_t seed) {
  const ftl::Geometry& g = device.geometry();
  ftl::Random random(seed);
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < writes; ++i) {
    mismatches += run_one(device, ftl::CommandKind::kWrite,
                          random.below(g.logical_units) * g.sectors_per_unit, g.sectors_per_unit);
  }
  return mismatches;
}

// GC copies per host write over `writes` single-unit random writes (write_random_units): what the
// sampled-aging tests compare after each aging.
inline double gc_copies_per_write(ftl::FtlDevice& device, uint64_t writes, uint64_t seed) {
  const uint64_t before = device.stats().gc_units_copied;
  write_random_units(device, writes, seed);
  return double(device.stats().gc_units_copied - before) / double(writes);
}
// The sampled-aging tests' comparison: one aged state differs from another, so each is measured
// on four, a device of `platform` (oracle off) aged by `aging` (half_overwritten) with seeds 7 to
// 10, each handed to `measure` in turn (which runs the writes it compares and adds its share to
// the means).
// `sample_dies`: the miniature's dies, when `aging` is "sampled".
template <class Measure>
void on_aged_seeds(const config::PlatformConfig& platform, const char* aging, Measure measure,
                   uint32_t sample_dies = 1) {
  ftl::FtlDeviceOptions options;
  options.oracle = false;
  for (const uint64_t seed : {7, 8, 9, 10}) {
    ftl::FtlDevice device(platform, options);
    ftl::precondition(device, half_overwritten(aging, seed, sample_dies));
    measure(device);
  }
}

// GC copies per host write of the next `writes` random writes, the mean over on_aged_seeds'
// four devices.
inline double mean_gc_copies_per_write(const config::PlatformConfig& platform, const char* aging,
                                       uint64_t writes, uint32_t sample_dies = 1) {
  double mean = 0;
  on_aged_seeds(
      platform, aging,
      [&](ftl::FtlDevice& device) { mean += gc_copies_per_write(device, writes, 5) / 4; },
      sample_dies);
  return mean;
}

// Random commands of 1 to 4 units' worth of sectors at any sector: 50 % writes, 35 % reads,
// 10 % trims, 5 % flushes. `check` runs every `check_every` commands and at the end.
inline uint64_t run_random(ftl::FtlDevice& device, uint64_t commands, uint64_t seed,
                           const std::function<void()>& check, uint64_t check_every = 250'000) {
  const ftl::Geometry& g = device.geometry();
  const uint64_t sectors = g.logical_sectors();
  ftl::Random random(seed);
  uint64_t mismatches = 0;
  for (uint64_t i = 1; i <= commands; ++i) {
    const uint64_t draw = random.below(100);
    const auto count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
    const uint64_t start = random.below(sectors - count + 1);
    const ftl::CommandKind kind = draw < 50   ? ftl::CommandKind::kWrite
                                  : draw < 85 ? ftl::CommandKind::kRead
                                  : draw < 95 ? ftl::CommandKind::kTrim
                                              : ftl::CommandKind::kFlush;
    mismatches += run_one(device, kind, start, count);
    if (i % check_every == 0) check();
  }
  check();
  return mismatches;
}

// Sequential streams: a write cursor walks the device in aligned requests of 1 to 16 units,
// wrapping at the end; after each write, a read of a random earlier stretch of the same length
// (often still in the block being written). A flush every 64 writes, a trim of the just-written
// range every 500 writes. 60 % of commands are writes.
inline uint64_t run_sequential(ftl::FtlDevice& device, uint64_t commands, uint64_t seed,
                               const std::function<void()>& check, uint64_t check_every = 250'000) {
  const ftl::Geometry& g = device.geometry();
  const uint64_t units = g.logical_units;
  ftl::Random random(seed);
  uint64_t mismatches = 0;
  uint64_t cursor = 0;
  uint64_t writes = 0;
  for (uint64_t i = 1; i <= commands; ++i) {
    const auto length = static_cast<uint32_t>(1 + random.below(16));
    if (random.below(100) < 60) {
      if (cursor + length > units) cursor = 0;
      mismatches += run_one(device, ftl::CommandKind::kWrite, cursor * g.sectors_per_unit,
                            length * g.sectors_per_unit);
      ++writes;
      if (writes % 500 == 0) {
        run_one(device, ftl::CommandKind::kTrim, cursor * g.sectors_per_unit,
                length * g.sectors_per_unit);
      }
      if (writes % 64 == 0) run_one(device, ftl::CommandKind::kFlush, 0, 0);
      cursor += length;
    } else {
      const uint64_t back = random.below(std::min<uint64_t>(units - length, 4096) + 1);
      const uint64_t start = cursor >= back + length ? cursor - back - length : 0;
      mismatches += run_one(device, ftl::CommandKind::kRead, start * g.sectors_per_unit,
                            length * g.sectors_per_unit);
    }
    if (i % check_every == 0) check();
  }
  check();
  return mismatches;
}

}  // namespace ssd::testing
