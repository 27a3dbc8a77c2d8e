// Live clients as a workload (workload/live/live_source.h): requests reach the device in the
// order they came, at the simulated time the pacing gives them, and each client is answered with
// its own request's outcome; closing drains, ending fails whatever waits.
#include "workload/live/live_source.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <future>
#include <thread>

namespace ssd::workload {
namespace {

Request write_at(uint64_t sector) {
  Request request;
  request.kind = ftl::CommandKind::kWrite;
  request.start_sector = sector;
  request.sector_count = 8;
  return request;
}

TEST(LiveSource, AsFastAsPossibleArrivesAtTheLatestCompletionTheClientWasTold) {
  LiveSource source(Pacing::kAsFastAsPossible);
  source.start_clock();
  auto first = std::async(std::launch::async, [&] { return source.execute(write_at(0)); });
  Request request;
  ASSERT_TRUE(source.next(request));
  EXPECT_EQ(request.start_sector, 0u);
  EXPECT_EQ(request.arrival, 0u);
  source.completed(5'000'000, true);
  EXPECT_EQ(first.get(), 0);
  // Sent after the answer: arrives at its completion, whatever the wall clock says.
  auto second = std::async(std::launch::async, [&] { return source.execute(write_at(8)); });
  ASSERT_TRUE(source.next(request));
  EXPECT_EQ(request.start_sector, 8u);
  EXPECT_EQ(request.arrival, 5'000'000u);
  source.completed(4'000'000, true);  // an earlier completion does not move time back
  EXPECT_EQ(second.get(), 0);
  auto third = std::async(std::launch::async, [&] { return source.execute(write_at(16)); });
  ASSERT_TRUE(source.next(request));
  EXPECT_EQ(request.arrival, 5'000'000u);
  source.completed(6'000'000, false);  // not served (or a read that failed the oracle)
  EXPECT_EQ(third.get(), EIO);
  EXPECT_EQ(source.answered(), 3u);
}

// Three requests in flight, answered in the order 30, 10, 20 us: the next three are the
// client's answers to them, earliest first, as a closed loop of depth 3 would send them.
TEST(LiveSource, AsFastAsPossiblePairsEachNewRequestWithTheEarliestAnswerLeft) {
  LiveSource source(Pacing::kAsFastAsPossible);
  const auto send_three = [&](uint64_t first) {
    std::vector<std::future<int>> sent;
    for (uint64_t i = 0; i < 3; ++i) {
      sent.push_back(std::async(
          std::launch::async, [&source, first, i] { return source.execute(write_at(first + i)); }));
    }
    while (source.queued() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return sent;
  };
  auto first = send_three(0);
  Request request;
  for (const ftl::Picoseconds completion : {30'000'000u, 10'000'000u, 20'000'000u}) {
    ASSERT_TRUE(source.next(request));
    EXPECT_EQ(request.arrival, 0u);
    source.completed(completion, true);
  }
  for (auto& answer : first) EXPECT_EQ(answer.get(), 0);
  auto second = send_three(8);
  for (const ftl::Picoseconds arrival : {10'000'000u, 20'000'000u, 30'000'000u}) {
    ASSERT_TRUE(source.next(request));
    EXPECT_EQ(request.arrival, arrival);
    source.completed(arrival + 1'000'000, true);
  }
  for (auto& answer : second) EXPECT_EQ(answer.get(), 0);
}

TEST(LiveSource, AsFastAsPossibleKeepsAtMostItsWindowOfAnswers) {
  LiveSource source(Pacing::kAsFastAsPossible, /*window=*/1);
  Request request;
  for (const ftl::Picoseconds completion : {5'000'000u, 7'000'000u}) {
    auto client = std::async(std::launch::async, [&] { return source.execute(write_at(0)); });
    ASSERT_TRUE(source.next(request));
    source.completed(completion, true);
    ASSERT_EQ(client.get(), 0);
  }
  // The second request paired with the first answer (5 us); of the second answer and nothing
  // else, the window keeps it: the third arrives at 7 us.
  auto third = std::async(std::launch::async, [&] { return source.execute(write_at(0)); });
  ASSERT_TRUE(source.next(request));
  EXPECT_EQ(request.arrival, 7'000'000u);
  source.completed(8'000'000, true);
  EXPECT_EQ(third.get(), 0);
}

TEST(LiveSource, ServesRequestsInTheOrderTheyCame) {
  LiveSource source(Pacing::kAsFastAsPossible);
  std::vector<std::future<int>> clients;
  for (uint64_t i = 0; i < 8; ++i) {
    clients.push_back(
        std::async(std::launch::async, [&, i] { return source.execute(write_at(8 * i)); }));
  }
  uint64_t seen = 0;
  ftl::Picoseconds last_arrival = 0;
  Request request;
  while (seen < 8 && source.next(request)) {
    EXPECT_GE(request.arrival, last_arrival);
    last_arrival = request.arrival;
    source.completed(last_arrival + 1000, true);
    ++seen;
  }
  for (auto& client : clients) EXPECT_EQ(client.get(), 0);
}

TEST(LiveSource, CloseDrainsThenEndsTheWorkload) {
  LiveSource source(Pacing::kAsFastAsPossible);
  auto client = std::async(std::launch::async, [&] { return source.execute(write_at(0)); });
  Request request;
  ASSERT_TRUE(source.next(request));
  source.close();
  source.completed(1000, true);
  EXPECT_EQ(client.get(), 0);
  EXPECT_FALSE(source.next(request));
  EXPECT_EQ(source.execute(write_at(8)), ESHUTDOWN);
}

TEST(LiveSource, EndFailsTheRunningAndTheWaitingRequests) {
  LiveSource source(Pacing::kAsFastAsPossible);
  auto running = std::async(std::launch::async, [&] { return source.execute(write_at(0)); });
  Request request;
  ASSERT_TRUE(source.next(request));
  auto waiting = std::async(std::launch::async, [&] { return source.execute(write_at(8)); });
  while (source.queued() < 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  source.end();  // the run stopped (a command the FTL could not serve, ...)
  EXPECT_EQ(running.get(), EIO);
  EXPECT_EQ(waiting.get(), ESHUTDOWN);
  EXPECT_EQ(source.execute(write_at(16)), ESHUTDOWN);
  EXPECT_FALSE(source.next(request));
}

TEST(LiveSource, RealTimeAnswersOnceWallTimeReachesTheCompletion) {
  LiveSource source(Pacing::kRealTime);
  source.start_clock();
  const auto sent = std::chrono::steady_clock::now();
  auto client = std::async(std::launch::async, [&] { return source.execute(write_at(0)); });
  Request request;
  ASSERT_TRUE(source.next(request));
  // It arrived at the wall time it was sent (well under a second after the start).
  EXPECT_LT(request.arrival, ftl::Picoseconds{1'000'000'000'000});
  source.completed(request.arrival + 30'000'000'000ull, true);  // 30 ms later
  EXPECT_EQ(client.get(), 0);
  EXPECT_GE(std::chrono::steady_clock::now() - sent, std::chrono::milliseconds(30));
}

TEST(LiveSource, ParsesPacing) {
  Pacing pacing = Pacing::kAsFastAsPossible;
  EXPECT_TRUE(parse_pacing("real_time", pacing));
  EXPECT_EQ(pacing, Pacing::kRealTime);
  EXPECT_TRUE(parse_pacing("as_fast_as_possible", pacing));
  EXPECT_EQ(pacing, Pacing::kAsFastAsPossible);
  EXPECT_FALSE(parse_pacing("fast", pacing));
}

}  // namespace
}  // namespace ssd::workload
