// The spare-area bit packing (ftl/core/spare_bits.h) the bit-exact spare formats are built on:
// bit k of the area is bit k % 32 of word k / 32, fields of 1 to 32 bits straddle words and read
// back as written, a value wider than its field or a field past the area's end is refused, and
// bits_for() gives the fewest bits that tell n values apart.
#include "ftl/core/spare_bits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ftl/core/random.h"

namespace ssd::ftl {
namespace {

// Bit `k` of the area, read independently of SpareBitReader.
uint32_t bit(const std::vector<uint32_t>& words, uint32_t k) {
  return (words[k / 32] >> (k % 32)) & 1u;
}

uint32_t mask_of(uint32_t width) { return width == 32 ? ~0u : (1u << width) - 1; }

TEST(SpareBits, FieldsOfEveryWidthRoundTripAcrossWordBoundaries) {
  // Widths 1..32, then 32..1: every field start modulo 32 is met and many fields straddle two
  // words. Values: all ones, a one at the top only, and random values of the width.
  Random random(7);
  for (int pattern = 0; pattern < 3; ++pattern) {
    std::vector<std::pair<uint32_t, uint32_t>> fields;  // (value, width)
    for (uint32_t w = 1; w <= 32; ++w) fields.push_back({0, w});
    for (uint32_t w = 32; w >= 1; --w) fields.push_back({0, w});
    uint32_t total = 0;
    for (auto& [value, width] : fields) {
      value = pattern == 0   ? mask_of(width)
              : pattern == 1 ? 1u << (width - 1)
                             : static_cast<uint32_t>(random.below(uint64_t{1} << width));
      total += width;
    }
    ASSERT_EQ(total, 2u * 528);                                // 33 words
    std::vector<uint32_t> words(33, pattern == 1 ? ~0u : 0u);  // fields overwrite what was there
    SpareBitWriter out(words.data(), 33);
    uint32_t expected_position = 0;
    for (const auto& [value, width] : fields) {
      out.put(value, width);
      expected_position += width;
      ASSERT_EQ(out.position(), expected_position);
    }
    SpareBitReader in(words.data(), 33);
    uint32_t start = 0;
    for (const auto& [value, width] : fields) {
      // The field's bits sit at start .. start + width - 1, least significant first.
      for (uint32_t b = 0; b < width; ++b) {
        ASSERT_EQ(bit(words, start + b), (value >> b) & 1u)
            << "pattern " << pattern << " width " << width << " bit " << b;
      }
      ASSERT_EQ(in.get(width), value) << "pattern " << pattern << " width " << width;
      start += width;
      ASSERT_EQ(in.position(), start);
    }
  }
}

TEST(SpareBits, BitKIsBitKMod32OfWordKDiv32) {
  std::vector<uint32_t> words(3, 0);
  SpareBitWriter out(words.data(), 3);
  out.put(0x5, 3);          // bits 0-2: 101
  out.put(0, 5);            // bits 3-7
  out.put(0xAB, 8);         // bits 8-15
  out.put(0x3FFF, 14);      // bits 16-29
  out.put(0x1D, 5);         // bits 30-34: straddles words 0 and 1 (low 2 bits 01, high 3 bits 111)
  out.put(0xDEADBEEF, 32);  // bits 35-66: straddles words 1 and 2
  EXPECT_EQ(out.position(), 67u);
  EXPECT_EQ(words[0], 0x5u | (0xABu << 8) | (0x3FFFu << 16) | (0x1u << 30));
  EXPECT_EQ(words[1], 0x7u | (0xDEADBEEFu << 3));
  EXPECT_EQ(words[2], 0xDEADBEEFu >> 29);
}

TEST(SpareBits, WritingAFieldLeavesTheOtherBitsOfItsWordsAsTheyWere) {
  std::vector<uint32_t> words = {0xFFFFFFFFu, 0xFFFFFFFFu};
  SpareBitWriter out(words.data(), 2);
  out.skip(28);
  out.put(0, 8);  // bits 28-35
  EXPECT_EQ(words[0], 0x0FFFFFFFu);
  EXPECT_EQ(words[1], 0xFFFFFFF0u);
  SpareBitReader in(words.data(), 2);
  in.skip(24);
  EXPECT_EQ(in.get(16), 0xF00Fu);  // bits 24-39
}

// A zero-width field at the end of a full area touches no word: the area is sized to its words
// (a heap vector, so the sanitizer build catches a word read or written one past them).
TEST(SpareBits, AZeroWidthFieldAtTheEndTouchesNothing) {
  std::vector<uint32_t> words(1, 0);
  SpareBitWriter out(words.data(), 1);
  out.put(0xFFFFFFFFu, 32);
  EXPECT_NO_THROW(out.put(0, 0));
  EXPECT_EQ(out.position(), 32u);
  SpareBitReader in(words.data(), 1);
  EXPECT_EQ(in.get(32), 0xFFFFFFFFu);
  EXPECT_EQ(in.get(0), 0u);
  EXPECT_EQ(in.position(), 32u);
}

TEST(SpareBits, AValueTooWideForItsFieldIsRefused) {
  std::vector<uint32_t> words(2, 0);
  SpareBitWriter out(words.data(), 2);
  EXPECT_THROW(out.put(2, 1), std::logic_error);
  EXPECT_THROW(out.put(8, 3), std::logic_error);
  EXPECT_THROW(out.put(0x80000000u, 31), std::logic_error);
  EXPECT_THROW(out.put(0, 33), std::logic_error);
  EXPECT_EQ(out.position(), 0u);  // nothing written
  EXPECT_EQ(words[0], 0u);
  EXPECT_NO_THROW(out.put(7, 3));
  EXPECT_NO_THROW(out.put(0xFFFFFFFFu, 32));
}

TEST(SpareBits, WritingOrReadingPastTheAreaIsRefused) {
  std::vector<uint32_t> words(2, 0);
  SpareBitWriter out(words.data(), 2);
  out.put(0, 32);
  out.put(0, 31);
  EXPECT_THROW(out.put(0, 2), std::logic_error);  // 65 bits in a 64-bit area
  EXPECT_NO_THROW(out.put(1, 1));                 // exactly full
  EXPECT_THROW(out.put(0, 1), std::logic_error);

  SpareBitReader in(words.data(), 2);
  EXPECT_EQ(in.get(32), 0u);
  EXPECT_EQ(in.get(31), 0u);
  EXPECT_THROW(in.get(2), std::logic_error);
  EXPECT_EQ(in.get(1), 1u);
  EXPECT_THROW(in.get(1), std::logic_error);
  SpareBitReader wide(words.data(), 2);
  EXPECT_THROW(wide.get(33), std::logic_error);
}

TEST(SpareBits, BitsForCountsTheFewestBitsThatTellTheValuesApart) {
  EXPECT_EQ(bits_for(1), 1u);
  EXPECT_EQ(bits_for(2), 1u);
  EXPECT_EQ(bits_for(3), 2u);
  EXPECT_EQ(bits_for(4), 2u);
  EXPECT_EQ(bits_for(5), 3u);
  EXPECT_EQ(bits_for(8), 3u);
  EXPECT_EQ(bits_for(9), 4u);
  EXPECT_EQ(bits_for(64), 6u);
  EXPECT_EQ(bits_for(65), 7u);
  EXPECT_EQ(bits_for(256), 8u);
  EXPECT_EQ(bits_for(uint64_t{1} << 32), 32u);
  EXPECT_EQ(bits_for((uint64_t{1} << 32) + 1), 33u);
}

}  // namespace
}  // namespace ssd::ftl
