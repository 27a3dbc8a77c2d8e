#include "config/key_def.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ssd::config {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Whole numbers print without a fraction so messages read "must be >= 1", not "1.000000".
std::string number_text(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  std::ostringstream out;
  out.precision(15);
  out << value;
  return out.str();
}

// Edit distance, for the "did you mean" hint on misspelt keys.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The numbers a key holds: one for a numeric key, each element for a list, none otherwise.
std::vector<double> numeric_values(const KeyDef& key) {
  if (auto p = std::get_if<uint32_t*>(&key.field)) return {static_cast<double>(**p)};
  if (auto p = std::get_if<uint64_t*>(&key.field)) return {static_cast<double>(**p)};
  if (auto p = std::get_if<double*>(&key.field)) return {**p};
  if (auto p = std::get_if<std::vector<double>*>(&key.field)) return **p;
  if (auto p = std::get_if<std::vector<uint32_t>*>(&key.field)) {
    return std::vector<double>((*p)->begin(), (*p)->end());
  }
  return {};
}

// A list of one prints as its value, so a scalar setting reads back as it was written.
template <typename Number>
std::string list_text(const std::vector<Number>& values) {
  if (values.size() == 1) return number_text(static_cast<double>(values[0]));
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    text += (i ? ", " : "") + number_text(static_cast<double>(values[i]));
  }
  return text + "]";
}

}  // namespace

bool Range::contains(double value) const {
  const bool above_min = min_open ? value > min : value >= min;
  const bool below_max = max_open ? value < max : value <= max;
  return above_min && below_max;
}

std::string Range::describe() const {
  if (max == kInf) return std::string(min_open ? "must be > " : "must be >= ") + number_text(min);
  return "must be in " + std::string(min_open ? "(" : "[") + number_text(min) + ", " +
         number_text(max) + (max_open ? ")" : "]");
}

Range positive() { return {0.0, kInf, true, false}; }
Range at_least(double min) { return {min, kInf, false, false}; }
Range closed(double min, double max) { return {min, max, false, false}; }
Range open(double min, double max) { return {min, max, true, true}; }
Range left_open(double min, double max) { return {min, max, true, false}; }

KeyType key_type(const KeyDef& key) {
  switch (key.field.index()) {
    case 0:
    case 1:
      return KeyType::unsigned_integer;
    case 2:
      return KeyType::number;
    case 3:
      return KeyType::string;
    case 4:
      return KeyType::boolean;
    case 5:
      return KeyType::number_list;
    default:
      return KeyType::unsigned_list;
  }
}

std::string_view type_name(KeyType type) {
  switch (type) {
    case KeyType::unsigned_integer:
      return "unsigned integer";
    case KeyType::number:
      return "number";
    case KeyType::string:
      return "string";
    case KeyType::boolean:
      return "boolean";
    case KeyType::number_list:
      return "number or list of numbers";
    case KeyType::unsigned_list:
      return "list of unsigned integers";
  }
  return "?";
}

std::string value_text(const KeyDef& key) {
  if (auto p = std::get_if<uint32_t*>(&key.field)) return std::to_string(**p);
  if (auto p = std::get_if<uint64_t*>(&key.field)) return std::to_string(**p);
  if (auto p = std::get_if<double*>(&key.field)) return number_text(**p);
  if (auto p = std::get_if<std::string*>(&key.field)) return "'" + **p + "'";
  if (auto p = std::get_if<std::vector<double>*>(&key.field)) return list_text(**p);
  if (auto p = std::get_if<std::vector<uint32_t>*>(&key.field)) return list_text(**p);
  return *std::get<bool*>(key.field) ? "true" : "false";
}

bool contains(const std::vector<std::string_view>& words, std::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

const KeyDef* find_key(const std::vector<KeyDef>& keys, std::string_view name) {
  auto it = std::find_if(keys.begin(), keys.end(), [&](const KeyDef& k) { return k.name == name; });
  return it == keys.end() ? nullptr : &*it;
}

KeyDef* find_key(std::vector<KeyDef>& keys, std::string_view name) {
  auto it = std::find_if(keys.begin(), keys.end(), [&](const KeyDef& k) { return k.name == name; });
  return it == keys.end() ? nullptr : &*it;
}

std::vector<std::string_view> key_names(const std::vector<KeyDef>& keys) {
  std::vector<std::string_view> names;
  names.reserve(keys.size());
  for (const KeyDef& key : keys) names.push_back(key.name);
  return names;
}

std::string suggestion(const std::vector<std::string_view>& candidates, std::string_view name) {
  std::string_view best;
  size_t best_distance = 3;  // beyond two edits a hint is more noise than help
  for (std::string_view candidate : candidates) {
    const size_t d = edit_distance(candidate, name);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best.empty() ? "" : " (did you mean '" + std::string(best) + "'?)";
}

std::string KeyList::unknown_key_reason(std::string_view name) const {
  for (const RenamedKey& renamed_key : renamed) {
    if (renamed_key.old_name == name) {
      return "renamed to '" + std::string(renamed_key.new_name) + "'";
    }
  }
  return "unknown key" + suggestion(key_names(keys), name);
}

std::optional<KeyProblem> check_key_bounds(const std::vector<KeyDef>& keys) {
  for (const KeyDef& key : keys) {
    const std::vector<double> values = numeric_values(key);
    for (size_t i = 0; key.range && i < values.size(); ++i) {
      if (key.range->contains(values[i])) continue;
      const std::string which = values.size() > 1 ? "each element " : "";
      return KeyProblem{std::string(key.name),
                        which + key.range->describe() + " (got " + value_text(key) + ")"};
    }
    auto text = std::get_if<std::string*>(&key.field);
    if (text && !key.choices.empty() && !contains(key.choices, **text)) {
      std::string words;
      for (std::string_view choice : key.choices) {
        words += (words.empty() ? "" : ", ") + std::string(choice);
      }
      return KeyProblem{std::string(key.name),
                        "must be one of: " + words + " (got " + value_text(key) + ")"};
    }
  }
  return std::nullopt;
}

}  // namespace ssd::config
