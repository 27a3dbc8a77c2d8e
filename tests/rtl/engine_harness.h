// Drives a Verilated vet_hash_engine (--cc) cycle by cycle from C++ and reads its answers in the
// model's terms (rtl/model/vet_hash_model.h). Two configurations are built (rtl/CMakeLists.txt):
// Vvet_hash_engine (1024 buckets x 4 ways) and Vvet_hash_engine_small (16 x 3).
//
// Waveforms on request: SSD_RTL_TRACE=file.fst writes an FST of every engine a test creates
// ("%t" in the name is replaced by the running test's name; otherwise later engines overwrite).
// Coverage builds (SSD_RTL_COVERAGE) write each engine's counts to
// $SSD_RTL_COVERAGE_DIR/cov-<pid>-<n>.dat when it is destroyed (rtl/run-coverage merges them).
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>
#if SSD_RTL_COVERAGE
#include <verilated_cov.h>
#endif
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "Vvet_hash_engine.h"
#include "Vvet_hash_engine_small.h"
#include "rtl/model/vet_hash_model.h"

namespace ssd::rtl {

// How gtest prints an answer.
inline void PrintTo(const HashResponse& r, std::ostream* os) {
  *os << to_string(r.status) << " key=0x" << std::hex << r.key << " value={0x" << r.value.w0
      << ",0x" << r.value.w1 << ",0x" << r.value.w2 << "}" << std::dec << " way=" << r.way
      << " probes=" << r.probes << " latency=" << r.latency_cycles
      << " issue=" << r.issue_cycles;
}

}  // namespace ssd::rtl

namespace ssd::rtl::test {

// One numbering for the files of every engine of the process, whatever its configuration.
inline int next_serial() {
  static int serial = 0;
  return serial++;
}

// The parameters each Verilated configuration was built with.
template <typename V>
struct EngineParams;
template <>
struct EngineParams<Vvet_hash_engine> {
  static constexpr HashEngineConfig config() { return {10, 4}; }
};
template <>
struct EngineParams<Vvet_hash_engine_small> {
  static constexpr HashEngineConfig config() { return {4, 3}; }
};

// What the engine shows during one cycle (before the rising edge that ends it).
struct CycleView {
  bool ready = false;
  bool rsp_valid = false;
  HashResponse rsp;  // status, key, value, way, probes (no cycle counts)
};

template <typename V>
class EngineHarness {
 public:
  EngineHarness() : m_context(std::make_unique<VerilatedContext>()) {
    const char* trace = std::getenv("SSD_RTL_TRACE");
    if (trace && *trace) m_context->traceEverOn(true);
    m_top = std::make_unique<V>(m_context.get(), "engine");
    if (trace && *trace) {
      m_trace = std::make_unique<VerilatedFstC>();
      m_top->trace(m_trace.get(), 99);
      m_trace->open(trace_name(trace).c_str());
    }
    reset();
  }

  ~EngineHarness() {
    m_top->final();
    if (m_trace) m_trace->close();
#if SSD_RTL_COVERAGE
    const char* dir = std::getenv("SSD_RTL_COVERAGE_DIR");
    const std::string path = std::string(dir && *dir ? dir : ".") + "/cov-" +
                             std::to_string(getpid()) + "-" + std::to_string(next_serial()) +
                             ".dat";
    m_context->coveragep()->write(path.c_str());
#endif
  }

  EngineHarness(const EngineHarness&) = delete;
  EngineHarness& operator=(const EngineHarness&) = delete;

  static HashEngineConfig config() { return EngineParams<V>::config(); }

  // Holds rst for `cycles` cycles, then releases it.
  void reset(int cycles = 2) {
    m_top->rst = 1;
    for (int i = 0; i < cycles; ++i) cycle(false, HashCommand{});
    m_top->rst = 0;
  }
  void set_reset(bool on) { m_top->rst = on ? 1 : 0; }

  // One clock cycle with these command inputs; what the engine showed in it.
  CycleView cycle(bool valid, const HashCommand& c) {
    m_top->cmd_valid = valid ? 1 : 0;
    m_top->cmd_op = c.op & 7u;
    m_top->cmd_key = c.key;
    m_top->cmd_value[0] = c.value.w0;
    m_top->cmd_value[1] = c.value.w1;
    m_top->cmd_value[2] = c.value.w2;
    m_top->cmd_bits = c.bits & 63u;
    m_top->clk = 0;
    m_top->eval();
    CycleView v;
    v.ready = m_top->cmd_ready != 0;
    v.rsp_valid = m_top->rsp_valid != 0;
    if (v.rsp_valid) {
      v.rsp.status = static_cast<HashStatus>(m_top->rsp_status);
      v.rsp.key = m_top->rsp_key;
      v.rsp.value = NodeValue{m_top->rsp_value[0], m_top->rsp_value[1], m_top->rsp_value[2]};
      v.rsp.way = m_top->rsp_way;
      v.rsp.probes = m_top->rsp_probes;
    }
    if (m_trace) m_trace->dump(2 * m_cycle);
    m_top->clk = 1;
    m_top->eval();
    if (m_trace) m_trace->dump(2 * m_cycle + 1);
    ++m_cycle;
    return v;
  }

  // Issues one command on an idle engine and waits for its answer; the answer carries the
  // measured latency (accept to response) and issue interval (accept to the next ready cycle).
  HashResponse run(const HashCommand& c) {
    CycleView v = cycle(true, c);
    while (!v.ready) v = cycle(true, c);
    const uint64_t accepted = m_cycle - 1;
    HashResponse r;
    bool answered = false, ready_again = false;
    uint32_t issue = 0;
    while (!answered || !ready_again) {
      v = cycle(false, HashCommand{});
      const uint64_t now = m_cycle - 1;
      if (v.rsp_valid) {
        EXPECT_FALSE(answered) << "two responses to one command";
        r = v.rsp;
        r.latency_cycles = static_cast<uint32_t>(now - accepted);
        answered = true;
      }
      if (v.ready && !ready_again) {
        issue = static_cast<uint32_t>(now - accepted);
        ready_again = true;
      }
      if (now - accepted > 100) {
        ADD_FAILURE() << "no response after 100 cycles";
        break;
      }
    }
    r.issue_cycles = issue;
    return r;
  }

  uint64_t cycles() const { return m_cycle; }
  V& top() { return *m_top; }

 private:
  static std::string trace_name(std::string name) {
    const auto at = name.find("%t");
    if (at != std::string::npos) {
      const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
      std::string test = info ? std::string(info->test_suite_name()) + "." + info->name() : "run";
      for (char& ch : test) {
        if (ch == '/') ch = '_';
      }
      name.replace(at, 2, test);
    }
    return name;
  }

  std::unique_ptr<VerilatedContext> m_context;
  std::unique_ptr<V> m_top;
  std::unique_ptr<VerilatedFstC> m_trace;
  uint64_t m_cycle = 0;
};

}  // namespace ssd::rtl::test
