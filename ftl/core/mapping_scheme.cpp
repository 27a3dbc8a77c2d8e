#include "ftl/core/mapping_scheme.h"

namespace ssd::ftl {

void MappingScheme::execute(const HostCommand& command) {
  switch (command.kind) {
    case CommandKind::kRead:
      read(command);
      break;
    case CommandKind::kWrite:
      write(command);
      break;
    case CommandKind::kTrim:
      trim(command);
      break;
    case CommandKind::kFlush:
      flush(command);
      break;
  }
}

}  // namespace ssd::ftl
