#include "ftl/core/flash_op.h"

namespace ssd::ftl {

const char* to_string(OpClass op_class) {
  switch (op_class) {
    case OpClass::kHostRead:
      return "host_read";
    case OpClass::kHostWrite:
      return "host_write";
    case OpClass::kMapping:
      return "mapping";
    case OpClass::kGc:
      return "gc";
  }
  return "?";
}

}  // namespace ssd::ftl
