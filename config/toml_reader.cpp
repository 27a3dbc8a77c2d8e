#include "config/toml_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "config/value_conversion.h"

namespace ssd::config {

namespace {

uint32_t line_of(const toml::key& key, const toml::node& node) {
  // A key written in the file has its own region; fall back to the value's region.
  if (key.source().begin.line != 0) return key.source().begin.line;
  return node.source().begin.line;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view word : words) out += (out.empty() ? "" : ", ") + std::string(word);
  return out;
}

toml::table parse_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw ConfigError(path + ": is a directory, not a TOML file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const std::string content = text.str();
    return toml::parse(std::string_view(content), std::string_view(path));
  } catch (const toml::parse_error& error) {
    const toml::source_position begin = error.source().begin;
    throw ConfigError(path + ":" + std::to_string(begin.line) +
                      ": TOML syntax error: " + std::string(error.description()) + " (column " +
                      std::to_string(begin.column) + ")");
  }
}

bool has_keys_under(const KeyList& keys, const std::string& prefix) {
  for (const KeyDef& key : keys.keys) {
    if (key.name.size() > prefix.size() && key.name.compare(0, prefix.size(), prefix) == 0 &&
        key.name[prefix.size()] == '.') {
      return true;
    }
  }
  return false;
}

void read_section(const std::string& path, const std::string& section, const toml::table& table,
                  const KeyList& keys, OriginMap& origins) {
  for (auto&& [name_key, value] : table) {
    const std::string name = section + "." + std::string(name_key.str());
    const Origin at{path, line_of(name_key, value)};
    if (value.is_table() && has_keys_under(keys, name)) {  // a sub-table such as [ftl.vet]
      read_section(path, name, *value.as_table(), keys, origins);
      continue;
    }
    const KeyDef* key = find_key(keys.keys, name);
    if (!key) throw_error(at, name, keys.unknown_key_reason(name));
    if (auto reason = assign_node(*key, value)) throw_error(at, name, *reason);
    origins[name] = at;
  }
}

}  // namespace

FileKind platform_file() {
  return {"platform", &platform_sections(), "scenario", &scenario_sections()};
}

FileKind scenario_file() {
  return {"scenario", &scenario_sections(), "platform", &platform_sections()};
}

void read_config_file(const std::string& path, const FileKind& kind, const KeyList& keys,
                      OriginMap& origins) {
  const toml::table doc = parse_file(path);
  for (auto&& [section_key, node] : doc) {
    const std::string section(section_key.str());
    const Origin at{path, line_of(section_key, node)};
    if (contains(*kind.other_sections, section)) {
      throw_error(at, section,
                  "[" + section + "] is a " + std::string(kind.other_name) +
                      " section; it does not belong in a " + std::string(kind.name) + " file");
    }
    if (!contains(*kind.sections, section)) {
      const std::string what = node.is_table() ? "unknown section" : "unknown top-level key";
      throw_error(at, section,
                  what + suggestion(*kind.sections, section) + "; " + std::string(kind.name) +
                      " sections are: " + join(*kind.sections));
    }
    const toml::table* table = node.as_table();
    if (!table) throw_error(at, section, "expected a table [" + section + "]");
    read_section(path, section, *table, keys, origins);
  }
}

}  // namespace ssd::config
