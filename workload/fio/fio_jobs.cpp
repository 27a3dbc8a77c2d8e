#include "workload/fio/fio_jobs.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>

#include "config/time_limit.h"

namespace ssd::workload {

namespace {

// One job's options as they stand, [global]'s applied first, then its own.
struct JobState {
  std::string name;
  std::string mode = "read";  // fio's default rw
  uint64_t bs = 4096;
  std::optional<std::pair<uint64_t, uint64_t>> bs_range;
  std::vector<std::pair<uint64_t, double>> bs_split;  // bssplit: sizes and their percentages
  std::string distribution = "uniform";               // random_distribution
  double skew = 0.0;
  double read_mix = 50.0;  // percent of a mixed job's data commands that read
  uint64_t iodepth = 1;
  uint64_t numjobs = 1;
  std::optional<uint64_t> size, io_size;  // bytes
  uint64_t offset = 0;
  uint64_t number_ios = 0;
  double runtime_ms = 0.0;
  double ramp_ms = 0.0;
  uint64_t ramp_line = 0;  // of its ramp_time
  bool time_based = false;
  uint64_t seed = 1;
  uint64_t sync_every = 0;
  bool random_map = true;
  double think_us = 0.0;
  double rate_iops = 0.0;
  bool stonewall = false;
  uint64_t line = 0;  // of the job's section, for what concerns the job as a whole
};

class Translator {
 public:
  Translator(const FioJobFile& file, const FioDevice& device)
      : m_file(file), m_device(device), m_handlers(handlers()) {}

  FioJobs run() {
    FioJobs out;
    for (const FioOption& o : m_file.globals) out.global_options.push_back(echo(o));
    uint32_t group = 0;
    for (const FioJobSection& section : m_file.jobs) {
      JobState job;
      job.name = section.name;
      job.line = section.line;
      for (const FioOption& option : section.globals) apply(option, job);
      for (const FioOption& option : section.options) apply(option, job);
      std::vector<std::pair<std::string, std::string>> own;
      for (const FioOption& o : section.options) own.push_back(echo(o));
      // A stonewall waits for every job before it and starts the next reporting group.
      if (job.stonewall && !out.jobs.empty()) ++group;
      check_ramp(job, out, group);
      for (uint64_t clone = 0; clone < job.numjobs; ++clone) {
        const auto stream = static_cast<uint64_t>(out.jobs.size());
        FioJob copy{job.name, workload_of(job, stream, clone == 0), own};
        copy.think_us = job.think_us;
        copy.rate_iops = job.rate_iops;
        copy.group = group;
        out.jobs.push_back(copy);
      }
    }
    out.notes = m_notes;
    return out;
  }

 private:
  static std::pair<std::string, std::string> echo(const FioOption& o) {
    return {o.key, o.flag ? std::string() : o.value};
  }
  // The report measures one window: from the end of the ramp to the end of the run. So every
  // job ramps alike, and a ramp with stonewall groups (a window per group) is refused.
  void check_ramp(const JobState& job, FioJobs& out, uint32_t group) const {
    const bool first = out.jobs.empty();
    if (first) out.ramp_ms = job.ramp_ms;
    const auto refuse = [&](const std::string& why) {
      throw FioJobError(m_file.path + ":" +
                        std::to_string(job.ramp_line ? job.ramp_line : job.line) + ": job `" +
                        job.name + "`: " + why);
    };
    if (job.ramp_ms != out.ramp_ms) {
      refuse(
          "ramp_time must be the same for every job: the report measures one window, from "
          "the end of the ramp");
    }
    if (job.ramp_ms > 0 && group > 0) {
      refuse(
          "ramp_time with stonewall groups is not modelled: the report measures one window, "
          "from the end of the ramp");
    }
    if ((job.ramp_ms + job.runtime_ms) * 1e9 >= double(config::kLatestTimePs)) {
      refuse(std::string("ramp_time + runtime is past the latest simulated time (") +
             config::kLatestTimeText + ")");
    }
  }
  [[noreturn]] void fail(const FioOption& o, const std::string& why) const {
    throw FioJobError(m_file.path + ":" + std::to_string(o.line) + ": option `" + o.key +
                      (o.flag ? "" : "=" + o.value) + "`: " + why);
  }
  [[noreturn]] void fail_job(const JobState& job, const std::string& why) const {
    throw FioJobError(m_file.path + ":" + std::to_string(job.line) + ": job `" + job.name +
                      "`: " + why);
  }
  void note(const FioOption& o, const std::string& what) {
    m_notes.push_back(m_file.path + ":" + std::to_string(o.line) + ": " + o.key + ": " + what);
  }

  // fio's sizes with its default kb_base=1024: a whole number, then k, m, g, t or p (any case,
  // optionally followed by "b" or "ib"), each 1024 times the one before.
  uint64_t size_of(const FioOption& o, const std::string& text) const {
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
      ++digits;
    }
    if (digits == 0 || digits > 18) fail(o, "not a size (a whole number of bytes, or 4k, 1m...)");
    uint64_t value = std::stoull(text.substr(0, digits));
    std::string suffix;
    for (char c : text.substr(digits)) suffix += static_cast<char>(std::tolower(c));
    static const std::map<std::string, int> kPowers = {{"", 0},  {"b", 0}, {"k", 1}, {"m", 2},
                                                       {"g", 3}, {"t", 4}, {"p", 5}};
    std::string unit = suffix;
    if (unit.size() == 3 && unit.substr(1) == "ib") unit = unit.substr(0, 1);
    if (unit.size() == 2 && unit[1] == 'b') unit = unit.substr(0, 1);
    const auto power = kPowers.find(unit);
    if (power == kPowers.end()) fail(o, "unknown size unit `" + suffix + "`");
    for (int i = 0; i < power->second; ++i) {
      if (value > (~uint64_t{0} >> 10)) fail(o, "too large");
      value <<= 10;
    }
    return value;
  }
  // A size, or a share of the device ("50%"), in whole sectors.
  uint64_t size_or_share(const FioOption& o) const {
    if (!o.value.empty() && o.value.back() == '%') {
      const uint64_t percent = whole(o, o.value.substr(0, o.value.size() - 1));
      if (percent == 0 || percent > 100) fail(o, "a share of the device must be 1% to 100%");
      // Whole sectors, so that a share used as an offset stays aligned.
      const auto share = static_cast<uint64_t>(
          static_cast<unsigned __int128>(m_device.logical_bytes) * percent / 100);
      return share / m_device.sector_bytes * m_device.sector_bytes;
    }
    return size_of(o, o.value);
  }
  uint64_t whole(const FioOption& o, const std::string& text) const {
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      fail(o, "not a whole number");
    }
    return std::stoull(text);
  }
  bool flag_value(const FioOption& o) const {
    if (o.flag) return true;
    if (o.value == "1" || o.value == "true") return true;
    if (o.value == "0" || o.value == "false") return false;
    fail(o, "must be 0 or 1");
  }
  // fio's times: a whole number in the option's default unit (`bare_ms` milliseconds: seconds
  // for runtime, microseconds for thinktime), or with us, ms, s, m, h or d.
  double time_ms(const FioOption& o, double bare_ms = 1e3) const {
    size_t digits = 0;
    while (digits < o.value.size() && std::isdigit(static_cast<unsigned char>(o.value[digits]))) {
      ++digits;
    }
    if (digits == 0 || digits > 15) fail(o, "not a time (a whole number of seconds, or 500ms...)");
    const double value = std::stod(o.value.substr(0, digits));
    static const std::map<std::string, double> kMs = {
        {"s", 1e3}, {"sec", 1e3}, {"ms", 1.0},  {"msec", 1.0}, {"us", 1e-3}, {"usec", 1e-3},
        {"m", 6e4}, {"min", 6e4}, {"h", 3.6e6}, {"hr", 3.6e6}, {"d", 8.64e7}};
    std::string unit;
    for (char c : o.value.substr(digits)) unit += static_cast<char>(std::tolower(c));
    double ms = value * bare_ms;
    if (!unit.empty()) {
      const auto factor = kMs.find(unit);
      if (factor == kMs.end()) fail(o, "unknown time unit `" + unit + "`");
      ms = value * factor->second;
    }
    if (ms * 1e9 >= double(config::kLatestTimePs)) {
      fail(o, std::string("past the latest simulated time (") + config::kLatestTimeText + ")");
    }
    return ms;
  }

  using Handler = std::function<void(const FioOption&, JobState&)>;
  // What each modelled option does to the job (a member: the handlers use this translator).
  std::map<std::string, Handler> handlers() {
    return {
        {"name", [](const FioOption& o, JobState& j) { j.name = o.value; }},
        {"description", [](const FioOption&, JobState&) {}},
        {"rw", [this](const FioOption& o, JobState& j) { set_mode(o, j); }},
        {"readwrite", [this](const FioOption& o, JobState& j) { set_mode(o, j); }},
        {"bs", [this](const FioOption& o, JobState& j) { set_bs(o, j); }},
        {"blocksize", [this](const FioOption& o, JobState& j) { set_bs(o, j); }},
        {"bsrange", [this](const FioOption& o, JobState& j) { set_bs_range(o, j); }},
        {"blocksize_range", [this](const FioOption& o, JobState& j) { set_bs_range(o, j); }},
        {"rwmixread", [this](const FioOption& o, JobState& j) { j.read_mix = percent(o); }},
        {"rwmixwrite",
         [this](const FioOption& o, JobState& j) { j.read_mix = 100.0 - percent(o); }},
        {"iodepth", [this](const FioOption& o, JobState& j) { j.iodepth = at_least_one(o); }},
        {"numjobs", [this](const FioOption& o, JobState& j) { j.numjobs = at_least_one(o); }},
        {"size", [this](const FioOption& o, JobState& j) { j.size = size_or_share(o); }},
        {"io_size", [this](const FioOption& o, JobState& j) { j.io_size = size_of(o, o.value); }},
        {"io_limit", [this](const FioOption& o, JobState& j) { j.io_size = size_of(o, o.value); }},
        {"offset", [this](const FioOption& o, JobState& j) { j.offset = size_or_share(o); }},
        {"number_ios",
         [this](const FioOption& o, JobState& j) { j.number_ios = whole(o, o.value); }},
        {"runtime", [this](const FioOption& o, JobState& j) { j.runtime_ms = time_ms(o); }},
        {"ramp_time",
         [this](const FioOption& o, JobState& j) {
           j.ramp_ms = time_ms(o);
           j.ramp_line = o.line;
         }},
        {"time_based", [this](const FioOption& o, JobState& j) { j.time_based = flag_value(o); }},
        {"randseed", [this](const FioOption& o, JobState& j) { j.seed = whole(o, o.value); }},
        {"randrepeat",
         [this](const FioOption& o, JobState&) {
           if (!flag_value(o)) note(o, "the simulator is always repeatable: the seed is randseed");
         }},
        {"fsync", [this](const FioOption& o, JobState& j) { j.sync_every = whole(o, o.value); }},
        {"fdatasync",
         [this](const FioOption& o, JobState& j) { j.sync_every = whole(o, o.value); }},
        {"norandommap", [this](const FioOption& o, JobState& j) { j.random_map = !flag_value(o); }},
        {"random_distribution",
         [this](const FioOption& o, JobState& j) { set_distribution(o, j); }},
        {"bssplit", [this](const FioOption& o, JobState& j) { set_bs_split(o, j); }},
        {"thinktime",
         [this](const FioOption& o, JobState& j) { j.think_us = time_ms(o, 1e-3) * 1e3; }},
        {"thinktime_blocks",
         [this](const FioOption& o, JobState&) {
           if (whole(o, o.value) != 1) fail(o, "only 1 (a think time after every command)");
         }},
        {"rate_iops", [this](const FioOption& o, JobState& j) { set_rate(o, j); }},
        {"stonewall", [this](const FioOption& o, JobState& j) { j.stonewall = flag_value(o); }},
        {"wait_for_previous",
         [this](const FioOption& o, JobState& j) { j.stonewall = flag_value(o); }},
        {"kb_base",
         [this](const FioOption& o, JobState&) {
           if (o.value != "1024") fail(o, "only kb_base=1024 (fio's default) is modelled");
         }},
    };
  }

  void apply(const FioOption& o, JobState& job) {
    static const std::map<std::string, std::string> kIgnored = {
        {"ioengine", "the simulated device is the engine"},
        {"direct", "every command goes to the device (no page cache)"},
        {"buffered", "every command goes to the device (no page cache)"},
        {"filename", "the job runs on the simulated device"},
        {"thread", "jobs are streams of one process either way"},
        {"group_reporting", "each job is reported on its own"},
        {"invalidate", "no page cache to invalidate"},
    };
    if (const auto handler = m_handlers.find(o.key); handler != m_handlers.end()) {
      handler->second(o, job);
    } else if (const auto ignored = kIgnored.find(o.key); ignored != kIgnored.end()) {
      note(o, "accepted and ignored (" + ignored->second + ")");
    } else {
      fail(o, "not modelled (docs/clients.md lists the options that are)");
    }
  }

  void set_mode(const FioOption& o, JobState& job) const {
    static const char* kModes[] = {"read",     "write", "trim",      "randread", "randwrite",
                                   "randtrim", "rw",    "readwrite", "randrw"};
    for (const char* mode : kModes) {
      if (o.value == mode) {
        job.mode = o.value == "readwrite" ? "rw" : o.value;
        return;
      }
    }
    if (o.value.find(':') != std::string::npos) fail(o, "an offset modifier (:N) is not modelled");
    fail(o, "not a modelled mode (read, write, trim, randread, randwrite, randtrim, rw, randrw)");
  }
  void set_bs(const FioOption& o, JobState& job) const {
    // "4k" or per direction "4k,8k[,16k]": one size for all is modelled.
    std::string first = o.value.substr(0, o.value.find(','));
    const uint64_t bs = size_of(o, first);
    if (bs == 0) fail(o, "must be above 0");
    for (size_t at = o.value.find(','); at != std::string::npos; at = o.value.find(',', at + 1)) {
      const std::string next = o.value.substr(at + 1, o.value.find(',', at + 1) - at - 1);
      if (!next.empty() && size_of(o, next) != bs) {
        fail(o, "a different size per direction is not modelled");
      }
    }
    job.bs = bs;
    job.bs_range.reset();
    job.bs_split.clear();
  }
  // "4k/10:64k/50:32k/": sizes with their percentages; those without share what is left evenly.
  // One list for every direction (a comma would start the writes' list).
  void set_bs_split(const FioOption& o, JobState& job) const {
    if (o.value.find(',') != std::string::npos) {
      fail(o, "a different split per direction is not modelled");
    }
    std::vector<std::pair<uint64_t, double>> split;
    double given = 0.0;
    size_t unset = 0;
    for (size_t from = 0; from <= o.value.size();) {
      size_t to = o.value.find(':', from);
      if (to == std::string::npos) to = o.value.size();
      const std::string entry = o.value.substr(from, to - from);
      const size_t slash = entry.find('/');
      const uint64_t bytes = size_of(o, entry.substr(0, slash));
      const std::string percent = slash == std::string::npos ? "" : entry.substr(slash + 1);
      const double share = percent.empty() ? -1.0 : static_cast<double>(whole(o, percent));
      if (share > 100.0) fail(o, "a percentage must be 0 to 100");
      if (share < 0.0) ++unset;
      given += std::max(share, 0.0);
      split.push_back({bytes, share});
      from = to + 1;
    }
    if (given > 100.0) fail(o, "the percentages add up to more than 100");
    for (auto& entry : split) {
      if (entry.second < 0.0) entry.second = (100.0 - given) / static_cast<double>(unset);
    }
    split.erase(std::remove_if(split.begin(), split.end(),
                               [](const auto& entry) { return entry.second <= 0.0; }),
                split.end());
    if (split.empty()) fail(o, "no size has a share above 0");
    job.bs_split = split;
    job.bs_range.reset();
  }
  // "N", or per direction "N,N": one rate for every direction is modelled.
  void set_rate(const FioOption& o, JobState& job) const {
    const std::string first = o.value.substr(0, o.value.find(','));
    const uint64_t rate = whole(o, first);
    for (size_t at = o.value.find(','); at != std::string::npos; at = o.value.find(',', at + 1)) {
      const std::string next = o.value.substr(at + 1, o.value.find(',', at + 1) - at - 1);
      if (!next.empty() && whole(o, next) != rate) {
        fail(o, "a different rate per direction is not modelled");
      }
    }
    if (rate == 0) fail(o, "must be at least 1");
    job.rate_iops = static_cast<double>(rate);
  }
  // random, zipf:THETA, pareto:H, normal:DEVIATION (per cent of the region).
  void set_distribution(const FioOption& o, JobState& job) const {
    const size_t colon = o.value.find(':');
    const std::string law = o.value.substr(0, colon);
    if (law == "random") {
      if (colon != std::string::npos) fail(o, "`random` takes no parameter");
      job.distribution = "uniform";
      return;
    }
    if (law != "zipf" && law != "pareto" && law != "normal") {
      fail(o, "not a modelled distribution (random, zipf:THETA, pareto:H, normal:DEVIATION)");
    }
    const std::string parameter = colon == std::string::npos ? "" : o.value.substr(colon + 1);
    if (parameter.empty() || parameter.find(':') != std::string::npos) {
      fail(o, "needs one parameter (a centre or a zone is not modelled)");
    }
    char* end = nullptr;
    const double skew = std::strtod(parameter.c_str(), &end);
    if (end != parameter.c_str() + parameter.size()) fail(o, "the parameter is not a number");
    if (law == "zipf" && !(skew > 0.0 && skew != 1.0 && skew <= 100.0)) {
      fail(o, "zipf's theta must be in (0, 100], not 1");
    }
    if (law == "pareto" && !(skew > 0.0 && skew < 1.0)) fail(o, "pareto's h must be in (0, 1)");
    if (law == "normal" && !(skew > 0.0 && skew <= 100.0)) {
      fail(o, "normal's deviation must be in (0, 100] per cent");
    }
    job.distribution = law;
    job.skew = skew;
  }
  void set_bs_range(const FioOption& o, JobState& job) const {
    const size_t dash = o.value.find('-');
    if (dash == std::string::npos || o.value.find(',') != std::string::npos) {
      fail(o, "must be MIN-MAX (one range for every direction)");
    }
    const uint64_t low = size_of(o, o.value.substr(0, dash));
    const uint64_t high = size_of(o, o.value.substr(dash + 1));
    if (low == 0 || high < low) fail(o, "MIN must be above 0 and at most MAX");
    job.bs_range = {low, high};
    job.bs_split.clear();
  }
  double percent(const FioOption& o) const {
    const uint64_t value = whole(o, o.value);
    if (value > 100) fail(o, "must be 0 to 100");
    return static_cast<double>(value);
  }
  uint64_t at_least_one(const FioOption& o) const {
    const uint64_t value = whole(o, o.value);
    if (value == 0) fail(o, "must be at least 1");
    return value;
  }

  // The job's settings as stream `stream`; `first_copy`: the first of its numjobs copies (a note
  // is given once per job).
  config::WorkloadConfig workload_of(const JobState& job, uint64_t stream, bool first_copy) {
    config::WorkloadConfig w;
    w.kind = "synthetic";
    w.mode = "closed";
    const bool random = job.mode.rfind("rand", 0) == 0;
    const std::string kind = random ? job.mode.substr(4) : job.mode;
    w.pattern = random ? "random" : "sequential";
    w.read_ratio = kind == "read" ? 1.0 : kind == "rw" ? job.read_mix / 100.0 : 0.0;
    w.trim_ratio = kind == "trim" ? 1.0 : 0.0;
    uint64_t min_bs = job.bs_range ? job.bs_range->first : job.bs;
    uint64_t max_bs = job.bs_range ? job.bs_range->second : job.bs;
    w.size_distribution = job.bs_range ? "uniform" : "fixed";
    if (!job.bs_split.empty()) {
      w.size_distribution = "split";
      min_bs = max_bs = job.bs_split.front().first;
      for (const auto& [bytes, share] : job.bs_split) {
        min_bs = std::min(min_bs, bytes);
        max_bs = std::max(max_bs, bytes);
        if (bytes > UINT32_MAX) fail_job(job, "a bssplit size above 4 GiB is not modelled");
        w.split_bytes.push_back(static_cast<uint32_t>(bytes));
        w.split_weights.push_back(share);
      }
      for (const auto& entry : job.bs_split) {
        if (entry.first % min_bs != 0) {
          fail_job(job,
                   "bssplit sizes must be multiples of the smallest (the alignment, as "
                   "fio's blockalign)");
        }
      }
    }
    w.request_bytes = min_bs;
    w.request_bytes_max = job.bs_range ? max_bs : 0;
    w.align_bytes = min_bs;
    w.address_distribution = random ? job.distribution : "uniform";
    w.address_skew = job.skew;
    const uint64_t sector = m_device.sector_bytes;
    if (min_bs % sector != 0 || max_bs % sector != 0) {
      fail_job(job, "block sizes must be whole sectors (" + std::to_string(sector) + " bytes)");
    }
    if (job.offset % sector != 0) fail_job(job, "offset must be a whole number of sectors");
    if (job.offset >= m_device.logical_bytes) {
      fail_job(job, "offset " + std::to_string(job.offset) + " is past the device's " +
                        std::to_string(m_device.logical_bytes) + " bytes");
    }
    const uint64_t size = job.size.value_or(m_device.logical_bytes - job.offset);
    if (job.offset + size > m_device.logical_bytes) {
      fail_job(job, "offset + size (" + std::to_string(job.offset + size) +
                        " bytes) is past the device's " + std::to_string(m_device.logical_bytes) +
                        " bytes");
    }
    if (size < max_bs) fail_job(job, "size is smaller than the largest block size");
    w.address_start_bytes = job.offset;
    w.address_span_bytes = size;
    w.requests = job.number_ios;
    w.duration_ms = job.runtime_ms;
    if (job.time_based && job.runtime_ms == 0) fail_job(job, "time_based needs a runtime");
    w.io_bytes = job.time_based ? 0 : job.io_size.value_or(size);
    w.queue_depth = static_cast<uint32_t>(job.iodepth);
    if (m_device.max_queue_depth != 0 && job.iodepth > m_device.max_queue_depth) {
      fail_job(job, "iodepth " + std::to_string(job.iodepth) + " is above the platform's " +
                        "host.max_queue_depth (" + std::to_string(m_device.max_queue_depth) + ")");
    }
    w.flush_every_writes = job.sync_every;
    w.sync_call = "flush";  // fsync and fdatasync on a block device send a flush
    w.seed = job.seed + stream;
    // fio's random map holds blocks of one size; a skewed law draws with repeats by design.
    const bool one_size = !job.bs_range && job.bs_split.empty();
    w.random_map = random && job.random_map && one_size && job.distribution == "uniform";
    if (random && job.random_map && !one_size && job.distribution == "uniform" && first_copy) {
      m_notes.push_back(m_file.path + ":" + std::to_string(job.line) + ": job `" + job.name +
                        "`: with several block sizes, positions are drawn independently (as with "
                        "norandommap): the random map is modelled for one block size");
    }
    return w;
  }

  const FioJobFile& m_file;
  const FioDevice& m_device;
  std::map<std::string, Handler> m_handlers;
  std::vector<std::string> m_notes;
};

}  // namespace

FioJobs translate_fio_jobs(const FioJobFile& file, const FioDevice& device) {
  return Translator(file, device).run();
}

}  // namespace ssd::workload
