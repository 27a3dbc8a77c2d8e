// Multi-plane operations (nand.multiplane) on a whole platform: every scheme on a full device of
// two planes per die with GC (or merges) running and host writes queued on the dies, the
// integrity oracle clean and pages joined into multi-plane operations (at most one per plane).
// One run per test (one SystemC elaboration per process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/run_support.h"

namespace ssd {
namespace {

report::RunReport run_on_two_planes(const std::string& scheme, bool multiplane) {
  std::vector<std::string> sets = {
      "ftl.scheme=" + scheme,
      std::string("nand.multiplane=") + (multiplane ? "true" : "false"),
      "nand.planes_per_die=2",
      "nand.blocks_per_plane=64",
      "ftl.over_provisioning=0.2",
      "precondition.fill_ratio=1.0",
      "precondition.overwrite_ratio=0.5",
      "workload.read_ratio=0.3",
      "workload.queue_depth=64",
      "workload.requests=3000"};
  // The page-level schemes place each page on a plane; the block-level ones by logical block.
  if (scheme != "block" && scheme != "nftl" && scheme != "fast") {
    sets.push_back("ftl.placement=round_robin");
  }
  return testing::run_platform("platforms/default.toml", sets);
}

uint64_t joined(const report::RunReport& r) {
  return r.nand_joined_reads + r.nand_joined_spare_reads + r.nand_joined_programs +
         r.nand_joined_erases;
}

class MultiplaneRun : public ::testing::TestWithParam<std::string> {};

TEST_P(MultiplaneRun, JoinsPagesAndPassesTheOracle) {
  const report::RunReport with = run_on_two_planes(GetParam(), true);
  testing::expect_clean_run(with);
  EXPECT_GT(joined(with), 0u);
  EXPECT_LE(with.nand_joined_programs, with.nand_programs / 2);  // two planes: pairs at most
  EXPECT_LE(with.nand_joined_reads, with.nand_reads / 2);
  EXPECT_LE(with.nand_joined_erases, with.nand_erases / 2);
}

std::string name_of(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(Schemes, MultiplaneRun,
                         ::testing::Values("page", "dftl", "vet", "emt", "block", "nftl", "fast"),
                         name_of);

}  // namespace
}  // namespace ssd
