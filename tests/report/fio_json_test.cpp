// fio_json: fio 3.33's JSON shape (keys, nesting, order), the figures taken from the report, fio's
// zeros for what did not happen, one job per stream, json+ bins, and fio's own
// fio_jsonplus_clat2csv reading the result.
#include "report/fio_json.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace ssd::report {
namespace {

using Json = nlohmann::ordered_json;

// Key lists as fio 3.33 prints them (fio --output-format=json+ with ioengine=null, rw=randrw,
// fsync=4, from a job file with a [global] section, on a file system with a disk).
const std::vector<std::string> kTopKeys = {"fio version",    "timestamp", "timestamp_ms", "time",
                                           "global options", "jobs",      "disk_util"};
const std::vector<std::string> kJobKeys = {"jobname",
                                           "groupid",
                                           "error",
                                           "eta",
                                           "elapsed",
                                           "job options",
                                           "read",
                                           "write",
                                           "trim",
                                           "sync",
                                           "job_runtime",
                                           "usr_cpu",
                                           "sys_cpu",
                                           "ctx",
                                           "majf",
                                           "minf",
                                           "iodepth_level",
                                           "iodepth_submit",
                                           "iodepth_complete",
                                           "latency_ns",
                                           "latency_us",
                                           "latency_ms",
                                           "latency_depth",
                                           "latency_target",
                                           "latency_percentile",
                                           "latency_window"};
const std::vector<std::string> kDirectionKeys = {
    "io_bytes",  "io_kbytes", "bw_bytes",  "bw",          "iops",        "runtime",
    "total_ios", "short_ios", "drop_ios",  "slat_ns",     "clat_ns",     "lat_ns",
    "bw_min",    "bw_max",    "bw_agg",    "bw_mean",     "bw_dev",      "bw_samples",
    "iops_min",  "iops_max",  "iops_mean", "iops_stddev", "iops_samples"};
const std::vector<std::string> kLatencyKeys = {"min", "max", "mean", "stddev", "N"};
const std::vector<std::string> kPercentileKeys = {
    "1.000000",  "5.000000",  "10.000000", "20.000000", "30.000000", "40.000000",
    "50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
    "99.000000", "99.500000", "99.900000", "99.950000", "99.990000"};
const std::vector<double> kPercents = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                       80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
const std::vector<std::string> kDiskKeys = {"name",        "read_ios",     "write_ios",
                                            "read_merges", "write_merges", "read_ticks",
                                            "write_ticks", "in_queue",     "util"};

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

std::vector<std::string> with(std::vector<std::string> keys, const std::vector<std::string>& more) {
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

// Records `n` latencies spread from `base` to about 5 * base (a fixed LCG: deterministic).
void record_spread(LatencyHistogram& histogram, uint64_t n, uint64_t base, uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    histogram.record(base + (state >> 40) % (4 * base));
  }
}

// A stream that read, wrote and flushed (no trims) from 1 ms to 2.5 s.
StreamReport mixed_stream() {
  StreamReport s;
  s.name = "mixed";
  s.reads = 3000;
  s.writes = 1000;
  s.flushes = 250;
  s.bytes_read = 3000 * 4096;
  s.bytes_written = 1000 * 16384;
  record_spread(s.latency_read, s.reads, 20000, 1);
  record_spread(s.latency_write, s.writes, 50000, 2);
  record_spread(s.latency_flush, s.flushes, 400000, 3);
  s.first_issue_ns = 1000000;
  s.last_completion_ns = 2500000000;
  return s;
}

// A stream that only trimmed, from 0.5 s to 1.2 s.
StreamReport trim_stream() {
  StreamReport s;
  s.name = "trimmer";
  s.trims = 40;
  s.bytes_trimmed = 40ull << 20;
  record_spread(s.latency_trim, s.trims, 3000, 4);
  s.first_issue_ns = 500000000;
  s.last_completion_ns = 1200000000;
  return s;
}

void add_to_totals(RunReport& r, const StreamReport& s) {
  r.reads += s.reads;
  r.writes += s.writes;
  r.flushes += s.flushes;
  r.trims += s.trims;
  r.bytes_read += s.bytes_read;
  r.bytes_written += s.bytes_written;
  r.bytes_trimmed += s.bytes_trimmed;
  r.latency_read.merge(s.latency_read);
  r.latency_write.merge(s.latency_write);
  r.latency_flush.merge(s.latency_flush);
  r.latency_trim.merge(s.latency_trim);
}

RunReport two_stream_report() {
  RunReport r;
  r.scenario_name = "fio-job";
  r.simulated_ns = 3000000000;  // 3 s
  r.streams = {mixed_stream(), trim_stream()};
  for (const StreamReport& s : r.streams) add_to_totals(r, s);
  return r;
}

FioOutputOptions job_file_options(bool plus) {
  FioOutputOptions o;
  o.plus = plus;
  o.global_options = {{"ioengine", "libaio"}, {"iodepth", "16"}, {"bs", "4k"}};
  o.jobs = {{"randrw-job", {{"rw", "randrw"}, {"fsync", "4"}}}, {"trim-job", {{"rw", "randtrim"}}}};
  return o;
}

// The latency object's figures equal the histogram's, percentiles at fio's ranks.
void expect_latency_figures(const Json& latency, const LatencyHistogram& h, bool percentiles) {
  EXPECT_EQ(latency["min"].get<uint64_t>(), h.min());
  EXPECT_EQ(latency["max"].get<uint64_t>(), h.max());
  EXPECT_NEAR(latency["mean"].get<double>(), h.mean(), 1e-6);
  EXPECT_NEAR(latency["stddev"].get<double>(), h.stddev(), 1e-6);
  EXPECT_EQ(latency["N"].get<uint64_t>(), h.count());
  if (!percentiles) return;
  ASSERT_EQ(keys_of(latency["percentile"]), kPercentileKeys);
  for (size_t i = 0; i < kPercents.size(); ++i) {
    EXPECT_EQ(latency["percentile"][kPercentileKeys[i]].get<uint64_t>(),
              h.percentile(kPercents[i] / 100.0))
        << kPercentileKeys[i];
  }
}

TEST(FioJson, TopLevelHasFiosKeysInFiosOrderAndNoWallClock) {
  const Json doc = fio_json(two_stream_report(), job_file_options(false));
  EXPECT_EQ(keys_of(doc), kTopKeys);
  EXPECT_EQ(doc["fio version"], "ssdsim (fio-3.33 JSON)");
  EXPECT_EQ(doc["timestamp"], 0);
  EXPECT_EQ(doc["timestamp_ms"], 0);
  EXPECT_EQ(doc["time"], "Thu Jan  1 00:00:00 1970");
  EXPECT_EQ(keys_of(doc["global options"]),
            (std::vector<std::string>{"ioengine", "iodepth", "bs"}));
  EXPECT_EQ(doc["global options"]["iodepth"], "16");
}

TEST(FioJson, WithoutGlobalOptionsTheirObjectIsLeftOutAsFioDoes) {
  FioOutputOptions o = job_file_options(false);
  o.global_options.clear();
  o.jobs[1].options.clear();
  const Json doc = fio_json(two_stream_report(), o);
  EXPECT_FALSE(doc.contains("global options"));
  EXPECT_FALSE(doc["jobs"][1].contains("job options"));
  EXPECT_EQ(keys_of(doc["jobs"][0]["job options"]), (std::vector<std::string>{"rw", "fsync"}));
}

TEST(FioJson, EveryJobHasFiosKeysInFiosOrder) {
  const Json doc = fio_json(two_stream_report(), job_file_options(true));
  ASSERT_EQ(doc["jobs"].size(), 2u);
  for (const Json& job : doc["jobs"]) {
    EXPECT_EQ(keys_of(job), kJobKeys);
    for (const char* kind : {"read", "write", "trim"}) {
      EXPECT_EQ(keys_of(job[kind]), kDirectionKeys) << kind;
      EXPECT_EQ(keys_of(job[kind]["slat_ns"]), kLatencyKeys) << kind;
      EXPECT_EQ(keys_of(job[kind]["lat_ns"]), kLatencyKeys) << kind;  // lat_percentiles is off
    }
    EXPECT_EQ(keys_of(job["sync"]), (std::vector<std::string>{"total_ios", "lat_ns"}));
    EXPECT_EQ(keys_of(job["iodepth_level"]),
              (std::vector<std::string>{"1", "2", "4", "8", "16", "32", ">=64"}));
    EXPECT_EQ(keys_of(job["iodepth_submit"]),
              (std::vector<std::string>{"0", "4", "8", "16", "32", "64", ">=64"}));
    EXPECT_EQ(keys_of(job["iodepth_complete"]), keys_of(job["iodepth_submit"]));
    const std::vector<std::string> ranges = {"2",   "4",   "10",  "20",  "50",
                                             "100", "250", "500", "750", "1000"};
    EXPECT_EQ(keys_of(job["latency_ns"]), ranges);
    EXPECT_EQ(keys_of(job["latency_us"]), ranges);
    EXPECT_EQ(keys_of(job["latency_ms"]), with(ranges, {"2000", ">=2000"}));
  }
  const Json& mixed = doc["jobs"][0];
  const auto plus_keys = with(kLatencyKeys, {"percentile", "bins"});
  EXPECT_EQ(keys_of(mixed["read"]["clat_ns"]), plus_keys);
  EXPECT_EQ(keys_of(mixed["write"]["clat_ns"]), plus_keys);
  EXPECT_EQ(keys_of(mixed["sync"]["lat_ns"]), plus_keys);
  EXPECT_EQ(keys_of(doc["jobs"][1]["trim"]["clat_ns"]), plus_keys);
  ASSERT_EQ(doc["disk_util"].size(), 1u);
  EXPECT_EQ(keys_of(doc["disk_util"][0]), kDiskKeys);
}

TEST(FioJson, PlainJsonHasPercentilesButNoBins) {
  const Json doc = fio_json(two_stream_report(), job_file_options(false));
  const Json& mixed = doc["jobs"][0];
  EXPECT_EQ(keys_of(mixed["read"]["clat_ns"]), with(kLatencyKeys, {"percentile"}));
  EXPECT_EQ(keys_of(mixed["sync"]["lat_ns"]), with(kLatencyKeys, {"percentile"}));
}

TEST(FioJson, DirectionFiguresAreTheStreamsOverItsSimulatedSpan) {
  const RunReport report = two_stream_report();
  const StreamReport& s = report.streams[0];
  const Json doc = fio_json(report, job_file_options(true));
  const Json& read = doc["jobs"][0]["read"];
  const double span_s = double(s.last_completion_ns - s.first_issue_ns) / 1e9;  // 2.499 s

  EXPECT_EQ(read["io_bytes"].get<uint64_t>(), s.bytes_read);
  EXPECT_EQ(read["io_kbytes"].get<uint64_t>(), s.bytes_read / 1024);
  EXPECT_EQ(read["total_ios"].get<uint64_t>(), s.reads);
  EXPECT_EQ(read["runtime"].get<uint64_t>(), 2499u);  // ms, rounded up as fio rounds
  EXPECT_NEAR(read["iops"].get<double>(), double(s.reads) / span_s, 1e-6);
  const auto bw_bytes = static_cast<uint64_t>(double(s.bytes_read) / span_s);  // truncated
  EXPECT_EQ(read["bw_bytes"].get<uint64_t>(), bw_bytes);
  EXPECT_EQ(read["bw"].get<uint64_t>(), bw_bytes / 1024);
  EXPECT_EQ(read["short_ios"], 0);
  EXPECT_EQ(read["drop_ios"], 0);
  expect_latency_figures(read["clat_ns"], s.latency_read, true);
  expect_latency_figures(read["lat_ns"], s.latency_read, false);
  EXPECT_EQ(read["slat_ns"]["N"], 0);
  EXPECT_EQ(read["slat_ns"]["max"], 0);

  const Json& write = doc["jobs"][0]["write"];
  EXPECT_EQ(write["io_bytes"].get<uint64_t>(), s.bytes_written);
  EXPECT_EQ(write["total_ios"].get<uint64_t>(), s.writes);
  EXPECT_NEAR(write["iops"].get<double>(), double(s.writes) / span_s, 1e-6);
  expect_latency_figures(write["clat_ns"], s.latency_write, true);

  const Json& sync = doc["jobs"][0]["sync"];
  EXPECT_EQ(sync["total_ios"].get<uint64_t>(), s.flushes);
  expect_latency_figures(sync["lat_ns"], s.latency_flush, true);

  const Json& trim = doc["jobs"][1]["trim"];
  const StreamReport& t = report.streams[1];
  EXPECT_EQ(trim["io_bytes"].get<uint64_t>(), t.bytes_trimmed);
  EXPECT_EQ(trim["total_ios"].get<uint64_t>(), t.trims);
  EXPECT_EQ(trim["runtime"].get<uint64_t>(), 700u);
  EXPECT_NEAR(trim["iops"].get<double>(), double(t.trims) / 0.7, 1e-6);
  expect_latency_figures(trim["clat_ns"], t.latency_trim, true);
}

TEST(FioJson, RatesAreOneSampleSpanningTheJob) {
  const RunReport report = two_stream_report();
  const Json doc = fio_json(report, job_file_options(false));
  const Json& read = doc["jobs"][0]["read"];
  EXPECT_EQ(read["bw_samples"], 1);
  EXPECT_EQ(read["bw_min"], read["bw"]);
  EXPECT_EQ(read["bw_max"], read["bw"]);
  EXPECT_NEAR(read["bw_mean"].get<double>(), read["bw_bytes"].get<double>() / 1024.0, 1e-3);
  EXPECT_EQ(read["bw_dev"], 0.0);
  EXPECT_EQ(read["iops_samples"], 1);
  EXPECT_EQ(read["iops_min"].get<uint64_t>(), static_cast<uint64_t>(read["iops"].get<double>()));
  EXPECT_EQ(read["iops_mean"], read["iops"]);
  EXPECT_EQ(read["iops_stddev"], 0.0);
  // The only job that read: all of its group's read bandwidth.
  EXPECT_EQ(read["bw_agg"], 100.0);
}

TEST(FioJson, BandwidthShareOfGroupComparesWithTheLongestJob) {
  RunReport report = two_stream_report();
  StreamReport second = mixed_stream();  // reads as much, in half the time
  second.name = "fast";
  second.last_completion_ns =
      second.first_issue_ns +
      (mixed_stream().last_completion_ns - mixed_stream().first_issue_ns) / 2;
  report.streams.push_back(second);
  const Json doc = fio_json(report, FioOutputOptions{});
  // Group: both jobs' bytes over the longer span = 2x the slow job's rate; the fast one has 2x.
  EXPECT_NEAR(doc["jobs"][0]["read"]["bw_agg"].get<double>(), 50.0, 1e-3);
  EXPECT_EQ(doc["jobs"][2]["read"]["bw_agg"].get<double>(), 100.0);
}

// A stonewall's group is its own: groupid follows the stream's group, and bw_agg compares a job
// with its group only (the same fast job alone in group 1 has all of its group's bandwidth).
TEST(FioJson, GroupsAreNumberedAndAggregatedApart) {
  RunReport report = two_stream_report();
  StreamReport second = mixed_stream();
  second.group = 1;
  second.last_completion_ns =
      second.first_issue_ns +
      (mixed_stream().last_completion_ns - mixed_stream().first_issue_ns) / 2;
  report.streams.push_back(second);
  const Json doc = fio_json(report, FioOutputOptions{});
  EXPECT_EQ(doc["jobs"][0]["groupid"], 0);
  EXPECT_EQ(doc["jobs"][2]["groupid"], 1);
  EXPECT_EQ(doc["jobs"][0]["read"]["bw_agg"].get<double>(), 100.0);
  EXPECT_EQ(doc["jobs"][2]["read"]["bw_agg"].get<double>(), 100.0);
}

TEST(FioJson, AKindThatNeverRanGetsFiosZeros) {
  const Json doc = fio_json(two_stream_report(), job_file_options(true));
  const Json& trim = doc["jobs"][0]["trim"];  // the mixed stream trimmed nothing
  for (const char* key :
       {"io_bytes", "io_kbytes", "bw_bytes", "bw", "runtime", "total_ios", "bw_min", "bw_max",
        "bw_samples", "iops_min", "iops_max", "iops_samples"}) {
    EXPECT_EQ(trim[key], 0) << key;
  }
  for (const char* key : {"iops", "bw_agg", "bw_mean", "bw_dev", "iops_mean", "iops_stddev"}) {
    EXPECT_TRUE(trim[key].is_number_float()) << key;
    EXPECT_EQ(trim[key], 0.0) << key;
  }
  for (const char* latency : {"slat_ns", "clat_ns", "lat_ns"}) {
    EXPECT_EQ(keys_of(trim[latency]), kLatencyKeys) << latency;  // no percentile, no bins
    EXPECT_EQ(trim[latency]["N"], 0);
    EXPECT_EQ(trim[latency]["min"], 0);
    EXPECT_EQ(trim[latency]["mean"], 0.0);
  }
  const Json& trimmer = doc["jobs"][1];
  EXPECT_EQ(trimmer["sync"]["total_ios"], 0);
  EXPECT_EQ(keys_of(trimmer["sync"]["lat_ns"]), kLatencyKeys);
  EXPECT_EQ(trimmer["read"]["runtime"], 0);
}

TEST(FioJson, StreamsBecomeJobsInOrderNamedByTheJobFileThenTheStream) {
  RunReport report = two_stream_report();
  StreamReport third = trim_stream();
  third.name = "";
  report.streams.push_back(third);
  FioOutputOptions o = job_file_options(false);
  o.jobs[1].name = "";  // no section name: the stream's
  const Json doc = fio_json(report, o);
  ASSERT_EQ(doc["jobs"].size(), 3u);
  EXPECT_EQ(doc["jobs"][0]["jobname"], "randrw-job");
  EXPECT_EQ(doc["jobs"][1]["jobname"], "trimmer");
  EXPECT_EQ(doc["jobs"][2]["jobname"], "fio-job");  // neither: the scenario's
  EXPECT_EQ(doc["jobs"][0]["read"]["total_ios"], 3000);
  EXPECT_EQ(doc["jobs"][1]["trim"]["total_ios"], 40);
  EXPECT_FALSE(doc["jobs"][2].contains("job options"));  // no options given for it
  for (const Json& job : doc["jobs"]) EXPECT_EQ(job["groupid"], 0);
}

TEST(FioJson, ARunWithoutStreamsIsOneJobOfTheTotals) {
  RunReport report = two_stream_report();
  report.streams.clear();
  const Json doc = fio_json(report, FioOutputOptions{});
  ASSERT_EQ(doc["jobs"].size(), 1u);
  const Json& job = doc["jobs"][0];
  EXPECT_EQ(job["jobname"], "fio-job");
  EXPECT_EQ(job["job_runtime"], 3000);  // 0 to simulated_ns
  EXPECT_EQ(job["read"]["total_ios"].get<uint64_t>(), report.reads);
  EXPECT_EQ(job["write"]["io_bytes"].get<uint64_t>(), report.bytes_written);
  EXPECT_EQ(job["trim"]["io_bytes"].get<uint64_t>(), report.bytes_trimmed);
  EXPECT_EQ(job["sync"]["total_ios"].get<uint64_t>(), report.flushes);
  EXPECT_NEAR(job["read"]["iops"].get<double>(), double(report.reads) / 3.0, 1e-6);
  expect_latency_figures(job["read"]["clat_ns"], report.latency_read, true);
  expect_latency_figures(job["trim"]["clat_ns"], report.latency_trim, true);
  EXPECT_EQ(doc["disk_util"][0]["util"], 100.0);
}

TEST(FioJson, JobTimesAndFixedFields) {
  const Json doc = fio_json(two_stream_report(), job_file_options(false));
  const Json& job = doc["jobs"][0];
  EXPECT_EQ(job["error"], 0);
  EXPECT_EQ(job["eta"], 0);
  EXPECT_EQ(job["elapsed"], 3);         // the run's simulated seconds, rounded up
  EXPECT_EQ(job["job_runtime"], 2499);  // ms
  EXPECT_EQ(job["usr_cpu"], 0.0);
  EXPECT_EQ(job["ctx"], 0);
  for (const auto& level : job["iodepth_level"].items()) EXPECT_EQ(level.value(), 0.0);
  EXPECT_EQ(job["latency_depth"], 16);  // the [global] iodepth
  EXPECT_EQ(job["latency_target"], 0);
  EXPECT_EQ(job["latency_percentile"], 100.0);
  EXPECT_EQ(job["latency_window"], 0);

  FioOutputOptions o = job_file_options(false);
  o.jobs[0].options.push_back({"iodepth", "4"});  // the job's own wins
  o.global_options.clear();
  const Json own = fio_json(two_stream_report(), o);
  EXPECT_EQ(own["jobs"][0]["latency_depth"], 4);
  EXPECT_EQ(own["jobs"][1]["latency_depth"], 1);  // none given: fio's default
}

TEST(FioJson, LatencyRangesAreSharesOfReadsWritesAndTrims) {
  RunReport report;
  report.simulated_ns = 1000000000;
  StreamReport s;
  s.first_issue_ns = 0;
  s.last_completion_ns = 1000000000;
  // ns: 1 -> "2", 700 -> "750"; us: 1500 ns -> "2", 60 us -> "100"; ms: 3 ms -> "4", 5 s ->
  // ">=2000"
  for (const uint64_t ns : {1ull, 700ull, 1500ull, 60000ull}) s.latency_read.record(ns);
  for (const uint64_t ns : {3000000ull, 5000000000ull}) s.latency_write.record(ns);
  s.latency_trim.record(700);
  s.latency_flush.record(1);  // flushes are not in fio's ranges
  s.reads = 4;
  s.writes = 2;
  s.trims = 1;
  s.flushes = 1;
  report.streams = {s};
  const Json job = fio_json(report, FioOutputOptions{})["jobs"][0];
  const double one = 100.0 / 7.0;
  EXPECT_NEAR(job["latency_ns"]["2"].get<double>(), one, 1e-6);
  EXPECT_NEAR(job["latency_ns"]["750"].get<double>(), 2 * one, 1e-6);
  EXPECT_NEAR(job["latency_us"]["2"].get<double>(), one, 1e-6);
  EXPECT_NEAR(job["latency_us"]["100"].get<double>(), one, 1e-6);
  EXPECT_NEAR(job["latency_ms"]["4"].get<double>(), one, 1e-6);
  EXPECT_NEAR(job["latency_ms"][">=2000"].get<double>(), one, 1e-6);
  EXPECT_EQ(job["latency_ns"]["4"], 0.0);
  double total = 0;
  for (const char* map : {"latency_ns", "latency_us", "latency_ms"}) {
    for (const auto& range : job[map].items()) total += range.value().get<double>();
  }
  EXPECT_NEAR(total, 100.0, 1e-4);
}

TEST(FioJson, ATinyShareShowsAsFiosFloorOf001) {
  RunReport report;
  report.simulated_ns = 1000000;
  StreamReport s;
  s.last_completion_ns = 1000000;
  for (int i = 0; i < 20000; ++i) s.latency_read.record(100);
  s.latency_read.record(5000);  // 1 in 20001: 0.005 %
  s.reads = 20001;
  report.streams = {s};
  const Json job = fio_json(report, FioOutputOptions{})["jobs"][0];
  EXPECT_EQ(job["latency_us"]["10"], 0.01);
}

TEST(FioJson, BinsSumToNAndAgreeWithThePercentiles) {
  const RunReport report = two_stream_report();
  const Json doc = fio_json(report, job_file_options(true));
  const Json& clat = doc["jobs"][0]["read"]["clat_ns"];
  uint64_t sum = 0, previous = 0;
  std::set<uint64_t> keys;
  for (const auto& bin : clat["bins"].items()) {
    const uint64_t value = std::stoull(bin.key());
    EXPECT_TRUE(keys.empty() || value > previous) << "bins ascend";
    previous = value;
    keys.insert(value);
    sum += bin.value().get<uint64_t>();
  }
  EXPECT_EQ(sum, clat["N"].get<uint64_t>());
  EXPECT_EQ(previous, clat["max"].get<uint64_t>());
  for (const auto& p : clat["percentile"].items()) {
    EXPECT_EQ(keys.count(p.value().get<uint64_t>()), 1u) << "percentile " << p.key();
  }
  const Json& sync = doc["jobs"][0]["sync"]["lat_ns"];
  uint64_t sync_sum = 0;
  for (const auto& bin : sync["bins"].items()) sync_sum += bin.value().get<uint64_t>();
  EXPECT_EQ(sync_sum, report.streams[0].flushes);
}

TEST(FioJson, LatenciesBeyondFiosTopBinShareItsKey) {
  RunReport report;
  report.simulated_ns = 100000000000;
  StreamReport s;
  s.last_completion_ns = report.simulated_ns;
  s.reads = 3;
  s.latency_read.record(300);          // below 512 ns: a bucket of its own
  s.latency_read.record(20000000000);  // 20 s and 40 s: above fio's last bin (17.1 s)
  s.latency_read.record(40000000000);
  report.streams = {s};
  FioOutputOptions o;
  o.plus = true;
  const Json clat = fio_json(report, o)["jobs"][0]["read"]["clat_ns"];
  EXPECT_EQ(keys_of(clat["bins"]), (std::vector<std::string>{"300", "17112760320"}));
  EXPECT_EQ(clat["bins"]["17112760320"], 2);
  EXPECT_EQ(clat["max"], 40000000000);  // the exact figures stay exact
}

TEST(FioJson, DiskUtilIsTheDevicesCommandsTicksAndCoveredTime) {
  const RunReport report = two_stream_report();
  const Json disk = fio_json(report, FioOutputOptions{})["disk_util"][0];
  EXPECT_EQ(disk["name"], "ssdsim");
  EXPECT_EQ(disk["read_ios"].get<uint64_t>(), report.reads);
  EXPECT_EQ(disk["write_ios"].get<uint64_t>(), report.writes);
  EXPECT_EQ(disk["read_merges"], 0);
  EXPECT_EQ(disk["write_merges"], 0);
  EXPECT_EQ(disk["read_ticks"].get<uint64_t>(),
            static_cast<uint64_t>(report.latency_read.sum() / 1000000));
  EXPECT_EQ(disk["write_ticks"].get<uint64_t>(),
            static_cast<uint64_t>(report.latency_write.sum() / 1000000));
  const long double all = report.latency_read.sum() + report.latency_write.sum() +
                          report.latency_trim.sum() + report.latency_flush.sum();
  EXPECT_EQ(disk["in_queue"].get<uint64_t>(), static_cast<uint64_t>(all / 1000000));
  // Jobs cover 1 ms .. 2.5 s (the trims' 0.5 .. 1.2 s lie inside) of 3 s.
  EXPECT_NEAR(disk["util"].get<double>(), 100.0 * 2.499 / 3.0, 1e-6);
}

TEST(FioJson, IsDeterministic) {
  const std::string a = fio_json(two_stream_report(), job_file_options(true)).dump(2);
  const std::string b = fio_json(two_stream_report(), job_file_options(true)).dump(2);
  EXPECT_EQ(a, b);
}

// fio's own converter reads our json+ and writes one CSV per job with a row per distinct bin
// value (read, write and trim clat together) under a header; --validate checks every count.
TEST(FioJson, FiosJsonplusClat2csvReadsIt) {
  const char* tool = "/usr/bin/fio_jsonplus_clat2csv";
  if (access(tool, X_OK) != 0) GTEST_SKIP() << tool << " is not installed (Debian package fio)";
  // Debian's fio does not depend on python3-six, which the script imports.
  if (std::system((std::string(tool) + " --help > /dev/null 2>&1").c_str()) != 0) {
    GTEST_SKIP() << tool << " does not start (python3-six missing?)";
  }
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("fio_json_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  RunReport report = two_stream_report();
  report.streams[1].latency_trim.record(30000000000);  // 30 s: into fio's top bin, 17.1 s
  report.streams[1].trims += 1;
  const Json doc = fio_json(report, job_file_options(true));
  std::ofstream(dir / "out.json") << doc.dump(2) << "\n";

  // timeout: the converter never ends on a bin above fio's top one; fail rather than hang.
  const std::string convert = "timeout 60 " + std::string(tool) + " " +
                              (dir / "out.json").string() + " " + (dir / "lat.csv").string();
  const std::string quietly = " > " + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(std::system((convert + quietly).c_str()), 0) << convert;
  ASSERT_EQ(std::system((convert + " --validate" + quietly).c_str()), 0)
      << convert << " --validate";

  for (size_t job = 0; job < doc["jobs"].size(); ++job) {
    std::set<std::string> values;
    for (const char* kind : {"read", "write", "trim"}) {
      const Json& clat = doc["jobs"][job][kind]["clat_ns"];
      if (!clat.contains("bins")) continue;
      for (const auto& bin : clat["bins"].items()) values.insert(bin.key());
    }
    std::ifstream csv(dir / ("lat_job" + std::to_string(job) + ".csv"));
    ASSERT_TRUE(csv) << "no CSV for job " << job;
    std::string line;
    size_t rows = 0;
    while (std::getline(csv, line)) rows += line.empty() ? 0 : 1;
    EXPECT_EQ(rows, values.size() + 1) << "job " << job << ": header and one row per bin value";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ssd::report
