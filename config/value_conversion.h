// Converts TOML values and --set text into a key's field, enforcing the key's type: unsigned keys
// take non-negative integers that fit the field, number keys take floats or integers, strings
// and booleans take only their own kind. Returns the reason on failure and leaves the field as is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "config/key_registry.h"

namespace ssd::config {

std::optional<std::string> assign_node(const KeyDef& key, const toml::node& node);

// --set text: a TOML value ("8", "0.5", "true", "\"page\""); for string keys bare words are
// accepted too ("page"), since shells make quoting awkward.
std::optional<std::string> assign_text(const KeyDef& key, std::string_view text);

}  // namespace ssd::config
