#include "config/overrides.h"

#include <string_view>

#include "config/value_conversion.h"

namespace ssd::config {

namespace {

const Origin kSetOrigin{"--set", 0};

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

}  // namespace

void apply_override(const std::string& assignment, const std::vector<KeyDef>& platform,
                    const std::vector<KeyDef>& scenario, OriginMap& origins) {
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    throw_error(kSetOrigin, trim(assignment), "expected section.key=value");
  }
  const std::string name(trim(std::string_view(assignment).substr(0, equals)));
  const std::string_view text = trim(std::string_view(assignment).substr(equals + 1));

  const std::string_view section = std::string_view(name).substr(0, name.find('.'));
  const std::vector<KeyDef>& owner = contains(scenario_sections(), section) ? scenario : platform;
  const KeyDef* key = find_key(owner, name);
  if (!key) {
    std::vector<std::string_view> all = key_names(platform);
    for (std::string_view other : key_names(scenario)) all.push_back(other);
    throw_error(kSetOrigin, name, "unknown key" + suggestion(all, name));
  }
  if (auto reason = assign_text(*key, text)) throw_error(kSetOrigin, name, *reason);
  origins[name] = kSetOrigin;
}

}  // namespace ssd::config
