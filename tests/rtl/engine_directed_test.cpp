// Directed tests of the Verilated engine, one or more per command: every answer is checked
// against the value the test expects and against the C++ model (same status, key, value, way,
// probes, latency and issue interval).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "ftl/extent/vet/canonical_extent.h"
#include "tests/rtl/engine_harness.h"

namespace ssd::rtl::test {
namespace {

HashCommand op(HashOp o, uint64_t key = 0, NodeValue value = {}, uint32_t bits = 0) {
  HashCommand c;
  c.op = static_cast<uint8_t>(o);
  c.key = key;
  c.value = value;
  c.bits = bits;
  return c;
}
HashCommand find_cmd(uint64_t key) { return op(HashOp::kFind, key); }
HashCommand insert_cmd(uint64_t key, NodeValue v) { return op(HashOp::kInsert, key, v); }
HashCommand update_cmd(uint64_t key, NodeValue v) { return op(HashOp::kUpdate, key, v); }
HashCommand delete_cmd(uint64_t key) { return op(HashOp::kDelete, key); }
HashCommand clear_cmd() { return op(HashOp::kClear); }
HashCommand mlookup_cmd(uint64_t address, uint32_t bits) {
  return op(HashOp::kMultiLookup, address, {}, bits);
}

constexpr NodeValue kInternal{7, 0, 0};  // w1 == 0: an internal node (w0 holds its count)

NodeValue leaf(uint32_t n) { return NodeValue{0x1000 + n, 0x2000 + n, 0x3000 + n}; }

// A VET key: the aligned run of 2^(bits - depth) units holding `address`.
uint64_t vkey(uint64_t address, uint32_t bits, uint32_t depth) {
  return ftl::vet_key(address, bits - depth);
}

template <typename V>
class Directed : public ::testing::Test {
 protected:
  Directed() : model(EngineHarness<V>::config()) {}

  // Runs `c` on the RTL and on the model; they must agree. Returns the RTL's answer.
  HashResponse both(const HashCommand& c) {
    const HashResponse want = model.execute(c);
    const HashResponse got = rtl.run(c);
    EXPECT_EQ(got, want) << "op " << int{c.op} << " key 0x" << std::hex << c.key;
    return got;
  }

  // `n` distinct keys of one bucket (VET-shaped, level 0).
  std::vector<uint64_t> same_bucket_keys(uint32_t n, uint64_t first = 0x1234) const {
    std::vector<uint64_t> keys;
    const uint32_t bucket = model.bucket_of(first << 6);
    for (uint64_t p = first; keys.size() < n; ++p) {
      if (model.bucket_of(p << 6) == bucket) keys.push_back(p << 6);
    }
    return keys;
  }

  EngineHarness<V> rtl;
  HashEngineModel model;
};

using Big = Directed<Vvet_hash_engine>;
using Small = Directed<Vvet_hash_engine_small>;

TEST_F(Big, FindOnEmptyTableMisses) {
  const HashResponse r = both(find_cmd(0x42));
  EXPECT_EQ(r.status, HashStatus::kMiss);
  EXPECT_EQ(r.key, 0x42u);
  EXPECT_EQ(r.probes, 1u);
  EXPECT_EQ(r.latency_cycles, 3u);
  EXPECT_EQ(r.issue_cycles, 1u);
}

TEST_F(Big, InsertThenFindHits) {
  HashResponse r = both(insert_cmd(0x1c0, leaf(1)));
  EXPECT_EQ(r.status, HashStatus::kDone);
  EXPECT_EQ(r.way, 0u);
  r = both(find_cmd(0x1c0));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.value, leaf(1));
  EXPECT_EQ(r.way, 0u);
  EXPECT_EQ(both(find_cmd(0x1c1)).status, HashStatus::kMiss);
}

TEST_F(Big, HashAndBucketAreVetHash) {
  // Four keys of one bucket fill its ways 0..3 in order: the engine's bucket is the model's.
  const auto keys = same_bucket_keys(4);
  for (uint32_t i = 0; i < 4; ++i) {
    const HashResponse r = both(insert_cmd(keys[i], leaf(i)));
    EXPECT_EQ(r.status, HashStatus::kDone);
    EXPECT_EQ(r.way, i);
  }
}

TEST_F(Big, InsertOfPresentKeyUpdatesInPlace) {
  both(insert_cmd(0x80, leaf(1)));
  both(insert_cmd(0x100, leaf(2)));
  const HashResponse r = both(insert_cmd(0x80, leaf(3)));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.value, leaf(3));
  EXPECT_EQ(both(find_cmd(0x80)).value, leaf(3));
  EXPECT_EQ(model.size(), 2u);
}

TEST_F(Big, UpdatePresentAndAbsent) {
  both(insert_cmd(0x80, leaf(1)));
  HashResponse r = both(update_cmd(0x80, kInternal));
  EXPECT_EQ(r.status, HashStatus::kHit);
  r = both(find_cmd(0x80));
  EXPECT_EQ(r.value, kInternal);
  r = both(update_cmd(0x81, leaf(5)));
  EXPECT_EQ(r.status, HashStatus::kMiss);
  EXPECT_EQ(both(find_cmd(0x81)).status, HashStatus::kMiss);  // update never inserts
}

TEST_F(Big, DeletePresentAndAbsent) {
  both(insert_cmd(0x80, leaf(1)));
  HashResponse r = both(delete_cmd(0x80));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.value, leaf(1));  // the value removed
  EXPECT_EQ(both(find_cmd(0x80)).status, HashStatus::kMiss);
  r = both(delete_cmd(0x80));
  EXPECT_EQ(r.status, HashStatus::kMiss);
  EXPECT_EQ(both(delete_cmd(0x999)).status, HashStatus::kMiss);
}

TEST_F(Big, ClearEmptiesEveryBucketInOneCommand) {
  for (uint64_t k = 1; k <= 200; ++k) both(insert_cmd(k << 6, leaf(static_cast<uint32_t>(k))));
  const HashResponse r = both(clear_cmd());
  EXPECT_EQ(r.status, HashStatus::kDone);
  EXPECT_EQ(r.probes, 0u);
  EXPECT_EQ(r.latency_cycles, 3u);
  EXPECT_EQ(r.issue_cycles, 1u);
  for (uint64_t k = 1; k <= 200; ++k) EXPECT_EQ(both(find_cmd(k << 6)).status, HashStatus::kMiss);
  EXPECT_EQ(both(insert_cmd(5 << 6, leaf(9))).way, 0u);  // ways are free again
}

TEST_F(Big, OverflowWhenBucketIsFull) {
  const auto keys = same_bucket_keys(6);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(both(insert_cmd(keys[i], leaf(i))).way, i);
  HashResponse r = both(insert_cmd(keys[4], leaf(4)));
  EXPECT_EQ(r.status, HashStatus::kOverflow);
  EXPECT_EQ(r.value, NodeValue{});
  EXPECT_EQ(both(find_cmd(keys[4])).status, HashStatus::kMiss);  // nothing stored
  // Insert of a present key in a full bucket still updates.
  EXPECT_EQ(both(insert_cmd(keys[2], leaf(22))).status, HashStatus::kHit);
  // Free way 1: the next new key of the bucket takes it.
  EXPECT_EQ(both(delete_cmd(keys[1])).status, HashStatus::kHit);
  r = both(insert_cmd(keys[5], leaf(5)));
  EXPECT_EQ(r.status, HashStatus::kDone);
  EXPECT_EQ(r.way, 1u);
  EXPECT_EQ(both(insert_cmd(keys[4], leaf(4))).status, HashStatus::kOverflow);
  EXPECT_EQ(both(find_cmd(keys[2])).value, leaf(22));
}

TEST_F(Small, OverflowWithThreeWays) {
  const auto keys = same_bucket_keys(4);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(both(insert_cmd(keys[i], leaf(i))).way, i);
  EXPECT_EQ(both(insert_cmd(keys[3], leaf(3))).status, HashStatus::kOverflow);
  EXPECT_EQ(both(delete_cmd(keys[0])).way, 0u);
  EXPECT_EQ(both(insert_cmd(keys[3], leaf(3))).way, 0u);
}

TEST_F(Big, UnknownOpCodeIsRefused) {
  for (uint8_t code : {6, 7}) {
    HashCommand c;
    c.op = code;
    c.key = 0x80;
    const HashResponse r = both(c);
    EXPECT_EQ(r.status, HashStatus::kBadCommand);
    EXPECT_EQ(r.probes, 0u);
  }
  EXPECT_EQ(both(find_cmd(0x80)).status, HashStatus::kMiss);
}

TEST_F(Big, ResetEmptiesTheTable) {
  both(insert_cmd(0x80, leaf(1)));
  rtl.reset();
  model.clear();
  EXPECT_EQ(both(find_cmd(0x80)).status, HashStatus::kMiss);
}

// A stream of lookups: one accepted every cycle, each answered 3 cycles after it was accepted.
TEST_F(Big, LookupStreamOnePerCycle) {
  for (uint64_t k = 0; k < 16; ++k) both(insert_cmd(k << 6, leaf(static_cast<uint32_t>(k))));
  const uint64_t start = rtl.cycles();
  std::vector<uint64_t> answered;
  for (uint64_t i = 0; i < 40; ++i) {
    const bool issue = i < 32;
    const CycleView v = rtl.cycle(issue, find_cmd((i % 20) << 6));
    if (issue) {
      EXPECT_TRUE(v.ready);
    }
    if (v.rsp_valid) {
      const uint64_t n = answered.size();
      answered.push_back(rtl.cycles() - 1 - start);
      EXPECT_EQ(v.rsp.status, (n % 20) < 16 ? HashStatus::kHit : HashStatus::kMiss);
      EXPECT_EQ(v.rsp.key, (n % 20) << 6);
    }
  }
  ASSERT_EQ(answered.size(), 32u);
  for (uint64_t n = 0; n < 32; ++n) EXPECT_EQ(answered[n], n + 3);
}

// Commands on one key in consecutive cycles see each other as if run one at a time (the write
// of each is forwarded to the next).
TEST_F(Big, BackToBackSameKeyIsSequential) {
  const uint64_t k = 0x5c0;
  const std::vector<HashCommand> cmds = {insert_cmd(k, leaf(1)),
                                         find_cmd(k),
                                         update_cmd(k, leaf(2)),
                                         find_cmd(k),
                                         delete_cmd(k),
                                         find_cmd(k),
                                         insert_cmd(k, leaf(3)),
                                         insert_cmd(k, leaf(4)),
                                         find_cmd(k),
                                         delete_cmd(k),
                                         delete_cmd(k),
                                         update_cmd(k, leaf(5))};
  std::vector<HashResponse> want;
  for (const auto& c : cmds) want.push_back(model.execute(c));
  std::vector<HashResponse> got;
  for (size_t i = 0; got.size() < cmds.size(); ++i) {
    const bool issue = i < cmds.size();
    const CycleView v = rtl.cycle(issue, issue ? cmds[i] : HashCommand{});
    if (v.rsp_valid) got.push_back(v.rsp);
    ASSERT_LT(i, 100u);
  }
  for (size_t i = 0; i < cmds.size(); ++i) {
    want[i].latency_cycles = want[i].issue_cycles = 0;
    EXPECT_EQ(got[i], want[i]) << "command " << i;
  }
  EXPECT_EQ(got[1].value, leaf(1));
  EXPECT_EQ(got[3].value, leaf(2));
  EXPECT_EQ(got[5].status, HashStatus::kMiss);
  EXPECT_EQ(got[8].value, leaf(4));
  EXPECT_EQ(got[10].status, HashStatus::kMiss);
}

// Back to back in one bucket with different keys: the way a write takes is seen by the next.
TEST_F(Small, BackToBackSameBucketTakesNextWay) {
  const auto keys = same_bucket_keys(4);
  for (size_t i = 0; i < 6; ++i) {
    const bool issue = i < 4;
    const CycleView v = rtl.cycle(issue, issue ? insert_cmd(keys[i], leaf(1)) : HashCommand{});
    (void)v;
  }
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(model.insert(keys[i], leaf(1)), HashStatus::kDone);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(both(find_cmd(keys[i])).way, i);
  EXPECT_EQ(both(find_cmd(keys[3])).status, HashStatus::kMiss);  // it overflowed
}

// ---- multi-level lookup over small tries (B = 8 unless said) ----

TEST_F(Big, MultiLookupOnEmptyTable) {
  // Depths 4, 1, 0 are probed and all absent.
  const HashResponse r = both(mlookup_cmd(204, 8));
  EXPECT_EQ(r.status, HashStatus::kMiss);
  EXPECT_EQ(r.key, 0u);
  EXPECT_EQ(r.probes, 3u);
  EXPECT_EQ(r.latency_cycles, 7u);
  EXPECT_EQ(r.issue_cycles, 7u);
}

TEST_F(Big, MultiLookupFindsLeafAtFirstProbe) {
  both(insert_cmd(vkey(204, 8, 4), leaf(1)));  // <1100****>
  const HashResponse r = both(mlookup_cmd(204, 8));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.key, vkey(204, 8, 4));
  EXPECT_EQ(r.value, leaf(1));
  EXPECT_EQ(r.probes, 1u);
  EXPECT_EQ(r.latency_cycles, 3u);
}

// The paper's example (sec. 3.2): address 204 = 11001100, leaf <11001***>, marker <1100****>:
// probes <1100****> (internal, go deeper), <110011**> (absent, go shallower), <11001***> (leaf).
TEST_F(Big, MultiLookupPaperExample) {
  both(insert_cmd(vkey(204, 8, 4), kInternal));
  both(insert_cmd(vkey(200, 8, 5), leaf(2)));
  const HashResponse r = both(mlookup_cmd(204, 8));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.key, vkey(200, 8, 5));
  EXPECT_EQ(r.probes, 3u);
  EXPECT_EQ(r.latency_cycles, 7u);
  // Another address of the same leaf, and one beside it that no leaf holds.
  EXPECT_EQ(both(mlookup_cmd(207, 8)).key, vkey(200, 8, 5));
  const HashResponse no = both(mlookup_cmd(199, 8));
  EXPECT_EQ(no.status, HashStatus::kInternal);  // <1100****> holds 199 too
  EXPECT_EQ(no.key, vkey(204, 8, 4));
}

TEST_F(Big, MultiLookupInternalThenDeeper) {
  both(insert_cmd(vkey(100, 8, 4), kInternal));
  both(insert_cmd(vkey(100, 8, 6), leaf(3)));  // path for depth 6: 4, 6
  const HashResponse r = both(mlookup_cmd(100, 8));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.key, vkey(100, 8, 6));
  EXPECT_EQ(r.probes, 2u);
  EXPECT_EQ(r.latency_cycles, 5u);
}

TEST_F(Big, MultiLookupAbsentThenShallower) {
  both(insert_cmd(vkey(77, 8, 1), leaf(4)));  // path for depth 1: 4 (absent), 1
  const HashResponse r = both(mlookup_cmd(77, 8));
  EXPECT_EQ(r.status, HashStatus::kHit);
  EXPECT_EQ(r.key, vkey(77, 8, 1));
  EXPECT_EQ(r.probes, 2u);
}

TEST_F(Big, MultiLookupWithoutLeafReturnsDeepestInternal) {
  both(insert_cmd(vkey(100, 8, 4), kInternal));
  both(insert_cmd(vkey(100, 8, 6), NodeValue{3, 0, 0}));
  // 4 internal, 6 internal, 7 absent: no leaf; the deepest internal node is at depth 6.
  const HashResponse r = both(mlookup_cmd(100, 8));
  EXPECT_EQ(r.status, HashStatus::kInternal);
  EXPECT_EQ(r.key, vkey(100, 8, 6));
  EXPECT_EQ(r.value, (NodeValue{3, 0, 0}));
  EXPECT_EQ(r.probes, 3u);
  both(insert_cmd(vkey(100, 8, 7), kInternal));
  const HashResponse r2 = both(mlookup_cmd(100, 8));
  EXPECT_EQ(r2.status, HashStatus::kInternal);  // 4, 6, 7 internal, 8 absent
  EXPECT_EQ(r2.key, vkey(100, 8, 7));
  EXPECT_EQ(r2.probes, 4u);
}

// For every leaf depth of a 58-bit universe (and a few others), a trie built by BIS (markers at
// the shallower depths of the leaf's search path) is searched in exactly VET's probe sequence:
// the probe count is the length of ftl::vet_search_path.
TEST_F(Big, MultiLookupFollowsVetSearchPath) {
  for (uint32_t bits : {58u, 32u, 13u, 1u, 0u}) {
    for (uint32_t depth = 0; depth <= bits; ++depth) {
      both(clear_cmd());
      const uint64_t address = 0x2a5a5a5a5a5a5a5ull & ((bits ? (uint64_t{1} << bits) : 1) - 1);
      const std::vector<uint32_t> path = ftl::vet_search_path(depth, bits);
      for (uint32_t d : path) {
        if (d < depth) both(insert_cmd(vkey(address, bits, d), kInternal));
      }
      both(insert_cmd(vkey(address, bits, depth), leaf(depth)));
      const HashResponse r = both(mlookup_cmd(address, bits));
      EXPECT_EQ(r.status, HashStatus::kHit) << "bits " << bits << " depth " << depth;
      EXPECT_EQ(r.key, vkey(address, bits, depth));
      EXPECT_EQ(r.probes, path.size()) << "bits " << bits << " depth " << depth;
      EXPECT_EQ(r.latency_cycles, 2 * path.size() + 1);
    }
  }
}

// A multi-level lookup right behind the insert of the node it finds sees it (forwarding), and
// holds cmd_ready low until its answer.
TEST_F(Big, MultiLookupBackToBackAfterInsertAndReadyLow) {
  const std::vector<HashCommand> cmds = {insert_cmd(vkey(100, 8, 4), kInternal),
                                         insert_cmd(vkey(100, 8, 6), leaf(6)), mlookup_cmd(100, 8),
                                         find_cmd(vkey(100, 8, 6))};
  size_t next = 0;
  std::vector<std::pair<uint64_t, HashResponse>> got;
  std::vector<uint64_t> accepted;
  for (uint64_t i = 0; got.size() < cmds.size(); ++i) {
    ASSERT_LT(i, 100u);
    const bool issue = next < cmds.size();
    const CycleView v = rtl.cycle(issue, issue ? cmds[next] : HashCommand{});
    const uint64_t now = rtl.cycles() - 1;
    if (v.rsp_valid) got.emplace_back(now, v.rsp);
    if (issue && v.ready) {
      accepted.push_back(now);
      ++next;
    }
  }
  ASSERT_EQ(accepted.size(), 4u);
  EXPECT_EQ(accepted[1], accepted[0] + 1);
  EXPECT_EQ(accepted[2], accepted[1] + 1);
  EXPECT_EQ(accepted[3], accepted[2] + 5);  // 2 probes: ready again after 2 * 2 + 1 cycles
  EXPECT_EQ(got[2].second.status, HashStatus::kHit);
  EXPECT_EQ(got[2].second.probes, 2u);
  EXPECT_EQ(got[2].first, accepted[2] + 5);
  EXPECT_EQ(got[3].first, accepted[3] + 3);
  EXPECT_EQ(got[3].second.value, leaf(6));
}

}  // namespace
}  // namespace ssd::rtl::test
