// Settings that belong to one folder of the FTL (a mapping scheme, or a frame several schemes
// share): a plain struct with its defaults and the keys `ftl.<group>.<key>` bound to its fields.
// The folder declares it (e.g. ftl/fast/fast_settings.h); the platform holds one of each in
// `FtlConfig::settings`; configuration reads and checks their keys like any other key. The
// config layer never names a scheme: it learns the groups from the scheme catalog
// (scheme_catalog.h) the FTL hands to load_config.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/key_def.h"

namespace ssd::config {

class SettingsGroup {
 public:
  virtual ~SettingsGroup() = default;
  virtual std::unique_ptr<SettingsGroup> clone() const = 0;
  // The group's name, the middle part of its keys: "fast" for ftl.fast.*.
  virtual std::string_view group() const = 0;
  // The group's keys, bound to this instance's fields.
  virtual std::vector<KeyDef> keys() = 0;
  // Keys the group's settings had under older names.
  virtual std::vector<RenamedKey> renamed() const { return {}; }
};

// Base of a concrete group: `Derived` is a struct with default member values, a
// `static constexpr std::string_view kGroup`, and keys() (and optionally renamed()).
template <class Derived>
class SettingsGroupOf : public SettingsGroup {
 public:
  std::unique_ptr<SettingsGroup> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  std::string_view group() const override { return Derived::kGroup; }
};

// One instance of each group a platform carries, copied deeply with the platform.
class SchemeSettings {
 public:
  SchemeSettings() = default;
  SchemeSettings(const SchemeSettings& other);
  SchemeSettings& operator=(const SchemeSettings& other);
  SchemeSettings(SchemeSettings&&) noexcept = default;
  SchemeSettings& operator=(SchemeSettings&&) noexcept = default;

  // The group's settings: the platform's, or the defaults when it carries none (a platform
  // built in code rather than loaded).
  template <class Group>
  const Group& get() const {
    const auto it = m_groups.find(Group::kGroup);
    if (it == m_groups.end()) {
      static const Group defaults{};
      return defaults;
    }
    return static_cast<const Group&>(*it->second);
  }
  // The group's settings to change, added with its defaults when absent.
  template <class Group>
  Group& edit() {
    auto it = m_groups.find(Group::kGroup);
    if (it == m_groups.end()) {
      it = m_groups.emplace(std::string(Group::kGroup), std::make_unique<Group>()).first;
    }
    return static_cast<Group&>(*it->second);
  }

  // Adds `group` unless one of its name is held already.
  void add(std::unique_ptr<SettingsGroup> group);
  // The keys of every group held, bound to their fields; and their renamed keys.
  std::vector<KeyDef> keys();
  std::vector<RenamedKey> renamed() const;

 private:
  std::map<std::string, std::unique_ptr<SettingsGroup>, std::less<>> m_groups;
};

}  // namespace ssd::config
