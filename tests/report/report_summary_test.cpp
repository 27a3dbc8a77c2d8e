// summary_text: the lines a user reads at the end of a run.
#include <gtest/gtest.h>

#include <string>

#include "report/run_report.h"

namespace ssd::report {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

RunReport sample() {
  RunReport r;
  r.platform_name = "tiny";
  r.platform_file = "platforms/tiny.toml";
  r.scenario_name = "randread";
  r.scheme = "lsb";
  r.seed = 7;
  r.reads = 2;
  r.latency_read.record(80000);
  r.latency_read.record(120000);
  r.bytes_read = 8192;
  r.mapping_memory_bytes = 3 * 1024 * 1024 / 2;
  r.integrity_enabled = true;
  r.integrity_checked_reads = 12345;
  r.simulated_ns = 1000000;
  r.wall_s = 0.002;
  return r;
}

TEST(ReportSummary, IdentityLatencyAndTotals) {
  const std::string s = summary_text(sample());
  EXPECT_TRUE(contains(s, "lsb")) << s;
  EXPECT_TRUE(contains(s, "tiny (platforms/tiny.toml)")) << s;
  EXPECT_TRUE(contains(s, "randread")) << s;
  EXPECT_TRUE(contains(s, "read")) << s;
  EXPECT_TRUE(contains(s, "100.00")) << s;     // mean of 80 and 120 us
  EXPECT_FALSE(contains(s, "  write ")) << s;  // no writes, no row
  EXPECT_TRUE(contains(s, "2000 IOPS")) << s;  // 2 requests in 1 ms
  EXPECT_TRUE(contains(s, "waf: n/a")) << s;
  EXPECT_TRUE(contains(s, "mapping: 1.5 MiB")) << s;
  EXPECT_FALSE(contains(s, "cache hit ratio")) << s;  // the scheme has no cache
  EXPECT_TRUE(contains(s, "integrity: 12345 reads checked, 0 mismatches")) << s;
  EXPECT_TRUE(contains(s, "1.000 ms simulated")) << s;
  EXPECT_TRUE(contains(s, "1000 simulated requests per wall second")) << s;
  EXPECT_EQ(s.back(), '\n');
}

TEST(ReportSummary, CountsFuaWritesAmongTheWrites) {
  RunReport r = sample();
  EXPECT_TRUE(contains(summary_text(r), "requests: 2 read, 0 write, 0 flush")) << summary_text(r);
  r.writes = 40;
  r.fua_writes = 8;
  const std::string s = summary_text(r);
  EXPECT_TRUE(contains(s, "requests: 2 read, 40 write (8 FUA), 0 flush, 0 trim")) << s;
}

TEST(ReportSummary, MentionsMismatches) {
  RunReport r = sample();
  r.integrity_mismatches = 3;
  r.integrity_first_mismatch = "read command 9 (sector 4)";
  const std::string s = summary_text(r);
  EXPECT_TRUE(contains(s, "3 mismatches")) << s;
  EXPECT_TRUE(contains(s, "read command 9 (sector 4)")) << s;
}

TEST(ReportSummary, IntegrityOffWafAndCacheRatio) {
  RunReport r = sample();
  r.integrity_enabled = false;
  r.host_units_written = 100;
  r.gc_units_written = 50;
  r.mapping_cache_hit_ratio = 0.9731;
  const std::string s = summary_text(r);
  EXPECT_TRUE(contains(s, "integrity: off")) << s;
  EXPECT_TRUE(contains(s, "waf: 1.500")) << s;
  EXPECT_TRUE(contains(s, "cache hit ratio 97.31%")) << s;
}

TEST(ReportSummary, EmptyRunDoesNotThrow) {
  const std::string s = summary_text(RunReport{});
  EXPECT_TRUE(contains(s, "no requests completed")) << s;
  EXPECT_TRUE(contains(s, "0 IOPS")) << s;
}

}  // namespace
}  // namespace ssd::report
