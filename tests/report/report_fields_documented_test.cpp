// Every field report.json can hold is documented in docs/report.md, and every field the doc
// documents exists. The report is built with every optional part present (trace workload with a
// blkparse action, accelerator, mapping cache, the scheme-specific mapping figures, an integrity
// mismatch, the wall-clock fields), and also empty (its nulls); each leaf path (a scalar, a null
// or an array, e.g. `latency_ns.read.p99`, `workload.first_skipped_lines`) must match a documented
// path.
//
// How docs/report.md names fields: in the tables whose first column is "field", the first cell
// holds one or more backticked paths. `a.b.c` is a full path; `.d` after it in the same cell is
// shorthand for its sibling `a.b.d`; a component written `<kind>` stands for any one name (the
// row says which). A path documented as an object (`accelerator`, "object or null") documents
// that object's null form, not its fields: each field needs a row of its own.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {
namespace {

using nlohmann::json;

// The figures a scheme adds under "mapping." (RunReport::mapping_figures), as the schemes report
// them today: VET and EMT (ftl/extent/extent_ftl.cpp, ExtentFtl::mapping_figures), NFTL
// (ftl/nftl/nftl.cpp, Nftl::mapping_figures) and page mapping's map sync
// (ftl/page/map_sync.cpp, map_sync_figure_docs), the Superblock FTL
// (ftl/superblock/superblock_ftl.cpp) and the LSB FTL (ftl/lsb/lsb_ftl.cpp). The report
// library does not know the schemes, so the list is written here for now.
// TODO: take these names from the scheme registry instead, ftl::schemes() and each
// SchemeDescriptor::figures (ftl/scheme_registry.h, ftl/core/scheme_descriptor.h), once this
// suite may link ssd_ftl; then a scheme's new figure is checked against the doc without an edit
// here.
const std::vector<RunReport::MappingFigure>& scheme_mapping_figures() {
  static const std::vector<RunReport::MappingFigure> figures = {
      {"extents", 100, true},
      {"nodes", 120, true},
      {"extents_per_write", 1.5, false},
      {"pieces_generated_per_write", 2.5, false},
      {"pieces_overlapped_per_write", 0.5, false},
      {"pieces_returned_per_read", 1.25, false},
      {"gc_relocation_runs", 7, true},
      {"extents_split_by_gc", 3, true},
      // NFTL's (ftl/nftl/nftl_descriptor.cpp).
      {"search_spare_reads", 40, true},
      {"searches", 4, true},
      {"cache_lookups", 10, true},
      {"cache_hits", 6, true},
      {"cache_insertions", 12, true},
      {"cache_bytes_used", 4096, true},
      {"cache_lookup_us_mean", 0.5, false},
      {"cache_insertion_us_mean", 1.5, false},
      {"cache_lookup_tree_nodes_mean", 2.5, false},
      {"cache_lookup_list_steps_mean", 3.5, false},
      {"cache_insertion_list_steps_mean", 4.5, false},
      {"cache_insertion_unit_merges_mean", 0.25, false},
      // Page mapping's (ftl/page/page_descriptor.cpp).
      {"map_sync", 0, true, "nvram"},
      {"syncs", 10, true},
      {"sync_passes", 11, true},
      {"sync_segments_sparse", 20, true},
      {"sync_segments_dense", 3, true},
      {"sync_segments_full", 1, true},
      {"map_segments_to_flash", 5, true},
      {"map_units_written", 10, true},
      {"map_segments_to_flash_per_sync", 0.5, false},
      {"nvram_copies", 20, true},
      {"nvram_hits", 15, true},
      {"nvram_evictions", 1, true},
      {"nvram_dropped", 2, true},
      {"nvram_segments", 128, true},
      // The Superblock FTL's (ftl/superblock/superblock_descriptor.cpp).
      {"map_spare_reads", 30, true},
      {"gc_spare_reads", 64, true},
      {"forced_gcs", 2, true},
      {"partial_merges", 3, true},
      {"full_merges", 1, true},
      {"dead_erases", 1, true},
      {"victim_free_pages_mean", 0.5, false},
      {"victim_free_pages", 3, true, {}, {2, 0, 1}},
      // The LSB FTL's own (ftl/lsb/lsb_descriptor.cpp); the ones above are its too.
      {"miw_writes", 4, true},
      {"pmd_pages", 40, true},
      {"pt_pages", 12, true},
      // DAC's (ftl/dac/dac_descriptor.cpp).
      {"regions", 4, true},
      {"young_writes", 1000, true},
      {"promotions", 20, true},
      {"demotions", 15, true},
      {"host_units_by_region", 0, true, {}, {10, 20, 5, 1}},
      {"gc_units_by_region", 0, true, {}, {4, 3, 2}},
      {"live_units_by_region", 0, true, {}, {50, 30, 10, 5}},
      // The sector layer's (ftl/sector_log/sector_layer_descriptor.cpp), after page's or DAC's.
      {"subpage_writes", 90, true},
      {"buffer_hit_ratio", 0.25, false},
      {"buffer_evictions", 70, true},
      {"dram_peak_bytes", 65536, true},
      {"ftl_page_reads", 30, true},
      {"ftl_page_writes", 35, true},
      {"merge_reads", 9, true},
      {"subpage_down_sectors", 2.5, false},
      {"log_writes", 60, true},
      {"log_hit_ratio", 0.5, false},
      {"log_page_programs", 12, true},
      {"log_page_reads", 14, true},
      {"log_erases", 2, true},
      {"log_evictions", 11, true},
      {"log_eviction_sectors", 3.5, false},
      {"sector_map_peak_bytes", 4096, true},
      {"hash_searches", 100, true},
      {"hash_search_length", 1.25, false},
  };
  return figures;
}

// A report with every optional part present.
RunReport full_report() {
  RunReport r;
  r.platform_name = "default";
  r.scheme = "vet";
  r.reads = 10;
  r.writes = 5;
  r.fua_writes = 2;  // requests.fua_write: only in runs with FUA writes
  for (uint64_t v = 1; v <= 10; ++v) r.latency_read.record(v * 1000);
  r.host_units_written = 40;
  r.gc_units_written = 4;
  r.mapping_memory_bytes = 4096;
  r.mapping_cache_hit_ratio = 0.75;
  r.mapping_figures = scheme_mapping_figures();
  RunReport::Accelerator& a = r.accelerator.emplace();
  a.engine = "model";
  a.buckets = 8192;
  a.ways = 8;
  a.clock_mhz = 400;
  a.commands = 12;
  a.wait_ns = 600;
  TraceWorkloadReport& t = r.trace.emplace();
  t.file = "traces/t.blkparse";
  t.format = "blkparse";
  t.blkparse_action = "Q";
  t.mode = "open";
  t.first_skipped = {"traces/t.blkparse:3: bad: `x`"};
  t.device_selection = "all";
  t.fit = "error";
  t.fit_applied = "none";
  RunReport::Power& power = r.power.emplace();
  power.cuts = 2;
  power.recovery_ns = {1000, 3000};
  power.lost_durable_units = 1;
  power.first_loss = "cut 1 at 5 ns: unit 3 read back token 0";
  power.hold_up_ns = {2000, 4000};
  RunReport::Cache& cache = r.cache.emplace();
  cache.mode = "write_back";
  cache.capacity_bytes = 1 << 20;
  cache.line_bytes = 4096;
  cache.capacity_lines = 256;
  cache.read_hit_units = 3;
  cache.read_miss_units = 1;
  r.integrity_enabled = true;
  r.integrity_mismatches = 1;
  r.integrity_first_mismatch = "read command 3 (sector 8)";
  r.simulated_ns = 1000000;
  r.wall_s = 0.5;
  return r;
}

using Path = std::vector<std::string>;

std::string text(const Path& path) {
  std::string out;
  for (const std::string& part : path) out += (out.empty() ? "" : ".") + part;
  return out;
}

Path split(const std::string& dotted) {
  Path path;
  std::string part;
  std::istringstream in(dotted);
  while (std::getline(in, part, '.')) path.push_back(part);
  return path;
}

// The leaves of a document: scalars, nulls and arrays (an array is one field).
void leaves(const json& j, Path& at, std::vector<Path>& out) {
  if (!j.is_object()) {
    out.push_back(at);
    return;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    at.push_back(it.key());
    leaves(it.value(), at, out);
    at.pop_back();
  }
}

// Every path of a document: its objects' paths as well as the leaves.
void all_paths(const json& j, Path& at, std::set<std::string>& out) {
  if (!at.empty()) out.insert(text(at));
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    at.push_back(it.key());
    all_paths(it.value(), at, out);
    at.pop_back();
  }
}

std::vector<Path> leaves(const json& j) {
  std::vector<Path> out;
  Path at;
  leaves(j, at, out);
  return out;
}

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// The backticked spans of a table cell, shorthand resolved (placeholders kept).
std::vector<Path> cell_paths(const std::string& cell) {
  std::vector<Path> paths;
  Path previous;  // the last full path of the cell, for `.sibling`
  size_t open = cell.find('`');
  while (open != std::string::npos) {
    const size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string span = cell.substr(open + 1, close - open - 1);
    if (span.rfind(".", 0) == 0 && !previous.empty()) {
      Path path(previous.begin(), previous.end() - 1);
      path.push_back(span.substr(1));
      paths.push_back(path);
    } else {
      previous = split(span);
      paths.push_back(previous);
    }
    open = cell.find('`', close + 1);
  }
  return paths;
}

// The paths docs/report.md documents: the first cells of its "field" tables.
std::vector<Path> documented_paths() {
  const std::string file = std::string(SSD_SOURCE_DIR) + "/docs/report.md";
  std::ifstream in(file);
  EXPECT_TRUE(in.good()) << "cannot read " << file;
  std::vector<Path> paths;
  bool field_table = false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("|", 0) != 0) {
      field_table = false;  // a table ends at the first line that is not a row
      continue;
    }
    const std::string cell = trim(line.substr(1, line.find('|', 1) - 1));
    if (cell == "field") {
      field_table = true;  // the header row: | field | unit | meaning |
    } else if (field_table) {
      for (const Path& path : cell_paths(cell)) paths.push_back(path);
    }
  }
  EXPECT_GT(paths.size(), 50u) << "docs/report.md: its field tables were not found";
  return paths;
}

bool placeholder(const std::string& part) {
  return part.size() > 2 && part.front() == '<' && part.back() == '>';
}

bool matches(const Path& documented, const Path& actual) {
  if (documented.size() != actual.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!placeholder(documented[i]) && documented[i] != actual[i]) return false;
  }
  return true;
}

void expect_documented(const json& report, const std::string& which) {
  const std::vector<Path> documented = documented_paths();
  for (const Path& leaf : leaves(report)) {
    const bool found = std::any_of(documented.begin(), documented.end(),
                                   [&](const Path& d) { return matches(d, leaf); });
    EXPECT_TRUE(found) << which << ": report.json field `" << text(leaf)
                       << "` is not documented in docs/report.md";
  }
}

TEST(ReportFieldsDocumented, EveryFieldOfAFullReport) {
  expect_documented(to_json(full_report()), "full report");
}

TEST(ReportFieldsDocumented, EveryFieldOfAnEmptyReport) {
  expect_documented(to_json(RunReport{}), "empty report");
}

TEST(ReportFieldsDocumented, EveryDocumentedFieldExists) {
  std::set<std::string> paths;
  Path at;
  all_paths(to_json(full_report()), at, paths);
  for (const Path& d : documented_paths()) {
    const bool found = std::any_of(paths.begin(), paths.end(),
                                   [&](const std::string& p) { return matches(d, split(p)); });
    EXPECT_TRUE(found) << "docs/report.md documents `" << text(d)
                       << "`, which report.json does not have";
  }
}

}  // namespace
}  // namespace ssd::report
