// Randomised co-simulation: the Verilated engine against the C++ model, a million mixed commands
// per configuration. Every cycle checks cmd_ready against the model's issue interval; every
// response is checked field by field and must come exactly latency_cycles after its command was
// accepted. The traffic has back-to-back commands on one key and one bucket, buckets kept full
// (overflow), deletes and updates of absent keys, clears in the middle of the stream, multi-level
// lookups over tries built the way VET's BIS builds them, unknown op codes, and idle cycles of
// varying density so that every hazard distance occurs.
//   SSD_RTL_COSIM_COMMANDS=N  commands per configuration (default 1000000)
//   SSD_RTL_COSIM_SEED=S      seed (default fixed; the seed is printed on failure)
#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ftl/extent/vet/canonical_extent.h"
#include "tests/rtl/engine_harness.h"

namespace ssd::rtl::test {
namespace {

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

struct CosimStats {
  uint64_t commands = 0;
  uint64_t cycles = 0;
  uint64_t same_key_back_to_back = 0;  // accepted in consecutive cycles with the same key
  std::array<std::array<uint64_t, 6>, 8> outcome{};                // [op][status]
  std::array<uint64_t, HashEngineModel::kMaxProbes + 1> probes{};  // multi-level probe counts

  uint64_t count(HashOp op, HashStatus st) const {
    return outcome[static_cast<size_t>(op)][static_cast<size_t>(st)];
  }
};

// A universe VET searches: B bits and a window of addresses the traffic stays in.
struct Trie {
  uint32_t bits;
  uint64_t base;
  uint64_t window;
};

class Traffic {
 public:
  Traffic(const HashEngineConfig& config, uint64_t seed) : m_rng(seed), m_model(config) {
    // Groups of keys sharing a bucket, two more than the ways: those buckets overflow.
    for (uint32_t g = 0; g < 6; ++g) {
      const uint64_t first = (m_rng() >> 8) << 6;
      const uint32_t bucket = m_model.bucket_of(first);
      for (uint64_t k = first; m_hot.size() < (g + 1) * (config.ways + 2); k += 64) {
        if (m_model.bucket_of(k) == bucket) m_hot.push_back(k);
      }
    }
    for (uint32_t bits : {8u, 20u, 58u}) {
      const uint64_t mask = (uint64_t{1} << bits) - 1;
      const uint64_t window = bits == 8 ? 256 : 4096;
      m_tries.push_back(Trie{bits, (m_rng() & mask) & ~(window - 1), window});
    }
  }

  HashCommand next(uint64_t prev_key) {
    HashCommand c;
    const uint32_t r = static_cast<uint32_t>(m_rng() % 1000);
    HashOp op;
    if (r < 330) {
      op = HashOp::kFind;
    } else if (r < 560) {
      op = HashOp::kInsert;
    } else if (r < 640) {
      op = HashOp::kUpdate;
    } else if (r < 790) {
      op = HashOp::kDelete;
    } else if (r < 994) {
      op = HashOp::kMultiLookup;
    } else if (r < 995) {
      op = HashOp::kClear;
    } else {
      c.op = static_cast<uint8_t>(6 + (m_rng() & 1));  // unknown op code
      c.key = m_rng();
      return c;
    }
    c.op = static_cast<uint8_t>(op);
    if (op == HashOp::kMultiLookup) {
      const Trie& t = m_tries[m_rng() % m_tries.size()];
      c.key = t.base + m_rng() % t.window;
      c.bits = t.bits;
      if (m_rng() % 50 == 0) {  // any address, any 6-bit B
        c.key = m_rng();
        c.bits = static_cast<uint32_t>(m_rng() % 64);
      }
      return c;
    }
    if (op == HashOp::kClear) {
      c.key = m_rng();
      return c;
    }
    const uint32_t k = static_cast<uint32_t>(m_rng() % 100);
    bool internal = false;
    if (k < 30) {
      c.key = prev_key;  // back to back on one key
    } else if (k < 55) {
      c.key = m_hot[m_rng() % m_hot.size()];
    } else if (k < 90) {
      c.key = trie_key(internal);
    } else {
      c.key = m_rng();
    }
    if (op == HashOp::kInsert || op == HashOp::kUpdate) {
      c.value.w0 = static_cast<uint32_t>(m_rng());
      c.value.w2 = static_cast<uint32_t>(m_rng());
      // Internal (w1 == 0) as the trie shape says, with some noise; leaves have w1 != 0.
      const bool as_internal = (m_rng() % 10 == 0) ? !internal : internal;
      c.value.w1 = as_internal ? 0 : static_cast<uint32_t>(m_rng() | 1);
    }
    return c;
  }

  HashEngineModel& model() { return m_model; }
  std::mt19937_64& rng() { return m_rng; }

 private:
  // A node of a BIS trie: a key on the search path of a random leaf depth, internal unless it
  // is the leaf itself.
  uint64_t trie_key(bool& internal) {
    const Trie& t = m_tries[m_rng() % m_tries.size()];
    const uint64_t address = t.base + m_rng() % t.window;
    const uint32_t depth = static_cast<uint32_t>(m_rng() % (t.bits + 1));
    const std::vector<uint32_t> path = ftl::vet_search_path(depth, t.bits);
    const size_t i = m_rng() % path.size();
    internal = i + 1 < path.size();
    return ftl::vet_key(address, t.bits - path[i]);
  }

  std::mt19937_64 m_rng;
  HashEngineModel m_model;
  std::vector<uint64_t> m_hot;
  std::vector<Trie> m_tries;
};

struct Pending {
  HashCommand cmd;
  HashResponse want;
  uint64_t accepted;
  uint64_t index;
};

std::string describe(const Pending& p) {
  std::ostringstream os;
  os << "command #" << p.index << " op " << int{p.cmd.op} << " key 0x" << std::hex << p.cmd.key
     << std::dec << " bits " << p.cmd.bits << " accepted in cycle " << p.accepted;
  return os.str();
}

template <typename V>
CosimStats cosim(uint64_t commands, uint64_t seed) {
  EngineHarness<V> rtl;
  Traffic traffic(EngineHarness<V>::config(), seed);
  HashEngineModel& model = traffic.model();
  std::mt19937_64& rng = traffic.rng();
  CosimStats stats;
  std::deque<Pending> pending;
  const uint64_t start = rtl.cycles();
  uint64_t ready_from = start;  // the model's first cycle the engine takes a command again
  uint64_t prev_key = 0, prev_accept = ~uint64_t{0};
  HashCommand cur;
  bool presenting = false;
  uint32_t busy_percent = 100;
  while (stats.commands < commands || !pending.empty()) {
    const uint64_t now = rtl.cycles();
    if ((now - start) % 8192 == 0) {
      const uint32_t choices[] = {100, 100, 90, 60, 30};
      busy_percent = choices[rng() % 5];
    }
    if (!presenting && stats.commands < commands && rng() % 100 < busy_percent) {
      cur = traffic.next(prev_key);
      presenting = true;
    }
    const CycleView v = rtl.cycle(presenting, cur);
    const bool want_ready = now >= ready_from;
    if (v.ready != want_ready) {
      ADD_FAILURE() << "cycle " << now << ": cmd_ready " << v.ready << ", model says " << want_ready
                    << " (seed " << seed << ")";
      return stats;
    }
    if (v.rsp_valid) {
      if (pending.empty()) {
        ADD_FAILURE() << "cycle " << now << ": response to no command (seed " << seed << ")";
        return stats;
      }
      const Pending p = pending.front();
      pending.pop_front();
      HashResponse got = v.rsp;
      got.latency_cycles = static_cast<uint32_t>(now - p.accepted);
      got.issue_cycles = p.want.issue_cycles;  // checked through cmd_ready above
      if (got != p.want) {
        ADD_FAILURE() << describe(p) << ": RTL " << ::testing::PrintToString(got) << ", model "
                      << ::testing::PrintToString(p.want) << " (seed " << seed << ")";
        return stats;
      }
    } else if (!pending.empty() &&
               now >= pending.front().accepted + pending.front().want.latency_cycles) {
      ADD_FAILURE() << describe(pending.front()) << ": no response by cycle " << now << " (seed "
                    << seed << ")";
      return stats;
    }
    if (presenting && v.ready) {
      const HashResponse want = model.execute(cur);
      pending.push_back(Pending{cur, want, now, stats.commands});
      ready_from = now + want.issue_cycles;
      if (prev_accept + 1 == now && cur.key == prev_key && (cur.op & 7u) < 4) {
        ++stats.same_key_back_to_back;
      }
      if ((cur.op & 7u) < 6) {
        ++stats.outcome[cur.op & 7u][static_cast<size_t>(want.status)];
      }
      if (cur.op == static_cast<uint8_t>(HashOp::kMultiLookup)) ++stats.probes[want.probes];
      prev_key = cur.key;
      prev_accept = now;
      presenting = false;
      ++stats.commands;
    }
  }
  stats.cycles = rtl.cycles() - start;
  return stats;
}

void report(const CosimStats& s) {
  std::ostringstream os;
  os << s.commands << " commands in " << s.cycles << " cycles; same-key back-to-back "
     << s.same_key_back_to_back << "\n";
  for (uint32_t op = 0; op < 6; ++op) {
    os << "  " << to_string(static_cast<HashOp>(op)) << ":";
    for (uint32_t st = 0; st < 6; ++st) {
      if (s.outcome[op][st])
        os << " " << to_string(static_cast<HashStatus>(st)) << "=" << s.outcome[op][st];
    }
    os << "\n";
  }
  os << "  multi-level probes:";
  for (uint32_t p = 1; p < s.probes.size(); ++p) os << " " << p << ":" << s.probes[p];
  std::cout << os.str() << std::endl;
}

// The traffic must reach every case it is meant to reach.
void expect_coverage(const CosimStats& s, uint64_t commands) {
  const uint64_t min = commands / 2000;  // 0.05 % of the stream, at least
  EXPECT_GT(s.same_key_back_to_back, min);
  EXPECT_GT(s.count(HashOp::kFind, HashStatus::kHit), min);
  EXPECT_GT(s.count(HashOp::kFind, HashStatus::kMiss), min);
  EXPECT_GT(s.count(HashOp::kInsert, HashStatus::kDone), min);
  EXPECT_GT(s.count(HashOp::kInsert, HashStatus::kHit), min);
  EXPECT_GT(s.count(HashOp::kInsert, HashStatus::kOverflow), min);
  EXPECT_GT(s.count(HashOp::kUpdate, HashStatus::kHit), min);
  EXPECT_GT(s.count(HashOp::kUpdate, HashStatus::kMiss), min);
  EXPECT_GT(s.count(HashOp::kDelete, HashStatus::kHit), min);
  EXPECT_GT(s.count(HashOp::kDelete, HashStatus::kMiss), min);
  EXPECT_GT(s.count(HashOp::kClear, HashStatus::kDone), commands / 4000);
  EXPECT_GT(s.count(HashOp::kMultiLookup, HashStatus::kHit), min);
  EXPECT_GT(s.count(HashOp::kMultiLookup, HashStatus::kInternal), min);
  EXPECT_GT(s.count(HashOp::kMultiLookup, HashStatus::kMiss), min);
}

TEST(RtlCosim, DefaultEngineMillionCommands) {
  const uint64_t n = env_or("SSD_RTL_COSIM_COMMANDS", 1000000);
  const uint64_t seed = env_or("SSD_RTL_COSIM_SEED", 20240601);
  const CosimStats s = cosim<Vvet_hash_engine>(n, seed);
  report(s);
  if (!HasFailure()) expect_coverage(s, n);
}

TEST(RtlCosim, SmallEngineMillionCommands) {
  const uint64_t n = env_or("SSD_RTL_COSIM_COMMANDS", 1000000);
  const uint64_t seed = env_or("SSD_RTL_COSIM_SEED", 20240601) + 1;
  const CosimStats s = cosim<Vvet_hash_engine_small>(n, seed);
  report(s);
  if (!HasFailure()) expect_coverage(s, n);
}

// Reset in the middle of traffic empties the table and drops what was in flight.
TEST(RtlCosim, ResetDuringTraffic) {
  EngineHarness<Vvet_hash_engine_small> rtl;
  Traffic traffic(EngineHarness<Vvet_hash_engine_small>::config(), 7);
  uint64_t prev = 0;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 50; ++i) {
      const HashCommand c = traffic.next(prev);
      prev = c.key;
      rtl.cycle(true, c);
    }
    rtl.reset(1);
    traffic.model().clear();
    const CycleView v = rtl.cycle(false, HashCommand{});
    EXPECT_FALSE(v.rsp_valid);
    EXPECT_TRUE(v.ready);
    HashCommand find;
    find.key = prev;
    const HashResponse want = traffic.model().execute(find);
    EXPECT_EQ(rtl.run(find), want);
    EXPECT_EQ(want.status, HashStatus::kMiss);
  }
}

}  // namespace
}  // namespace ssd::rtl::test
