// The bytes a served device keeps (ftl/core/host_data.h): sparse by unit, sector-granular
// writes, zeros that hold nothing, trims that forget only whole units.
#include "ftl/core/host_data.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace ssd::ftl {
namespace {

constexpr uint32_t kSector = 512;
constexpr uint32_t kSectorsPerUnit = 8;

std::vector<std::byte> filled(uint32_t sectors, int value) {
  return std::vector<std::byte>(size_t{sectors} * kSector, std::byte(value));
}

std::vector<std::byte> read(const HostData& data, uint64_t sector, uint32_t sectors) {
  std::vector<std::byte> bytes(size_t{sectors} * kSector, std::byte{0x5a});
  data.read(sector, sectors, bytes.data());
  return bytes;
}

TEST(HostData, ReadsBackWhatWasWrittenAndZerosElsewhere) {
  HostData data(kSector, kSectorsPerUnit);
  const auto ones = filled(3, 1);
  data.write(6, 3, ones.data());  // the last two sectors of unit 0, the first of unit 1
  EXPECT_EQ(data.units_held(), 2u);
  EXPECT_EQ(data.bytes_held(), 2u * kSector * kSectorsPerUnit);
  std::vector<std::byte> expected = filled(5, 0);
  const auto tail = filled(3, 1);
  expected.insert(expected.end(), tail.begin(), tail.end());
  const auto after = filled(2, 0);
  expected.insert(expected.end(), after.begin(), after.end());
  EXPECT_EQ(read(data, 1, 10), expected);       // sectors 1..10
  EXPECT_EQ(read(data, 100, 4), filled(4, 0));  // never written
}

TEST(HostData, AWriteOfZerosHoldsNothing) {
  HostData data(kSector, kSectorsPerUnit);
  const auto zeros = filled(kSectorsPerUnit, 0);
  data.write(0, kSectorsPerUnit, zeros.data());
  EXPECT_EQ(data.units_held(), 0u);
  const auto twos = filled(1, 2);
  data.write(3, 1, twos.data());
  EXPECT_EQ(data.units_held(), 1u);
  data.write(3, 1, nullptr);  // no bytes: zeros; the unit is all zero again and is dropped
  EXPECT_EQ(data.units_held(), 0u);
  EXPECT_EQ(read(data, 0, kSectorsPerUnit), zeros);
}

TEST(HostData, ATrimForgetsOnlyTheUnitsItCoversWhole) {
  HostData data(kSector, kSectorsPerUnit);
  const auto threes = filled(3 * kSectorsPerUnit, 3);
  data.write(0, 3 * kSectorsPerUnit, threes.data());
  data.trim(4, 2 * kSectorsPerUnit);  // half of unit 0, all of unit 1, half of unit 2
  EXPECT_EQ(data.units_held(), 2u);
  EXPECT_EQ(read(data, 0, kSectorsPerUnit), filled(kSectorsPerUnit, 3));
  EXPECT_EQ(read(data, kSectorsPerUnit, kSectorsPerUnit), filled(kSectorsPerUnit, 0));
  EXPECT_EQ(read(data, 2 * kSectorsPerUnit, kSectorsPerUnit), filled(kSectorsPerUnit, 3));
}

}  // namespace
}  // namespace ssd::ftl
