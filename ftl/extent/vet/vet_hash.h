// The one hash function for VET keys, used by every node table (chaining, cuckoo, and the
// hardware engine to come): multiply-shift (Dietzfelbinger et al.), the high 32 bits of the
// 64-bit product of the key and an odd 64-bit multiplier. One multiplier and one shift: a
// hardware engine computes it in a cycle or two. A table that needs several functions (cuckoo
// hashing, or a rehash after a failed insertion) takes further multipliers from
// vet_hash_multiplier(i), a fixed sequence, so every run is reproducible.
//
// A chaining table reduces the hash modulo its prime bucket count; a power-of-two table takes its
// top bits (the multiply-shift family proper).
#pragma once

#include <cstdint>

namespace ssd::ftl {

// The i-th multiplier: 0 is the golden-ratio constant (Knuth's multiplicative hashing), the
// others come from splitmix64 of i, forced odd.
inline uint64_t vet_hash_multiplier(uint32_t i) {
  if (i == 0) return 0x9e3779b97f4a7c15ull;
  uint64_t z = 0x9e3779b97f4a7c15ull * (uint64_t{i} + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) | 1;
}

inline uint32_t vet_hash(uint64_t key, uint64_t multiplier = vet_hash_multiplier(0)) {
  return static_cast<uint32_t>((key * multiplier) >> 32);
}

}  // namespace ssd::ftl
