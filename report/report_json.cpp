// report.json: the RunReport as a JSON document (docs/report.md documents every field).
//
// nlohmann::json keeps object keys sorted, so the key order, and with it the dumped text, depends
// only on the values: two runs with the same inputs and seed dump byte for byte the same (once the
// wall-clock fields are left out). Doubles are dumped in their shortest round-trip form.
// Derived figures (IOPS, bandwidth, WAF) are computed here only; summary_text reads them back from
// this document, so the terminal and the file can never disagree.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {

namespace {

using nlohmann::json;

// Nearest-rank percentile of `sorted` (ascending, not empty), in microseconds.
double percentile_us(const std::vector<uint64_t>& sorted, double p) {
  const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * double(sorted.size())));
  return double(sorted[std::max<size_t>(rank, 1) - 1]) / 1000.0;
}

json cache_json(const RunReport::Cache& c) {
  const uint64_t reads = c.read_hit_units + c.read_miss_units;
  const uint64_t writes = c.write_hit_units + c.write_miss_units;
  return {{"mode", c.mode},
          {"capacity_bytes", c.capacity_bytes},
          {"line_bytes", c.line_bytes},
          {"capacity_lines", c.capacity_lines},
          {"read_caching", c.read_caching},
          {"read_hit_units", c.read_hit_units},
          {"read_miss_units", c.read_miss_units},
          {"read_hit_ratio", reads ? double(c.read_hit_units) / double(reads) : 0.0},
          {"write_hit_units", c.write_hit_units},
          {"write_miss_units", c.write_miss_units},
          {"write_hit_ratio", writes ? double(c.write_hit_units) / double(writes) : 0.0},
          {"fill_units", c.fill_units},
          {"evicted_lines", c.evicted_lines},
          {"dirty_evictions", c.dirty_evictions},
          {"write_back_units", c.write_back_units},
          {"background_write_back_units", c.background_write_back_units},
          {"flush_write_back_units", c.flush_write_back_units},
          {"lines_at_end", c.lines_at_end},
          {"dirty_lines_at_end", c.dirty_lines_at_end},
          {"peak_lines", c.peak_lines},
          {"peak_dirty_lines", c.peak_dirty_lines},
          {"read_ahead_bytes", c.read_ahead_bytes},
          {"read_ahead_units", c.read_ahead_units},
          {"read_ahead_hit_units", c.read_ahead_hit_units}};
}

json power_json(const RunReport::Power& p) {
  std::vector<uint64_t> sorted = p.recovery_ns;
  std::sort(sorted.begin(), sorted.end());
  json recovery = {{"mean", 0.0}, {"p50", 0.0}, {"p99", 0.0}, {"max", 0.0}};
  if (!sorted.empty()) {
    double sum = 0.0;
    for (const uint64_t ns : sorted) sum += double(ns);
    recovery = {{"mean", sum / double(sorted.size()) / 1000.0},
                {"p50", percentile_us(sorted, 50)},
                {"p99", percentile_us(sorted, 99)},
                {"max", double(sorted.back()) / 1000.0}};
  }
  json out = {{"cuts", p.cuts},
              {"lost_commands", p.lost_commands},
              {"undone_operations", p.undone_operations},
              {"torn_programs", p.torn_programs},
              {"torn_erases", p.torn_erases},
              {"recovery_us", recovery},
              {"recovery_operations",
               {{"reads", p.recovery_reads},
                {"spare_reads", p.recovery_spare_reads},
                {"programs", p.recovery_programs},
                {"erases", p.recovery_erases},
                {"nvram_reads", p.recovery_nvram_reads}}},
              {"units_checked", p.units_checked},
              {"lost_durable_units", p.lost_durable_units},
              {"rolled_back_units", p.rolled_back_units},
              {"trimmed_resurrected_units", p.trimmed_resurrected_units}};
  out["first_lost_unit"] = p.first_loss.empty() ? json(nullptr) : json(p.first_loss);
  if (!p.hold_up_ns.empty()) {
    uint64_t sum = 0;
    for (const uint64_t ns : p.hold_up_ns) sum += ns;
    out["hold_up_us"] = {
        {"mean", double(sum) / double(p.hold_up_ns.size()) / 1000.0},
        {"max", double(*std::max_element(p.hold_up_ns.begin(), p.hold_up_ns.end())) / 1000.0}};
    out["hold_up_exhausted"] = p.hold_up_exhausted;
  }
  return out;
}

// Shares of the simulated time the dies (mean, least and most busy) and channels were reserved.
json busy_shares(const RunReport& r) {
  const auto share = [&r](uint64_t busy_ns) {
    return r.simulated_ns ? double(busy_ns) / double(r.simulated_ns) : 0.0;
  };
  const auto mean = [&share](const std::vector<uint64_t>& busy) {
    double sum = 0.0;
    for (const uint64_t b : busy) sum += share(b);
    return busy.empty() ? 0.0 : sum / double(busy.size());
  };
  const auto [least, most] = std::minmax_element(r.die_busy_ns.begin(), r.die_busy_ns.end());
  const bool dies = !r.die_busy_ns.empty();
  return {{"die_mean", mean(r.die_busy_ns)},
          {"die_min", dies ? share(*least) : 0.0},
          {"die_max", dies ? share(*most) : 0.0},
          {"channel_mean", mean(r.channel_busy_ns)}};
}

json latency_json(const LatencyHistogram& histogram) {
  const LatencySummary s = histogram.summary();
  return json{{"count", s.count}, {"mean", s.mean_ns}, {"p50", s.p50_ns}, {"p90", s.p90_ns},
              {"p99", s.p99_ns},  {"p999", s.p999_ns}, {"max", s.max_ns}};
}

// Rate per second of simulated (or wall) time; 0 when no time passed, rather than inf or NaN,
// which JSON cannot carry.
double per_second(double amount, double seconds) { return seconds > 0.0 ? amount / seconds : 0.0; }

}  // namespace

json to_json(const RunReport& r, bool include_wall_clock) {
  const uint64_t completed = r.reads + r.writes + r.flushes + r.trims;
  const double simulated_s = static_cast<double>(r.simulated_ns) / 1e9;

  json j;
  j["run"] = {{"platform", r.platform_name}, {"platform_file", r.platform_file},
              {"scenario", r.scenario_name}, {"scenario_file", r.scenario_file},
              {"scheme", r.scheme},          {"seed", r.seed}};
  j["device"] = {{"logical_bytes", r.logical_bytes}, {"physical_bytes", r.physical_bytes}};

  j["requests"] = {{"read", r.reads}, {"write", r.writes}, {"flush", r.flushes}, {"trim", r.trims}};
  // Only in runs that sent FUA writes, so that other reports stay as they were.
  if (r.fua_writes > 0) j["requests"]["fua_write"] = r.fua_writes;
  j["bytes"] = {{"read", r.bytes_read}, {"written", r.bytes_written}};
  j["latency_ns"] = {{"read", latency_json(r.latency_read)},
                     {"write", latency_json(r.latency_write)},
                     {"flush", latency_json(r.latency_flush)},
                     {"trim", latency_json(r.latency_trim)}};

  j["iops"] = per_second(static_cast<double>(completed), simulated_s);
  // MB = 10^6 bytes, as drive datasheets count them.
  j["bandwidth_mb_s"] =
      per_second(static_cast<double>(r.bytes_read + r.bytes_written), simulated_s) / 1e6;
  j["bandwidth_mb_s_read"] = per_second(static_cast<double>(r.bytes_read), simulated_s) / 1e6;
  j["bandwidth_mb_s_write"] = per_second(static_cast<double>(r.bytes_written), simulated_s) / 1e6;

  // Write amplification in mapping units; undefined (null) when the host wrote nothing.
  if (r.host_units_written > 0) {
    j["waf"] =
        static_cast<double>(r.host_units_written + r.gc_units_written + r.mapping_units_written) /
        static_cast<double>(r.host_units_written);
  } else {
    j["waf"] = nullptr;
  }
  j["ftl"] = {{"host_units_written", r.host_units_written},
              {"gc_units_written", r.gc_units_written},
              {"mapping_units_written", r.mapping_units_written},
              {"padded_units", r.padded_units}};
  j["gc"] = {{"invocations", r.gc_invocations},
             {"pages_copied", r.gc_pages_copied},
             {"erases", r.gc_erases}};
  // Mean over victims of the victims run in the same host command; null without any.
  if (r.gc_victims_in_commands > 0) {
    j["gc"]["victims_per_command"] = static_cast<double>(r.gc_victims_squared_by_command) /
                                     static_cast<double>(r.gc_victims_in_commands);
  } else {
    j["gc"]["victims_per_command"] = nullptr;
  }
  j["wear"] = {{"erase_count_min", r.erase_count_min},
               {"erase_count_max", r.erase_count_max},
               {"erase_count_mean", r.erase_count_mean}};
  j["nand_ops"] = {{"read", r.nand_reads},
                   {"spare_read", r.nand_spare_reads},
                   {"program", r.nand_programs},
                   {"erase", r.nand_erases},
                   {"copyback", r.nand_copybacks},
                   {"multiplane_joined",
                    {{"read", r.nand_joined_reads},
                     {"spare_read", r.nand_joined_spare_reads},
                     {"program", r.nand_joined_programs},
                     {"erase", r.nand_joined_erases}}}};
  j["nand_busy"] = busy_shares(r);

  j["mapping"] = {{"memory_bytes", r.mapping_memory_bytes}};
  if (r.mapping_cache_hit_ratio) {
    j["mapping"]["cache_hit_ratio"] = *r.mapping_cache_hit_ratio;
  } else {
    j["mapping"]["cache_hit_ratio"] = nullptr;
  }
  for (const RunReport::MappingFigure& figure : r.mapping_figures) {
    if (!figure.text.empty()) {
      j["mapping"][figure.name] = figure.text;
    } else if (!figure.counts.empty()) {
      j["mapping"][figure.name] = figure.counts;
    } else if (figure.whole) {
      j["mapping"][figure.name] = static_cast<uint64_t>(figure.value);
    } else {
      j["mapping"][figure.name] = figure.value;
    }
  }
  const RunReport::Controller& c = r.controller;
  j["controller"] = {{"cpu_cycles", c.cpu_cycles},
                     {"mapping_cycles", c.mapping_cycles},
                     {"busy_ns", c.busy_ns},
                     {"buffer_reads", c.buffer_reads},
                     {"utilisation", r.simulated_ns ? double(c.busy_ns) / r.simulated_ns : 0.0}};
#define SSD_REPORT_COUNT(count, unit, default_cycles, is_mapping, description) \
  j["controller"][#count] = c.count;
  SSD_CPU_PRIMITIVES(SSD_REPORT_COUNT)
#undef SSD_REPORT_COUNT
  const RunReport::Energy& e = r.energy;
  const double total_j = e.total_j();
  j["energy"] = {{"joules",
                  {{"nand_read", e.nand_read_j},
                   {"nand_program", e.nand_program_j},
                   {"nand_erase", e.nand_erase_j},
                   {"nand_io", e.nand_io_j},
                   {"nand_standby", e.nand_standby_j},
                   {"dram", e.dram_j},
                   {"nvram", e.nvram_j},
                   {"cpu", e.cpu_j},
                   {"controller_idle", e.controller_idle_j},
                   {"total", total_j}}},
                 {"per_request_uj", completed ? total_j * 1e6 / double(completed) : 0.0}};
  // Per 10^9 bytes the host wrote; null when it wrote none.
  if (r.bytes_written > 0) {
    j["energy"]["per_gb_written_j"] = total_j / (double(r.bytes_written) / 1e9);
  } else {
    j["energy"]["per_gb_written_j"] = nullptr;
  }
  if (r.accelerator) {
    const RunReport::Accelerator& a = *r.accelerator;
    j["accelerator"] = {{"engine", a.engine},
                        {"buckets", a.buckets},
                        {"ways", a.ways},
                        {"clock_mhz", a.clock_mhz},
                        {"commands", a.commands},
                        {"cycles", a.cycles},
                        {"wait_ns", a.wait_ns},
                        {"mean_command_ns", a.commands ? double(a.wait_ns) / a.commands : 0.0},
                        {"entries", a.entries},
                        {"refused_inserts", a.refused_inserts}};
  } else {
    j["accelerator"] = nullptr;
  }
  j["memory"] = {{"dram_read_bytes", r.dram_read_bytes},
                 {"dram_write_bytes", r.dram_write_bytes},
                 {"nvram_read_bytes", r.nvram_read_bytes},
                 {"nvram_write_bytes", r.nvram_write_bytes}};

  if (r.cache) j["cache"] = cache_json(*r.cache);

  j["integrity"] = {{"enabled", r.integrity_enabled},
                    {"checked_reads", r.integrity_checked_reads},
                    {"mismatches", r.integrity_mismatches}};
  if (r.integrity_first_mismatch.empty()) {
    j["integrity"]["first_mismatch"] = nullptr;
  } else {
    j["integrity"]["first_mismatch"] = r.integrity_first_mismatch;
  }

  if (r.power) j["power"] = power_json(*r.power);

  if (r.trace) {
    const TraceWorkloadReport& t = *r.trace;
    j["workload"] = {{"kind", "trace"},
                     {"file", t.file},
                     {"format", t.format},
                     {"mode", t.mode},
                     {"speed", t.speed},
                     {"lines", t.lines},
                     {"records", t.records},
                     {"skipped_lines", t.skipped_lines},
                     {"first_skipped_lines", t.first_skipped},
                     {"devices", t.devices},
                     {"device", t.device_selection},
                     {"fit", t.fit},
                     {"fit_applied", t.fit_applied},
                     {"scale_factor", t.scale_factor}};
    if (!t.blkparse_action.empty()) j["workload"]["blkparse_action"] = t.blkparse_action;
  }

  j["precondition"] = {{"units_written", r.precondition_units_written},
                       {"aging", r.precondition_aging},
                       {"warmup_passes", r.warmup_passes},
                       {"warmup_requests", r.warmup_requests}};
  j["sim"] = {{"simulated_ns", r.simulated_ns}};
  // The only fields that differ between two runs of the same inputs: left out on request so such
  // runs can be compared as text (golden reports, determinism tests).
  if (include_wall_clock) {
    j["precondition"]["wall_s"] = r.precondition_wall_s;
    j["sim"]["wall_s"] = r.wall_s;
    j["sim"]["requests_per_wall_s"] = per_second(static_cast<double>(completed), r.wall_s);
    j["sim"]["peak_rss_mb"] = static_cast<double>(r.peak_rss_bytes) / (1024.0 * 1024.0);
  }
  return j;
}

}  // namespace ssd::report
