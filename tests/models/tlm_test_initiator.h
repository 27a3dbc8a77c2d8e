// Test helper: an initiator that issues a list of blocking TLM accesses from one SC_THREAD and
// records what came back, so a model test reads one line per access. Queue the accesses before
// sc_start(); each is issued at simulated time `at` with the annotated delay `offset`, in the
// order queued, and results() then holds each returned status and delay (relative to `at`).
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "ftl/core/flash_op.h"
#include "models/common/flash_op_extension.h"

namespace ssd::models {

class TlmTestInitiator : public sc_core::sc_module {
 public:
  struct Result {
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_core::sc_time delay;  // the annotated delay the target returned
  };

  tlm_utils::simple_initiator_socket<TlmTestInitiator> socket;

  explicit TlmTestInitiator(sc_core::sc_module_name name)
      : sc_core::sc_module(name), socket("socket") {
    SC_HAS_PROCESS(TlmTestInitiator);
    SC_THREAD(run);
  }

  // A NAND (or memory) operation carried by a FlashOpExtension; the command is a READ or WRITE
  // that matches the kind, and the data length its byte count.
  void issue(const ftl::FlashOp& op, sc_core::sc_time at = sc_core::SC_ZERO_TIME,
             sc_core::sc_time offset = sc_core::SC_ZERO_TIME, uint64_t address = 0) {
    m_accesses.push_back({command_of(op.kind), address, op.bytes, true, op, at, offset});
  }

  // A plain READ or WRITE of `bytes` at `address`, without an extension.
  void access(tlm::tlm_command command, uint64_t address, uint32_t bytes,
              sc_core::sc_time at = sc_core::SC_ZERO_TIME,
              sc_core::sc_time offset = sc_core::SC_ZERO_TIME) {
    m_accesses.push_back({command, address, bytes, false, ftl::FlashOp{}, at, offset});
  }

  const std::vector<Result>& results() const { return m_results; }

 private:
  struct Access {
    tlm::tlm_command command;
    uint64_t address;
    uint32_t bytes;
    bool with_op;
    ftl::FlashOp op;
    sc_core::sc_time at;
    sc_core::sc_time offset;
  };

  static tlm::tlm_command command_of(ftl::OpKind kind) {
    switch (kind) {
      case ftl::OpKind::kProgram:
      case ftl::OpKind::kErase:
      case ftl::OpKind::kDramWrite:
      case ftl::OpKind::kNvramWrite:
        return tlm::TLM_WRITE_COMMAND;
      default:
        return tlm::TLM_READ_COMMAND;
    }
  }

  void run() {
    for (const Access& a : m_accesses) {
      if (a.at > sc_core::sc_time_stamp()) wait(a.at - sc_core::sc_time_stamp());
      // The targets under test never touch the data, but a buffer of the stated length keeps
      // the payload valid by the TLM rules.
      m_buffer.assign(a.bytes, 0);
      tlm::tlm_generic_payload gp;
      gp.set_command(a.command);
      gp.set_address(a.address);
      gp.set_data_ptr(m_buffer.data());
      gp.set_data_length(a.bytes);
      gp.set_streaming_width(a.bytes);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      m_extension.op = &a.op;
      if (a.with_op) gp.set_extension(&m_extension);
      sc_core::sc_time delay = a.offset;
      socket->b_transport(gp, delay);
      // The extension belongs to this module: detach it before the payload would delete it.
      if (a.with_op) gp.clear_extension(&m_extension);
      m_results.push_back({gp.get_response_status(), delay});
    }
  }

  std::vector<Access> m_accesses;
  std::vector<Result> m_results;
  std::vector<unsigned char> m_buffer;
  FlashOpExtension m_extension;
};

}  // namespace ssd::models
