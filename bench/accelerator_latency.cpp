// accelerator-latency: what VET's node-table work costs in firmware time with the table in
// software (CPU probes) and on the hash-lookup accelerator (rtl/README.md), on the bundled traces
// (docs/results/accelerator.md). Both maps are VET BIS/PF; the accelerator's answers come from the
// reference model, which gives the RTL's cycle counts. Every read's answer is compared between
// the two (they must be identical).
//
// Firmware time of an operation: software = (hash probes x cycles_per_hash_probe + table lookups
// x cycles_per_table_lookup) / cpu clock; accelerator = (commands x cycles_per_accelerator_command
// + overflow-table probes x cycles_per_hash_probe + table lookups x ...) / cpu clock + engine
// cycles / accelerator clock, the CPU waiting for each answer (as models/controller/ftl_processor
// charges it). Defaults: platforms/default.toml.
//
//   accelerator-latency --trace FILE[=NAME] ... [--bucket-bits 13 --ways 8]
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/mapping_stream.h"
#include "ftl/extent/vet/vet_map.h"
#include "rtl/model/vet_hash_model.h"

namespace ssd::bench {
namespace {

struct Prices {
  double cpu_mhz = 400, accelerator_mhz = 400;
  double per_hash_probe = 30, per_table_lookup = 10, per_command = 8;
};

// The reference model, with per-command-kind counts of what it answered.
class CountingEngine final : public ftl::HashEngine {
 public:
  explicit CountingEngine(const ftl::HashEngineConfig& config) : m_model(config) {}
  ftl::HashResponse execute(const ftl::HashCommand& command) override {
    const ftl::HashResponse r = m_model.execute(command);
    if (static_cast<ftl::HashOp>(command.op) == ftl::HashOp::kMultiLookup) {
      ++multi_lookups;
      multi_cycles += r.latency_cycles;
      multi_probes += r.probes;
      if (r.status == ftl::HashStatus::kHit) ++multi_hits;
    } else {
      ++single_commands;
      single_cycles += r.latency_cycles;
    }
    return r;
  }
  const ftl::HashEngineConfig& config() const override { return m_model.config(); }
  void for_each(const std::function<void(uint64_t, const ftl::NodeValue&)>& visit) const override {
    m_model.for_each(visit);
  }
  bool peek(uint64_t key, ftl::NodeValue& value) const override { return m_model.peek(key, value); }
  uint64_t size() const { return m_model.size(); }

  uint64_t multi_lookups = 0, multi_cycles = 0, multi_probes = 0, multi_hits = 0;
  uint64_t single_commands = 0, single_cycles = 0;

 private:
  rtl::HashEngineModel m_model;
};

struct Spread {
  std::vector<double> ns;
  void add(double v) { ns.push_back(v); }
  double mean() const {
    double sum = 0;
    for (double v : ns) sum += v;
    return ns.empty() ? 0 : sum / double(ns.size());
  }
  double p99() {
    if (ns.empty()) return 0;
    std::sort(ns.begin(), ns.end());
    return ns[std::min(ns.size() - 1, size_t(double(ns.size()) * 0.99))];
  }
};

double software_ns(const ftl::CpuWork& w, const Prices& p) {
  return (double(w.hash_probes) * p.per_hash_probe + double(w.table_lookups) * p.per_table_lookup) *
         1e3 / p.cpu_mhz;
}

double accelerator_ns(const ftl::CpuWork& w, const Prices& p) {
  const double cpu = double(w.accelerator_commands) * p.per_command +
                     double(w.hash_probes) * p.per_hash_probe +
                     double(w.table_lookups) * p.per_table_lookup;
  return cpu * 1e3 / p.cpu_mhz + double(w.accelerator_cycles) * 1e3 / p.accelerator_mhz;
}

// Returns false when the two maps answered a read differently.
bool replay(const MappingStream& stream, const ftl::HashEngineConfig& size, const Prices& prices) {
  const ftl::ExtentSpace space{stream.units, stream.units};
  ftl::CpuWork sw_cpu, hw_cpu;
  ftl::VetMap software(space, ftl::VetOptions{}, sw_cpu);
  CountingEngine engine(size);
  ftl::VetOptions options;
  options.backend = ftl::VetHashBackend::kAccelerator;
  options.engine = &engine;
  ftl::VetMap accelerated(space, options, hw_cpu);

  Spread sw_read, hw_read, sw_write, hw_write, sw_unit, hw_unit;
  std::vector<ftl::Extent> a, b;
  uint64_t next_slot = 0;
  for (const MappingOp& op : stream.ops) {
    a.clear();
    b.clear();
    const ftl::CpuWork sw_before = sw_cpu, hw_before = hw_cpu;
    if (op.kind == ftl::CommandKind::kWrite) {
      if (next_slot + op.length > space.slots) next_slot = 0;
      const ftl::Extent extent{op.lun, op.length, static_cast<ftl::SlotId>(next_slot)};
      next_slot += op.length;
      software.insert(extent, a);
      accelerated.insert(extent, b);
      sw_write.add(software_ns(sw_cpu - sw_before, prices));
      hw_write.add(accelerator_ns(hw_cpu - hw_before, prices));
    } else if (op.kind == ftl::CommandKind::kRead) {
      software.lookup(op.lun, op.length, a);
      accelerated.lookup(op.lun, op.length, b);
      sw_read.add(software_ns(sw_cpu - sw_before, prices));
      hw_read.add(accelerator_ns(hw_cpu - hw_before, prices));
      // One address: the read's first unit, the lookup the multi-level command is made for.
      const ftl::CpuWork sw_unit_before = sw_cpu, hw_unit_before = hw_cpu;
      if (software.slot_of(op.lun) != accelerated.slot_of(op.lun)) return false;
      sw_unit.add(software_ns(sw_cpu - sw_unit_before, prices));
      hw_unit.add(accelerator_ns(hw_cpu - hw_unit_before, prices));
    } else {
      software.erase(op.lun, op.length, a);
      accelerated.erase(op.lun, op.length, b);
    }
    if (a != b) return false;
  }
  const double cycle_ns = 1e3 / prices.accelerator_mhz;
  const auto per = [](uint64_t total, uint64_t n) { return n ? double(total) / double(n) : 0.0; };
  std::printf(
      "| %s | %llu / %llu | %llu | %llu | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f "
      "| %.0f / %.0f | %.0f / %.0f | %.0f / %.0f | %.2f | %.1f | %.1f | %.0f %% |\n",
      stream.name.c_str(), (unsigned long long)stream.reads, (unsigned long long)stream.writes,
      (unsigned long long)accelerated.nodes(),
      (unsigned long long)(accelerated.nodes() - engine.size()), sw_unit.mean(), sw_unit.p99(),
      hw_unit.mean(), hw_unit.p99(), sw_read.mean(), sw_read.p99(), hw_read.mean(), hw_read.p99(),
      sw_write.mean(), sw_write.p99(), hw_write.mean(), hw_write.p99(),
      per(engine.multi_probes, engine.multi_lookups),
      per(engine.multi_cycles, engine.multi_lookups) * cycle_ns,
      per(engine.single_cycles, engine.single_commands) * cycle_ns,
      100.0 * per(engine.multi_hits, engine.multi_lookups));
  std::fflush(stdout);
  return true;
}

}  // namespace
}  // namespace ssd::bench

int main(int argc, char** argv) {
  using namespace ssd::bench;
  CLI::App app{"VET's mapping time with the node table in software and on the accelerator"};
  std::vector<std::string> traces;
  ssd::ftl::HashEngineConfig size{13, 8};
  Prices prices;
  app.add_option("--trace", traces, "trace file, optionally FILE=NAME (repeatable)")->required();
  app.add_option("--bucket-bits", size.bucket_bits, "accelerator table: 2^bits buckets (1..13)");
  app.add_option("--ways", size.ways, "accelerator table: ways (1..16)");
  app.add_option("--cpu-mhz", prices.cpu_mhz, "FTL processor clock");
  app.add_option("--accelerator-mhz", prices.accelerator_mhz, "accelerator clock");
  app.add_option("--cycles-per-hash-probe", prices.per_hash_probe, "CPU cycles per software probe");
  app.add_option("--cycles-per-command", prices.per_command, "CPU cycles per accelerator command");
  CLI11_PARSE(app, argc, argv);
  try {
    std::printf(
        "| trace | reads / writes | nodes | in software (overflow) | one address: software "
        "mean / p99 (ns) | one address: accelerator | read: software | read: accelerator "
        "| write: software | write: accelerator | probes per MLOOKUP | MLOOKUP (ns) "
        "| one-key command (ns) | MLOOKUP found the leaf |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string& t : traces) {
      const MappingStream stream = trace_stream_argument(t);
      if (!replay(stream, size, prices)) {
        std::cerr << "accelerator-latency: " << stream.name
                  << ": the two maps answered differently\n";
        return 2;
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "accelerator-latency: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
