// What the tests of the block-granular schemes (block, NFTL, FAST) share: the invariants each
// must keep, and a fixture with the scheme on the tiny device.
// Invariants, checked against the oracle: each unit with data sits where the scheme says, in a
// programmed page whose spare area names it, holding the token the oracle expects; a unit
// without data is expected to read as zeroes; and the blocks the scheme does not hold are free
// and erased (no block leaks).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/hybrid/block_scheme.h"
#include "tests/ftl/scheme_workloads.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::testing {

inline void check_block_scheme(ftl::FtlDevice& device) {
  const auto& scheme = dynamic_cast<const ftl::BlockScheme&>(device.scheme());
  const ftl::Geometry& g = device.geometry();
  for (ftl::Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!scheme.unit_valid(lun)) {
      ASSERT_EQ(device.oracle()->expected(lun), 0u) << "unit " << lun << " lost";
      continue;
    }
    const ftl::PageId page = scheme.peek(lun);
    ASSERT_NE(page, ftl::kNone) << "unit " << lun;
    ASSERT_TRUE(device.flash().is_programmed(page)) << "unit " << lun;
    ASSERT_EQ(device.flash().spare(page)[0], lun) << "unit " << lun;
    ASSERT_EQ(device.flash().token(page), device.oracle()->expected(lun)) << "unit " << lun;
  }
  const ftl::BlockManager& blocks = scheme.flash().blocks();
  uint32_t in_use = 0;
  for (ftl::BlockId b = 0; b < g.blocks(); ++b) {
    if (blocks.state(b) == ftl::BlockState::kFree) {
      ASSERT_EQ(device.flash().write_pointer(b), 0u) << "free block " << b << " not erased";
    } else {
      ++in_use;
    }
  }
  ASSERT_EQ(in_use, scheme.blocks_held()) << "blocks leaked or double-used";
}

template <class Scheme>
class BlockSchemeTest : public ::testing::Test {
 protected:
  explicit BlockSchemeTest(const char* scheme_name) : platform(platform_for(scheme_name)) {}
  static config::PlatformConfig platform_for(const char* scheme_name) {
    config::PlatformConfig p = tiny_platform();
    p.ftl.scheme = scheme_name;
    return p;
  }

  config::PlatformConfig platform;
  ftl::FtlDevice device{platform, ftl::FtlDeviceOptions{}};
  const ftl::Geometry& g = device.geometry();
  uint32_t spu = g.sectors_per_unit;
  uint32_t ppb = g.pages_per_block;
  std::function<void()> check = [this] { check_block_scheme(device); };

  const Scheme& scheme() const { return dynamic_cast<const Scheme&>(device.scheme()); }
  const ftl::FtlStats& stats() const { return device.scheme().stats(); }
  // Units written for `op_class`, as the backend counts them (FlashBackend::written()).
  uint64_t written(ftl::OpClass op_class) { return device.backend().written().of(op_class); }
  uint64_t write_units(ftl::Lun first, uint32_t count) {
    return run_one(device, ftl::CommandKind::kWrite, uint64_t(first) * spu, count * spu);
  }
  uint64_t read_units(ftl::Lun first, uint32_t count) {
    return run_one(device, ftl::CommandKind::kRead, uint64_t(first) * spu, count * spu);
  }
  // Every unit written, a fifth of them again at random: merges from the first command on.
  void fill_device() {
    config::PreconditionConfig fill;
    fill.fill_ratio = 1.0;
    fill.overwrite_ratio = 0.2;
    ftl::precondition(device, fill);
    check();
  }
  // A million commands of `workload` (run_random or run_sequential) pass the oracle.
  template <class Workload>
  void expect_million_commands_pass(Workload workload, uint64_t seed) {
    const uint64_t mismatches = workload(device, 1'000'000, seed, check, 250'000);
    EXPECT_EQ(mismatches, 0u) << device.oracle()->first_mismatch();
    EXPECT_GT(device.oracle()->checked_reads(), 300'000u);
  }
};

// The operations of `kind` the last command recorded.
inline std::vector<ftl::FlashOp> ops_of(ftl::FtlDevice& device, ftl::OpKind kind) {
  std::vector<ftl::FlashOp> found;
  for (const ftl::FlashOp& op : device.backend().ops().ops()) {
    if (op.kind == kind) found.push_back(op);
  }
  return found;
}

// Reads every valid unit, one command each: the read passes the oracle and its one page read is
// the page peek() names.
inline void expect_reads_where_peek_says(ftl::FtlDevice& device) {
  const auto& scheme = dynamic_cast<const ftl::BlockScheme&>(device.scheme());
  const ftl::Geometry& g = device.geometry();
  uint64_t checked = 0;
  for (ftl::Lun lun = 0; lun < g.logical_units; ++lun) {
    if (!scheme.unit_valid(lun)) continue;
    ASSERT_EQ(run_one(device, ftl::CommandKind::kRead, uint64_t(lun) * g.sectors_per_unit,
                      g.sectors_per_unit),
              0u)
        << "unit " << lun << ": " << device.oracle()->first_mismatch();
    const std::vector<ftl::FlashOp> reads = ops_of(device, ftl::OpKind::kRead);
    ASSERT_EQ(reads.size(), 1u) << "unit " << lun;
    ASSERT_EQ(reads[0].page, scheme.peek(lun)) << "unit " << lun;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace ssd::testing
