// Everything one run measured, gathered by the platform at the end of a simulation, and its two
// renderings: report.json (docs/report.md documents every field) and the short human summary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "config/cpu_primitives.h"
#include "report/latency_histogram.h"

namespace ssd::report {

// A trace replay's workload (report.json "workload"; absent for synthetic runs).
struct TraceWorkloadReport {
  std::string file;
  std::string format;
  std::string blkparse_action;  // "" unless blkparse
  std::string mode;             // "open" | "closed"
  double speed = 1.0;
  uint64_t lines = 0;
  uint64_t records = 0;
  uint64_t skipped_lines = 0;
  std::vector<std::string> first_skipped;
  uint64_t devices = 0;
  std::string device_selection;  // "all" or a number
  std::string fit;               // asked: error | wrap | scale
  std::string fit_applied;       // none | wrap | scale
  double scale_factor = 1.0;
};

// One stream of host commands counted apart: a job of an fio job file (docs/clients.md), each
// with its own queue depth. A run of one stream has one, the same as the run's totals.
struct StreamReport {
  std::string name;
  uint32_t group = 0;  // its reporting group (fio's groupid: a stonewall starts the next)
  uint64_t reads = 0, writes = 0, flushes = 0, trims = 0;
  uint64_t bytes_read = 0, bytes_written = 0, bytes_trimmed = 0;
  LatencyHistogram latency_read, latency_write, latency_flush, latency_trim;
  uint64_t first_issue_ns = 0;      // simulated time of its first command's arrival
  uint64_t last_completion_ns = 0;  // and of its last completion
};

struct RunReport {
  // What ran.
  std::string platform_name;
  std::string platform_file;
  std::string scenario_name;
  std::string scenario_file;
  std::string scheme;
  uint64_t seed = 0;
  uint64_t logical_bytes = 0;                // capacity the host sees
  uint64_t physical_bytes = 0;               // raw flash data area
  std::optional<TraceWorkloadReport> trace;  // set when the workload was a trace replay

  // Host commands completed, by kind, and their data.
  uint64_t reads = 0, writes = 0, flushes = 0, trims = 0;
  uint64_t fua_writes = 0;  // of the writes, those sent with Force Unit Access
  uint64_t bytes_read = 0, bytes_written = 0;
  LatencyHistogram latency_read, latency_write, latency_flush, latency_trim;
  uint64_t bytes_trimmed = 0;
  std::vector<StreamReport> streams;  // per workload stream, in the order they were defined

  // FTL: mapping units programmed for the host, by GC (merges included) and as mapping metadata
  // (translation pages, map segments...), and padding slots (waf = (host + gc + mapping) / host).
  uint64_t host_units_written = 0;
  uint64_t gc_units_written = 0;
  uint64_t mapping_units_written = 0;
  uint64_t padded_units = 0;
  uint64_t gc_invocations = 0, gc_pages_copied = 0, gc_erases = 0;
  // GC victims run within host commands, and the sum over commands of the square of each
  // command's count (ftl_stats.h).
  uint64_t gc_victims_in_commands = 0, gc_victims_squared_by_command = 0;
  uint64_t erase_count_min = 0, erase_count_max = 0;
  double erase_count_mean = 0.0;

  // NAND operations issued during the timed run, by kind.
  uint64_t nand_reads = 0, nand_spare_reads = 0, nand_programs = 0, nand_erases = 0;
  uint64_t nand_copybacks = 0;  // nand.copyback: pages copied inside the die
  // nand.multiplane: reads, spare reads, programs and erases that joined another's array time
  uint64_t nand_joined_reads = 0;
  uint64_t nand_joined_spare_reads = 0;
  uint64_t nand_joined_programs = 0;
  uint64_t nand_joined_erases = 0;
  // Time each die and each channel was reserved during the timed run (ns), in die and channel
  // order: against simulated_ns, how close the run came to what the flash can do.
  std::vector<uint64_t> die_busy_ns;
  std::vector<uint64_t> channel_busy_ns;

  // Mapping state as the controller would hold it.
  uint64_t mapping_memory_bytes = 0;
  std::optional<double> mapping_cache_hit_ratio;  // null where the scheme has no cache
  // Figures only the run's scheme has ("mapping.<name>"; e.g. extent counts for VET and EMT).
  struct MappingFigure {
    std::string name;
    double value = 0.0;
    bool whole = true;      // a count (written as an integer) rather than a mean
    std::string text = {};  // when not empty, written instead of the value
    // A distribution: counts of the values 0, 1, 2... (trailing zeros dropped); when not empty,
    // written as an array instead of the value.
    std::vector<uint64_t> counts = {};
  };
  std::vector<MappingFigure> mapping_figures;

  // The FTL processor over the timed run (models/controller/ftl_processor.h).
  struct Controller {
    uint64_t cpu_cycles = 0;
    uint64_t mapping_cycles = 0;  // of which mapping primitives, accelerator commands included
    uint64_t busy_ns = 0;         // firmware time, accelerator waits included
    uint64_t buffer_reads = 0;    // flash reads served from the buffer of a program in flight
    // One count per primitive of config/cpu_primitives.h (table_lookups, hash_probes, ...).
#define SSD_REPORT_COUNT(count, unit, default_cycles, is_mapping, description) uint64_t count = 0;
    SSD_CPU_PRIMITIVES(SSD_REPORT_COUNT)
#undef SSD_REPORT_COUNT
  } controller;
  // VET's hash-lookup accelerator; absent (null in report.json) when the platform has none.
  struct Accelerator {
    std::string engine;  // "model" or "rtl"
    uint32_t buckets = 0, ways = 0;
    double clock_mhz = 0.0;
    uint64_t commands = 0;
    uint64_t cycles = 0;           // engine cycles, the commands' latencies summed
    uint64_t wait_ns = 0;          // the firmware's time waiting for answers
    uint64_t entries = 0;          // nodes the engine holds at the end
    uint64_t refused_inserts = 0;  // INSERTs answered OVERFLOW (preconditioning included)
  };
  std::optional<Accelerator> accelerator;

  // Energy over the timed run, joules by part (models/platform/energy.h; energy.* of the
  // platform, 0 where it gives no figure).
  struct Energy {
    double nand_read_j = 0.0, nand_program_j = 0.0, nand_erase_j = 0.0;
    double nand_io_j = 0.0, nand_standby_j = 0.0;
    double dram_j = 0.0, nvram_j = 0.0, cpu_j = 0.0, controller_idle_j = 0.0;
    double total_j() const {
      return nand_read_j + nand_program_j + nand_erase_j + nand_io_j + nand_standby_j + dram_j +
             nvram_j + cpu_j + controller_idle_j;
    }
  } energy;

  // Controller memories.
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  uint64_t nvram_read_bytes = 0, nvram_write_bytes = 0;

  // The host-side data cache (cache.*; docs/cache.md); absent (left out of report.json) when
  // cache.mode is off. Counts are of the timed run; units are mapping units.
  struct Cache {
    std::string mode;
    uint64_t capacity_bytes = 0, line_bytes = 0, capacity_lines = 0;
    bool read_caching = true;
    uint64_t read_hit_units = 0, read_miss_units = 0;
    uint64_t write_hit_units = 0, write_miss_units = 0;
    uint64_t fill_units = 0;
    uint64_t evicted_lines = 0, dirty_evictions = 0;
    uint64_t write_back_units = 0, background_write_back_units = 0, flush_write_back_units = 0;
    uint64_t lines_at_end = 0, dirty_lines_at_end = 0;
    uint64_t peak_lines = 0, peak_dirty_lines = 0;
    uint64_t read_ahead_bytes = 0, read_ahead_units = 0, read_ahead_hit_units = 0;
  };
  std::optional<Cache> cache;

  // Data-integrity oracle.
  bool integrity_enabled = false;
  uint64_t integrity_checked_reads = 0;
  uint64_t integrity_mismatches = 0;
  std::string integrity_first_mismatch;  // "" when none

  // Power cuts (scenario power.*; docs/power-loss.md); absent (left out of report.json) when off.
  struct Power {
    uint64_t cuts = 0;
    uint64_t lost_commands = 0;  // in flight at a cut: never acknowledged
    uint64_t undone_operations = 0;
    uint64_t torn_programs = 0;
    uint64_t torn_erases = 0;
    std::vector<uint64_t> recovery_ns;  // per cut, in order
    // Per cut, with controller.capacitor_backed: how long the capacitors held the device up (the
    // flush from the power failure to the power going); empty without.
    std::vector<uint64_t> hold_up_ns;
    // Cuts at which the capacitors ran out before their flush completed
    // (controller.capacitor_hold_up_us): each may lose acknowledged writes.
    uint64_t hold_up_exhausted = 0;
    uint64_t recovery_reads = 0, recovery_spare_reads = 0, recovery_programs = 0;
    uint64_t recovery_erases = 0, recovery_nvram_reads = 0;
    uint64_t units_checked = 0;
    uint64_t lost_durable_units = 0;  // must be 0
    uint64_t rolled_back_units = 0;
    uint64_t trimmed_resurrected_units = 0;
    std::string first_loss;  // "" when none
  };
  std::optional<Power> power;

  // Preconditioning and warm-up passes (untimed; wall_s covers both).
  uint64_t precondition_units_written = 0;
  // How the overwrites aged the device (precondition.aging): "simulated" or "sampled"; "none"
  // without overwrites.
  std::string precondition_aging = "none";
  uint64_t warmup_passes = 0;    // workload.passes - 1
  uint64_t warmup_requests = 0;  // requests those passes replayed
  double precondition_wall_s = 0.0;

  // Simulation.
  uint64_t simulated_ns = 0;
  // Wall-clock (machine) fields: the only ones allowed to differ between equal runs.
  double wall_s = 0.0;
  uint64_t peak_rss_bytes = 0;  // the simulator process's peak resident memory
};

// JSON document of the report. With include_wall_clock=false the wall-clock fields
// (sim.wall_s, sim.requests_per_wall_s, sim.peak_rss_mb, precondition.wall_s) are left out, so two
// runs with the same inputs and seed compare equal byte for byte.
nlohmann::json to_json(const RunReport& report, bool include_wall_clock = true);

// A few lines for the terminal: requests, latency table, IOPS, bandwidth, WAF, GC, integrity.
std::string summary_text(const RunReport& report);

// Writes report.json into `dir` (created if missing) through a temporary file and a rename, so a
// failed run never leaves a half-written report. Throws std::runtime_error naming the path.
void write_report_json(const RunReport& report, const std::string& dir);
// Writes `document` as `dir`/`name`, through a temporary file renamed once complete. Bytes that
// are not UTF-8 (names come from files and traces) are replaced rather than failing at the end
// of a long run. The ordered form keeps its keys in their order (fio's JSON, fio_json.h).
void write_json_file(const nlohmann::json& document, const std::string& dir,
                     const std::string& name);
void write_json_file(const nlohmann::ordered_json& document, const std::string& dir,
                     const std::string& name);

}  // namespace ssd::report
