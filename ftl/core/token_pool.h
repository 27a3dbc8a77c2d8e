// Fixed-size arrays of tokens (one per sector of a unit, or per slot of a cache line), pooled by
// index so that per-line records do not allocate one by one.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/core/types.h"

namespace ssd::ftl {

class TokenPool {
 public:
  explicit TokenPool(uint32_t sectors_per_unit) : m_width(sectors_per_unit) {}

  uint32_t acquire() {
    if (!m_free.empty()) {
      const uint32_t index = m_free.back();
      m_free.pop_back();
      return index;
    }
    m_tokens.resize(m_tokens.size() + m_width, 0);
    return static_cast<uint32_t>(m_tokens.size() / m_width - 1);
  }
  void release(uint32_t index) { m_free.push_back(index); }

  Token* at(uint32_t index) { return &m_tokens[uint64_t{index} * m_width]; }
  const Token* at(uint32_t index) const { return &m_tokens[uint64_t{index} * m_width]; }

 private:
  uint32_t m_width;
  std::vector<Token> m_tokens;
  std::vector<uint32_t> m_free;
};

}  // namespace ssd::ftl
