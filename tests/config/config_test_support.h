// Helpers for the configuration tests: the loader with the FTL's scheme catalog, TOML text
// written to a temporary file that is removed afterwards, and the message of the ConfigError a
// call throws.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config/config_loader.h"
#include "ftl/scheme_registry.h"

namespace ssd::config::test {

// The loader and the platform check with the FTL's scheme catalog, as ssdsim calls them.
inline LoadedConfig load_config(const std::string& platform_path, const std::string& scenario_path,
                                const std::vector<std::string>& overrides) {
  return config::load_config(platform_path, scenario_path, overrides, ftl::scheme_catalog());
}
inline void validate_platform(const PlatformConfig& platform, const std::string& source) {
  config::validate_platform(platform, source, ftl::scheme_catalog());
}

inline std::string bundled(const std::string& relative) {
  return std::string(SSD_SOURCE_DIR) + "/" + relative;
}

class TempToml {
 public:
  explicit TempToml(const std::string& text) {
    static std::atomic<int> counter{0};
    m_path =
        (std::filesystem::temp_directory_path() / ("ssd_config_test_" + std::to_string(::getpid()) +
                                                   "_" + std::to_string(counter++) + ".toml"))
            .string();
    std::ofstream(m_path) << text;
  }
  ~TempToml() { std::filesystem::remove(m_path); }
  TempToml(const TempToml&) = delete;
  TempToml& operator=(const TempToml&) = delete;

  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// The ConfigError message `action` throws; a test failure if it throws nothing.
inline std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const ConfigError& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected a ConfigError";
  return "";
}

inline std::string platform_error(const std::string& toml_text,
                                  const std::vector<std::string>& overrides = {}) {
  TempToml file(toml_text);
  std::string message = error_of([&] { load_config(file.path(), "", overrides); });
  // Replace the random temp path so tests can match on a stable "FILE" placeholder.
  const size_t at = message.find(file.path());
  if (at != std::string::npos) message.replace(at, file.path().size(), "FILE");
  return message;
}

inline std::string scenario_error(const std::string& toml_text,
                                  const std::vector<std::string>& overrides = {}) {
  TempToml file(toml_text);
  std::string message = error_of([&] { load_config("", file.path(), overrides); });
  const size_t at = message.find(file.path());
  if (at != std::string::npos) message.replace(at, file.path().size(), "FILE");
  return message;
}

}  // namespace ssd::config::test
