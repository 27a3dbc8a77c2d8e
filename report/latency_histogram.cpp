// Log-linear latency histogram (see latency_histogram.h for the contract).
//
// Bucket layout. Let s = max(msb(v), 8) - 8, the number of low bits a value loses:
//   index(v) = s * 256 + (v >> s)
// For v < 512, s = 0 and the index is v itself: every value below 256 has an exact bucket of its
// own (and so does 256..511, at no extra cost). For v in [2^k, 2^(k+1)) with k >= 8, v >> s lies in
// [256, 512), so each power of two gets 256 linear buckets of width 2^s. A bucket is therefore at
// most 1/256 of its lower edge wide, which bounds the error of a percentile to < 0.4 %.
#include "report/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ssd::report {
namespace {

constexpr int kTotalBuckets = LatencyHistogram::kMagnitudes * LatencyHistogram::kSubBuckets;

// Hot path: one clz, a shift and an add. OR-ing in bit 8 makes msb at least 8 without a branch
// (and keeps clz away from its undefined zero input); for v >= 256 it does not change msb.
inline int bucket_index(uint64_t v) {
  const int s = (63 - __builtin_clzll(v | (uint64_t{1} << LatencyHistogram::kSubBucketBits))) -
                LatencyHistogram::kSubBucketBits;
  return (s << LatencyHistogram::kSubBucketBits) + static_cast<int>(v >> s);
}

// Largest value that maps to `index`: the inverse of bucket_index, used only when reading.
uint64_t bucket_upper_edge(int index) {
  constexpr int kSub = LatencyHistogram::kSubBuckets;
  // Indices below 2 * kSub are exact (s = 0); above, index = s * kSub + t with t in [kSub, 2*kSub).
  const int s = index < 2 * kSub ? 0 : index / kSub - 1;
  const uint64_t t = static_cast<uint64_t>(index - s * kSub);
  const uint64_t lower = t << s;
  return lower + ((uint64_t{1} << s) - 1);  // never overflows: the last edge is 2^64 - 1
}

// Saturating addition: of non-negative numbers it is still associative and commutative, so merging
// histograms in any order gives the same sum as recording everything into one.
template <typename Unsigned>
Unsigned saturating_add(Unsigned a, Unsigned b) {
  const Unsigned sum = a + b;
  return sum < a ? std::numeric_limits<Unsigned>::max() : sum;
}

}  // namespace

void LatencyHistogram::record(uint64_t latency_ns) {
  ++m_buckets[static_cast<size_t>(bucket_index(latency_ns))];
  ++m_count;
  m_min = std::min(m_min, latency_ns);
  m_max = std::max(m_max, latency_ns);
  m_sum += static_cast<long double>(latency_ns);
  m_sum_squares = saturating_add(m_sum_squares, SquareSum{latency_ns} * latency_ns);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < m_buckets.size(); ++i) m_buckets[i] += other.m_buckets[i];
  m_count += other.m_count;
  m_min = std::min(m_min, other.m_min);  // an empty side holds UINT64_MAX: no effect
  m_max = std::max(m_max, other.m_max);
  m_sum += other.m_sum;
  m_sum_squares = saturating_add(m_sum_squares, other.m_sum_squares);
}

double LatencyHistogram::mean() const {
  if (m_count == 0) return 0.0;
  return static_cast<double>(m_sum / static_cast<long double>(m_count));
}

// Sample variance = (n * sum(x^2) - sum(x)^2) / (n * (n - 1)). The numerator is computed in exact
// integers while it fits in 128 bits (a sum below 2^64 ns and n * sum(x^2) below 2^128), so that it
// cannot cancel to a small wrong value; beyond that, in long double.
double LatencyHistogram::stddev() const {
  if (m_count < 2) return 0.0;
  const auto n = static_cast<long double>(m_count);
  const long double n_pairs = n * (n - 1);
  constexpr long double kTwoTo64 = 18446744073709551616.0L;
  const bool fits = m_sum < kTwoTo64 &&
                    m_sum_squares <= std::numeric_limits<SquareSum>::max() / SquareSum{m_count};
  long double variance;
  if (fits) {
    const auto sum = static_cast<SquareSum>(m_sum);  // exact: an integer below 2^64
    const SquareSum numerator = SquareSum{m_count} * m_sum_squares - sum * sum;  // >= 0
    variance = static_cast<long double>(numerator) / n_pairs;
  } else {
    variance = (static_cast<long double>(m_sum_squares) - m_sum * m_sum / n) / (n - 1);
  }
  return variance > 0 ? static_cast<double>(std::sqrt(variance)) : 0.0;
}

uint64_t LatencyHistogram::percentile(double q) const {
  if (m_count == 0) return 0;
  if (!(q > 0.0)) q = 0.0;  // also maps NaN to 0
  if (q > 1.0) q = 1.0;

  // Rank = ceil(q * count), at least 1. q is rarely exact in binary (0.07 * 100 evaluates to
  // 7.000000000000001), so a product within a relative 1e-12 above an integer counts as that
  // integer; otherwise such a q would jump one rank, and one bucket, too far.
  double product = q * static_cast<double>(m_count);
  product -= product * 1e-12;
  uint64_t rank = static_cast<uint64_t>(std::ceil(product));
  rank = std::clamp<uint64_t>(rank, 1, m_count);

  // Buckets above m_max's are empty, so the cumulative count always reaches rank by then.
  const int last = bucket_index(m_max);
  uint64_t cumulative = 0;
  for (int i = 0; i <= last; ++i) {
    cumulative += m_buckets[static_cast<size_t>(i)];
    if (cumulative >= rank) return std::min(bucket_upper_edge(i), m_max);
  }
  return m_max;
}

LatencySummary LatencyHistogram::summary() const {
  LatencySummary s;
  s.count = m_count;
  s.mean_ns = mean();
  s.p50_ns = percentile(0.50);
  s.p90_ns = percentile(0.90);
  s.p99_ns = percentile(0.99);
  s.p999_ns = percentile(0.999);
  s.max_ns = m_max;
  return s;
}

std::vector<LatencyBucket> LatencyHistogram::buckets() const {
  std::vector<LatencyBucket> out;
  if (m_count == 0) return out;
  const int last = bucket_index(m_max);
  for (int i = bucket_index(m_min); i <= last; ++i) {
    const uint64_t count = m_buckets[static_cast<size_t>(i)];
    if (count > 0) out.push_back({std::min(bucket_upper_edge(i), m_max), count});
  }
  return out;
}

// The largest index, that of 2^64 - 1 (s = 63 - kSubBucketBits, v >> s = 2 * kSubBuckets - 1),
// must be the last slot of the array.
static_assert(kTotalBuckets ==
                  (63 - LatencyHistogram::kSubBucketBits) * LatencyHistogram::kSubBuckets +
                      2 * LatencyHistogram::kSubBuckets,
              "bucket layout and array size disagree");

}  // namespace ssd::report
