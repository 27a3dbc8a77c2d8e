// --set overrides: applied after the files, typed by the key, routed to platform or scenario by
// section; errors name --set and the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "config_test_support.h"
#include "ftl/extent/vet/vet_settings.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(Overrides, ApplyToPlatformAndScenario) {
  const LoadedConfig c =
      load_config("", "",
                  {"nand.channels=4", "ftl.scheme=dftl", "workload.read_ratio=0.25",
                   "run.oracle=false", "scenario.name=\"quoted name\""});
  EXPECT_EQ(c.platform.nand.channels, 4u);
  EXPECT_EQ(c.platform.ftl.scheme, "dftl");
  EXPECT_DOUBLE_EQ(c.scenario.workload.read_ratio, 0.25);
  EXPECT_FALSE(c.scenario.run.oracle);
  EXPECT_EQ(c.scenario.name, "quoted name");
}

TEST(Overrides, ApplyAfterFiles) {
  TempToml platform("[nand]\nchannels = 8\n");
  TempToml scenario("[workload]\nqueue_depth = 4\n");
  const LoadedConfig c = load_config(platform.path(), scenario.path(),
                                     {"nand.channels = 2", "workload.queue_depth=16"});
  EXPECT_EQ(c.platform.nand.channels, 2u);
  EXPECT_EQ(c.scenario.workload.queue_depth, 16u);
}

TEST(Overrides, ReachKeysOfSubTablesInFilesAndOnTheCommandLine) {
  TempToml platform("[ftl]\nscheme = \"vet\"\n[ftl.vet]\ninsertion = \"lis\"\nhash = \"cuckoo\"\n");
  const LoadedConfig c = load_config(platform.path(), "", {"ftl.vet.layout=pd"});
  const auto& vet = c.platform.ftl.settings.get<ftl::VetSettings>();
  EXPECT_EQ(vet.insertion, "lis");
  EXPECT_EQ(vet.hash, "cuckoo");
  EXPECT_EQ(vet.layout, "pd");
}

TEST(Overrides, LaterOverrideWins) {
  EXPECT_EQ(load_config("", "", {"nand.channels=4", "nand.channels=8"}).platform.nand.channels, 8u);
}

TEST(Overrides, IntegerAcceptedForFloatKeyAndTomlNumberSyntax) {
  const LoadedConfig c = load_config(
      "", "", {"nand.t_read_us=70", "dram.capacity_bytes=0x4000000", "workload.requests=1_000"});
  EXPECT_DOUBLE_EQ(c.platform.nand.t_read_us[0], 70.0);
  EXPECT_EQ(c.platform.dram.capacity_bytes, 64u << 20);
  EXPECT_EQ(c.scenario.workload.requests, 1000u);
}

TEST(Overrides, StringKeyKeepsDigitsAsText) {
  EXPECT_EQ(load_config("", "", {"platform.name=123"}).platform.name, "123");
}

TEST(Overrides, UnknownKey) {
  const std::string message = error_of([] { load_config("", "", {"nand.chanels=4"}); });
  EXPECT_THAT(message, HasSubstr("--set: key 'nand.chanels': unknown key"));
  EXPECT_THAT(message, HasSubstr("did you mean 'nand.channels'"));
  EXPECT_THAT(error_of([] { load_config("", "", {"bogus.key=1"}); }),
              HasSubstr("--set: key 'bogus.key': unknown key"));
}

TEST(Overrides, BadValue) {
  EXPECT_THAT(error_of([] { load_config("", "", {"nand.channels=abc"}); }),
              HasSubstr("--set: key 'nand.channels': expected unsigned integer, got 'abc'"));
  EXPECT_THAT(error_of([] { load_config("", "", {"nand.channels=-2"}); }),
              HasSubstr("--set: key 'nand.channels': must not be negative"));
  EXPECT_THAT(error_of([] { load_config("", "", {"nand.channels=2.5"}); }),
              HasSubstr("--set: key 'nand.channels': expected unsigned integer"));
  EXPECT_THAT(error_of([] { load_config("", "", {"run.oracle=yes"}); }),
              HasSubstr("--set: key 'run.oracle': expected boolean, got 'yes'"));
  EXPECT_THAT(error_of([] { load_config("", "", {"nand.channels="}); }),
              HasSubstr("--set: key 'nand.channels': expected unsigned integer"));
}

TEST(Overrides, MissingEquals) {
  EXPECT_THAT(error_of([] { load_config("", "", {"nand.channels"}); }),
              HasSubstr("--set: key 'nand.channels': expected section.key=value"));
}

TEST(Overrides, ValidationBlamesTheOverride) {
  TempToml platform("[nand]\nchannels = 2\n");
  EXPECT_THAT(error_of([&] { load_config(platform.path(), "", {"nand.channels=0"}); }),
              HasSubstr("--set: key 'nand.channels': must be >= 1"));
}

}  // namespace
}  // namespace ssd::config::test
