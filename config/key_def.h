// One configuration key: its dotted name, the field it fills (and so its type), a one-line
// description, its unit, and the checks that need no other key (numeric range, allowed words).
// Generic: the platform's and scenario's key lists (key_registry.h) and the FTL's settings groups
// (scheme_settings.h) are all made of these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ssd::config {

enum class KeyType { unsigned_integer, number, string, boolean, number_list, unsigned_list };

// The field a key fills. uint32_t and uint64_t are both "unsigned integer" in TOML; the width
// only sets the upper bound. A list key takes a TOML array, or one value as a list of one (so
// `t_program_us = 500` still reads as before); its range applies to every element.
using FieldRef = std::variant<uint32_t*, uint64_t*, double*, std::string*, bool*,
                              std::vector<double>*, std::vector<uint32_t>*>;

// Bounds on a numeric key; either end may be open (excluded) or infinite.
struct Range {
  double min;
  double max;
  bool min_open;
  bool max_open;

  bool contains(double value) const;
  std::string describe() const;  // "must be > 0", "must be in [0, 1]"
};

Range positive();                         // (0, inf)
Range at_least(double min);               // [min, inf)
Range closed(double min, double max);     // [min, max]
Range open(double min, double max);       // (min, max)
Range left_open(double min, double max);  // (min, max]

struct KeyDef {
  std::string_view name;  // "nand.channels"
  FieldRef field;
  std::string_view description;  // one line, shown in docs and error hints
  std::optional<Range> range = std::nullopt;
  std::vector<std::string_view> choices = {};  // allowed words for a string key (empty = any)
};

KeyType key_type(const KeyDef& key);
std::string_view type_name(KeyType type);   // "unsigned integer", "number", "string", ...
std::string value_text(const KeyDef& key);  // the field's current value, as TOML would write it

bool contains(const std::vector<std::string_view>& words, std::string_view word);

const KeyDef* find_key(const std::vector<KeyDef>& keys, std::string_view name);
KeyDef* find_key(std::vector<KeyDef>& keys, std::string_view name);

std::vector<std::string_view> key_names(const std::vector<KeyDef>& keys);

// " (did you mean 'nand.channels'?)" when a candidate is a couple of edits away, else "".
std::string suggestion(const std::vector<std::string_view>& candidates, std::string_view name);

// A key that was renamed: setting the old name is an error that names the new one.
struct RenamedKey {
  std::string_view old_name;
  std::string_view new_name;
};

// The keys one kind of file (or --set target) may set, and the old names of renamed ones.
struct KeyList {
  std::vector<KeyDef> keys;
  std::vector<RenamedKey> renamed;

  // "unknown key (did you mean ...)" or "renamed to '...'", for a name not in `keys`.
  std::string unknown_key_reason(std::string_view name) const;
};

// The range and choice checks of every key; returns the first failure as {key, reason}.
struct KeyProblem {
  std::string key;
  std::string reason;
};
std::optional<KeyProblem> check_key_bounds(const std::vector<KeyDef>& keys);

}  // namespace ssd::config
