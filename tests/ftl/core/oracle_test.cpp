// The oracle must catch the mistakes a mapping scheme can make: a stale version, another unit's
// data, a partial write merged with the wrong old version, data for a trimmed unit.
#include "ftl/core/oracle.h"

#include <gtest/gtest.h>

#include "ftl/core/content_token.h"

namespace ssd::ftl {
namespace {

constexpr uint32_t kSpu = 8;  // sectors per unit

HostCommand cmd(CommandKind kind, uint64_t id, uint64_t sector, uint32_t count) {
  HostCommand c;
  c.kind = kind;
  c.id = id;
  c.start_sector = sector;
  c.sector_count = count;
  return c;
}

TEST(Oracle, AcceptsTheLatestVersion) {
  Oracle oracle(16, kSpu);
  oracle.on_write(cmd(CommandKind::kWrite, 1, 0, 16));
  const Token t0 = whole_unit_token(1, 0), t1 = whole_unit_token(1, 1);
  EXPECT_EQ(oracle.check_read(cmd(CommandKind::kRead, 2, 0, 16), {{0, t0}, {1, t1}}), 0u);
}

TEST(Oracle, RejectsAStaleVersion) {
  Oracle oracle(16, kSpu);
  oracle.on_write(cmd(CommandKind::kWrite, 1, 0, 8));
  oracle.on_write(cmd(CommandKind::kWrite, 2, 0, 8));
  EXPECT_EQ(oracle.check_read(cmd(CommandKind::kRead, 3, 0, 8), {{0, whole_unit_token(1, 0)}}), 1u);
  EXPECT_FALSE(oracle.first_mismatch().empty());
}

TEST(Oracle, RejectsAnotherUnitsData) {
  Oracle oracle(16, kSpu);
  oracle.on_write(cmd(CommandKind::kWrite, 1, 0, 16));
  EXPECT_EQ(oracle.check_read(cmd(CommandKind::kRead, 2, 0, 8), {{0, whole_unit_token(1, 1)}}), 1u);
}

TEST(Oracle, PartialWriteMergedWithTheWrongOldVersionIsCaught) {
  Oracle oracle(16, kSpu);
  oracle.on_write(cmd(CommandKind::kWrite, 1, 0, 8));
  oracle.on_write(cmd(CommandKind::kWrite, 2, 0, 8));
  oracle.on_write(cmd(CommandKind::kWrite, 3, 2, 1));  // one sector of unit 0
  const Token right = partial_unit_token(whole_unit_token(2, 0), 3, 0, 0b100);
  const Token merged_with_stale = partial_unit_token(whole_unit_token(1, 0), 3, 0, 0b100);
  EXPECT_EQ(oracle.expected(0), right);
  EXPECT_NE(right, merged_with_stale);
  EXPECT_EQ(oracle.check_read(cmd(CommandKind::kRead, 4, 0, 8), {{0, merged_with_stale}}), 1u);
}

TEST(Oracle, TrimmedUnitMustReadAsUnwritten) {
  Oracle oracle(16, kSpu);
  oracle.on_write(cmd(CommandKind::kWrite, 1, 0, 16));
  oracle.on_trim(cmd(CommandKind::kTrim, 2, 0, 12));  // unit 0 whole, unit 1 half: kept
  EXPECT_EQ(oracle.expected(0), 0u);
  EXPECT_EQ(oracle.expected(1), whole_unit_token(1, 1));
  EXPECT_EQ(oracle.check_read(cmd(CommandKind::kRead, 3, 0, 8), {{0, whole_unit_token(1, 0)}}), 1u);
}

TEST(Oracle, MissingUnitsAreMismatches) {
  Oracle oracle(16, kSpu);
  EXPECT_GT(oracle.check_read(cmd(CommandKind::kRead, 1, 0, 16), {{0, 0}}), 0u);
}

}  // namespace
}  // namespace ssd::ftl
