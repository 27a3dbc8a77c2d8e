// fio's JSON document (see fio_json.h). Key names, nesting and order are those fio 3.33 prints
// (stat.c: show_thread_status_json, add_ddir_status_json, and the disk_util array); the figures
// come from the simulated run. Where fio measures something the simulator has no counterpart for
// (submission latency, CPU use, queue-depth histograms, rates sampled every 500 ms of wall time),
// the field holds the value fio itself prints when it measured nothing, or one sample spanning the
// whole job; docs/clients.md says which, field by field.
#include "report/fio_json.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ssd::report {
namespace {

using Json = nlohmann::ordered_json;
using Options = std::vector<std::pair<std::string, std::string>>;

// What "fio version" says: which program wrote the file, and whose format it follows. No reader we
// know of parses it (fio_jsonplus_clat2csv ignores it, fio-plot prints it under its graphs).
constexpr const char* kVersion = "ssdsim (fio-3.33 JSON)";
// The wall-clock fields hold the epoch, so that equal runs give equal files; "time" is that instant
// as fio writes it (ctime's layout, in UTC).
constexpr const char* kEpochTime = "Thu Jan  1 00:00:00 1970";
constexpr const char* kDeviceName = "ssdsim";

// fio's default percentile_list, in percent.
constexpr std::array<double, 17> kFioPercentiles = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                                    80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

// The value of fio's highest histogram bin (29 groups of 64 bins; the last is centred at 17.1 s).
// fio counts every longer latency in it, and fio_jsonplus_clat2csv loops forever on a larger bin
// key (its scan for the smallest remaining key starts from this value), so here too every bucket
// at or above it is counted in this one bin.
constexpr uint64_t kFioTopBinNs = 17112760320ull;

constexpr uint64_t kNsPerMs = 1000000;
constexpr uint64_t kNsPerS = 1000000000;

// fio's read, write and trim sections, in its order.
enum Kind { kRead, kWrite, kTrim, kKinds };
constexpr std::array<const char*, kKinds> kKindNames = {"read", "write", "trim"};

__extension__ typedef unsigned __int128 Wide;  // __extension__: no -Wpedantic warning

// fio prints its floating-point figures with printf's "%f", six decimals; rounding to them gives
// the same numbers (nlohmann then writes the shortest form: 100.0 for fio's 100.000000).
double fio_float(double value) { return std::round(value * 1e6) / 1e6; }

// fio's runtime unit; it rounds its microseconds up to milliseconds the same way (backend.c).
uint64_t ms_rounded_up(uint64_t ns) { return ns / kNsPerMs + (ns % kNsPerMs != 0 ? 1 : 0); }

// Whole bytes per second over `ns` (truncated, as fio's integer bw_bytes), without overflowing.
uint64_t bytes_per_second(uint64_t bytes, uint64_t ns) {
  if (ns == 0) return 0;
  const Wide rate = Wide{bytes} * kNsPerS / ns;
  return rate > std::numeric_limits<uint64_t>::max() ? std::numeric_limits<uint64_t>::max()
                                                     : static_cast<uint64_t>(rate);
}

double per_second(uint64_t amount, uint64_t ns) {
  return ns == 0 ? 0.0 : static_cast<double>(amount) * 1e9 / static_cast<double>(ns);
}

// A job's time: from its first command's arrival to its last completion.
uint64_t span_ns(const StreamReport& job) {
  return job.last_completion_ns > job.first_issue_ns ? job.last_completion_ns - job.first_issue_ns
                                                     : 0;
}

uint64_t ios_of(const StreamReport& job, Kind kind) {
  return kind == kRead ? job.reads : kind == kWrite ? job.writes : job.trims;
}
uint64_t bytes_of(const StreamReport& job, Kind kind) {
  return kind == kRead ? job.bytes_read : kind == kWrite ? job.bytes_written : job.bytes_trimmed;
}
const LatencyHistogram& latency_of(const StreamReport& job, Kind kind) {
  return kind == kRead ? job.latency_read : kind == kWrite ? job.latency_write : job.latency_trim;
}

// A run without streams is one job: the run's totals from time 0 to the end of the simulation.
StreamReport whole_run_as_job(const RunReport& r) {
  StreamReport job;
  job.name = r.scenario_name;
  job.reads = r.reads;
  job.writes = r.writes;
  job.flushes = r.flushes;
  job.trims = r.trims;
  job.bytes_read = r.bytes_read;
  job.bytes_written = r.bytes_written;
  job.bytes_trimmed = r.bytes_trimmed;
  job.latency_read = r.latency_read;
  job.latency_write = r.latency_write;
  job.latency_flush = r.latency_flush;
  job.latency_trim = r.latency_trim;
  job.first_issue_ns = 0;
  job.last_completion_ns = r.simulated_ns;
  return job;
}

// --- Latency distributions ----------------------------------------------------------------------

// What fio prints for a distribution with no samples (slat always, here: the simulator has no
// submission step apart from the command's latency).
Json no_latency_json() {
  Json out;
  out["min"] = 0;
  out["max"] = 0;
  out["mean"] = 0.0;
  out["stddev"] = 0.0;
  out["N"] = 0;
  return out;
}

// fio's percentile keys: the percent as "%f" prints it ("99.990000").
std::string percentile_key(double percent) {
  char key[32];
  std::snprintf(key, sizeof key, "%f", percent);
  return key;
}

// Each percentile is LatencyHistogram::percentile at that rank (ceil(p% of N), as fio ranks).
Json percentiles_json(const LatencyHistogram& latency) {
  Json out = Json::object();
  for (const double percent : kFioPercentiles) {
    out[percentile_key(percent)] = latency.percentile(percent / 100.0);
  }
  return out;
}

// json+'s "bins": count per bucket, keyed by the bucket's value in ns (the one percentile()
// reports for ranks in it, so the bins and the percentile map agree).
Json bins_json(const LatencyHistogram& latency) {
  Json out = Json::object();
  uint64_t beyond_fio = 0;
  for (const LatencyBucket& bucket : latency.buckets()) {
    if (bucket.value_ns >= kFioTopBinNs) {
      beyond_fio += bucket.count;
    } else {
      out[std::to_string(bucket.value_ns)] = bucket.count;
    }
  }
  if (beyond_fio > 0) out[std::to_string(kFioTopBinNs)] = beyond_fio;
  return out;
}

// min, max, mean, stddev and N; then, as fio does only when N > 0, the percentile map (when asked)
// and json+'s bins (when asked too).
Json latency_json(const LatencyHistogram& latency, bool with_percentiles, bool with_bins) {
  Json out;
  out["min"] = latency.min();
  out["max"] = latency.max();
  out["mean"] = fio_float(latency.mean());
  out["stddev"] = fio_float(latency.stddev());
  out["N"] = latency.count();
  if (with_percentiles && latency.count() > 0) {
    out["percentile"] = percentiles_json(latency);
    if (with_bins) out["bins"] = bins_json(latency);
  }
  return out;
}

// --- read, write, trim and sync sections --------------------------------------------------------

// fio's group aggregate bandwidth, by kind, which each job's bw_agg compares with: every job's
// bytes of that kind over the longest span of the jobs of its group that did it.
using GroupBandwidth = std::array<uint64_t, kKinds>;  // bytes per second, by kind

GroupBandwidth group_bandwidth(const std::vector<const StreamReport*>& jobs) {
  GroupBandwidth out{};
  for (int kind = 0; kind < kKinds; ++kind) {
    uint64_t bytes = 0, longest_ns = 0;
    for (const StreamReport* job : jobs) {
      if (ios_of(*job, Kind(kind)) == 0) continue;
      bytes += bytes_of(*job, Kind(kind));
      longest_ns = std::max(longest_ns, span_ns(*job));
    }
    out[size_t(kind)] = bytes_per_second(bytes, longest_ns);
  }
  return out;
}

// fio samples bandwidth and IOPS every 500 ms of wall time and prints their spread. The simulator
// has no such windows: a kind the job did is one sample spanning the whole job (min = max = mean,
// deviation 0, samples 1); a kind it never did has no sample, fio's zeros.
void add_rate_samples(Json& out, uint64_t bytes, uint64_t ios, uint64_t ns,
                      uint64_t group_bytes_per_s) {
  const bool sampled = ios > 0 && ns > 0;
  const uint64_t bw_kib = bytes_per_second(bytes, ns) / 1024;
  const double bw_mean_kib = per_second(bytes, ns) / 1024.0;
  const double iops = per_second(ios, ns);
  // fio's bw_agg: this job's mean bandwidth as a percentage of its group's, at most 100.
  double share_of_group = 100.0;
  if (group_bytes_per_s > 1024) {
    share_of_group = std::min(100.0, bw_mean_kib * 100.0 / (double(group_bytes_per_s) / 1024.0));
  }
  out["bw_min"] = sampled ? bw_kib : 0;
  out["bw_max"] = sampled ? bw_kib : 0;
  out["bw_agg"] = sampled ? fio_float(share_of_group) : 0.0;
  out["bw_mean"] = sampled ? fio_float(bw_mean_kib) : 0.0;
  out["bw_dev"] = 0.0;
  out["bw_samples"] = sampled ? 1 : 0;
  out["iops_min"] = sampled ? static_cast<uint64_t>(iops) : 0;
  out["iops_max"] = sampled ? static_cast<uint64_t>(iops) : 0;
  out["iops_mean"] = sampled ? fio_float(iops) : 0.0;
  out["iops_stddev"] = 0.0;
  out["iops_samples"] = sampled ? 1 : 0;
}

// One of fio's "read", "write" and "trim" sections. The rates divide by the job's exact simulated
// span, not by the runtime rounded to ms, so that runs shorter than a few ms keep exact figures.
// The simulator's latency (arrival to completion) is both clat and lat; slat has no samples.
Json direction_json(const StreamReport& job, Kind kind, uint64_t group_bytes_per_s, bool plus) {
  const uint64_t ios = ios_of(job, kind);
  const uint64_t bytes = bytes_of(job, kind);
  const uint64_t ns = ios > 0 ? span_ns(job) : 0;  // fio: a kind the job never did ran for 0 ms
  const uint64_t bw_bytes = bytes_per_second(bytes, ns);
  const LatencyHistogram& latency = latency_of(job, kind);

  Json out;
  out["io_bytes"] = bytes;
  out["io_kbytes"] = bytes >> 10;
  out["bw_bytes"] = bw_bytes;
  out["bw"] = bw_bytes / 1024;
  out["iops"] = fio_float(per_second(ios, ns));
  out["runtime"] = ms_rounded_up(ns);
  out["total_ios"] = ios;
  out["short_ios"] = 0;
  out["drop_ios"] = 0;
  out["slat_ns"] = no_latency_json();
  out["clat_ns"] = latency_json(latency, true, plus);
  out["lat_ns"] = latency_json(latency, false, false);  // fio's lat_percentiles is off by default
  add_rate_samples(out, bytes, ios, ns, group_bytes_per_s);
  return out;
}

// fio's "sync": its fsync/fdatasync commands, here the flushes, with their latencies' percentiles.
Json sync_json(const StreamReport& job, bool plus) {
  Json out;
  out["total_ios"] = job.flushes;
  out["lat_ns"] = latency_json(job.latency_flush, true, plus);
  return out;
}

// --- The rest of a job ---------------------------------------------------------------------------

Json options_json(const Options& options) {
  Json out = Json::object();
  for (const auto& [key, value] : options) out[key] = value;
  return out;
}

// fio's iodepth_level, iodepth_submit and iodepth_complete: shares of commands by queue depth,
// which the run report does not keep; all 0.
Json zero_shares(const std::vector<const char*>& labels) {
  Json out = Json::object();
  for (const char* label : labels) out[label] = 0.0;
  return out;
}

// fio's latency_ns, latency_us and latency_ms: the share (percent) of the job's reads, writes and
// trims whose latency falls in each range. A range is labelled by its upper bound (exclusive) in
// the map's unit; below 1 us the ns map counts, below 1 ms the us map, then the ms map. A latency
// counts in the range holding its bucket's value (see bins_json): within 0.4 % of the latency.
struct LatencyRanges {
  static constexpr std::array<uint64_t, 11> kUpperBounds = {2,   4,   10,  20,   50,  100,
                                                            250, 500, 750, 1000, 2000};
  std::array<uint64_t, 10> ns{}, us{};
  std::array<uint64_t, 12> ms{};  // the last one: 2000 ms and beyond

  static size_t range_of(uint64_t value_in_unit) {
    return size_t(std::upper_bound(kUpperBounds.begin(), kUpperBounds.end(), value_in_unit) -
                  kUpperBounds.begin());
  }
  void count(uint64_t latency_ns, uint64_t commands) {
    if (latency_ns < 1000) {
      ns[range_of(latency_ns)] += commands;
    } else if (latency_ns < kNsPerMs) {
      us[range_of(latency_ns / 1000)] += commands;
    } else {
      ms[range_of(latency_ns / kNsPerMs)] += commands;
    }
  }
};

// fio's percentages: a range holding any command shows at least 0.01 (stat_calc_lat).
template <size_t N>
Json latency_shares_json(const std::array<uint64_t, N>& counts, uint64_t total) {
  static const std::array<const char*, 12> kLabels = {
      "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"};
  Json out = Json::object();
  for (size_t i = 0; i < N; ++i) {
    double percent = total ? 100.0 * double(counts[i]) / double(total) : 0.0;
    if (counts[i] > 0 && percent < 0.01) percent = 0.01;
    out[kLabels[i]] = fio_float(percent);
  }
  return out;
}

void add_latency_ranges(Json& out, const StreamReport& job) {
  LatencyRanges ranges;
  uint64_t total = 0;
  for (int kind = 0; kind < kKinds; ++kind) {
    const LatencyHistogram& latency = latency_of(job, Kind(kind));
    for (const LatencyBucket& bucket : latency.buckets())
      ranges.count(bucket.value_ns, bucket.count);
    total += latency.count();
  }
  out["latency_ns"] = latency_shares_json(ranges.ns, total);
  out["latency_us"] = latency_shares_json(ranges.us, total);
  out["latency_ms"] = latency_shares_json(ranges.ms, total);
}

// A whole decimal number, or nothing (fio's iodepth takes no unit suffix).
std::optional<uint64_t> whole_number(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return {};
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return {};
  return static_cast<uint64_t>(value);
}

std::optional<uint64_t> iodepth_in(const Options& options) {
  std::optional<uint64_t> depth;
  for (const auto& [key, value] : options) {
    if (key == "iodepth") depth = whole_number(value);  // the last one given wins, as in fio
  }
  return depth;
}

// fio's latency_depth starts at the job's iodepth: its section's, else [global]'s, else 1.
uint64_t latency_depth(const FioJobOptions* job, const FioOutputOptions& options) {
  if (job != nullptr) {
    if (const auto depth = iodepth_in(job->options)) return *depth;
  }
  return iodepth_in(options.global_options).value_or(1);
}

// fio's job object, in fio's key order.
struct JobContext {
  const RunReport& report;
  const FioOutputOptions& options;
  const std::map<uint32_t, GroupBandwidth>& groups;  // by reporting group
};

Json job_json(const JobContext& context, const StreamReport& job, const FioJobOptions* options) {
  const bool plus = context.options.plus;
  std::string name = options != nullptr ? options->name : "";
  if (name.empty()) name = job.name.empty() ? context.report.scenario_name : job.name;

  Json out;
  out["jobname"] = name;
  out["groupid"] = job.group;
  out["error"] = 0;
  out["eta"] = 0;  // the job is over: nothing remains
  out["elapsed"] = context.report.simulated_ns / kNsPerS +
                   (context.report.simulated_ns % kNsPerS != 0 ? 1 : 0);  // s, rounded up
  if (options != nullptr && !options->options.empty()) {
    out["job options"] = options_json(options->options);
  }
  for (int kind = 0; kind < kKinds; ++kind) {
    out[kKindNames[size_t(kind)]] =
        direction_json(job, Kind(kind), context.groups.at(job.group)[size_t(kind)], plus);
  }
  out["sync"] = sync_json(job, plus);
  out["job_runtime"] = ms_rounded_up(span_ns(job));
  // The host's CPU use, context switches and page faults: the simulator models no host CPU.
  out["usr_cpu"] = 0.0;
  out["sys_cpu"] = 0.0;
  out["ctx"] = 0;
  out["majf"] = 0;
  out["minf"] = 0;
  out["iodepth_level"] = zero_shares({"1", "2", "4", "8", "16", "32", ">=64"});
  out["iodepth_submit"] = zero_shares({"0", "4", "8", "16", "32", "64", ">=64"});
  out["iodepth_complete"] = zero_shares({"0", "4", "8", "16", "32", "64", ">=64"});
  add_latency_ranges(out, job);
  // fio's latency_target mode is not simulated; these are what fio prints without it.
  out["latency_depth"] = latency_depth(options, context.options);
  out["latency_target"] = 0;
  out["latency_percentile"] = 100.0;
  out["latency_window"] = 0;
  return out;
}

// --- disk_util -----------------------------------------------------------------------------------

// Time covered by at least one job, from its first arrival to its last completion (the union of
// the jobs' spans).
uint64_t covered_ns(std::vector<const StreamReport*> jobs) {
  std::sort(jobs.begin(), jobs.end(), [](const StreamReport* a, const StreamReport* b) {
    return a->first_issue_ns < b->first_issue_ns;
  });
  uint64_t covered = 0, covered_until = 0;
  for (const StreamReport* job : jobs) {
    if (span_ns(*job) == 0) continue;
    const uint64_t start = std::max(job->first_issue_ns, covered_until);
    if (job->last_completion_ns > start) covered += job->last_completion_ns - start;
    covered_until = std::max(covered_until, job->last_completion_ns);
  }
  return covered;
}

uint64_t whole_ms(long double ns) { return static_cast<uint64_t>(ns / kNsPerMs); }

// The kernel's figures for the disk (/sys/block/*/stat) as fio reports them, for the simulated
// device over the whole run: commands by kind, the time they spent in the device (ticks, ms: the
// sum of their latencies, as the kernel sums them), and its busy share.
Json disk_util_json(const RunReport& r, const std::vector<const StreamReport*>& jobs) {
  const long double all_ns =
      r.latency_read.sum() + r.latency_write.sum() + r.latency_trim.sum() + r.latency_flush.sum();
  // The kernel's util is the share of the time with a command in flight; the report keeps no such
  // figure, so this is the share of the run some job spent between its first arrival and its last
  // completion: the same for jobs that keep commands outstanding throughout (fio's closed loop),
  // higher where a job leaves the device idle in between (thinktime, rate limits, open-loop
  // traces).
  const double util =
      r.simulated_ns ? std::min(100.0, 100.0 * double(covered_ns(jobs)) / double(r.simulated_ns))
                     : 0.0;
  Json out;
  out["name"] = kDeviceName;
  out["read_ios"] = r.reads;  // the kernel counts trims and flushes apart, in fields fio omits
  out["write_ios"] = r.writes;
  out["read_merges"] = 0;  // the simulated host merges no commands
  out["write_merges"] = 0;
  out["read_ticks"] = whole_ms(r.latency_read.sum());
  out["write_ticks"] = whole_ms(r.latency_write.sum());
  out["in_queue"] = whole_ms(all_ns);  // every kind's, as the kernel's time_in_queue
  out["util"] = fio_float(util);
  return out;
}

}  // namespace

Json fio_json(const RunReport& report, const FioOutputOptions& options) {
  std::optional<StreamReport> whole_run;
  std::vector<const StreamReport*> jobs;
  if (report.streams.empty()) {
    whole_run = whole_run_as_job(report);
    jobs.push_back(&*whole_run);
  } else {
    for (const StreamReport& stream : report.streams) jobs.push_back(&stream);
  }
  std::map<uint32_t, std::vector<const StreamReport*>> by_group;
  for (const StreamReport* job : jobs) by_group[job->group].push_back(job);
  std::map<uint32_t, GroupBandwidth> groups;
  for (const auto& [id, members] : by_group) groups[id] = group_bandwidth(members);
  const JobContext context{report, options, groups};

  Json out;
  out["fio version"] = kVersion;
  out["timestamp"] = 0;
  out["timestamp_ms"] = 0;
  out["time"] = kEpochTime;
  if (!options.global_options.empty()) {
    out["global options"] = options_json(options.global_options);
  }
  Json& jobs_json = out["jobs"] = Json::array();
  for (size_t i = 0; i < jobs.size(); ++i) {
    const FioJobOptions* job_options = i < options.jobs.size() ? &options.jobs[i] : nullptr;
    jobs_json.push_back(job_json(context, *jobs[i], job_options));
  }
  out["disk_util"] = Json::array({disk_util_json(report, jobs)});
  return out;
}

}  // namespace ssd::report
