#include "workload/flush_injector.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace ssd::workload {
namespace {

// Writes and reads in a fixed order, open loop.
class ListSource final : public WorkloadSource {
 public:
  explicit ListSource(std::vector<Request> requests) : m_requests(std::move(requests)) {}
  bool next(Request& request) override {
    if (m_next == m_requests.size()) return false;
    request = m_requests[m_next++];
    return true;
  }
  bool open_loop() const override { return true; }
  std::string describe() const override { return "list"; }

 private:
  std::vector<Request> m_requests;
  size_t m_next = 0;
};

Request request(ftl::CommandKind kind, ftl::Picoseconds arrival, uint16_t queue = 0) {
  Request r;
  r.kind = kind;
  r.start_sector = 8;
  r.sector_count = 8;
  r.arrival = arrival;
  r.queue = queue;
  return r;
}

TEST(FlushInjector, AFlushFollowsEveryNthWriteAtItsArrivalAndQueue) {
  using ftl::CommandKind;
  std::vector<Request> list = {request(CommandKind::kWrite, 10), request(CommandKind::kRead, 20),
                               request(CommandKind::kWrite, 30, 3),
                               request(CommandKind::kWrite, 40), request(CommandKind::kWrite, 50)};
  FlushInjector source(std::make_unique<ListSource>(list), 2);
  std::vector<Request> got;
  Request r;
  while (source.next(r)) got.push_back(r);
  ASSERT_EQ(got.size(), 7u);  // five, and a flush after the 2nd and the 4th write
  EXPECT_EQ(got[3].kind, CommandKind::kFlush);
  EXPECT_EQ(got[3].arrival, 30u);
  EXPECT_EQ(got[3].queue, 3u);
  EXPECT_EQ(got[3].sector_count, 0u);
  EXPECT_EQ(got[6].kind, CommandKind::kFlush);
  EXPECT_EQ(got[6].arrival, 50u);
  EXPECT_TRUE(source.open_loop());
  EXPECT_EQ(source.describe(), "list, a flush every 2 writes");
}

}  // namespace
}  // namespace ssd::workload
