// The registry of configuration keys: every TOML key and --set target, with its dotted name, its
// type, the struct field it fills, a one-line description, and the simple checks that need no
// other key (numeric range, allowed words). Checks that relate keys live in the validators.
// A key list is built bound to one config instance, so reading and writing go through it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/platform_config.h"
#include "config/scenario_config.h"

namespace ssd::config {

enum class KeyType { unsigned_integer, number, string, boolean };

// The field a key fills. uint32_t and uint64_t are both "unsigned integer" in TOML; the width
// only sets the upper bound.
using FieldRef = std::variant<uint32_t*, uint64_t*, double*, std::string*, bool*>;

// Bounds on a numeric key; either end may be open (excluded) or infinite.
struct Range {
  double min;
  double max;
  bool min_open;
  bool max_open;

  bool contains(double value) const;
  std::string describe() const;  // "must be > 0", "must be in [0, 1]"
};

Range positive();                      // (0, inf)
Range at_least(double min);            // [min, inf)
Range closed(double min, double max);  // [min, max]
Range open(double min, double max);    // (min, max)

struct KeyDef {
  std::string_view name;  // "nand.channels"
  FieldRef field;
  std::string_view description;  // one line, shown in docs and error hints
  std::optional<Range> range = std::nullopt;
  std::vector<std::string_view> choices = {};  // allowed words for a string key (empty = any)
};

KeyType key_type(const KeyDef& key);
std::string_view type_name(KeyType type);   // "unsigned integer", "number", "string", "boolean"
std::string value_text(const KeyDef& key);  // the field's current value, as TOML would write it

// All keys of one kind, bound to the fields of `config`.
std::vector<KeyDef> platform_keys(PlatformConfig& config);
std::vector<KeyDef> scenario_keys(ScenarioConfig& config);

// Top-level tables each kind of file may contain.
const std::vector<std::string_view>& platform_sections();
const std::vector<std::string_view>& scenario_sections();
bool contains(const std::vector<std::string_view>& words, std::string_view word);

const KeyDef* find_key(const std::vector<KeyDef>& keys, std::string_view name);
KeyDef* find_key(std::vector<KeyDef>& keys, std::string_view name);

std::vector<std::string_view> key_names(const std::vector<KeyDef>& keys);

// " (did you mean 'nand.channels'?)" when a candidate is a couple of edits away, else "".
std::string suggestion(const std::vector<std::string_view>& candidates, std::string_view name);

// The range and choice checks of every key; returns the first failure as {key, reason}.
struct KeyProblem {
  std::string key;
  std::string reason;
};
std::optional<KeyProblem> check_key_bounds(const std::vector<KeyDef>& keys);

}  // namespace ssd::config
