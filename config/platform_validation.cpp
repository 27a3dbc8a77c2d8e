// Platform rules that relate keys: geometry that can be built and addressed, and an
// over-provisioning / GC-threshold pair with which GC can always free space.
#include <algorithm>
#include <limits>

#include "config/capacity.h"
#include "config/config_loader.h"
#include "config/config_messages.h"
#include "config/page_types.h"
#include "config/validation.h"

namespace ssd::config {

namespace {

constexpr uint32_t kMaxUnitsPerPage = 32;
constexpr uint32_t kMaxSectorsPerUnit =
    64;  // a unit's sector mask is one 64-bit word  // a unit-valid bitmap per page fits in 32 bits
constexpr size_t kMaxPageTypes = 8;                   // page types are 8-bit in the NAND timing
constexpr uint64_t kMaxMappingUnits = 0xFFFFFFFFull;  // unit numbers are 32-bit, all-ones = none

bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

uint64_t multiply_saturating(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) {
    return std::numeric_limits<uint64_t>::max();
  }
  return a * b;
}

std::string of(const char* key, uint64_t value) {
  return std::string(key) + " (" + std::to_string(value) + ")";
}

// Timings by page type: the lists name the same types (or one is a single value for all), and
// the page-type order names only those types and tiles a block.
std::optional<KeyProblem> check_page_types(const NandConfig& n) {
  const size_t types = page_types(n);
  if (types > kMaxPageTypes) {
    return KeyProblem{n.t_read_us.size() == types ? "nand.t_read_us" : "nand.t_program_us",
                      "gives " + std::to_string(types) + " page types; at most " +
                          std::to_string(kMaxPageTypes) + " are supported (QLC has 4)"};
  }
  const auto sized = [&](const char* key, size_t size) -> std::optional<KeyProblem> {
    if (size == 1 || size == types) return std::nullopt;
    return KeyProblem{key, "has " + std::to_string(size) +
                               " page types; the other timing list has " + std::to_string(types) +
                               " (give one value, or one per page type)"};
  };
  if (auto problem = sized("nand.t_read_us", n.t_read_us.size())) return problem;
  if (auto problem = sized("nand.t_program_us", n.t_program_us.size())) return problem;
  const std::vector<uint32_t>& order = n.page_type_order;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= types) {
      return KeyProblem{"nand.page_type_order", "element " + std::to_string(i) + " is page type " +
                                                    std::to_string(order[i]) +
                                                    ", but nand.t_read_us and nand.t_program_us" +
                                                    " give " + std::to_string(types) +
                                                    " page type(s), numbered from 0"};
    }
  }
  if (!order.empty() && n.pages_per_block % order.size() != 0) {
    return KeyProblem{"nand.page_type_order",
                      "has " + std::to_string(order.size()) +
                          " entries; it must tile a block: " + "its length must divide " +
                          of("nand.pages_per_block", n.pages_per_block)};
  }
  return std::nullopt;
}

std::optional<KeyProblem> check_nand(const NandConfig& n) {
  if (!is_power_of_two(n.sector_bytes)) {
    return KeyProblem{"nand.sector_bytes",
                      "must be a power of two >= 512 (got " + std::to_string(n.sector_bytes) + ")"};
  }
  if (n.page_bytes % n.sector_bytes != 0) {
    return KeyProblem{"nand.page_bytes", "must be a multiple of " +
                                             of("nand.sector_bytes", n.sector_bytes) + " (got " +
                                             std::to_string(n.page_bytes) + ")"};
  }
  if (n.t_spare_read_us > *std::min_element(n.t_read_us.begin(), n.t_read_us.end())) {
    return KeyProblem{"nand.t_spare_read_us",
                      "must not exceed nand.t_read_us: a spare-area read "
                      "cannot be slower than a full page read"};
  }
  return check_page_types(n);
}

std::optional<KeyProblem> check_mapping_unit(const PlatformConfig& p) {
  const uint32_t unit = p.ftl.mapping_unit_bytes;
  const NandConfig& n = p.nand;
  if (unit != 0 && unit % n.sector_bytes != 0) {
    return KeyProblem{"ftl.mapping_unit_bytes", "must be 0 (one page) or a multiple of " +
                                                    of("nand.sector_bytes", n.sector_bytes) +
                                                    " (got " + std::to_string(unit) + ")"};
  }
  if (unit != 0 && n.page_bytes % unit != 0) {
    return KeyProblem{"ftl.mapping_unit_bytes", "must divide " +
                                                    of("nand.page_bytes", n.page_bytes) + " (got " +
                                                    std::to_string(unit) + ")"};
  }
  // A unit's sector mask is one 64-bit word (ftl/core/unit_span.h).
  if (mapping_unit_bytes(p) / n.sector_bytes > kMaxSectorsPerUnit) {
    return KeyProblem{unit != 0 ? "ftl.mapping_unit_bytes" : "nand.page_bytes",
                      "gives mapping units of " +
                          std::to_string(mapping_unit_bytes(p) / n.sector_bytes) +
                          " sectors; at most " + std::to_string(kMaxSectorsPerUnit) +
                          " are supported (set ftl.mapping_unit_bytes to a smaller unit)"};
  }
  const uint32_t units_per_page = n.page_bytes / mapping_unit_bytes(p);
  if (units_per_page > kMaxUnitsPerPage) {
    return KeyProblem{"ftl.mapping_unit_bytes",
                      "gives " + std::to_string(units_per_page) + " units per page; at most " +
                          std::to_string(kMaxUnitsPerPage) + " are supported"};
  }
  uint64_t units = units_per_page;
  for (uint64_t count : {n.channels, n.chips_per_channel, n.dies_per_chip, n.planes_per_die,
                         n.blocks_per_plane, n.pages_per_block}) {
    units = multiply_saturating(units, count);
  }
  if (units >= kMaxMappingUnits) {
    return KeyProblem{"nand.blocks_per_plane",
                      "the device has " + std::to_string(units) +
                          " mapping units (channels x chips x dies x planes x blocks x pages x "
                          "units per page); it must have fewer than 4294967295"};
  }
  return std::nullopt;
}

// GC frees a block by copying its valid units into free blocks, so it needs spare blocks beyond
// the ones it keeps in reserve. Rule, per plane: reserve = ceil(gc_threshold * blocks) >= 2, and
// floor(over_provisioning * blocks) > reserve + 1.
std::optional<KeyProblem> check_gc_headroom(const PlatformConfig& p) {
  const uint32_t reserve = gc_reserve_blocks_per_plane(p);
  if (reserve < 2) {
    return KeyProblem{"ftl.gc_threshold",
                      "keeps only " + std::to_string(reserve) +
                          " free block(s) per plane "
                          "(ceil(gc_threshold x blocks_per_plane)); GC needs at least 2"};
  }
  const uint32_t hidden = over_provisioned_blocks_per_plane(p);
  if (hidden <= reserve + 1) {
    return KeyProblem{"ftl.over_provisioning",
                      "hides " + std::to_string(hidden) +
                          " blocks per plane "
                          "(floor(over_provisioning x blocks_per_plane)); it must exceed the GC "
                          "reserve of " +
                          std::to_string(reserve) + " blocks + 1, or GC cannot free space"};
  }
  return std::nullopt;
}

std::string known(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// The scheme must exist; then its own rules (in its folder, through the catalog) apply.
std::optional<KeyProblem> check_scheme(const PlatformConfig& p, const SchemeCatalog& schemes) {
  const std::vector<std::string> names = schemes.scheme_names();
  if (std::find(names.begin(), names.end(), p.ftl.scheme) == names.end()) {
    const std::string what =
        p.ftl.scheme.empty() ? "must name a scheme" : "unknown scheme '" + p.ftl.scheme + "'";
    return KeyProblem{"ftl.scheme", what + " (known: " + known(names) + ")"};
  }
  return schemes.check(p);
}

std::optional<KeyProblem> check_memories_and_host(const PlatformConfig& p) {
  if (p.nvram.kind != "none" && p.nvram.capacity_bytes == 0) {
    return KeyProblem{"nvram.capacity_bytes",
                      "must be > 0 when nvram.kind is '" + p.nvram.kind + "'"};
  }
  if (p.nvram.kind != "none" && !(p.nvram.bandwidth_mb_s >= 1e-3)) {
    return KeyProblem{"nvram.bandwidth_mb_s",
                      "must be >= 0.001 when nvram.kind is '" + p.nvram.kind + "'"};
  }
  // Below a nanosecond the hold-up would round to 0 picoseconds or so, which means "no limit".
  if (p.controller.capacitor_hold_up_us > 0 && p.controller.capacitor_hold_up_us < 1e-3) {
    return KeyProblem{"controller.capacitor_hold_up_us",
                      "must be 0 (no limit) or at least 0.001 (1 ns)"};
  }
  if (p.controller.capacitor_hold_up_us > 0 && !p.controller.capacitor_backed) {
    return KeyProblem{"controller.capacitor_hold_up_us",
                      "needs controller.capacitor_backed = true (a hold-up time of capacitors "
                      "the controller does not have)"};
  }
  const uint32_t lanes = p.host.pcie_lanes;
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16) {
    return KeyProblem{"host.pcie_lanes",
                      "must be one of: 1, 2, 4, 8, 16 (got " + std::to_string(lanes) + ")"};
  }
  return std::nullopt;
}

std::optional<KeyProblem> check_cache(const PlatformConfig& p) {
  const CacheConfig& c = p.cache;
  if (!c.on()) {
    // Read-ahead keeps what it reads in the cache: without one it would silently do nothing.
    if (c.read_ahead_bytes != 0) {
      return KeyProblem{"cache.read_ahead_bytes", "needs a data cache (cache.mode is 'off')"};
    }
    return std::nullopt;
  }
  const uint64_t unit =
      p.ftl.mapping_unit_bytes != 0 ? p.ftl.mapping_unit_bytes : p.nand.page_bytes;
  const uint64_t line = c.line_bytes != 0 ? c.line_bytes : unit;
  if (line % unit != 0 || line / unit > 64) {
    return KeyProblem{"cache.line_bytes", "must be a multiple of the mapping unit (" +
                                              std::to_string(unit) + " bytes) of at most 64 units" +
                                              " (got " + std::to_string(line) + ")"};
  }
  if (c.capacity_bytes < line) {
    return KeyProblem{"cache.capacity_bytes",
                      "must hold at least one cache line (" + std::to_string(line) +
                          " bytes) when cache.mode is '" + c.mode + "'" + " (got " +
                          std::to_string(c.capacity_bytes) + ")"};
  }
  if (c.capacity_bytes > p.dram.capacity_bytes) {
    return KeyProblem{"cache.capacity_bytes",
                      "must fit in the controller DRAM (dram.capacity_bytes = " +
                          std::to_string(p.dram.capacity_bytes) + ")" + " (got " +
                          std::to_string(c.capacity_bytes) + ")"};
  }
  if (c.dirty_low_watermark > c.dirty_high_watermark) {
    return KeyProblem{"cache.dirty_low_watermark", "must be <= cache.dirty_high_watermark"};
  }
  if (c.read_ahead_bytes % unit != 0 || c.read_ahead_bytes > c.capacity_bytes) {
    return KeyProblem{"cache.read_ahead_bytes",
                      "must be whole mapping units (" + std::to_string(unit) +
                          " bytes) of at most cache.capacity_bytes (" +
                          std::to_string(c.capacity_bytes) + ")" + " (got " +
                          std::to_string(c.read_ahead_bytes) + ")"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<KeyProblem> find_platform_problem(const PlatformConfig& platform,
                                                const SchemeCatalog& schemes) {
  PlatformConfig copy = platform;  // the key list binds mutable fields; we only read them
  if (auto problem = check_key_bounds(platform_keys(copy))) return problem;
  if (auto problem = check_nand(platform.nand)) return problem;
  if (auto problem = check_mapping_unit(platform)) return problem;
  if (auto problem = check_gc_headroom(platform)) return problem;
  if (auto problem = check_memories_and_host(platform)) return problem;
  if (auto problem = check_cache(platform)) return problem;
  return check_scheme(platform, schemes);
}

void validate_platform(const PlatformConfig& platform, const std::string& source,
                       const SchemeCatalog& schemes) {
  if (auto problem = find_platform_problem(platform, schemes)) {
    throw_error(Origin{source, 0}, problem->key, problem->reason);
  }
}

}  // namespace ssd::config
