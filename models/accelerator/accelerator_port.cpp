#include "models/accelerator/accelerator_port.h"

#include <stdexcept>

namespace ssd::models {

AcceleratorPort::AcceleratorPort(sc_core::sc_module_name name, const HashAccelerator& target)
    : sc_core::sc_module(name), socket("socket"), m_target(target) {
  // One payload for every command, its extension set once.
  m_payload.set_command(tlm::TLM_IGNORE_COMMAND);
  m_payload.set_data_length(0);
  m_payload.set_extension(&m_extension);
}

// The payload would delete its extensions on destruction; ours is a member, not heap-allocated.
AcceleratorPort::~AcceleratorPort() { m_payload.clear_extension(&m_extension); }

ftl::HashResponse AcceleratorPort::execute(const ftl::HashCommand& command) {
  m_extension.command = &command;
  m_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(m_payload, delay);
  if (m_payload.get_response_status() != tlm::TLM_OK_RESPONSE) {
    throw std::runtime_error("accelerator: command not executed");
  }
  m_wait_ps += to_ps(delay);
  return m_extension.response;
}

}  // namespace ssd::models
