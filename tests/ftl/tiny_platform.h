// A tiny flash device for FTL tests: small enough that a million commands run in seconds and GC
// runs constantly, big enough to have several channels, dies and planes.
#pragma once

#include <cstdint>
#include <string>

#include "config/platform_config.h"
#include "config/scenario_config.h"

namespace ssd::testing {

inline config::PlatformConfig tiny_platform(uint32_t unit_bytes = 0) {
  config::PlatformConfig p;
  p.nand.channels = 2;
  p.nand.chips_per_channel = 2;
  p.nand.dies_per_chip = 1;
  p.nand.planes_per_die = 2;
  p.nand.blocks_per_plane = 64;
  p.nand.pages_per_block = 16;
  p.nand.page_bytes = 4096;
  p.nand.spare_bytes = 64;
  p.nand.sector_bytes = 512;
  p.ftl.scheme = "page";
  p.ftl.mapping_unit_bytes = unit_bytes;
  p.ftl.over_provisioning = 0.25;
  p.ftl.gc_threshold = 0.05;
  return p;
}

// `p` with 256 blocks of 32 pages per plane and 10 % over-provisioning: room for a steady write
// amplification after aging (what the sampled-aging tests compare with simulated aging).
inline config::PlatformConfig with_aging_room(config::PlatformConfig p) {
  p.nand.blocks_per_plane = 256;
  p.nand.pages_per_block = 32;
  p.ftl.over_provisioning = 0.1;
  return p;
}

// with_aging_room's device (4 dies of 256 blocks of 32 pages per plane) with `scheme` and
// `planes_per_die` planes a die: what the sampled-aging tests of each scheme age.
inline config::PlatformConfig aging_room_with(const std::string& scheme, uint32_t planes_per_die) {
  config::PlatformConfig p = with_aging_room(tiny_platform());
  p.nand.planes_per_die = planes_per_die;
  p.ftl.scheme = scheme;
  return p;
}

// The preconditioning the sampled-aging tests compare: every unit written, then half the capacity
// overwritten at random, by `aging` ("sampled": a miniature of `sample_dies` dies; "simulated").
inline config::PreconditionConfig half_overwritten(const char* aging = "sampled", uint64_t seed = 7,
                                                   uint32_t sample_dies = 1) {
  config::PreconditionConfig pre;
  pre.fill_ratio = 1.0;
  pre.overwrite_ratio = 0.5;
  pre.seed = seed;
  pre.aging = aging;
  pre.sample_dies = sample_dies;
  return pre;
}

}  // namespace ssd::testing
