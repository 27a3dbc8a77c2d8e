// Keys and canonical extents (sec. 2.2, Definition 1, Lemma 5.4) and the binary-search path on
// levels (sec. 3.2).
#include <gtest/gtest.h>

#include "ftl/extent/vet/canonical_extent.h"
#include "ftl/extent/vet/vet_hash.h"
#include "tests/ftl/extent/vet/vet_test_support.h"

namespace ssd::ftl {
namespace {

using vet_test::key_of;

TEST(VetKey, EncodesPrefixAndLevel) {
  // <8, 4> in an 8-bit universe is 000010** (sec. 2.2): prefix 000010 = 2, level 2.
  EXPECT_EQ(vet_key(8, 2), (uint64_t{2} << 6) | 2);
  EXPECT_EQ(vet_key_string(vet_key(8, 2), 8), "000010**");
  EXPECT_EQ(key_of("000010**"), vet_key(8, 2));
  EXPECT_EQ(vet_key_start(vet_key(8, 2)), 8u);
  EXPECT_EQ(vet_key_units(vet_key(8, 2)), 4u);
  EXPECT_EQ(vet_key_end(vet_key(8, 2)), 12u);
  // The root and a single unit.
  EXPECT_EQ(vet_key_string(vet_key(0, 8), 8), "********");
  EXPECT_EQ(vet_key(0, 8), 8u);
  EXPECT_EQ(vet_key_string(vet_key(204, 0), 8), "11001100");
  // Any unit of a run gives the run's key.
  EXPECT_EQ(vet_key(11, 2), vet_key(8, 2));
}

TEST(VetKey, UniverseBits) {
  EXPECT_EQ(vet_universe_bits(1), 1u);
  EXPECT_EQ(vet_universe_bits(2), 1u);
  EXPECT_EQ(vet_universe_bits(3), 2u);
  EXPECT_EQ(vet_universe_bits(256), 8u);
  EXPECT_EQ(vet_universe_bits(257), 9u);
  EXPECT_EQ(vet_universe_bits(uint64_t{1} << 32), 32u);
  EXPECT_EQ(vet_bits_for(8), 4u);
  EXPECT_EQ(vet_bits_for(32), 6u);
  EXPECT_EQ(vet_bits_for(0), 1u);
}

TEST(VetCanonical, PaperExtents) {
  // Fig. 2's inputs, reasoned from the 8-bit strings: e1 = <0, 144> = {0*******, 1000****},
  // e2 = <200, 16> = {11001***, 11010***}, e3 = <224, 32> = {111*****}.
  auto strings = [](uint64_t s, uint64_t l) {
    std::vector<std::string> out;
    for (const CanonicalExtent& c : canonical_extents(s, l))
      out.push_back(vet_key_string(c.key(), 8));
    return out;
  };
  EXPECT_EQ(strings(0, 144), (std::vector<std::string>{"0*******", "1000****"}));
  EXPECT_EQ(strings(200, 16), (std::vector<std::string>{"11001***", "11010***"}));
  EXPECT_EQ(strings(224, 32), (std::vector<std::string>{"111*****"}));
  // Fig. 3: what is left of e2 once e4 = <200, 2> overwrites its start.
  EXPECT_EQ(strings(202, 14), (std::vector<std::string>{"1100101*", "110011**", "11010***"}));
  EXPECT_EQ(strings(8, 4), (std::vector<std::string>{"000010**"}));
  EXPECT_EQ(strings(0, 256), (std::vector<std::string>{"********"}));
}

TEST(VetCanonical, MaximalPiecesAtMostTwoPerLevel) {
  Random rng(7);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t bits = 1 + rng.below(20);
    const uint64_t universe = uint64_t{1} << bits;
    const uint64_t length = 1 + rng.below(universe);
    const uint64_t start = rng.below(universe - length + 1);
    const auto pieces = canonical_extents(start, length);
    uint64_t at = start;
    std::vector<int> per_level(64, 0);
    for (size_t k = 0; k < pieces.size(); ++k) {
      const CanonicalExtent& c = pieces[k];
      ASSERT_EQ(c.start, at);
      ASSERT_EQ(c.start % c.units(), 0u) << "Definition 1: aligned";
      ++per_level[c.level];
      at = c.end();
      // Maximal: the piece doubled would be misaligned or leave the extent.
      const uint64_t twice = c.units() * 2;
      const uint64_t parent = c.start & ~(twice - 1);
      ASSERT_TRUE(parent < start || parent + twice > start + length);
    }
    ASSERT_EQ(at, start + length);
    for (int n : per_level) ASSERT_LE(n, 2) << "Lemma 5.4";
    ASSERT_LE(pieces.size(), 2 * bits);
  }
}

TEST(VetSearchPath, EightBitUniverse) {
  // Fig. 5: over depths 0..8 the search probes 4 first; a leaf at depth 5 (11001***) is reached
  // through 4, 6, 5.
  EXPECT_EQ(vet_search_path(5, 8), (std::vector<uint32_t>{4, 6, 5}));
  EXPECT_EQ(vet_search_path(4, 8), (std::vector<uint32_t>{4}));
  EXPECT_EQ(vet_search_path(0, 8), (std::vector<uint32_t>{4, 1, 0}));
  EXPECT_EQ(vet_search_path(3, 8), (std::vector<uint32_t>{4, 1, 2, 3}));
  EXPECT_EQ(vet_search_path(8, 8), (std::vector<uint32_t>{4, 6, 7, 8}));
  for (uint32_t bits = 1; bits <= 58; ++bits) {
    for (uint32_t d = 0; d <= bits; ++d) {
      const auto path = vet_search_path(d, bits);
      ASSERT_EQ(path.back(), d);
      // O(log log U): at most ceil(log2(bits + 2)) probes.
      uint32_t bound = 0;
      while ((1u << bound) < bits + 2) ++bound;
      ASSERT_LE(path.size(), bound);
    }
  }
}

TEST(VetHashFunction, MultipliersOddAndDistinct) {
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(vet_hash_multiplier(i) & 1, 1u);
    for (uint32_t j = 0; j < i; ++j) EXPECT_NE(vet_hash_multiplier(i), vet_hash_multiplier(j));
  }
  EXPECT_EQ(vet_hash(0x1234), static_cast<uint32_t>((0x1234 * 0x9e3779b97f4a7c15ull) >> 32));
}

}  // namespace
}  // namespace ssd::ftl
