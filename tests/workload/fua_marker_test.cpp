// workload.fua_ratio (workload/fua_marker.h): that share of the writes FUA, drawn from a stream of
// its own, so that the requests are otherwise those of the same workload without FUA; nothing
// else is ever FUA; a source's own FUA writes stay FUA; off (no wrapper) at 0.
#include "workload/fua_marker.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "config/scenario_config.h"
#include "workload/make_workload_source.h"

namespace ssd::workload {
namespace {

constexpr uint64_t kLogicalBytes = 64ull << 20;

config::WorkloadConfig mixed(double fua_ratio) {
  config::WorkloadConfig c;
  c.requests = 20000;
  c.read_ratio = 0.3;
  c.trim_ratio = 0.1;
  c.flush_every_writes = 50;
  c.fua_ratio = fua_ratio;
  return c;
}

std::vector<Request> all(WorkloadSource& source) {
  std::vector<Request> requests;
  Request r;
  while (source.next(r)) requests.push_back(r);
  return requests;
}

TEST(FuaMarker, AShareOfTheWritesIsFuaAndTheRequestsAreOtherwiseUnchanged) {
  const auto plain = make_workload_source(mixed(0.0), kLogicalBytes, 512);
  const auto marked = make_workload_source(mixed(0.2), kLogicalBytes, 512);
  const std::vector<Request> a = all(*plain);
  const std::vector<Request> b = all(*marked);
  ASSERT_EQ(a.size(), b.size());
  uint64_t writes = 0, fua = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind) << i;
    EXPECT_EQ(a[i].start_sector, b[i].start_sector) << i;
    EXPECT_EQ(a[i].sector_count, b[i].sector_count) << i;
    EXPECT_FALSE(a[i].fua) << i;
    if (b[i].fua) {
      ASSERT_EQ(b[i].kind, ftl::CommandKind::kWrite) << "request " << i << " is FUA";
      ++fua;
    }
    writes += b[i].kind == ftl::CommandKind::kWrite;
  }
  // 20 % of about 12,000 writes: the standard deviation is about 44.
  EXPECT_NEAR(double(fua), 0.2 * double(writes), 200.0);
  EXPECT_GT(writes, 10000u);
  EXPECT_EQ(marked->describe(), plain->describe() + ", 20% of writes FUA");
}

TEST(FuaMarker, TheDrawsFollowTheSeed) {
  const auto fua_of = [](uint64_t seed) {
    config::WorkloadConfig c = mixed(0.5);
    c.seed = seed;
    const auto source = make_workload_source(c, kLogicalBytes, 512);
    std::vector<bool> marks;
    for (const Request& r : all(*source)) marks.push_back(r.fua);
    return marks;
  };
  EXPECT_EQ(fua_of(3), fua_of(3));
  EXPECT_NE(fua_of(3), fua_of(4));
}

TEST(FuaMarker, AllOrNone) {
  const auto count = [](double ratio) {
    const auto source = make_workload_source(mixed(ratio), kLogicalBytes, 512);
    uint64_t fua = 0, writes = 0;
    for (const Request& r : all(*source)) {
      fua += r.fua;
      writes += r.kind == ftl::CommandKind::kWrite;
    }
    return std::make_pair(fua, writes);
  };
  const auto [none, writes] = count(0.0);
  EXPECT_EQ(none, 0u);
  const auto [every, same_writes] = count(1.0);
  EXPECT_EQ(every, same_writes);
  EXPECT_EQ(same_writes, writes);
}

// A source's own FUA writes (a blkparse trace's) stay FUA at any ratio.
class OneFuaWrite final : public WorkloadSource {
 public:
  bool next(Request& request) override {
    if (m_done) return false;
    m_done = true;
    request = Request{};
    request.kind = ftl::CommandKind::kWrite;
    request.sector_count = 8;
    request.fua = true;
    return true;
  }
  bool open_loop() const override { return false; }
  std::string describe() const override { return "one"; }

 private:
  bool m_done = false;
};

TEST(FuaMarker, ASourcesOwnFuaWriteStaysFua) {
  FuaMarker marker(std::make_unique<OneFuaWrite>(), 0.0001, 1);
  const std::vector<Request> got = all(marker);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].fua);
}

}  // namespace
}  // namespace ssd::workload
