// Round NAND timings shared by the NandTiming tests, so the expected times there are easy to
// check by hand: tR 50 us, spare tR 20 us, tPROG 500 us, tBERS 3 ms, 10 ns of command cycles and
// 1 byte per ns on the channel.
#pragma once

#include <cstdint>

#include "ftl/core/flash_op.h"
#include "models/nand/nand_timing.h"

namespace ssd::models::test {

constexpr uint32_t kPage = 4096;
constexpr uint32_t kSpare = 128;
constexpr Picoseconds kCmd = 10'000;
constexpr Picoseconds kRead = 50'000'000;
constexpr Picoseconds kSpareRead = 20'000'000;
constexpr Picoseconds kProg = 500'000'000;
constexpr Picoseconds kErase = 3'000'000'000;
constexpr Picoseconds kXfer = kPage * 1000;  // one page over the channel

// `channels` channels and `dies` dies with the timings above; no per-block order (the caller
// sets pages_per_block and blocks for that).
inline NandTimingParams round_timings(uint32_t channels, uint32_t dies) {
  NandTimingParams p;
  p.channels = channels;
  p.dies = dies;
  p.t_read = kRead;
  p.t_spare_read = kSpareRead;
  p.t_program = kProg;
  p.t_erase = kErase;
  p.t_command = kCmd;
  p.ps_per_byte = 1000.0;
  return p;
}

// A page read, spare-area read, program or erase of `page` on `die` (an erase moves no data, the
// others a page).
inline ftl::FlashOp on_page(ftl::OpKind kind, ftl::OpClass op_class, uint32_t die,
                            ftl::PageId page) {
  const uint32_t bytes = kind == ftl::OpKind::kErase ? 0 : kPage;
  return ftl::FlashOp{kind, op_class, die, bytes, ftl::kNone, page};
}

}  // namespace ssd::models::test
