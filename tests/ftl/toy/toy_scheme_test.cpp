// The toy scheme (toy_scheme.h) proves the scheme frame: registered from its own folder, its keys
// are read and checked by the configuration loader, its rule refuses what it cannot run, its
// figures are the ones its descriptor declares, and it passes the integrity oracle with GC
// running, like any built-in scheme.
#include "tests/ftl/toy/toy_scheme.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/scheme_registry.h"
#include "tests/config/config_test_support.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"
#include "tests/ftl/toy/toy_settings.h"

namespace ssd::testing {
namespace {

using ::testing::HasSubstr;

class ToySchemeTest : public ::testing::Test {
 protected:
  void SetUp() override { register_toy_scheme(); }
};

TEST_F(ToySchemeTest, ItsKeysAreReadIntoItsSettings) {
  const config::LoadedConfig c =
      config::test::load_config("", "", {"ftl.scheme=toy", "ftl.toy.probes_per_lookup=3"});
  EXPECT_EQ(c.platform.ftl.scheme, "toy");
  EXPECT_EQ(c.platform.ftl.settings.get<ToySettings>().probes_per_lookup, 3u);
  EXPECT_THAT(ftl::scheme_names(), ::testing::Contains("toy"));
}

TEST_F(ToySchemeTest, BadValuesAndOldNamesAreRefusedNamingTheKey) {
  using config::test::error_of;
  EXPECT_THAT(error_of([] { config::test::load_config("", "", {"ftl.toy.probes_per_lookup=0"}); }),
              HasSubstr("--set: key 'ftl.toy.probes_per_lookup': must be in [1, 16] (got 0)"));
  EXPECT_THAT(error_of([] { config::test::load_config("", "", {"ftl.toy.probes_per_lokup=2"}); }),
              HasSubstr("key 'ftl.toy.probes_per_lokup': unknown key (did you mean "
                        "'ftl.toy.probes_per_lookup'?)"));
  EXPECT_THAT(error_of([] { config::test::load_config("", "", {"ftl.toy_probes=2"}); }),
              HasSubstr("key 'ftl.toy_probes': renamed to 'ftl.toy.probes_per_lookup'"));
}

TEST_F(ToySchemeTest, ItsRuleRefusesWhatItCannotRun) {
  EXPECT_THAT(config::test::platform_error("[ftl]\nscheme = \"toy\"\nmapping_unit_bytes = 1024\n"),
              HasSubstr("FILE:3: key 'ftl.mapping_unit_bytes': the toy scheme maps whole pages"));
}

TEST_F(ToySchemeTest, ReportsTheFiguresItsDescriptorDeclares) {
  config::PlatformConfig p = tiny_platform();
  p.ftl.scheme = "toy";
  p.ftl.settings.edit<ToySettings>().probes_per_lookup = 3;
  ftl::FtlDevice device(p, ftl::FtlDeviceOptions{});
  EXPECT_EQ(run_one(device, ftl::CommandKind::kWrite, 0, 4 * device.geometry().sectors_per_unit),
            0u);
  EXPECT_EQ(device.backend().cpu_work().hash_probes, 4u * 3u);  // the setting reached the scheme
  const auto figures = device.scheme().mapping_figures();
  const auto& declared = ftl::scheme("toy").figures;
  ASSERT_EQ(figures.size(), declared.size());
  for (size_t i = 0; i < figures.size(); ++i) EXPECT_EQ(figures[i].name, declared[i].name);
  EXPECT_EQ(figures[0].value, 4.0);
}

TEST_F(ToySchemeTest, PassesTheOracleOnAFullDeviceWithGc) {
  config::PlatformConfig p = tiny_platform();
  p.ftl.scheme = "toy";
  ftl::FtlDevice device(p, ftl::FtlDeviceOptions{});
  config::PreconditionConfig fill;
  fill.fill_ratio = 1.0;
  fill.overwrite_ratio = 0.5;
  ftl::precondition(device, fill);
  const auto no_check = [] {};
  EXPECT_EQ(run_random(device, 300'000, 21, no_check), 0u) << device.oracle()->first_mismatch();
  EXPECT_EQ(run_sequential(device, 300'000, 22, no_check), 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), 100'000u);
  EXPECT_GT(device.scheme().stats().gc_invocations, 1000u);
}

}  // namespace
}  // namespace ssd::testing
