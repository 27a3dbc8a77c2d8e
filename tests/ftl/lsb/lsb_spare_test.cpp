// The LSB FTL's spare-area formats (ftl/lsb/lsb_spare.h): equations (1) and (2) of
// shared/papers/lsb-large-superblock-ftl.md against hand-computed bit counts, and the PT-page and
// PMD-page formats encoded bit-exactly and read back.
#include "ftl/lsb/lsb_spare.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "ftl/core/spare_bits.h"

namespace ssd::ftl {
namespace {

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
  g.logical_units = 1000 * pages_per_block;
  return g;
}

// The paper's K9F1G16U0M example: 64-page blocks, a 64-byte spare with 20 bytes of DI, N = G = 8
// and 3-byte PBNs: a PMD page needs 345 bits, a PT page 241, and 352 are available.
TEST(LsbSpareLayout, ThePapersExampleNeeds345And241Of352Bits) {
  const LsbSpareLayout l = LsbSpareLayout::of(8, 8, 64, 64, 20, 3);
  EXPECT_EQ(l.alpha, 3u);
  EXPECT_EQ(l.beta, 6u);
  EXPECT_EQ(l.gamma, 3u);
  EXPECT_EQ(l.delta, 4u);  // ceil(log2 9)
  EXPECT_EQ(l.pt_page_bits(), 7u * 24 + 8 * 9 + 1);
  EXPECT_EQ(l.pt_page_bits(), 241u);
  EXPECT_EQ(l.pmd_page_bits(), 8u * 24 + 8 * 10 + 8 * 9 + 1);
  EXPECT_EQ(l.pmd_page_bits(), 345u);
  EXPECT_EQ(l.available_bits(), 352u);
  EXPECT_TRUE(l.fits());
}

TEST(LsbSpareLayout, EquationsOneAndTwoOnOtherGeometries) {
  // N = 4, G = 16: alpha 4, gamma 2, delta 3. PT: 15 x 24 + 16 x 10 + 1 = 521 > 352.
  const LsbSpareLayout wide = LsbSpareLayout::of(4, 16, 64, 64, 20, 3);
  EXPECT_EQ(wide.pt_page_bits(), 521u);
  EXPECT_EQ(wide.pmd_page_bits(), 4u * 24 + 16 * 9 + 4 * 8 + 1);  // 273
  EXPECT_FALSE(wide.fits());
  // N = 16, G = 4 on a 128-byte spare: alpha 2, gamma 4, delta 5 (ceil(log2 17)).
  const LsbSpareLayout tall = LsbSpareLayout::of(16, 4, 64, 128, 20, 3);
  EXPECT_EQ(tall.delta, 5u);
  EXPECT_EQ(tall.pt_page_bits(), 3u * 24 + 4 * 8 + 1);               // 105
  EXPECT_EQ(tall.pmd_page_bits(), 16u * 24 + 4 * 11 + 16 * 10 + 1);  // 589
  EXPECT_EQ(tall.available_bits(), 864u);
  EXPECT_TRUE(tall.fits());
  // 128-page blocks, N = G = 16, 2-byte PBNs, 16-byte DI on a 128-byte spare: beta 7.
  const LsbSpareLayout big = LsbSpareLayout::of(16, 16, 128, 128, 16, 2);
  EXPECT_EQ(big.pt_page_bits(), 15u * 16 + 16 * 11 + 1);             // 417
  EXPECT_EQ(big.pmd_page_bits(), 16u * 16 + 16 * 12 + 16 * 11 + 1);  // 625
  EXPECT_EQ(big.available_bits(), 896u);
  EXPECT_TRUE(big.fits());
}

// Page 13 of block 40 (page 40 x 64 + 13) holds logical page 3 x 64 + 21: group 2, offset 5.
constexpr PageId kBlock = 40;
constexpr PageId kPage = kBlock * 64 + 13;
constexpr Lun kLpn = 3 * 64 + 21;

TEST(LsbSpare, APtPageRoundTripsAndSitsWhereTheFormatSays) {
  const Geometry g = geometry(64, 64);
  const LsbSpareLayout l = LsbSpareLayout::of(8, 8, 64, 64, 20, 3);
  LsbSpare s;
  s.lpn = kLpn;
  s.sequence = uint64_t{3} << 32 | 77;  // 64 bits: the DI has room (data_information.h)
  s.pmd = false;
  s.pbmt = {7, 9};  // two of G - 1 = 7 entries
  s.pte.assign(8, kNone);
  s.pte[5] = kPage;            // itself
  s.pte[0] = 7 * 64 + 2;       // PBMT entry 0
  s.pte[1] = 9 * 64 + 63;      // PBMT entry 1
  s.pte[2] = kBlock * 64 + 4;  // this block
  std::vector<uint32_t> words(l.spare_words(), 0);
  encode_lsb_spare(l, g, kPage, s, words.data());
  EXPECT_EQ(words[0], kLpn);
  EXPECT_EQ(words[1], 77u);  // the sequence's low word, then its high word
  EXPECT_EQ(words[2], 3u);
  EXPECT_FALSE(lsb_pmd_flag(l, words.data()));
  SpareBitReader in(words.data(), l.spare_words());
  in.skip(160);
  EXPECT_EQ(in.get(1), 0u);  // flag: a PT page
  EXPECT_EQ(in.get(24), 7u);
  EXPECT_EQ(in.get(24), 9u);
  for (int e = 2; e < 7; ++e) EXPECT_EQ(in.get(24), 0xFFFFFFu) << e;  // unused
  EXPECT_EQ(in.get(3), 0u);                                           // PTE 0: entry 0,
  EXPECT_EQ(in.get(6), 2u);                                           //        page 2
  EXPECT_EQ(in.get(3), 1u);                                           // PTE 1: entry 1,
  EXPECT_EQ(in.get(6), 63u);                                          //        page 63
  EXPECT_EQ(in.get(3), 7u);                                           // PTE 2: this block (G - 1),
  EXPECT_EQ(in.get(6), 4u);                                           //        page 4
  EXPECT_EQ(in.get(3), 7u);  // PTE 3: never written = this very page
  EXPECT_EQ(in.get(6), 13u);
  EXPECT_EQ(in.position(), 160u + 1 + 7 * 24 + 4 * 9);
  const LsbSpare back = decode_lsb_spare(l, g, kPage, words.data());
  EXPECT_FALSE(back.pmd);
  EXPECT_EQ(back.lpn, kLpn);
  EXPECT_EQ(back.sequence, uint64_t{3} << 32 | 77);
  EXPECT_EQ(back.pbmt, (std::vector<BlockId>{7, 9, kNone, kNone, kNone, kNone, kNone}));
  EXPECT_EQ(back.pte, s.pte);
  EXPECT_TRUE(back.pde.empty());
}

TEST(LsbSpare, APmdPageRoundTripsWithItsPdes) {
  const Geometry g = geometry(64, 64);
  const LsbSpareLayout l = LsbSpareLayout::of(8, 8, 64, 64, 20, 3);
  LsbSpare s;
  s.lpn = kLpn;
  s.sequence = 5;
  s.pmd = true;
  s.pbmt = {11, 12, 13, 14, 15, 16, 17, 18};  // all N = 8 entries
  s.pte.assign(8, kNone);
  s.pte[5] = kPage;
  s.pte[6] = 18 * 64 + 1;  // PBMT entry 7: a PTE may use all N entries
  s.pde.assign(8, kNone);
  s.pde[0] = 11 * 64 + 30;      // a PDE: only the first N - 1 entries
  s.pde[7] = kBlock * 64 + 12;  // this block
  std::vector<uint32_t> words(l.spare_words(), 0);
  encode_lsb_spare(l, g, kPage, s, words.data());
  SpareBitReader in(words.data(), l.spare_words());
  in.skip(160);
  EXPECT_EQ(in.get(1), 1u);  // flag: a PMD page
  EXPECT_TRUE(lsb_pmd_flag(l, words.data()));
  in.skip(8 * 24 + 8 * (4 + 6));
  EXPECT_EQ(in.get(3), 0u);  // PDE 0: entry 0,
  EXPECT_EQ(in.get(6), 30u);
  EXPECT_EQ(in.position(), 160u + 1 + 8 * 24 + 8 * 10 + 9);
  const LsbSpare back = decode_lsb_spare(l, g, kPage, words.data());
  EXPECT_TRUE(back.pmd);
  EXPECT_EQ(back.pte, s.pte);
  std::vector<PageId> pde = s.pde;
  pde[2] = kPage;  // its own group's PDE names the page itself
  EXPECT_EQ(back.pde, pde);
  EXPECT_LE(in.position() + 7 * 9, 160u + 352);  // 345 bits of mapping in all
}

TEST(LsbSpare, LocationsThePbmtCannotNameAreRefused) {
  const Geometry g = geometry(64, 64);
  const LsbSpareLayout l = LsbSpareLayout::of(8, 8, 64, 64, 20, 3);
  std::vector<uint32_t> words(l.spare_words(), 0);
  LsbSpare pt;
  pt.lpn = kLpn;
  pt.pbmt = {7};
  pt.pte.assign(8, kNone);
  pt.pte[5] = kPage;
  pt.pte[0] = 99 * 64;  // a block not in the PBMT
  EXPECT_THROW(encode_lsb_spare(l, g, kPage, pt, words.data()), std::logic_error);
  pt.pte[0] = kNone;
  pt.pbmt.assign(8, 1);  // more than G - 1 entries
  EXPECT_THROW(encode_lsb_spare(l, g, kPage, pt, words.data()), std::logic_error);
  LsbSpare pmd;
  pmd.lpn = kLpn;
  pmd.pmd = true;
  pmd.pbmt = {11, 12, 13, 14, 15, 16, 17, 18};
  pmd.pte.assign(8, kNone);
  pmd.pte[5] = kPage;
  pmd.pde.assign(8, kNone);
  pmd.pde[0] = 18 * 64;  // PBMT entry 7: past what a PDE's gamma bits index
  EXPECT_THROW(encode_lsb_spare(l, g, kPage, pmd, words.data()), std::logic_error);
  pmd.pde[0] = kNone;
  pmd.pte[5] = kNone;  // its own PTE must name itself
  EXPECT_THROW(encode_lsb_spare(l, g, kPage, pmd, words.data()), std::logic_error);
}

}  // namespace
}  // namespace ssd::ftl
