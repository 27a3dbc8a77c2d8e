#include "models/nand/nand_array.h"

#include <algorithm>

#include "models/common/flash_op_extension.h"

namespace ssd::models {

NandArray::NandArray(sc_core::sc_module_name name, const NandTimingParams& params)
    : LtTarget(name, "ssd/nand"), m_timing(params) {}

LtTarget::Answer NandArray::transport(tlm::tlm_generic_payload& payload, Picoseconds now,
                                      Picoseconds ready) {
  auto* extension = payload.get_extension<FlashOpExtension>();
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
  const Picoseconds done = m_timing.schedule(op, ready);
  // A program's or an erase's array part ends the operation (no data comes out after it).
  extension->array_start = done - std::min(done, m_timing.array_ps(op));
  return completes_at(done);
}

}  // namespace ssd::models
