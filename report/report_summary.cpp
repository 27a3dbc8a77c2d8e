// The short human summary printed at the end of a run.
//
// It is rendered from to_json() rather than from the RunReport fields directly, so derived
// figures (IOPS, bandwidth, WAF, percentiles) have a single definition and the terminal always
// shows what report.json holds.
#include <fmt/format.h>

#include <array>
#include <string>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {
namespace {

using nlohmann::json;

// Bytes in binary units (mapping tables and memories are sized in powers of two).
std::string human_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

// Simulated time in the unit that keeps it readable: runs span microseconds to minutes.
std::string human_ns(uint64_t ns) {
  const double v = static_cast<double>(ns);
  if (ns < 1000) return fmt::format("{} ns", ns);
  if (ns < 1000000) return fmt::format("{:.3f} us", v / 1e3);
  if (ns < 1000000000) return fmt::format("{:.3f} ms", v / 1e6);
  return fmt::format("{:.3f} s", v / 1e9);
}

double us(const json& ns) { return ns.get<double>() / 1e3; }

void append_identity(std::string& out, const json& run) {
  const auto with_file = [](const json& name, const json& file) {
    const std::string f = file.get<std::string>();
    return f.empty() ? name.get<std::string>() : fmt::format("{} ({})", name.get<std::string>(), f);
  };
  out += fmt::format("scheme {} | platform {} | scenario {} | seed {}\n",
                     run["scheme"].get<std::string>(),
                     with_file(run["platform"], run["platform_file"]),
                     with_file(run["scenario"], run["scenario_file"]), run["seed"].get<uint64_t>());
}

void append_latency_table(std::string& out, const json& latency) {
  static constexpr std::array<const char*, 4> kKinds = {"read", "write", "flush", "trim"};
  std::string rows;
  for (const char* kind : kKinds) {
    const json& l = latency[kind];
    if (l["count"].get<uint64_t>() == 0) continue;  // an idle kind would be a row of zeros
    rows += fmt::format("  {:<6} {:>11} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f}\n", kind,
                        l["count"].get<uint64_t>(), us(l["mean"]), us(l["p50"]), us(l["p99"]),
                        us(l["p999"]), us(l["max"]));
  }
  if (rows.empty()) {
    out += "latency: no requests completed\n";
    return;
  }
  out += fmt::format("  {:<6} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "(us)", "count", "mean",
                     "p50", "p99", "p99.9", "max");
  out += rows;
}

void append_trace(std::string& out, const json& w) {
  out += fmt::format("trace: {} ({}), {} lines, {} devices (device {}), fit {} -> {}",
                     w["file"].get<std::string>(), w["format"].get<std::string>(),
                     w["lines"].get<uint64_t>(), w["devices"].get<uint64_t>(),
                     w["device"].get<std::string>(), w["fit"].get<std::string>(),
                     w["fit_applied"].get<std::string>());
  if (w["fit_applied"].get<std::string>() == "scale") {
    out += fmt::format(" (factor {:.4g})", w["scale_factor"].get<double>());
  }
  out += fmt::format(", {} loop", w["mode"].get<std::string>());
  if (w["mode"].get<std::string>() == "open")
    out += fmt::format(" at {}x", w["speed"].get<double>());
  out += "\n";
  const uint64_t skipped = w["skipped_lines"].get<uint64_t>();
  if (skipped > 0) {
    out += fmt::format("trace: {} bad lines skipped; first:\n", skipped);
    for (const json& line : w["first_skipped_lines"]) out += "  " + line.get<std::string>() + "\n";
  }
}

void append_integrity(std::string& out, const json& integrity) {
  if (!integrity["enabled"].get<bool>()) {
    out += "integrity: off\n";
    return;
  }
  const uint64_t mismatches = integrity["mismatches"].get<uint64_t>();
  out += fmt::format("integrity: {} reads checked, {} mismatches",
                     integrity["checked_reads"].get<uint64_t>(), mismatches);
  if (mismatches > 0 && integrity["first_mismatch"].is_string()) {
    out += fmt::format("; first: {}", integrity["first_mismatch"].get<std::string>());
  }
  out += "\n";
}

void append_power(std::string& out, const json& power) {
  const json& recovery = power["recovery_us"];
  out += fmt::format(
      "power: {} cuts, {} commands lost in flight; recovery {:.1f} us mean, {:.1f} us max; {} "
      "units checked: {} lost durable, {} rolled back",
      power["cuts"].get<uint64_t>(), power["lost_commands"].get<uint64_t>(),
      recovery["mean"].get<double>(), recovery["max"].get<double>(),
      power["units_checked"].get<uint64_t>(), power["lost_durable_units"].get<uint64_t>(),
      power["rolled_back_units"].get<uint64_t>());
  if (power.contains("hold_up_us")) {  // controller.capacitor_backed
    out += fmt::format("; capacitors held up {:.1f} us max, ran out at {} cuts",
                       power["hold_up_us"]["max"].get<double>(),
                       power["hold_up_exhausted"].get<uint64_t>());
  }
  if (power["first_lost_unit"].is_string()) {
    out += fmt::format("; first: {}", power["first_lost_unit"].get<std::string>());
  }
  out += "\n";
}

}  // namespace

std::string summary_text(const RunReport& report) {
  const json j = to_json(report, /*include_wall_clock=*/true);
  std::string out;

  append_identity(out, j["run"]);
  const json& req = j["requests"];
  const std::string fua =
      req.contains("fua_write") ? fmt::format(" ({} FUA)", req["fua_write"].get<uint64_t>()) : "";
  out += fmt::format("requests: {} read, {} write{}, {} flush, {} trim ({} read, {} written)\n",
                     req["read"].get<uint64_t>(), req["write"].get<uint64_t>(), fua,
                     req["flush"].get<uint64_t>(), req["trim"].get<uint64_t>(),
                     human_bytes(j["bytes"]["read"].get<uint64_t>()),
                     human_bytes(j["bytes"]["written"].get<uint64_t>()));
  if (j.contains("workload")) append_trace(out, j["workload"]);
  append_latency_table(out, j["latency_ns"]);

  out +=
      fmt::format("throughput: {:.0f} IOPS, {:.1f} MB/s (read {:.1f}, write {:.1f})\n",
                  j["iops"].get<double>(), j["bandwidth_mb_s"].get<double>(),
                  j["bandwidth_mb_s_read"].get<double>(), j["bandwidth_mb_s_write"].get<double>());
  const json& ftl = j["ftl"];
  if (j["waf"].is_null()) {
    out += "waf: n/a (no host writes)\n";
  } else {
    out += fmt::format("waf: {:.3f} (host {} + gc {} + mapping {} units)\n", j["waf"].get<double>(),
                       ftl["host_units_written"].get<uint64_t>(),
                       ftl["gc_units_written"].get<uint64_t>(),
                       ftl["mapping_units_written"].get<uint64_t>());
  }
  const json& gc = j["gc"];
  const json& wear = j["wear"];
  out += fmt::format(
      "gc: {} invocations, {} pages copied, {} erases; erase count min/mean/max {}/{:.2f}/{}\n",
      gc["invocations"].get<uint64_t>(), gc["pages_copied"].get<uint64_t>(),
      gc["erases"].get<uint64_t>(), wear["erase_count_min"].get<uint64_t>(),
      wear["erase_count_mean"].get<double>(), wear["erase_count_max"].get<uint64_t>());
  const json& nand = j["nand_ops"];
  out += fmt::format("nand ops: {} reads, {} spare reads, {} programs, {} erases",
                     nand["read"].get<uint64_t>(), nand["spare_read"].get<uint64_t>(),
                     nand["program"].get<uint64_t>(), nand["erase"].get<uint64_t>());
  const uint64_t copybacks = nand["copyback"].get<uint64_t>();  // only with nand.copyback
  if (copybacks) out += fmt::format(", {} copy-backs", copybacks);
  uint64_t joined = 0;  // only with nand.multiplane
  for (const auto& [kind, count] : nand["multiplane_joined"].items())
    joined += count.get<uint64_t>();
  if (joined) out += fmt::format(", {} joined to multi-plane operations", joined);
  out += "\n";

  const json& mapping = j["mapping"];
  out += fmt::format("mapping: {}", human_bytes(mapping["memory_bytes"].get<uint64_t>()));
  if (!mapping["cache_hit_ratio"].is_null()) {
    out +=
        fmt::format(", cache hit ratio {:.2f}%", mapping["cache_hit_ratio"].get<double>() * 100.0);
  }
  out += "\n";
  if (!report.mapping_figures.empty()) {
    out += "mapping details:";
    for (const RunReport::MappingFigure& figure : report.mapping_figures) {
      if (!figure.counts.empty()) continue;  // a distribution is too long for the summary
      out += !figure.text.empty() ? fmt::format(" {} {}", figure.name, figure.text)
             : figure.whole       ? fmt::format(" {} {:.0f}", figure.name, figure.value)
                                  : fmt::format(" {} {:.3f}", figure.name, figure.value);
    }
    out += "\n";
  }
  const json& cpu = j["controller"];
  out += fmt::format(
      "controller: {} cycles ({} mapping), busy {:.1f}% of the run; {} hash probes, "
      "{} tree nodes, {} table lookups\n",
      cpu["cpu_cycles"].get<uint64_t>(), cpu["mapping_cycles"].get<uint64_t>(),
      cpu["utilisation"].get<double>() * 100.0, cpu["hash_probes"].get<uint64_t>(),
      cpu["tree_nodes"].get<uint64_t>(), cpu["table_lookups"].get<uint64_t>());
  if (!j["accelerator"].is_null()) {
    const json& a = j["accelerator"];
    out += fmt::format(
        "accelerator: {} engine, {} x {} at {:g} MHz; {} commands, {} cycles, "
        "{:.1f} ns per command; holds {} nodes, refused {} inserts\n",
        a["engine"].get<std::string>(), a["buckets"].get<uint64_t>(), a["ways"].get<uint64_t>(),
        a["clock_mhz"].get<double>(), a["commands"].get<uint64_t>(), a["cycles"].get<uint64_t>(),
        a["mean_command_ns"].get<double>(), a["entries"].get<uint64_t>(),
        a["refused_inserts"].get<uint64_t>());
  }
  const json& mem = j["memory"];
  out += fmt::format("memory: DRAM {} read, {} written; NVRAM {} read, {} written\n",
                     human_bytes(mem["dram_read_bytes"].get<uint64_t>()),
                     human_bytes(mem["dram_write_bytes"].get<uint64_t>()),
                     human_bytes(mem["nvram_read_bytes"].get<uint64_t>()),
                     human_bytes(mem["nvram_write_bytes"].get<uint64_t>()));
  if (j.contains("cache")) {
    const json& c = j["cache"];
    out += fmt::format(
        "cache: {} {}, {} lines; reads {:.1f}% hit, writes {:.1f}% hit; {} units written back "
        "({} behind the host, {} by flushes), {} dirty evictions; {} of {} lines dirty at the "
        "end\n",
        c["mode"].get<std::string>(), human_bytes(c["capacity_bytes"].get<uint64_t>()),
        c["capacity_lines"].get<uint64_t>(), c["read_hit_ratio"].get<double>() * 100.0,
        c["write_hit_ratio"].get<double>() * 100.0, c["write_back_units"].get<uint64_t>(),
        c["background_write_back_units"].get<uint64_t>(),
        c["flush_write_back_units"].get<uint64_t>(), c["dirty_evictions"].get<uint64_t>(),
        c["dirty_lines_at_end"].get<uint64_t>(), c["lines_at_end"].get<uint64_t>());
    if (c.value("read_ahead_bytes", uint64_t{0}) > 0) {
      out += fmt::format("cache read-ahead: {} ahead; {} units read ahead, {} of them read\n",
                         human_bytes(c["read_ahead_bytes"].get<uint64_t>()),
                         c["read_ahead_units"].get<uint64_t>(),
                         c["read_ahead_hit_units"].get<uint64_t>());
    }
  }
  const json& joules = j["energy"]["joules"];
  if (joules["total"].get<double>() > 0.0) {
    out += fmt::format(
        "energy: {:.4g} J ({:.4g} uJ per request); NAND array {:.4g} J, I/O {:.4g} J, standby "
        "{:.4g} J; DRAM {:.4g} J, NVRAM {:.4g} J, CPU {:.4g} J, controller idle {:.4g} J\n",
        joules["total"].get<double>(), j["energy"]["per_request_uj"].get<double>(),
        joules["nand_read"].get<double>() + joules["nand_program"].get<double>() +
            joules["nand_erase"].get<double>(),
        joules["nand_io"].get<double>(), joules["nand_standby"].get<double>(),
        joules["dram"].get<double>(), joules["nvram"].get<double>(), joules["cpu"].get<double>(),
        joules["controller_idle"].get<double>());
  }
  append_integrity(out, j["integrity"]);
  if (j.contains("power")) append_power(out, j["power"]);

  const json& pre = j["precondition"];
  if (pre["units_written"].get<uint64_t>() > 0 || pre["warmup_passes"].get<uint64_t>() > 0) {
    out += fmt::format("precondition: {} units written", pre["units_written"].get<uint64_t>());
    if (pre["warmup_passes"].get<uint64_t>() > 0) {
      out +=
          fmt::format(", then {} warm-up pass(es) of {} requests",
                      pre["warmup_passes"].get<uint64_t>(), pre["warmup_requests"].get<uint64_t>());
    }
    out += fmt::format(" in {:.2f} s wall\n", pre["wall_s"].get<double>());
  }
  const json& sim = j["sim"];
  out +=
      fmt::format("time: {} simulated, {:.2f} s wall, {:.0f} simulated requests per wall second\n",
                  human_ns(sim["simulated_ns"].get<uint64_t>()), sim["wall_s"].get<double>(),
                  sim["requests_per_wall_s"].get<double>());
  return out;
}

}  // namespace ssd::report
