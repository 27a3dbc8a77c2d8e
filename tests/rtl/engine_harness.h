// The Verilated engine as the RTL tests drive it (rtl/verilated_engine.h), with waveforms named
// after the running test. The tests use two configurations (rtl/CMakeLists.txt):
// Vvet_hash_engine (1024 buckets x 4 ways) and Vvet_hash_engine_small (16 x 3).
#pragma once

#include <cstdlib>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "rtl/model/vet_hash_model.h"
#include "rtl/verilated_engine.h"

namespace ssd::rtl {

// How gtest prints an answer.
inline void PrintTo(const HashResponse& r, std::ostream* os) {
  *os << to_string(r.status) << " key=0x" << std::hex << r.key << " value={0x" << r.value.w0
      << ",0x" << r.value.w1 << ",0x" << r.value.w2 << "}" << std::dec << " way=" << r.way
      << " probes=" << r.probes << " latency=" << r.latency_cycles << " issue=" << r.issue_cycles;
}

}  // namespace ssd::rtl

namespace ssd::rtl::test {

using rtl::CycleView;

// The engine as the tests drive it. Waveforms on request: SSD_RTL_TRACE=file.fst writes an FST
// of every engine a test creates ("%t" in the name is replaced by the running test's name;
// otherwise later engines overwrite).
template <typename V>
class EngineHarness : public VerilatedEngine<V> {
 public:
  EngineHarness() : VerilatedEngine<V>(trace_name()) {}

 private:
  static std::string trace_name() {
    const char* trace = std::getenv("SSD_RTL_TRACE");
    if (trace == nullptr || *trace == 0) return "";
    std::string name = trace;
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
};

}  // namespace ssd::rtl::test
