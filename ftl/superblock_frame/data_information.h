// The data information (DI) that starts every spare area of the Superblock and LSB FTLs, in both
// schemes' bit-exact formats (superblock_spare.h, lsb_spare.h): the page's logical page number
// (bits 0-31, word 0), its write sequence number, then ECC (not modelled, left zero) up to
// di_bits.
//
// The sequence is what recovery tells the newest copy of a logical page by, one number per
// program. 32 bits would wrap after 2^32 programs (16 TiB of 4 KiB pages, within a drive's life
// and within reach of a long simulation), after which a stale copy could pass for the newest: so
// the sequence is 64 bits (words 1 and 2) whenever the DI has room (di_bytes >= 12), leaving the
// ECC di_bytes - 12 bytes (8 of the default 20). A DI of 8 to 11 bytes keeps the low 32 bits
// only; power cuts are then refused (the descriptors name di_bytes).
#pragma once

#include <cstdint>

#include "ftl/core/spare_bits.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

// The DI bytes a 64-bit sequence needs: LPN and both sequence words.
constexpr uint32_t kWideSequenceDiBytes = 12;

inline bool wide_sequence(uint32_t di_bits) { return di_bits >= kWideSequenceDiBytes * 8; }

inline void put_data_information(SpareBitWriter& out, uint32_t di_bits, Lun lpn,
                                 uint64_t sequence) {
  out.put(lpn, 32);
  out.put(static_cast<uint32_t>(sequence), 32);
  uint32_t at = 64;
  if (wide_sequence(di_bits)) {
    out.put(static_cast<uint32_t>(sequence >> 32), 32);
    at = 96;
  }
  for (; at < di_bits; at += 8) out.put(0, 8);  // ECC: not modelled
}

inline void get_data_information(SpareBitReader& in, uint32_t di_bits, Lun& lpn,
                                 uint64_t& sequence) {
  lpn = in.get(32);
  sequence = in.get(32);
  uint32_t at = 64;
  if (wide_sequence(di_bits)) {
    sequence |= uint64_t{in.get(32)} << 32;
    at = 96;
  }
  in.skip(di_bits - at);
}

// The sequence a programmed page's spare words hold, without decoding the rest.
inline uint64_t sequence_in(const uint32_t* words, uint32_t di_bits) {
  return words[1] | (wide_sequence(di_bits) ? uint64_t{words[2]} << 32 : 0);
}

}  // namespace ssd::ftl
