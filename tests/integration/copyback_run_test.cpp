// Copy-back (nand.copyback) on a whole platform: every scheme on a full device with GC (or
// merges) running, the integrity oracle clean, and GC's whole-page moves done by copy-back.
// One scheme per test (one SystemC elaboration per process, so one run per test).
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/run_support.h"

namespace ssd {
namespace {

class CopybackRun : public ::testing::TestWithParam<std::string> {};

report::RunReport run_with_copyback(const std::string& scheme) {
  return testing::run_platform(
      "platforms/default.toml",
      {"ftl.scheme=" + scheme, "nand.copyback=true", "nand.planes_per_die=2",
       "nand.blocks_per_plane=64", "ftl.over_provisioning=0.2", "precondition.fill_ratio=1.0",
       "precondition.overwrite_ratio=0.5", "workload.read_ratio=0.3", "workload.requests=3000"});
}

TEST_P(CopybackRun, MovesWholePagesInsideTheDieAndPassesTheOracle) {
  const report::RunReport with = run_with_copyback(GetParam());
  testing::expect_clean_run(with);
  ASSERT_GT(with.gc_pages_copied, 0u);
  EXPECT_GT(with.nand_copybacks, 0u);
  EXPECT_LE(with.nand_copybacks, with.gc_pages_copied);  // a page holds one unit or more
}

std::string name_of(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(Schemes, CopybackRun,
                         ::testing::Values("page", "dftl", "vet", "emt", "block", "nftl", "fast"),
                         name_of);

}  // namespace
}  // namespace ssd
