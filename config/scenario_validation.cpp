// Scenario rules that relate keys to each other and to the platform: sizes in whole sectors,
// an address range inside the logical capacity, a journal region that leaves room for data, a
// way for the run to end, a legal queue depth, a timeline window with its end after its start.
#include <algorithm>
#include <sstream>

#include "config/capacity.h"
#include "config/config_loader.h"
#include "config/config_messages.h"
#include "config/time_limit.h"
#include "config/validation.h"

namespace ssd::config {

namespace {

std::string got(uint64_t value) { return " (got " + std::to_string(value) + ")"; }

std::optional<KeyProblem> check_sizes(const WorkloadConfig& w, uint32_t sector) {
  if (sector == 0) return std::nullopt;  // an unvalidated platform; validate_platform reports it
  const std::string whole_sectors =
      "must be a multiple of nand.sector_bytes (" + std::to_string(sector) + ")";
  if (w.request_bytes % sector != 0) {
    return KeyProblem{"workload.request_bytes", whole_sectors + got(w.request_bytes)};
  }
  if (w.request_bytes_max != 0 && w.request_bytes_max < w.request_bytes) {
    return KeyProblem{"workload.request_bytes_max", "must be 0 or >= workload.request_bytes (" +
                                                        std::to_string(w.request_bytes) + ")" +
                                                        got(w.request_bytes_max)};
  }
  if (w.request_bytes_max % sector != 0) {
    return KeyProblem{"workload.request_bytes_max", whole_sectors + got(w.request_bytes_max)};
  }
  if (w.align_bytes % sector != 0) {
    return KeyProblem{"workload.align_bytes", whole_sectors + got(w.align_bytes)};
  }
  if (w.address_start_bytes % sector != 0) {
    return KeyProblem{"workload.address_start_bytes", whole_sectors + got(w.address_start_bytes)};
  }
  if (w.address_span_bytes % sector != 0) {
    return KeyProblem{"workload.address_span_bytes", whole_sectors + got(w.address_span_bytes)};
  }
  return std::nullopt;
}

// size_distribution "split": as many sizes as shares, each size whole sectors and grains of
// align_bytes, each share above 0.
std::optional<KeyProblem> check_split(const WorkloadConfig& w, uint32_t sector) {
  if (w.size_distribution != "split") return std::nullopt;
  if (w.split_bytes.empty() || w.split_bytes.size() != w.split_weights.size()) {
    return KeyProblem{"workload.split_bytes",
                      "needs one size per share in workload.split_weights, at least one (got " +
                          std::to_string(w.split_bytes.size()) + " sizes and " +
                          std::to_string(w.split_weights.size()) + " shares)"};
  }
  for (const uint32_t bytes : w.split_bytes) {
    if (bytes == 0 || (sector != 0 && bytes % sector != 0) || bytes % w.align_bytes != 0) {
      return KeyProblem{"workload.split_bytes",
                        "each size must be above 0 and a multiple of nand.sector_bytes and of "
                        "workload.align_bytes (" +
                            std::to_string(w.align_bytes) + ")" + got(bytes)};
    }
  }
  for (const double share : w.split_weights) {
    if (!(share > 0.0)) return KeyProblem{"workload.split_weights", "each share must be > 0"};
  }
  return std::nullopt;
}

// A skewed address distribution: random addresses over one span, its parameter in range.
std::optional<KeyProblem> check_address_distribution(const WorkloadConfig& w) {
  const std::string& law = w.address_distribution;
  if (law == "uniform") return std::nullopt;
  if (w.kind != "synthetic" || w.pattern != "random" || w.hot_span_ratio > 0 || w.random_map) {
    return KeyProblem{"workload.address_distribution",
                      "'" + law +
                          "' needs a synthetic random pattern without a hot span or a "
                          "random map"};
  }
  const double skew = w.address_skew;
  if (law == "zipf" && !(skew > 0.0 && skew != 1.0)) {
    return KeyProblem{"workload.address_skew", "zipf's theta must be > 0 and not 1"};
  }
  if (law == "pareto" && !(skew > 0.0 && skew < 1.0)) {
    return KeyProblem{"workload.address_skew", "pareto's h must be in (0, 1)"};
  }
  if (law == "normal" && !(skew > 0.0)) {
    return KeyProblem{"workload.address_skew",
                      "normal's deviation (per cent of the span) must be > 0"};
  }
  return std::nullopt;
}

std::optional<KeyProblem> check_address_range(const WorkloadConfig& w, uint64_t capacity) {
  const std::string device = "the logical capacity (" + std::to_string(capacity) + " bytes)";
  if (w.address_start_bytes >= capacity) {
    return KeyProblem{"workload.address_start_bytes",
                      "must be below " + device + got(w.address_start_bytes)};
  }
  const uint64_t room = capacity - w.address_start_bytes;
  if (w.address_span_bytes > room) {
    return KeyProblem{
        "workload.address_span_bytes",
        "address_start_bytes + address_span_bytes runs past " + device + got(w.address_span_bytes)};
  }
  const uint64_t span = w.address_span_bytes == 0 ? room : w.address_span_bytes;
  const uint64_t largest = w.largest_request_bytes();
  if (largest > span) {
    return KeyProblem{w.size_distribution == "split"          ? "workload.split_bytes"
                      : w.request_bytes_max > w.request_bytes ? "workload.request_bytes_max"
                                                              : "workload.request_bytes",
                      "a request of " + std::to_string(largest) +
                          " bytes does not fit in the address span of " + std::to_string(span) +
                          " bytes"};
  }
  return std::nullopt;
}

// fsync / fdatasync (a synthetic workload): a sync every N writes, a journal write that is whole
// sectors and fits its region, and a region that leaves room for data. Needs check_sizes and
// check_address_range passed (whole-sector sizes, a span inside the device).
std::optional<KeyProblem> check_sync_call(const WorkloadConfig& w, uint32_t sector,
                                          uint64_t capacity) {
  if (w.sync_call == "flush" || sector == 0) return std::nullopt;
  const std::string with = " when workload.sync_call is '" + w.sync_call + "'";
  if (w.flush_every_writes == 0) {
    return KeyProblem{"workload.sync_call",
                      "'" + w.sync_call +
                          "' needs workload.flush_every_writes > 0 (the writes between two "
                          "sync calls); it is 0"};
  }
  if (w.journal_write_bytes == 0) {
    return KeyProblem{"workload.journal_write_bytes", "must be >= 1" + with + got(0)};
  }
  if (w.journal_write_bytes % sector != 0) {
    return KeyProblem{"workload.journal_write_bytes", "must be a multiple of nand.sector_bytes (" +
                                                          std::to_string(sector) + ")" +
                                                          got(w.journal_write_bytes)};
  }
  if (w.journal_bytes == 0) {
    return KeyProblem{"workload.journal_bytes", "must be >= 1" + with + got(0)};
  }
  if (w.journal_bytes % w.align_bytes != 0) {
    return KeyProblem{"workload.journal_bytes", "must be a multiple of workload.align_bytes (" +
                                                    std::to_string(w.align_bytes) + ")" +
                                                    got(w.journal_bytes)};
  }
  if (w.journal_write_bytes > w.journal_bytes) {
    return KeyProblem{"workload.journal_write_bytes", "must be <= workload.journal_bytes (" +
                                                          std::to_string(w.journal_bytes) + ")" +
                                                          got(w.journal_write_bytes)};
  }
  const uint64_t span =
      w.address_span_bytes == 0 ? capacity - w.address_start_bytes : w.address_span_bytes;
  const uint64_t largest = w.largest_request_bytes();
  if (w.journal_bytes > span || span - w.journal_bytes < largest) {
    return KeyProblem{"workload.journal_bytes",
                      "must leave at least one request (" + std::to_string(largest) +
                          " bytes) of the address span (" + std::to_string(span) +
                          " bytes) for data" + with + got(w.journal_bytes)};
  }
  return std::nullopt;
}

// A hot part needs random addresses, must leave a cold part, and each part must hold the largest
// request.
std::optional<KeyProblem> check_hot_span(const WorkloadConfig& w, uint64_t capacity) {
  if (w.hot_span_ratio == 0.0) {
    if (w.hot_access_ratio != 0.0) {
      return KeyProblem{"workload.hot_access_ratio",
                        "needs workload.hot_span_ratio > 0 (no part of the span is hot)"};
    }
    return std::nullopt;
  }
  if (w.kind != "synthetic" || w.pattern != "random") {
    return KeyProblem{"workload.hot_span_ratio",
                      "applies to synthetic random addresses only (workload.kind = "
                      "\"synthetic\", workload.pattern = \"random\")"};
  }
  const uint64_t span =
      w.address_span_bytes == 0 ? capacity - w.address_start_bytes : w.address_span_bytes;
  const uint64_t journal = w.sync_call == "flush" ? 0 : w.journal_bytes;  // as the generator
  const uint64_t data = span > journal ? span - journal : 0;
  const auto hot = static_cast<uint64_t>(static_cast<double>(data) * w.hot_span_ratio);
  const uint64_t largest = w.largest_request_bytes();
  if (w.hot_span_ratio >= 1.0 || hot < largest || data - hot < largest) {
    return KeyProblem{"workload.hot_span_ratio",
                      "must leave a hot and a cold part of the span (" + std::to_string(data) +
                          " bytes) that each hold the largest request (" + std::to_string(largest) +
                          " bytes)"};
  }
  return std::nullopt;
}

}  // namespace

// Random cuts fall before chosen requests, so the request count bounds them; one cut and the
// random ones are two ways to say where cuts go, not both.
std::optional<KeyProblem> check_power(const ScenarioConfig& scenario) {
  const PowerConfig& power = scenario.power;
  if (power.cut_at_us * 1e6 >= double(kLatestTimePs)) {
    return KeyProblem{
        "power.cut_at_us",
        std::string("puts the cut past the latest simulated time (") + kLatestTimeText + ")"};
  }
  if (power.cut_at_us > 0 && power.cuts > 0) {
    return KeyProblem{"power.cuts", "and power.cut_at_us are both set; choose one"};
  }
  if (power.on() && !scenario.run.oracle) {
    return KeyProblem{"run.oracle",
                      "must be true when the scenario cuts power (power.*): the "
                      "check after each recovery compares every unit with what "
                      "the host wrote"};
  }
  if (power.cuts == 0) return std::nullopt;
  const uint64_t requests = scenario.workload.requests;
  if (requests == 0) {
    return KeyProblem{"power.cuts",
                      "needs workload.requests > 0 (the cuts fall before requests "
                      "chosen at random among them)"};
  }
  if (power.cuts > requests) {
    return KeyProblem{"power.cuts", "must be <= workload.requests (" + std::to_string(requests) +
                                        ")" + got(power.cuts)};
  }
  return std::nullopt;
}

// A window is a span of time: its end after its start. Window keys without a file would be
// silently ignored, so they are refused.
std::optional<KeyProblem> check_timeline(const RunConfig& run) {
  const bool windowed = run.timeline_from_us > 0 || run.timeline_to_us > 0;
  if (run.timeline.empty() && windowed) {
    return KeyProblem{run.timeline_from_us > 0 ? "run.timeline_from_us" : "run.timeline_to_us",
                      "sets a timeline window but run.timeline names no file"};
  }
  if (run.timeline_to_us > 0 && run.timeline_to_us <= run.timeline_from_us) {
    const auto us = [](double value) {
      std::ostringstream text;
      text << value;
      return text.str();
    };
    return KeyProblem{"run.timeline_to_us", "must be after run.timeline_from_us (" +
                                                us(run.timeline_from_us) + " us; got " +
                                                us(run.timeline_to_us) + ")"};
  }
  return std::nullopt;
}

std::optional<KeyProblem> find_scenario_problem(const ScenarioConfig& scenario,
                                                const PlatformConfig& platform) {
  ScenarioConfig copy = scenario;  // the key list binds mutable fields; we only read them
  if (auto problem = check_key_bounds(scenario_keys(copy))) return problem;
  const WorkloadConfig& w = scenario.workload;
  // Tolerance for ratios written in decimal, such as 0.7 + 0.3.
  if (w.read_ratio + w.trim_ratio > 1.0 + 1e-9) {
    return KeyProblem{"workload.trim_ratio",
                      "workload.read_ratio + workload.trim_ratio must be <= 1"};
  }
  if (auto problem = check_sizes(w, platform.nand.sector_bytes)) return problem;
  if (auto problem = check_split(w, platform.nand.sector_bytes)) return problem;
  if (auto problem = check_address_distribution(w)) return problem;
  if (auto problem = check_address_range(w, logical_capacity_bytes(platform))) return problem;
  if (auto problem = check_hot_span(w, logical_capacity_bytes(platform))) return problem;
  if (w.kind == "synthetic") {
    if (auto problem =
            check_sync_call(w, platform.nand.sector_bytes, logical_capacity_bytes(platform))) {
      return problem;
    }
  }
  if (w.kind == "trace") {
    // A trace's writes are the trace's: no journal to commit, so a sync call is a plain flush.
    if (w.sync_call != "flush") {
      return KeyProblem{
          "workload.sync_call",
          "'" + w.sync_call +
              "' models a file system's journal commit, for synthetic workloads "
              "only; a trace replay takes 'flush' (with workload.flush_every_writes)"};
    }
    if (w.trace_file.empty()) {
      return KeyProblem{"workload.trace_file",
                        "must name a trace file when workload.kind is 'trace'"};
    }
    if (w.device != "all" &&
        (w.device.empty() || w.device.find_first_not_of("0123456789") != std::string::npos ||
         w.device.size() > 18)) {
      return KeyProblem{"workload.device",
                        "must be 'all' or a device number (got '" + w.device + "')"};
    }
  }
  if (w.kind == "synthetic" && w.requests == 0 && w.duration_ms == 0 && w.io_bytes == 0) {
    return KeyProblem{"workload.requests",
                      "workload.requests, workload.duration_ms and workload.io_bytes are all 0; "
                      "set at least one so the run ends"};
  }
  if (w.random_map &&
      (w.pattern != "random" || w.size_distribution != "fixed" || w.hot_span_ratio > 0)) {
    return KeyProblem{"workload.random_map",
                      "needs workload.pattern 'random', size_distribution 'fixed' and no hot "
                      "span: the map holds positions of one request size over the whole span"};
  }
  // A warm-up pass is untimed, so only a request count or the trace's end can end it.
  if (w.passes > 1 && w.duration_ms > 0) {
    return KeyProblem{"workload.passes",
                      "> 1 needs workload.duration_ms = 0: a warm-up pass runs untimed, so it "
                      "cannot stop at a simulated time"};
  }
  if (w.queue_depth > platform.host.max_queue_depth) {
    return KeyProblem{"workload.queue_depth", "must be <= host.max_queue_depth (" +
                                                  std::to_string(platform.host.max_queue_depth) +
                                                  ")" + got(w.queue_depth)};
  }
  if (w.mode == "open" && !(w.interarrival_us > 0)) {
    return KeyProblem{"workload.interarrival_us", "must be > 0 when workload.mode is 'open'"};
  }
  // Open-loop arrivals must stay before the latest simulated time (a Poisson tail past it stops
  // the run there; docs/errors.md).
  if (w.kind == "synthetic" && w.mode == "open" &&
      double(w.requests) * w.interarrival_us * 1e6 >= double(kLatestTimePs)) {
    return KeyProblem{"workload.interarrival_us",
                      "x workload.requests (" + std::to_string(w.requests) +
                          ") puts the last arrival past the latest simulated time (" +
                          kLatestTimeText + ")"};
  }
  if (auto problem = check_power(scenario)) return problem;
  if (auto problem = check_timeline(scenario.run)) return problem;
  return std::nullopt;
}

void validate_scenario(const ScenarioConfig& scenario, const PlatformConfig& platform,
                       const std::string& source) {
  if (!scenario.streams.empty() && scenario.power.on()) {
    throw_error(Origin{source, 0}, scenario.power.cuts > 0 ? "power.cuts" : "power.cut_at_us",
                "power cuts with fio jobs are not modelled (one workload stream only)");
  }
  if (auto problem = find_scenario_problem(scenario, platform)) {
    throw_error(Origin{source, 0}, problem->key, problem->reason);
  }
  // Each stream as if it were the workload: its problem named with its job.
  for (const WorkloadStream& stream : scenario.streams) {
    ScenarioConfig alone = scenario;
    alone.streams.clear();
    alone.workload = stream.workload;
    if (auto problem = find_scenario_problem(alone, platform)) {
      throw_error(Origin{source, 0}, problem->key,
                  problem->reason + " (fio job `" + stream.name + "`)");
    }
  }
}

}  // namespace ssd::config
