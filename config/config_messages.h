// How configuration errors read: "SOURCE[:LINE]: key 'KEY': REASON", so an editor can jump to the
// line and the user sees which key to fix. SOURCE is a file path or "--set".
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "config/config_loader.h"

namespace ssd::config {

// Where a value came from: a file (with the line toml++ reported, 0 if unknown) or "--set".
struct Origin {
  std::string source;
  uint32_t line = 0;
};

// Origin of every key set from a file or --set, so a validation failure can point at the line
// that set the offending value.
using OriginMap = std::map<std::string, Origin, std::less<>>;

inline std::string describe_error(const Origin& origin, std::string_view key,
                                  const std::string& reason) {
  std::string where = origin.source;
  if (origin.line != 0) where += ":" + std::to_string(origin.line);
  return where + ": key '" + std::string(key) + "': " + reason;
}

[[noreturn]] inline void throw_error(const Origin& origin, std::string_view key,
                                     const std::string& reason) {
  throw ConfigError(describe_error(origin, key, reason));
}

}  // namespace ssd::config
