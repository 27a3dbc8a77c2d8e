// extent-replay: the extent-mapping paper's experiments (docs/results/extent-mapping.md). Replays
// mapping-op streams (bundled traces, the Spew-like generator) through mapping structures with no
// flash underneath: every write gets the next free physical run of a log-structured allocator, so
// each write is one extent, as the paper assumes. Prints one Markdown table row per stream and
// structure: memory, stored pieces and nodes, the canonical-extent counts of figure 12, wall time
// per write and read (as the paper measured) and modelled CPU cycles per write and read.
//
//   extent-replay --trace FILE[=NAME] ... --spew-gib 16,64,1024 --structures
//   page,emt,vet-bis-pf-chaining extent-replay ... --check    (every read answer compared with a
//   page table's)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "bench/mapping_stream.h"
#include "bench/mapping_structures.h"
#include "ftl/fast/fast_ftl.h"
#include "tests/ftl/extent/reference_extent_map.h"

namespace ssd::bench {
namespace {

// The default platform's controller costs (platforms/default.toml): cycles per primitive.
constexpr double kCyclesPerTableLookup = 10, kCyclesPerHashProbe = 30, kCyclesPerTreeNode = 40;

double cycles(const ftl::CpuWork& w) {
  return w.table_lookups * kCyclesPerTableLookup + w.hash_probes * kCyclesPerHashProbe +
         w.tree_nodes * kCyclesPerTreeNode;
}

struct ReplayResult {
  uint64_t memory_bytes = 0, peak_memory_bytes = 0, pieces = 0, nodes = 0;
  uint64_t generated = 0, overlapped = 0, returned = 0;
  double write_ns = 0, read_ns = 0, write_cycles = 0, read_cycles = 0;
  uint64_t mismatches = 0;
};

using Clock = std::chrono::steady_clock;

// What one clock read pair costs, subtracted from every timed operation.
double timer_overhead_ns() {
  constexpr int kSamples = 100'000;
  const auto start = Clock::now();
  for (int i = 0; i < kSamples; ++i) {
    const auto a = Clock::now();
    const auto b = Clock::now();
    asm volatile("" ::"r"(&a), "r"(&b) : "memory");
  }
  const std::chrono::duration<double, std::nano> total = Clock::now() - start;
  return total.count() / kSamples / 2;  // the loop reads the clock twice per sample
}

ReplayResult replay(const MappingStream& stream, const std::string& structure, bool check,
                    double overhead_ns) {
  ftl::CpuWork cpu;
  const ftl::ExtentSpace space{stream.units, stream.units};
  auto map = make_structure(structure, space, cpu);
  testing::ReferenceExtentMap reference;
  ReplayResult r;
  std::vector<ftl::Extent> out;
  uint64_t next_slot = 0;
  double write_ns = 0, read_ns = 0;
  ftl::CpuWork write_work, read_work;
  for (const MappingOp& op : stream.ops) {
    out.clear();
    const ftl::CpuWork before = cpu;
    const auto start = Clock::now();
    if (op.kind == ftl::CommandKind::kWrite) {
      if (next_slot + op.length > space.slots) next_slot = 0;  // the log wraps around
      const ftl::Extent extent{op.lun, op.length, static_cast<ftl::SlotId>(next_slot)};
      next_slot += op.length;
      r.generated += map->insert(extent, out);
      const std::chrono::duration<double, std::nano> took = Clock::now() - start;
      write_ns += took.count() - overhead_ns;
      r.overlapped += out.size();
      write_work += cpu - before;
      r.peak_memory_bytes = std::max(r.peak_memory_bytes, map->memory_bytes());
      if (check) reference.insert(extent);
    } else if (op.kind == ftl::CommandKind::kRead) {
      map->lookup(op.lun, op.length, out);
      const std::chrono::duration<double, std::nano> took = Clock::now() - start;
      read_ns += took.count() - overhead_ns;
      r.returned += out.size();
      read_work += cpu - before;
      if (check && testing::merge_runs(out) != reference.lookup(op.lun, op.length)) ++r.mismatches;
    } else {
      map->erase(op.lun, op.length, out);
      if (check) reference.erase(op.lun, op.length);
    }
  }
  r.memory_bytes = map->memory_bytes();
  r.pieces = map->pieces();
  r.nodes = map->nodes();
  const auto per = [](double total, uint64_t n) { return n ? total / double(n) : 0.0; };
  r.write_ns = per(write_ns, stream.writes);
  r.read_ns = per(read_ns, stream.reads);
  r.write_cycles = per(cycles(write_work), stream.writes);
  r.read_cycles = per(cycles(read_work), stream.reads);
  return r;
}

// The hybrid (log-block) mapping table the paper compares with ("HMT"), for a device of this
// address space: FAST's table with 64-page blocks and 3 % log blocks, as ftl/fast sizes it.
uint64_t hybrid_table_bytes(uint64_t units) {
  constexpr uint32_t kPagesPerBlock = 64;
  const uint64_t blocks = (units + kPagesPerBlock - 1) / kPagesPerBlock;
  const auto log_blocks = static_cast<uint32_t>(std::max<uint64_t>(2, blocks * 3 / 100));
  return ssd::ftl::FastFtl::table_bytes(units, blocks + log_blocks, kPagesPerBlock, log_blocks);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> words;
  std::stringstream in(text);
  for (std::string word; std::getline(in, word, ',');) {
    if (!word.empty()) words.push_back(word);
  }
  return words;
}

}  // namespace
}  // namespace ssd::bench

int main(int argc, char** argv) {
  using namespace ssd::bench;
  CLI::App app{"Replays mapping-op streams through extent-mapping structures"};
  std::vector<std::string> traces;
  std::string spew_gib;
  std::string structures = "page,emt,vet-bis-pf-chaining";
  bool check = false;
  app.add_option("--trace", traces, "trace file, optionally FILE=NAME (repeatable)");
  app.add_option("--spew-gib", spew_gib,
                 "Spew-like streams over these address spaces (GiB, comma list)");
  app.add_option("--structures", structures,
                 "comma list: page, emt, vet, vet-<lis|bis>-<pd|pf>-<chaining|cuckoo>, all");
  app.add_flag("--check", check, "compare every read with a per-unit reference map");
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> names = split(structures);
  if (structures == "all") {
    names = {"page", "emt"};
    for (const std::string& v : vet_variant_names()) names.push_back(v);
  }
  try {
    std::vector<MappingStream> streams;
    for (const std::string& t : traces) streams.push_back(trace_stream_argument(t));
    for (const std::string& gib : split(spew_gib)) {
      streams.push_back(scenario_stream("spew-" + gib + "GiB",
                                        std::string(SSD_SOURCE_DIR) + "/scenarios/spew.toml",
                                        std::stoull(gib) << 30));
    }
    const double overhead = timer_overhead_ns();
    std::printf(
        "| stream | address space (GiB) | writes | reads | structure | memory (B) | peak (B) "
        "| pieces | nodes | generated/write | overlapped/write | returned/read | ns/write "
        "| ns/read | cycles/write | cycles/read | HMT (B) |%s\n",
        check ? " mismatches |" : "");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%s\n",
                check ? "---|" : "");
    for (const MappingStream& stream : streams) {
      for (const std::string& name : names) {
        const ReplayResult r = replay(stream, name, check, overhead);
        std::printf(
            "| %s | %.1f | %llu | %llu | %s | %llu | %llu | %llu | %llu | %.2f | %.2f | %.2f "
            "| %.0f | %.0f | %.0f | %.0f | %llu |",
            stream.name.c_str(), double(stream.units) * kUnitBytes / double(1ull << 30),
            (unsigned long long)stream.writes, (unsigned long long)stream.reads, name.c_str(),
            (unsigned long long)r.memory_bytes, (unsigned long long)r.peak_memory_bytes,
            (unsigned long long)r.pieces, (unsigned long long)r.nodes,
            stream.writes ? double(r.generated) / stream.writes : 0.0,
            stream.writes ? double(r.overlapped) / stream.writes : 0.0,
            stream.reads ? double(r.returned) / stream.reads : 0.0, r.write_ns, r.read_ns,
            r.write_cycles, r.read_cycles, (unsigned long long)hybrid_table_bytes(stream.units));
        if (check) std::printf(" %llu |", (unsigned long long)r.mismatches);
        std::printf("\n");
        std::fflush(stdout);
        if (r.mismatches != 0) return 2;
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "extent-replay: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
