// The test-only toy scheme (tests/ftl/toy/) on the whole platform: registered from its folder, it
// is selected by name, its key reaches it through --set, and its figure lands in the report.
#include <gtest/gtest.h>

#include "tests/ftl/toy/toy_scheme.h"
#include "tests/integration/run_support.h"

namespace ssd::testing {
namespace {

TEST(ToySchemeRun, RunsOnThePlatformWithItsKeyAndFigure) {
  register_toy_scheme();
  const report::RunReport report =
      run_platform("platforms/default.toml", {"ftl.scheme=toy", "ftl.toy.probes_per_lookup=2"});
  expect_clean_run(report);
  EXPECT_EQ(report.scheme, "toy");
  ASSERT_EQ(report.mapping_figures.size(), 1u);
  EXPECT_EQ(report.mapping_figures[0].name, "toy_lookups");
  // Two probes per unit looked up, every one of them in the timed run.
  EXPECT_EQ(report.controller.hash_probes, 2 * uint64_t(report.mapping_figures[0].value));
  EXPECT_GT(report.controller.hash_probes, 0u);
}

}  // namespace
}  // namespace ssd::testing
