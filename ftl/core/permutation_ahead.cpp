#include "ftl/core/permutation_ahead.h"

#include <algorithm>
#include <stdexcept>

#include "ftl/core/random_permutation.h"

namespace ssd::ftl {

PermutationAhead::PermutationAhead(uint64_t n, uint64_t seed, uint64_t count) : m_count(count) {
  if (count == 0) return;
  if (n == 0) throw std::invalid_argument("PermutationAhead: numbers of an empty permutation");
  for (Chunk& chunk : m_chunks) chunk.numbers.reserve(kChunk);
  m_taking.reserve(kChunk);
  m_worker = std::thread([this, n, seed] { work(n, seed); });
}

PermutationAhead::~PermutationAhead() {
  if (!m_worker.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_worker.join();
}

void PermutationAhead::work(uint64_t n, uint64_t seed) {
  RandomPermutation order(n, seed);
  std::vector<uint64_t> numbers;
  numbers.reserve(kChunk);
  uint64_t made = 0;
  for (uint32_t c = 0; made < m_count; c = (c + 1) % kChunks) {
    // Worked out before waiting for the ring's chunk to be free: the worker stays a chunk ahead.
    const auto size = static_cast<uint32_t>(std::min<uint64_t>(kChunk, m_count - made));
    numbers.clear();
    for (uint32_t i = 0; i < size; ++i) numbers.push_back(order.next());
    made += size;
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return m_stop || !m_chunks[c].ready; });
    if (m_stop) return;
    m_chunks[c].numbers.swap(numbers);
    m_chunks[c].ready = true;
    lock.unlock();
    m_changed.notify_all();
  }
}

void PermutationAhead::take_chunk() {
  if (m_taken >= m_count)
    throw std::logic_error("PermutationAhead: more numbers asked for than made");
  Chunk& chunk = m_chunks[m_next_chunk];
  {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return chunk.ready; });
    m_taking.swap(chunk.numbers);
    chunk.ready = false;
  }
  m_changed.notify_all();
  m_next_chunk = (m_next_chunk + 1) % kChunks;
  m_at = 0;
  m_end = static_cast<uint32_t>(m_taking.size());
  m_taken += m_end;
}

}  // namespace ssd::ftl
