#include "models/memory/memory_model.h"

#include "models/common/flash_op_extension.h"

namespace ssd::models {

MemoryModel::MemoryModel(sc_core::sc_module_name name, const MemoryTimingParams& params)
    : LtTarget(name, "ssd/memory"), m_timing(params) {}

LtTarget::Answer MemoryModel::transport(tlm::tlm_generic_payload& payload, Picoseconds now,
                                        Picoseconds ready) {
  bool is_write = false;
  uint32_t bytes = payload.get_data_length();
  const auto* extension = payload.get_extension<FlashOpExtension>();
  if (extension != nullptr && extension->op != nullptr) {
    const ftl::OpKind kind = extension->op->kind;
    if (ftl::is_flash_op(kind)) {
      return refused(tlm::TLM_COMMAND_ERROR_RESPONSE,
                     "memory transaction carrying a NAND operation");
    }
    is_write = kind == ftl::OpKind::kDramWrite || kind == ftl::OpKind::kNvramWrite;
    bytes = extension->op->bytes;
  } else if (payload.is_write()) {
    is_write = true;
  } else if (!payload.is_read()) {
    return completes_at(ready);  // TLM_IGNORE_COMMAND: nothing to do, no time
  }

  // Overflow-safe form of address + bytes > capacity.
  const uint64_t capacity = m_timing.params().capacity_bytes;
  const uint64_t address = payload.get_address();
  if (address > capacity || bytes > capacity - address) {
    return refused(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  return completes_at(m_timing.schedule(is_write, bytes, ready, now));
}

}  // namespace ssd::models
