// Counters every scheme keeps the same way, so write amplification and GC cost compare across
// schemes: units written for the host apart from units GC (or merges) rewrote.
#pragma once

#include <cstdint>

namespace ssd::ftl {

struct FtlStats {
  uint64_t host_units_written = 0;  // mapping units the host's writes put on flash
  uint64_t gc_units_written = 0;    // units rewritten by GC, merges or read-modify-write of others
  uint64_t gc_invocations = 0;      // victim blocks reclaimed
  uint64_t gc_units_copied = 0;     // valid units GC moved (== gc_units_written for page mapping)
  uint64_t gc_erases = 0;           // erases GC issued
  uint64_t padded_units = 0;        // empty slots programmed to close a page at a flush
};

}  // namespace ssd::ftl
