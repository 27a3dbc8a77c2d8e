// Energy (energy.*, models/platform/energy.h) on whole runs: each part is its figure times what
// the run's own counters say it did (array time per operation kind, channel time, die idle
// time, bytes, cycles, the run's length), and a platform that gives no figures counts none.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tests/integration/run_support.h"

namespace ssd::testing {
namespace {

// Figures of no part in particular: each different, so a part charged at another's rate shows.
const std::vector<std::string> kFigures = {"energy.nand_vcc_v=3.3",
                                           "energy.nand_read_ma=10",
                                           "energy.nand_program_ma=20",
                                           "energy.nand_erase_ma=30",
                                           "energy.nand_io_ma=5",
                                           "energy.nand_standby_ua=40",
                                           "energy.dram_pj_per_byte=2",
                                           "energy.nvram_pj_per_byte=7",
                                           "energy.cpu_pj_per_cycle=1.5",
                                           "energy.controller_idle_mw=250",
                                           "cache.mode=off"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// platforms/default.toml: tR 50 us, spare read 20 us, tPROG 500 us, tBERS 3 ms, 4 dies.
void expect_energy(const report::RunReport& r, uint64_t copybacks) {
  const double v = 3.3, s = 1e-6;
  const double read_s = (r.nand_reads + copybacks) * 50 * s + r.nand_spare_reads * 20 * s;
  const double program_s = (r.nand_programs + copybacks) * 500 * s;
  const double erase_s = r.nand_erases * 3000 * s;
  EXPECT_NEAR(r.energy.nand_read_j, v * 10e-3 * read_s, 1e-12);
  EXPECT_NEAR(r.energy.nand_program_j, v * 20e-3 * program_s, 1e-12);
  EXPECT_NEAR(r.energy.nand_erase_j, v * 30e-3 * erase_s, 1e-12);
  const double channel_s =
      std::accumulate(r.channel_busy_ns.begin(), r.channel_busy_ns.end(), 0.0) * 1e-9;
  EXPECT_NEAR(r.energy.nand_io_j, v * 5e-3 * channel_s, 1e-9);
  const double run_s = r.simulated_ns * 1e-9;
  // A die's reservations include GC still queued at the end (docs/report.md), which can outlast
  // the run: such a die had no standby time.
  double idle_s = 0;
  for (const uint64_t busy : r.die_busy_ns) idle_s += std::max(0.0, run_s - busy * 1e-9);
  ASSERT_EQ(r.die_busy_ns.size(), 4u);
  EXPECT_NEAR(r.energy.nand_standby_j, v * 40e-6 * idle_s, 1e-9);
  EXPECT_NEAR(r.energy.dram_j, 2e-12 * double(r.dram_read_bytes + r.dram_write_bytes), 1e-15);
  EXPECT_NEAR(r.energy.nvram_j, 7e-12 * double(r.nvram_read_bytes + r.nvram_write_bytes), 1e-15);
  EXPECT_NEAR(r.energy.cpu_j, 1.5e-12 * double(r.controller.cpu_cycles), 1e-15);
  EXPECT_NEAR(r.energy.controller_idle_j, 0.25 * run_s, 1e-12);
  EXPECT_GT(r.energy.nand_erase_j, 0.0);  // the run did reach GC
  EXPECT_GT(r.energy.dram_j, 0.0);
}

// 4000 requests on the default platform, full and aged (so that GC erases), with the figures
// and `extra`.
report::RunReport aged_run(std::vector<std::string> extra) {
  return run_platform(
      "platforms/default.toml",
      with(with(kFigures, extra), {"precondition.fill_ratio=1.0",
                                   "precondition.overwrite_ratio=0.5", "workload.requests=4000"}));
}

TEST(EnergyRun, EachPartIsItsFigureTimesWhatTheRunDid) {
  const report::RunReport r = aged_run({});
  expect_clean_run(r);
  EXPECT_EQ(r.nand_copybacks, 0u);
  expect_energy(r, 0);
}

TEST(EnergyRun, ACopyBackDrawsReadAndProgramCurrent) {
  const report::RunReport r = aged_run({"nand.copyback=true"});
  expect_clean_run(r);
  EXPECT_GT(r.nand_copybacks, 0u);
  expect_energy(r, r.nand_copybacks);
}

// With the dies kept busy (least_busy_die), GC owed at the end outlasts the last completion on
// some die: its busy time passes the run's, and it has no standby time rather than a negative one.
TEST(EnergyRun, ADieBusyPastTheRunHasNoStandbyTime) {
  const report::RunReport r = aged_run({"ftl.placement=least_busy_die"});
  expect_clean_run(r);
  const uint64_t busiest = *std::max_element(r.die_busy_ns.begin(), r.die_busy_ns.end());
  ASSERT_GT(busiest, r.simulated_ns) << "the case this test is for";
  expect_energy(r, 0);
}

TEST(EnergyRun, APlatformWithoutFiguresCountsNone) {
  const report::RunReport r =
      run_platform("platforms/jasmine-openssd.toml", {"workload.requests=2000"});
  expect_clean_run(r);
  EXPECT_EQ(r.energy.total_j(), 0.0);
}

}  // namespace
}  // namespace ssd::testing
