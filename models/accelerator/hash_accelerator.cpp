#include "models/accelerator/hash_accelerator.h"

#include <cmath>
#include <stdexcept>

#include "ftl/core/checked_time.h"
#include "rtl/model/vet_hash_model.h"
#if SSD_HAVE_RTL
#include "rtl/verilated_hash_engine.h"
#endif

namespace ssd::models {

namespace {

ftl::HashEngineConfig engine_size(const config::AcceleratorConfig& c) {
  return ftl::HashEngineConfig{c.bucket_bits, c.ways};
}

}  // namespace

std::string accelerator_problem(const config::AcceleratorConfig& accelerator) {
  if (accelerator.engine != "rtl") return "";
#if SSD_HAVE_RTL
  for (const ftl::HashEngineConfig& c : rtl::verilated_configs()) {
    if (c.bucket_bits == accelerator.bucket_bits && c.ways == accelerator.ways) return "";
  }
  std::string built;
  for (const ftl::HashEngineConfig& c : rtl::verilated_configs()) {
    built += (built.empty() ? "" : ", ") + std::to_string(c.bucket_bits) + " x " +
             std::to_string(c.ways);
  }
  return "key 'accelerator.engine': 'rtl' needs a Verilated engine of accelerator.bucket_bits x "
         "accelerator.ways = " +
         std::to_string(accelerator.bucket_bits) + " x " + std::to_string(accelerator.ways) +
         "; this build has " + built;
#else
  return "key 'accelerator.engine': 'rtl' needs the RTL, and this build has none (configure "
         "with -DSSD_BUILD_RTL=ON; needs Verilator)";
#endif
}

HashAccelerator::HashAccelerator(sc_core::sc_module_name name,
                                 const config::AcceleratorConfig& config,
                                 [[maybe_unused]] const std::string& waveform)
    : LtTarget(name, "ssd/accelerator"),
      m_period_ps(ftl::checked_ps(1e6 / config.clock_mhz, "accelerator.clock_mhz's period")) {
  if (const std::string problem = accelerator_problem(config); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
#if SSD_HAVE_RTL
  if (config.engine == "rtl") {
    m_engine = rtl::make_verilated_hash_engine(engine_size(config), waveform);
    m_runs_rtl = true;
  }
#endif
  if (!m_engine) m_engine = std::make_unique<rtl::HashEngineModel>(engine_size(config));
}

HashAccelerator::~HashAccelerator() = default;

LtTarget::Answer HashAccelerator::transport(tlm::tlm_generic_payload& payload, Picoseconds /*now*/,
                                            Picoseconds ready) {
  HashCommandExtension* extension = nullptr;
  payload.get_extension(extension);
  // Unreported: the AcceleratorPort turns the refusal into an exception of its own.
  if (extension == nullptr || extension->command == nullptr) {
    return refused(tlm::TLM_GENERIC_ERROR_RESPONSE);
  }
  const ftl::HashResponse& r = extension->response = m_engine->execute(*extension->command);
  const auto op = static_cast<ftl::HashOp>(extension->command->op & 7u);
  if (r.status == ftl::HashStatus::kOverflow) ++m_refused_inserts;
  if (op == ftl::HashOp::kInsert && r.status == ftl::HashStatus::kDone) ++m_entries;
  if (op == ftl::HashOp::kDelete && r.status == ftl::HashStatus::kHit) --m_entries;
  if (op == ftl::HashOp::kClear) m_entries = 0;
  const uint64_t cycles = r.latency_cycles;
  ++m_commands;
  m_busy_cycles += cycles;
  const Picoseconds busy =
      ftl::checked_ps(double(cycles) * double(m_period_ps), "an accelerator command's time");
  m_busy_ps += busy;
  // The engine is idle whenever a command arrives (the processor waits for every answer).
  return completes_at(ready + busy);
}

}  // namespace ssd::models
