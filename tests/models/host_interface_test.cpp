// The host interface keeps the queue depth it is given: a fake controller answers every command
// after a fixed time, and the request log must show exactly `queue_depth` commands in flight.
#include "models/host/host_interface.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

namespace ssd::models {
namespace {

constexpr Picoseconds kServiceTime = 10'000'000;  // 10 us per command at the fake controller

class VectorSource final : public workload::WorkloadSource {
 public:
  explicit VectorSource(std::vector<workload::Request> requests, bool open)
      : m_requests(std::move(requests)), m_open(open) {}
  bool next(workload::Request& request) override {
    if (m_next == m_requests.size()) return false;
    request = m_requests[m_next++];
    return true;
  }
  bool open_loop() const override { return m_open; }
  std::string describe() const override { return "vector"; }

 private:
  std::vector<workload::Request> m_requests;
  bool m_open;
  size_t m_next = 0;
};

// Serves each command kServiceTime after it arrives, any number at once.
struct FixedLatencyController : sc_core::sc_module {
  tlm_utils::simple_target_socket<FixedLatencyController> socket{"socket"};
  explicit FixedLatencyController(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    socket.register_b_transport(this, &FixedLatencyController::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    delay += to_sc_time(kServiceTime);
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct LoggedCommand {
  Picoseconds submit, complete;
};

std::vector<LoggedCommand> parse_log(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  std::vector<LoggedCommand> all;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string f; std::getline(split, f, ',');) fields.push_back(f);
    all.push_back({std::stoull(fields[5]) * 1000, std::stoull(fields[6]) * 1000});
  }
  return all;
}

size_t max_in_flight(const std::vector<LoggedCommand>& log) {
  size_t most = 0;
  for (const auto& at : log) {
    const size_t n = std::count_if(log.begin(), log.end(), [&](const LoggedCommand& c) {
      return c.submit <= at.submit && at.submit < c.complete;
    });
    most = std::max(most, n);
  }
  return most;
}

std::vector<workload::Request> reads(size_t n, Picoseconds gap = 0) {
  std::vector<workload::Request> all(n);
  for (size_t i = 0; i < n; ++i) {
    all[i].kind = ftl::CommandKind::kRead;
    all[i].start_sector = i * 8;
    all[i].sector_count = 8;
    all[i].arrival = i * gap;
  }
  return all;
}

// Runs `source` through a host interface in front of the fixed-latency controller (one
// elaboration per process: each TEST calls this once) and returns what the request log shows.
struct HostRun {
  std::vector<LoggedCommand> commands;
  HostStats stats;
  bool finished;
};

HostRun run_host(VectorSource& source, HostInterfaceOptions options) {
  std::ostringstream log;
  options.request_log = &log;
  config::HostConfig host;
  host.command_overhead_ns = 0;
  HostInterface interface("host", host, source, options);
  FixedLatencyController controller("controller");
  interface.socket.bind(controller.socket);
  sc_core::sc_start();
  return {parse_log(log.str()), interface.stats(), interface.finished()};
}

TEST(HostInterface, ClosedLoopKeepsExactlyTheQueueDepthInFlight) {
  VectorSource source(reads(64), false);
  HostInterfaceOptions options;
  options.queue_depth = 4;
  const HostRun run = run_host(source, options);

  ASSERT_TRUE(run.finished);
  ASSERT_EQ(run.commands.size(), 64u);
  EXPECT_EQ(max_in_flight(run.commands), 4u);
  // The fifth command can only go when the first completes.
  EXPECT_EQ(run.commands[4].submit, run.commands[0].complete);
  EXPECT_EQ(run.stats.completed[0], 64u);
}

TEST(HostInterface, OpenLoopHonoursArrivalTimesAndTheQueueLimit) {
  VectorSource source(reads(40, 1'000'000), true);  // one per microsecond, each served in 10 us
  HostInterfaceOptions options;
  options.open_loop_slots = 3;
  const HostRun run = run_host(source, options);

  EXPECT_EQ(run.commands[1].submit, 1'000'000u);  // arrival time honoured while a slot is free
  EXPECT_EQ(max_in_flight(run.commands), 3u);     // then the submission queue is the limit
}

TEST(HostInterface, ReadDataCrossesThePcieLinkAfterTheController) {
  VectorSource source(reads(1), false);
  HostInterfaceOptions options;
  config::HostConfig host;
  host.command_overhead_ns = 500;
  host.pcie_lanes = 1;
  host.pcie_gt_s = 8.0;
  HostInterface interface("host", host, source, options);
  FixedLatencyController controller("controller");
  interface.socket.bind(controller.socket);
  sc_core::sc_start();
  // 4096 bytes at 8 GT/s x 1 lane with 128b/130b encoding: 4160 ns on the wire.
  const double expected_ns = 500 + kServiceTime / 1000.0 + 4096 / (8.0 * 128 / 130 / 8);
  EXPECT_NEAR(static_cast<double>(interface.stats().latency[0].max()), expected_ns, 1.0);
}

// Power cuts that never come: records which flushes and FUA writes the host acknowledges, and
// with which markers, handing each FUA write a span of its own.
class RecordingPowerLoss final : public PowerLoss {
 public:
  std::optional<ftl::Picoseconds> cut_before(uint64_t, ftl::Picoseconds,
                                             ftl::Picoseconds) override {
    return std::nullopt;
  }
  ftl::Picoseconds cut(ftl::Picoseconds at) override { return at; }
  uint64_t flush_marker() const override { return 1000 + m_taken++; }
  void flush_completed(uint64_t marker) override { flushes.push_back(marker); }
  ftl::ChangeSpan fua_changes() const override {
    const uint64_t first = 10 * m_taken++;
    return {first, first + 3};
  }
  void fua_completed(ftl::ChangeSpan changes) override { fua.push_back(changes.first); }

  std::vector<uint64_t> flushes;
  std::vector<uint64_t> fua;  // first marker of each

 private:
  mutable uint64_t m_taken = 0;
};

// FUA writes are passed on to the controller, counted among the writes and apart, and each one's
// changes, taken when it ran, acknowledged once it completes; a flush's marker likewise.
TEST(HostInterface, FuaWritesAreCountedAndAcknowledgedWithTheirChanges) {
  std::vector<workload::Request> requests = reads(6);
  for (size_t i : {1u, 2u, 4u}) requests[i].kind = ftl::CommandKind::kWrite;
  requests[2].fua = requests[4].fua = true;
  requests[3].kind = ftl::CommandKind::kFlush;
  requests[3].sector_count = 0;
  requests[0].fua = true;  // FUA on a read means nothing
  VectorSource source(requests, false);
  RecordingPowerLoss power;
  HostInterfaceOptions options;
  options.queue_depth = 1;
  options.power = &power;
  const HostRun run = run_host(source, options);

  ASSERT_TRUE(run.finished);
  EXPECT_EQ(run.stats.completed[size_t(ftl::CommandKind::kWrite)], 3u);
  EXPECT_EQ(run.stats.fua_writes, 2u);
  // Taken in submission order: the first FUA write's span, the flush's marker, the second's.
  EXPECT_EQ(power.fua, (std::vector<uint64_t>{0, 20}));
  EXPECT_EQ(power.flushes, (std::vector<uint64_t>{1001}));
}

}  // namespace
}  // namespace ssd::models
