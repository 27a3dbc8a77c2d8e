#include "config/scheme_settings.h"

namespace ssd::config {

SchemeSettings::SchemeSettings(const SchemeSettings& other) {
  for (const auto& [name, group] : other.m_groups) m_groups.emplace(name, group->clone());
}

SchemeSettings& SchemeSettings::operator=(const SchemeSettings& other) {
  if (this != &other) {
    SchemeSettings copy(other);
    m_groups = std::move(copy.m_groups);
  }
  return *this;
}

void SchemeSettings::add(std::unique_ptr<SettingsGroup> group) {
  const std::string name(group->group());
  m_groups.emplace(name, std::move(group));  // keeps a group already held
}

std::vector<KeyDef> SchemeSettings::keys() {
  std::vector<KeyDef> all;
  for (auto& entry : m_groups) {
    for (KeyDef& key : entry.second->keys()) all.push_back(std::move(key));
  }
  return all;
}

std::vector<RenamedKey> SchemeSettings::renamed() const {
  std::vector<RenamedKey> all;
  for (const auto& entry : m_groups) {
    for (const RenamedKey& key : entry.second->renamed()) all.push_back(key);
  }
  return all;
}

}  // namespace ssd::config
