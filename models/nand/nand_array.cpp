#include "models/nand/nand_array.h"

#include "models/common/flash_op_extension.h"

namespace ssd::models {

NandArray::NandArray(sc_core::sc_module_name name, const NandTimingParams& params)
    : LtTarget(name, "ssd/nand"), m_timing(params) {}

LtTarget::Answer NandArray::transport(tlm::tlm_generic_payload& payload, Picoseconds now,
                                      Picoseconds ready) {
  const auto* extension = payload.get_extension<FlashOpExtension>();
  if (extension == nullptr || extension->op == nullptr) {
    return refused(tlm::TLM_GENERIC_ERROR_RESPONSE,
                   "NAND transaction without a FlashOpExtension naming its operation");
  }
  const ftl::FlashOp& op = *extension->op;
  if (!ftl::is_flash_op(op.kind) || op.die >= m_timing.params().dies) {
    return refused(tlm::TLM_COMMAND_ERROR_RESPONSE,
                   "NAND transaction with a memory operation or a die out of range");
  }
  m_timing.advance(now);
  return completes_at(m_timing.schedule(op, ready));
}

}  // namespace ssd::models
