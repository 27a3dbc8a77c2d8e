// The key registry: names are unique and dotted under a known section, and docs/configuration.md
// lists every key, so adding a key without documenting it fails here.
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "config/key_registry.h"
#include "config_test_support.h"

namespace ssd::config::test {
namespace {

std::vector<KeyDef> all_keys(PlatformConfig& p, ScenarioConfig& s) {
  std::vector<KeyDef> keys = platform_keys(p);
  for (KeyDef& key : scenario_keys(s)) keys.push_back(key);
  return keys;
}

TEST(KeyRegistry, NamesAreUniqueAndInKnownSections) {
  PlatformConfig p;
  ScenarioConfig s;
  std::set<std::string_view> seen;
  for (const KeyDef& key : platform_keys(p)) {
    EXPECT_TRUE(seen.insert(key.name).second) << key.name;
    EXPECT_TRUE(contains(platform_sections(), key.name.substr(0, key.name.find('.')))) << key.name;
    EXPECT_FALSE(key.description.empty()) << key.name;
  }
  for (const KeyDef& key : scenario_keys(s)) {
    EXPECT_TRUE(seen.insert(key.name).second) << key.name;
    EXPECT_TRUE(contains(scenario_sections(), key.name.substr(0, key.name.find('.')))) << key.name;
    EXPECT_FALSE(key.description.empty()) << key.name;
  }
}

TEST(KeyRegistry, EveryKeyIsDocumented) {
  std::ifstream in(bundled("docs/configuration.md"));
  ASSERT_TRUE(in) << "docs/configuration.md missing";
  std::ostringstream text;
  text << in.rdbuf();
  PlatformConfig p;
  ScenarioConfig s;
  for (const KeyDef& key : all_keys(p, s)) {
    EXPECT_NE(text.str().find("`" + std::string(key.name) + "`"), std::string::npos)
        << key.name << " is not in docs/configuration.md";
  }
}

TEST(KeyRegistry, BuiltInDefaultsPassTheirOwnBounds) {
  PlatformConfig p;
  ScenarioConfig s;
  EXPECT_FALSE(check_key_bounds(all_keys(p, s)).has_value());
}

}  // namespace
}  // namespace ssd::config::test
