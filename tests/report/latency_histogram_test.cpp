// LatencyHistogram: exactness below 256, the 0.4 % error bound above, the exact statistics (count,
// min, max, mean, stddev) and the buckets fio's json+ bins are made of.
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

// Sample standard deviation (n - 1) of `values`, the textbook two-pass way in long double.
double sample_stddev(const std::vector<uint64_t>& values) {
  long double sum = 0;
  for (uint64_t v : values) sum += v;
  const long double mean = sum / values.size();
  long double squares = 0;
  for (uint64_t v : values) squares += (v - mean) * (v - mean);
  return static_cast<double>(std::sqrt(squares / (values.size() - 1)));
}

TEST(LatencyHistogram, EmptyHasZeroMinStddevAndNoBuckets) {
  LatencyHistogram h;
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.stddev(), 0.0);
  EXPECT_EQ(h.sum(), 0.0L);
  EXPECT_TRUE(h.buckets().empty());
}

TEST(LatencyHistogram, MinIsExact) {
  LatencyHistogram h;
  for (uint64_t v : {1000001ull, 65537ull, 999999999ull, 257ull, 70000ull}) h.record(v);
  EXPECT_EQ(h.min(), 257u);
  h.record(0);
  EXPECT_EQ(h.min(), 0u);
}

TEST(LatencyHistogram, StddevIsTheSampleStandardDeviation) {
  LatencyHistogram h;
  const std::vector<uint64_t> values = {3, 1000001, 17, 999999999, 256, 257, 65537};
  for (uint64_t v : values) h.record(v);
  EXPECT_NEAR(h.stddev(), sample_stddev(values), sample_stddev(values) * 1e-12);

  LatencyHistogram two;  // 10 and 20: sample variance 50 (population variance would be 25)
  two.record(10);
  two.record(20);
  EXPECT_DOUBLE_EQ(two.stddev(), std::sqrt(50.0));
}

TEST(LatencyHistogram, StddevOfOneOrOfEqualLatenciesIsExactlyZero) {
  LatencyHistogram one;
  one.record(123456789);
  EXPECT_EQ(one.stddev(), 0.0);
  // Large equal values: a sum of squares in floating point would leave a residue here.
  LatencyHistogram equal;
  for (int i = 0; i < 10000; ++i) equal.record(87654321);
  EXPECT_EQ(equal.stddev(), 0.0);
}

TEST(LatencyHistogram, StddevOfSkewedLatenciesMatchesTwoPass) {
  LatencyHistogram h;
  std::vector<uint64_t> values;
  uint64_t state = 11;
  for (int i = 0; i < 100000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
    values.push_back(static_cast<uint64_t>(50000.0 * std::pow(1.0 - u, -1.5)));
    h.record(values.back());
  }
  EXPECT_NEAR(h.stddev(), sample_stddev(values), sample_stddev(values) * 1e-9);
}

TEST(LatencyHistogram, StddevOfHugeLatenciesFallsBackWithoutOverflow) {
  // A sum of 2^64 ns or more leaves the exact integer path.
  LatencyHistogram h;
  const std::vector<uint64_t> values = {uint64_t{1} << 62, uint64_t{1} << 62, uint64_t{1} << 62,
                                        (uint64_t{1} << 62) + (uint64_t{1} << 52)};
  for (uint64_t v : values) h.record(v);
  EXPECT_NEAR(h.stddev(), sample_stddev(values), sample_stddev(values) * 1e-6);

  LatencyHistogram largest;  // squares past 2^128 saturate: finite, and nothing else changes
  largest.record(~0ull);
  largest.record(~0ull);
  largest.record(~0ull);
  EXPECT_TRUE(std::isfinite(largest.stddev()));
  EXPECT_EQ(largest.max(), ~0ull);
  EXPECT_EQ(largest.min(), ~0ull);
}

TEST(LatencyHistogram, SumIsTheTotalOfTheLatencies) {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 1000; ++v) h.record(v * 1000);
  EXPECT_EQ(h.sum(), 500500000.0L);
}

TEST(LatencyHistogram, BucketsAscendAddUpAndAgreeWithPercentiles) {
  LatencyHistogram h;
  uint64_t state = 5;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    h.record((state >> 33) % 3000000);
  }
  const std::vector<LatencyBucket> buckets = h.buckets();
  ASSERT_FALSE(buckets.empty());
  uint64_t cumulative = 0, previous = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    ASSERT_GT(buckets[i].count, 0u);
    if (i > 0) {
      ASSERT_GT(buckets[i].value_ns, previous);
    }
    previous = buckets[i].value_ns;
    cumulative += buckets[i].count;
    // The rank that ends this bucket reports the bucket's value.
    const double q = static_cast<double>(cumulative) / static_cast<double>(h.count());
    ASSERT_EQ(h.percentile(q), buckets[i].value_ns) << "bucket " << i;
  }
  EXPECT_EQ(cumulative, h.count());
  EXPECT_EQ(buckets.back().value_ns, h.max());  // the last one is clamped to the exact max
  EXPECT_GE(buckets.front().value_ns, h.min());
}

TEST(LatencyHistogram, BucketsBelow512AreTheValuesThemselves) {
  LatencyHistogram h;
  for (uint64_t v : {0ull, 7ull, 7ull, 255ull, 300ull, 511ull}) h.record(v);
  h.record(1000000);
  const std::vector<LatencyBucket> buckets = h.buckets();
  ASSERT_EQ(buckets.size(), 6u);
  EXPECT_EQ(buckets[0].value_ns, 0u);
  EXPECT_EQ(buckets[1].value_ns, 7u);
  EXPECT_EQ(buckets[1].count, 2u);
  EXPECT_EQ(buckets[2].value_ns, 255u);
  EXPECT_EQ(buckets[3].value_ns, 300u);
  EXPECT_EQ(buckets[4].value_ns, 511u);
  EXPECT_EQ(buckets[5].value_ns, 1000000u);
}

TEST(LatencyHistogram, MergeCombinesMinStddevAndBucketsExactly) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 1; v < 300000; v += 7) {
    ((v % 3 == 0) ? a : b).record(v * 13 + 5);
    all.record(v * 13 + 5);
  }
  LatencyHistogram empty;
  a.merge(empty);
  a.merge(b);
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.stddev(), all.stddev());  // exact integer sums: bit for bit
  EXPECT_EQ(a.sum(), all.sum());
  const std::vector<LatencyBucket> merged = a.buckets(), recorded = all.buckets();
  ASSERT_EQ(merged.size(), recorded.size());
  for (size_t i = 0; i < merged.size(); ++i) {
    EXPECT_EQ(merged[i].value_ns, recorded[i].value_ns);
    EXPECT_EQ(merged[i].count, recorded[i].count);
  }
  empty.merge(all);  // an empty histogram takes the other's min
  EXPECT_EQ(empty.min(), all.min());
  EXPECT_EQ(empty.stddev(), all.stddev());
}

}  // namespace
}  // namespace ssd::report
