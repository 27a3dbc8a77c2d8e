// Reads one TOML file into a key list: every section and key must be known, every value of the
// key's type. Throws ConfigError naming the file, line and key on the first problem.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/config_messages.h"
#include "config/key_registry.h"

namespace ssd::config {

struct FileKind {
  std::string_view name;                          // "platform" or "scenario"
  const std::vector<std::string_view>* sections;  // tables this kind may hold
  std::string_view other_name;                    // the other kind, for a clearer message
  const std::vector<std::string_view>* other_sections;
};

FileKind platform_file();
FileKind scenario_file();

// Fills the fields bound to `keys` and records where each came from in `origins`. A path that is
// not a readable regular file is refused.
void read_config_file(const std::string& path, const FileKind& kind, const KeyList& keys,
                      OriginMap& origins);

}  // namespace ssd::config
