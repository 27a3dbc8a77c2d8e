// The loosely timed target base through its socket: the hook's completion comes back as the
// annotated delay, a refusal leaves the delay as it was and is reported under the target's
// message type, and a completion before the ready time is refused.
#include "models/common/lt_target.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/models/tlm_test_initiator.h"

namespace ssd::models {
namespace {

using sc_core::sc_time;

sc_time ps(Picoseconds t) { return sc_time::from_value(t); }

// Answers every access `latency` after it is ready, one at a time (busy-until); refuses addresses
// at or past `size`, reads silently and writes with a report; address 0xbad answers too early.
class LatencyTarget : public LtTarget {
 public:
  static constexpr uint64_t kSize = 1024;
  static constexpr uint64_t kTooEarly = 0xbad;
  static constexpr Picoseconds kLatency = 200'000;

  explicit LatencyTarget(sc_core::sc_module_name name) : LtTarget(name, "test/latency") {}

  struct Seen {
    Picoseconds now;
    Picoseconds ready;
  };
  const std::vector<Seen>& seen() const { return m_seen; }

 private:
  Answer transport(tlm::tlm_generic_payload& payload, Picoseconds now, Picoseconds ready) override {
    m_seen.push_back({now, ready});
    if (payload.get_address() == kTooEarly) return completes_at(ready - 1);
    if (payload.get_address() >= kSize) {
      return payload.is_write() ? refused(tlm::TLM_ADDRESS_ERROR_RESPONSE, "write past the end")
                                : refused(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
    m_busy_until = std::max(ready, m_busy_until) + kLatency;
    return completes_at(m_busy_until);
  }

  Picoseconds m_busy_until = 0;
  std::vector<Seen> m_seen;
};

std::vector<std::string> g_error_types;
void record_errors(const sc_core::sc_report& report, const sc_core::sc_actions&) {
  if (report.get_severity() == sc_core::SC_ERROR) g_error_types.push_back(report.get_msg_type());
}

TEST(LtTarget, CompletionComesBackAsTheAnnotatedDelay) {
  LatencyTarget target("target");
  TlmTestInitiator init("init");
  init.socket.bind(target.socket);
  // At 1 us with the initiator 0.5 us ahead of simulated time (temporal decoupling).
  init.access(tlm::TLM_READ_COMMAND, 0, 64, ps(1'000'000), ps(500'000));
  // Ready at 1.6 us, while the first access holds the target until 1.7 us.
  init.access(tlm::TLM_WRITE_COMMAND, 64, 64, ps(1'000'000), ps(600'000));
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 2u);
  EXPECT_EQ(init.results()[0].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(init.results()[0].delay, ps(500'000 + LatencyTarget::kLatency));
  EXPECT_EQ(init.results()[1].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(init.results()[1].delay, ps(500'000 + 2 * LatencyTarget::kLatency));
  // The hook ran at once, at the initiator's simulated time: b_transport did not wait.
  ASSERT_EQ(target.seen().size(), 2u);
  EXPECT_EQ(target.seen()[0].now, 1'000'000u);
  EXPECT_EQ(target.seen()[0].ready, 1'500'000u);
  EXPECT_EQ(target.seen()[1].now, 1'000'000u);
  EXPECT_EQ(target.seen()[1].ready, 1'600'000u);
  EXPECT_EQ(sc_core::sc_time_stamp(), ps(1'000'000));
}

TEST(LtTarget, RefusalKeepsTheDelayAndIsReportedOnlyWithAReason) {
  // This process expects SystemC errors: record them instead of failing on them.
  sc_core::sc_report_handler::set_handler(record_errors);
  LatencyTarget target("target");
  TlmTestInitiator init("init");
  init.socket.bind(target.socket);
  init.access(tlm::TLM_READ_COMMAND, LatencyTarget::kSize, 8, ps(0), ps(300'000));   // silent
  init.access(tlm::TLM_WRITE_COMMAND, LatencyTarget::kSize, 8, ps(0), ps(300'000));  // reported
  init.access(tlm::TLM_READ_COMMAND, 0, 8);  // a refusal took no time on the target
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 3u);
  EXPECT_EQ(init.results()[0].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(init.results()[0].delay, ps(300'000));
  EXPECT_EQ(init.results()[1].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(init.results()[1].delay, ps(300'000));
  EXPECT_EQ(init.results()[2].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(init.results()[2].delay, ps(LatencyTarget::kLatency));
  EXPECT_EQ(g_error_types, std::vector<std::string>{"test/latency"});
}

TEST(LtTarget, CompletionBeforeReadyIsAnError) {
  sc_core::sc_report_handler::set_handler(record_errors);
  LatencyTarget target("target");
  TlmTestInitiator init("init");
  init.socket.bind(target.socket);
  init.access(tlm::TLM_READ_COMMAND, LatencyTarget::kTooEarly, 8, ps(0), ps(100'000));
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 1u);
  EXPECT_EQ(init.results()[0].status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(init.results()[0].delay, ps(100'000));
  EXPECT_EQ(g_error_types, std::vector<std::string>{"test/latency"});
}

}  // namespace
}  // namespace ssd::models
