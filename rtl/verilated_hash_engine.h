// The Verilated RTL engine behind the HashEngine interface, for the platform's accelerator target
// (models/accelerator/). Every answer is checked against the C++ reference model run in lockstep:
// the RTL in the loop is verified on every command of every run, and a divergence stops the run.
// No Verilator header here, so the SystemC models can include it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rtl/model/engine_interface.h"

namespace ssd::rtl {

// The configurations Verilated into this build (rtl/CMakeLists.txt).
std::vector<HashEngineConfig> verilated_configs();

// The Verilated engine of `config`, reset and empty; `trace_path`: an FST waveform file, or "".
// std::invalid_argument when no configuration of that size was Verilated.
std::unique_ptr<HashEngine> make_verilated_hash_engine(const HashEngineConfig& config,
                                                       const std::string& trace_path = "");

}  // namespace ssd::rtl
