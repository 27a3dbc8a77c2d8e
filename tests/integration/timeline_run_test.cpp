// The run's timeline (run.timeline, models/timeline/timeline.h) on whole runs: valid trace-event
// JSON whose spans are what the run's counters say it did. Per die and per channel the spans
// never overlap (a die does one thing at a time), the die spans count every NAND operation by
// kind (a multi-plane span its planes), the channel spans add up to each channel's busy time and
// the die spans to each die's, the FTL CPU has a span per command adding up to its busy time,
// and the host's queue depth never passes the scenario's and ends at 0; the accelerator track
// holds the waits the firmware counted. A window keeps only what overlaps it, the event cap stops
// the trace and says so, and a power cut cuts spans short.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/integration/run_support.h"

namespace ssd::testing {
namespace {

using nlohmann::json;

constexpr int kDies = 1;  // the track groups Timeline writes (models/timeline/timeline.cpp)
constexpr int kChannels = 2;
constexpr int kController = 3;
constexpr int kHost = 4;

struct TimedRun {
  report::RunReport report;
  json trace;
};

TimedRun run_with_timeline(std::vector<std::string> overrides) {
  std::ostringstream out;
  models::PlatformRunOptions options;
  options.timeline = &out;
  overrides.push_back("cache.mode=off");  // every write reaches the flash in the run
  TimedRun run{run_platform("platforms/default.toml", overrides, options), {}};
  run.trace = json::parse(out.str());  // throws (fails the test) on invalid JSON
  return run;
}

std::vector<json> events(const json& trace, const std::string& phase, int pid) {
  std::vector<json> out;
  for (const json& event : trace.at("traceEvents")) {
    if (event.at("ph") == phase && event.at("pid") == pid) out.push_back(event);
  }
  return out;
}

// Spans by track, in time order.
std::map<int, std::vector<json>> by_track(const std::vector<json>& spans) {
  std::map<int, std::vector<json>> tracks;
  for (const json& span : spans) tracks[span.at("tid").get<int>()].push_back(span);
  for (auto& [tid, list] : tracks) {
    std::sort(list.begin(), list.end(), [](const json& a, const json& b) {
      return a.at("ts").get<double>() < b.at("ts").get<double>();
    });
  }
  return tracks;
}

// Microseconds with six decimals: sums compared to the counters' nanoseconds within rounding.
double total_us(const std::vector<json>& spans) {
  double sum = 0;
  for (const json& span : spans) sum += span.at("dur").get<double>();
  return sum;
}

void expect_no_overlap(const std::map<int, std::vector<json>>& tracks, const char* what) {
  for (const auto& [tid, spans] : tracks) {
    for (size_t i = 1; i < spans.size(); ++i) {
      const double end = spans[i - 1].at("ts").get<double>() + spans[i - 1].at("dur").get<double>();
      ASSERT_LE(end, spans[i].at("ts").get<double>() + 1e-6)
          << what << ' ' << tid << ": " << spans[i - 1].dump() << " overlaps " << spans[i].dump();
    }
  }
}

// Operations by kind, a multi-plane span counting its planes.
std::map<std::string, uint64_t> die_operations(const std::vector<json>& die_spans) {
  std::map<std::string, uint64_t> count;
  for (const json& span : die_spans) {
    const std::string name = span.at("name");
    const json& args = span.at("args");
    count[name.substr(0, name.find(" ("))] +=
        args.contains("planes") ? args.at("planes").get<uint64_t>() : 1;
  }
  return count;
}

void expect_matches_counters(const TimedRun& run, uint32_t queue_depth) {
  const report::RunReport& r = run.report;
  EXPECT_EQ(run.trace.at("otherData").at("truncated"), false);
  const std::vector<json> dies = events(run.trace, "X", kDies);
  const std::vector<json> channels = events(run.trace, "X", kChannels);
  expect_no_overlap(by_track(dies), "die");
  expect_no_overlap(by_track(channels), "channel");

  const auto ops = die_operations(dies);
  const auto count = [&](const char* kind) { return ops.count(kind) ? ops.at(kind) : 0; };
  EXPECT_EQ(count("read"), r.nand_reads);
  EXPECT_EQ(count("spare read"), r.nand_spare_reads);
  EXPECT_EQ(count("program"), r.nand_programs);
  EXPECT_EQ(count("erase"), r.nand_erases);
  EXPECT_EQ(count("copy-back"), r.nand_copybacks);

  const auto die_tracks = by_track(dies);
  ASSERT_EQ(die_tracks.size(), r.die_busy_ns.size());
  for (const auto& [die, spans] : die_tracks) {
    EXPECT_NEAR(total_us(spans) * 1000, double(r.die_busy_ns[die]), 1.0 + 1e-9 * r.die_busy_ns[die])
        << "die " << die;
  }
  const auto channel_tracks = by_track(channels);
  ASSERT_EQ(channel_tracks.size(), r.channel_busy_ns.size());
  for (const auto& [channel, spans] : channel_tracks) {
    EXPECT_NEAR(total_us(spans) * 1000, double(r.channel_busy_ns[channel]),
                1.0 + 1e-9 * r.channel_busy_ns[channel])
        << "channel " << channel;
  }

  const auto controller = by_track(events(run.trace, "X", kController));
  ASSERT_TRUE(controller.count(1));
  const std::vector<json>& cpu = controller.at(1);
  EXPECT_EQ(cpu.size(), r.reads + r.writes + r.flushes + r.trims);
  EXPECT_NEAR(total_us(cpu) * 1000, double(r.controller.busy_ns),
              1.0 + 1e-9 * r.controller.busy_ns);
  expect_no_overlap(controller, "controller track");

  const std::vector<json> depth = events(run.trace, "C", kHost);
  ASSERT_FALSE(depth.empty());
  uint64_t deepest = 0;
  for (const json& change : depth) {
    deepest = std::max(deepest, change.at("args").at("commands").get<uint64_t>());
  }
  EXPECT_EQ(deepest, queue_depth);
  EXPECT_EQ(depth.back().at("args").at("commands"), 0);
}

TEST(TimelineRun, SpansAreWhatTheCountersCountedWithGc) {
  const TimedRun run =
      run_with_timeline({"precondition.fill_ratio=1.0", "precondition.overwrite_ratio=0.5",
                         "workload.requests=3000", "workload.queue_depth=8"});
  expect_clean_run(run.report);
  EXPECT_GT(run.report.nand_erases, 0u);  // GC ran: queued GC spans are in too
  expect_matches_counters(run, 8);
}

TEST(TimelineRun, AMultiPlaneSpanCountsItsPlanes) {
  const TimedRun run = run_with_timeline({"nand.planes_per_die=2", "nand.blocks_per_plane=256",
                                          "nand.multiplane=true", "precondition.fill_ratio=1.0",
                                          "precondition.overwrite_ratio=0.5",
                                          "workload.requests=3000", "workload.queue_depth=16"});
  expect_clean_run(run.report);
  EXPECT_GT(run.report.nand_joined_programs + run.report.nand_joined_reads +
                run.report.nand_joined_erases,
            0u);
  expect_matches_counters(run, 16);
  bool wide = false;
  for (const json& span : events(run.trace, "X", kDies)) wide |= span.at("args").contains("planes");
  EXPECT_TRUE(wide);
}

TEST(TimelineRun, TheAcceleratorTrackHoldsTheWaitsTheFirmwareCounted) {
  const TimedRun run = run_with_timeline(
      {"ftl.scheme=vet", "ftl.vet.hash_backend=accelerator", "workload.requests=500"});
  expect_clean_run(run.report);
  ASSERT_TRUE(run.report.accelerator.has_value());
  const auto controller = by_track(events(run.trace, "X", kController));
  ASSERT_TRUE(controller.count(2));
  uint64_t commands = 0;
  for (const json& span : controller.at(2))
    commands += span.at("args").at("commands").get<uint64_t>();
  EXPECT_EQ(commands, run.report.accelerator->commands);
  EXPECT_NEAR(total_us(controller.at(2)) * 1000, double(run.report.accelerator->wait_ns), 1.0);
  expect_no_overlap(controller, "controller track");
}

TEST(TimelineRun, AWindowKeepsOnlyWhatOverlapsIt) {
  // The default scenario's 2000 requests take about 130 ms; the window is a slice of it. The
  // file named is main()'s business (here the trace goes to a string), but a window needs one.
  const TimedRun run =
      run_with_timeline({"workload.requests=2000", "run.timeline=unused-here",
                         "run.timeline_from_us=20000", "run.timeline_to_us=30000"});
  size_t spans = 0;
  for (const json& event : run.trace.at("traceEvents")) {
    const std::string phase = event.at("ph");
    if (phase == "M") continue;
    const double ts = event.at("ts");
    const double end = ts + event.value("dur", 0.0);
    if (phase == "C") {
      EXPECT_GE(ts, 20000.0);
      EXPECT_LT(ts, 30000.0);
    } else {
      EXPECT_GT(end, 20000.0) << event.dump();
      EXPECT_LT(ts, 30000.0) << event.dump();
    }
    spans += phase == "X";
  }
  EXPECT_GT(spans, 100u);
  // The depth at the window's start is given at its start.
  const std::vector<json> depth = events(run.trace, "C", kHost);
  ASSERT_FALSE(depth.empty());
  EXPECT_EQ(depth.front().at("ts").get<double>(), 20000.0);
}

TEST(TimelineRun, TheEventCapStopsTheTraceAndSaysSo) {
  const TimedRun run = run_with_timeline(
      {"workload.requests=2000", "run.timeline=unused-here", "run.timeline_max_events=500"});
  EXPECT_EQ(run.trace.at("otherData").at("truncated"), true);
  EXPECT_EQ(run.trace.at("otherData").at("events"), 500);
  size_t written = 0;
  for (const json& event : run.trace.at("traceEvents")) written += event.at("ph") != "M";
  EXPECT_EQ(written, 500u);
}

TEST(TimelineRun, APowerCutCutsTheSpansInFlightShort) {
  const TimedRun run = run_with_timeline(
      {"workload.requests=3000", "workload.queue_depth=16", "power.cut_at_us=50000"});
  ASSERT_TRUE(run.report.power.has_value());
  const double cut = 50000.0;
  size_t marks = 0;
  for (const json& event : run.trace.at("traceEvents")) {
    if (event.at("ph") == "i") {
      EXPECT_EQ(event.at("ts").get<double>(), cut);
      ++marks;
    }
    if (event.at("ph") != "X") continue;
    const double ts = event.at("ts");
    const double end = ts + event.at("dur").get<double>();
    EXPECT_FALSE(ts < cut && end > cut + 1e-6) << "runs through the cut: " << event.dump();
  }
  EXPECT_EQ(marks, 1u);
  // The commands in flight went with the power: the depth is 0 at the cut.
  bool zero_at_cut = false;
  for (const json& change : events(run.trace, "C", kHost)) {
    zero_at_cut |= change.at("ts").get<double>() == cut && change.at("args").at("commands") == 0;
  }
  EXPECT_TRUE(zero_at_cut);
  // The recovery's firmware work is on the CPU track after the cut.
  bool recovery = false;
  for (const json& span : events(run.trace, "X", kController)) {
    recovery |= span.at("name") == "recovery" && span.at("ts").get<double>() >= cut;
  }
  EXPECT_TRUE(recovery);
}

}  // namespace
}  // namespace ssd::testing
