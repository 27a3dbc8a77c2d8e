// The record of one operation the FTL asked of the hardware while it served a command. The FTL
// applies every operation to the functional state at once and appends it here; the controller
// model then schedules the list on the timed resources (models/). Nothing here knows about time
// except the dependency between operations of the same command.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ftl/core/cpu_work.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

enum class OpKind : uint8_t {
  kRead,       // page read (tR) and transfer of `bytes` over the channel
  kSpareRead,  // spare-area-only read (its own array time) and transfer of `bytes`
  kProgram,    // transfer of `bytes` in, then tPROG
  kErase,      // tBERS, no data
  kCopyback,   // copy-back: `source` read into the die's page register (tR) and programmed from
               // there into `page` on the same plane (tPROG); no data crosses the channel
  kDramRead,   // controller DRAM access of `bytes`
  kDramWrite,
  kNvramRead,  // controller NVRAM access of `bytes`
  kNvramWrite,
};

// Who asked, and so what the operation is counted as and its priority on a die: host reads,
// host writes, mapping metadata the scheme keeps on flash (translation pages, map segments,
// checkpoints, summaries), and garbage collection (merges and relocations). The NAND model ranks
// them host read > host write = mapping > GC by default (nand.mapping_priority moves mapping).
enum class OpClass : uint8_t { kHostRead = 0, kHostWrite = 1, kMapping = 2, kGc = 3 };
inline constexpr int kOpClasses = 4;

const char* to_string(OpClass op_class);  // "host_read", "host_write", "mapping", "gc"

// The mapping units one program writes, by the class each was written for; the page's other
// slots are padding. What write amplification is counted from (FlashBackend::written()).
struct ProgramUnits {
  uint32_t by_class[kOpClasses] = {};

  static ProgramUnits all(OpClass op_class, uint32_t units) {
    ProgramUnits p;
    p.by_class[static_cast<int>(op_class)] = units;
    return p;
  }
  uint32_t total() const {
    uint32_t sum = 0;
    for (uint32_t n : by_class) sum += n;
    return sum;
  }
};

// Write barriers, as `FlashOp::after` values (the controller model orders them; see
// models/controller/README.md):
// - kAfterAll: the operation waits for every operation issued before it, earlier commands' and
//   this command's;
// - kAfterData: the same except this command's other kAfterData operations, so a sync's map
//   writes wait for the data they name, not for each other.
inline constexpr uint32_t kAfterAll = kNone - 1;
inline constexpr uint32_t kAfterData = kNone - 2;

struct FlashOp {
  OpKind kind;
  OpClass op_class;
  uint32_t die;           // flat die number (geometry.h); unused for memory operations
  uint32_t bytes;         // data moved over the channel or to/from memory
  uint32_t after;         // index of the operation in the same list this one waits for, kNone, or
                          // a barrier (kAfterAll, kAfterData)
  PageId page;            // page (or first page of the block, for erases); for traces and journals
  PageId source = kNone;  // kCopyback: the page copied from (same plane as `page`)
  // Runs behind the command, which completes without waiting for it: a data cache's write-back
  // at its dirty watermark (ftl/cache/data_cache.h). The operation still waits for what `after`
  // names and takes its place on its resources.
  bool background = false;
};

inline bool is_flash_op(OpKind kind) { return kind <= OpKind::kCopyback; }
// A read of the flash: a page (or part of one) or its spare area alone.
inline bool is_flash_read(OpKind kind) {
  return kind == OpKind::kRead || kind == OpKind::kSpareRead;
}

// The operations of one command; reused from command to command so the hot path never allocates.
class OpList {
 public:
  void clear() { m_ops.clear(); }
  uint32_t push(const FlashOp& op) {
    m_ops.push_back(op);
    return static_cast<uint32_t>(m_ops.size() - 1);
  }
  const std::vector<FlashOp>& ops() const { return m_ops; }
  size_t size() const { return m_ops.size(); }
  const FlashOp& operator[](size_t i) const { return m_ops[i]; }

 private:
  std::vector<FlashOp> m_ops;
};

}  // namespace ssd::ftl
