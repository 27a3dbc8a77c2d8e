// VET against the per-unit reference map (tests/ftl/extent/reference_extent_map.h) on random
// workloads of mixed extent sizes, for each of the eight variants (LIS/BIS x PD/PF x
// chaining/cuckoo) and for the accelerator backend in three sizes (vet_test::accelerator_variants):
// every lookup, every one-unit translation and every displaced set must match what the reference
// holds there (after merging runs), answers come out ascending and disjoint, and the structural
// invariants and counts (VetMap::check: nothing inside a leaf, every internal count equal to a
// recount from the leaves, PD records counted right) hold whenever they are checked.
//
// The per-unit reference is slower than VET, so it runs once per workload: its answer to each
// operation is kept as a 64-bit fingerprint of the merged runs, and every variant is compared
// with those. On a mismatch the reference is replayed to that operation to print what it held.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "tests/ftl/extent/reference_extent_map.h"
#include "tests/ftl/extent/vet/vet_test_support.h"

namespace ssd::ftl {
namespace {

using testing::merge_runs;
using testing::ReferenceExtentMap;
using vet_test::Op;
using vet_test::Workload;

struct Plan {
  uint64_t logical_units;
  int operations;
  int check_every;  // VetMap::check() period, in operations
  uint64_t seed;
  uint32_t max_length = 8192;
  bool large = false;
};

uint64_t fingerprint(const std::vector<Extent>& runs) {
  uint64_t h = 0x243f6a8885a308d3ull;
  for (const Extent& e : runs) {
    for (uint64_t w : {uint64_t{e.lun}, uint64_t{e.length}, uint64_t{e.slot}}) {
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 29;
    }
  }
  return h;
}

// The operations of a plan and the reference's answer to each (slot_of: the slot itself).
struct Expected {
  std::vector<Op> ops;
  std::vector<uint64_t> answers;
  std::vector<Extent> final_runs;  // the whole space at the end
  uint64_t mapped_units = 0;
};

const Expected& expected(const Plan& plan) {
  static std::map<uint64_t, Expected> cache;  // by seed
  auto it = cache.find(plan.seed);
  if (it != cache.end()) return it->second;
  Expected& x = cache[plan.seed];
  ReferenceExtentMap ref;
  Workload workload(plan.logical_units, plan.seed, plan.max_length, plan.large);
  for (int i = 0; i < plan.operations; ++i) {
    const Op op = workload.next();
    x.ops.push_back(op);
    const std::vector<Extent> held = ref.lookup(op.lun, op.length);
    if (op.kind == Op::kSlotOf) {
      x.answers.push_back(held.empty() ? kNone : held[0].slot);
    } else {
      x.answers.push_back(fingerprint(held));
    }
    if (op.kind == Op::kInsert) ref.insert(Extent{op.lun, op.length, op.slot});
    if (op.kind == Op::kErase) ref.erase(op.lun, op.length);
  }
  x.final_runs = ref.lookup(0, static_cast<uint32_t>(plan.logical_units));
  x.mapped_units = ref.mapped_units();
  return x;
}

// What the reference held for operation `index` (replayed; only on failure).
std::string reference_answer(const Plan& plan, size_t index) {
  const Expected& x = expected(plan);
  ReferenceExtentMap ref;
  for (size_t i = 0; i < index; ++i) {
    const Op& op = x.ops[i];
    if (op.kind == Op::kInsert) ref.insert(Extent{op.lun, op.length, op.slot});
    if (op.kind == Op::kErase) ref.erase(op.lun, op.length);
  }
  const Op& op = x.ops[index];
  std::ostringstream s;
  s << "operation " << index << " (kind " << op.kind << ", <" << op.lun << ", " << op.length
    << ">): the reference held";
  for (const Extent& e : ref.lookup(op.lun, op.length)) {
    s << " <" << e.lun << ", " << e.length << ", " << e.slot << ">";
  }
  return s.str();
}

std::string pieces_string(const std::vector<Extent>& pieces) {
  std::ostringstream s;
  for (const Extent& e : pieces) s << " <" << e.lun << ", " << e.length << ", " << e.slot << ">";
  return s.str();
}

// Pieces must be ascending, disjoint, non-empty and inside [lun, lun + length).
::testing::AssertionResult well_formed(const std::vector<Extent>& pieces, Lun lun,
                                       uint32_t length) {
  uint64_t at = lun;
  for (const Extent& e : pieces) {
    if (e.length == 0 || e.lun < at || uint64_t{e.lun} + e.length > uint64_t{lun} + length) {
      return ::testing::AssertionFailure() << "pieces out of place:" << pieces_string(pieces);
    }
    at = uint64_t{e.lun} + e.length;
  }
  return ::testing::AssertionSuccess();
}

void run(const VetOptions& options, const Plan& plan) {
  const Expected& x = expected(plan);
  CpuWork cpu;
  VetMap map(ExtentSpace{plan.logical_units, uint64_t{1} << 30}, options, cpu);
  std::vector<Extent> out;
  for (size_t i = 0; i < x.ops.size(); ++i) {
    const Op& op = x.ops[i];
    out.clear();
    switch (op.kind) {
      case Op::kInsert:
        ASSERT_EQ(map.insert(Extent{op.lun, op.length, op.slot}, out),
                  canonical_extents(op.lun, op.length).size());
        break;
      case Op::kErase:
        map.erase(op.lun, op.length, out);
        break;
      case Op::kLookup:
        map.lookup(op.lun, op.length, out);
        break;
      case Op::kSlotOf:
        ASSERT_EQ(map.slot_of(op.lun), x.answers[i]) << reference_answer(plan, i);
        break;
    }
    if (op.kind != Op::kSlotOf) {
      // Displaced (insert, erase) or found (lookup): what the reference held there.
      ASSERT_TRUE(well_formed(out, op.lun, op.length)) << "operation " << i;
      ASSERT_EQ(fingerprint(merge_runs(out)), x.answers[i])
          << reference_answer(plan, i) << "; VET answered" << pieces_string(out);
    }
    if ((i + 1) % plan.check_every == 0) {
      ASSERT_EQ(map.check(), "") << "after operation " << i;
    }
  }
  ASSERT_EQ(map.check(), "");
  out.clear();
  map.lookup(0, static_cast<uint32_t>(plan.logical_units), out);
  ASSERT_EQ(merge_runs(out), x.final_runs);
  uint64_t units = 0;
  for (const Extent& e : out) units += e.length;
  EXPECT_EQ(units, x.mapped_units);
  EXPECT_EQ(out.size(), map.pieces());
  EXPECT_GT(cpu.hash_probes + cpu.accelerator_commands, 0u);  // the work was counted
}

class VetRandom : public ::testing::TestWithParam<VetOptions> {};

// A million operations in a universe of 131075 units (not a power of two: B = 18); invariants
// and counts checked every 100000 operations.
TEST_P(VetRandom, MillionOperationsMatchReference) {
  run(GetParam(), Plan{131075, 1000000, 100000, 0x5eed});
}

// Large extents (half of them uniform in 1..16384 units) over one-unit ones in a 2^20-unit
// universe: big canonical pieces, many pieces displaced at once.
TEST_P(VetRandom, LargeExtentsMatchReference) {
  run(GetParam(), Plan{1u << 20, 4000, 250, 0x1a2, 16384, true});
}

// A small universe packed with fragments, invariants and counts checked every 8 operations.
TEST_P(VetRandom, SmallSpaceInvariantsThroughout) { run(GetParam(), Plan{1000, 40000, 8, 0xfeed}); }

// A one-unit universe, a two-unit one and a five-unit one: the trie's degenerate ends.
TEST_P(VetRandom, TinyUniverses) {
  run(GetParam(), Plan{1, 2000, 1, 3});
  run(GetParam(), Plan{2, 2000, 1, 4});
  run(GetParam(), Plan{5, 5000, 1, 5});
}

INSTANTIATE_TEST_SUITE_P(Variants, VetRandom, ::testing::ValuesIn(vet_test::all_variants()),
                         [](const ::testing::TestParamInfo<VetOptions>& info) {
                           return vet_test::variant_name(info.param);
                         });
INSTANTIATE_TEST_SUITE_P(Accelerator, VetRandom,
                         ::testing::ValuesIn(vet_test::accelerator_variants()),
                         [](const ::testing::TestParamInfo<VetOptions>& info) {
                           return vet_test::variant_name(info.param);
                         });

}  // namespace
}  // namespace ssd::ftl
