// The FTL processor (models/controller): how it prices the firmware's primitive work (CpuCosts),
// and, through its TLM sockets, when it issues the operations the FTL recorded (after the CPU
// work, after the operation each depends on), when a command completes (its last operation, a
// flush also every earlier operation), the one busy-until CPU, what it reports back to the FTL
// and the host, and its totals.
//
// Most cases run a scripted scheme: each host command runs the next script, which records exactly
// the operations and primitive counts the case needs through the FlashBackend. The NAND, DRAM and
// NVRAM sockets go to fake targets that answer every operation a fixed latency per kind after it
// is ready, without contention, so every expected time is a sum of the numbers below. One case
// runs the real NAND and memory models, one the real page-mapping scheme, one VET's accelerator
// (its C++ model) behind an AcceleratorPort.
#include "models/controller/ftl_processor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/cpu_primitives.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/extent/vet/hash_engine.h"
#include "models/accelerator/accelerator_port.h"
#include "models/accelerator/hash_accelerator.h"
#include "models/common/host_command_extension.h"
#include "models/common/lt_target.h"
#include "models/memory/memory_model.h"
#include "models/nand/nand_array.h"
#include "tests/models/tlm_test_initiator.h"

namespace ssd::models {
namespace {

using ftl::CommandKind;
using ftl::FlashBackend;
using ftl::OpClass;
using ftl::OpKind;
using sc_core::sc_time;

constexpr Picoseconds kNs = 1'000;
constexpr Picoseconds kUs = 1'000'000;

sc_time ps(Picoseconds t) { return sc_time::from_value(t); }

// ---------------------------------------------------------------------------------------------
// CpuCosts: pricing without SystemC.

// The number of primitives in config/cpu_primitives.h.
constexpr int kPrimitives = 0
#define SSD_COUNT_ONE(count, unit, default_cycles, is_mapping, description) +1
    SSD_CPU_PRIMITIVES(SSD_COUNT_ONE)
#undef SSD_COUNT_ONE
    ;

// Primitive k (in list order) priced 16^k cycles and counted k + 1 times: in hexadecimal, digit k
// of the primitives' cycles is primitive k's count, so a primitive left out of the pricing shows
// as a 0 digit and one priced at another's price as a wrong digit.
void hex_digit_prices(CpuCosts& costs, ftl::CpuWork& work) {
  int k = 0;
#define SSD_HEX_PRICE(count, unit, default_cycles, is_mapping, description) \
  costs.prices.cycles_per_##unit = double(uint64_t{1} << (4 * k));          \
  work.count = uint64_t(k + 1);                                             \
  ++k;
  SSD_CPU_PRIMITIVES(SSD_HEX_PRICE)
#undef SSD_HEX_PRICE
}

// The clock gives the cycle time; the per-command overhead and the prices come from the platform.
TEST(CpuCosts, FromConfigTakesTheClockAndThePrices) {
  config::ControllerConfig controller;
  controller.cpu_mhz = 250.0;
  controller.cycles_per_command = 1234;
  controller.cycles_per_hash_probe = 17.5;
  const CpuCosts costs = CpuCosts::from_config(controller);
  EXPECT_EQ(costs.ps_per_cycle, 4000.0);  // 1e6 / 250 MHz
  EXPECT_EQ(costs.per_command, 1234u);
  EXPECT_EQ(costs.prices.cycles_per_hash_probe, 17.5);
  // No work costs the per-command overhead only, none of it mapping.
  EXPECT_EQ(costs.cycles(ftl::CpuWork{}), 1234u);
  EXPECT_EQ(costs.mapping_cycles(ftl::CpuWork{}), 0u);
}

// Every primitive of the list is priced, each at its own key: cycles = cycles_per_command +
// sum of count x cycles_per_<primitive>.
TEST(CpuCosts, EveryPrimitiveInTheListIsPriced) {
  CpuCosts costs;
  costs.per_command = 1000;
  ftl::CpuWork work;
  hex_digit_prices(costs, work);
  uint64_t expected = 0;
  for (int k = 0; k < kPrimitives; ++k) expected += uint64_t(k + 1) << (4 * k);
  EXPECT_EQ(costs.cycles(work), 1000 + expected);
  // Today's eight primitives: table_lookups 1, hash_probes 2, tree_nodes 3, list_steps 4,
  // unit_merges 5, flash_ops 6, dram_bytes 7, accelerator_commands 8.
  static_assert(kPrimitives >= 8, "config/cpu_primitives.h lost a primitive");
  if (kPrimitives == 8) {
    EXPECT_EQ(costs.cycles(work), 1000u + 0x87654321u);
  }
  // The accelerator's own cycles are timed at the engine's clock, not priced here.
  work.accelerator_cycles = 1'000'000;
  EXPECT_EQ(costs.cycles(work), 1000 + expected);
}

// mapping_cycles is the part of the primitives' cycles marked mapping in the list (table, hash,
// tree, list, accelerator commands): no per-command overhead, no flash ops, no DRAM copies.
TEST(CpuCosts, MappingCyclesCountOnlyTheMappingPrimitives) {
  CpuCosts costs;
  costs.per_command = 1000;
  ftl::CpuWork work;
  hex_digit_prices(costs, work);
  uint64_t expected = 0;
  int k = 0;
#define SSD_MAPPING_DIGIT(count, unit, default_cycles, is_mapping, description) \
  if (is_mapping) expected += uint64_t(k + 1) << (4 * k);                       \
  ++k;
  SSD_CPU_PRIMITIVES(SSD_MAPPING_DIGIT)
#undef SSD_MAPPING_DIGIT
  EXPECT_EQ(costs.mapping_cycles(work), expected);
  // Today: digits 5 (flash_ops) and 6 (dram_bytes) are not mapping work.
  if (kPrimitives == 7) {
    EXPECT_EQ(costs.mapping_cycles(work), 0x7004321u);
  }

  // The same, primitive by primitive, at one cycle each.
  CpuCosts each;
  each.per_command = 1000;
#define SSD_ONE_CYCLE(count, unit, default_cycles, is_mapping, description) \
  each.prices.cycles_per_##unit = 1.0;
  SSD_CPU_PRIMITIVES(SSD_ONE_CYCLE)
#undef SSD_ONE_CYCLE
  const auto one = [](uint64_t ftl::CpuWork::*field) {
    ftl::CpuWork w;
    w.*field = 1;
    return w;
  };
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::table_lookups)), 1u);
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::hash_probes)), 1u);
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::tree_nodes)), 1u);
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::list_steps)), 1u);
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::accelerator_commands)), 1u);
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::flash_ops)), 0u);
  EXPECT_EQ(each.mapping_cycles(one(&ftl::CpuWork::dram_bytes)), 0u);
  EXPECT_EQ(each.cycles(one(&ftl::CpuWork::flash_ops)), 1001u);
  EXPECT_EQ(each.cycles(one(&ftl::CpuWork::dram_bytes)), 1001u);
}

// Fractional prices are summed and the sum rounded once (to nearest): rounding each term, or
// truncating, would give other counts.
TEST(CpuCosts, FractionalPricesAreRoundedOnceOverTheSum) {
  CpuCosts costs;
  costs.per_command = 100;
  costs.prices.cycles_per_table_lookup = 0.4;
  costs.prices.cycles_per_hash_probe = 0.4;
  costs.prices.cycles_per_tree_node = 0.4;
  costs.prices.cycles_per_dram_byte = 0.25;
  ftl::CpuWork work;
  work.table_lookups = 1;
  work.hash_probes = 1;
  EXPECT_EQ(costs.cycles(work), 101u);  // 0.8 -> 1 (each term rounded: 0; truncated: 0)
  EXPECT_EQ(costs.mapping_cycles(work), 1u);
  work.tree_nodes = 1;
  EXPECT_EQ(costs.cycles(work), 101u);  // 1.2 -> 1 (each term rounded up: 3)
  EXPECT_EQ(costs.mapping_cycles(work), 1u);
  work.dram_bytes = 2;
  EXPECT_EQ(costs.cycles(work), 102u);        // 1.2 + 0.5 = 1.7 -> 2
  EXPECT_EQ(costs.mapping_cycles(work), 1u);  // 1.2 -> 1: its own sum, rounded on its own
  work.dram_bytes = 6;                        // 1.2 + 1.5 = 2.7 -> 3
  EXPECT_EQ(costs.cycles(work), 103u);
}

// ---------------------------------------------------------------------------------------------
// Through the sockets.

// A scheme whose every command runs the next script the test queued: the script records, through
// the backend, exactly the operations and primitive work the case needs.
using Script = std::function<void(FlashBackend&)>;

class ScriptedScheme : public ftl::MappingScheme {
 public:
  explicit ScriptedScheme(FlashBackend& backend) : m_backend(backend) {}

  void then(Script script) { m_scripts.push_back(std::move(script)); }

  void read(const ftl::HostCommand&) override { next(); }
  void write(const ftl::HostCommand&) override { next(); }
  void trim(const ftl::HostCommand&) override { next(); }
  void flush(const ftl::HostCommand&) override { next(); }
  const ftl::FtlStats& stats() const override { return m_stats; }
  uint64_t mapping_memory_bytes() const override { return 0; }

 private:
  void next() {
    if (m_scripts.empty()) {
      ADD_FAILURE() << "a host command without a script";
      return;
    }
    Script script = std::move(m_scripts.front());
    m_scripts.pop_front();
    script(m_backend);
  }

  FlashBackend& m_backend;
  std::deque<Script> m_scripts;
  ftl::FtlStats m_stats;
};

// The first page of block `block_in_die` of die `die` (blocks are numbered die-major).
ftl::PageId page_on_die(const FlashBackend& b, uint32_t die, uint32_t block_in_die = 0) {
  const ftl::Geometry& g = b.geometry();
  return g.first_page(die * g.blocks_per_die() + block_in_die);
}
ftl::BlockId block_on_die(const FlashBackend& b, uint32_t die, uint32_t block_in_die = 0) {
  return die * b.geometry().blocks_per_die() + block_in_die;
}

// Answers every operation a fixed latency per kind after it is ready: no contention, so an
// operation's completion is its ready time plus the latency below. Records what it saw.
class FixedLatencyTarget : public LtTarget {
 public:
  static constexpr Picoseconds kRead = 50 * kUs;
  static constexpr Picoseconds kSpareRead = 20 * kUs;
  static constexpr Picoseconds kProgram = 500 * kUs;
  static constexpr Picoseconds kErase = 3000 * kUs;
  static constexpr Picoseconds kDramRead = 100 * kNs;
  static constexpr Picoseconds kDramWrite = 200 * kNs;
  static constexpr Picoseconds kNvramRead = 1 * kUs;
  static constexpr Picoseconds kNvramWrite = 2 * kUs;

  static Picoseconds latency(OpKind kind) {
    switch (kind) {
      case OpKind::kRead:
        return kRead;
      case OpKind::kSpareRead:
        return kSpareRead;
      case OpKind::kProgram:
        return kProgram;
      case OpKind::kErase:
        return kErase;
      case OpKind::kCopyback:
        return kRead + kProgram;
      case OpKind::kDramRead:
        return kDramRead;
      case OpKind::kDramWrite:
        return kDramWrite;
      case OpKind::kNvramRead:
        return kNvramRead;
      case OpKind::kNvramWrite:
        return kNvramWrite;
    }
    return 0;
  }

  struct Seen {
    OpKind kind;
    OpClass op_class;
    uint32_t die;
    uint32_t bytes;  // the payload's data length
    tlm::tlm_command command;
    Picoseconds now;
    Picoseconds ready;
    Picoseconds done;
  };

  explicit FixedLatencyTarget(sc_core::sc_module_name name) : LtTarget(name, "test/fixed") {}

  const std::vector<Seen>& seen() const { return m_seen; }
  // Refuse every operation from now on (address error, reported by the processor only).
  void refuse_all() { m_refuse = true; }

 private:
  Answer transport(tlm::tlm_generic_payload& payload, Picoseconds now, Picoseconds ready) override {
    const auto* extension = payload.get_extension<FlashOpExtension>();
    if (extension == nullptr || extension->op == nullptr) {
      ADD_FAILURE() << name() << ": an operation without a FlashOpExtension";
      return refused(tlm::TLM_GENERIC_ERROR_RESPONSE);
    }
    if (m_refuse) return refused(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    const ftl::FlashOp& op = *extension->op;
    const Picoseconds done = ready + latency(op.kind);
    m_seen.push_back({op.kind, op.op_class, op.die, payload.get_data_length(),
                      payload.get_command(), now, ready, done});
    return completes_at(done);
  }

  std::vector<Seen> m_seen;
  bool m_refuse = false;
};

// The host side: issues host commands, each in a HostCommandExtension, from one SC_THREAD, at
// simulated time `at` with the annotated delay `offset`, in the order queued; records what came
// back (the delay is relative to `at`).
class HostInitiator : public sc_core::sc_module {
 public:
  struct Result {
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_time delay;
    uint64_t mismatches = 0;
    uint64_t id = 0;  // the id the device gave the command
  };

  tlm_utils::simple_initiator_socket<HostInitiator> socket;

  explicit HostInitiator(sc_core::sc_module_name name)
      : sc_core::sc_module(name), socket("socket") {
    SC_HAS_PROCESS(HostInitiator);
    SC_THREAD(run);
  }

  void submit(CommandKind kind, uint64_t start_sector, uint32_t sectors,
              sc_time at = sc_core::SC_ZERO_TIME, sc_time offset = sc_core::SC_ZERO_TIME) {
    ftl::HostCommand command;
    command.kind = kind;
    command.start_sector = start_sector;
    command.sector_count = sectors;
    m_submissions.push_back({command, at, offset});
  }
  // A command whose sectors do not matter (the scripted scheme ignores them).
  void submit(CommandKind kind, sc_time at = sc_core::SC_ZERO_TIME,
              sc_time offset = sc_core::SC_ZERO_TIME) {
    submit(kind, 0, kind == CommandKind::kFlush ? 0 : 8, at, offset);
  }
  // A write with FUA: the device runs two scripts for it, the write's and the flush's.
  void submit_fua_write(sc_time at = sc_core::SC_ZERO_TIME) {
    submit(CommandKind::kWrite, at);
    m_submissions.back().command.fua = true;
  }

  const std::vector<Result>& results() const { return m_results; }
  Picoseconds delay_ps(size_t i) const { return to_ps(m_results.at(i).delay); }

 private:
  struct Submission {
    ftl::HostCommand command;
    sc_time at;
    sc_time offset;
  };

  void run() {
    for (Submission& s : m_submissions) {
      if (s.at > sc_core::sc_time_stamp()) wait(s.at - sc_core::sc_time_stamp());
      s.command.arrival = to_ps(sc_core::sc_time_stamp());
      m_buffer.assign(size_t(s.command.sector_count) * 512, 0);
      HostCommandExtension extension;
      extension.command = &s.command;
      tlm::tlm_generic_payload gp;
      gp.set_command(s.command.kind == CommandKind::kWrite ? tlm::TLM_WRITE_COMMAND
                                                           : tlm::TLM_READ_COMMAND);
      gp.set_address(s.command.start_sector * 512);
      gp.set_data_ptr(m_buffer.data());
      gp.set_data_length(static_cast<unsigned>(m_buffer.size()));
      gp.set_streaming_width(static_cast<unsigned>(m_buffer.size()));
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      gp.set_extension(&extension);
      sc_time delay = s.offset;
      socket->b_transport(gp, delay);
      gp.clear_extension(&extension);  // ours, not the payload's to delete
      m_results.push_back({gp.get_response_status(), delay, extension.mismatches, s.command.id});
    }
  }

  std::vector<Submission> m_submissions;
  std::vector<Result> m_results;
  std::vector<unsigned char> m_buffer;
};

// The default geometry (2 channels x 2 chips, 4 dies of 256 blocks of 64 pages of 4 KiB), a
// 1000 MHz CPU (1 ns per cycle), 1000 cycles per command (1 us of firmware), every primitive free
// unless a case prices it.
config::PlatformConfig timed_platform() {
  config::PlatformConfig p;
  p.controller.cpu_mhz = 1000.0;
  p.controller.cycles_per_command = 1000;
#define SSD_FREE(count, unit, default_cycles, is_mapping, description) \
  p.controller.cycles_per_##unit = 0.0;
  SSD_CPU_PRIMITIVES(SSD_FREE)
#undef SSD_FREE
  return p;
}

ftl::FtlDeviceOptions scripted_options() {
  ftl::FtlDeviceOptions options;
  options.oracle = false;  // scripts deliver no data (one case turns it on)
  return options;
}

// The processor over a scripted device, with fake targets and the host initiator bound.
struct Rig {
  explicit Rig(const config::PlatformConfig& p,
               const ftl::FtlDeviceOptions& options = scripted_options())
      : platform(p),
        device(platform, options,
               [this](const ftl::SchemeContext& context) {
                 auto made = std::make_unique<ScriptedScheme>(context.backend);
                 scheme = made.get();
                 return made;
               }),
        processor("processor", platform, device),
        nand("nand"),
        dram("dram"),
        nvram("nvram"),
        host("host") {
    host.socket.bind(processor.host_socket);
    processor.nand_socket.bind(nand.socket);
    processor.dram_socket.bind(dram.socket);
    processor.nvram_socket.bind(nvram.socket);
  }

  config::PlatformConfig platform;
  ScriptedScheme* scheme = nullptr;
  ftl::FtlDevice device;
  FtlProcessor processor;
  FixedLatencyTarget nand;
  FixedLatencyTarget dram;
  FixedLatencyTarget nvram;
  HostInitiator host;
};

using Fixed = FixedLatencyTarget;

struct Report {
  std::string type;
  std::string message;
};
std::vector<Report> g_errors;
void record_errors(const sc_core::sc_report& report, const sc_core::sc_actions&) {
  if (report.get_severity() >= sc_core::SC_ERROR) {
    g_errors.push_back({report.get_msg_type(), report.get_msg()});
  }
}

// The firmware's time is its cycles at the clock, cycles x 1e6 / cpu_mhz ps, rounded once per
// command (not per cycle); a command without operations completes when its firmware ends.
TEST(FtlProcessor, FirmwareTimeIsTheCyclesAtTheClockRoundedOnce) {
  config::PlatformConfig p = timed_platform();
  p.controller.cpu_mhz = 300.0;  // 3333.33... ps per cycle
  p.controller.cycles_per_table_lookup = 1.0;
  Rig rig(p);
  rig.scheme->then([](FlashBackend& b) { b.cpu().table_lookups += 7; });  // 1007 cycles
  rig.scheme->then([](FlashBackend&) {});                                 // 1000 cycles
  rig.host.submit(CommandKind::kTrim, ps(10 * kUs));
  rig.host.submit(CommandKind::kTrim, ps(10 * kUs));
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.results()[0].status, tlm::TLM_OK_RESPONSE);
  // 1007 x 1e6 / 300 = 3,356,666.67 -> 3,356,667 ps (3333 ps per cycle would give 3,356,331).
  EXPECT_EQ(rig.host.delay_ps(0), 3'356'667u);
  // The second waits for the CPU, then 1000 x 3333.33 = 3,333,333 ps.
  EXPECT_EQ(rig.host.delay_ps(1), 3'356'667u + 3'333'333u);
  EXPECT_TRUE(rig.nand.seen().empty());
  // b_transport did not wait: the host is still at 10 us.
  EXPECT_EQ(sc_core::sc_time_stamp(), ps(10 * kUs));
}

// Operations that depend on nothing are all issued at the end of the CPU work, each to the
// target of its kind (NAND, DRAM or NVRAM) with the matching TLM command and byte count; the
// command completes when its last operation does, and the processor returns that completion as
// the annotated delay, relative to the host's time of call.
TEST(FtlProcessor, IndependentOpsStartWhenTheFirmwareEnds) {
  config::PlatformConfig p = timed_platform();
  p.controller.cycles_per_table_lookup = 2.0;
  Rig rig(p);
  rig.scheme->then([](FlashBackend& b) {
    b.cpu().table_lookups += 500;  // 1000 + 1000 cycles = 2 us
    b.read(page_on_die(b, 0), 1, OpClass::kHostRead);
    b.read_spare(page_on_die(b, 1), 16, OpClass::kGc);
    b.dram(true, 4096, OpClass::kHostWrite);
    b.nvram(false, 8, OpClass::kMapping);
  });
  // At 10 us, ready 2 us later (temporal decoupling): the firmware runs 12-14 us.
  rig.host.submit(CommandKind::kWrite, ps(10 * kUs), ps(2 * kUs));
  sc_core::sc_start();

  constexpr Picoseconds kCpuEnd = 14 * kUs;
  ASSERT_EQ(rig.nand.seen().size(), 2u);
  ASSERT_EQ(rig.dram.seen().size(), 1u);
  ASSERT_EQ(rig.nvram.seen().size(), 1u);
  const auto& read = rig.nand.seen()[0];
  EXPECT_EQ(read.kind, OpKind::kRead);
  EXPECT_EQ(read.op_class, OpClass::kHostRead);
  EXPECT_EQ(read.die, 0u);
  EXPECT_EQ(read.bytes, 4096u);  // one mapping unit
  EXPECT_EQ(read.command, tlm::TLM_READ_COMMAND);
  EXPECT_EQ(read.now, 10 * kUs);
  EXPECT_EQ(read.ready, kCpuEnd);
  const auto& spare = rig.nand.seen()[1];
  EXPECT_EQ(spare.kind, OpKind::kSpareRead);
  EXPECT_EQ(spare.op_class, OpClass::kGc);
  EXPECT_EQ(spare.die, 1u);
  EXPECT_EQ(spare.bytes, 16u);
  EXPECT_EQ(spare.ready, kCpuEnd);
  const auto& dram = rig.dram.seen()[0];
  EXPECT_EQ(dram.kind, OpKind::kDramWrite);
  EXPECT_EQ(dram.command, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(dram.bytes, 4096u);
  EXPECT_EQ(dram.ready, kCpuEnd);
  const auto& nvram = rig.nvram.seen()[0];
  EXPECT_EQ(nvram.kind, OpKind::kNvramRead);
  EXPECT_EQ(nvram.command, tlm::TLM_READ_COMMAND);
  EXPECT_EQ(nvram.bytes, 8u);
  EXPECT_EQ(nvram.ready, kCpuEnd);

  // Completions 64, 34, 14.2 and 15 us: the read is the last, 54 us after the call at 10 us.
  ASSERT_EQ(rig.host.results().size(), 1u);
  EXPECT_EQ(rig.host.results()[0].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.host.delay_ps(0), kCpuEnd + Fixed::kRead - 10 * kUs);
  EXPECT_EQ(rig.host.delay_ps(0), 54 * kUs);
}

// An operation with `after` is issued when the operation it waits for completes (which is
// after the CPU work), whatever its place in the list; chains follow one another; the command
// completes with the latest operation, not the last one recorded.
TEST(FtlProcessor, DependentOpWaitsForTheOpItDependsOn) {
  Rig rig(timed_platform());
  rig.scheme->then([](FlashBackend& b) {
    const uint32_t read = b.read(page_on_die(b, 0), 1, OpClass::kHostWrite);          // 1-51
    const uint32_t spare = b.read_spare(page_on_die(b, 1), 16, OpClass::kHostWrite);  // 1-21
    b.program(page_on_die(b, 0, 1), nullptr, nullptr, OpClass::kHostWrite, spare);    // 21-521
    const uint32_t log = b.nvram(true, 64, OpClass::kMapping, read);                  // 51-53
    b.dram(false, 64, OpClass::kMapping, log);                                        // 53-53.1
  });
  rig.host.submit(CommandKind::kWrite);
  sc_core::sc_start();

  constexpr Picoseconds kCpuEnd = 1 * kUs;
  ASSERT_EQ(rig.nand.seen().size(), 3u);
  EXPECT_EQ(rig.nand.seen()[0].ready, kCpuEnd);
  EXPECT_EQ(rig.nand.seen()[1].ready, kCpuEnd);
  const auto& program = rig.nand.seen()[2];
  EXPECT_EQ(program.kind, OpKind::kProgram);
  EXPECT_EQ(program.command, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(program.bytes, 4096u);
  EXPECT_EQ(program.ready, kCpuEnd + Fixed::kSpareRead);  // 21 us
  EXPECT_EQ(program.done, 521 * kUs);
  ASSERT_EQ(rig.nvram.seen().size(), 1u);
  EXPECT_EQ(rig.nvram.seen()[0].ready, kCpuEnd + Fixed::kRead);  // 51 us
  ASSERT_EQ(rig.dram.seen().size(), 1u);
  EXPECT_EQ(rig.dram.seen()[0].ready, kCpuEnd + Fixed::kRead + Fixed::kNvramWrite);  // 53 us
  EXPECT_EQ(rig.dram.seen()[0].done, 53'100'000u);
  // Every operation was issued at once, at the host's time (no wait()).
  for (const auto& s : rig.nand.seen()) EXPECT_EQ(s.now, 0u);

  ASSERT_EQ(rig.host.results().size(), 1u);
  EXPECT_EQ(rig.host.delay_ps(0), 521 * kUs);
}

// Issuing a NAND command costs cycles_per_flash_op (the backend counts it); DRAM and NVRAM
// operations cost the CPU nothing beyond what the scheme counted.
TEST(FtlProcessor, IssuingANandOpCostsCyclesPerFlashOp) {
  config::PlatformConfig p = timed_platform();
  p.controller.cycles_per_flash_op = 200.0;
  Rig rig(p);
  rig.scheme->then([](FlashBackend& b) {
    b.read(page_on_die(b, 0), 1, OpClass::kGc);
    b.erase(block_on_die(b, 1), OpClass::kGc);
    b.dram(false, 64, OpClass::kGc);
    b.nvram(true, 16, OpClass::kGc);
  });
  rig.host.submit(CommandKind::kWrite);
  sc_core::sc_start();

  // 1000 + 2 x 200 cycles = 1.4 us.
  constexpr Picoseconds kCpuEnd = 1'400'000;
  ASSERT_EQ(rig.nand.seen().size(), 2u);
  EXPECT_EQ(rig.nand.seen()[0].ready, kCpuEnd);
  EXPECT_EQ(rig.nand.seen()[1].kind, OpKind::kErase);
  EXPECT_EQ(rig.nand.seen()[1].die, 1u);
  EXPECT_EQ(rig.nand.seen()[1].command, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(rig.nand.seen()[1].ready, kCpuEnd);
  ASSERT_EQ(rig.dram.seen().size(), 1u);
  EXPECT_EQ(rig.dram.seen()[0].ready, kCpuEnd);
  ASSERT_EQ(rig.nvram.seen().size(), 1u);
  EXPECT_EQ(rig.nvram.seen()[0].ready, kCpuEnd);
  EXPECT_EQ(rig.processor.totals().cycles, 1400u);
  EXPECT_EQ(rig.processor.totals().work.flash_ops, 2u);
  EXPECT_EQ(rig.processor.totals().mapping_cycles, 0u);
  EXPECT_EQ(rig.host.delay_ps(0), kCpuEnd + Fixed::kErase);
}

// One core: the firmware of commands submitted together runs one after the other (busy-until),
// but the CPU is not held while a command's operations are in flight, and an idle gap is not
// carried over to a later command.
TEST(FtlProcessor, FirmwareOfSuccessiveCommandsIsSerialised) {
  Rig rig(timed_platform());
  for (int i = 0; i < 5; ++i) {
    rig.scheme->then([](FlashBackend& b) { b.read(page_on_die(b, 0), 1, OpClass::kHostRead); });
  }
  rig.host.submit(CommandKind::kRead);                              // CPU 0-1 us, read 1-51
  rig.host.submit(CommandKind::kRead);                              // CPU 1-2 us, read 2-52
  rig.host.submit(CommandKind::kRead);                              // CPU 2-3 us, read 3-53
  rig.host.submit(CommandKind::kRead, ps(100 * kUs));               // CPU 100-101, read -151
  rig.host.submit(CommandKind::kRead, ps(100 * kUs), ps(5 * kUs));  // CPU 105-106, read -156
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 5u);
  EXPECT_EQ(rig.host.delay_ps(0), 51 * kUs);
  EXPECT_EQ(rig.host.delay_ps(1), 52 * kUs);
  EXPECT_EQ(rig.host.delay_ps(2), 53 * kUs);
  EXPECT_EQ(rig.host.delay_ps(3), 51 * kUs);  // relative to 100 us
  EXPECT_EQ(rig.host.delay_ps(4), 56 * kUs);  // relative to 100 us
  ASSERT_EQ(rig.nand.seen().size(), 5u);
  EXPECT_EQ(rig.nand.seen()[0].ready, 1 * kUs);
  EXPECT_EQ(rig.nand.seen()[1].ready, 2 * kUs);
  EXPECT_EQ(rig.nand.seen()[2].ready, 3 * kUs);
  EXPECT_EQ(rig.nand.seen()[3].ready, 101 * kUs);
  EXPECT_EQ(rig.nand.seen()[4].ready, 106 * kUs);
  EXPECT_EQ(rig.processor.totals().busy_ps, 5 * kUs);
}

// A read of a page whose program is still in flight is served from the program's page buffer:
// a DRAM read, not a flash read; once the program has completed the flash is read again.
TEST(FtlProcessor, ReadOfAPageBeingProgrammedComesFromItsBuffer) {
  Rig rig(timed_platform());
  rig.scheme->then([](FlashBackend& b) {
    b.program(page_on_die(b, 0), nullptr, nullptr, OpClass::kHostWrite);  // 1-501 us
  });
  for (int i = 0; i < 2; ++i) {
    rig.scheme->then([](FlashBackend& b) { b.read(page_on_die(b, 0), 1, OpClass::kHostRead); });
  }
  rig.host.submit(CommandKind::kWrite);                // CPU 0-1 us
  rig.host.submit(CommandKind::kRead);                 // CPU 1-2 us: in flight
  rig.host.submit(CommandKind::kRead, ps(600 * kUs));  // CPU 600-601 us: programmed
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 3u);
  EXPECT_EQ(rig.host.delay_ps(1), 2 * kUs + Fixed::kDramRead);
  EXPECT_EQ(rig.host.delay_ps(2), 1 * kUs + Fixed::kRead);  // relative to 600 us
  ASSERT_EQ(rig.dram.seen().size(), 1u);
  EXPECT_EQ(rig.dram.seen()[0].kind, OpKind::kDramRead);
  EXPECT_EQ(rig.dram.seen()[0].bytes, 4096u);
  ASSERT_EQ(rig.nand.seen().size(), 2u);  // the program and the second read
  EXPECT_EQ(rig.nand.seen()[1].kind, OpKind::kRead);
  EXPECT_EQ(rig.processor.totals().buffer_reads, 1u);
}

// A flush completes no earlier than every operation issued before it by earlier commands (and
// its own); other commands do not wait for earlier commands' operations, and a flush after
// everything completed costs its firmware only.
TEST(FtlProcessor, FlushWaitsForEveryEarlierOperation) {
  Rig rig(timed_platform());
  rig.scheme->then([](FlashBackend& b) {  // CPU 0-1, program 1-501
    b.program(page_on_die(b, 0), nullptr, nullptr, OpClass::kHostWrite);
  });
  rig.scheme->then([](FlashBackend& b) {  // CPU 1-2, read 2-52
    b.read(page_on_die(b, 1), 1, OpClass::kHostRead);
  });
  rig.scheme->then([](FlashBackend& b) {  // CPU 2-3, NVRAM write 3-5
    b.nvram(true, 64, OpClass::kMapping);
  });
  rig.scheme->then([](FlashBackend&) {});  // CPU 3-4
  rig.scheme->then([](FlashBackend&) {});  // CPU 600-601
  rig.host.submit(CommandKind::kWrite);
  rig.host.submit(CommandKind::kRead);
  rig.host.submit(CommandKind::kFlush);
  rig.host.submit(CommandKind::kTrim);
  rig.host.submit(CommandKind::kFlush, ps(600 * kUs));
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 5u);
  EXPECT_EQ(rig.host.delay_ps(0), 501 * kUs);
  EXPECT_EQ(rig.host.delay_ps(1), 52 * kUs);
  EXPECT_EQ(rig.host.delay_ps(2), 501 * kUs);  // the first command's program, not its own 5 us
  EXPECT_EQ(rig.host.delay_ps(3), 4 * kUs);    // a trim is no barrier
  EXPECT_EQ(rig.host.delay_ps(4), 1 * kUs);    // relative to 600 us
}

// A write that starts GC: its own program on die 0 (1-501 us), and GC's read, program and erase of
// a victim on die 1, each after the one before (1-51, 51-551, 551-3551 us). Then a flush.
void write_that_starts_gc(Rig& rig) {
  rig.scheme->then([](FlashBackend& b) {
    b.program(page_on_die(b, 0), nullptr, nullptr, OpClass::kHostWrite);
    const uint32_t read = b.read(page_on_die(b, 1, 1), 1, OpClass::kGc);
    const uint32_t copy = b.program(page_on_die(b, 1, 2), nullptr, nullptr, OpClass::kGc, read);
    b.erase(block_on_die(b, 1, 1), OpClass::kGc, copy);
  });
  rig.scheme->then([](FlashBackend&) {});  // CPU 1-2
  rig.host.submit(CommandKind::kWrite);
  rig.host.submit(CommandKind::kFlush);
  sc_core::sc_start();
}

// controller.write_waits_for_gc (default true): the write completes with its GC's last operation.
TEST(FtlProcessor, AWriteCompletesWithTheGcItStarted) {
  Rig rig(timed_platform());
  write_that_starts_gc(rig);
  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.delay_ps(0), 3551 * kUs);
  EXPECT_EQ(rig.host.delay_ps(1), 3551 * kUs);
}

// Off: the write completes with its own program; its GC runs behind it, and a flush still waits
// for that GC.
TEST(FtlProcessor, WithoutWriteWaitsForGcAWriteCompletesWithItsOwnOperations) {
  config::PlatformConfig p = timed_platform();
  p.controller.write_waits_for_gc = false;
  Rig rig(p);
  write_that_starts_gc(rig);
  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.delay_ps(0), 501 * kUs);
  EXPECT_EQ(rig.host.delay_ps(1), 3551 * kUs);
  EXPECT_EQ(rig.nand.seen().size(), 4u);  // the GC was issued all the same
}

// A FUA write is served as the write, then the scheme's flush, in one command that completes with
// all of their operations: its GC's too, even with controller.write_waits_for_gc off (a merge may
// program the write's own data as GC work), but not earlier commands' (a flush waits for those).
// An earlier plain write's GC keeps die 3 busy until 6001 us (two erases from 1 us). The FUA
// write's firmware runs 1-2 us, then its own program on die 0 (2-502 us), its GC on die 1 (2-52,
// 52-552, 552-3552 us) and its flush's program on die 2 (2-502 us).
TEST(FtlProcessor, AFuaWriteCompletesWithAllItsOperationsButNotEarlierCommands) {
  config::PlatformConfig p = timed_platform();
  p.controller.write_waits_for_gc = false;
  Rig rig(p);
  rig.scheme->then([](FlashBackend& b) {  // the earlier plain write
    b.program(page_on_die(b, 3), nullptr, nullptr, OpClass::kHostWrite);
    const uint32_t first = b.erase(block_on_die(b, 3, 1), OpClass::kGc);
    b.erase(block_on_die(b, 3, 2), OpClass::kGc, first);
  });
  rig.scheme->then([](FlashBackend& b) {  // the FUA write's write
    b.program(page_on_die(b, 0), nullptr, nullptr, OpClass::kHostWrite);
    const uint32_t read = b.read(page_on_die(b, 1, 1), 1, OpClass::kGc);
    const uint32_t copy = b.program(page_on_die(b, 1, 2), nullptr, nullptr, OpClass::kGc, read);
    b.erase(block_on_die(b, 1, 1), OpClass::kGc, copy);
  });
  rig.scheme->then([](FlashBackend& b) {  // the FUA write's flush
    b.program(page_on_die(b, 2), nullptr, nullptr, OpClass::kHostWrite);
  });
  rig.scheme->then([](FlashBackend&) {});  // a flush
  rig.host.submit(CommandKind::kWrite);
  rig.host.submit_fua_write();
  rig.host.submit(CommandKind::kFlush);
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 3u);
  EXPECT_EQ(rig.host.delay_ps(0), 501 * kUs);   // a plain write: its GC runs behind it
  EXPECT_EQ(rig.host.delay_ps(1), 3552 * kUs);  // its GC's erase; not the earlier 6001 us
  EXPECT_EQ(rig.host.delay_ps(2), 6001 * kUs);  // a flush waits for everything
  EXPECT_EQ(rig.host.results()[1].id, 2u);      // the FUA write is one command
  // The flush's program was part of the FUA write, timed from its firmware's end.
  ASSERT_EQ(rig.nand.seen().size(), 8u);
  EXPECT_EQ(rig.nand.seen()[7].die, 2u);
  EXPECT_EQ(rig.nand.seen()[7].ready, 2 * kUs);
}

// ---------------------------------------------------------------------------------------------
// The data cache (ftl/cache/data_cache.h) over the scripted scheme: it calls the scheme only to
// write lines back (one script each, here one program) and for the flush.

// A write-back cache of `lines` one-page lines (4 KiB units); `high`/`low`: dirty watermarks.
config::PlatformConfig cached_platform(uint64_t lines, double high = 1.0, double low = 1.0) {
  config::PlatformConfig p = timed_platform();
  p.cache.mode = "write_back";
  p.cache.capacity_bytes = lines * p.nand.page_bytes;
  p.cache.dirty_high_watermark = high;
  p.cache.dirty_low_watermark = low;
  return p;
}

constexpr uint32_t kUnitSectors = 8;  // 4 KiB units of 512-byte sectors

void submit_unit(Rig& rig, CommandKind kind, uint64_t unit) {
  rig.host.submit(kind, unit * kUnitSectors, kUnitSectors);
}

Script program_on(uint32_t die) {
  return [die](FlashBackend& b) {
    b.program(page_on_die(b, die), nullptr, nullptr, OpClass::kHostWrite);
  };
}

// Acknowledged on arrival: the firmware (1 us) and the DRAM write (200 ns); no flash, no scheme.
// A read of it hits: the firmware and a DRAM read (100 ns), no flash.
TEST(FtlProcessor, AWriteBackCacheAcknowledgesInDramAndServesReadHitsFromIt) {
  Rig rig(cached_platform(4));
  submit_unit(rig, CommandKind::kWrite, 0);
  submit_unit(rig, CommandKind::kRead, 0);
  sc_core::sc_start();
  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.delay_ps(0), 1 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(1), 2 * kUs + Fixed::kDramRead);
  EXPECT_TRUE(rig.nand.seen().empty());
}

// Write-through: the write goes to the scheme in its own command and completes with its
// program (CPU 0-1 us, program 1-501 us); the cache keeps a clean copy, so a read of it (CPU
// 1-2 us) is a hit served from DRAM, and a flush has nothing to write back.
TEST(FtlProcessor, AWriteThroughCacheCompletesWritesOnFlashAndServesReadHits) {
  config::PlatformConfig p = cached_platform(4);
  p.cache.mode = "write_through";
  Rig rig(p);
  rig.scheme->then(program_on(0));
  rig.scheme->then([](FlashBackend&) {});  // the scheme's flush
  submit_unit(rig, CommandKind::kWrite, 0);
  submit_unit(rig, CommandKind::kRead, 0);
  rig.host.submit(CommandKind::kFlush);
  sc_core::sc_start();
  ASSERT_EQ(rig.host.results().size(), 3u);
  EXPECT_EQ(rig.host.delay_ps(0), 501 * kUs);
  EXPECT_EQ(rig.host.delay_ps(1), 2 * kUs + Fixed::kDramRead);
  EXPECT_EQ(rig.host.delay_ps(2), 501 * kUs);
  EXPECT_EQ(rig.nand.seen().size(), 1u);
}

// A full cache: the second write must evict the first line, dirty, so it writes it back (CPU
// 1-2 us; its DRAM read 2-2.1 us, its program 2-502 us) and its own data waits for the frame
// that write-back frees: 502-502.2 us.
TEST(FtlProcessor, AFullCacheMakesAWriteWaitForTheWriteBackThatFreesItsFrame) {
  Rig rig(cached_platform(1));
  rig.scheme->then(program_on(0));
  submit_unit(rig, CommandKind::kWrite, 0);
  submit_unit(rig, CommandKind::kWrite, 1);
  sc_core::sc_start();
  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.delay_ps(0), 1 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(1), 502 * kUs + Fixed::kDramWrite);
  ASSERT_EQ(rig.nand.seen().size(), 1u);
  EXPECT_EQ(rig.nand.seen()[0].ready, 2 * kUs);
}

// The writes of the next two cases: units 0, 1, 2, then 0 again, then a flush; the cache writes
// units 0 and 1 back behind the third write (one script each), then 2 and 0 at the flush.
void write_back_behind_then_rewrite(Rig& rig) {
  rig.scheme->then(program_on(0));
  rig.scheme->then(program_on(1));
  rig.scheme->then(program_on(2));
  rig.scheme->then(program_on(3));
  rig.scheme->then([](FlashBackend&) {});  // the scheme's flush
  submit_unit(rig, CommandKind::kWrite, 0);
  submit_unit(rig, CommandKind::kWrite, 1);
  submit_unit(rig, CommandKind::kWrite, 2);
  submit_unit(rig, CommandKind::kWrite, 0);
  rig.host.submit(CommandKind::kFlush);
  sc_core::sc_start();
}

// Above the high watermark (more than 2 of 3 lines dirty) write-back runs behind the host down
// to the low one (1): the third write (CPU 2-3 us) completes with its DRAM write (3.2 us) while
// units 0 and 1 are programmed behind it (3-503 us on dies 0 and 1). Every frame holds a line, so
// writing unit 0 again waits for its own frame's write-back (503.2 us); a flush writes back
// units 2 and 0 (CPU 4-5 us: 5-505 us on dies 2 and 3) and waits for everything.
TEST(FtlProcessor, WriteBackAboveTheWatermarkRunsBehindTheHost) {
  Rig rig(cached_platform(3, 0.67, 0.34));
  write_back_behind_then_rewrite(rig);
  ASSERT_EQ(rig.host.results().size(), 5u);
  EXPECT_EQ(rig.host.delay_ps(1), 2 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(2), 3 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(3), 503 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(4), 505 * kUs);
  ASSERT_EQ(rig.nand.seen().size(), 4u);
  EXPECT_EQ(rig.nand.seen()[0].ready, 3 * kUs);
  EXPECT_EQ(rig.nand.seen()[2].ready, 5 * kUs);
}

// The same with a frame to spare (4 lines, more than 2 dirty starts write-back, down to 1):
// unit 0's new data goes to the free frame and completes with its DRAM write (CPU 3-4 us).
TEST(FtlProcessor, AWriteToALineBeingWrittenBackTakesAFreeFrame) {
  Rig rig(cached_platform(4, 0.5, 0.25));
  write_back_behind_then_rewrite(rig);
  ASSERT_EQ(rig.host.results().size(), 5u);
  EXPECT_EQ(rig.host.delay_ps(3), 4 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(4), 505 * kUs);
}

// Read-ahead (cache.read_ahead_bytes: 2 units, after 1 sequential read; 8 lines). Each scheme
// read is one script: a read on a die (tR 50 us), or a spare-area read (20 us) where a case needs
// the command's own read to end first.
//   read unit 0 (CPU 0-1 us): a miss, its read 1-51 us, the cache's DRAM write 51-51.2 us.
//   read unit 1 (CPU 1-2 us): continues the run: its miss (20 us) 2-22 us, DRAM write 22-22.2 us;
//     then units 2 and 3 are read ahead behind it (2-52 us, DRAM writes 52-52.2 us): the command
//     completes at 22.2 us, not 52.2.
//   read unit 2 (CPU 2-3 us): a hit, but its data lands at 52.2 us: the DRAM read 52.2-52.3 us.
//     Unit 4 is read ahead (3-53 us).
//   read unit 3 at 100 us: a hit on data long landed: CPU 100-101 us, DRAM read 101-101.1 us.
TEST(FtlProcessor, ReadAheadRunsBehindTheHostAndAHitWaitsForItsData) {
  config::PlatformConfig p = cached_platform(8);
  p.cache.read_ahead_bytes = 2 * p.nand.page_bytes;
  p.cache.read_ahead_trigger = 1;
  Rig rig(p);
  const auto read_on = [](uint32_t die) {
    return [die](FlashBackend& b) { b.read(page_on_die(b, die), 1, OpClass::kHostRead); };
  };
  rig.scheme->then(read_on(0));  // unit 0
  rig.scheme->then(
      [](FlashBackend& b) { b.read_spare(page_on_die(b, 1), 16, OpClass::kHostRead); });  // unit 1
  rig.scheme->then([](FlashBackend& b) {  // units 2 and 3 ahead: one run, one scheme read
    b.read(page_on_die(b, 2), 1, OpClass::kHostRead);
    b.read(page_on_die(b, 3), 1, OpClass::kHostRead);
  });
  rig.scheme->then(read_on(0));  // unit 4 ahead
  rig.scheme->then(read_on(1));  // unit 5 ahead
  submit_unit(rig, CommandKind::kRead, 0);
  submit_unit(rig, CommandKind::kRead, 1);
  submit_unit(rig, CommandKind::kRead, 2);
  rig.host.submit(CommandKind::kRead, 3 * kUnitSectors, kUnitSectors, sc_time(100, sc_core::SC_US));
  sc_core::sc_start();
  ASSERT_EQ(rig.host.results().size(), 4u);
  EXPECT_EQ(rig.host.delay_ps(0), 51 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(1), 22 * kUs + Fixed::kDramWrite);
  EXPECT_EQ(rig.host.delay_ps(2), 52 * kUs + Fixed::kDramWrite + Fixed::kDramRead);
  EXPECT_EQ(rig.host.delay_ps(3), 1 * kUs + Fixed::kDramRead);
  ASSERT_EQ(rig.nand.seen().size(), 6u);
  EXPECT_EQ(rig.nand.seen()[2].ready, 2 * kUs);  // ahead of unit 1, from its firmware's end
  EXPECT_EQ(rig.nand.seen()[3].ready, 2 * kUs);
  EXPECT_EQ(rig.nand.seen()[4].ready, 3 * kUs);
  EXPECT_EQ(rig.nand.seen()[5].ready, 101 * kUs);
  const ftl::CacheCounts& counts = rig.device.data_cache()->counts();
  EXPECT_EQ(counts.read_ahead_units, 4u);
  EXPECT_EQ(counts.read_ahead_hit_units, 2u);
}

// totals(): host commands, cycles and mapping cycles summed over commands, CPU busy time as the
// sum of each command's firmware time (each rounded once), no accelerator wait without an
// accelerator, and the primitive counts summed.
TEST(FtlProcessor, TotalsSumTheHostCommands) {
  config::PlatformConfig p = timed_platform();
  p.controller.cpu_mhz = 300.0;
  p.controller.cycles_per_table_lookup = 2.0;
  p.controller.cycles_per_hash_probe = 3.0;
  p.controller.cycles_per_flash_op = 10.0;
  p.controller.cycles_per_dram_byte = 0.5;
  Rig rig(p);
  rig.scheme->then([](FlashBackend& b) {  // 1000 + 10 + 10 = 1020 cycles, 10 mapping
    b.cpu().table_lookups += 5;
    b.program(page_on_die(b, 0), nullptr, nullptr, OpClass::kHostWrite);
  });
  rig.scheme->then([](FlashBackend& b) {  // 1000 + 21 + 1.5 -> 1023 cycles, 21 mapping
    b.cpu().hash_probes += 7;
    b.cpu().dram_bytes += 3;
    b.dram(true, 3, OpClass::kHostWrite);
  });
  rig.scheme->then([](FlashBackend&) {});  // 1000 cycles
  rig.host.submit(CommandKind::kWrite);
  rig.host.submit(CommandKind::kWrite);
  rig.host.submit(CommandKind::kFlush);
  sc_core::sc_start();

  const FirmwareTotals& t = rig.processor.totals();
  EXPECT_EQ(t.commands, 3u);
  EXPECT_EQ(t.cycles, 1020u + 1023u + 1000u);
  EXPECT_EQ(t.mapping_cycles, 10u + 21u);
  // 1020 / 300 MHz = 3,400,000 ps; 1023 -> 3,410,000; 1000 -> 3,333,333.
  EXPECT_EQ(t.busy_ps, 3'400'000u + 3'410'000u + 3'333'333u);
  EXPECT_EQ(t.accelerator_wait_ps, 0u);
  EXPECT_EQ(t.work.table_lookups, 5u);
  EXPECT_EQ(t.work.hash_probes, 7u);
  EXPECT_EQ(t.work.flash_ops, 1u);  // the program; the DRAM write is no flash op
  EXPECT_EQ(t.work.dram_bytes, 3u);
  EXPECT_EQ(t.work.tree_nodes, 0u);
  EXPECT_EQ(t.work.list_steps, 0u);
  EXPECT_EQ(t.work.accelerator_commands, 0u);
  EXPECT_EQ(t.work.accelerator_cycles, 0u);
  // The CPU ran without a gap from 0: the flush's firmware ends at the busy time, and the flush
  // also waits for the program (ready at 3.4 us, 500 us long).
  EXPECT_EQ(rig.host.delay_ps(2), 3'400'000u + Fixed::kProgram);
}

// With VET's accelerator attached, the time of the engine's answers during a command (summed by
// the AcceleratorPort) is added to that command's firmware time with the CPU held: the
// operations and the next command's firmware start after it; totals() counts it as busy time
// and as accelerator wait.
TEST(FtlProcessor, AcceleratorWaitHoldsTheCpu) {
  config::PlatformConfig p = timed_platform();
  p.controller.cycles_per_accelerator_command = 8.0;
  p.accelerator.clock_mhz = 200.0;  // 5 ns per engine cycle
  Rig rig(p);
  HashAccelerator accelerator("accelerator", p.accelerator);
  AcceleratorPort port("port", accelerator);
  port.socket.bind(accelerator.socket);
  rig.processor.attach_accelerator(&port);
  std::vector<ftl::HashResponse> answers;
  rig.scheme->then([&port, &answers](FlashBackend& b) {
    ftl::HashCommand insert;
    insert.op = static_cast<uint8_t>(ftl::HashOp::kInsert);
    insert.key = 7;
    answers.push_back(port.execute(insert));
    ftl::HashCommand find;
    find.op = static_cast<uint8_t>(ftl::HashOp::kFind);
    find.key = 7;
    answers.push_back(port.execute(find));
    b.cpu().accelerator_commands += 2;
    b.read(page_on_die(b, 0), 1, OpClass::kHostRead);
  });
  rig.scheme->then([](FlashBackend&) {});
  rig.host.submit(CommandKind::kRead, ps(1 * kUs));
  rig.host.submit(CommandKind::kRead, ps(1 * kUs));
  // Elaborate, then send an accelerator command outside any host command (as preconditioning
  // does): its time is not the first host command's.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  ftl::HashCommand before;
  before.op = static_cast<uint8_t>(ftl::HashOp::kFind);
  before.key = 9;
  EXPECT_EQ(port.execute(before).latency_cycles, 3u);
  sc_core::sc_start();

  // INSERT and FIND answer 3 engine cycles after they are accepted (rtl/README.md).
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].latency_cycles, 3u);
  EXPECT_EQ(answers[1].latency_cycles, 3u);
  constexpr Picoseconds kWait = 2 * 3 * 5 * kNs;        // 30 ns
  constexpr Picoseconds kCpuEnd = 1'016 * kNs + kWait;  // 1000 + 2 x 8 cycles, then the wait
  ASSERT_EQ(rig.nand.seen().size(), 1u);
  EXPECT_EQ(rig.nand.seen()[0].ready, 1 * kUs + kCpuEnd);
  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.delay_ps(0), kCpuEnd + Fixed::kRead);
  EXPECT_EQ(rig.host.delay_ps(1), kCpuEnd + 1 * kUs);  // both relative to 1 us
  const FirmwareTotals& t = rig.processor.totals();
  EXPECT_EQ(t.accelerator_wait_ps, kWait);
  EXPECT_EQ(t.busy_ps, 1'016 * kNs + kWait + 1 * kUs);
  EXPECT_EQ(t.cycles, 1016u + 1000u);
  EXPECT_EQ(t.mapping_cycles, 16u);
  EXPECT_EQ(t.work.accelerator_commands, 2u);
}

// Each operation's completion goes back to the FTL (FlashBackend::op_completed, by the
// operation's index), with when its array operation started: with the journal on, a power cut
// keeps exactly the programs that had completed by the cut and tears the one in its array time.
TEST(FtlProcessor, CompletionsAreReportedToTheFtl) {
  ftl::FtlDeviceOptions options = scripted_options();
  options.journal = true;
  Rig rig(timed_platform(), options);
  ftl::PageId first = 0;
  ftl::PageId second = 0;
  rig.scheme->then([&first](FlashBackend& b) {
    first = page_on_die(b, 0);
    const uint32_t read = b.read(page_on_die(b, 1), 1, OpClass::kHostWrite);  // 1-51 us
    b.program(first, nullptr, nullptr, OpClass::kHostWrite, read);            // 51-551 us
  });
  rig.scheme->then([&second](FlashBackend& b) {
    second = page_on_die(b, 2);
    b.program(second, nullptr, nullptr, OpClass::kHostWrite);  // ends 1 ps before the first
  });
  rig.host.submit(CommandKind::kWrite);
  // Ready at 50 us - 1 ps: firmware to 51 us - 1 ps, program done at 551 us - 1 ps.
  rig.host.submit(CommandKind::kWrite, sc_core::SC_ZERO_TIME, ps(50 * kUs - 1));
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.delay_ps(0), 551 * kUs);
  EXPECT_EQ(rig.host.delay_ps(1), 551 * kUs - 1);
  ftl::FlashArray& flash = rig.device.flash();
  ASSERT_TRUE(flash.is_programmed(first));
  ASSERT_TRUE(flash.is_programmed(second));
  // A cut at 551 us - 1 ps: the second program completed by then (kept); the first was in its
  // array time (51-551 us), so it is torn: its page consumed and unreadable.
  const ftl::FlashArray::CutResult cut = flash.power_cut(551 * kUs - 1);
  EXPECT_EQ(cut.torn_programs, 1u);
  EXPECT_EQ(cut.undone, 0u);
  EXPECT_TRUE(flash.is_programmed(first));
  EXPECT_FALSE(flash.readable(first));
  EXPECT_TRUE(flash.is_programmed(second));
  EXPECT_TRUE(flash.readable(second));
}

// The device's integrity check of a read goes back to the host in the command's extension, and
// the device numbers the commands.
TEST(FtlProcessor, IntegrityMismatchesGoBackInTheExtension) {
  ftl::FtlDeviceOptions options;
  options.oracle = true;
  Rig rig(timed_platform(), options);
  // Unit 0 was never written: its expected token is 0.
  rig.scheme->then([](FlashBackend& b) { b.deliver(0, 12345); });
  rig.scheme->then([](FlashBackend& b) { b.deliver(0, 0); });
  rig.host.submit(CommandKind::kRead, 0, 8);
  rig.host.submit(CommandKind::kRead, 0, 8);
  sc_core::sc_start();

  ASSERT_EQ(rig.host.results().size(), 2u);
  EXPECT_EQ(rig.host.results()[0].status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.host.results()[0].mismatches, 1u);
  EXPECT_EQ(rig.host.results()[0].id, 1u);
  EXPECT_EQ(rig.host.results()[1].mismatches, 0u);
  EXPECT_EQ(rig.host.results()[1].id, 2u);
  EXPECT_EQ(rig.processor.totals().commands, 2u);
}

// A host transaction without a HostCommandExtension is refused (generic error, delay unchanged)
// and reported as a SystemC error under the processor's name; nothing runs.
TEST(FtlProcessor, HostTransactionWithoutExtensionIsAnError) {
  sc_core::sc_report_handler::set_handler(record_errors);
  const config::PlatformConfig platform = timed_platform();
  ScriptedScheme* scheme = nullptr;
  ftl::FtlDevice device(platform, scripted_options(), [&scheme](const ftl::SchemeContext& c) {
    auto made = std::make_unique<ScriptedScheme>(c.backend);
    scheme = made.get();
    return made;
  });
  FtlProcessor processor("processor", platform, device);
  FixedLatencyTarget nand("nand");
  FixedLatencyTarget dram("dram");
  FixedLatencyTarget nvram("nvram");
  TlmTestInitiator init("init");
  init.socket.bind(processor.host_socket);
  processor.nand_socket.bind(nand.socket);
  processor.dram_socket.bind(dram.socket);
  processor.nvram_socket.bind(nvram.socket);
  init.access(tlm::TLM_READ_COMMAND, 0, 4096, ps(0), ps(300 * kNs));
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 1u);
  EXPECT_EQ(init.results()[0].status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(init.results()[0].delay, ps(300 * kNs));
  ASSERT_EQ(g_errors.size(), 1u);
  EXPECT_EQ(g_errors[0].type, "processor");
  EXPECT_EQ(processor.totals().commands, 0u);
  EXPECT_EQ(device.commands_run(), 0u);
}

// A target's error response to an operation is reported as a SystemC error under the
// processor's name, naming the response.
TEST(FtlProcessor, TargetErrorResponseIsAnError) {
  sc_core::sc_report_handler::set_handler(record_errors);
  Rig rig(timed_platform());
  rig.dram.refuse_all();
  rig.scheme->then([](FlashBackend& b) { b.dram(false, 64, OpClass::kHostRead); });
  rig.host.submit(CommandKind::kRead);
  sc_core::sc_start();

  ASSERT_EQ(g_errors.size(), 1u);
  EXPECT_EQ(g_errors[0].type, "processor");
  EXPECT_EQ(g_errors[0].message, "TLM_ADDRESS_ERROR_RESPONSE");
}

// With the real NAND array and memory models underneath, each operation takes what their
// documented timing says on idle resources, from the end of the CPU work or its dependency:
// a read t_command + t_read + transfer, a program t_command + transfer + t_program, a memory
// access latency + transfer.
TEST(FtlProcessor, RealNandAndMemoryModelsTimeTheOperations) {
  const config::PlatformConfig platform = timed_platform();
  ScriptedScheme* scheme = nullptr;
  ftl::FtlDevice device(platform, scripted_options(), [&scheme](const ftl::SchemeContext& c) {
    auto made = std::make_unique<ScriptedScheme>(c.backend);
    scheme = made.get();
    return made;
  });
  NandTimingParams nand_params;  // as tests/models/nand_array_test.cpp
  nand_params.channels = 2;
  nand_params.dies = 4;
  nand_params.t_read = 50 * kUs;
  nand_params.t_spare_read = 20 * kUs;
  nand_params.t_program = 500 * kUs;
  nand_params.t_erase = 3000 * kUs;
  nand_params.t_command = 10 * kNs;
  nand_params.ps_per_byte = 1000.0;  // a 4 KiB page crosses the channel in 4.096 us
  MemoryTimingParams dram_params;    // 50 ns read, 60 ns write, a page in 640 ns
  dram_params.read_latency = 50 * kNs;
  dram_params.write_latency = 60 * kNs;
  dram_params.ps_per_byte = 156.25;
  dram_params.capacity_bytes = 1 << 20;
  MemoryTimingParams nvram_params;  // 100 ns read, 2 us write, 1 ns per byte
  nvram_params.read_latency = 100 * kNs;
  nvram_params.write_latency = 2 * kUs;
  nvram_params.ps_per_byte = 1000.0;
  nvram_params.capacity_bytes = 1 << 20;
  nvram_params.persistent = true;

  FtlProcessor processor("processor", platform, device);
  NandArray nand("nand", nand_params);
  MemoryModel dram("dram", dram_params);
  MemoryModel nvram("nvram", nvram_params);
  HostInitiator host("host");
  host.socket.bind(processor.host_socket);
  processor.nand_socket.bind(nand.socket);
  processor.dram_socket.bind(dram.socket);
  processor.nvram_socket.bind(nvram.socket);

  // A read-modify-write: read die 0, program die 0 after it, stage the page in DRAM, then log
  // 64 bytes to NVRAM after the program.
  scheme->then([](FlashBackend& b) {
    const uint32_t read = b.read(page_on_die(b, 0), 1, OpClass::kHostWrite);
    const uint32_t program =
        b.program(page_on_die(b, 0, 1), nullptr, nullptr, OpClass::kHostWrite, read);
    b.dram(true, 4096, OpClass::kHostWrite);
    b.nvram(true, 64, OpClass::kMapping, program);
  });
  // A read on die 1 (channel 1, idle), firmware 1-2 us.
  scheme->then([](FlashBackend& b) { b.read(page_on_die(b, 1), 1, OpClass::kHostRead); });
  host.submit(CommandKind::kWrite);
  host.submit(CommandKind::kRead);
  sc_core::sc_start();

  constexpr Picoseconds kXfer = 4096 * 1000;
  constexpr Picoseconds kReadDone = 1 * kUs + 10 * kNs + 50 * kUs + kXfer;        // 55.106 us
  constexpr Picoseconds kProgramDone = kReadDone + 10 * kNs + kXfer + 500 * kUs;  // 559.212 us
  constexpr Picoseconds kLogDone = kProgramDone + 2 * kUs + 64 * 1000;            // 561.276 us
  EXPECT_EQ(nand.timing().counters().count(OpKind::kRead), 2u);
  EXPECT_EQ(nand.timing().counters().count(OpKind::kProgram), 1u);
  EXPECT_EQ(dram.timing().counters().writes, 1u);
  EXPECT_EQ(dram.timing().counters().busy_ps, 640 * kNs);  // done at 1.7 us, before the read
  EXPECT_EQ(nvram.timing().counters().writes, 1u);
  ASSERT_EQ(host.results().size(), 2u);
  EXPECT_EQ(host.delay_ps(0), kLogDone);
  EXPECT_EQ(host.delay_ps(0), 561'276'000u);
  EXPECT_EQ(host.delay_ps(1), 2 * kUs + 10 * kNs + 50 * kUs + kXfer);  // 56.106 us
}

// A real scheme underneath (page mapping, oracle on): a write, a flush and a read of the same
// unit pass the integrity check, every recorded operation reaches a target, and each command
// completes when its latest operation (or its firmware) does.
TEST(FtlProcessor, RunsTheRealPageSchemeWithTheOracle) {
  const config::PlatformConfig platform = timed_platform();
  ftl::FtlDevice device(platform, ftl::FtlDeviceOptions{});
  FtlProcessor processor("processor", platform, device);
  FixedLatencyTarget nand("nand");
  FixedLatencyTarget dram("dram");
  FixedLatencyTarget nvram("nvram");
  HostInitiator host("host");
  host.socket.bind(processor.host_socket);
  processor.nand_socket.bind(nand.socket);
  processor.dram_socket.bind(dram.socket);
  processor.nvram_socket.bind(nvram.socket);
  host.submit(CommandKind::kWrite, 0, 8);
  host.submit(CommandKind::kFlush, 0, 0);
  host.submit(CommandKind::kRead, 0, 8, ps(10'000 * kUs));
  sc_core::sc_start();

  ASSERT_EQ(host.results().size(), 3u);
  for (const auto& r : host.results()) {
    EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.mismatches, 0u);
  }
  ASSERT_NE(device.oracle(), nullptr);
  EXPECT_EQ(device.oracle()->checked_reads(), 1u);
  EXPECT_EQ(device.oracle()->mismatches(), 0u);
  EXPECT_EQ(processor.totals().commands, 3u);
  // The write and flush programmed one page; the read read it back, its latest operation.
  size_t programs = 0;
  Picoseconds last_program = 0;
  for (const auto& s : nand.seen()) {
    if (s.kind == OpKind::kProgram) {
      ++programs;
      last_program = std::max(last_program, s.done);
    }
  }
  EXPECT_EQ(programs, 1u);
  ASSERT_FALSE(nand.seen().empty());
  const auto& read = nand.seen().back();
  EXPECT_EQ(read.kind, OpKind::kRead);
  EXPECT_EQ(read.bytes, 4096u);
  EXPECT_EQ(read.now, 10'000 * kUs);
  Picoseconds read_done = read.done;
  for (const auto& s : dram.seen()) {
    if (s.now == 10'000 * kUs) read_done = std::max(read_done, s.done);
  }
  EXPECT_EQ(host.delay_ps(2), read_done - 10'000 * kUs);
  // The flush (second command) waited for the program, wherever it was issued.
  EXPECT_GE(host.delay_ps(1), last_program);
  EXPECT_EQ(processor.totals().work.flash_ops, nand.seen().size());
}

}  // namespace
}  // namespace ssd::models
