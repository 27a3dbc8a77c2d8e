#include "workload/synthetic_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace ssd::workload {
namespace {

constexpr uint64_t kDevice = 64ull << 20;

std::vector<Request> drain(SyntheticGenerator& generator) {
  std::vector<Request> all;
  Request r;
  while (generator.next(r)) all.push_back(r);
  return all;
}

std::vector<Request> stream(const config::WorkloadConfig& c) {
  SyntheticGenerator g(c, kDevice, 512);
  return drain(g);
}

// "W2048+8 F ...": kind letter, then start sector + sector count for data commands.
std::string show(const std::vector<Request>& requests) {
  std::string text;
  for (const Request& r : requests) {
    if (!text.empty()) text += ' ';
    text += "RWTF"[static_cast<int>(r.kind)];
    if (r.kind != ftl::CommandKind::kFlush) {
      text += std::to_string(r.start_sector) + "+" + std::to_string(r.sector_count);
    }
  }
  return text;
}

bool same(const Request& a, const Request& b) {
  return a.kind == b.kind && a.start_sector == b.start_sector && a.sector_count == b.sector_count &&
         a.arrival == b.arrival && a.queue == b.queue;
}

// A sync workload over a small span: `data_bytes` of data followed by `journal_bytes` of journal.
config::WorkloadConfig sync_workload(const std::string& call, uint64_t data_bytes,
                                     uint64_t journal_bytes) {
  config::WorkloadConfig c;
  c.sync_call = call;
  c.journal_bytes = journal_bytes;
  c.address_start_bytes = 1 << 20;
  c.address_span_bytes = data_bytes + journal_bytes;
  return c;
}

TEST(SyntheticGenerator, SameSeedSameRequests) {
  config::WorkloadConfig c;
  c.requests = 1000;
  SyntheticGenerator a(c, kDevice, 512), b(c, kDevice, 512);
  const auto ra = drain(a), rb = drain(b);
  ASSERT_EQ(ra.size(), 1000u);
  for (size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].start_sector, rb[i].start_sector);
    EXPECT_EQ(ra[i].kind, rb[i].kind);
  }
}

TEST(SyntheticGenerator, RandomStaysAlignedAndInRange) {
  config::WorkloadConfig c;
  c.requests = 20000;
  c.address_start_bytes = 1 << 20;
  c.address_span_bytes = 8 << 20;
  c.request_bytes = 8192;
  for (const Request& r : [&] {
         SyntheticGenerator g(c, kDevice, 512);
         return drain(g);
       }()) {
    EXPECT_EQ(r.start_sector % 8, 0u);
    EXPECT_GE(r.start_sector, (1u << 20) / 512);
    EXPECT_LE(r.start_sector + r.sector_count, (9u << 20) / 512);
  }
}

TEST(SyntheticGenerator, HotSpanTakesItsShareOfRequests) {
  config::WorkloadConfig c;
  c.requests = 20000;
  c.address_start_bytes = 1 << 20;
  c.address_span_bytes = 10 << 20;
  c.request_bytes = 4096;
  c.hot_span_ratio = 0.2;    // the first 2 MiB of the span
  c.hot_access_ratio = 0.8;  // take 80 % of the requests
  const uint64_t first = (1u << 20) / 512, hot_end = first + (2u << 20) / 512;
  uint64_t hot = 0;
  for (const Request& r : stream(c)) {
    EXPECT_EQ(r.start_sector % 8, 0u);
    EXPECT_GE(r.start_sector, first);
    EXPECT_LE(r.start_sector + r.sector_count, (11u << 20) / 512);
    const bool in_hot = r.start_sector + r.sector_count <= hot_end;
    EXPECT_TRUE(in_hot || r.start_sector >= hot_end) << "a request straddles the hot part's end";
    hot += in_hot;
  }
  EXPECT_NEAR(static_cast<double>(hot) / 20000.0, 0.8, 0.02);
}

TEST(SyntheticGenerator, ReadRatioAndFlushes) {
  config::WorkloadConfig c;
  c.requests = 100000;
  c.read_ratio = 0.7;
  c.flush_every_writes = 10;
  SyntheticGenerator g(c, kDevice, 512);
  uint64_t reads = 0, writes = 0, flushes = 0;
  for (const Request& r : drain(g)) {
    reads += r.kind == ftl::CommandKind::kRead;
    writes += r.kind == ftl::CommandKind::kWrite;
    flushes += r.kind == ftl::CommandKind::kFlush;
  }
  EXPECT_NEAR(double(reads) / double(reads + writes), 0.7, 0.01);
  EXPECT_NEAR(double(flushes), double(writes) / 10.0, 2.0);
}

TEST(SyntheticGenerator, SequentialAdvancesAndWraps) {
  config::WorkloadConfig c;
  c.pattern = "sequential";
  c.requests = 10;
  c.address_span_bytes = 4 * 4096;
  SyntheticGenerator g(c, kDevice, 512);
  const auto all = drain(g);
  EXPECT_EQ(all[0].start_sector, 0u);
  EXPECT_EQ(all[1].start_sector, 8u);
  EXPECT_EQ(all[4].start_sector, 0u);
}

TEST(SyntheticGenerator, UniformSizesOnTheGrid) {
  config::WorkloadConfig c;
  c.requests = 5000;
  c.size_distribution = "uniform";
  c.request_bytes = 4096;
  c.request_bytes_max = 65536;
  SyntheticGenerator g(c, kDevice, 512);
  uint32_t smallest = ~0u, largest = 0;
  for (const Request& r : drain(g)) {
    EXPECT_EQ(r.sector_count % 8, 0u);
    smallest = std::min(smallest, r.sector_count);
    largest = std::max(largest, r.sector_count);
  }
  EXPECT_EQ(smallest, 8u);
  EXPECT_EQ(largest, 128u);
}

TEST(SyntheticGenerator, OpenLoopArrivalsAndDuration) {
  config::WorkloadConfig c;
  c.mode = "open";
  c.requests = 0;
  c.duration_ms = 1.0;
  c.interarrival_us = 10.0;
  SyntheticGenerator g(c, kDevice, 512);
  const auto all = drain(g);
  ASSERT_EQ(all.size(), 100u);
  EXPECT_EQ(all[1].arrival - all[0].arrival, 10'000'000u);
}

// fsync: every N writes, one journal write going round the region at the end of the span, then a
// flush. Region of 40 sectors with 16-sector commits: at 0, 16, then back to 0 (32 + 16 > 40).
TEST(SyntheticGenerator, FsyncWritesTheJournalThenFlushes) {
  config::WorkloadConfig c = sync_workload("fsync", 32768, 20480);
  c.pattern = "sequential";
  c.read_ratio = 0;
  c.flush_every_writes = 2;
  c.journal_write_bytes = 8192;
  c.requests = 17;
  // Data in sectors [2048, 2112), journal in [2112, 2152).
  EXPECT_EQ(show(stream(c)),
            "W2048+8 W2056+8 W2112+16 F "
            "W2064+8 W2072+8 W2128+16 F "
            "W2080+8 W2088+8 W2112+16 F "
            "W2096+8 W2104+8 W2128+16 F "
            "W2048+8");
}

TEST(SyntheticGenerator, SyncCountsReadsAndTrimsOut) {
  config::WorkloadConfig c = sync_workload("fsync", 1 << 20, 1 << 20);
  c.read_ratio = 0.5;
  c.trim_ratio = 0.2;
  c.flush_every_writes = 3;
  c.requests = 5000;
  const auto all = stream(c);
  const uint64_t journal = (2u << 20) / 512;  // first sector of the journal
  uint64_t data_writes = 0, syncs = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].kind != ftl::CommandKind::kFlush) continue;
    ++syncs;
    ASSERT_GE(i, 1u);
    EXPECT_EQ(all[i - 1].kind, ftl::CommandKind::kWrite);
    EXPECT_GE(all[i - 1].start_sector, journal) << i;
  }
  for (const Request& r : all) {
    data_writes += r.kind == ftl::CommandKind::kWrite && r.start_sector < journal;
  }
  EXPECT_GT(syncs, 100u);
  EXPECT_NEAR(double(syncs), double(data_writes) / 3.0, 1.0);
}

// fdatasync over a sequential pattern that does not wrap: every sync's writes extend the file, so
// every sync commits the journal, exactly like fsync.
TEST(SyntheticGenerator, FdatasyncOnAGrowingFileCommitsEverySync) {
  config::WorkloadConfig c = sync_workload("fdatasync", 32 << 20, 1 << 20);
  c.pattern = "sequential";
  c.read_ratio = 0.3;
  c.flush_every_writes = 4;
  c.requests = 3000;  // at most 3000 x 4 KiB = 12 MiB of the 32 MiB data span: no wrap
  const auto datasync = stream(c);
  c.sync_call = "fsync";
  const auto fsync = stream(c);
  EXPECT_EQ(show(datasync), show(fsync));
  uint64_t flushes = 0;
  for (size_t i = 0; i < datasync.size(); ++i) {
    if (datasync[i].kind != ftl::CommandKind::kFlush) continue;
    ++flushes;
    EXPECT_GE(datasync[i - 1].start_sector, (33u << 20) / 512) << "no journal write before " << i;
  }
  EXPECT_GT(flushes, 300u);
}

// fdatasync over random writes: the journal is committed only when a write since the last sync
// went past the furthest sector any earlier write reached. Over a 16-slot span that mark soon
// reaches the end, and from then on a sync is a bare flush.
TEST(SyntheticGenerator, FdatasyncCommitsOnlyWhenTheFileGrew) {
  config::WorkloadConfig c = sync_workload("fdatasync", 16 * 4096, 32768);
  c.read_ratio = 0.25;
  c.flush_every_writes = 2;
  c.journal_write_bytes = 4096;
  c.requests = 400;
  c.seed = 3;
  const auto all = stream(c);
  const uint64_t journal = (1u << 20) / 512 + 16 * 8;
  uint64_t high_water = 0, journal_writes = 0, bare_flushes = 0, bare_before_full = 0;
  bool grew = false;
  for (size_t i = 0; i < all.size(); ++i) {
    const Request& r = all[i];
    const bool journal_write = r.kind == ftl::CommandKind::kWrite && r.start_sector >= journal;
    if (journal_write) {
      EXPECT_TRUE(grew) << "journal write at " << i << " though the file did not grow";
      ASSERT_LT(i + 1, all.size());
      EXPECT_EQ(all[i + 1].kind, ftl::CommandKind::kFlush);
      grew = false;
      ++journal_writes;
    } else if (r.kind == ftl::CommandKind::kFlush) {
      if (all[i - 1].start_sector < journal || all[i - 1].kind != ftl::CommandKind::kWrite) {
        EXPECT_FALSE(grew) << "bare flush at " << i << " though the file grew";
        ++bare_flushes;
        bare_before_full += high_water < journal;
      }
      grew = false;
    } else if (r.kind == ftl::CommandKind::kWrite && r.start_sector + r.sector_count > high_water) {
      high_water = r.start_sector + r.sector_count;
      grew = true;
    }
  }
  EXPECT_EQ(high_water, journal);  // the span was covered
  EXPECT_GE(journal_writes, 2u);
  EXPECT_GT(bare_flushes, 50u);
  EXPECT_GE(bare_before_full, 1u);  // a sync that did not grow the file before the span was covered
  // Once the last slot has been written, no sync after the one that follows commits the journal.
  size_t full_at = all.size(), last_journal = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].kind != ftl::CommandKind::kWrite) continue;
    if (all[i].start_sector >= journal) last_journal = i;
    if (all[i].start_sector + all[i].sector_count == journal && full_at == all.size()) full_at = i;
  }
  ASSERT_LT(full_at, all.size() / 2);
  size_t sync_after_full = full_at;
  while (all[sync_after_full].kind != ftl::CommandKind::kFlush) ++sync_after_full;
  EXPECT_LT(last_journal, sync_after_full);
}

// "flush" is today's stream, whatever the journal keys say.
TEST(SyntheticGenerator, FlushSyncCallIsTheUnchangedStream) {
  config::WorkloadConfig c;
  c.requests = 5000;
  c.read_ratio = 0.4;
  c.trim_ratio = 0.1;
  c.size_distribution = "uniform";
  c.request_bytes_max = 32768;
  c.mode = "open";
  c.arrival = "poisson";
  c.flush_every_writes = 7;
  const auto unset = stream(c);
  c.sync_call = "flush";
  c.journal_bytes = 48 << 20;
  c.journal_write_bytes = 4096;
  const auto flush = stream(c);
  ASSERT_EQ(unset.size(), flush.size());
  for (size_t i = 0; i < unset.size(); ++i) EXPECT_TRUE(same(unset[i], flush[i])) << i;
  uint64_t flushes = 0, past = 0;
  for (const Request& r : flush) {
    flushes += r.kind == ftl::CommandKind::kFlush;
    past += r.start_sector + r.sector_count > kDevice / 2 / 512;
  }
  EXPECT_GT(flushes, 100u);
  EXPECT_GT(past, 100u);  // data still spans the whole device: no journal region carved out
}

TEST(SyntheticGenerator, DataNeverTouchesTheJournalRegion) {
  for (const char* pattern : {"random", "sequential"}) {
    for (const char* call : {"fsync", "fdatasync"}) {
      config::WorkloadConfig c = sync_workload(call, 3 << 20, 1 << 20);
      c.pattern = pattern;
      c.read_ratio = 0.3;
      c.trim_ratio = 0.1;
      c.size_distribution = "uniform";
      c.request_bytes_max = 131072;
      c.flush_every_writes = 5;
      c.requests = 20000;
      const auto all = stream(c);
      const uint64_t first = (1u << 20) / 512, journal = (4u << 20) / 512, end = (5u << 20) / 512;
      uint64_t journal_writes = 0, reached = 0;
      for (size_t i = 0; i < all.size(); ++i) {
        const Request& r = all[i];
        if (r.kind == ftl::CommandKind::kFlush) continue;
        if (r.start_sector >= journal) {  // a journal commit: 8 KiB in the region, then a flush
          ++journal_writes;
          EXPECT_EQ(r.kind, ftl::CommandKind::kWrite);
          EXPECT_EQ(r.sector_count, 16u);
          EXPECT_LE(r.start_sector + r.sector_count, end);
          ASSERT_LT(i + 1, all.size());
          EXPECT_EQ(all[i + 1].kind, ftl::CommandKind::kFlush);
        } else {
          EXPECT_GE(r.start_sector, first) << pattern << " " << call << " " << i;
          EXPECT_LE(r.start_sector + r.sector_count, journal) << pattern << " " << call << " " << i;
          reached = std::max<uint64_t>(reached, r.start_sector + r.sector_count);
        }
      }
      EXPECT_GT(journal_writes, 0u) << pattern << " " << call;
      EXPECT_GT(reached, journal - 256) << pattern << " " << call;  // data uses the whole span
    }
  }
}

TEST(SyntheticGenerator, SyncStreamsAreDeterministic) {
  for (const char* call : {"fsync", "fdatasync"}) {
    config::WorkloadConfig c;
    c.sync_call = call;
    c.flush_every_writes = 3;
    c.mode = "open";
    c.arrival = "poisson";
    c.size_distribution = "uniform";
    c.request_bytes_max = 65536;
    c.requests = 4000;
    c.seed = 99;
    const auto a = stream(c), b = stream(c);
    ASSERT_EQ(a.size(), 4000u);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(same(a[i], b[i])) << call << " " << i;
    c.seed = 100;
    EXPECT_NE(show(stream(c)), show(a)) << call;
  }
}

TEST(SyntheticGenerator, DescribeNamesTheSyncCall) {
  config::WorkloadConfig c;
  c.flush_every_writes = 16;
  EXPECT_EQ(SyntheticGenerator(c, kDevice, 512).describe().find("sync"), std::string::npos);
  c.sync_call = "fdatasync";
  EXPECT_NE(SyntheticGenerator(c, kDevice, 512).describe().find(", fdatasync every 16 writes"),
            std::string::npos);
}

}  // namespace
}  // namespace ssd::workload

namespace ssd::workload {
namespace {

// fio's random map (workload.random_map): every aligned position once per pass, in a seeded
// order, before any again; independent draws repeat positions long before that.
TEST(SyntheticGenerator, RandomMapGivesEveryPositionOncePerPass) {
  config::WorkloadConfig c;
  c.read_ratio = 0.5;
  c.request_bytes = c.align_bytes = 4096;
  c.address_start_bytes = 1 << 20;
  c.address_span_bytes = 3000 * 4096;  // not a power of two: the permutation walks past the rest
  c.flush_every_writes = 0;
  c.requests = 2 * 3000;
  c.random_map = true;
  const std::vector<Request> requests = stream(c);
  ASSERT_EQ(requests.size(), 6000u);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<bool> seen(3000, false);
    for (int i = 0; i < 3000; ++i) {
      const Request& r = requests[pass * 3000 + i];
      const uint64_t position = (r.start_sector - (1 << 20) / 512) / 8;
      ASSERT_LT(position, 3000u);
      EXPECT_FALSE(seen[position]) << "position " << position << " twice in pass " << pass;
      seen[position] = true;
    }
  }
  // Not in address order, and another seed gives another order.
  EXPECT_NE(requests[1].start_sector, requests[0].start_sector + 8);
  c.seed = 2;
  EXPECT_NE(show(stream(c)), show(requests));
  c.random_map = false;
  c.seed = 1;
  const std::vector<Request> drawn = stream(c);
  std::vector<bool> seen(3000, false);
  int repeats = 0;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t position = (drawn[i].start_sector - (1 << 20) / 512) / 8;
    repeats += seen[position];
    seen[position] = true;
  }
  EXPECT_GT(repeats, 500);  // about 3000 / e positions are drawn again within one pass
}

// workload.io_bytes ends the workload once that much data was read, written or trimmed.
TEST(SyntheticGenerator, IoBytesEndsTheWorkload) {
  config::WorkloadConfig c;
  c.request_bytes = 8192;
  c.align_bytes = 4096;
  c.flush_every_writes = 4;
  c.requests = 0;
  c.io_bytes = 100 * 8192;
  const std::vector<Request> requests = stream(c);
  uint64_t data = 0;
  for (const Request& r : requests) {
    if (r.kind != ftl::CommandKind::kFlush) data += r.sector_count;
  }
  EXPECT_EQ(data * 512, c.io_bytes);
  c.io_bytes = 100 * 8192 - 1;  // the request that crosses the bound is the last
  EXPECT_EQ(stream(c).size(), requests.size());
}

}  // namespace
}  // namespace ssd::workload

namespace ssd::workload {
namespace {

// size_distribution "split" (fio's bssplit): each size takes its share of the requests.
TEST(SyntheticGenerator, SplitSizesTakeTheirShares) {
  config::WorkloadConfig c;
  c.read_ratio = 0.0;
  c.flush_every_writes = 0;
  c.requests = 40000;
  c.size_distribution = "split";
  c.split_bytes = {4096, 16384, 65536};
  c.split_weights = {6, 3, 1};
  std::map<uint32_t, uint64_t> seen;
  for (const Request& r : stream(c)) {
    ++seen[r.sector_count];
    ASSERT_EQ(r.start_sector % 8, 0u);  // on the 4 KiB grid
    ASSERT_LE((r.start_sector + r.sector_count) * 512, kDevice);
  }
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_NEAR(double(seen[8]) / 40000, 0.6, 0.015);
  EXPECT_NEAR(double(seen[32]) / 40000, 0.3, 0.015);
  EXPECT_NEAR(double(seen[128]) / 40000, 0.1, 0.015);
}

// Skewed addresses (workload.address_distribution, fio's random_distribution): the share of
// requests the hottest positions take, against the law's own figure; scattered, not at the start.
TEST(SyntheticGenerator, SkewedAddressesFollowTheirLaw) {
  config::WorkloadConfig c;
  c.read_ratio = 1.0;
  c.flush_every_writes = 0;
  c.requests = 200000;
  c.address_span_bytes = 10000 * 4096;  // 10,000 positions
  const auto hottest_share = [&](double fraction, uint64_t* first_position) {
    std::map<uint64_t, uint64_t> counts;
    for (const Request& r : stream(c)) ++counts[r.start_sector / 8];
    std::vector<uint64_t> by_count;
    uint64_t hottest = 0, most = 0;
    for (const auto& [position, count] : counts) {
      by_count.push_back(count);
      if (count > most) most = count, hottest = position;
    }
    std::sort(by_count.rbegin(), by_count.rend());
    uint64_t top = 0;
    for (size_t i = 0; i < size_t(fraction * 10000); ++i)
      top += i < by_count.size() ? by_count[i] : 0;
    if (first_position) *first_position = hottest;
    return double(top) / double(c.requests);
  };
  c.address_distribution = "pareto";
  c.address_skew = 0.8;  // 80 % of the requests to 20 % of the positions
  EXPECT_NEAR(hottest_share(0.2, nullptr), 0.8, 0.02);
  c.address_distribution = "zipf";
  c.address_skew = 1.2;
  uint64_t hottest = 0;
  // zipf(1.2) over 10,000 ranks: rank 1 has 1 / zeta(10000, 1.2) of the draws (0.209).
  double zeta = 0.0;
  for (int k = 1; k <= 10000; ++k) zeta += std::pow(k, -1.2);
  EXPECT_NEAR(hottest_share(0.0001, &hottest), 1.0 / zeta, 0.004);
  EXPECT_NE(hottest, 0u);  // scattered: rank 1 is not position 0
  c.address_distribution = "normal";
  c.address_skew = 10;  // sigma = 1,000 positions: 68 % within 2,000 positions
  EXPECT_NEAR(hottest_share(0.2, nullptr), 0.68, 0.02);
  // Uniform: the busiest fifth of the positions take a little over a fifth (sampling noise at
  // 20 draws a position puts it near 0.26), far from the skewed laws' shares.
  c.address_distribution = "uniform";
  EXPECT_LT(hottest_share(0.2, nullptr), 0.3);
}

}  // namespace
}  // namespace ssd::workload
