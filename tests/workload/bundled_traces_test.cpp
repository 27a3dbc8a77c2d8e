// Every bundled trace parses, with the request counts, bytes (hence mean sizes) and address span
// computed independently with awk from the files (docs/traces.md), and is detected as its format.
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "tests/workload/trace_test_support.h"
#include "workload/trace/trace_error.h"
#include "workload/trace/trace_reader.h"
#include "workload/trace/trace_scan.h"

namespace ssd::workload {
namespace {

using testing::bundled_trace;

struct Expected {
  const char* file;
  const char* format;
  uint64_t lines, reads, writes, bytes_read, bytes_written, min_offset, max_end, devices;
  double mean_read_bytes, mean_write_bytes;  // 0 when there are none
};

class BundledTrace : public ::testing::TestWithParam<Expected> {};

TEST_P(BundledTrace, CountsSizesAndSpanMatchTheFile) {
  const Expected& e = GetParam();
  TraceSpec spec = resolve_trace(bundled_trace(e.file), "auto", "auto", false);
  EXPECT_EQ(format_name(spec.format), e.format);
  // The blkparse trace's clock jumps (see LeveldbClockJump...): it is replayed closed loop.
  spec.check_time = std::string(e.format) != "blkparse";
  const TraceSummary s = scan_trace(spec);
  EXPECT_EQ(s.read.lines, e.lines);
  EXPECT_EQ(s.reads, e.reads);
  EXPECT_EQ(s.writes, e.writes);
  EXPECT_EQ(s.trims, 0u);
  EXPECT_EQ(s.bytes_read, e.bytes_read);
  EXPECT_EQ(s.bytes_written, e.bytes_written);
  EXPECT_EQ(s.min_offset_bytes, e.min_offset);
  EXPECT_EQ(s.max_end_bytes, e.max_end);
  EXPECT_EQ(s.devices.size(), e.devices);
  EXPECT_EQ(s.read.skipped_lines, 0u);
  // Mean sizes, as docs/traces.md quotes them.
  const auto mean = [](uint64_t bytes, uint64_t count) {
    return count ? double(bytes) / count : 0.0;
  };
  EXPECT_NEAR(mean(s.bytes_read, s.reads), e.mean_read_bytes, 0.1);
  EXPECT_NEAR(mean(s.bytes_written, s.writes), e.mean_write_bytes, 0.1);
}

INSTANTIATE_TEST_SUITE_P(
    All, BundledTrace,
    ::testing::Values(Expected{"financial1-head10k.spc", "spc", 10000, 4078, 5922, 25438208,
                               29840896, 67584, 513235456, 22, 6237.9, 5039.0},
                      Expected{"msr-cut-rw40.csv", "msr", 10000, 4054, 5946, 19537408, 29298176,
                               32768, 14857613312ull, 1, 4819.3, 4927.4},
                      Expected{"tpcc-small.trace", "mqsim", 6999, 4381, 2618, 36315136, 23403520,
                               361823744, 232713410560ull, 16, 8289.2, 8939.5},
                      // 24783 lines: the last one has no newline (wc -l says 24782).
                      Expected{"wsrch-small.trace", "mqsim", 24783, 24779, 4, 382085120, 32768, 0,
                               17902723072ull, 6, 15419.7, 8192.0},
                      Expected{"leveldb-ramdisk.blkparse", "blkparse", 840, 0, 840, 0, 431104,
                               21504, 269927424, 1, 0.0, 513.2}),
    [](const ::testing::TestParamInfo<Expected>& info) {
      return std::string(info.param.format) + std::to_string(info.index);
    });

TEST(BundledTraces, BlkparseAutoPicksTheCompletionsWhenOnlyTheyArePresent) {
  const TraceSpec spec =
      resolve_trace(bundled_trace("leveldb-ramdisk.blkparse"), "auto", "auto", false);
  EXPECT_EQ(spec.blkparse_action, 'C');
}

TEST(BundledTraces, LeveldbClockJumpIsABadLineInOpenLoopOnly) {
  TraceSpec spec = resolve_trace(bundled_trace("leveldb-ramdisk.blkparse"), "auto", "auto", false);
  try {
    scan_trace(spec);
    FAIL() << "expected the backwards time at line 220";
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("leveldb-ramdisk.blkparse:220: time goes backwards"),
              std::string::npos)
        << error.what();
  }
  spec.check_time = false;
  EXPECT_EQ(scan_trace(spec).writes, 840u);
}

TEST(BundledTraces, GzipCopyReadsTheSame) {
  std::ifstream in(bundled_trace("msr-cut-rw40.csv"), std::ios::binary);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string gz = testing::write_gzip("msr.csv.gz", content);
  const TraceSpec spec = resolve_trace(gz, "auto", "auto", false);
  EXPECT_EQ(spec.format, TraceFormat::kMsr);
  const TraceSummary s = scan_trace(spec);
  EXPECT_EQ(s.reads, 4054u);
  EXPECT_EQ(s.writes, 5946u);
  EXPECT_EQ(s.max_end_bytes, 14857613312ull);
}

}  // namespace
}  // namespace ssd::workload
