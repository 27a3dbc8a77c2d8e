// The platform keys: one entry per PlatformConfig field. Ranges here are the checks that need no
// other key; geometry and cross-key rules are in platform_validation.cpp.
#include "config/key_registry.h"

namespace ssd::config {

namespace {

// Timings and rates are bounded so that one operation, one access or one command's overhead
// stays far below the latest simulated time (ftl::kLatestTime, 2^63 ps): a run can then only
// reach that limit by adding up many of them, which the host model checks (docs/errors.md).
const Range kArrayTime = left_open(0, 1e6);  // µs: (0, 1 s] per NAND array operation
const Range kAccessTime = closed(0, 1e9);    // ns: [0, 1 s] per memory access or command
const Range kClock = closed(1e-3, 1e6);      // MHz: 1 kHz .. 1 THz
const Range kBusRate = closed(1e-3, 1e6);    // MT/s
const Range kBandwidth = closed(1e-3, 1e9);  // MB/s: 1 kB/s .. 1 PB/s
const Range kPcieRate = closed(1e-3, 1e3);   // GT/s per lane
const Range kEnergy = closed(0, 1e6);        // V, mA, uA, pJ, mW: none negative
const Range kCyclePrice = closed(0, 1e6);    // CPU cycles per primitive

}  // namespace

std::vector<KeyDef> platform_keys(PlatformConfig& p) {
  NandConfig& n = p.nand;
  FtlConfig& f = p.ftl;
  ControllerConfig& c = p.controller;
  HostConfig& h = p.host;
  std::vector<KeyDef> keys = {
      {"platform.name", &p.name, "Name of the platform, copied into reports"},

      {"nand.channels", &n.channels, "Flash channels (independent buses)", at_least(1)},
      {"nand.chips_per_channel", &n.chips_per_channel, "Chips (packages, chip enables) per channel",
       at_least(1)},
      {"nand.dies_per_chip", &n.dies_per_chip, "Dies per chip; each die works independently",
       at_least(1)},
      {"nand.planes_per_die", &n.planes_per_die, "Planes per die", at_least(1)},
      {"nand.blocks_per_plane", &n.blocks_per_plane, "Erase blocks per plane", at_least(1)},
      {"nand.pages_per_block", &n.pages_per_block, "Pages per erase block", closed(1, 65535)},
      {"nand.page_bytes", &n.page_bytes, "Main-area bytes per page", closed(1, 1 << 20)},
      {"nand.spare_bytes", &n.spare_bytes, "Spare (out-of-band) bytes per page", at_least(1)},
      {"nand.sector_bytes", &n.sector_bytes, "Host sector size (a power of two)", at_least(512)},
      {"nand.t_read_us", &n.t_read_us,
       "Page read, array to page register (tR); a list gives one per page type, LSB first",
       kArrayTime},
      {"nand.t_spare_read_us", &n.t_spare_read_us,
       "Spare-area-only read, array to register (<= t_read_us)", kArrayTime},
      {"nand.t_program_us", &n.t_program_us,
       "Page program, register to array (tPROG); a list gives one per page type, LSB first",
       kArrayTime},
      {"nand.page_type_order", &n.page_type_order,
       "Page type of each page of a block, from 0 (LSB), repeated over the block; [] = page "
       "number modulo the number of types"},
      {"nand.t_erase_us", &n.t_erase_us, "Block erase (tBERS)", kArrayTime},
      {"nand.channel_mt_s", &n.channel_mt_s, "Channel bus rate in mega-transfers per second",
       kBusRate},
      {"nand.channel_width_bytes", &n.channel_width_bytes, "Bytes moved per bus transfer",
       at_least(1)},
      {"nand.command_address_cycles", &n.command_address_cycles,
       "Bus cycles spent on command and address bytes per flash command", at_least(1)},
      {"nand.mapping_priority",
       &n.mapping_priority,
       "Die priority of mapping-metadata operations: that of host reads, host writes or GC",
       std::nullopt,
       {"host_read", "host_write", "gc"}},
      {"nand.die_scheduling",
       &n.die_scheduling,
       "Order on a die: read_priority (host reads, then host writes, then GC) or fcfs",
       std::nullopt,
       {"read_priority", "fcfs"}},
      {"nand.gc_backlog_victims_per_die", &n.gc_backlog_victims_per_die,
       "Victims whose GC a die may defer behind host work before host writes wait",
       closed(1, 1024)},
      {"nand.copyback", &n.copyback,
       "GC moves wholly valid pages by copy-back inside the die (same plane, no channel transfer)"},
      {"nand.multiplane", &n.multiplane,
       "Same-kind operations at one page offset in different planes of a die share the array "
       "time (multi-plane read, program and erase)"},

      {"ftl.scheme", &f.scheme, "Mapping scheme, by its registered name (e.g. \"page\")"},
      {"ftl.mapping_unit_bytes", &f.mapping_unit_bytes,
       "Mapping granularity; 0 = one page, else a multiple of sector_bytes dividing page_bytes"},
      {"ftl.over_provisioning", &f.over_provisioning,
       "Share of physical space hidden from the host", open(0.0, 0.9)},
      {"ftl.gc_threshold", &f.gc_threshold,
       "Share of a plane's blocks kept free; fewer free blocks start GC", open(0.0, 0.5)},
      {"ftl.gc_policy", &f.gc_policy, "GC victim selection", std::nullopt, {"greedy"}},
      {"ftl.gc_mode",
       &f.gc_mode,
       "incremental: a victim per new page below the reserve, lowest die priority; blocking: "
       "victims until the reserve is back, in the foreground",
       std::nullopt,
       {"incremental", "blocking"}},
      {"ftl.placement",
       &f.placement,
       "Plane of the host stream's next page: round_robin, most_free_plane (of the next die), "
       "least_busy_die (the die whose queued work ends first) or static (by logical unit)",
       std::nullopt,
       {"round_robin", "most_free_plane", "least_busy_die", "static"}},

      {"controller.cpu_mhz", &c.cpu_mhz, "FTL processor clock", kClock},
      {"controller.cycles_per_command", &c.cycles_per_command,
       "Firmware cycles per host command (parse, queue, complete)"},
      {"controller.write_waits_for_gc", &c.write_waits_for_gc,
       "A write that starts GC completes with that GC (true) or with its own operations only"},
      {"controller.capacitor_backed", &c.capacitor_backed,
       "Power-loss protection: at a power cut the controller flushes on its capacitors before the "
       "power goes"},
      {"controller.capacitor_hold_up_us", &c.capacitor_hold_up_us,
       "How long the capacitors hold the device up at a cut (0: as long as the flush takes)",
       closed(0, 1e9)},

      {"accelerator.clock_mhz", &p.accelerator.clock_mhz, "Hash-lookup accelerator clock", kClock},
      {"accelerator.bucket_bits", &p.accelerator.bucket_bits,
       "Accelerator table: 2^bucket_bits buckets", closed(1, 13)},
      {"accelerator.ways", &p.accelerator.ways, "Accelerator table: slots per bucket",
       closed(1, 16)},
      {"accelerator.engine",
       &p.accelerator.engine,
       "What answers accelerator commands: the C++ reference model or the Verilated RTL",
       std::nullopt,
       {"model", "rtl"}},

      {"dram.capacity_bytes", &p.dram.capacity_bytes, "Controller DRAM size", at_least(1)},
      {"dram.read_latency_ns", &p.dram.read_latency_ns, "DRAM read access latency", kAccessTime},
      {"dram.write_latency_ns", &p.dram.write_latency_ns, "DRAM write access latency", kAccessTime},
      {"dram.bandwidth_mb_s", &p.dram.bandwidth_mb_s, "DRAM bandwidth (10^6 bytes/s)", kBandwidth},

      {"nvram.kind",
       &p.nvram.kind,
       "Non-volatile RAM technology, or none",
       std::nullopt,
       {"none", "stt-mram", "pcm"}},
      {"nvram.capacity_bytes", &p.nvram.capacity_bytes, "NVRAM size (> 0 unless kind = none)"},
      {"nvram.read_latency_ns", &p.nvram.read_latency_ns, "NVRAM read access latency", kAccessTime},
      {"nvram.write_latency_ns", &p.nvram.write_latency_ns, "NVRAM write access latency",
       kAccessTime},
      {"nvram.bandwidth_mb_s", &p.nvram.bandwidth_mb_s,
       "NVRAM bandwidth (10^6 bytes/s; >= 0.001 unless kind = none)", closed(0, 1e9)},

      {"host.pcie_lanes", &h.pcie_lanes, "PCIe lanes: 1, 2, 4, 8 or 16"},
      {"host.pcie_gt_s", &h.pcie_gt_s, "PCIe rate per lane in GT/s (128b/130b encoding)",
       kPcieRate},
      {"host.command_overhead_ns", &h.command_overhead_ns,
       "Host-interface time per command (doorbell, fetch, completion)", kAccessTime},
      {"host.submission_queues", &h.submission_queues, "NVMe submission queues", at_least(1)},
      {"host.max_queue_depth", &h.max_queue_depth, "Entries per submission queue",
       closed(1, 65536)},

      {"cache.mode",
       &p.cache.mode,
       "Data cache in DRAM between host and FTL: off, write_through (writes complete on flash) "
       "or write_back (writes complete in DRAM)",
       std::nullopt,
       {"off", "write_through", "write_back"}},
      {"cache.capacity_bytes", &p.cache.capacity_bytes,
       "Data cache size, part of dram.capacity_bytes (> 0 unless cache.mode = off)"},
      {"cache.line_bytes", &p.cache.line_bytes,
       "Data cache line: a multiple of the mapping unit, at most 64 units (0 = one unit)"},
      {"cache.read_caching", &p.cache.read_caching,
       "Read misses fill the data cache (false: only writes are cached)"},
      {"cache.dirty_high_watermark", &p.cache.dirty_high_watermark,
       "Share of the cache dirty above which write-back runs behind the host (write_back)",
       left_open(0, 1)},
      {"cache.dirty_low_watermark", &p.cache.dirty_low_watermark,
       "Share of the cache dirty that background write-back brings it down to (write_back)",
       closed(0, 1)},
      {"cache.read_ahead_bytes", &p.cache.read_ahead_bytes,
       "Read-ahead: bytes read beyond a sequential read, behind the host (0 = none; whole "
       "mapping units, at most cache.capacity_bytes)"},
      {"cache.read_ahead_trigger", &p.cache.read_ahead_trigger,
       "Reads in a row, each beginning where the one before ended, that start read-ahead",
       closed(1, 1000000)},

      {"energy.nand_vcc_v", &p.energy.nand_vcc_v, "NAND supply voltage (0: no NAND energy)",
       kEnergy},
      {"energy.nand_read_ma", &p.energy.nand_read_ma, "NAND array read current, during tR",
       kEnergy},
      {"energy.nand_program_ma", &p.energy.nand_program_ma, "NAND program current, during tPROG",
       kEnergy},
      {"energy.nand_erase_ma", &p.energy.nand_erase_ma, "NAND erase current, during tBERS",
       kEnergy},
      {"energy.nand_io_ma", &p.energy.nand_io_ma,
       "NAND current while its channel moves commands and data", kEnergy},
      {"energy.nand_standby_ua", &p.energy.nand_standby_ua,
       "NAND standby current per die, while the die does nothing", kEnergy},
      {"energy.dram_pj_per_byte", &p.energy.dram_pj_per_byte, "DRAM energy per byte accessed",
       kEnergy},
      {"energy.nvram_pj_per_byte", &p.energy.nvram_pj_per_byte, "NVRAM energy per byte accessed",
       kEnergy},
      {"energy.cpu_pj_per_cycle", &p.energy.cpu_pj_per_cycle,
       "FTL processor energy per cycle of firmware work", kEnergy},
      {"energy.controller_idle_mw", &p.energy.controller_idle_mw,
       "Controller power drawn all the time (static and idle)", kEnergy},

      {"sim.quantum_ns", &p.sim.quantum_ns, "TLM global quantum for temporal decoupling",
       left_open(0, 1e12)},
      {"sim.memory_limit_bytes", &p.sim.memory_limit_bytes,
       "Host memory the simulator may use for the device (0 = what the machine has available)"},
  };
  // The price of each primitive of the FTL processor (config/cpu_primitives.h).
#define SSD_PRICE_KEY(count, unit, default_cycles, is_mapping, description) \
  keys.push_back({"controller.cycles_per_" #unit, &c.cycles_per_##unit, description, kCyclePrice});
  SSD_CPU_PRIMITIVES(SSD_PRICE_KEY)
#undef SSD_PRICE_KEY
  // The scheme folders' own keys, ftl.<group>.* (config/scheme_settings.h).
  for (KeyDef& key : p.ftl.settings.keys()) keys.push_back(std::move(key));
  return keys;
}

}  // namespace ssd::config
