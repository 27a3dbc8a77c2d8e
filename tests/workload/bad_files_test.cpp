// Whole files that are not traces: empty, binary garbage, a truncated or damaged gzip stream,
// an unknown format; and the --skip-bad-lines policy.
#include <gtest/gtest.h>

#include "tests/workload/trace_test_support.h"
#include "workload/trace/trace_error.h"
#include "workload/trace/trace_reader.h"

namespace ssd::workload {
namespace {

std::string resolve_error(const std::string& path, const std::string& format = "auto") {
  try {
    scan_trace(resolve_trace(path, format, "auto", false));
  } catch (const TraceError& error) {
    return error.what();
  }
  return "";
}

TEST(BadFiles, EmptyFile) {
  const std::string path = testing::write_file("empty.trace", "");
  EXPECT_NE(resolve_error(path).find("empty trace"), std::string::npos);
}

TEST(BadFiles, OnlyCommentsAndBlanks) {
  const std::string path = testing::write_file("blank.trace", "# nothing\n\n   \n");
  EXPECT_NE(resolve_error(path).find("empty trace"), std::string::npos);
}

TEST(BadFiles, HeaderOnlyHasNoRequests) {
  const std::string path = testing::write_file("header.csv", "fio version 2 iolog\n/dev/sda add\n");
  EXPECT_NE(resolve_error(path).find("no requests to replay"), std::string::npos);
}

TEST(BadFiles, MissingFile) {
  EXPECT_NE(resolve_error("/nonexistent/trace.csv").find("cannot open the trace"),
            std::string::npos);
}

TEST(BadFiles, BinaryGarbageWithNulBytes) {
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>((i * 7919) % 256);
  const std::string path = testing::write_file("garbage.bin", garbage);
  const std::string message = resolve_error(path);
  EXPECT_NE(message.find("not a text trace"), std::string::npos) << message;
}

TEST(BadFiles, BinaryGarbageWithoutNewlines) {
  const std::string path = testing::write_file("long.bin", std::string(200000, '\x7f'));
  const std::string message = resolve_error(path, "msr");
  EXPECT_NE(message.find("longer than"), std::string::npos) << message;
}

TEST(BadFiles, TextInNoKnownFormat) {
  const std::string path = testing::write_file("prose.txt", "hello world\nthis is not a trace\n");
  const std::string message = resolve_error(path);
  EXPECT_NE(message.find("cannot tell the trace format"), std::string::npos) << message;
  EXPECT_NE(message.find("`hello world`"), std::string::npos) << message;
}

TEST(BadFiles, TruncatedGzip) {
  std::string content;
  for (int i = 0; i < 20000; ++i)
    content += std::to_string(i * 1000) + " 0 " + std::to_string(i * 8) + " 8 1\n";
  const std::string whole = testing::write_gzip("whole.trace.gz", content);
  EXPECT_EQ(resolve_error(whole), "");
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = testing::write_file("cut.trace.gz", bytes.substr(0, bytes.size() / 2));
  const std::string message = resolve_error(cut);
  EXPECT_NE(message.find("the gzip stream is truncated"), std::string::npos) << message;
}

TEST(BadFiles, CorruptGzip) {
  std::string content;
  for (int i = 0; i < 2000; ++i) content += std::to_string(i * 1000) + " 0 8 8 1\n";
  const std::string whole = testing::write_gzip("whole.trace.gz", content);
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t i = 20; i < bytes.size() - 10; i += 7) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  const std::string bad = testing::write_file("bad.trace.gz", bytes);
  const std::string message = resolve_error(bad);
  EXPECT_FALSE(message.empty());
}

TEST(BadFiles, UnknownFormatName) {
  const std::string path = testing::write_file("x.trace", "1 0 8 8 1\n");
  EXPECT_NE(resolve_error(path, "vhdx").find("unknown trace format 'vhdx'"), std::string::npos);
}

TEST(SkipBadLines, CountsAndKeepsTheFirstFew) {
  std::string content;
  for (int i = 0; i < 10; ++i) content += "1000 0 8 8 1\nbad line " + std::to_string(i) + "\n";
  const std::string path = testing::write_file("mixed.trace", content);
  TraceSpec spec = testing::spec_for(path, TraceFormat::kMqsim);
  spec.skip_bad_lines = true;
  const TraceSummary summary = scan_trace(spec);
  EXPECT_EQ(summary.reads, 10u);
  EXPECT_EQ(summary.read.skipped_lines, 10u);
  ASSERT_EQ(summary.read.first_skipped.size(), kFirstSkippedKept);
  EXPECT_NE(summary.read.first_skipped[0].find("mixed.trace:2: expected 5 fields"),
            std::string::npos)
      << summary.read.first_skipped[0];
  EXPECT_NE(summary.read.first_skipped[0].find("`bad line 0`"), std::string::npos);
  spec.skip_bad_lines = false;
  EXPECT_THROW(scan_trace(spec), TraceError);
}

TEST(SkipBadLines, AllBadIsStillAnError) {
  const std::string path = testing::write_file("allbad.trace", "x\ny\n");
  TraceSpec spec = testing::spec_for(path, TraceFormat::kMqsim);
  spec.skip_bad_lines = true;
  EXPECT_THROW(scan_trace(spec), TraceError);
}

}  // namespace
}  // namespace ssd::workload
