#include "ftl/core/unit_span.h"

#include <gtest/gtest.h>

namespace ssd::ftl {
namespace {

TEST(UnitSpan, WholeUnitsHaveFullMasks) {
  const UnitSpan span = unit_span(16, 32, 8);
  EXPECT_EQ(span.first, 2u);
  EXPECT_EQ(span.count, 4u);
  for (uint32_t i = 0; i < span.count; ++i) EXPECT_EQ(span.mask_of(i), 0xffu);
}

TEST(UnitSpan, PartialHeadAndTail) {
  const UnitSpan span = unit_span(5, 6, 8);  // sectors 5..10: units 0 and 1
  EXPECT_EQ(span.first, 0u);
  EXPECT_EQ(span.count, 2u);
  EXPECT_EQ(span.head_mask, 0b11100000u);
  EXPECT_EQ(span.tail_mask, 0b00000111u);
}

TEST(UnitSpan, InsideOneUnit) {
  const UnitSpan span = unit_span(10, 2, 8);
  EXPECT_EQ(span.first, 1u);
  EXPECT_EQ(span.count, 1u);
  EXPECT_EQ(span.mask_of(0), 0b00001100u);
}

TEST(UnitSpan, ThirtyTwoSectorUnits) {
  const UnitSpan span = unit_span(0, 64, 32);
  EXPECT_EQ(span.count, 2u);
  EXPECT_EQ(span.full_mask, 0xffffffffu);
  EXPECT_EQ(span.mask_of(1), 0xffffffffu);
}

TEST(UnitSpan, SixtyFourSectorUnits) {  // 32 KiB pages of 512-byte sectors
  const UnitSpan whole = unit_span(64, 128, 64);
  EXPECT_EQ(whole.count, 2u);
  EXPECT_EQ(whole.full_mask, ~uint64_t{0});
  EXPECT_EQ(whole.mask_of(0), ~uint64_t{0});
  const UnitSpan high = unit_span(64 + 40, 30, 64);  // sectors 40..63 of unit 1, 0..5 of unit 2
  EXPECT_EQ(high.first, 1u);
  EXPECT_EQ(high.head_mask, ((uint64_t{1} << 24) - 1) << 40);
  EXPECT_EQ(high.tail_mask, 0x3fu);
}

TEST(UnitSpan, EmptyRange) { EXPECT_EQ(unit_span(7, 0, 8).count, 0u); }

}  // namespace
}  // namespace ssd::ftl
