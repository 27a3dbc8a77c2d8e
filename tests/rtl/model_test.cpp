// The C++ model on its own (no Verilator): its hash and bucket are VET's, it behaves as a map
// except for the overflow rule, and its multi-level lookup probes VET's search path.
#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "ftl/extent/vet/canonical_extent.h"
#include "ftl/extent/vet/vet_hash.h"
#include "rtl/model/vet_hash_model.h"

namespace ssd::rtl {
namespace {

TEST(HashModel, BucketIsTopBitsOfVetHash) {
  std::mt19937_64 rng(1);
  for (uint32_t bits : {1u, 4u, 10u, 13u}) {
    for (int i = 0; i < 1000; ++i) {
      const uint64_t key = rng();
      const uint32_t h = ftl::vet_hash(key);
      EXPECT_EQ(HashEngineModel::bucket_of(key, bits), h >> (32 - bits));
    }
  }
  // 0x9e3779b97f4a7c15 * 1 = the multiplier: hash 0x9e3779b9, 10 top bits 0x278.
  EXPECT_EQ(HashEngineModel::bucket_of(1, 10), 0x278u);
}

TEST(HashModel, RejectsImpossibleParameters) {
  EXPECT_THROW(HashEngineModel({0, 4}), std::invalid_argument);
  EXPECT_THROW(HashEngineModel({14, 4}), std::invalid_argument);
  EXPECT_THROW(HashEngineModel({10, 0}), std::invalid_argument);
  EXPECT_THROW(HashEngineModel({10, 17}), std::invalid_argument);
}

// Against std::unordered_map: the same answers, except that an insert of an absent key into a
// full bucket overflows and stores nothing.
TEST(HashModel, BehavesAsAMapWithOverflow) {
  HashEngineModel m({4, 3});
  std::unordered_map<uint64_t, NodeValue> ref;
  std::mt19937_64 rng(2);
  uint64_t overflows = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t key = (rng() % 200) << 6;
    const NodeValue v{static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()), 1};
    const auto it = ref.find(key);
    const bool present = it != ref.end();
    switch (rng() % 5) {
      case 0: {
        NodeValue got;
        EXPECT_EQ(m.find(key, got), present ? HashStatus::kHit : HashStatus::kMiss);
        if (present) {
          EXPECT_EQ(got, it->second);
        }
        break;
      }
      case 1: {
        const bool full = m.bucket_load(key) == m.ways();
        const HashStatus st = m.insert(key, v);
        if (present) {
          EXPECT_EQ(st, HashStatus::kHit);
          ref[key] = v;
        } else if (full) {
          EXPECT_EQ(st, HashStatus::kOverflow);
          ++overflows;
        } else {
          EXPECT_EQ(st, HashStatus::kDone);
          ref[key] = v;
        }
        break;
      }
      case 2:
        EXPECT_EQ(m.update(key, v), present ? HashStatus::kHit : HashStatus::kMiss);
        if (present) ref[key] = v;
        break;
      case 3:
        EXPECT_EQ(m.erase(key), present ? HashStatus::kHit : HashStatus::kMiss);
        ref.erase(key);
        break;
      default:
        if (rng() % 500 == 0) {
          m.clear();
          ref.clear();
        }
        break;
    }
    ASSERT_EQ(m.size(), ref.size());
  }
  EXPECT_GT(overflows, 1000u);
  uint64_t visited = 0;
  m.for_each([&](uint64_t key, const NodeValue& v) {
    ++visited;
    ASSERT_EQ(ref.count(key), 1u);
    EXPECT_EQ(ref[key], v);
  });
  EXPECT_EQ(visited, ref.size());
}

TEST(HashModel, LowestFreeWayAndLatencies) {
  HashEngineModel m({10, 4});
  std::vector<uint64_t> keys;
  const uint32_t bucket = m.bucket_of(64);
  for (uint64_t k = 64; keys.size() < 5; k += 64) {
    if (m.bucket_of(k) == bucket) keys.push_back(k);
  }
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kInsert);
  for (uint32_t i = 0; i < 4; ++i) {
    c.key = keys[i];
    const HashResponse r = m.execute(c);
    EXPECT_EQ(r.way, i);
    EXPECT_EQ(r.latency_cycles, 3u);
    EXPECT_EQ(r.issue_cycles, 1u);
  }
  c.key = keys[4];
  EXPECT_EQ(m.execute(c).status, HashStatus::kOverflow);
  EXPECT_EQ(m.erase(keys[2]), HashStatus::kHit);
  EXPECT_EQ(m.execute(c).way, 2u);
  EXPECT_EQ(m.memory_bytes(16), 4096u * 16 + 512);
}

// The probes of a multi-level lookup are VET's search path: for a leaf at each depth with BIS
// markers, the probe count is vet_search_path's length and latency 2 per probe + 1.
TEST(HashModel, MultiLookupProbesVetSearchPath) {
  HashEngineModel m({10, 4});
  for (uint32_t bits : {58u, 20u, 8u, 1u}) {
    for (uint32_t depth = 0; depth <= bits; ++depth) {
      m.clear();
      const uint64_t address = 0x155555555555555ull & ((uint64_t{1} << bits) - 1);
      const auto path = ftl::vet_search_path(depth, bits);
      for (uint32_t d : path) {
        if (d > depth) continue;  // probes that go shallower find nothing
        const bool leaf = d == depth;
        EXPECT_EQ(m.insert(ftl::vet_key(address, bits - d), NodeValue{1, leaf ? 5u : 0u, 0}),
                  HashStatus::kDone);
      }
      const HashResponse r = m.multi_lookup(address, bits);
      EXPECT_EQ(r.status, HashStatus::kHit);
      EXPECT_EQ(r.key, ftl::vet_key(address, bits - depth));
      EXPECT_EQ(r.probes, path.size());
      EXPECT_EQ(r.latency_cycles, 2 * path.size() + 1);
      EXPECT_EQ(r.issue_cycles, r.latency_cycles);
      // Without the leaf: the deepest marker, or nothing.
      m.erase(ftl::vet_key(address, bits - depth));
      const HashResponse no = m.multi_lookup(address, bits);
      bool marked = false;
      uint32_t deepest = 0;
      for (uint32_t d : path) {
        if (d < depth) {
          marked = true;
          deepest = d;
        }
      }
      if (marked) {
        EXPECT_EQ(no.status, HashStatus::kInternal);
        EXPECT_EQ(no.key, ftl::vet_key(address, bits - deepest));
      } else {
        EXPECT_EQ(no.status, HashStatus::kMiss);
        EXPECT_EQ(no.key, 0u);
      }
    }
  }
}

}  // namespace
}  // namespace ssd::rtl
