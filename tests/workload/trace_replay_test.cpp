// Placing a trace on the device (regions per device, --device N, fit error / wrap / scale) and
// replaying it (speed factor, maximum count, FUA writes and preflushes).
#include <vector>

#include <gtest/gtest.h>

#include "tests/workload/trace_test_support.h"
#include "workload/make_workload_source.h"
#include "workload/trace/trace_error.h"
#include "workload/trace/trace_layout.h"
#include "workload/trace/trace_replayer.h"

namespace ssd::workload {
namespace {

constexpr uint64_t kMiB = 1 << 20;

std::vector<Request> replay(const std::string& path, const std::string& fit, uint64_t capacity,
                            const std::string& device = "all", double speed = 1.0,
                            uint64_t max_requests = 0, std::string* fit_applied = nullptr) {
  config::WorkloadConfig config;
  config.kind = "trace";
  config.trace_file = path;
  config.fit = fit;
  config.device = device;
  config.speed = speed;
  config.mode = "open";
  config.requests = max_requests;
  auto source = make_workload_source(config, capacity, 512);
  if (fit_applied) *fit_applied = source->trace_stats()->fit_applied;
  std::vector<Request> requests;
  Request request;
  while (source->next(request)) requests.push_back(request);
  EXPECT_EQ(source->failure(), "");
  return requests;
}

// Two devices: device 7 reaches 3 MiB, device 9 reaches 1 MiB + 4 KiB.
std::string two_device_trace() {
  return testing::write_file("two.trace",
                             "0 7 0 8 0\n"
                             "1000 9 2048 8 1\n"
                             "2000 7 6136 8 0\n"  // ends at 3 MiB
                             "3000 9 1 3 1\n");   // unaligned, sub-page
}

TEST(TraceLayout, EachDeviceGetsItsOwnRegion) {
  const auto r = replay(two_device_trace(), "error", 8 * kMiB);
  ASSERT_EQ(r.size(), 4u);
  const uint64_t region_sectors = 4 * kMiB / 512;
  EXPECT_EQ(r[0].start_sector, 0u);
  EXPECT_EQ(r[1].start_sector, region_sectors + 2048);
  EXPECT_EQ(r[2].start_sector, 6136u);
  EXPECT_EQ(r[3].start_sector, region_sectors + 1);  // sector granularity kept
  EXPECT_EQ(r[3].sector_count, 3u);
  EXPECT_EQ(r[1].arrival, 1000u * 1000);  // ns -> ps
}

TEST(TraceLayout, OneDeviceSelectedUsesTheWholeDevice) {
  const auto r = replay(two_device_trace(), "error", 8 * kMiB, "9");
  ASSERT_EQ(r.size(), 2u);
  const std::string path = two_device_trace();
  TraceSpec spec = resolve_trace(path, "auto", "auto", false);
  spec.only_device = 9;
  EXPECT_EQ(devices_replayed(scan_trace(spec)), 1u);
  EXPECT_EQ(r[0].start_sector, 2048u);
  EXPECT_EQ(r[1].start_sector, 1u);
}

TEST(TraceLayout, FitErrorNamesTheLineAndTheOvershoot) {
  try {
    replay(two_device_trace(), "error", 4 * kMiB);  // regions of 2 MiB; device 7 needs 3 MiB
    FAIL() << "expected a fit error";
  } catch (const TraceError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("two.trace:3: the request ends 1048576 bytes past"), std::string::npos)
        << message;
    EXPECT_NE(message.find("`2000 7 6136 8 0`"), std::string::npos) << message;
  }
}

TEST(TraceLayout, WrapFoldsModuloTheRegion) {
  std::string applied;
  const auto r = replay(two_device_trace(), "wrap", 4 * kMiB, "all", 1.0, 0, &applied);
  EXPECT_EQ(applied, "wrap");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[2].start_sector, 6136u - 4096);  // 3 MiB - 4 KiB folded into a 2 MiB region
}

TEST(TraceLayout, ScaleShrinksKeepingAlignmentAndNeverGrows) {
  std::string applied;
  const auto r = replay(two_device_trace(), "scale", 4 * kMiB, "all", 1.0, 0, &applied);
  EXPECT_EQ(applied, "scale");
  ASSERT_EQ(r.size(), 4u);
  // Device 7 spans 768 grains of 4 KiB onto 512: grain 767 -> 511.
  EXPECT_EQ(r[2].start_sector, 511u * 8);
  EXPECT_EQ(r[2].start_sector % 8, 0u);
  EXPECT_LE(r[2].start_sector + r[2].sector_count, 4096u);
  // Device 9 fits its region: untouched.
  EXPECT_EQ(r[1].start_sector, 4096u + 2048);
  // Nothing to scale: identity.
  const auto big = replay(two_device_trace(), "scale", 64 * kMiB, "all", 1.0, 0, &applied);
  EXPECT_EQ(applied, "none");
  EXPECT_EQ(big[2].start_sector, 6136u);
}

TEST(TraceReplay, SpeedDividesArrivalsAndMaxRequestsStops) {
  const auto fast = replay(two_device_trace(), "error", 8 * kMiB, "all", 4.0);
  ASSERT_EQ(fast.size(), 4u);
  EXPECT_EQ(fast[3].arrival, 3000u * 1000 / 4);
  EXPECT_EQ(replay(two_device_trace(), "error", 8 * kMiB, "all", 1.0, 2).size(), 2u);
}

// A FUA write is one command, a write with FUA; a preflush is a flush before the data.
TEST(TraceReplay, FuaWriteIsOneCommandAndPreflushPrecedes) {
  const std::string path = testing::write_file("fua.blkparse",
                                               "  8,0  1  1  0.000000000  1  Q  WFS 8 + 8 [x]\n"
                                               "  8,0  1  2  0.000001000  1  Q  FWS 16 + 8 [x]\n"
                                               "  8,0  1  3  0.000002000  1  Q  FN [x]\n"
                                               "  8,0  1  4  0.000003000  1  Q  FWF 24 + 8 [x]\n");
  const auto r = replay(path, "error", 8 * kMiB);
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].kind, ftl::CommandKind::kWrite);
  EXPECT_TRUE(r[0].fua);
  EXPECT_EQ(r[0].start_sector, 8u);
  EXPECT_EQ(r[1].kind, ftl::CommandKind::kFlush);
  EXPECT_EQ(r[2].kind, ftl::CommandKind::kWrite);
  EXPECT_FALSE(r[2].fua);
  EXPECT_EQ(r[2].start_sector, 16u);
  EXPECT_EQ(r[3].kind, ftl::CommandKind::kFlush);
  EXPECT_EQ(r[4].kind, ftl::CommandKind::kFlush);  // FWF: a preflush, then a FUA write
  EXPECT_EQ(r[5].kind, ftl::CommandKind::kWrite);
  EXPECT_TRUE(r[5].fua);
  EXPECT_EQ(r[5].start_sector, 24u);
}

TEST(TraceReplay, ATraceThatChangesAfterTheScanEndsCleanlyWithAFailure) {
  const std::string path = testing::write_file("changing.trace", "0 0 0 8 0\n1000 0 8 8 1\n");
  config::WorkloadConfig config;
  config.kind = "trace";
  config.trace_file = path;
  config.mode = "open";
  config.requests = 0;
  auto source = make_workload_source(config, 8 * kMiB, 512);
  testing::write_file("changing.trace", "0 0 0 8 0\nbroken\n");
  Request request;
  EXPECT_TRUE(source->next(request));
  EXPECT_FALSE(source->next(request));
  EXPECT_NE(source->failure().find("changing.trace:2: expected 5 fields"), std::string::npos)
      << source->failure();
}

TEST(TraceReplay, DeviceNotInTraceIsAnError) {
  EXPECT_THROW(replay(two_device_trace(), "error", 8 * kMiB, "3"), TraceError);
}

}  // namespace
}  // namespace ssd::workload
