// Log-linear latency histogram: constant memory whatever the run length, deterministic, with a
// bounded relative error (each power of two split into 256 linear buckets: < 0.4 %). Count, min,
// max, mean and standard deviation come from exact sums kept beside the buckets; percentiles return
// the upper edge of the bucket holding the rank, clamped to the exact max.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace ssd::report {

struct LatencySummary {
  uint64_t count = 0;
  double mean_ns = 0.0;
  uint64_t p50_ns = 0;
  uint64_t p90_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p999_ns = 0;
  uint64_t max_ns = 0;
};

// One non-empty bucket: the value percentile() reports for any rank that falls in it (its upper
// edge, clamped to the exact max) and how many latencies it holds.
struct LatencyBucket {
  uint64_t value_ns = 0;
  uint64_t count = 0;
};

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 8;
  static constexpr int kSubBuckets = 1 << kSubBucketBits;
  static constexpr int kMagnitudes = 64 - kSubBucketBits + 1;

  void record(uint64_t latency_ns);
  void merge(const LatencyHistogram& other);

  uint64_t count() const { return m_count; }
  uint64_t min() const { return m_count ? m_min : 0; }
  uint64_t max() const { return m_max; }
  // Sum of every recorded latency; exact while below 2^64 ns (584 years).
  long double sum() const { return m_sum; }
  double mean() const;
  // Sample standard deviation (divides by count - 1, as fio's does); 0 below two latencies.
  // Computed from exact integer sums, so that equal latencies give exactly 0.
  double stddev() const;
  // q in [0, 1]; 0 when empty.
  uint64_t percentile(double q) const;
  LatencySummary summary() const;
  // The non-empty buckets in ascending order; their counts add up to count().
  std::vector<LatencyBucket> buckets() const;

 private:
  // 128-bit sum of squares: exact and order-independent (so merge equals recording everything in
  // one); it saturates, rather than wraps, past 2^128 ns^2 (e.g. 2^40 latencies of 5 hours).
  __extension__ typedef unsigned __int128 SquareSum;  // __extension__: no -Wpedantic warning

  std::array<uint64_t, kMagnitudes * kSubBuckets> m_buckets{};
  uint64_t m_count = 0;
  uint64_t m_min = UINT64_MAX;  // valid only when m_count > 0
  uint64_t m_max = 0;
  long double m_sum = 0;
  SquareSum m_sum_squares = 0;
};

}  // namespace ssd::report
