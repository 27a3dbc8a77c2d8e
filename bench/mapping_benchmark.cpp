// Micro-benchmarks of mapping updates and lookups (Google Benchmark): for each bundled trace and
// each structure (page table, EMT, every VET variant), the time per update over the trace's write
// stream and per lookup over its read stream (the write stream's ranges for a trace without
// reads), on a table already holding all of the trace's writes. Updates cycle over the write
// stream with a log-structured physical allocator, so the table stays at the trace's steady state.
//
//   build/bench/mapping-benchmark --benchmark_min_time=0.2
//   build/bench/mapping-benchmark --benchmark_filter='tpcc/vet'
// docs/performance.md records a run (`bench/run-extent-mapping microbench`).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench/mapping_stream.h"
#include "bench/mapping_structures.h"

namespace ssd::bench {
namespace {

struct Streams {
  MappingStream all;
  std::vector<MappingOp> writes;
  std::vector<MappingOp> lookups;
};

Streams split(MappingStream stream) {
  Streams s;
  for (const MappingOp& op : stream.ops) {
    if (op.kind == ftl::CommandKind::kWrite) s.writes.push_back(op);
    if (op.kind == ftl::CommandKind::kRead) s.lookups.push_back(op);
  }
  if (s.lookups.empty()) s.lookups = s.writes;
  s.all = std::move(stream);
  return s;
}

// Applies every write once, so lookups find a populated table.
class Table {
 public:
  Table(const std::string& structure, const Streams& streams)
      : m_space{streams.all.units, streams.all.units},
        m_map(make_structure(structure, m_space, m_cpu)) {
    for (const MappingOp& op : streams.writes) write(op);
  }
  void write(const MappingOp& op) {
    if (m_next_slot + op.length > m_space.slots) m_next_slot = 0;
    m_out.clear();
    m_map->insert({op.lun, op.length, static_cast<ftl::SlotId>(m_next_slot)}, m_out);
    m_next_slot += op.length;
  }
  void lookup(const MappingOp& op) {
    m_out.clear();
    m_map->lookup(op.lun, op.length, m_out);
    benchmark::DoNotOptimize(m_out.data());
  }
  uint64_t memory_bytes() const { return m_map->memory_bytes(); }

 private:
  ftl::CpuWork m_cpu;
  ftl::ExtentSpace m_space;
  std::unique_ptr<ftl::ExtentMap> m_map;
  std::vector<ftl::Extent> m_out;
  uint64_t m_next_slot = 0;
};

void update(benchmark::State& state, const Streams* streams, const std::string& structure) {
  Table table(structure, *streams);
  size_t i = 0;
  for (auto _ : state) {
    table.write(streams->writes[i]);
    if (++i == streams->writes.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["memory_bytes"] = double(table.memory_bytes());
}

void lookup(benchmark::State& state, const Streams* streams, const std::string& structure) {
  Table table(structure, *streams);
  size_t i = 0;
  for (auto _ : state) {
    table.lookup(streams->lookups[i]);
    if (++i == streams->lookups.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace
}  // namespace ssd::bench

int main(int argc, char** argv) {
  using namespace ssd::bench;
  benchmark::Initialize(&argc, argv);
  const std::string traces = std::string(SSD_SOURCE_DIR) + "/scenarios/traces/";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"financial1", "financial1-head10k.spc"},
      {"msr-rw40", "msr-cut-rw40.csv"},
      {"tpcc", "tpcc-small.trace"},
      {"websearch", "wsrch-small.trace"},
      {"leveldb", "leveldb-ramdisk.blkparse"}};
  std::vector<std::string> structures = {"page", "emt"};
  for (const std::string& v : vet_variant_names()) structures.push_back(v);
  static std::vector<std::unique_ptr<Streams>> loaded;  // the benchmarks point into these
  for (const auto& [name, file] : files) {
    loaded.push_back(std::make_unique<Streams>(split(trace_stream(traces + file, name))));
    const Streams* streams = loaded.back().get();
    for (const std::string& s : structures) {
      benchmark::RegisterBenchmark((name + "/" + s + "/update").c_str(), update, streams, s);
      benchmark::RegisterBenchmark((name + "/" + s + "/lookup").c_str(), lookup, streams, s);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
