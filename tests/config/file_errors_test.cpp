// Reading files: unknown names, wrong types and TOML syntax errors are rejected with a message
// naming the file, the line and the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

TEST(FileErrors, UnknownKeyNamesFileLineAndKey) {
  const std::string message = platform_error("[nand]\nchannels = 2\nchanels = 4\n");
  EXPECT_THAT(message, HasSubstr("FILE:3: key 'nand.chanels': unknown key"));
  EXPECT_THAT(message, HasSubstr("did you mean 'nand.channels'"));
}

TEST(FileErrors, UnknownSection) {
  const std::string message = platform_error("[nandd]\nchannels = 2\n");
  EXPECT_THAT(message, HasSubstr("FILE:1: key 'nandd': unknown section"));
  EXPECT_THAT(message, HasSubstr("did you mean 'nand'"));
}

TEST(FileErrors, NestedTableIsAnUnknownKey) {
  EXPECT_THAT(platform_error("[nand.timing]\nt_read_us = 3\n"),
              HasSubstr("key 'nand.timing': unknown key"));
}

TEST(FileErrors, UnknownKeyInAKnownSubTable) {
  const std::string message =
      platform_error("[ftl]\nscheme = \"vet\"\n[ftl.vet]\ninsertoin = \"lis\"\n");
  EXPECT_THAT(message, HasSubstr("FILE:4: key 'ftl.vet.insertoin': unknown key"));
  EXPECT_THAT(message, HasSubstr("did you mean 'ftl.vet.insertion'"));
}

TEST(FileErrors, WordOutsideASubTableKeysChoices) {
  EXPECT_THAT(platform_error("[ftl.vet]\nlayout = \"pp\"\n"), HasSubstr("ftl.vet.layout"));
}

TEST(FileErrors, TopLevelKeyOutsideSection) {
  EXPECT_THAT(platform_error("channels = 2\n"), HasSubstr("FILE:1: key 'channels': unknown"));
}

TEST(FileErrors, ScenarioSectionInPlatformFile) {
  EXPECT_THAT(platform_error("[nand]\nchannels = 2\n[workload]\nrequests = 5\n"),
              HasSubstr("FILE:3: key 'workload': [workload] is a scenario section"));
}

TEST(FileErrors, PlatformSectionInScenarioFile) {
  EXPECT_THAT(scenario_error("[nand]\nchannels = 2\n"),
              HasSubstr("key 'nand': [nand] is a platform section"));
}

TEST(FileErrors, StringWhereIntegerExpected) {
  EXPECT_THAT(platform_error("[nand]\nchannels = \"two\"\n"),
              HasSubstr("FILE:2: key 'nand.channels': expected unsigned integer, got a string"));
}

TEST(FileErrors, FloatWhereIntegerExpected) {
  EXPECT_THAT(platform_error("[nand]\nchannels = 2.5\n"),
              HasSubstr("key 'nand.channels': expected unsigned integer, got a floating-point"));
}

TEST(FileErrors, NegativeForUnsigned) {
  EXPECT_THAT(platform_error("[nand]\n\npages_per_block = -64\n"),
              HasSubstr("FILE:3: key 'nand.pages_per_block': must not be negative"));
}

TEST(FileErrors, TooLargeForThirtyTwoBits) {
  EXPECT_THAT(platform_error("[nand]\nblocks_per_plane = 4294967296\n"),
              HasSubstr("key 'nand.blocks_per_plane': must be at most 4294967295"));
}

TEST(FileErrors, WrongTypeForStringAndBool) {
  EXPECT_THAT(platform_error("[ftl]\nscheme = 3\n"),
              HasSubstr("key 'ftl.scheme': expected string, got an integer"));
  EXPECT_THAT(scenario_error("[run]\noracle = \"yes\"\n"),
              HasSubstr("key 'run.oracle': expected boolean, got a string"));
}

TEST(FileErrors, SyntaxErrorNamesFileAndLine) {
  const std::string message = platform_error("[nand]\nchannels = 2\npage_bytes = = 4096\n");
  EXPECT_THAT(message, HasSubstr("FILE:3: TOML syntax error"));
}

TEST(FileErrors, MissingFile) {
  EXPECT_THAT(error_of([] { load_config("/nonexistent/platform.toml", "", {}); }),
              HasSubstr("/nonexistent/platform.toml: cannot open file"));
}

TEST(FileValues, IntegerAcceptedForFloatKey) {
  TempToml file("[nand]\nt_read_us = 60\n");
  EXPECT_DOUBLE_EQ(load_config(file.path(), "", {}).platform.nand.t_read_us[0], 60.0);
}

TEST(FileValues, UnsetKeysKeepDefaults) {
  TempToml file("[nand]\nchannels = 4\n");
  const LoadedConfig c = load_config(file.path(), "", {});
  EXPECT_EQ(c.platform.nand.channels, 4u);
  EXPECT_EQ(c.platform.nand.chips_per_channel, PlatformConfig{}.nand.chips_per_channel);
}

TEST(FileValues, DottedKeysAndInlineTablesWork) {
  TempToml file("nand.channels = 4\nhost = { pcie_lanes = 8 }\n");
  const LoadedConfig c = load_config(file.path(), "", {});
  EXPECT_EQ(c.platform.nand.channels, 4u);
  EXPECT_EQ(c.platform.host.pcie_lanes, 8u);
}

}  // namespace
}  // namespace ssd::config::test
