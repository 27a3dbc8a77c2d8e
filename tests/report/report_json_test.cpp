// to_json: every field at its documented path, derived figures, nulls, and wall-clock exclusion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {
namespace {

using nlohmann::json;

// A report with a distinct value in every field, so a field wired to the wrong member shows.
RunReport filled_report() {
  RunReport r;
  r.platform_name = "tiny";
  r.platform_file = "platforms/tiny.toml";
  r.scenario_name = "randrw";
  r.scenario_file = "scenarios/randrw.toml";
  r.scheme = "page";
  r.seed = 42;
  r.logical_bytes = 1ull << 30;
  r.physical_bytes = 5ull << 28;
  r.reads = 1000;
  r.writes = 500;
  r.flushes = 10;
  r.trims = 5;
  r.bytes_read = 4096000;
  r.bytes_written = 2048000;
  for (uint64_t v = 1; v <= 1000; ++v) r.latency_read.record(v * 100);
  for (uint64_t v = 1; v <= 500; ++v) r.latency_write.record(v * 1000);
  for (uint64_t v = 1; v <= 10; ++v) r.latency_flush.record(v * 10000);
  for (uint64_t v = 1; v <= 5; ++v) r.latency_trim.record(v * 7);
  r.host_units_written = 1000;
  r.gc_units_written = 250;
  r.gc_invocations = 3;
  r.gc_pages_copied = 251;
  r.gc_erases = 4;
  r.erase_count_min = 1;
  r.erase_count_max = 9;
  r.erase_count_mean = 2.5;
  r.nand_reads = 1100;
  r.nand_spare_reads = 12;
  r.nand_programs = 1260;
  r.nand_erases = 5;
  r.mapping_memory_bytes = 65536;
  r.dram_read_bytes = 11;
  r.dram_write_bytes = 22;
  r.nvram_read_bytes = 33;
  r.nvram_write_bytes = 44;
  r.integrity_enabled = true;
  r.integrity_checked_reads = 1000;
  r.integrity_mismatches = 0;
  r.precondition_units_written = 777;
  r.precondition_wall_s = 0.25;
  r.simulated_ns = 2000000000;  // 2 s
  r.wall_s = 0.5;
  r.peak_rss_bytes = 64u << 20;
  return r;
}

const json& at(const json& j, const std::string& pointer) {
  return j.at(json::json_pointer(pointer));
}

TEST(ReportJson, HasEveryRequiredPath) {
  const json j = to_json(filled_report());
  std::vector<std::string> paths = {"/requests/read",
                                    "/requests/write",
                                    "/requests/flush",
                                    "/requests/trim",
                                    "/iops",
                                    "/bandwidth_mb_s",
                                    "/bandwidth_mb_s_read",
                                    "/bandwidth_mb_s_write",
                                    "/waf",
                                    "/gc/invocations",
                                    "/gc/pages_copied",
                                    "/gc/erases",
                                    "/nand_ops/read",
                                    "/nand_ops/spare_read",
                                    "/nand_ops/program",
                                    "/nand_ops/erase",
                                    "/mapping/memory_bytes",
                                    "/mapping/cache_hit_ratio",
                                    "/integrity/enabled",
                                    "/integrity/checked_reads",
                                    "/integrity/mismatches",
                                    "/integrity/first_mismatch",
                                    "/sim/simulated_ns",
                                    "/sim/wall_s",
                                    "/sim/requests_per_wall_s",
                                    "/run/platform",
                                    "/run/platform_file",
                                    "/run/scenario",
                                    "/run/scenario_file",
                                    "/run/scheme",
                                    "/run/seed",
                                    "/device/logical_bytes",
                                    "/device/physical_bytes",
                                    "/bytes/read",
                                    "/bytes/written",
                                    "/ftl/host_units_written",
                                    "/ftl/gc_units_written",
                                    "/wear/erase_count_min",
                                    "/wear/erase_count_max",
                                    "/wear/erase_count_mean",
                                    "/memory/dram_read_bytes",
                                    "/memory/dram_write_bytes",
                                    "/memory/nvram_read_bytes",
                                    "/memory/nvram_write_bytes",
                                    "/precondition/units_written",
                                    "/precondition/wall_s"};
  for (const char* kind : {"read", "write", "flush", "trim"}) {
    for (const char* stat : {"count", "mean", "p50", "p90", "p99", "p999", "max"}) {
      paths.push_back(std::string("/latency_ns/") + kind + "/" + stat);
    }
  }
  for (const std::string& p : paths) {
    EXPECT_TRUE(j.contains(json::json_pointer(p))) << p;
  }
}

// requests.fua_write: the FUA writes among the writes, only in a run that sent some, so that other
// reports stay as they were.
TEST(ReportJson, FuaWritesOnlyWhenThereAreSome) {
  RunReport r = filled_report();
  EXPECT_FALSE(to_json(r)["requests"].contains("fua_write"));
  r.fua_writes = 123;
  const json j = to_json(r);
  EXPECT_EQ(at(j, "/requests/fua_write"), 123);
  EXPECT_EQ(at(j, "/requests/write"), 500);  // FUA writes are writes
}

TEST(ReportJson, CopiesFieldsVerbatim) {
  const json j = to_json(filled_report());
  EXPECT_EQ(at(j, "/run/platform"), "tiny");
  EXPECT_EQ(at(j, "/run/platform_file"), "platforms/tiny.toml");
  EXPECT_EQ(at(j, "/run/scenario"), "randrw");
  EXPECT_EQ(at(j, "/run/scenario_file"), "scenarios/randrw.toml");
  EXPECT_EQ(at(j, "/run/scheme"), "page");
  EXPECT_EQ(at(j, "/run/seed"), 42u);
  EXPECT_EQ(at(j, "/device/logical_bytes"), 1ull << 30);
  EXPECT_EQ(at(j, "/device/physical_bytes"), 5ull << 28);
  EXPECT_EQ(at(j, "/requests/read"), 1000u);
  EXPECT_EQ(at(j, "/requests/write"), 500u);
  EXPECT_EQ(at(j, "/requests/flush"), 10u);
  EXPECT_EQ(at(j, "/requests/trim"), 5u);
  EXPECT_EQ(at(j, "/bytes/read"), 4096000u);
  EXPECT_EQ(at(j, "/bytes/written"), 2048000u);
  EXPECT_EQ(at(j, "/ftl/host_units_written"), 1000u);
  EXPECT_EQ(at(j, "/ftl/gc_units_written"), 250u);
  EXPECT_EQ(at(j, "/gc/invocations"), 3u);
  EXPECT_EQ(at(j, "/gc/pages_copied"), 251u);
  EXPECT_EQ(at(j, "/gc/erases"), 4u);
  EXPECT_EQ(at(j, "/wear/erase_count_min"), 1u);
  EXPECT_EQ(at(j, "/wear/erase_count_max"), 9u);
  EXPECT_EQ(at(j, "/wear/erase_count_mean"), 2.5);
  EXPECT_EQ(at(j, "/nand_ops/read"), 1100u);
  EXPECT_EQ(at(j, "/nand_ops/spare_read"), 12u);
  EXPECT_EQ(at(j, "/nand_ops/program"), 1260u);
  EXPECT_EQ(at(j, "/nand_ops/erase"), 5u);
  EXPECT_EQ(at(j, "/mapping/memory_bytes"), 65536u);
  EXPECT_EQ(at(j, "/memory/dram_read_bytes"), 11u);
  EXPECT_EQ(at(j, "/memory/dram_write_bytes"), 22u);
  EXPECT_EQ(at(j, "/memory/nvram_read_bytes"), 33u);
  EXPECT_EQ(at(j, "/memory/nvram_write_bytes"), 44u);
  EXPECT_EQ(at(j, "/integrity/enabled"), true);
  EXPECT_EQ(at(j, "/integrity/checked_reads"), 1000u);
  EXPECT_EQ(at(j, "/integrity/mismatches"), 0u);
  EXPECT_TRUE(at(j, "/integrity/first_mismatch").is_null());
  EXPECT_EQ(at(j, "/precondition/units_written"), 777u);
  EXPECT_EQ(at(j, "/precondition/wall_s"), 0.25);
  EXPECT_EQ(at(j, "/sim/simulated_ns"), 2000000000u);
  EXPECT_EQ(at(j, "/sim/wall_s"), 0.5);
  EXPECT_EQ(at(j, "/sim/peak_rss_mb"), 64.0);
}

TEST(ReportJson, LatencyMatchesHistogramSummary) {
  const RunReport r = filled_report();
  const json j = to_json(r);
  const LatencySummary s = r.latency_write.summary();
  EXPECT_EQ(at(j, "/latency_ns/write/count"), 500u);
  EXPECT_EQ(at(j, "/latency_ns/write/mean"), s.mean_ns);
  EXPECT_EQ(at(j, "/latency_ns/write/mean"), 250500.0);
  EXPECT_EQ(at(j, "/latency_ns/write/p50"), s.p50_ns);
  EXPECT_EQ(at(j, "/latency_ns/write/p90"), s.p90_ns);
  EXPECT_EQ(at(j, "/latency_ns/write/p99"), s.p99_ns);
  EXPECT_EQ(at(j, "/latency_ns/write/p999"), s.p999_ns);
  EXPECT_EQ(at(j, "/latency_ns/write/max"), 500000u);
  EXPECT_EQ(at(j, "/latency_ns/trim/p50"), 21u);  // 7, 14, 21, 28, 35: small values are exact
  EXPECT_EQ(at(j, "/latency_ns/flush/max"), 100000u);
}

TEST(ReportJson, DerivedFigures) {
  const json j = to_json(filled_report());
  EXPECT_DOUBLE_EQ(at(j, "/iops").get<double>(), 1515.0 / 2.0);
  EXPECT_DOUBLE_EQ(at(j, "/bandwidth_mb_s").get<double>(), 6144000.0 / 2.0 / 1e6);
  EXPECT_DOUBLE_EQ(at(j, "/bandwidth_mb_s_read").get<double>(), 4096000.0 / 2.0 / 1e6);
  EXPECT_DOUBLE_EQ(at(j, "/bandwidth_mb_s_write").get<double>(), 2048000.0 / 2.0 / 1e6);
  EXPECT_DOUBLE_EQ(at(j, "/waf").get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(at(j, "/sim/requests_per_wall_s").get<double>(), 1515.0 / 0.5);
}

TEST(ReportJson, NullsAndZerosWhenUndefined) {
  RunReport r;  // nothing ran
  const json j = to_json(r);
  EXPECT_TRUE(at(j, "/waf").is_null());
  EXPECT_TRUE(at(j, "/mapping/cache_hit_ratio").is_null());
  EXPECT_EQ(at(j, "/iops"), 0.0);
  EXPECT_EQ(at(j, "/bandwidth_mb_s"), 0.0);
  EXPECT_EQ(at(j, "/sim/requests_per_wall_s"), 0.0);
  EXPECT_EQ(at(j, "/latency_ns/read/count"), 0u);
  EXPECT_EQ(at(j, "/latency_ns/read/p99"), 0u);
  EXPECT_EQ(at(j, "/integrity/enabled"), false);
}

TEST(ReportJson, WafNullWhenOnlyGcWrote) {
  RunReport r = filled_report();
  r.host_units_written = 0;
  EXPECT_TRUE(to_json(r)["waf"].is_null());
}

TEST(ReportJson, CacheHitRatioAndFirstMismatchWhenPresent) {
  RunReport r = filled_report();
  r.mapping_cache_hit_ratio = 0.75;
  r.integrity_mismatches = 2;
  r.integrity_first_mismatch = "read command 7 (sector 3): bad data";
  const json j = to_json(r);
  EXPECT_EQ(at(j, "/mapping/cache_hit_ratio"), 0.75);
  EXPECT_EQ(at(j, "/integrity/mismatches"), 2u);
  EXPECT_EQ(at(j, "/integrity/first_mismatch"), "read command 7 (sector 3): bad data");
}

TEST(ReportJson, WithoutWallClockOmitsWallFields) {
  const json j = to_json(filled_report(), /*include_wall_clock=*/false);
  EXPECT_FALSE(j.contains(json::json_pointer("/sim/wall_s")));
  EXPECT_FALSE(j.contains(json::json_pointer("/sim/requests_per_wall_s")));
  EXPECT_FALSE(j.contains(json::json_pointer("/precondition/wall_s")));
  EXPECT_FALSE(j.contains(json::json_pointer("/sim/peak_rss_mb")));
  EXPECT_TRUE(j.contains(json::json_pointer("/sim/simulated_ns")));
  EXPECT_TRUE(j.contains(json::json_pointer("/precondition/units_written")));
}

TEST(ReportJson, RunsDifferingOnlyInWallClockSerializeIdentically) {
  RunReport a = filled_report();
  RunReport b = filled_report();
  b.wall_s = 17.125;
  b.precondition_wall_s = 3.5;
  b.peak_rss_bytes = 123u << 20;
  EXPECT_EQ(to_json(a, false).dump(2), to_json(b, false).dump(2));
  EXPECT_NE(to_json(a, true).dump(2), to_json(b, true).dump(2));
}

TEST(ReportJson, DumpIsStable) {
  // Same report, built twice: the text must match (key order does not depend on insertion).
  EXPECT_EQ(to_json(filled_report()).dump(), to_json(filled_report()).dump());
  const json j = to_json(filled_report());
  EXPECT_EQ(json::parse(j.dump()), j);  // doubles round-trip exactly
}

}  // namespace
}  // namespace ssd::report
