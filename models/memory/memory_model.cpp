#include "models/memory/memory_model.h"

#include "models/common/flash_op_extension.h"
#include "models/common/sim_time.h"

namespace ssd::models {

MemoryModel::MemoryModel(sc_core::sc_module_name name, const MemoryTimingParams& params)
    : sc_core::sc_module(name), socket("socket"), m_timing(params) {
  socket.register_b_transport(this, &MemoryModel::b_transport);
}

void MemoryModel::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  bool is_write = false;
  uint32_t bytes = gp.get_data_length();
  const auto* extension = gp.get_extension<FlashOpExtension>();
  if (extension != nullptr && extension->op != nullptr) {
    const ftl::OpKind kind = extension->op->kind;
    if (ftl::is_flash_op(kind)) {
      gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      SC_REPORT_ERROR("ssd/memory", "memory transaction carrying a NAND operation");
      return;
    }
    is_write = kind == ftl::OpKind::kDramWrite || kind == ftl::OpKind::kNvramWrite;
    bytes = extension->op->bytes;
  } else if (gp.is_write()) {
    is_write = true;
  } else if (!gp.is_read()) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);  // TLM_IGNORE_COMMAND: nothing to do, no time
    return;
  }

  // Overflow-safe form of address + bytes > capacity.
  const uint64_t capacity = m_timing.params().capacity_bytes;
  const uint64_t address = gp.get_address();
  if (address > capacity || bytes > capacity - address) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }

  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const Picoseconds done = m_timing.schedule(is_write, bytes, to_ps(now + delay));
  delay = to_sc_time(done) - now;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssd::models
