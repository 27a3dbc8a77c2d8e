// Warm-up passes (workload/warm_up.h): a pass replays the whole workload through the device,
// nothing recorded, reads checked, and leaves the device as the same commands run one by one do.
#include "workload/warm_up.h"

#include <gtest/gtest.h>

#include "config/capacity.h"
#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "tests/ftl/tiny_platform.h"
#include "workload/make_workload_source.h"

namespace ssd::workload {
namespace {

config::WorkloadConfig mixed_workload() {
  config::WorkloadConfig w;
  w.read_ratio = 0.3;
  w.trim_ratio = 0.05;
  w.size_distribution = "uniform";
  w.request_bytes = 512;
  w.request_bytes_max = 16384;
  w.align_bytes = 512;  // sub-unit requests too: read-modify-writes
  w.requests = 20000;
  w.flush_every_writes = 100;
  w.seed = 5;
  return w;
}

std::unique_ptr<WorkloadSource> source_for(const config::PlatformConfig& platform,
                                           const config::WorkloadConfig& workload) {
  return make_workload_source(workload, config::logical_capacity_bytes(platform),
                              platform.nand.sector_bytes);
}

TEST(WarmUp, ReplaysTheWholeWorkloadWithNothingRecorded) {
  const config::PlatformConfig platform = testing::tiny_platform();
  ftl::FtlDevice device(platform, ftl::FtlDeviceOptions{});
  device.backend().set_recording(true);
  const auto source = source_for(platform, mixed_workload());
  uint64_t ticks = 0;
  EXPECT_EQ(replay_untimed(device, *source, [&](uint64_t) { ++ticks; }), 20000u);
  EXPECT_EQ(ticks, 20000u / 4096);
  EXPECT_EQ(device.commands_run(), 20000u) << "one command per request, flushes included";
  EXPECT_TRUE(device.backend().recording()) << "recording back as it was";
  EXPECT_EQ(device.backend().ops().size(), 0u) << "an untimed pass records no operation";
  EXPECT_GT(device.scheme().stats().gc_erases, 0u) << "enough writes to need GC";
  ASSERT_NE(device.oracle(), nullptr);
  EXPECT_GT(device.oracle()->checked_reads(), 0u) << "reads are checked";
  EXPECT_EQ(device.oracle()->mismatches(), 0u) << device.oracle()->first_mismatch();
}

void expect_warm_up_leaves_the_device_as_commands_run_one_by_one(
    const config::PlatformConfig& platform) {
  ftl::FtlDevice warmed(platform, ftl::FtlDeviceOptions{});
  ftl::FtlDevice by_hand(platform, ftl::FtlDeviceOptions{});
  const auto source = source_for(platform, mixed_workload());
  replay_untimed(warmed, *source);
  const auto again = source_for(platform, mixed_workload());
  Request request;
  ftl::HostCommand command;
  while (again->next(request)) {
    command.kind = request.kind;
    command.start_sector = request.start_sector;
    command.sector_count = request.sector_count;
    by_hand.run(command);
  }
  EXPECT_EQ(warmed.commands_run(), by_hand.commands_run());
  for (ftl::Lun lun = 0; lun < warmed.geometry().logical_units; ++lun) {
    ASSERT_EQ(warmed.oracle()->expected(lun), by_hand.oracle()->expected(lun)) << "unit " << lun;
  }
  EXPECT_EQ(warmed.scheme().stats().gc_erases, by_hand.scheme().stats().gc_erases);
  EXPECT_EQ(warmed.scheme().stats().gc_units_copied, by_hand.scheme().stats().gc_units_copied);
}

TEST(WarmUp, LeavesTheDeviceAsTheSameCommandsRunOneByOne) {
  expect_warm_up_leaves_the_device_as_commands_run_one_by_one(testing::tiny_platform());
}

// least_busy_die compares dies by the command's own programs (GC's included): the warm-up does
// not record operations, and must count them all the same.
TEST(WarmUp, LeavesTheSameDeviceWithPlacementThatFollowsDieLoad) {
  config::PlatformConfig platform = testing::tiny_platform();
  platform.ftl.placement = "least_busy_die";
  expect_warm_up_leaves_the_device_as_commands_run_one_by_one(platform);
}

// A second pass starts from what the first left: every read of the second pass finds data the
// first wrote, where the first pass's early reads found nothing.
TEST(WarmUp, ASecondPassRunsOnTheStateTheFirstLeft) {
  const config::PlatformConfig platform = testing::tiny_platform();
  ftl::FtlDevice device(platform, ftl::FtlDeviceOptions{});
  config::WorkloadConfig workload = mixed_workload();
  workload.trim_ratio = 0.0;
  workload.address_span_bytes = 1 << 20;  // a small span, written over and over
  const auto first = source_for(platform, workload);
  replay_untimed(device, *first);
  const uint64_t erases = device.scheme().stats().gc_erases;
  const auto second = source_for(platform, workload);
  EXPECT_EQ(replay_untimed(device, *second), workload.requests);
  EXPECT_EQ(device.oracle()->mismatches(), 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.scheme().stats().gc_erases, erases) << "the second pass's overwrites";
}

}  // namespace
}  // namespace ssd::workload
