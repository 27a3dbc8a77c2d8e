// The paper's worked examples (sec. 2.2, 3.1-3.3, Figs. 2-6) in its 8-bit universe
// (logical_units = 256), with the exact node sets. The figures are not in the text we have, so
// each expected set is derived by hand from the algorithm's definition; the derivation is in the
// comment above each test.
//
// Inputs, reasoned from the 8-bit strings of sec. 2.2 (the PDF conversion garbles the number of
// '*', the 8-character strings are intact): e1 = {0*******, 1000****} = <0, 144>,
// e2 = {11001***, 11010***} = <200, 16>, e3 = {111*****} = <224, 32>; Fig. 3's e4 = 1100100* =
// <200, 2>; Fig. 4's e6 = 11****** = <192, 64>.
#include <gtest/gtest.h>

#include "tests/ftl/extent/vet/vet_test_support.h"

namespace ssd::ftl {
namespace {

using vet_test::key_of;
using vet_test::node_strings;
using Nodes = std::map<std::string, std::string>;

const ExtentSpace kSpace{256, 4096};
const Extent kE1{0, 144, 1000};
const Extent kE2{200, 16, 2000};
const Extent kE3{224, 32, 3000};
const Extent kE4{200, 2, 4000};
const Extent kE6{192, 64, 6000};

// Every layout and table gives the same node set; the figures are run on all four.
class VetFigures : public ::testing::TestWithParam<std::pair<VetLayout, VetHash>> {
 protected:
  VetMap make(VetInsertion insertion) {
    return VetMap(kSpace, VetOptions{insertion, GetParam().first, GetParam().second}, m_cpu);
  }
  void fig2_inputs(VetMap& map) {
    std::vector<Extent> displaced;
    EXPECT_EQ(map.insert(kE1, displaced), 2u);
    EXPECT_EQ(map.insert(kE2, displaced), 2u);
    EXPECT_EQ(map.insert(kE3, displaced), 1u);
    EXPECT_TRUE(displaced.empty());
    EXPECT_EQ(map.check(), "");
  }
  CpuWork m_cpu;
};

// Fig. 2, LIS (Alg. 1): each canonical extent is a leaf and every ancestor an internal node.
//   e1: ******** (a), 0******* leaf (b); 1******* (c), 10******, 100*****, 1000**** leaf (g)
//   e2: 11****** (h), 110***** (i), 1100**** (j), 11001*** leaf (k); 1101****, 11010*** leaf (n)
//   e3: 111***** leaf (o)
// 13 nodes. The text names a, b, c, g, h, i, j, k, n, o (sec. 2.2 and 3.3 list a, c, h, i, j as
// k's ancestors); the figure's letters run a..o, two more than the algorithm creates from these
// inputs (between c and g, and between k and n), so the letters of the unnamed ones cannot be
// matched; Fig. 3 also skips a letter (s). Internal counts = leaves below: a 5, c 4, h 3, i 2.
TEST_P(VetFigures, Fig2LinearInsertion) {
  VetMap map = make(VetInsertion::kLis);
  fig2_inputs(map);
  EXPECT_EQ(node_strings(map), (Nodes{{"********", "I5"},
                                      {"0*******", "L"},
                                      {"1*******", "I4"},
                                      {"10******", "I1"},
                                      {"100*****", "I1"},
                                      {"1000****", "L"},
                                      {"11******", "I3"},
                                      {"110*****", "I2"},
                                      {"1100****", "I1"},
                                      {"11001***", "L"},
                                      {"1101****", "I1"},
                                      {"11010***", "L"},
                                      {"111*****", "L"}}));
  EXPECT_EQ(map.nodes(), 13u);
  EXPECT_EQ(map.pieces(), 5u);
  VetNode k;
  ASSERT_TRUE(map.node(key_of("11001***"), k));
  EXPECT_EQ(k.kind, VetNodeKind::kLeaf);
  EXPECT_EQ(k.extent, kE2);
  EXPECT_EQ(map.slot_of(143), 1000u + 143);
  EXPECT_EQ(map.slot_of(144), kNone);
}

// Fig. 3, LIS: e4 = 1100100* overwrites the first two units of k (11001***). k is deleted (its
// ancestors' counts drop by one; j's reaches 0 and j goes with it), what remains of e2, e5 =
// {1100101*, 110011**, 11010***}, is stored (1100101* needs j, k, p = 110010**; 110011** needs
// j; 11010*** is n, which stays), then e4's leaf q = 1100100* (needs j, k, p). As the paper says,
// k is now internal (3: q, r, t lie in it), p is a new internal node, q a new leaf, r = 1100101*
// and t = 110011** new leaves of e5, n is kept. 17 nodes.
TEST_P(VetFigures, Fig3PartialInvalidationLinear) {
  VetMap map = make(VetInsertion::kLis);
  fig2_inputs(map);
  std::vector<Extent> displaced;
  EXPECT_EQ(map.insert(kE4, displaced), 1u);
  EXPECT_EQ(displaced, (std::vector<Extent>{{200, 2, 2000}}));
  EXPECT_EQ(map.check(), "");
  EXPECT_EQ(node_strings(map), (Nodes{{"********", "I7"},
                                      {"0*******", "L"},
                                      {"1*******", "I6"},
                                      {"10******", "I1"},
                                      {"100*****", "I1"},
                                      {"1000****", "L"},
                                      {"11******", "I5"},
                                      {"110*****", "I4"},
                                      {"1100****", "I3"},
                                      {"11001***", "I3"},
                                      {"110010**", "I2"},
                                      {"1100100*", "L"},
                                      {"1100101*", "L"},
                                      {"110011**", "L"},
                                      {"1101****", "I1"},
                                      {"11010***", "L"},
                                      {"111*****", "L"}}));
  // The remainder leaves translate by e2's extent (PD: they share e2's record, no e5 record).
  for (const char* key : {"1100101*", "110011**", "11010***"}) {
    VetNode n;
    ASSERT_TRUE(map.node(key_of(key), n));
    EXPECT_EQ(n.extent, kE2) << key;
  }
  if (GetParam().first == VetLayout::kPointerDependent) {
    EXPECT_EQ(map.records(), 4u);  // e1, e2, e3, e4
  }
  EXPECT_EQ(map.slot_of(200), 4000u);
  EXPECT_EQ(map.slot_of(201), 4001u);
  EXPECT_EQ(map.slot_of(202), 2002u);
  EXPECT_EQ(map.slot_of(215), 2015u);
}

// Fig. 3 under BIS (footnote 1: "this node [k] would be removed" with BIS). Markers (decision 4):
// a leaf at depth 7 keeps depths 4 and 6 of its search path 4, 6, 7; depth 6 keeps 4. So
// 1100100* and 1100101* need 1100**** and 110010**; 110011** needs 1100****. k is gone.
TEST_P(VetFigures, Fig3PartialInvalidationBinary) {
  VetMap map = make(VetInsertion::kBis);
  fig2_inputs(map);
  std::vector<Extent> displaced;
  map.insert(kE4, displaced);
  EXPECT_EQ(displaced, (std::vector<Extent>{{200, 2, 2000}}));
  EXPECT_EQ(map.check(), "");
  EXPECT_EQ(node_strings(map), (Nodes{{"0*******", "L"},
                                      {"1*******", "I1"},
                                      {"1000****", "L"},
                                      {"11******", "I1"},
                                      {"1100****", "I3"},
                                      {"110010**", "I2"},
                                      {"1100100*", "L"},
                                      {"1100101*", "L"},
                                      {"110011**", "L"},
                                      {"1101****", "I1"},
                                      {"11010***", "L"},
                                      {"111*****", "L"}}));
}

// Fig. 4, LIS: e6 = 11****** overwrites e2 and e3 whole. Deleting k, n and o takes every count
// under h = 11****** to 0, and h's own (3) too: the subtree of h is gone (Alg. 1 line 5), and h
// comes back as e6's leaf (line 6). Left: a (3: b, g, h), b, c (2: g, h), 10******, 100*****, g,
// h. 7 nodes.
TEST_P(VetFigures, Fig4SubtreeDeletion) {
  VetMap map = make(VetInsertion::kLis);
  fig2_inputs(map);
  std::vector<Extent> displaced;
  EXPECT_EQ(map.insert(kE6, displaced), 1u);
  EXPECT_EQ(displaced, (std::vector<Extent>{{200, 8, 2000}, {208, 8, 2008}, {224, 32, 3000}}));
  EXPECT_EQ(map.check(), "");
  EXPECT_EQ(node_strings(map), (Nodes{{"********", "I3"},
                                      {"0*******", "L"},
                                      {"1*******", "I2"},
                                      {"10******", "I1"},
                                      {"100*****", "I1"},
                                      {"1000****", "L"},
                                      {"11******", "L"}}));
  if (GetParam().first == VetLayout::kPointerDependent) {
    EXPECT_EQ(map.records(), 2u);  // e1, e6
  }
}

// Fig. 4 under BIS: e6's leaf at depth 2 keeps depth 1 (path 4, 1, 2): 1*******. The markers of
// k (1100****), n (1101****) and o (1*******, 11******) go with them.
TEST_P(VetFigures, Fig4SubtreeDeletionBinary) {
  VetMap map = make(VetInsertion::kBis);
  fig2_inputs(map);
  std::vector<Extent> displaced;
  map.insert(kE6, displaced);
  EXPECT_EQ(map.check(), "");
  EXPECT_EQ(node_strings(map),
            (Nodes{{"0*******", "L"}, {"1*******", "I1"}, {"1000****", "L"}, {"11******", "L"}}));
}

// Fig. 5: address 204 = 11001100. Depths 0..8: mid 4 probes 1100**** (j, internal: go deeper),
// mid 6 probes 110011** (absent: go shallower), mid 5 probes 11001*** (k, a leaf: found), the
// three search keys of sec. 3.2. BIS keeps exactly the nodes this path needs, so the path is the
// same there.
TEST_P(VetFigures, Fig5BinarySearchPath) {
  for (VetInsertion insertion : {VetInsertion::kLis, VetInsertion::kBis}) {
    VetMap map = make(insertion);
    fig2_inputs(map);
    EXPECT_EQ(map.search_path(204),
              (std::vector<uint64_t>{key_of("1100****"), key_of("110011**"), key_of("11001***")}));
    EXPECT_EQ(map.slot_of(204), 2004u);
    // An address in b (0*******): mid 4 (0001****) absent, mid 1 (0*******) leaf.
    EXPECT_EQ(map.search_path(20), (std::vector<uint64_t>{key_of("0001****"), key_of("0*******")}));
    // An unmapped address (150 = 10010110): 1001**** absent, 1******* internal, 10****** internal
    // (LIS) or absent (BIS), ...
    const auto path = map.search_path(150);
    EXPECT_EQ(path.front(), key_of("1001****"));
    EXPECT_EQ(map.slot_of(150), kNone);
  }
}

// Fig. 6, BIS (Alg. 3): only the internal nodes on each leaf's binary-search path (decision 4).
// Paths over depths 0..8: depth 1 -> 4, 1 (no marker); depth 4 -> 4 (none); depth 5 -> 4, 6, 5
// (marker at 4); depth 3 -> 4, 1, 2, 3 (markers at 1, 2). So b and g need nothing, k needs
// 1100**** (j), n needs 1101****, o needs 1******* (c) and 11****** (h). 9 nodes: as sec. 3.3
// says of k, only j of its ancestors a, c, h, i, j is kept for it; the root a is not stored.
TEST_P(VetFigures, Fig6BinaryInsertion) {
  VetMap map = make(VetInsertion::kBis);
  fig2_inputs(map);
  EXPECT_EQ(node_strings(map), (Nodes{{"0*******", "L"},
                                      {"1*******", "I1"},
                                      {"1000****", "L"},
                                      {"11******", "I1"},
                                      {"1100****", "I1"},
                                      {"11001***", "L"},
                                      {"1101****", "I1"},
                                      {"11010***", "L"},
                                      {"111*****", "L"}}));
  EXPECT_EQ(map.marker_depths(5), (std::vector<uint32_t>{4}));
  EXPECT_EQ(map.marker_depths(3), (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(map.marker_depths(1).empty());
  EXPECT_TRUE(map.marker_depths(4).empty());
}

// A read spanning everything (Algorithm 2 over a range): the pieces in order, clipped.
TEST_P(VetFigures, RangeSearchReturnsPiecesInOrder) {
  for (VetInsertion insertion : {VetInsertion::kLis, VetInsertion::kBis}) {
    VetMap map = make(insertion);
    fig2_inputs(map);
    std::vector<Extent> found;
    map.lookup(100, 156, found);
    EXPECT_EQ(
        found,
        (std::vector<Extent>{
            {100, 28, 1100}, {128, 16, 1128}, {200, 8, 2000}, {208, 8, 2008}, {224, 32, 3000}}));
    found.clear();
    map.lookup(150, 50, found);  // a hole
    EXPECT_TRUE(found.empty());
    std::vector<Extent> displaced;
    map.erase(140, 70, displaced);  // trims the end of e1 and the start of e2
    EXPECT_EQ(displaced, (std::vector<Extent>{{140, 4, 1140}, {200, 8, 2000}, {208, 2, 2008}}));
    EXPECT_EQ(map.check(), "");
    found.clear();
    map.lookup(0, 256, found);
    EXPECT_EQ(found, (std::vector<Extent>{{0, 128, 1000},
                                          {128, 8, 1128},
                                          {136, 4, 1136},
                                          {210, 2, 2010},
                                          {212, 4, 2012},
                                          {224, 32, 3000}}));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, VetFigures,
    ::testing::Values(std::make_pair(VetLayout::kPointerFree, VetHash::kChaining),
                      std::make_pair(VetLayout::kPointerDependent, VetHash::kChaining),
                      std::make_pair(VetLayout::kPointerFree, VetHash::kCuckoo),
                      std::make_pair(VetLayout::kPointerDependent, VetHash::kCuckoo)),
    [](const ::testing::TestParamInfo<std::pair<VetLayout, VetHash>>& info) {
      return std::string(info.param.first == VetLayout::kPointerFree ? "Pf" : "Pd") +
             (info.param.second == VetHash::kChaining ? "Chaining" : "Cuckoo");
    });

}  // namespace
}  // namespace ssd::ftl
