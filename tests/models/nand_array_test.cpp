// NandArray through its TLM socket: the annotated delay it returns is NandTiming's completion
// time, measured from the simulated time of the call.
#include "models/nand/nand_array.h"

#include <gtest/gtest.h>

#include "tests/models/tlm_test_initiator.h"

namespace ssd::models {
namespace {

using ftl::FlashOp;
using ftl::OpClass;
using ftl::OpKind;
using sc_core::sc_time;

constexpr uint32_t kPage = 4096;
constexpr Picoseconds kCmd = 10'000;
constexpr Picoseconds kRead = 50'000'000;
constexpr Picoseconds kProg = 500'000'000;
constexpr Picoseconds kXfer = kPage * 1000;

NandTimingParams test_params() {
  NandTimingParams p;
  p.channels = 2;
  p.dies = 4;
  p.t_read = kRead;
  p.t_spare_read = 20'000'000;
  p.t_program = kProg;
  p.t_erase = 3'000'000'000;
  p.t_command = kCmd;
  p.ps_per_byte = 1000.0;
  return p;
}

FlashOp read(uint32_t die) {
  return FlashOp{OpKind::kRead, OpClass::kHostRead, die, kPage, ftl::kNone, 0};
}
FlashOp program(uint32_t die) {
  return FlashOp{OpKind::kProgram, OpClass::kHostWrite, die, kPage, ftl::kNone, 0};
}
sc_time ps(Picoseconds t) { return sc_time::from_value(t); }

TEST(NandArray, ReadOnIdleDieThroughTheSocket) {
  NandArray nand("nand", test_params());
  TlmTestInitiator init("init");
  init.socket.bind(nand.socket);
  // Issued at 1 us with the initiator 0.5 us ahead of simulated time (temporal decoupling).
  init.issue(read(0), ps(1'000'000), ps(500'000));
  // A program on the other channel, at the same instant, sees an idle die and bus.
  init.issue(program(1), ps(1'000'000));
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 2u);
  EXPECT_EQ(init.results()[0].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(init.results()[0].delay, ps(500'000 + kCmd + kRead + kXfer));
  EXPECT_EQ(init.results()[1].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(init.results()[1].delay, ps(kCmd + kXfer + kProg));
  EXPECT_EQ(nand.timing().counters().count(OpKind::kRead), 1u);
  EXPECT_EQ(nand.timing().counters().count(OpKind::kProgram), 1u);
}

TEST(NandArray, ReadsOnOneChannelContendThroughTheSocket) {
  NandArray nand("nand", test_params());
  TlmTestInitiator init("init");
  init.socket.bind(nand.socket);
  init.issue(read(0));
  init.issue(read(2));
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 2u);
  EXPECT_EQ(init.results()[0].delay, ps(kCmd + kRead + kXfer));
  EXPECT_EQ(init.results()[1].delay, ps(kCmd + kRead + 2 * kXfer));
}

int g_errors = 0;
void count_errors(const sc_core::sc_report& report, const sc_core::sc_actions&) {
  if (report.get_severity() == sc_core::SC_ERROR) ++g_errors;
}

TEST(NandArray, TransactionWithoutOperationIsAnError) {
  // This process expects one SystemC error: count it instead of failing on it.
  sc_core::sc_report_handler::set_handler(count_errors);
  NandArray nand("nand", test_params());
  TlmTestInitiator init("init");
  init.socket.bind(nand.socket);
  init.access(tlm::TLM_READ_COMMAND, 0, kPage);
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 1u);
  EXPECT_EQ(init.results()[0].status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(g_errors, 1);
  EXPECT_EQ(nand.timing().counters().count(OpKind::kRead), 0u);
}

}  // namespace
}  // namespace ssd::models
