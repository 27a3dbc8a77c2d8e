// The case the sampled-aging tests of the block-granular and superblock schemes are
// parameterised by: a scheme, on dies of `planes_per_die` planes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>

namespace ssd::testing {

struct AgingCase {
  std::string scheme;
  uint32_t planes_per_die;
};

inline void PrintTo(const AgingCase& c, std::ostream* out) {
  *out << c.scheme << ", " << c.planes_per_die << " planes";
}

// The instantiations' test names: "<scheme>_<planes>_planes".
inline std::string aging_case_name(const ::testing::TestParamInfo<AgingCase>& info) {
  return info.param.scheme + "_" + std::to_string(info.param.planes_per_die) + "_planes";
}

}  // namespace ssd::testing
