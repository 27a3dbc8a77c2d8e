// Test helper: two CpuWork counts agree primitive by primitive (each named on failure).
#pragma once

#include <gtest/gtest.h>

#include "ftl/core/cpu_work.h"

namespace ssd::ftl {

inline void expect_same_work(const CpuWork& actual, const CpuWork& expected) {
#define SSD_EXPECT_FIELD(count, unit, default_cycles, is_mapping, description) \
  EXPECT_EQ(actual.count, expected.count) << #count;
  SSD_CPU_PRIMITIVES(SSD_EXPECT_FIELD)
#undef SSD_EXPECT_FIELD
}

}  // namespace ssd::ftl
