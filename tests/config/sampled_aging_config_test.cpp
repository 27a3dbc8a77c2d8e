// precondition.aging = sampled (ftl/core/sampled_aging.h) is refused, naming the key to change,
// wherever the layout cannot be made: a scheme without it, a miniature that does not divide the
// device's dies, static placement, a synced map and the sector layer. Power cuts are accepted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/config/config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kSampled = {"precondition.fill_ratio=1.0",
                                           "precondition.overwrite_ratio=0.5",
                                           "precondition.aging=\"sampled\""};

std::vector<std::string> sampled_with(std::vector<std::string> more) {
  std::vector<std::string> all = kSampled;
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

TEST(SampledAgingConfig, PageMappingTakesIt) {
  const LoadedConfig c = load_config("", "", sampled_with({"precondition.sample_dies=2"}));
  EXPECT_EQ(c.scenario.precondition.aging, "sampled");
  EXPECT_EQ(c.scenario.precondition.sample_dies, 2u);
}

TEST(SampledAgingConfig, DacTakesItAndRefusesTheSectorLayer) {
  EXPECT_EQ(load_config("", "", sampled_with({"ftl.scheme=\"dac\""})).scenario.precondition.aging,
            "sampled");
  EXPECT_THAT(error_of([] {
                load_config(
                    "", "",
                    sampled_with({"ftl.scheme=\"dac\"", "ftl.sector_log.size_bytes=4194304"}));
              }),
              HasSubstr("ftl.sector_log.size_bytes"));
}

TEST(SampledAgingConfig, DftlTakesIt) {
  EXPECT_EQ(load_config("", "", sampled_with({"ftl.scheme=\"dftl\""})).scenario.precondition.aging,
            "sampled");
}

TEST(SampledAgingConfig, TheExtentSchemesTakeIt) {
  for (const char* scheme : {"ftl.scheme=\"vet\"", "ftl.scheme=\"emt\""}) {
    EXPECT_EQ(load_config("", "", sampled_with({scheme})).scenario.precondition.aging, "sampled")
        << scheme;
  }
}

TEST(SampledAgingConfig, VetOnTheAcceleratorIsRefused) {
  EXPECT_THAT(error_of([] {
                load_config(
                    "", "",
                    sampled_with({"ftl.scheme=\"vet\"", "ftl.vet.hash_backend=\"accelerator\""}));
              }),
              HasSubstr("ftl.vet.hash_backend"));
}

TEST(SampledAgingConfig, TheBlockSchemesTakeIt) {
  for (const char* scheme :
       {"ftl.scheme=\"block\"", "ftl.scheme=\"nftl\"", "ftl.scheme=\"fast\""}) {
    EXPECT_EQ(load_config("", "", sampled_with({scheme})).scenario.precondition.aging, "sampled")
        << scheme;
  }
}

TEST(SampledAgingConfig, NftlWithATranslationCacheIsRefused) {
  EXPECT_THAT(
      error_of([] {
        load_config("", "", sampled_with({"ftl.scheme=\"nftl\"", "ftl.nftl.cache=\"lru\""}));
      }),
      HasSubstr("ftl.nftl.cache"));
}

// Every scheme that ages by sampling does so with power cuts too: the page schemes number their
// laid-out pages afresh, the block schemes carry the miniature's sequences (block_aged.cpp).
TEST(SampledAgingConfig, TheBlockSchemesWithPowerCutsAreAccepted) {
  for (const char* scheme :
       {"ftl.scheme=\"block\"", "ftl.scheme=\"nftl\"", "ftl.scheme=\"fast\""}) {
    const LoadedConfig loaded =
        load_config("", "", sampled_with({scheme, "power.cut_at_us=100", "run.oracle=true"}));
    EXPECT_EQ(loaded.scenario.precondition.aging, "sampled") << scheme;
  }
}

TEST(SampledAgingConfig, AnUnknownMethodNamesTheKey) {
  EXPECT_THAT(error_of([] { load_config("", "", {"precondition.aging=\"guessed\""}); }),
              HasSubstr("precondition.aging"));
}

// Every scheme ages by sampling since the superblock frame lays out its superblocks
// (ftl/superblock_frame/frame_aged.cpp), with power cuts too.
TEST(SampledAgingConfig, TheSuperblockSchemesAreAccepted) {
  for (const char* scheme : {"ftl.scheme=\"superblock\"", "ftl.scheme=\"lsb\""}) {
    EXPECT_EQ(load_config("", "", sampled_with({scheme})).scenario.precondition.aging, "sampled")
        << scheme;
    const LoadedConfig loaded =
        load_config("", "", sampled_with({scheme, "power.cut_at_us=100", "run.oracle=true"}));
    EXPECT_EQ(loaded.scenario.precondition.aging, "sampled") << scheme;
  }
}

TEST(SampledAgingConfig, WithoutOverwritesAnySchemeRuns) {
  // Nothing to age: the key is inert, as the preconditioner ignores it.
  EXPECT_NO_THROW(load_config("", "",
                              {"ftl.scheme=\"superblock\"", "precondition.aging=\"sampled\"",
                               "precondition.fill_ratio=1.0"}));
}

TEST(SampledAgingConfig, TheMiniatureMustDivideTheDevicesDies) {
  // platforms' default: 2 channels x 2 chips x 1 die.
  const std::string message =
      error_of([] { load_config("", "", sampled_with({"precondition.sample_dies=3"})); });
  EXPECT_THAT(message, HasSubstr("precondition.sample_dies"));
  EXPECT_THAT(message, HasSubstr("divide the device's 4"));
  EXPECT_THAT(error_of([] { load_config("", "", sampled_with({"precondition.sample_dies=8"})); }),
              HasSubstr("precondition.sample_dies"));
  EXPECT_THAT(error_of([] { load_config("", "", sampled_with({"precondition.sample_dies=0"})); }),
              HasSubstr("precondition.sample_dies"));
}

TEST(SampledAgingConfig, StaticPlacementIsRefused) {
  EXPECT_THAT(error_of([] { load_config("", "", sampled_with({"ftl.placement=\"static\""})); }),
              HasSubstr("ftl.placement"));
}

// The layout writes the pages' sequence numbers (PageStore::lay_out_aged), so a device that may
// lose power is aged by sampling too.
TEST(SampledAgingConfig, PowerCutsAreAccepted) {
  const LoadedConfig loaded =
      load_config("", "", sampled_with({"power.cut_at_us=100", "run.oracle=true"}));
  EXPECT_EQ(loaded.scenario.precondition.aging, "sampled");
  EXPECT_TRUE(loaded.scenario.power.on());
}

TEST(SampledAgingConfig, ASyncedMapIsRefused) {
  EXPECT_THAT(
      error_of([] { load_config("", "", sampled_with({"ftl.page.map_sync=\"conventional\""})); }),
      HasSubstr("ftl.page.map_sync"));
}

TEST(SampledAgingConfig, TheSectorLayerIsRefused) {
  EXPECT_THAT(error_of([] { load_config("", "", sampled_with({"ftl.write_buffer.bytes=65536"})); }),
              HasSubstr("ftl.write_buffer.bytes"));
}

}  // namespace
}  // namespace ssd::config::test
