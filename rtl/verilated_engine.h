// Drives a Verilated vet_hash_engine (--cc) cycle by cycle from C++, in the reference model's
// terms (ftl/extent/vet/hash_engine.h). Used by the accelerator target (verilated_hash_engine.cpp)
// and by the RTL tests (tests/rtl/engine_harness.h). rtl/CMakeLists.txt Verilates one C++ class
// per configuration; VerilatedParams below names each one's parameters.
//
// Waveforms: pass an FST file name. Coverage builds (SSD_RTL_COVERAGE) write each engine's counts
// to $SSD_RTL_COVERAGE_DIR/cov-<pid>-<n>.dat when it is destroyed (rtl/run-coverage merges them).
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
#include <stdexcept>
#include <string>

#include "Vvet_hash_engine.h"
#include "Vvet_hash_engine_platform.h"
#include "Vvet_hash_engine_small.h"
#include "rtl/model/engine_interface.h"

namespace ssd::rtl {

// The parameters each Verilated configuration was built with (rtl/CMakeLists.txt).
template <typename V>
struct VerilatedParams;
template <>
struct VerilatedParams<Vvet_hash_engine> {
  static constexpr HashEngineConfig config() { return {10, 4}; }
};
template <>
struct VerilatedParams<Vvet_hash_engine_small> {
  static constexpr HashEngineConfig config() { return {4, 3}; }
};
template <>
struct VerilatedParams<Vvet_hash_engine_platform> {
  static constexpr HashEngineConfig config() { return {13, 8}; }
};

// What the engine shows during one cycle (before the rising edge that ends it).
struct CycleView {
  bool ready = false;
  bool rsp_valid = false;
  HashResponse rsp;  // status, key, value, way, probes (no cycle counts)
};

// One numbering for the coverage files of every engine of the process.
inline int next_engine_serial() {
  static int serial = 0;
  return serial++;
}

template <typename V>
class VerilatedEngine {
 public:
  // `trace_path`: an FST file to write every cycle to, or "" for none.
  explicit VerilatedEngine(const std::string& trace_path = "")
      : m_context(std::make_unique<VerilatedContext>()) {
    if (!trace_path.empty()) m_context->traceEverOn(true);
    m_top = std::make_unique<V>(m_context.get(), "engine");
    if (!trace_path.empty()) {
      m_trace = std::make_unique<VerilatedFstC>();
      m_top->trace(m_trace.get(), 99);
      m_trace->open(trace_path.c_str());
    }
    reset();
  }

  ~VerilatedEngine() {
    m_top->final();
    if (m_trace) m_trace->close();
#if SSD_RTL_COVERAGE
    const char* dir = std::getenv("SSD_RTL_COVERAGE_DIR");
    const std::string path = std::string(dir && *dir ? dir : ".") + "/cov-" +
                             std::to_string(getpid()) + "-" + std::to_string(next_engine_serial()) +
                             ".dat";
    m_context->coveragep()->write(path.c_str());
#endif
  }

  VerilatedEngine(const VerilatedEngine&) = delete;
  VerilatedEngine& operator=(const VerilatedEngine&) = delete;

  static constexpr HashEngineConfig config() { return VerilatedParams<V>::config(); }

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
  // std::runtime_error when the engine breaks its protocol (two answers, or none in 100 cycles).
  HashResponse run(const HashCommand& c) {
    return run(c, [] {});
  }
  // The same, calling `before_cycle()` before every cycle (e.g. to wait for a SystemC clock edge).
  template <typename BeforeCycle>
  HashResponse run(const HashCommand& c, BeforeCycle&& before_cycle) {
    const auto step = [&](bool valid, const HashCommand& command) {
      before_cycle();
      return cycle(valid, command);
    };
    CycleView v = step(true, c);
    while (!v.ready) v = step(true, c);
    const uint64_t accepted = m_cycle - 1;
    HashResponse r;
    bool answered = false, ready_again = false;
    uint32_t issue = 0;
    while (!answered || !ready_again) {
      v = step(false, HashCommand{});
      const uint64_t now = m_cycle - 1;
      if (v.rsp_valid) {
        if (answered) throw std::runtime_error("RTL hash engine: two responses to one command");
        r = v.rsp;
        r.latency_cycles = static_cast<uint32_t>(now - accepted);
        answered = true;
      }
      if (v.ready && !ready_again) {
        issue = static_cast<uint32_t>(now - accepted);
        ready_again = true;
      }
      if (now - accepted > 100) {
        throw std::runtime_error("RTL hash engine: no response after 100 cycles");
      }
    }
    r.issue_cycles = issue;
    return r;
  }

  uint64_t cycles() const { return m_cycle; }
  V& top() { return *m_top; }

 private:
  std::unique_ptr<VerilatedContext> m_context;
  std::unique_ptr<V> m_top;
  std::unique_ptr<VerilatedFstC> m_trace;
  uint64_t m_cycle = 0;
};

}  // namespace ssd::rtl
