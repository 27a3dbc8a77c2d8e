// A device that keeps clients' bytes (FtlDeviceOptions::host_data, ssdsim serve): on every scheme
// a random mix of sector-granular writes of random bytes, reads, trims, zero writes and flushes
// on a device whose GC runs reads back exactly what a byte-for-byte model of the disk holds; and a
// read whose units the oracle rejects gets no bytes at all.
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "config/validation.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

FtlDeviceOptions keeping_data() {
  FtlDeviceOptions options;
  options.oracle = true;
  options.host_data = true;
  return options;
}

// Runs `commands` random commands and compares every read with `disk`, the bytes a plain
// disk would hold. Returns the reads that differed; `mismatches` gets the oracle's count.
uint64_t run_against_model(FtlDevice& device, uint64_t commands, uint64_t seed,
                           uint64_t& mismatches) {
  const Geometry& g = device.geometry();
  const uint32_t sector = 512;
  const uint64_t sectors = g.logical_sectors();
  std::vector<std::byte> disk(sectors * sector, std::byte{0});
  Random random(seed);
  std::vector<std::byte> buffer;
  uint64_t wrong = 0;
  mismatches = 0;
  for (uint64_t i = 0; i < commands; ++i) {
    const uint64_t draw = random.below(100);
    const auto count = static_cast<uint32_t>(1 + random.below(g.sectors_per_unit * 4));
    const uint64_t start = random.below(sectors - count + 1);
    HostCommand command;
    command.start_sector = start;
    command.sector_count = count;
    buffer.assign(size_t{count} * sector, std::byte{0});
    std::byte* at = disk.data() + start * sector;
    if (draw < 45) {
      command.kind = CommandKind::kWrite;
      for (std::byte& b : buffer) b = std::byte(random.below(256));
      std::copy(buffer.begin(), buffer.end(), at);
      command.data = buffer.data();
    } else if (draw < 50) {
      command.kind = CommandKind::kWrite;  // no bytes: zeros
      std::fill(at, at + buffer.size(), std::byte{0});
    } else if (draw < 85) {
      command.kind = CommandKind::kRead;
      command.data = buffer.data();
    } else if (draw < 95) {
      command.kind = CommandKind::kTrim;  // forgets the units it covers whole
      const uint64_t spu = g.sectors_per_unit;
      for (uint64_t unit = (start + spu - 1) / spu; (unit + 1) * spu <= start + count; ++unit) {
        std::fill(disk.begin() + unit * spu * sector, disk.begin() + (unit + 1) * spu * sector,
                  std::byte{0});
      }
    } else {
      command.kind = CommandKind::kFlush;
      command.start_sector = command.sector_count = 0;
    }
    mismatches += device.run(command);
    if (command.kind == CommandKind::kRead &&
        !std::equal(buffer.begin(), buffer.end(), disk.begin() + start * sector)) {
      ++wrong;
    }
  }
  return wrong;
}

TEST(HostDataDevice, EverySchemeReadsBackTheBytesWritten) {
  std::vector<std::string> ran;
  for (const std::string& scheme : scheme_names()) {
    config::PlatformConfig p = testing::tiny_platform();
    p.ftl.scheme = scheme;
    if (config::find_platform_problem(p, scheme_catalog()) || needs_hash_engine(p)) continue;
    SCOPED_TRACE(scheme);
    FtlDevice device(p, keeping_data());
    uint64_t mismatches = 0;
    EXPECT_EQ(run_against_model(device, 20'000, 5, mismatches), 0u);
    EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
    EXPECT_GT(device.stats().gc_erases, 0u) << "GC never ran";
    EXPECT_GT(device.host_data()->units_held(), 0u);
    ran.push_back(scheme);
  }
  for (const char* must : {"page", "dftl", "block", "nftl", "fast"}) {
    EXPECT_NE(std::find(ran.begin(), ran.end(), must), ran.end()) << must;
  }
}

TEST(HostDataDevice, WithADataCacheToo) {
  config::PlatformConfig p = testing::tiny_platform();
  p.cache.mode = "write_back";
  p.cache.line_bytes = 4096;
  p.cache.capacity_bytes = 32 * 4096;
  FtlDevice device(p, keeping_data());
  uint64_t mismatches = 0;
  EXPECT_EQ(run_against_model(device, 20'000, 9, mismatches), 0u);
  EXPECT_EQ(mismatches, 0u);
}

// Page mapping that, when told to, hands a read back a token one off from what it found.
class CorruptingScheme final : public MappingScheme {
 public:
  CorruptingScheme(const SchemeContext& context, const bool& corrupt)
      : m_inner(create_scheme("page", context)), m_backend(context.backend), m_corrupt(corrupt) {}
  void read(const HostCommand& command) override {
    m_inner->read(command);
    if (!m_corrupt) return;
    const DeliveredUnit last = m_backend.take_last_delivered();
    m_backend.deliver(last.lun, last.token ^ 1, last.sectors);
  }
  void write(const HostCommand& command) override { m_inner->write(command); }
  void trim(const HostCommand& command) override { m_inner->trim(command); }
  void flush(const HostCommand& command) override { m_inner->flush(command); }
  const FtlStats& stats() const override { return m_inner->stats(); }
  uint64_t mapping_memory_bytes() const override { return m_inner->mapping_memory_bytes(); }

 private:
  std::unique_ptr<MappingScheme> m_inner;
  FlashBackend& m_backend;
  const bool& m_corrupt;
};

TEST(HostDataDevice, AReadTheOracleRejectsGetsNoBytes) {
  bool corrupt = false;
  FtlDevice device(testing::tiny_platform(), keeping_data(), [&](const SchemeContext& context) {
    return std::make_unique<CorruptingScheme>(context, corrupt);
  });
  std::vector<std::byte> written(4096, std::byte{7});
  HostCommand write;
  write.kind = CommandKind::kWrite;
  write.sector_count = 8;
  write.data = written.data();
  ASSERT_EQ(device.run(write), 0u);
  std::vector<std::byte> buffer(4096, std::byte{0});
  HostCommand read;
  read.kind = CommandKind::kRead;
  read.sector_count = 8;
  read.data = buffer.data();
  ASSERT_EQ(device.run(read), 0u);
  EXPECT_EQ(buffer, written);
  corrupt = true;
  std::fill(buffer.begin(), buffer.end(), std::byte{0});
  EXPECT_EQ(device.run(read), 1u);
  EXPECT_EQ(buffer, std::vector<std::byte>(4096, std::byte{0}));
}

TEST(HostDataDevice, NeedsTheOracle) {
  FtlDeviceOptions options = keeping_data();
  options.oracle = false;
  EXPECT_THROW(FtlDevice(testing::tiny_platform(), options), std::invalid_argument);
}

}  // namespace
}  // namespace ssd::ftl
