// Content tokens: a 32-bit stand-in for the data of one mapping unit, so the simulator can check
// every read without storing data. A whole-unit write gives the unit a token derived from the
// write's id and the unit number; a partial write chains the unit's previous token with the write
// id and the mask of sectors written. An FTL that merges a partial write with the wrong old
// version (or returns a stale or foreign unit) ends up with a token the oracle did not compute.
// 0 means "never written" (or trimmed); tokens are never 0 otherwise.
#pragma once

#include <cstdint>

#include "ftl/core/types.h"

namespace ssd::ftl {

namespace detail {
inline uint64_t mix64(uint64_t x) {  // splitmix64 finaliser: cheap, well spread
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}
inline Token nonzero(uint64_t h) {
  const auto t = static_cast<Token>(h ^ (h >> 32));
  return t == 0 ? 1 : t;
}
}  // namespace detail

inline Token whole_unit_token(uint64_t write_id, Lun lun) {
  return detail::nonzero(detail::mix64(write_id * 0x9e3779b97f4a7c15ull + lun));
}

inline Token partial_unit_token(Token previous, uint64_t write_id, Lun lun, uint64_t sector_mask) {
  const uint64_t seed =
      (uint64_t(previous) << 32 | detail::mix64(sector_mask) >> 32) ^ detail::mix64(write_id + lun);
  return detail::nonzero(detail::mix64(seed));
}

// The token a unit holds after a write that covers `sector_mask` of it (all ones = whole unit).
inline Token written_token(Token previous, uint64_t write_id, Lun lun, uint64_t sector_mask,
                           uint64_t full_mask) {
  return sector_mask == full_mask ? whole_unit_token(write_id, lun)
                                  : partial_unit_token(previous, write_id, lun, sector_mask);
}

// Sector-granular content, used while a layer above the scheme keeps data by sector
// (ftl/sector_log/): sector `sector` written by write `write_id` holds sector_token(); a unit's
// token is the sum (mod 2^32) of its sectors' tokens, a never-written sector counting 0. A sum does
// not depend on the order sectors were gathered in, so a unit merged from sectors kept in several
// places gets the token the oracle computes from the host's commands alone, while a sector taken
// from the wrong place or version changes it (but for a 2^-32 chance).
inline Token sector_token(uint64_t write_id, uint64_t sector) {
  return detail::nonzero(detail::mix64(write_id * 0x9e3779b97f4a7c15ull ^ (sector + 1)));
}

// The sum of sector_token(write_id, s) over the sectors of `mask` in the unit that starts at
// `first_sector`.
inline Token sector_sum(uint64_t write_id, uint64_t first_sector, uint64_t mask) {
  Token sum = 0;
  for (; mask != 0; mask &= mask - 1) {
    sum += sector_token(write_id, first_sector + static_cast<uint64_t>(__builtin_ctzll(mask)));
  }
  return sum;
}

}  // namespace ssd::ftl
