// Each kind of bad line, for every parser: the run stops with FILE:LINE: reason and the line's
// text. Good lines come first, so the line number shows the parser accepted them. fio v2 logs
// have no timestamps (only waits, which cannot be negative), so their time cannot go backwards.
#include <algorithm>

#include <gtest/gtest.h>

#include "tests/workload/trace_test_support.h"

namespace ssd::workload {
namespace {

struct BadLine {
  const char* name;
  TraceFormat format;
  const char* good;    // a valid first line (with its newline)
  const char* bad;     // the second line
  const char* reason;  // expected in the message
};

class BadLineCase : public ::testing::TestWithParam<BadLine> {};

TEST_P(BadLineCase, StopsWithFileLineReasonAndText) {
  const BadLine& c = GetParam();
  const std::string message = testing::scan_error(std::string(c.good) + c.bad + "\n", c.format);
  ASSERT_FALSE(message.empty()) << "the bad line was accepted: " << c.bad;
  const std::string good(c.good);
  const std::string line =
      ":" + std::to_string(std::count(good.begin(), good.end(), '\n') + 1) + ": ";
  EXPECT_NE(message.find(line), std::string::npos) << message;
  EXPECT_NE(message.find(c.reason), std::string::npos) << message;
  EXPECT_NE(message.find(std::string("`") + c.bad + "`"), std::string::npos) << message;
}

TEST_P(BadLineCase, GoodLinesAloneAreAccepted) {
  const BadLine& c = GetParam();
  const std::string message = testing::scan_error(c.good, c.format);
  // The one case without good lines (a fio log missing its header) leaves an empty file.
  if (std::string(c.good).empty()) {
    EXPECT_NE(message.find("no requests to replay"), std::string::npos) << message;
  } else {
    EXPECT_EQ(message, "");
  }
}

constexpr const char* kMsr = "128166372000000000,h,0,Write,4096,4096,0\n";
constexpr const char* kSpc = "0,8,4096,w,0.5\n";
constexpr const char* kMqsim = "1000 0 8 8 0\n";
constexpr const char* kDisksim = "1.5 0 8 8 1\n";
constexpr const char* kBlk = "  8,0  1  1  0.000100000  42  Q  W 8 + 8 [dd]\n";
constexpr const char* kFio = "fio version 2 iolog\n/dev/sda add\n/dev/sda write 0 4096\n";

INSTANTIATE_TEST_SUITE_P(
    AllParsers, BadLineCase,
    ::testing::Values(
        BadLine{"msr_missing_field", TraceFormat::kMsr, kMsr,
                "128166372000000000,h,0,Write,4096,4096", "expected 7 fields"},
        BadLine{"msr_not_a_number", TraceFormat::kMsr, kMsr,
                "128166372000000000,h,0,Write,4k,4096,0", "Offset is not a number"},
        BadLine{"msr_negative_size", TraceFormat::kMsr, kMsr,
                "128166372000000000,h,0,Write,4096,-4096,0", "Size is negative"},
        BadLine{"msr_unknown_opcode", TraceFormat::kMsr, kMsr,
                "128166372000000000,h,0,Erase,4096,4096,0", "unknown Type 'Erase'"},
        BadLine{"msr_time_backwards", TraceFormat::kMsr,
                "128166372005000000,h,0,Write,4096,4096,0\n",
                "128166372000000000,h,0,Read,0,4096,0", "time goes backwards by 500000000 ns"},
        BadLine{"spc_missing_field", TraceFormat::kSpc, kSpc, "0,8,4096,w", "expected 5 fields"},
        BadLine{"spc_not_a_number", TraceFormat::kSpc, kSpc, "0,x8,4096,w,0.6",
                "LBA is not a number"},
        BadLine{"spc_negative_size", TraceFormat::kSpc, kSpc, "0,8,-512,w,0.6", "Size is negative"},
        BadLine{"spc_unknown_opcode", TraceFormat::kSpc, kSpc, "0,8,4096,x,0.6",
                "unknown Opcode 'x'"},
        BadLine{"spc_time_backwards", TraceFormat::kSpc, kSpc, "0,8,4096,r,0.4",
                "time goes backwards by 100000000 ns"},
        BadLine{"mqsim_missing_field", TraceFormat::kMqsim, kMqsim, "2000 0 8 8",
                "expected 5 fields"},
        BadLine{"mqsim_not_a_number", TraceFormat::kMqsim, kMqsim, "2000 0 8 eight 0",
                "size_sectors is not a number"},
        BadLine{"mqsim_negative_size", TraceFormat::kMqsim, kMqsim, "2000 0 8 -8 0",
                "size_sectors is negative"},
        BadLine{"mqsim_unknown_opcode", TraceFormat::kMqsim, kMqsim, "2000 0 8 8 2",
                "unknown type 2"},
        BadLine{"mqsim_time_backwards", TraceFormat::kMqsim, "5000000 0 8 8 0\n", "1000 0 8 8 1",
                "time goes backwards by 4999000 ns"},
        BadLine{"disksim_missing_field", TraceFormat::kDisksim, kDisksim, "2.0 0 8 8",
                "expected 5 fields"},
        BadLine{"disksim_not_a_number", TraceFormat::kDisksim, kDisksim, "2.0 0 8 8 r",
                "flags is not a number"},
        BadLine{"disksim_negative_size", TraceFormat::kDisksim, kDisksim, "2.0 0 8 -8 1",
                "count is negative"},
        // DiskSim's flags are a bit field: every value is an opcode; a negative one is not.
        BadLine{"disksim_unknown_opcode", TraceFormat::kDisksim, kDisksim, "2.0 0 8 8 -1",
                "flags is negative"},
        BadLine{"disksim_time_backwards", TraceFormat::kDisksim, kDisksim, "0.2 0 8 8 1",
                "time goes backwards by 1300000 ns"},
        BadLine{"blkparse_missing_field", TraceFormat::kBlkparse, kBlk,
                "  8,0  1  2  0.000200000  42  Q", "expected 7 fields"},
        BadLine{"blkparse_not_a_number", TraceFormat::kBlkparse, kBlk,
                "  8,0  1  2  0.000200000  42  Q  W 8x + 8 [dd]", "sector is not a number"},
        BadLine{"blkparse_negative_size", TraceFormat::kBlkparse, kBlk,
                "  8,0  1  2  0.000200000  42  Q  W 8 + -8 [dd]", "sector count is negative"},
        BadLine{"blkparse_unknown_opcode", TraceFormat::kBlkparse, kBlk,
                "  8,0  1  2  0.000200000  42  Q  X 8 + 8 [dd]", "unknown RWBS 'X'"},
        BadLine{"blkparse_missing_extent", TraceFormat::kBlkparse, kBlk,
                "  8,0  1  2  0.000200000  42  Q  W [dd]", "missing 'sector + count'"},
        BadLine{"blkparse_time_backwards", TraceFormat::kBlkparse,
                "  8,0  1  1  0.500000000  42  Q  W 8 + 8 [dd]\n",
                "  8,0  1  2  0.100000000  42  Q  R 8 + 8 [dd]",
                "time goes backwards by 400000000 ns"},
        BadLine{"fio_missing_header", TraceFormat::kFio, "", "/dev/sda add",
                "missing the 'fio version 2 iolog' header"},
        BadLine{"fio_missing_field", TraceFormat::kFio, kFio, "/dev/sda write 0",
                "expected 4 fields"},
        BadLine{"fio_not_a_number", TraceFormat::kFio, kFio, "/dev/sda write 0 4KiB",
                "length is not a number"},
        BadLine{"fio_negative_size", TraceFormat::kFio, kFio, "/dev/sda write 0 -4096",
                "length is negative"},
        BadLine{"fio_unknown_opcode", TraceFormat::kFio, kFio, "/dev/sda erase 0 4096",
                "unknown action 'erase'"},
        BadLine{"fio_file_not_added", TraceFormat::kFio, kFio, "/dev/sdb read 0 4096",
                "file '/dev/sdb' was not added"}),
    [](const ::testing::TestParamInfo<BadLine>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ssd::workload
