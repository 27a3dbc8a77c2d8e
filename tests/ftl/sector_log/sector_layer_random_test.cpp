// The sector layer against the oracle at sector granularity: a million random sub-page and
// full-page reads and writes, with trims and flushes, over a small device where the FTL's GC and
// the log's tail cleaning run all the time; the layer's DRAM is checked after every command.
// Variants: write buffer alone, sector log alone, both, 32 KiB pages (64-sector masks), and both
// over DAC.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/sector_log/sector_layer.h"
#include "ftl/sector_log/sector_log_settings.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

struct Variant {
  std::string name;
  uint32_t page_bytes;
  uint32_t log_blocks;
  uint64_t dram_bytes;
  uint64_t commands;
  const char* scheme = "page";
};

void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

config::PlatformConfig platform_of(const Variant& v) {
  config::PlatformConfig p = testing::tiny_platform();
  p.ftl.scheme = v.scheme;
  p.nand.page_bytes = v.page_bytes;
  p.ftl.settings.edit<SectorLogSettings>().size_bytes =
      uint64_t{v.log_blocks} * p.nand.pages_per_block * v.page_bytes;
  p.ftl.settings.edit<WriteBufferSettings>().bytes = v.dram_bytes;
  return p;
}

class SectorLayerRandom : public ::testing::TestWithParam<Variant> {};

TEST_P(SectorLayerRandom, EverySectorReadsBackWhatWasWritten) {
  const Variant& v = GetParam();
  const config::PlatformConfig platform = platform_of(v);
  FtlDevice device{platform, FtlDeviceOptions{}};
  const auto& layer = dynamic_cast<const SectorLayer&>(device.scheme());
  const Geometry& g = device.geometry();
  const uint32_t spu = g.sectors_per_unit;
  // A hot third of the device gets most writes, so the log sees hits, merges and evictions.
  const uint64_t sectors = uint64_t{g.logical_units} * spu;
  const uint64_t hot = sectors / 3;
  Random random(7);
  uint64_t bad = 0;
  for (uint64_t i = 0; i < v.commands && bad == 0; ++i) {
    HostCommand c;
    const uint64_t pick = random.below(100);
    const uint64_t span = random.below(100) < 80 ? hot : sectors;
    c.kind = pick < 45   ? CommandKind::kRead
             : pick < 98 ? CommandKind::kWrite
             : pick < 99 ? CommandKind::kTrim
                         : CommandKind::kFlush;
    if (c.kind != CommandKind::kFlush) {
      // Mostly sub-page: 1 to spu-1 sectors anywhere; a fifth are whole pages or runs of them.
      const bool pages = random.below(5) == 0;
      c.sector_count = pages ? spu * static_cast<uint32_t>(1 + random.below(3))
                             : static_cast<uint32_t>(1 + random.below(spu - 1));
      c.start_sector = pages ? random.below(span / spu - 3) * spu : random.below(span - spu);
    }
    bad += device.run(c);
    ASSERT_LE(layer.dram_bytes(), v.dram_bytes == 0 ? ~uint64_t{0} : v.dram_bytes)
        << "command " << i;
  }
  EXPECT_EQ(bad, 0u) << device.oracle()->first_mismatch();
  EXPECT_GT(device.oracle()->checked_reads(), v.commands / 3);
  EXPECT_GT(layer.stats().gc_erases, 0u) << "the FTL's GC must have run";
  if (v.log_blocks > 0) {
    EXPECT_GT(layer.log()->counts().erases, 10u) << "the log's tail must have been cleaned";
    EXPECT_GT(layer.log()->counts().write_hits, 0u);
  }
  if (v.dram_bytes > 0) {
    EXPECT_GT(layer.counts().buffer_hits, 0u);
    EXPECT_LE(layer.peak_dram_bytes(), v.dram_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, SectorLayerRandom,
    ::testing::Values(Variant{"BufferOnly", 4096, 0, 64 * 1024, 300000},
                      Variant{"LogOnly", 4096, 16, 0, 300000},
                      Variant{"BufferAndLog", 4096, 16, 96 * 1024, 1000000},
                      Variant{"ThirtyTwoKiBPages", 32768, 16, 640 * 1024, 200000},
                      Variant{"OverDac", 4096, 16, 96 * 1024, 300000, "dac"}),
    [](const ::testing::TestParamInfo<Variant>& info) { return info.param.name; });

}  // namespace
}  // namespace ssd::ftl
