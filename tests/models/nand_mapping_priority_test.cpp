// Where mapping-metadata operations (OpClass::kMapping) rank on a die: by default with host
// writes (FIFO among them, ahead of GC, behind host reads); nand.mapping_priority moves them to
// the host reads' rank or to GC's (then they are placed lazily, as GC is).
#include <gtest/gtest.h>

#include "models/nand/nand_timing.h"

namespace ssd::models {
namespace {

using ftl::FlashOp;
using ftl::OpClass;
using ftl::OpKind;

constexpr uint32_t kPage = 4096;

NandTimingParams params(const std::string& mapping_priority) {
  config::PlatformConfig platform;  // 2 channels x 2 dies, tR 50 us, tPROG 500 us, tBERS 3 ms
  platform.nand.mapping_priority = mapping_priority;
  NandTimingParams p = NandTimingParams::from_config(platform);
  p.pages_per_block = 0;  // the operations below name no blocks: die priority alone
  return p;
}

FlashOp on_die0(OpKind kind, OpClass op_class) {
  return FlashOp{kind, op_class, 0, kind == OpKind::kErase ? 0u : kPage, ftl::kNone, 0};
}

// Die 0 is busy with an erase from time 0; a program of class `first` and then one of class
// `second` queue behind it. Completion times the model returns are not revised when an operation
// is overtaken later, so each test reads the order off the second program's own completion.
struct Timeline {
  NandTiming nand;
  Picoseconds erase_end;
  Picoseconds program;  // die time of one program

  explicit Timeline(const NandTimingParams& p)
      : nand(p),
        erase_end(p.t_command + p.t_erase),
        program(p.t_command + nand.transfer_ps(kPage) + p.t_program) {
    EXPECT_EQ(nand.schedule(on_die0(OpKind::kErase, OpClass::kGc), 0), erase_end);
  }
};

TEST(NandMappingPriority, DefaultRanksWithHostWrites) {
  const NandTimingParams p = params("host_write");
  EXPECT_EQ(p.rank[int(OpClass::kMapping)], p.rank[int(OpClass::kHostWrite)]);
  EXPECT_LT(p.rank[int(OpClass::kMapping)], p.rank[int(OpClass::kGc)]);
  Timeline t(p);
  t.nand.schedule(on_die0(OpKind::kProgram, OpClass::kHostWrite), 1'000);
  // FIFO within the rank: the mapping program waits for the host program queued before it.
  EXPECT_EQ(t.nand.schedule(on_die0(OpKind::kProgram, OpClass::kMapping), 2'000),
            t.erase_end + 2 * t.program);
  // And goes ahead of GC queued before it.
  Timeline g(p);
  g.nand.schedule(on_die0(OpKind::kProgram, OpClass::kGc), 1'000);
  EXPECT_EQ(g.nand.schedule(on_die0(OpKind::kProgram, OpClass::kMapping), 2'000),
            g.erase_end + g.program);
}

TEST(NandMappingPriority, AtTheHostReadsRankItGoesAheadOfHostWrites) {
  Timeline t(params("host_read"));
  t.nand.schedule(on_die0(OpKind::kProgram, OpClass::kHostWrite), 1'000);
  // Queued after the host program, it still runs right after the erase.
  EXPECT_EQ(t.nand.schedule(on_die0(OpKind::kProgram, OpClass::kMapping), 2'000),
            t.erase_end + t.program);
}

TEST(NandMappingPriority, AtGcsRankItIsPlacedLazilyBehindHostWork) {
  Timeline t(params("gc"));
  t.nand.schedule(on_die0(OpKind::kProgram, OpClass::kMapping), 1'000);
  // Queued first, but a host program that comes later takes the die right after the erase.
  EXPECT_EQ(t.nand.schedule(on_die0(OpKind::kProgram, OpClass::kHostWrite), 2'000),
            t.erase_end + t.program);
}

}  // namespace
}  // namespace ssd::models
