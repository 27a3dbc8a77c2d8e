// The steady-state policies on a whole platform: every combination of ftl.placement, ftl.gc_mode,
// nand.die_scheduling, nand.copyback, nand.multiplane and controller.write_waits_for_gc, on a full
// device of four planes per die with GC running all the time, for the page-level schemes that share
// the page store (page mapping, DFTL, VET): the integrity oracle stays clean. Each combination is
// its own test (and so its own process: SystemC elaborates once per process).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tests/integration/run_support.h"

namespace ssd {
namespace {

using Policies = std::tuple<std::string, std::string, std::string, std::string, bool, bool, bool>;

class GcPolicyRun : public ::testing::TestWithParam<Policies> {};

TEST_P(GcPolicyRun, AFullMultiPlaneDevicePassesTheOracle) {
  const auto& [scheme, placement, gc_mode, scheduling, copyback, multiplane, waits] = GetParam();
  const auto report = testing::run_platform(
      "platforms/default.toml",
      {"ftl.scheme=" + scheme, "ftl.placement=" + placement, "ftl.gc_mode=" + gc_mode,
       "nand.die_scheduling=" + scheduling,
       std::string("nand.copyback=") + (copyback ? "true" : "false"),
       std::string("nand.multiplane=") + (multiplane ? "true" : "false"),
       std::string("controller.write_waits_for_gc=") + (waits ? "true" : "false"),
       "nand.planes_per_die=4", "nand.blocks_per_plane=64", "ftl.over_provisioning=0.2",
       "precondition.fill_ratio=1.0", "precondition.overwrite_ratio=0.5", "workload.read_ratio=0.3",
       "workload.trim_ratio=0.05", "workload.requests=4000"});
  testing::expect_clean_run(report);
  EXPECT_GT(report.gc_invocations, 0u);
  EXPECT_EQ(report.nand_copybacks > 0, copyback);
  const uint64_t joined = report.nand_joined_reads + report.nand_joined_spare_reads +
                          report.nand_joined_programs + report.nand_joined_erases;
  if (!multiplane) {
    EXPECT_EQ(joined, 0u);
  }
}

std::string name_of(const ::testing::TestParamInfo<Policies>& info) {
  const auto& [scheme, placement, gc_mode, scheduling, copyback, multiplane, waits] = info.param;
  return scheme + "_" + placement + "_" + gc_mode + "_" + scheduling +
         (copyback ? "_copyback" : "") + (multiplane ? "_multiplane" : "") +
         (waits ? "" : "_gc_behind_writes");
}

INSTANTIATE_TEST_SUITE_P(Page, GcPolicyRun,
                         ::testing::Combine(::testing::Values("page"),
                                            ::testing::Values("round_robin", "most_free_plane",
                                                              "least_busy_die", "static"),
                                            ::testing::Values("incremental", "blocking"),
                                            ::testing::Values("read_priority", "fcfs"),
                                            ::testing::Bool(), ::testing::Bool(),
                                            ::testing::Bool()),
                         name_of);
INSTANTIATE_TEST_SUITE_P(
    OtherSchemes, GcPolicyRun,
    ::testing::Combine(::testing::Values("dftl", "vet"),
                       ::testing::Values("most_free_plane", "least_busy_die", "static"),
                       ::testing::Values("incremental", "blocking"),
                       ::testing::Values("read_priority"), ::testing::Values(false),
                       ::testing::Bool(), ::testing::Bool()),
    name_of);

}  // namespace
}  // namespace ssd
