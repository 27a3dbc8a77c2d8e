#include "models/nand/nand_array.h"

#include "models/common/flash_op_extension.h"
#include "models/common/sim_time.h"

namespace ssd::models {

NandArray::NandArray(sc_core::sc_module_name name, const NandTimingParams& params)
    : sc_core::sc_module(name), socket("socket"), m_timing(params) {
  socket.register_b_transport(this, &NandArray::b_transport);
}

void NandArray::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const auto* extension = gp.get_extension<FlashOpExtension>();
  if (extension == nullptr || extension->op == nullptr) {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    SC_REPORT_ERROR("ssd/nand", "NAND transaction without a FlashOpExtension naming its operation");
    return;
  }
  const ftl::FlashOp& op = *extension->op;
  if (!ftl::is_flash_op(op.kind) || op.die >= m_timing.params().dies) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    SC_REPORT_ERROR("ssd/nand", "NAND transaction with a memory operation or a die out of range");
    return;
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  m_timing.advance(to_ps(now));
  const Picoseconds done = m_timing.schedule(op, to_ps(now + delay));
  delay = to_sc_time(done) - now;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssd::models
