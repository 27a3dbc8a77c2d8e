// Log-linear latency histogram: constant memory whatever the run length, deterministic, with a
// bounded relative error (each power of two split into 256 linear buckets: < 0.4 %). Mean, count
// and max are exact; percentiles return the upper edge of the bucket holding the rank, clamped to
// the exact max.
#pragma once

#include <array>
#include <cstdint>

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

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 8;
  static constexpr int kSubBuckets = 1 << kSubBucketBits;
  static constexpr int kMagnitudes = 64 - kSubBucketBits + 1;

  void record(uint64_t latency_ns);
  void merge(const LatencyHistogram& other);

  uint64_t count() const { return m_count; }
  uint64_t max() const { return m_max; }
  double mean() const;
  // q in [0, 1]; 0 when empty.
  uint64_t percentile(double q) const;
  LatencySummary summary() const;

 private:
  std::array<uint64_t, kMagnitudes * kSubBuckets> m_buckets{};
  uint64_t m_count = 0;
  uint64_t m_max = 0;
  long double m_sum = 0;
};

}  // namespace ssd::report
