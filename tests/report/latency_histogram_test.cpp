// LatencyHistogram: exactness below 256, the 0.4 % error bound above, and the exact statistics.
#include "report/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace ssd::report {
namespace {

constexpr double kBound = 1.0 / 256.0;  // widest bucket relative to its lower edge (< 0.4 %)

// The value a percentile should report if the histogram kept every sample: rank ceil(q * n).
uint64_t exact_percentile(std::vector<uint64_t> sorted, double q) {
  std::sort(sorted.begin(), sorted.end());
  const auto n = static_cast<double>(sorted.size());
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * n - 1e-9)));
  return sorted[rank - 1];
}

TEST(LatencyHistogram, EmptyReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.percentile(0.5), 0u);
  EXPECT_EQ(h.percentile(1.0), 0u);
  const LatencySummary s = h.summary();
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.mean_ns, 0.0);
  EXPECT_EQ(s.p50_ns, 0u);
  EXPECT_EQ(s.p999_ns, 0u);
  EXPECT_EQ(s.max_ns, 0u);
}

TEST(LatencyHistogram, ValuesBelow256AreExact) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 256; ++v) h.record(v);
  // Rank k + 1 of 256 is the value k; every such value has a bucket of its own.
  for (uint64_t k = 0; k < 256; ++k) {
    EXPECT_EQ(h.percentile(static_cast<double>(k + 1) / 256.0), k) << "k=" << k;
  }
  EXPECT_EQ(h.percentile(0.0), 0u);  // rank is at least 1
  EXPECT_EQ(h.max(), 255u);
}

TEST(LatencyHistogram, SingleValueIsReportedExactlyThroughTheMaxClamp) {
  for (uint64_t v : {0ull, 1ull, 255ull, 256ull, 1000ull, 123456789ull, ~0ull}) {
    LatencyHistogram h;
    h.record(v);
    EXPECT_EQ(h.percentile(0.5), v);
    EXPECT_EQ(h.percentile(1.0), v);
  }
}

TEST(LatencyHistogram, BucketEdgesStayWithinBoundAtEveryMagnitude) {
  // A larger second sample keeps the max clamp out of the way, so p50 is the bucket's upper edge.
  for (int k = 8; k < 63; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (uint64_t v : {p - 1, p, p + 1, p + p / 3, 2 * p - 1}) {
      LatencyHistogram h;
      h.record(v);
      h.record(~0ull);
      const uint64_t edge = h.percentile(0.5);
      ASSERT_GE(edge, v) << "v=" << v;
      ASSERT_LE(static_cast<double>(edge - v), static_cast<double>(v) * kBound) << "v=" << v;
    }
  }
}

TEST(LatencyHistogram, LargestValueDoesNotOverflow) {
  LatencyHistogram h;
  h.record(~0ull);
  h.record(~0ull - 1);
  EXPECT_EQ(h.percentile(0.5), ~0ull);  // upper edge of the last bucket, and the max
  EXPECT_EQ(h.max(), ~0ull);
}

TEST(LatencyHistogram, UniformPercentilesWithinBound) {
  LatencyHistogram h;
  constexpr uint64_t kN = 1000000;
  for (uint64_t v = 1; v <= kN; ++v) h.record(v);
  for (double q : {0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0}) {
    const auto expected = static_cast<uint64_t>(std::ceil(q * kN - 1e-6));  // value == rank
    const uint64_t got = h.percentile(q);
    EXPECT_GE(got, expected) << "q=" << q;
    EXPECT_LE(static_cast<double>(got - expected), static_cast<double>(expected) * kBound)
        << "q=" << q;
  }
  EXPECT_EQ(h.percentile(1.0), kN);
  EXPECT_DOUBLE_EQ(h.mean(), (kN + 1) / 2.0);
}

TEST(LatencyHistogram, ConstantDistributionIsExact) {
  LatencyHistogram h;
  for (int i = 0; i < 10000; ++i) h.record(87654321);
  const LatencySummary s = h.summary();
  EXPECT_EQ(s.count, 10000u);
  EXPECT_EQ(s.mean_ns, 87654321.0);
  EXPECT_EQ(s.p50_ns, 87654321u);
  EXPECT_EQ(s.p90_ns, 87654321u);
  EXPECT_EQ(s.p99_ns, 87654321u);
  EXPECT_EQ(s.p999_ns, 87654321u);
  EXPECT_EQ(s.max_ns, 87654321u);
}

TEST(LatencyHistogram, SkewedDistributionWithinBound) {
  // Heavy-tailed, spanning ns to seconds, from a fixed LCG so the test is deterministic.
  LatencyHistogram h;
  std::vector<uint64_t> values;
  uint64_t state = 42;
  for (int i = 0; i < 200000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    const auto v = static_cast<uint64_t>(50000.0 * std::pow(1.0 - u, -1.5));
    values.push_back(v);
    h.record(v);
  }
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const uint64_t expected = exact_percentile(values, q);
    const uint64_t got = h.percentile(q);
    EXPECT_GE(got, expected) << "q=" << q;
    EXPECT_LE(static_cast<double>(got - expected), static_cast<double>(expected) * kBound)
        << "q=" << q;
  }
  EXPECT_EQ(h.max(), *std::max_element(values.begin(), values.end()));
}

TEST(LatencyHistogram, RankOfInexactQuantileDoesNotOvershoot) {
  // 0.07 * 100 is 7.000000000000001 in doubles; the rank must still be 7.
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.percentile(0.07), 7u);
  EXPECT_EQ(h.percentile(0.29), 29u);
  EXPECT_EQ(h.percentile(0.5), 50u);
  EXPECT_EQ(h.percentile(0.505), 51u);
  EXPECT_EQ(h.percentile(-1.0), 1u);  // out-of-range q is clamped
  EXPECT_EQ(h.percentile(2.0), 100u);
}

TEST(LatencyHistogram, PercentilesAreMonotone) {
  LatencyHistogram h;
  uint64_t state = 7;
  for (int i = 0; i < 50000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    h.record((state >> 33) % 5000000);
  }
  uint64_t previous = 0;
  for (int i = 0; i <= 1000; ++i) {
    const uint64_t p = h.percentile(i / 1000.0);
    EXPECT_GE(p, previous) << "q=" << i / 1000.0;
    previous = p;
  }
  const LatencySummary s = h.summary();
  EXPECT_LE(s.p50_ns, s.p90_ns);
  EXPECT_LE(s.p90_ns, s.p99_ns);
  EXPECT_LE(s.p99_ns, s.p999_ns);
  EXPECT_LE(s.p999_ns, s.max_ns);
}

TEST(LatencyHistogram, MaxAndMeanAreExact) {
  LatencyHistogram h;
  const std::vector<uint64_t> values = {3, 1000001, 17, 999999999, 256, 257, 65537};
  long double sum = 0;
  for (uint64_t v : values) {
    h.record(v);
    sum += v;
  }
  EXPECT_EQ(h.count(), values.size());
  EXPECT_EQ(h.max(), 999999999u);
  EXPECT_EQ(h.mean(), static_cast<double>(sum / values.size()));
}

TEST(LatencyHistogram, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 1; v < 300000; v += 7) {
    ((v % 3 == 0) ? a : b).record(v * 13);
    all.record(v * 13);
  }
  LatencyHistogram empty;
  a.merge(b);
  a.merge(empty);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.mean(), all.mean());
  for (int i = 0; i <= 100; ++i) EXPECT_EQ(a.percentile(i / 100.0), all.percentile(i / 100.0));

  empty.merge(all);  // into an empty histogram
  EXPECT_EQ(empty.summary().p99_ns, all.summary().p99_ns);
  EXPECT_EQ(empty.max(), all.max());
}

}  // namespace
}  // namespace ssd::report
