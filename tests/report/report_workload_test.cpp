// The trace workload block: present in report.json and the summary for trace replays only, every
// field at its documented path; synthetic runs keep their reports unchanged (no "workload").
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {
namespace {

RunReport trace_report() {
  RunReport r;
  r.scheme = "page";
  TraceWorkloadReport& w = r.trace.emplace();
  w.file = "traces/t.csv";
  w.format = "msr";
  w.mode = "open";
  w.speed = 2.5;
  w.lines = 1234;
  w.records = 1200;
  w.skipped_lines = 7;
  w.first_skipped = {"traces/t.csv:3: Size is negative (-1): `x`", "traces/t.csv:9: y: `z`"};
  w.devices = 3;
  w.device_selection = "all";
  w.fit = "scale";
  w.fit_applied = "scale";
  w.scale_factor = 0.25;
  return r;
}

TEST(ReportWorkload, SyntheticRunsHaveNoWorkloadBlock) {
  RunReport r;
  EXPECT_FALSE(to_json(r).contains("workload"));
  EXPECT_EQ(summary_text(r).find("trace:"), std::string::npos);
}

TEST(ReportWorkload, TraceFieldsAtTheirPaths) {
  const nlohmann::json j = to_json(trace_report());
  const nlohmann::json& w = j.at("workload");
  EXPECT_EQ(w.at("kind"), "trace");
  EXPECT_EQ(w.at("file"), "traces/t.csv");
  EXPECT_EQ(w.at("format"), "msr");
  EXPECT_EQ(w.at("mode"), "open");
  EXPECT_EQ(w.at("speed"), 2.5);
  EXPECT_EQ(w.at("lines"), 1234);
  EXPECT_EQ(w.at("records"), 1200);
  EXPECT_EQ(w.at("skipped_lines"), 7);
  EXPECT_EQ(w.at("first_skipped_lines").size(), 2u);
  EXPECT_EQ(w.at("devices"), 3);
  EXPECT_EQ(w.at("device"), "all");
  EXPECT_EQ(w.at("fit"), "scale");
  EXPECT_EQ(w.at("fit_applied"), "scale");
  EXPECT_EQ(w.at("scale_factor"), 0.25);
  EXPECT_FALSE(w.contains("blkparse_action"));
}

TEST(ReportWorkload, BlkparseActionOnlyForBlkparse) {
  RunReport r = trace_report();
  r.trace->format = "blkparse";
  r.trace->blkparse_action = "C";
  EXPECT_EQ(to_json(r).at("workload").at("blkparse_action"), "C");
}

TEST(ReportWorkload, SummarySaysFitAndSkippedLines) {
  const std::string text = summary_text(trace_report());
  EXPECT_NE(text.find("trace: traces/t.csv (msr), 1234 lines, 3 devices (device all), fit scale -> "
                      "scale (factor 0.25), open loop at 2.5x"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("7 bad lines skipped"), std::string::npos) << text;
  EXPECT_NE(text.find("traces/t.csv:3: Size is negative"), std::string::npos) << text;
}

}  // namespace
}  // namespace ssd::report
