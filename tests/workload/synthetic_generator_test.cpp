#include "workload/synthetic_generator.h"

#include <gtest/gtest.h>

#include <vector>

namespace ssd::workload {
namespace {

constexpr uint64_t kDevice = 64ull << 20;

std::vector<Request> drain(SyntheticGenerator& generator) {
  std::vector<Request> all;
  Request r;
  while (generator.next(r)) all.push_back(r);
  return all;
}

TEST(SyntheticGenerator, SameSeedSameRequests) {
  config::WorkloadConfig c;
  c.requests = 1000;
  SyntheticGenerator a(c, kDevice, 512), b(c, kDevice, 512);
  const auto ra = drain(a), rb = drain(b);
  ASSERT_EQ(ra.size(), 1000u);
  for (size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].start_sector, rb[i].start_sector);
    EXPECT_EQ(ra[i].kind, rb[i].kind);
  }
}

TEST(SyntheticGenerator, RandomStaysAlignedAndInRange) {
  config::WorkloadConfig c;
  c.requests = 20000;
  c.address_start_bytes = 1 << 20;
  c.address_span_bytes = 8 << 20;
  c.request_bytes = 8192;
  for (const Request& r : [&] {
         SyntheticGenerator g(c, kDevice, 512);
         return drain(g);
       }()) {
    EXPECT_EQ(r.start_sector % 8, 0u);
    EXPECT_GE(r.start_sector, (1u << 20) / 512);
    EXPECT_LE(r.start_sector + r.sector_count, (9u << 20) / 512);
  }
}

TEST(SyntheticGenerator, ReadRatioAndFlushes) {
  config::WorkloadConfig c;
  c.requests = 100000;
  c.read_ratio = 0.7;
  c.flush_every_writes = 10;
  SyntheticGenerator g(c, kDevice, 512);
  uint64_t reads = 0, writes = 0, flushes = 0;
  for (const Request& r : drain(g)) {
    reads += r.kind == ftl::CommandKind::kRead;
    writes += r.kind == ftl::CommandKind::kWrite;
    flushes += r.kind == ftl::CommandKind::kFlush;
  }
  EXPECT_NEAR(double(reads) / double(reads + writes), 0.7, 0.01);
  EXPECT_NEAR(double(flushes), double(writes) / 10.0, 2.0);
}

TEST(SyntheticGenerator, SequentialAdvancesAndWraps) {
  config::WorkloadConfig c;
  c.pattern = "sequential";
  c.requests = 10;
  c.address_span_bytes = 4 * 4096;
  SyntheticGenerator g(c, kDevice, 512);
  const auto all = drain(g);
  EXPECT_EQ(all[0].start_sector, 0u);
  EXPECT_EQ(all[1].start_sector, 8u);
  EXPECT_EQ(all[4].start_sector, 0u);
}

TEST(SyntheticGenerator, UniformSizesOnTheGrid) {
  config::WorkloadConfig c;
  c.requests = 5000;
  c.size_distribution = "uniform";
  c.request_bytes = 4096;
  c.request_bytes_max = 65536;
  SyntheticGenerator g(c, kDevice, 512);
  uint32_t smallest = ~0u, largest = 0;
  for (const Request& r : drain(g)) {
    EXPECT_EQ(r.sector_count % 8, 0u);
    smallest = std::min(smallest, r.sector_count);
    largest = std::max(largest, r.sector_count);
  }
  EXPECT_EQ(smallest, 8u);
  EXPECT_EQ(largest, 128u);
}

TEST(SyntheticGenerator, OpenLoopArrivalsAndDuration) {
  config::WorkloadConfig c;
  c.mode = "open";
  c.requests = 0;
  c.duration_ms = 1.0;
  c.interarrival_us = 10.0;
  SyntheticGenerator g(c, kDevice, 512);
  const auto all = drain(g);
  ASSERT_EQ(all.size(), 100u);
  EXPECT_EQ(all[1].arrival - all[0].arrival, 10'000'000u);
}

}  // namespace
}  // namespace ssd::workload
