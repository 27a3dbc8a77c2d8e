#include "ftl/core/host_command.h"

namespace ssd::ftl {

const char* to_string(CommandKind kind) {
  switch (kind) {
    case CommandKind::kRead:
      return "read";
    case CommandKind::kWrite:
      return "write";
    case CommandKind::kTrim:
      return "trim";
    case CommandKind::kFlush:
      return "flush";
  }
  return "?";
}

}  // namespace ssd::ftl
