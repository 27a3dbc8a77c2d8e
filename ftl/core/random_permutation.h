// A seeded random order of the numbers 0 .. n-1 that gives each exactly once before any again:
// what fio's random map guarantees (every block of the region once per pass) without fio's bitmap,
// so it costs no memory whatever the region. A 4-round Feistel network permutes the 2h-bit
// numbers (2^2h the smallest such power of four >= n); a counter walks them in order and skips
// the images >= n, which leaves a permutation of 0 .. n-1 (at most 4 steps a number on average).
// After n numbers the same order starts again. Used by the workload (workload.random_map, the
// scatter of skewed addresses) and by sampled aging (sampled_aging.h: which unit a slot holds).
#pragma once

#include <cstdint>

#include "ftl/core/random.h"

namespace ssd::ftl {

class RandomPermutation {
 public:
  RandomPermutation(uint64_t n, uint64_t seed) : m_n(n) {
    while ((uint64_t{1} << (2 * m_half_bits)) < n) ++m_half_bits;
    m_half_mask = (uint64_t{1} << m_half_bits) - 1;
    Random random(seed);
    for (uint64_t& key : m_keys) key = random.next();
  }

  uint64_t size() const { return m_n; }

  // A permutation of 0 .. n-1 as a function, for any i < n (not next()'s order): cycle-walking,
  // the network applied again until the image is below n.
  uint64_t at(uint64_t i) const {
    uint64_t image = permute(i);
    while (image >= m_n) image = permute(image);
    return image;
  }

  uint64_t next() {
    while (m_ready_at == m_ready_end) refill();
    return m_ready[m_ready_at++];
  }

 private:
  // The next kBatch counters' images, those below n kept in order. Computed together, the images
  // are independent work the core overlaps, where one at a time each waited for the branch on
  // the one before (taken at random: about half the images are >= n when n is just above a
  // power of four).
  static constexpr uint32_t kBatch = 16;
  void refill() {
    const uint64_t domain_mask = (m_half_mask << m_half_bits) | m_half_mask;
    uint64_t images[kBatch];
    for (uint32_t i = 0; i < kBatch; ++i) images[i] = permute((m_counter + i) & domain_mask);
    m_counter = (m_counter + kBatch) & domain_mask;
    m_ready_at = 0;
    m_ready_end = 0;
    for (const uint64_t image : images) {
      m_ready[m_ready_end] = image;
      m_ready_end += image < m_n ? 1 : 0;
    }
  }

  uint64_t permute(uint64_t x) const {
    uint64_t left = x >> m_half_bits;
    uint64_t right = x & m_half_mask;
    for (const uint64_t key : m_keys) {
      const uint64_t mixed = round(right ^ key);
      const uint64_t next_right = (left ^ mixed) & m_half_mask;
      left = right;
      right = next_right;
    }
    return left << m_half_bits | right;
  }
  static uint64_t round(uint64_t x) {  // splitmix64's finaliser: every bit depends on every bit
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }

  uint64_t m_n;
  uint32_t m_half_bits = 1;
  uint64_t m_half_mask = 1;
  uint64_t m_keys[4] = {};
  uint64_t m_counter = 0;
  uint64_t m_ready[kBatch] = {};  // images to give, [m_ready_at, m_ready_end)
  uint32_t m_ready_at = 0;
  uint32_t m_ready_end = 0;
};

}  // namespace ssd::ftl
