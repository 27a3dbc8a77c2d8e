// Packs fields of any bit width into a page's spare words and reads them back, for schemes that
// keep a bit-exact spare-area layout (the Superblock and LSB FTLs). Bits fill each 32-bit word from
// its least significant bit up, words in order, so bit k of the spare area is bit k % 32 of word
// k / 32; a field may straddle two words. Fields wider than 32 bits are not needed and refused.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace ssd::ftl {

class SpareBitWriter {
 public:
  SpareBitWriter(uint32_t* words, uint32_t word_count) : m_words(words), m_bits(word_count * 32) {}

  // Appends the low `width` bits of `value`; throws when `value` does not fit or the spare is full.
  void put(uint32_t value, uint32_t width) {
    if (width > 32 || (width < 32 && (value >> width) != 0)) {
      throw std::logic_error("spare field value does not fit its width");
    }
    if (m_position + width > m_bits) throw std::logic_error("spare area overflow");
    if (width == 0) return;  // touches no word (the position may be one past the last)
    // The field as it falls in a 64-bit window from its first word: at most two words.
    const uint32_t shift = m_position % 32;
    const uint64_t mask = ((uint64_t{1} << width) - 1) << shift;
    const uint64_t bits = uint64_t{value} << shift;
    uint32_t* word = m_words + m_position / 32;
    word[0] = (word[0] & ~static_cast<uint32_t>(mask)) | static_cast<uint32_t>(bits);
    if (shift + width > 32) {
      word[1] = (word[1] & ~static_cast<uint32_t>(mask >> 32)) | static_cast<uint32_t>(bits >> 32);
    }
    m_position += width;
  }
  void skip(uint32_t width) { m_position += width; }
  uint32_t position() const { return m_position; }

 private:
  uint32_t* m_words;
  uint32_t m_bits;
  uint32_t m_position = 0;
};

class SpareBitReader {
 public:
  SpareBitReader(const uint32_t* words, uint32_t word_count)
      : m_words(words), m_bits(word_count * 32) {}

  uint32_t get(uint32_t width) {
    if (width > 32 || m_position + width > m_bits) throw std::logic_error("spare area overrun");
    if (width == 0) return 0;  // touches no word (the position may be one past the last)
    // The field's words as one 64-bit window (the second only when the field reaches into it).
    const uint32_t shift = m_position % 32;
    const uint32_t* word = m_words + m_position / 32;
    uint64_t window = word[0];
    if (shift + width > 32) window |= uint64_t{word[1]} << 32;
    m_position += width;
    return static_cast<uint32_t>((window >> shift) & ((uint64_t{1} << width) - 1));
  }
  void skip(uint32_t width) { m_position += width; }
  uint32_t position() const { return m_position; }

 private:
  const uint32_t* m_words;
  uint32_t m_bits;
  uint32_t m_position = 0;
};

// A field of `bits` bits (at most 32) with every bit set: what an erased spare area reads, and
// the formats' "unused" entry.
inline uint32_t all_ones(uint32_t bits) { return bits >= 32 ? ~0u : (1u << bits) - 1; }

// The fewest bits that tell `values` values apart (ceil(log2(values)), at least 1).
inline uint32_t bits_for(uint64_t values) {
  uint32_t bits = 1;
  while (bits < 64 && (uint64_t{1} << bits) < values) ++bits;
  return bits;
}

}  // namespace ssd::ftl
