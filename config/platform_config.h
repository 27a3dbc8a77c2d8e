// Platform description: the hardware of one simulated SSD (flash geometry and timings, controller
// CPU, memories, host link, FTL choice). Filled from a platform TOML file plus --set overrides by
// config/config_loader.h; every field here has exactly one TOML key, named in the comment.
// Plain data, no SystemC: the FTL and the models both read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/cpu_primitives.h"
#include "config/scheme_settings.h"

namespace ssd::config {

struct NandConfig {
  uint32_t channels = 2;            // nand.channels
  uint32_t chips_per_channel = 2;   // nand.chips_per_channel
  uint32_t dies_per_chip = 1;       // nand.dies_per_chip
  uint32_t planes_per_die = 1;      // nand.planes_per_die
  uint32_t blocks_per_plane = 256;  // nand.blocks_per_plane
  uint32_t pages_per_block = 64;    // nand.pages_per_block
  uint32_t page_bytes = 4096;       // nand.page_bytes
  uint32_t spare_bytes = 128;       // nand.spare_bytes
  uint32_t sector_bytes = 512;      // nand.sector_bytes
  // Page read and program times by page type (nand.t_read_us, nand.t_program_us): one value for
  // every page, or one per page type of an MLC/TLC part (LSB first), the type of each page given
  // by nand.page_type_order (empty: page p of a block has type p % types, MQSim's rule).
  std::vector<double> t_read_us = {50.0};
  double t_spare_read_us = 20.0;  // nand.t_spare_read_us (spare-area-only read)
  std::vector<double> t_program_us = {500.0};
  std::vector<uint32_t> page_type_order;  // nand.page_type_order
  double t_erase_us = 3000.0;             // nand.t_erase_us
  double channel_mt_s = 333.0;            // nand.channel_mt_s (mega-transfers per second)
  uint32_t channel_width_bytes = 1;       // nand.channel_width_bytes (bytes per transfer)
  uint32_t command_address_cycles = 7;    // nand.command_address_cycles (bus cycles per command)
  // Die priority of mapping-metadata operations (translation pages, map segments): the rank of
  // host reads, of host writes, or of GC (nand.mapping_priority: host_read | host_write | gc).
  std::string mapping_priority = "host_write";
  // Die scheduling (nand.die_scheduling): read_priority ranks host reads > host writes and
  // mapping > GC, non-preemptive; fcfs serves each die in arrival order.
  std::string die_scheduling = "read_priority";
  // GC a die may defer behind host work, in victims (nand.gc_backlog_victims_per_die);
  // past it the oldest queued victim is placed for good and host work waits.
  uint32_t gc_backlog_victims_per_die = 2;
  // Copy-back (nand.copyback): GC moves a wholly valid page to another page of its plane inside
  // the die (copy-back read, then copy-back program from the page register), nothing over the
  // channel, as MQSim's Use_Copyback_for_GC. Off by default: data is read out (and could be
  // ECC-checked) and written back through the controller.
  bool copyback = false;
  // Multi-plane operations (nand.multiplane): the die's scheduler issues operations of one kind
  // and priority at the same page offset in different planes as one command, sharing the array
  // time, as MQSim's transaction scheduler always does. Off by default: a die runs one
  // single-plane operation at a time.
  bool multiplane = false;
};

struct FtlConfig {
  std::string scheme = "page";       // ftl.scheme
  uint32_t mapping_unit_bytes = 0;   // ftl.mapping_unit_bytes (0 = one flash page)
  double over_provisioning = 0.07;   // ftl.over_provisioning (share of physical space hidden)
  double gc_threshold = 0.05;        // ftl.gc_threshold (free-block share per plane that starts GC)
  std::string gc_policy = "greedy";  // ftl.gc_policy
  // ftl.gc_mode: incremental (one victim before each new page on a plane below its reserve, at
  // the lowest die priority) or blocking (victims until the plane is back at its reserve, in the
  // foreground, the die held).
  std::string gc_mode = "incremental";
  // ftl.placement: which plane the host stream's next page goes to (unit_writer.h).
  std::string placement = "most_free_plane";
  // ftl.<group>.*: the settings each scheme's folder declares (scheme_settings.h), e.g.
  // settings.get<ftl::FastSettings>() for ftl.fast.*.
  SchemeSettings settings;
};

struct ControllerConfig {
  double cpu_mhz = 400.0;              // controller.cpu_mhz
  uint32_t cycles_per_command = 1000;  // controller.cycles_per_command (firmware overhead)
  // controller.write_waits_for_gc: a write that starts GC completes with that GC's last
  // operation (true: GC in the foreground of the write that needed the space, as DiskSim's SSD
  // model cleans), or with its own operations only (false: GC runs behind the write, as in
  // MQSim, where a user write waits only for what is ahead of it on its die).
  bool write_waits_for_gc = true;
  // controller.capacitor_backed: power-loss protection. At a power cut the controller, held up by
  // its capacitors, completes what it has issued and runs a flush (the data cache written back,
  // open pages programmed, the map made durable) before the power goes: nothing acknowledged is
  // lost. Without it a cut loses what only DRAM held.
  bool capacitor_backed = false;
  // controller.capacitor_hold_up_us: how long the capacitors can hold the device up (their energy
  // over the load, as a drive's hold-up time is specified); 0: as long as the flush takes. A flush
  // that would take longer is cut short when they run out, and what it had not made durable by
  // then is lost although it was acknowledged: the report counts those cuts
  // (power.hold_up_exhausted) and the durability check the units (docs/cache.md).
  double capacitor_hold_up_us = 0;
  // controller.cycles_per_<unit>: the price of each primitive (config/cpu_primitives.h).
#define SSD_PRICE_FIELD(count, unit, default_cycles, is_mapping, description) \
  double cycles_per_##unit = default_cycles;
  SSD_CPU_PRIMITIVES(SSD_PRICE_FIELD)
#undef SSD_PRICE_FIELD
};

// VET's hash-lookup accelerator (rtl/README.md), used when ftl.vet.hash_backend = accelerator.
struct AcceleratorConfig {
  double clock_mhz = 400.0;      // accelerator.clock_mhz
  uint32_t bucket_bits = 13;     // accelerator.bucket_bits (2^bucket_bits buckets)
  uint32_t ways = 8;             // accelerator.ways (slots per bucket)
  std::string engine = "model";  // accelerator.engine: model | rtl (the Verilated engine)
};

// One memory model serves both DRAM and NVRAM (models/memory); only the numbers differ.
struct MemoryConfig {
  uint64_t capacity_bytes = 0;    // <mem>.capacity_bytes (0 = absent, for NVRAM)
  double read_latency_ns = 0.0;   // <mem>.read_latency_ns
  double write_latency_ns = 0.0;  // <mem>.write_latency_ns
  double bandwidth_mb_s = 0.0;    // <mem>.bandwidth_mb_s
  std::string kind;               // nvram.kind: "none", "stt-mram", "pcm" (DRAM: "dram")
};

struct HostConfig {
  uint32_t pcie_lanes = 4;            // host.pcie_lanes
  double pcie_gt_s = 8.0;             // host.pcie_gt_s (per lane; 128b/130b encoding assumed)
  double command_overhead_ns = 1000;  // host.command_overhead_ns (doorbell, fetch, completion)
  uint32_t submission_queues = 1;     // host.submission_queues
  uint32_t max_queue_depth = 1024;    // host.max_queue_depth (entries per submission queue)
};

// The host-side data cache in controller DRAM (ftl/cache/, docs/cache.md): between the host
// interface and the FTL, for every scheme.
struct CacheConfig {
  // cache.mode: off (no data cache: a write completes when the scheme's operations for it do),
  // write_through (writes go to the scheme at once and complete as with off; the cache keeps a
  // clean copy for reads) or write_back (a write completes once its data is in DRAM; dirty lines
  // go to the scheme when evicted, at the dirty watermark, on a flush and on a FUA write).
  std::string mode = "off";
  uint64_t capacity_bytes = 0;  // cache.capacity_bytes (carved from dram.capacity_bytes)
  uint32_t line_bytes = 0;      // cache.line_bytes (0 = one mapping unit; a multiple of it)
  bool read_caching = true;     // cache.read_caching: a read miss fills the cache
  // cache.dirty_high_watermark / cache.dirty_low_watermark: once more than high x capacity is
  // dirty, write-back runs behind the host until at most low x capacity is (write_back only).
  double dirty_high_watermark = 0.9;
  double dirty_low_watermark = 0.7;
  // cache.read_ahead_bytes: once cache.read_ahead_trigger reads in a row have each begun where
  // the one before ended, the cache reads this much beyond the latest one from the scheme, behind
  // the host, and keeps it clean (0: no read-ahead, as MQSim and SimpleSSD's default).
  uint64_t read_ahead_bytes = 0;
  uint32_t read_ahead_trigger = 1;  // cache.read_ahead_trigger (SimpleSSD's ReadPrefetchCount)

  bool on() const { return mode != "off"; }
  bool write_back() const { return mode == "write_back"; }
};

// Energy figures (docs/configuration.md#energy, docs/report.md#energy): per operation from a
// part's supply voltage and currents, per byte and per cycle for the memories and the controller,
// idle power. 0 (the default) where a platform gives no figure: that part counts no energy.
struct EnergyConfig {
  double nand_vcc_v = 0.0;          // energy.nand_vcc_v: NAND supply voltage
  double nand_read_ma = 0.0;        // energy.nand_read_ma: array read current (during tR)
  double nand_program_ma = 0.0;     // energy.nand_program_ma: program current (during tPROG)
  double nand_erase_ma = 0.0;       // energy.nand_erase_ma: erase current (during tBERS)
  double nand_io_ma = 0.0;          // energy.nand_io_ma: current while the channel moves data
  double nand_standby_ua = 0.0;     // energy.nand_standby_ua: per die, while it does nothing
  double dram_pj_per_byte = 0.0;    // energy.dram_pj_per_byte
  double nvram_pj_per_byte = 0.0;   // energy.nvram_pj_per_byte
  double cpu_pj_per_cycle = 0.0;    // energy.cpu_pj_per_cycle: the FTL processor, when it works
  double controller_idle_mw = 0.0;  // energy.controller_idle_mw: the controller, all the time
};

struct SimConfig {
  double quantum_ns = 1'000'000.0;  // sim.quantum_ns (TLM global quantum)
  // Host memory the simulator may use for the device (0 = what the machine has available).
  uint64_t memory_limit_bytes = 0;  // sim.memory_limit_bytes
};

struct PlatformConfig {
  std::string name = "default";  // platform.name
  NandConfig nand;
  FtlConfig ftl;
  ControllerConfig controller;
  AcceleratorConfig accelerator;
  MemoryConfig dram{64ull << 20, 50.0, 50.0, 6400.0, "dram"};
  MemoryConfig nvram{0, 0.0, 0.0, 0.0, "none"};
  HostConfig host;
  CacheConfig cache;
  EnergyConfig energy;
  SimConfig sim;
};

}  // namespace ssd::config
