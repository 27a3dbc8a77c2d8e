#include "ftl/extent/vet/hash_engine.h"

namespace ssd::ftl {

const char* to_string(HashOp op) {
  switch (op) {
    case HashOp::kFind:
      return "find";
    case HashOp::kInsert:
      return "insert";
    case HashOp::kUpdate:
      return "update";
    case HashOp::kDelete:
      return "delete";
    case HashOp::kClear:
      return "clear";
    case HashOp::kMultiLookup:
      return "mlookup";
  }
  return "bad";
}

const char* to_string(HashStatus status) {
  switch (status) {
    case HashStatus::kMiss:
      return "miss";
    case HashStatus::kHit:
      return "hit";
    case HashStatus::kDone:
      return "done";
    case HashStatus::kOverflow:
      return "overflow";
    case HashStatus::kInternal:
      return "internal";
    case HashStatus::kBadCommand:
      return "bad-command";
  }
  return "?";
}

}  // namespace ssd::ftl
