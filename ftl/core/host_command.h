// A host command as the FTL sees it: sector-granular, with the id that makes its data unique.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

enum class CommandKind : uint8_t { kRead = 0, kWrite = 1, kTrim = 2, kFlush = 3 };
inline constexpr int kCommandKinds = 4;

struct HostCommand {
  CommandKind kind = CommandKind::kRead;
  uint64_t start_sector = 0;
  uint32_t sector_count = 0;  // 0 for flush
  uint64_t id = 0;            // unique per command, increasing; write data derives from it
  Picoseconds arrival = 0;    // when the host submitted it
  uint16_t queue = 0;         // submission queue
  // A write with Force Unit Access: acknowledged only once durable. The FTL serves it as the write
  // then what a flush does, in the same command (FtlDevice::run); ignored on other kinds.
  bool fua = false;
  // A layer above the scheme (ftl/sector_log/) that assembles whole units from sectors supplies
  // each unit's content token here, one per unit of a whole-unit write; nullptr: the scheme
  // derives the content from `id` (content_token.h).
  const Token* unit_tokens = nullptr;
  // The bytes of a read or write, when the device keeps them (FtlDeviceOptions::host_data): a
  // write's sector_count x sector bytes to keep, a read's buffer to fill. nullptr: none.
  std::byte* data = nullptr;
};

const char* to_string(CommandKind kind);

}  // namespace ssd::ftl
