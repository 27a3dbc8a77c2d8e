// VET's keys and canonical extents (shared/papers/vet-emt-extent-mapping.md, sec. 2.2,
// Definition 1, Lemma 5.4; docs/vet.md). The trie is virtual: a node is only its key, a binary
// string of B bits whose last `level` bits are don't-care ('*'), i.e. the aligned run of 2^level
// units starting at prefix << level. Depth d = B - level counts the fixed leading bits.
//
// Key encoding, shared with the hash engine (keep it simple): key = (prefix << 6) | level. Six
// bits hold any level up to 58, so keys fit 64 bits for universes up to 2^58 units; a level
// field of 63 never occurs, which the cuckoo table uses to mark an empty slot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssd::ftl {

inline constexpr uint32_t kVetLevelBits = 6;
inline constexpr uint64_t kVetLevelMask = (uint64_t{1} << kVetLevelBits) - 1;
inline constexpr uint32_t kVetMaxUniverseBits = 58;
// No key has level 63 (levels stop at 58), so all ones is never a key.
inline constexpr uint64_t kVetNoKey = ~uint64_t{0};

// The key of the aligned run of 2^level units that holds unit `start`.
inline uint64_t vet_key(uint64_t start, uint32_t level) {
  return ((start >> level) << kVetLevelBits) | level;
}
inline uint32_t vet_key_level(uint64_t key) { return static_cast<uint32_t>(key & kVetLevelMask); }
inline uint64_t vet_key_start(uint64_t key) { return (key >> kVetLevelBits) << vet_key_level(key); }
inline uint64_t vet_key_units(uint64_t key) { return uint64_t{1} << vet_key_level(key); }
inline uint64_t vet_key_end(uint64_t key) { return vet_key_start(key) + vet_key_units(key); }

// Bits B of the universe: the fewest (at least 1) with 2^B >= logical_units.
inline uint32_t vet_universe_bits(uint64_t logical_units) {
  uint32_t bits = 1;
  while (bits < 64 && (uint64_t{1} << bits) < logical_units) ++bits;
  return bits;
}

// Bits to write any value 0..n (at least 1): the width of the level field in the modelled key.
inline uint32_t vet_bits_for(uint64_t n) {
  uint32_t bits = 1;
  while (bits < 64 && (n >> bits) != 0) ++bits;
  return bits;
}

// A canonical extent (Definition 1): 2^level units starting at a multiple of 2^level.
struct CanonicalExtent {
  uint64_t start = 0;
  uint32_t level = 0;

  uint64_t units() const { return uint64_t{1} << level; }
  uint64_t end() const { return start + units(); }
  uint64_t key() const { return vet_key(start, level); }
  bool operator==(const CanonicalExtent& o) const { return start == o.start && level == o.level; }
};

// Calls `piece(CanonicalExtent)` for the canonical extents of [start, start + length) in
// ascending order: at each step the largest aligned power of two that starts there and fits.
// This yields the maximal pieces, at most two per level (Lemma 5.4): sizes rise while the start
// is less aligned than the rest is long, then fall.
template <typename Piece>
void for_each_canonical(uint64_t start, uint64_t length, Piece&& piece) {
  const uint64_t end = start + length;
  while (start < end) {
    // Alignment of the start (a start of 0 is aligned to anything) and room left.
    uint32_t level = start == 0 ? 63 : static_cast<uint32_t>(__builtin_ctzll(start));
    const uint32_t fit = 63 - static_cast<uint32_t>(__builtin_clzll(end - start));
    if (fit < level) level = fit;
    piece(CanonicalExtent{start, level});
    start += uint64_t{1} << level;
  }
}

inline std::vector<CanonicalExtent> canonical_extents(uint64_t start, uint64_t length) {
  std::vector<CanonicalExtent> pieces;
  for_each_canonical(start, length, [&](const CanonicalExtent& c) { pieces.push_back(c); });
  return pieces;
}

// The depths the binary search on levels (sec. 3.2, Fig. 5) probes, in order, when the leaf it
// is after sits at depth `depth` of a universe of `bits` bits: mid = (lo + hi) / 2 over
// [0, bits]; a probe shallower than the leaf meets an internal node (go deeper), a deeper one
// meets nothing (go shallower). Ends with `depth` itself.
inline std::vector<uint32_t> vet_search_path(uint32_t depth, uint32_t bits) {
  std::vector<uint32_t> path;
  int lo = 0, hi = static_cast<int>(bits);
  while (lo <= hi) {
    const int mid = (lo + hi) / 2;
    path.push_back(static_cast<uint32_t>(mid));
    if (mid == static_cast<int>(depth)) break;
    if (mid < static_cast<int>(depth)) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return path;
}

// The key as the paper writes it, e.g. "000010**" for <8, 4> in an 8-bit universe.
inline std::string vet_key_string(uint64_t key, uint32_t bits) {
  const uint32_t level = vet_key_level(key);
  const uint64_t prefix = key >> kVetLevelBits;
  std::string s;
  for (uint32_t i = 0; i < bits - level; ++i) {
    s += ((prefix >> (bits - level - 1 - i)) & 1) ? '1' : '0';
  }
  s.append(level, '*');
  return s;
}

}  // namespace ssd::ftl
