#include "config/overrides.h"

#include <string_view>

#include "config/key_registry.h"
#include "config/value_conversion.h"

namespace ssd::config {

namespace {

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

}  // namespace

void apply_override(const std::string& assignment, const KeyList& platform, const KeyList& scenario,
                    OriginMap& origins, const std::string& source) {
  const Origin origin{source, 0};
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    throw_error(origin, trim(assignment), "expected section.key=value");
  }
  const std::string name(trim(std::string_view(assignment).substr(0, equals)));
  const std::string_view text = trim(std::string_view(assignment).substr(equals + 1));

  const std::string_view section = std::string_view(name).substr(0, name.find('.'));
  const KeyList& owner = contains(scenario_sections(), section) ? scenario : platform;
  const KeyDef* key = find_key(owner.keys, name);
  if (!key) {
    KeyList all{platform.keys, platform.renamed};
    all.keys.insert(all.keys.end(), scenario.keys.begin(), scenario.keys.end());
    all.renamed.insert(all.renamed.end(), scenario.renamed.begin(), scenario.renamed.end());
    throw_error(origin, name, all.unknown_key_reason(name));
  }
  if (auto reason = assign_text(*key, text)) throw_error(origin, name, *reason);
  origins[name] = origin;
}

}  // namespace ssd::config
