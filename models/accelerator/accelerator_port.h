// The FTL processor's side of the accelerator bus: what VET's node table (ftl/extent/vet/
// accelerator_table.h) sends its commands to in a timed run. Each command is one TLM-2.0
// transaction to the HashAccelerator target; the port adds up the delays the target annotates,
// and the FTL processor takes that sum after each host command as the time its firmware waited
// for answers (models/controller/ftl_processor.h).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "ftl/extent/vet/hash_engine.h"
#include "models/accelerator/hash_accelerator.h"
#include "models/common/sim_time.h"

namespace ssd::models {

class AcceleratorPort : public sc_core::sc_module, public ftl::HashEngine {
 public:
  tlm_utils::simple_initiator_socket<AcceleratorPort> socket;

  // `target`: the accelerator the socket is bound to (for its configuration and contents).
  AcceleratorPort(sc_core::sc_module_name name, const HashAccelerator& target);
  ~AcceleratorPort() override;

  ftl::HashResponse execute(const ftl::HashCommand& command) override;
  const ftl::HashEngineConfig& config() const override { return m_target.engine_config(); }
  void for_each(const std::function<void(uint64_t, const ftl::NodeValue&)>& visit) const override {
    m_target.engine().for_each(visit);
  }
  bool peek(uint64_t key, ftl::NodeValue& value) const override {
    return m_target.engine().peek(key, value);
  }

  // The accelerator time of the commands sent since the last call.
  Picoseconds take_wait_ps() {
    const Picoseconds wait = m_wait_ps;
    m_wait_ps = 0;
    return wait;
  }

 private:
  const HashAccelerator& m_target;
  tlm::tlm_generic_payload m_payload;
  HashCommandExtension m_extension;
  Picoseconds m_wait_ps = 0;
};

}  // namespace ssd::models
