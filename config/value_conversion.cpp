#include "config/value_conversion.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace ssd::config {

namespace {

std::string_view node_kind(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    default:
      return "a date or time";
  }
}

std::string expected(const KeyDef& key, const toml::node& node) {
  return "expected " + std::string(type_name(key_type(key))) + ", got " +
         std::string(node_kind(node));
}

template <typename Uint>
std::optional<std::string> assign_unsigned(Uint* field, const KeyDef& key, const toml::node& node) {
  const toml::value<int64_t>* integer = node.as_integer();
  if (!integer) return expected(key, node);
  const int64_t value = integer->get();
  if (value < 0) return "must not be negative (got " + std::to_string(value) + ")";
  if (static_cast<uint64_t>(value) > std::numeric_limits<Uint>::max()) {
    return "must be at most " + std::to_string(std::numeric_limits<Uint>::max()) + " (got " +
           std::to_string(value) + ")";
  }
  *field = static_cast<Uint>(value);
  return std::nullopt;
}

std::optional<std::string> assign_number(double* field, const KeyDef& key, const toml::node& node) {
  double value = 0.0;
  if (const auto* integer = node.as_integer()) {
    value = static_cast<double>(integer->get());  // "3" is a fine number of microseconds
  } else if (const auto* floating = node.as_floating_point()) {
    value = floating->get();
  } else {
    return expected(key, node);
  }
  if (!std::isfinite(value)) return "must be a finite number";
  *field = value;
  return std::nullopt;
}

// A TOML array, or one value as a list of one; each element converted as a scalar key would be.
// A number list must hold at least one number (a timing list without a value has no meaning);
// an unsigned list may be empty (its key's default rule then applies).
template <typename Element>
std::optional<std::string> assign_list(std::vector<Element>* field, const KeyDef& key,
                                       const toml::node& node) {
  std::vector<Element> values;
  const auto assign_one = [&](const toml::node& element) -> std::optional<std::string> {
    Element value{};
    const KeyDef scalar{key.name, &value, key.description};
    if (auto reason = assign_node(scalar, element)) return reason;
    values.push_back(value);
    return std::nullopt;
  };
  if (const toml::array* array = node.as_array()) {
    for (size_t i = 0; i < array->size(); ++i) {
      if (auto reason = assign_one(*array->get(i))) {
        return "element " + std::to_string(i) + ": " + *reason;
      }
    }
    if (values.empty() && std::is_same_v<Element, double>) return "must not be an empty list";
  } else if (auto reason = assign_one(node)) {
    return reason;
  }
  *field = std::move(values);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> assign_node(const KeyDef& key, const toml::node& node) {
  if (auto field = std::get_if<uint32_t*>(&key.field)) return assign_unsigned(*field, key, node);
  if (auto field = std::get_if<uint64_t*>(&key.field)) return assign_unsigned(*field, key, node);
  if (auto field = std::get_if<double*>(&key.field)) return assign_number(*field, key, node);
  if (auto field = std::get_if<std::vector<double>*>(&key.field)) {
    return assign_list(*field, key, node);
  }
  if (auto field = std::get_if<std::vector<uint32_t>*>(&key.field)) {
    return assign_list(*field, key, node);
  }
  if (auto field = std::get_if<std::string*>(&key.field)) {
    const toml::value<std::string>* text = node.as_string();
    if (!text) return expected(key, node);
    **field = text->get();
    return std::nullopt;
  }
  const toml::value<bool>* flag = node.as_boolean();
  if (!flag) return expected(key, node);
  *std::get<bool*>(key.field) = flag->get();
  return std::nullopt;
}

std::optional<std::string> assign_text(const KeyDef& key, std::string_view text) {
  const bool quoted = !text.empty() && (text.front() == '"' || text.front() == '\'');
  if (key_type(key) == KeyType::string && !quoted) {
    *std::get<std::string*>(key.field) = std::string(text);
    return std::nullopt;
  }
  // Parse as the right-hand side of a one-line TOML document, so --set accepts exactly what a
  // file would (1_000, 0x10, 1e3, 'single quotes').
  const std::string bad_value =
      "expected " + std::string(type_name(key_type(key))) + ", got '" + std::string(text) + "'";
  const std::string document = "value = " + std::string(text);
  try {
    const toml::table doc = toml::parse(std::string_view(document), std::string_view("--set"));
    const toml::node* value = doc.get("value");
    if (doc.size() != 1 || !value) return bad_value;
    return assign_node(key, *value);
  } catch (const toml::parse_error&) {
    return bad_value;
  }
}

}  // namespace ssd::config
