// The scheme registry (ftl/scheme_registry.h): every built-in scheme's descriptor is complete,
// its settings keys live under ftl.<group>. and are documented, its rules pass the tiny test
// platform, and the figures it reports are the ones it declares, each documented in
// docs/report.md. Adding a scheme without its documentation fails here.
#include "ftl/scheme_registry.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ftl/core/ftl_device.h"
#include "rtl/model/vet_hash_model.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

std::string read_doc(const std::string& relative) {
  std::ifstream in(std::string(SSD_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in) << relative;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(SchemeRegistry, EveryDescriptorIsCompleteAndNamedOnce) {
  std::set<std::string> names;
  for (const SchemeDescriptor& d : schemes()) {
    EXPECT_TRUE(names.insert(d.name).second) << d.name;
    EXPECT_FALSE(d.summary.empty()) << d.name;
    EXPECT_TRUE(d.spare_words && d.create && d.simulator_bytes) << d.name;
  }
  EXPECT_THROW(scheme("no-such-scheme"), std::invalid_argument);
  EXPECT_THROW(register_scheme(schemes().front()), std::invalid_argument);  // name taken
}

TEST(SchemeRegistry, SettingsKeysLiveUnderTheirGroupAndAreDocumented) {
  const std::string doc = read_doc("docs/configuration.md");
  for (const SchemeDescriptor& d : schemes()) {
    if (!d.settings) continue;
    for (auto& group : d.settings()) {
      const std::string prefix = "ftl." + std::string(group->group()) + ".";
      for (const config::KeyDef& key : group->keys()) {
        EXPECT_EQ(std::string(key.name).rfind(prefix, 0), 0u) << key.name;
        EXPECT_FALSE(key.description.empty()) << key.name;
        EXPECT_NE(doc.find("`" + std::string(key.name) + "`"), std::string::npos)
            << key.name << " is not in docs/configuration.md";
      }
      for (const config::RenamedKey& renamed : group->renamed()) {
        EXPECT_NE(doc.find("`" + std::string(renamed.old_name) + "`"), std::string::npos)
            << renamed.old_name << " (renamed) is not in docs/configuration.md";
      }
    }
  }
}

TEST(SchemeRegistry, FiguresAreTheDeclaredOnesAndDocumented) {
  const std::string doc = read_doc("docs/report.md");
  for (const SchemeDescriptor& d : schemes()) {
    config::PlatformConfig p = testing::tiny_platform();
    p.ftl.scheme = d.name;
    ASSERT_FALSE(d.check && d.check(p)) << d.name << " refuses the tiny platform";
    rtl::HashEngineModel engine({p.accelerator.bucket_bits, p.accelerator.ways});
    FtlDeviceOptions options;
    options.hash_engine = &engine;
    FtlDevice device(p, options);
    const auto figures = device.scheme().mapping_figures();
    ASSERT_EQ(figures.size(), d.figures.size()) << d.name;
    for (size_t i = 0; i < figures.size(); ++i) {
      EXPECT_EQ(figures[i].name, d.figures[i].name) << d.name;
      EXPECT_NE(doc.find("`mapping." + d.figures[i].name + "`"), std::string::npos)
          << "mapping." << d.figures[i].name << " is not in docs/report.md";
    }
  }
}

}  // namespace
}  // namespace ssd::ftl
