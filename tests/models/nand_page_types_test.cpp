// Per-page-type array times of MLC/TLC parts (nand.t_read_us and nand.t_program_us as lists,
// nand.page_type_order): each page is read and programmed in its own type's time.
#include <gtest/gtest.h>

#include "models/nand/nand_timing.h"
#include "tests/models/nand_test_timings.h"

namespace ssd::models {
namespace {

using namespace test;  // the round timings
using ftl::FlashOp;
using ftl::OpClass;
using ftl::OpKind;

constexpr Picoseconds kMsbRead = 100'000'000;    // 100 us
constexpr Picoseconds kMsbProg = 1'500'000'000;  // 1.5 ms

// One die, blocks of four pages, an MLC part: LSB pages take the round timings, MSB pages the
// slower ones above.
NandTimingParams mlc(std::vector<uint8_t> order = {}) {
  NandTimingParams p = round_timings(1, 1);
  p.pages_per_block = 4;
  p.blocks = 4;
  p.t_read_by_type = {kRead, kMsbRead};
  p.t_program_by_type = {kProg, kMsbProg};
  p.page_type_order = std::move(order);
  return p;
}

FlashOp on_page(OpKind kind, ftl::PageId page) {
  const OpClass op_class = kind == OpKind::kRead ? OpClass::kHostRead : OpClass::kHostWrite;
  return FlashOp{kind, op_class, 0, kPage, ftl::kNone, page};
}

// Each page alone on an idle die: its program, then its read once the program is done.
Picoseconds program_time(const NandTimingParams& p, ftl::PageId page) {
  NandTiming nand(p);
  return nand.schedule(on_page(OpKind::kProgram, page), 0);
}
Picoseconds read_time(const NandTimingParams& p, ftl::PageId page) {
  NandTiming nand(p);
  return nand.schedule(on_page(OpKind::kRead, page), 0);
}

TEST(NandPageTypes, AlternateByDefaultAsInMqsim) {
  const NandTimingParams p = mlc();
  for (ftl::PageId page : {0, 2, 4, 6}) {  // LSB: even pages, in every block
    EXPECT_EQ(program_time(p, page), kCmd + kXfer + kProg) << page;
    EXPECT_EQ(read_time(p, page), kCmd + kRead + kXfer) << page;
  }
  for (ftl::PageId page : {1, 3, 5, 7}) {  // MSB: odd pages
    EXPECT_EQ(program_time(p, page), kCmd + kXfer + kMsbProg) << page;
    EXPECT_EQ(read_time(p, page), kCmd + kMsbRead + kXfer) << page;
  }
}

TEST(NandPageTypes, FollowThePartsOrderWithinEachBlock) {
  // Two LSB pages, then two MSB pages, in every block of four.
  const NandTimingParams p = mlc({0, 0, 1, 1});
  const Picoseconds lsb = kCmd + kXfer + kProg;
  const Picoseconds msb = kCmd + kXfer + kMsbProg;
  const Picoseconds expected[] = {lsb, lsb, msb, msb, lsb, lsb, msb, msb};
  for (ftl::PageId page = 0; page < 8; ++page) {
    EXPECT_EQ(program_time(p, page), expected[page]) << page;
  }
}

TEST(NandPageTypes, SpareReadsAndErasesDoNotDependOnThePage) {
  const NandTimingParams p = mlc();
  NandTiming nand(p);
  EXPECT_EQ(
      nand.schedule(FlashOp{OpKind::kSpareRead, OpClass::kHostRead, 0, kSpare, ftl::kNone, 1}, 0),
      kCmd + kSpareRead + kSpare * 1000);
  NandTiming other(p);
  EXPECT_EQ(other.schedule(FlashOp{OpKind::kErase, OpClass::kHostWrite, 0, 0, ftl::kNone, 4}, 0),
            kCmd + kErase);
}

TEST(NandPageTypes, ParamsFromConfigGiveOneTimePerType) {
  config::PlatformConfig cfg;
  cfg.nand.pages_per_block = 6;
  cfg.nand.t_read_us = {40, 60, 90};  // TLC: LSB, CSB, MSB
  cfg.nand.t_program_us = {400};      // one value for every type
  cfg.nand.page_type_order = {0, 1, 2, 2, 1, 0};
  const NandTimingParams p = NandTimingParams::from_config(cfg);
  EXPECT_EQ(p.t_read, 40'000'000u);
  EXPECT_EQ(p.t_read_by_type, (std::vector<Picoseconds>{40'000'000, 60'000'000, 90'000'000}));
  EXPECT_EQ(p.t_program_by_type, (std::vector<Picoseconds>(3, 400'000'000)));
  EXPECT_EQ(p.page_type_order, (std::vector<uint8_t>{0, 1, 2, 2, 1, 0}));
  NandTiming nand(p);
  EXPECT_EQ(nand.schedule(on_page(OpKind::kRead, 3), 0),
            p.t_command + 90'000'000 + nand.transfer_ps(kPage));

  // One type: no per-type tables, every page at the single time.
  const NandTimingParams single = NandTimingParams::from_config(config::PlatformConfig{});
  EXPECT_TRUE(single.t_read_by_type.empty());
  EXPECT_TRUE(single.page_type_order.empty());
}

}  // namespace
}  // namespace ssd::models
