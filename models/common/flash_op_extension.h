// TLM-2.0 extension that carries one recorded FTL operation (ftl/core/flash_op.h) to a NAND or
// memory target. One instance lives in each initiator and is re-pointed per transaction: nothing
// is allocated per request.
#pragma once

#include <tlm>

#include "ftl/core/flash_op.h"

namespace ssd::models {

class FlashOpExtension : public tlm::tlm_extension<FlashOpExtension> {
 public:
  const ftl::FlashOp* op = nullptr;
  // Set by the NAND target: when the operation's array part (tR, tPROG, tBERS) starts, after its
  // command and data transfer (what a power cut in between tears).
  ftl::Picoseconds array_start = 0;

  tlm::tlm_extension_base* clone() const override { return new FlashOpExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    op = static_cast<const FlashOpExtension&>(other).op;
    array_start = static_cast<const FlashOpExtension&>(other).array_start;
  }
};

}  // namespace ssd::models
