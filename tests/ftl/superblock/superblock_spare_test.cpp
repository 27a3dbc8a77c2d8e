// The Superblock FTL's bit-exact spare-area format (ftl/superblock/superblock_spare.h): the
// layout's bit counts for the paper's configuration (figure 2 of the LSB paper's section II.C:
// 64-page blocks, a 64-byte spare of which the DI takes 20 bytes, a 7-entry PBMT of 3-byte PBNs, a
// 4-entry PMD and 16-entry PTs of 3-bit block index + 6-bit page offset) and two others, the
// fields at hand-computed bit positions of the encoded words, the round trip, and the refusals
// of a spare the caller got wrong.
#include "ftl/superblock/superblock_spare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ftl/core/geometry.h"
#include "ftl/core/random.h"
#include "ftl/superblock/superblock_settings.h"

namespace ssd::ftl {
namespace {

// The bits `start` .. `start + width - 1` of the area (bit k = bit k % 32 of word k / 32), read
// without the code under test.
uint32_t field(const std::vector<uint32_t>& words, uint32_t start, uint32_t width) {
  uint32_t value = 0;
  for (uint32_t b = 0; b < width; ++b) {
    value |= ((words[(start + b) / 32] >> ((start + b) % 32)) & 1u) << b;
  }
  return value;
}

Geometry geometry(uint32_t pages_per_block, uint32_t spare_bytes) {
  Geometry g;
  g.channels = 1;
  g.dies_per_channel = 1;
  g.planes_per_die = 1;
  g.blocks_per_plane = 1024;
  g.pages_per_block = pages_per_block;
  g.page_bytes = 2048;
  g.spare_bytes = spare_bytes;
  g.sector_bytes = 512;
  g.unit_bytes = 2048;
  g.units_per_page = 1;
  g.sectors_per_unit = 4;
  g.logical_units = uint64_t(1024) * pages_per_block;
  return g;
}

// The paper's configuration: the settings' defaults on 64-page blocks with a 64-byte spare.
struct PaperLayout {
  SuperblockSettings settings;
  Geometry g = geometry(64, 64);
  SuperblockSpareLayout layout = SuperblockSpareLayout::of(settings, g, 64);
};

TEST(SuperblockSpareLayout, ThePapersConfigurationUses348Of352Bits) {
  PaperLayout p;
  const SuperblockSpareLayout& l = p.layout;
  EXPECT_EQ(l.di_bits, 160u);
  EXPECT_EQ(l.pbmt_entries, 7u);
  EXPECT_EQ(l.pbn_bits, 24u);
  EXPECT_EQ(l.index_bits, 3u);  // the paper's 3-bit block index
  EXPECT_EQ(l.offset_bits, 6u);
  EXPECT_EQ(l.entry_bits(), 9u);
  EXPECT_EQ(l.groups, 4u);
  EXPECT_EQ(l.group_pages, 16u);
  EXPECT_EQ(l.self_index, 7u);  // the paper's block index 7: "this block"
  EXPECT_EQ(l.mapping_bits(), 7u * 24 + 4 * 9 + 16 * 9);
  EXPECT_EQ(l.mapping_bits(), 348u);
  EXPECT_EQ(l.available_bits(), 352u);  // 44 bytes for the mapping information
  EXPECT_EQ(l.spare_words(), 16u);
}

TEST(SuperblockSpareLayout, OtherGeometriesCountTheirOwnBits) {
  {
    // 128-page blocks, 128-byte spare, 16-byte DI, 2-byte PBNs, 16 blocks, 8 groups x 16 pages:
    // PBMT 15 x 16 = 240, entries 4 + 7 = 11 bits, (8 + 16) x 11 = 264: 504 of 1024 - 128 = 896.
    SuperblockSettings s;
    s.di_bytes = 16;
    s.pbn_bytes = 2;
    s.max_physical_blocks = 16;
    s.groups_per_block = 8;
    s.pages_per_group = 16;
    const SuperblockSpareLayout l = SuperblockSpareLayout::of(s, geometry(128, 128), 128);
    EXPECT_EQ(l.index_bits, 4u);
    EXPECT_EQ(l.offset_bits, 7u);
    EXPECT_EQ(l.self_index, 15u);
    EXPECT_EQ(l.mapping_bits(), 504u);
    EXPECT_EQ(l.available_bits(), 896u);
    // The words kept are those the format fills: 128 + 504 bits, 20 of the spare area's 32.
    EXPECT_EQ(l.spare_words(), 20u);
  }
  {
    // 48-page blocks, a 30-byte spare (8 words, the last one half used), 8-byte DI, 1-byte PBNs,
    // 5 blocks (3-bit index), 3 groups x 16 pages, 6-bit offsets: PBMT 4 x 8 = 32, entries of 9
    // bits, (3 + 16) x 9 = 171: 203 bits, more than the 240 - 64 = 176 available.
    SuperblockSettings s;
    s.di_bytes = 8;
    s.pbn_bytes = 1;
    s.max_physical_blocks = 5;
    s.superblock_blocks = 2;
    s.groups_per_block = 3;
    s.pages_per_group = 16;
    const SuperblockSpareLayout l = SuperblockSpareLayout::of(s, geometry(48, 30), 30);
    EXPECT_EQ(l.index_bits, 3u);
    EXPECT_EQ(l.offset_bits, 6u);
    EXPECT_EQ(l.self_index, 4u);
    EXPECT_EQ(l.pbmt_entries, 4u);
    EXPECT_EQ(l.mapping_bits(), 203u);
    EXPECT_EQ(l.available_bits(), 176u);
    // 64 + 203 bits would take 9 words, one more than the spare area has (refused by the
    // scheme's rules, which name the fields: superblock_descriptor_test.cpp).
    EXPECT_EQ(l.spare_words(), 9u);
  }
}

// The hand-built spare of page 20 of block 10 (page 660) holding logical page 357: offset 37 of
// logical block 5, so group 2, offset 5 in its group.
struct HandBuilt : PaperLayout {
  static constexpr BlockId kBlock = 10;
  PageId page = g.first_page(kBlock) + 20;
  SuperblockSpare spare;

  HandBuilt() {
    spare.lpn = 5 * 64 + 37;
    spare.sequence = 0x12345678CAFEF00Dull;
    spare.pbmt = {3, 17, kNone, 42, kNone, kNone, 100};
    spare.pt_page = {
        kNone,                     // group 0: never written
        g.first_page(17) + 63,     // group 1: PBMT entry 1, offset 63
        page,                      // group 2: this page is its group's PT page
        g.first_page(kBlock) + 2,  // group 3: this block, offset 2
    };
    spare.page_of.assign(16, kNone);
    spare.page_of[0] = g.first_page(3);            // PBMT entry 0, offset 0
    spare.page_of[2] = g.first_page(42) + 13;      // PBMT entry 3, offset 13
    spare.page_of[3] = g.first_page(kBlock) + 19;  // this block, offset 19
    spare.page_of[5] = page;                       // this page
    spare.page_of[9] = g.first_page(100) + 63;     // PBMT entry 6, offset 63
    spare.page_of[15] = g.first_page(17) + 1;      // PBMT entry 1, offset 1
  }
  std::vector<uint32_t> encoded(uint32_t fill = 0) const {
    std::vector<uint32_t> words(layout.spare_words(), fill);
    encode_superblock_spare(layout, g, page, spare, words.data());
    return words;
  }
};

TEST(SuperblockSpare, TheFieldsSitAtTheirBitPositions) {
  HandBuilt h;
  const std::vector<uint32_t> words = h.encoded(0xFFFFFFFFu);
  // DI: LPN in word 0, the 64-bit sequence in words 1 (low) and 2 (high), ECC (words 3-4) zero.
  EXPECT_EQ(words[0], 357u);
  EXPECT_EQ(words[1], 0xCAFEF00Du);
  EXPECT_EQ(words[2], 0x12345678u);
  EXPECT_EQ(words[3], 0u);
  EXPECT_EQ(words[4], 0u);
  // PBMT: 7 x 24 bits from bit 160; unused entries all ones.
  const uint32_t expected_pbmt[7] = {3, 17, 0xFFFFFF, 42, 0xFFFFFF, 0xFFFFFF, 100};
  for (uint32_t e = 0; e < 7; ++e) {
    EXPECT_EQ(field(words, 160 + 24 * e, 24), expected_pbmt[e]) << "PBMT entry " << e;
  }
  // Word 5 = bits 160-191: entry 0, then the low 8 bits of entry 1; word 6: entry 1's high 16
  // bits (0), then the low 16 bits of the unused entry 2.
  EXPECT_EQ(words[5], 3u | (17u << 24));
  EXPECT_EQ(words[6], 0xFFFF0000u);
  // PMD from bit 160 + 168 = 328: 4 entries of (3-bit index, 6-bit offset).
  struct Entry {
    uint32_t index, offset;
  };
  const Entry pmd[4] = {{7, 20}, {1, 63}, {7, 20}, {7, 2}};
  for (uint32_t gi = 0; gi < 4; ++gi) {
    EXPECT_EQ(field(words, 328 + 9 * gi, 3), pmd[gi].index) << "PMD entry " << gi;
    EXPECT_EQ(field(words, 331 + 9 * gi, 6), pmd[gi].offset) << "PMD entry " << gi;
  }
  // Word 10 = bits 320-351: PBMT entry 6's high 8 bits (0), PMD 0 at bit 8, PMD 1 at bit 17,
  // PMD 2 at bit 26 whose offset straddles into word 11.
  EXPECT_EQ(words[10],
            (7u << 8) | (20u << 11) | (1u << 17) | (63u << 20) | (7u << 26) | ((20u & 7u) << 29));
  EXPECT_EQ(words[11] & 7u, 20u >> 3);
  // PT from bit 328 + 36 = 364: 16 entries; "never written" is this page (index 7, offset 20).
  std::vector<Entry> pt(16, Entry{7, 20});
  pt[0] = {0, 0};
  pt[2] = {3, 13};
  pt[3] = {7, 19};
  pt[5] = {7, 20};
  pt[9] = {6, 63};
  pt[15] = {1, 1};
  for (uint32_t k = 0; k < 16; ++k) {
    EXPECT_EQ(field(words, 364 + 9 * k, 3), pt[k].index) << "PT entry " << k;
    EXPECT_EQ(field(words, 367 + 9 * k, 6), pt[k].offset) << "PT entry " << k;
  }
  // The layout ends at bit 508: the last four bits of the area are left as they were.
  EXPECT_EQ(field(words, 508, 4), 0xFu);
  EXPECT_EQ(h.encoded(0u)[15] >> 28, 0u);
}

TEST(SuperblockSpare, AHandBuiltSpareRoundTrips) {
  HandBuilt h;
  for (uint32_t fill : {0u, 0xFFFFFFFFu, 0x5A5A5A5Au}) {
    const std::vector<uint32_t> words = h.encoded(fill);
    const SuperblockSpare back = decode_superblock_spare(h.layout, h.g, h.page, words.data());
    EXPECT_EQ(back.lpn, h.spare.lpn);
    EXPECT_EQ(back.sequence, h.spare.sequence);
    EXPECT_EQ(back.pbmt, h.spare.pbmt);
    EXPECT_EQ(back.pt_page, h.spare.pt_page);
    EXPECT_EQ(back.page_of, h.spare.page_of);
  }
}

TEST(SuperblockSpare, AShortPbmtIsPaddedWithUnusedEntries) {
  HandBuilt h;
  h.spare.pbmt = {3, 17, 77, 42};  // entries 4-6 unused
  h.spare.page_of[9] = kNone;      // block 100 is no longer in the PBMT
  const std::vector<uint32_t> words = h.encoded();
  for (uint32_t e = 4; e < 7; ++e) EXPECT_EQ(field(words, 160 + 24 * e, 24), 0xFFFFFFu);
  const SuperblockSpare back = decode_superblock_spare(h.layout, h.g, h.page, words.data());
  EXPECT_EQ(back.pbmt, (std::vector<BlockId>{3, 17, 77, 42, kNone, kNone, kNone}));
  EXPECT_EQ(back.page_of, h.spare.page_of);
}

TEST(SuperblockSpare, ALocationOutsideThisBlockAndThePbmtIsRefused) {
  HandBuilt h;
  std::vector<uint32_t> words(h.layout.spare_words(), 0);
  SuperblockSpare pt = h.spare;
  pt.page_of[7] = h.g.first_page(55) + 4;  // block 55: not in the PBMT
  EXPECT_THROW(encode_superblock_spare(h.layout, h.g, h.page, pt, words.data()), std::logic_error);
  SuperblockSpare pmd = h.spare;
  pmd.pt_page[0] = h.g.first_page(11);  // the next block: not this one, not in the PBMT
  EXPECT_THROW(encode_superblock_spare(h.layout, h.g, h.page, pmd, words.data()), std::logic_error);
}

TEST(SuperblockSpare, APageMustBeItsOwnGroupsPtPageAndItsOwnPtEntry) {
  HandBuilt h;
  std::vector<uint32_t> words(h.layout.spare_words(), 0);
  SuperblockSpare other = h.spare;
  other.pt_page[2] = h.g.first_page(HandBuilt::kBlock) + 2;  // another page of this block
  EXPECT_THROW(encode_superblock_spare(h.layout, h.g, h.page, other, words.data()),
               std::logic_error);
  SuperblockSpare never = h.spare;
  never.pt_page[2] = kNone;
  EXPECT_THROW(encode_superblock_spare(h.layout, h.g, h.page, never, words.data()),
               std::logic_error);
  SuperblockSpare elsewhere = h.spare;
  elsewhere.page_of[5] = h.g.first_page(3) + 8;  // its own PT entry naming another page
  EXPECT_THROW(encode_superblock_spare(h.layout, h.g, h.page, elsewhere, words.data()),
               std::logic_error);
}

TEST(SuperblockSpare, ADecodedIndexPastThePbmtIsAnError) {
  HandBuilt h;
  std::vector<uint32_t> words = h.encoded();
  // PT entry 1 ("never": index 7) made to name PBMT entry 2, which is unused.
  const uint32_t at = 364 + 9 * 1;
  words[at / 32] &= ~(7u << (at % 32));
  words[at / 32] |= 2u << (at % 32);
  ASSERT_EQ(field(words, at, 3), 2u);
  EXPECT_THROW(decode_superblock_spare(h.layout, h.g, h.page, words.data()), std::runtime_error);
}

// Random spares of two geometries: whatever the caller may legally write reads back the same.
void random_round_trips(const SuperblockSettings& s, const Geometry& g, uint64_t seed) {
  const SuperblockSpareLayout l = SuperblockSpareLayout::of(s, g, g.spare_bytes);
  ASSERT_LE(l.mapping_bits() + l.di_bits, g.spare_bytes * 8);
  const uint32_t ppb = g.pages_per_block;
  Random random(seed);
  for (int round = 0; round < 2000; ++round) {
    const BlockId block = static_cast<BlockId>(random.below(g.blocks()));
    const PageId page = g.first_page(block) + static_cast<uint32_t>(random.below(ppb));
    SuperblockSpare spare;
    spare.lpn = static_cast<Lun>(random.below(g.logical_units));
    // 64 bits when the DI has room for them (data_information.h), else the low 32.
    spare.sequence = s.di_bytes >= 12 ? random.next() : static_cast<uint32_t>(random.next());
    // A PBMT of distinct other blocks, some entries unused.
    std::vector<BlockId> used;
    for (uint32_t e = 0; e < l.pbmt_entries; ++e) {
      BlockId b = kNone;
      if (random.below(3) != 0) {
        do {
          b = static_cast<BlockId>(random.below(g.blocks()));
        } while (b == block || std::find(used.begin(), used.end(), b) != used.end());
        used.push_back(b);
      }
      spare.pbmt.push_back(b);
    }
    // A location: kNone, somewhere in this block but not this page, or in a used PBMT block.
    const auto location = [&]() -> PageId {
      const uint64_t kind = random.below(3);
      if (kind == 0) return kNone;
      if (kind == 1 || used.empty()) {
        PageId p;
        do {
          p = g.first_page(block) + static_cast<uint32_t>(random.below(ppb));
        } while (p == page);
        return p;
      }
      return g.first_page(used[random.below(used.size())]) +
             static_cast<uint32_t>(random.below(ppb));
    };
    const uint32_t in_block = spare.lpn % ppb;
    const uint32_t own_group = in_block / l.group_pages;
    const uint32_t own_offset = in_block % l.group_pages;
    for (uint32_t gi = 0; gi < l.groups; ++gi) {
      spare.pt_page.push_back(gi == own_group ? page : location());
    }
    for (uint32_t k = 0; k < l.group_pages; ++k) {
      spare.page_of.push_back(k == own_offset ? page : location());
    }
    std::vector<uint32_t> words(l.spare_words(), static_cast<uint32_t>(random.next()));
    encode_superblock_spare(l, g, page, spare, words.data());
    const SuperblockSpare back = decode_superblock_spare(l, g, page, words.data());
    ASSERT_EQ(back.lpn, spare.lpn) << "round " << round;
    ASSERT_EQ(back.sequence, spare.sequence) << "round " << round;
    ASSERT_EQ(back.pbmt, spare.pbmt) << "round " << round;
    ASSERT_EQ(back.pt_page, spare.pt_page) << "round " << round;
    ASSERT_EQ(back.page_of, spare.page_of) << "round " << round;
  }
}

TEST(SuperblockSpare, RandomSparesRoundTripInThePapersLayout) {
  PaperLayout p;
  random_round_trips(p.settings, p.g, 11);
}

TEST(SuperblockSpare, RandomSparesRoundTripInAWiderLayout) {
  SuperblockSettings s;
  s.di_bytes = 16;
  s.pbn_bytes = 2;
  s.max_physical_blocks = 16;
  s.groups_per_block = 8;
  s.pages_per_group = 16;
  random_round_trips(s, geometry(128, 128), 12);
}

}  // namespace
}  // namespace ssd::ftl
