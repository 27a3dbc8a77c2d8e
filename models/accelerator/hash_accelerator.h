// VET's hash-lookup accelerator (rtl/README.md) as a loosely timed TLM-2.0 target (LtTarget) at
// its own clock. Each transaction carries one engine command (HashCommandExtension); the target
// runs it on its engine, the Verilated RTL (accelerator.engine = rtl, checked against the
// reference model on every command) or the C++ reference model (model: the same answers and
// cycle counts), and answers after the engine's latency: delay += latency_cycles x clock period.
// The FTL processor waits for each answer (the next command depends on it), so the engine is idle
// whenever a command arrives and no pipelining across commands is modelled.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <systemc>
#include <tlm>

#include "config/platform_config.h"
#include "ftl/extent/vet/hash_engine.h"
#include "models/common/lt_target.h"
#include "models/common/sim_time.h"

namespace ssd::models {

// Carries one command to the accelerator and its answer back.
class HashCommandExtension : public tlm::tlm_extension<HashCommandExtension> {
 public:
  const ftl::HashCommand* command = nullptr;
  ftl::HashResponse response;

  tlm::tlm_extension_base* clone() const override { return new HashCommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const HashCommandExtension&>(other);
    command = o.command;
    response = o.response;
  }
};

// "" when `accelerator` can be built in this binary, else why not (naming the key).
std::string accelerator_problem(const config::AcceleratorConfig& accelerator);

class HashAccelerator : public LtTarget {
 public:
  // `waveform`: an FST file for the RTL engine's signals ("" for none; ignored by the model).
  HashAccelerator(sc_core::sc_module_name name, const config::AcceleratorConfig& config,
                  const std::string& waveform = "");
  ~HashAccelerator() override;

  const ftl::HashEngineConfig& engine_config() const { return m_engine->config(); }
  const ftl::HashEngine& engine() const { return *m_engine; }
  bool runs_rtl() const { return m_runs_rtl; }

  uint64_t commands() const { return m_commands; }
  uint64_t entries() const { return m_entries; }                  // keys the engine holds
  uint64_t refused_inserts() const { return m_refused_inserts; }  // answered OVERFLOW
  uint64_t busy_cycles() const { return m_busy_cycles; }
  Picoseconds busy_ps() const { return m_busy_ps; }
  Picoseconds period_ps() const { return m_period_ps; }

 private:
  Answer transport(tlm::tlm_generic_payload& payload, Picoseconds now, Picoseconds ready) override;

  std::unique_ptr<ftl::HashEngine> m_engine;
  bool m_runs_rtl = false;
  Picoseconds m_period_ps;
  uint64_t m_commands = 0;
  uint64_t m_entries = 0;
  uint64_t m_refused_inserts = 0;
  uint64_t m_busy_cycles = 0;
  Picoseconds m_busy_ps = 0;
};

}  // namespace ssd::models
