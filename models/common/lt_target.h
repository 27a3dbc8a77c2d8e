// The TLM-2.0 plumbing every loosely timed target here shares: the target socket, b_transport, the
// response status and the annotated delay. A model overrides one hook that does one transaction
// at once and says when it completes (or why it is refused); b_transport never calls wait() and
// allocates nothing. Leaves out DMI, debug transport and the non-blocking (AT) interface.
#pragma once

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/sim_time.h"

namespace ssd::models {

class LtTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<LtTarget> socket;

 protected:
  // What the hook answers for one transaction.
  struct Answer {
    tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
    Picoseconds done = 0;         // the completion, when the status is OK
    const char* error = nullptr;  // when refused: reported as a SystemC error, or nullptr
  };

  static Answer completes_at(Picoseconds done) { return {tlm::TLM_OK_RESPONSE, done, nullptr}; }
  // A refused transaction takes no time: the initiator's delay comes back as it went in.
  static Answer refused(tlm::tlm_response_status status, const char* error = nullptr) {
    return {status, 0, error};
  }

  // `error_type`: the SystemC message type the target's refusals are reported under.
  LtTarget(sc_core::sc_module_name name, const char* error_type)
      : sc_core::sc_module(name), socket("socket"), m_error_type(error_type) {
    socket.register_b_transport(this, &LtTarget::b_transport);
  }

  // One transaction that the initiator has ready at `ready` (SystemC time `now` plus its
  // annotated delay). Do it at once, without wait(); the completion must not be before `ready`.
  virtual Answer transport(tlm::tlm_generic_payload& payload, Picoseconds now,
                           Picoseconds ready) = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const Picoseconds ready = to_ps(now + delay);
    Answer answer = transport(payload, to_ps(now), ready);
    // Time running backwards would be a model's bug; an initiator could not recover from it.
    if (answer.status == tlm::TLM_OK_RESPONSE && answer.done < ready) {
      answer =
          refused(tlm::TLM_GENERIC_ERROR_RESPONSE, "completion before the transaction was ready");
    }
    payload.set_response_status(answer.status);
    if (answer.status != tlm::TLM_OK_RESPONSE) {
      if (answer.error != nullptr) SC_REPORT_ERROR(m_error_type, answer.error);
      return;
    }
    delay = to_sc_time(answer.done) - now;
  }

  const char* m_error_type;
};

}  // namespace ssd::models
