// Shared helpers of the VET tests: keys written as the paper writes them, the eight variants,
// and a random workload of mixed extent sizes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "ftl/core/random.h"
#include "ftl/extent/vet/vet_map.h"
#include "rtl/model/vet_hash_model.h"

namespace ssd::ftl {

inline void PrintTo(const Extent& e, std::ostream* os) {
  *os << "<" << e.lun << ", " << e.length << ", " << e.slot << ">";
}

namespace vet_test {

// "1100****" -> the key of that canonical extent.
inline uint64_t key_of(const std::string& bits) {
  uint64_t prefix = 0;
  uint32_t level = 0;
  for (char c : bits) {
    if (c == '*') {
      ++level;
    } else {
      prefix = prefix * 2 + (c == '1' ? 1 : 0);
    }
  }
  return (prefix << kVetLevelBits) | level;
}

// The node set as "key string" -> "L" (leaf) or "I<count>" (internal).
inline std::map<std::string, std::string> node_strings(const VetMap& map) {
  std::map<std::string, std::string> out;
  for (const VetNode& n : map.node_set()) {
    out[vet_key_string(n.key, map.universe_bits())] =
        n.kind == VetNodeKind::kLeaf ? "L" : "I" + std::to_string(n.count);
  }
  return out;
}

inline std::vector<VetOptions> all_variants() {
  std::vector<VetOptions> out;
  for (VetInsertion i : {VetInsertion::kLis, VetInsertion::kBis}) {
    for (VetLayout l : {VetLayout::kPointerDependent, VetLayout::kPointerFree}) {
      for (VetHash h : {VetHash::kChaining, VetHash::kCuckoo}) out.push_back(VetOptions{i, l, h});
    }
  }
  return out;
}

// `options` with the node table on the accelerator backend, each map owning a fresh reference
// model (rtl/model/) of the engine, of `size`.
inline VetOptions on_reference_engine(VetOptions options, const HashEngineConfig& size) {
  options.backend = VetHashBackend::kAccelerator;
  options.make_engine = [size] { return std::make_unique<rtl::HashEngineModel>(size); };
  return options;
}

// The accelerator backend (ftl/extent/vet/accelerator_table.h) on its reference model, in three
// sizes: the platform's default, the RTL tests' default, and a 16 x 3 table whose buckets overflow
// all the time, so that much of the trie lives in the software overflow table.
inline std::vector<VetOptions> accelerator_variants() {
  std::vector<VetOptions> out;
  const auto add = [&](VetInsertion i, VetLayout l, uint32_t bucket_bits, uint32_t ways) {
    out.push_back(on_reference_engine(VetOptions{i, l}, {bucket_bits, ways}));
  };
  add(VetInsertion::kBis, VetLayout::kPointerFree, 13, 8);
  add(VetInsertion::kLis, VetLayout::kPointerFree, 10, 4);
  add(VetInsertion::kBis, VetLayout::kPointerDependent, 4, 3);
  return out;
}

inline std::string variant_name(const VetOptions& o) {
  std::string s = o.insertion == VetInsertion::kLis ? "Lis" : "Bis";
  s += o.layout == VetLayout::kPointerDependent ? "Pd" : "Pf";
  if (o.backend == VetHashBackend::kAccelerator) {
    const HashEngineConfig size = o.make_engine()->config();
    return s + "Accelerator" + std::to_string(1u << size.bucket_bits) + "x" +
           std::to_string(size.ways);
  }
  s += o.hash == VetHash::kChaining ? "Chaining" : "Cuckoo";
  return s;
}

struct Op {
  enum Kind { kInsert, kErase, kLookup, kSlotOf } kind;
  Lun lun;
  uint32_t length;
  SlotId slot;
};

// Mostly small requests (40% of one unit), some medium, a few large ones up to `max_length`
// (mean about 34 units with the default 8192, so the per-unit reference map keeps up); starts
// uniform, in a hot sixteenth of the space (so writes overlap), aligned to the request's size
// rounded up to a power of two (big canonical pieces), or against either end.
// With `large`, half the requests are one unit and half uniform in 1..max_length instead.
class Workload {
 public:
  Workload(uint64_t logical_units, uint64_t seed, uint32_t max_length = 8192, bool large = false)
      : m_units(logical_units), m_rng(seed), m_max_length(max_length), m_large(large) {}

  uint32_t length() {
    if (m_large) {
      const uint64_t n = m_rng.below(2) == 0 ? 1 : 1 + m_rng.below(m_max_length);
      return static_cast<uint32_t>(std::min<uint64_t>(n, m_units));
    }
    const uint64_t r = m_rng.below(1000);
    uint64_t n;
    if (r < 400) {
      n = 1;
    } else if (r < 780) {
      n = 2 + m_rng.below(15);
    } else if (r < 950) {
      n = 17 + m_rng.below(48);
    } else if (r < 995) {
      n = 65 + m_rng.below(448);
    } else if (r < 999) {
      n = 513 + m_rng.below(1536);
    } else {
      n = 2049 + m_rng.below(m_max_length > 2049 ? m_max_length - 2048 : 1);
    }
    return static_cast<uint32_t>(std::min<uint64_t>({n, m_units, m_max_length}));
  }

  Lun start(uint32_t length) {
    const uint64_t room = m_units - length + 1;
    const uint64_t r = m_rng.below(100);
    if (r == 0) return 0;
    if (r == 1) return static_cast<Lun>(room - 1);
    if (r < 40)
      return static_cast<Lun>(m_rng.below(std::max<uint64_t>(1, std::min(room, m_units / 16))));
    if (r < 50) {
      uint64_t align = 1;
      while (align < length) align *= 2;
      const uint64_t s = m_rng.below(room) & ~(align - 1);
      return static_cast<Lun>(s);
    }
    return static_cast<Lun>(m_rng.below(room));
  }

  Op next() {
    const uint64_t r = m_rng.below(100);
    Op op;
    op.kind = r < 50 ? Op::kInsert : r < 55 ? Op::kErase : r < 90 ? Op::kLookup : Op::kSlotOf;
    op.length = op.kind == Op::kSlotOf ? 1 : length();
    op.lun = start(op.length);
    op.slot = 0;
    if (op.kind == Op::kInsert) {
      if (m_next_slot + op.length >= (1u << 30)) m_next_slot = 0;
      op.slot = m_next_slot;
      m_next_slot += op.length;
    }
    return op;
  }

 private:
  uint64_t m_units;
  Random m_rng;
  uint32_t m_max_length;
  bool m_large;
  SlotId m_next_slot = 0;
};

}  // namespace vet_test
}  // namespace ssd::ftl
