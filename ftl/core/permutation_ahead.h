// RandomPermutation::next()'s numbers, worked out ahead on a second thread. Sampled aging's layout
// gives the k-th valid slot of the device the k-th number of a permutation of its units: 124.8 M
// numbers on MQSim's device, each two runs of a four-round network on average, and a loop of
// those next() calls alone took 2.3-2.6 s on the VM measured (docs/performance.md, "The
// permutation on the second core"). The numbers depend on nothing the layout does, so a second
// core works them out in chunks while the first lays them out: the same numbers in the same
// order, so the same state and report.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace ssd::ftl {

class PermutationAhead {
 public:
  static constexpr uint32_t kChunk = uint32_t{1} << 15;  // numbers handed over at once
  static constexpr uint32_t kChunks = 4;                 // the worker's lead, in chunks

  // The first `count` numbers that RandomPermutation(n, seed).next() would give, in that order;
  // none are worked out when count is 0 (no thread either). An empty permutation (n = 0) has no
  // numbers to give: std::invalid_argument when count is not 0.
  PermutationAhead(uint64_t n, uint64_t seed, uint64_t count);
  // Stops the worker and waits for it, whether or not every number was taken.
  ~PermutationAhead();
  PermutationAhead(const PermutationAhead&) = delete;
  PermutationAhead& operator=(const PermutationAhead&) = delete;

  // The next number; throws std::logic_error past `count`.
  uint64_t next() {
    if (m_at == m_end) take_chunk();
    return m_taking[m_at++];
  }

 private:
  struct Chunk {
    std::vector<uint64_t> numbers;
    bool ready = false;  // written by the worker, not yet taken
  };

  void work(uint64_t n, uint64_t seed);
  void take_chunk();

  const uint64_t m_count;
  uint64_t m_taken = 0;  // numbers in the chunks taken so far
  Chunk m_chunks[kChunks];
  uint32_t m_next_chunk = 0;  // the chunk to take next
  // The chunk being read, swapped out of the ring so the worker can refill its place meanwhile.
  std::vector<uint64_t> m_taking;
  uint32_t m_at = 0;
  uint32_t m_end = 0;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_stop = false;
  std::thread m_worker;
};

}  // namespace ssd::ftl
