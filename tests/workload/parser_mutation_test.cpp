// A seeded random mutator over the fuzz corpus seeds, so every ctest run (and the sanitizer
// build) exercises the parsers on damaged input without libFuzzer: byte flips, insertions of the
// characters the grammars care about, deletions and line splices. Parsers must not crash and must
// give a reason for every bad line; whole mutated files must end in a record count or a
// TraceError, never another exception.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/workload/trace_test_support.h"
#include "workload/trace/trace_error.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {
namespace {

std::vector<std::string> seeds(const std::string& folder) {
  std::vector<std::string> contents;
  const std::filesystem::path path = std::string(SSD_SOURCE_DIR) + "/tests/fuzz/corpus/" + folder;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    std::ifstream in(entry.path(), std::ios::binary);
    contents.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return contents;
}

std::string mutate(std::string text, std::mt19937_64& random) {
  static const std::string kInteresting =
      "-.,+ \t\n0123456789#\0\xff"
      "FNWRDQC";
  const int edits = 1 + static_cast<int>(random() % 8);
  for (int i = 0; i < edits; ++i) {
    const size_t at = text.empty() ? 0 : random() % text.size();
    switch (random() % 5) {
      case 0:
        if (!text.empty()) text[at] = static_cast<char>(random());
        break;
      case 1:
        text.insert(at, 1, kInteresting[random() % kInteresting.size()]);
        break;
      case 2:
        if (!text.empty()) text.erase(at, 1 + random() % 8);
        break;
      case 3:
        text.insert(at, std::to_string(random()));  // huge numbers
        break;
      default: {
        const size_t from = text.empty() ? 0 : random() % text.size();
        text.insert(at, text.substr(from, random() % 64));  // splice a piece elsewhere
      }
    }
  }
  return text;
}

class ParserMutation : public ::testing::TestWithParam<TraceFormat> {};

TEST_P(ParserMutation, NeverCrashesAndAlwaysSaysWhy) {
  const TraceFormat format = GetParam();
  const std::vector<std::string> corpus = seeds(std::string(format_name(format)));
  ASSERT_FALSE(corpus.empty());
  std::mt19937_64 random(12345);
  uint64_t records = 0, bad = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::string input = mutate(corpus[round % corpus.size()], random);
    auto parser = make_parser(format, "QDC"[round % 3]);
    TraceRecord record;
    std::string reason;
    size_t start = 0;
    while (start <= input.size()) {
      size_t end = input.find('\n', start);
      if (end == std::string::npos) end = input.size();
      const LineKind kind =
          parser->parse(std::string_view(input).substr(start, end - start), record, reason);
      if (kind == LineKind::kBad) {
        ++bad;
        ASSERT_FALSE(reason.empty()) << input.substr(start, end - start);
      } else if (kind == LineKind::kRecord) {
        ++records;
        EXPECT_LE(record.size_bytes, uint64_t(1) << 32);
      }
      start = end + 1;
    }
  }
  // The mutations must have produced both outcomes, or the test exercised nothing.
  EXPECT_GT(records, 0u);
  EXPECT_GT(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllParsers, ParserMutation,
                         ::testing::Values(TraceFormat::kMsr, TraceFormat::kSpc,
                                           TraceFormat::kMqsim, TraceFormat::kDisksim,
                                           TraceFormat::kBlkparse, TraceFormat::kFio),
                         [](const ::testing::TestParamInfo<TraceFormat>& info) {
                           return std::string(format_name(info.param));
                         });

TEST(FileMutation, WholeFilesEndInRecordsOrATraceError) {
  const std::vector<std::string> corpus = seeds("file");
  std::mt19937_64 random(777);
  int errors = 0, scanned = 0;
  for (int round = 0; round < 300; ++round) {
    const std::string input = mutate(corpus[round % corpus.size()], random);
    const std::string path = testing::write_file("mutated", input);
    try {
      scan_trace(resolve_trace(path, "auto", "auto", round % 2 == 0));
      ++scanned;
    } catch (const TraceError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(scanned, 0);
}

}  // namespace
}  // namespace ssd::workload
