// What each format's fields become: units, opcodes, devices, blkparse actions and flags, fio
// file operations and waits; and auto-detection.
#include <vector>

#include <gtest/gtest.h>

#include "tests/workload/trace_test_support.h"
#include "workload/trace/trace_reader.h"

namespace ssd::workload {
namespace {

std::vector<TraceRecord> read_all(const std::string& content, TraceFormat format,
                                  char action = 'Q') {
  const std::string path = testing::write_file("t.trace", content);
  TraceReader reader(testing::spec_for(path, format, action));
  std::vector<TraceRecord> records;
  TraceRecord record;
  while (reader.next(record)) records.push_back(record);
  return records;
}

TEST(TraceFormats, MsrTicksBytesAndDevicesPerHostDisk) {
  const auto r = read_all(
      "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
      "128166372000000000,src1,1,Read,4096,512,0\n"
      "128166372000000010,src1,0,Write,100,4096,0\n"
      "128166372000000020,src2,1,write,0,8192,0\n",
      TraceFormat::kMsr);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].kind, ftl::CommandKind::kRead);
  EXPECT_EQ(r[0].offset_bytes, 4096u);
  EXPECT_EQ(r[0].size_bytes, 512u);
  EXPECT_EQ(r[0].time_ns, 0u);
  EXPECT_EQ(r[1].time_ns, 1000u);      // 10 ticks of 100 ns
  EXPECT_EQ(r[1].offset_bytes, 100u);  // unaligned offsets are kept
  EXPECT_EQ(r[2].kind, ftl::CommandKind::kWrite);
  EXPECT_EQ(r[0].device, 0u);
  EXPECT_EQ(r[1].device, 1u);
  EXPECT_EQ(r[2].device, 2u);  // same disk number, other host: another device
}

TEST(TraceFormats, SpcSectorsBytesSeconds) {
  const auto r = read_all("3,100,1536,R,1.5\n0,2,512,w,2.000000001\n", TraceFormat::kSpc);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].offset_bytes, 51200u);
  EXPECT_EQ(r[0].size_bytes, 1536u);
  EXPECT_EQ(r[0].device_number, 3u);
  EXPECT_EQ(r[1].time_ns, 500000001u);
  EXPECT_EQ(r[1].kind, ftl::CommandKind::kWrite);
}

TEST(TraceFormats, MqsimAndDisksimOpcodes) {
  const auto m = read_all("100 2 8 16 0\n200 2 8 16 1\n", TraceFormat::kMqsim);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].kind, ftl::CommandKind::kWrite);
  EXPECT_EQ(m[1].kind, ftl::CommandKind::kRead);
  EXPECT_EQ(m[1].time_ns, 100u);
  EXPECT_EQ(m[0].size_bytes, 8192u);
  const auto d = read_all("0.5 1 8 16 0\n1.75 1 8 16 3\n", TraceFormat::kDisksim);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].kind, ftl::CommandKind::kWrite);
  EXPECT_EQ(d[1].kind, ftl::CommandKind::kRead);  // bit 0 set
  EXPECT_EQ(d[1].time_ns, 1250000u);
  EXPECT_EQ(d[0].offset_bytes, 4096u);
}

constexpr const char* kBlkparse =
    "  8,0    1        1     0.000000000  100  Q   W 1000 + 8 [fio]\n"
    "  8,0    1        2     0.000001000  100  G   W 1000 + 8 [fio]\n"
    "  8,0    1        3     0.000002000  100  D   W 1000 + 8 [fio]\n"
    "  8,0    1        4     0.000010000  100  C   W 1000 + 8 [0]\n"
    "  8,0    1        5     0.000020000  100  Q  WFS 2000 + 8 [fio]\n"
    "  8,0    1        6     0.000030000  100  Q  FN [fio]\n"
    "  8,0    1        7     0.000040000  100  Q   D 0 + 2048 [fstrim]\n"
    "  8,0    1        8     0.000050000  100  Q  RA 64 + 8 [fio]\n"
    "  8,0    1        9     0.000060000  100  Q   N [fio]\n"
    "  8,0    1       10     0.000070000  100  Q FWS 3000 + 8 [fio]\n"
    "CPU1 (8,0):\n"
    " Reads Queued:           1,        4KiB\t Writes Queued:           3,       12KiB\n"
    "Total (8,0):\n";

TEST(TraceFormats, BlkparseQueuedEventsWithFlushFuaAndDiscard) {
  const auto r = read_all(kBlkparse, TraceFormat::kBlkparse, 'Q');
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].kind, ftl::CommandKind::kWrite);
  EXPECT_EQ(r[0].offset_bytes, 512000u);
  EXPECT_EQ(r[0].size_bytes, 4096u);
  EXPECT_FALSE(r[0].fua);
  EXPECT_EQ(r[1].kind, ftl::CommandKind::kWrite);  // WFS: a FUA write
  EXPECT_TRUE(r[1].fua);
  EXPECT_FALSE(r[1].flush_before);
  EXPECT_EQ(r[2].kind, ftl::CommandKind::kFlush);  // FN: flush without data
  EXPECT_EQ(r[3].kind, ftl::CommandKind::kTrim);   // D: discard
  EXPECT_EQ(r[3].size_bytes, 2048u * 512);
  EXPECT_EQ(r[4].kind, ftl::CommandKind::kRead);   // RA: read-ahead is a read
  EXPECT_TRUE(r[5].flush_before);                  // FWS: preflush, then the write
  EXPECT_EQ(r[5].kind, ftl::CommandKind::kWrite);  // N without flush: not replayed
  EXPECT_FALSE(r[5].fua);                          // its F is a preflush, not FUA
}

TEST(TraceFormats, BlkparseActionSelection) {
  EXPECT_EQ(read_all(kBlkparse, TraceFormat::kBlkparse, 'D').size(), 1u);
  const auto c = read_all(kBlkparse, TraceFormat::kBlkparse, 'C');
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].time_ns, 0u);  // rebased to the first replayed event
}

TEST(TraceFormats, FioFilesActionsAndWaits) {
  const auto r = read_all(
      "fio version 2 iolog\n"
      "/dev/sdb add\n/dev/sdc add\n/dev/sdb open\n/dev/sdc open\n"
      "/dev/sdb write 4096 8192\n"
      "/dev/sdb wait 250\n"
      "/dev/sdc read 0 512\n"
      "/dev/sdc trim 1048576 65536\n"
      "/dev/sdb sync\n"
      "/dev/sdb close\n",
      TraceFormat::kFio);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].kind, ftl::CommandKind::kWrite);
  EXPECT_EQ(r[0].device, 0u);
  EXPECT_EQ(r[0].offset_bytes, 4096u);
  EXPECT_EQ(r[1].kind, ftl::CommandKind::kRead);
  EXPECT_EQ(r[1].device, 1u);
  EXPECT_EQ(r[1].time_ns, 250000u);
  EXPECT_EQ(r[2].kind, ftl::CommandKind::kTrim);
  EXPECT_EQ(r[3].kind, ftl::CommandKind::kFlush);
}

TEST(TraceFormats, ZeroByteRequestsAreCountedNotReplayed) {
  const std::string path = testing::write_file("z.trace", "100 0 8 0 1\n200 0 8 8 1\n");
  TraceReader reader(testing::spec_for(path, TraceFormat::kMqsim));
  TraceRecord record;
  ASSERT_TRUE(reader.next(record));
  EXPECT_EQ(record.size_bytes, 4096u);
  EXPECT_FALSE(reader.next(record));
  EXPECT_EQ(reader.stats().empty_requests, 1u);
}

TEST(TraceFormats, SmallBackwardStepWithinToleranceIsClamped) {
  const std::string path = testing::write_file("tol.trace", "2000000 0 8 8 1\n1500000 0 8 8 1\n");
  TraceReader reader(testing::spec_for(path, TraceFormat::kMqsim));
  TraceRecord first, second;
  ASSERT_TRUE(reader.next(first));
  ASSERT_TRUE(reader.next(second));  // 0.5 ms back: within the 1 ms tolerance
  EXPECT_EQ(second.time_ns, first.time_ns);
}

TEST(TraceFormats, Detection) {
  const auto detect = [](std::vector<std::string> lines) {
    const auto format = detect_format(lines);
    return format ? std::string(format_name(*format)) : std::string("none");
  };
  EXPECT_EQ(detect({"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
                    "128166372000000000,h,0,Read,0,4096,0"}),
            "msr");
  EXPECT_EQ(detect({"0,303567,3584,w,0.000000"}), "spc");
  EXPECT_EQ(detect({"938513000 4 264719034 16 0"}), "mqsim");
  EXPECT_EQ(detect({"0.125 0 264719034 16 1"}), "disksim");
  EXPECT_EQ(detect({"  1,0   15   1   0.000000000 19146  C  WS 299456 + 1 [0]"}), "blkparse");
  EXPECT_EQ(detect({"fio version 2 iolog", "/dev/sda add"}), "fio");
  EXPECT_EQ(detect({"hello"}), "none");
}

}  // namespace
}  // namespace ssd::workload
