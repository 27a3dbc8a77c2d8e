// Hand parsing of trace fields: splitting a line without copying, unsigned integers and decimal
// times. No iostreams, no locale, no allocation on the good path: parsing must run at millions of
// lines per second. On failure the helpers return a reason a user can act on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ssd::workload {

// Splits `line` at `separator` (',' keeps empty fields; ' ' splits on runs of spaces and tabs and
// ignores leading/trailing blanks). Stores at most `max` fields and returns how many there are in
// all (which may exceed `max`). Fields of a comma split are trimmed of surrounding blanks.
size_t split_fields(std::string_view line, char separator, std::string_view* fields, size_t max);

// A field as an unsigned integer. Empty on success, else the reason ("negative", "not a number").
std::string parse_unsigned(std::string_view field, std::string_view what, uint64_t& value);

// A non-negative decimal number such as "12.000345" in some unit, as whole nanoseconds:
// `ns_per_unit` is 1e9 for seconds, 1e6 for milliseconds. Digits beyond nanoseconds are dropped.
std::string parse_decimal_ns(std::string_view field, std::string_view what, uint64_t ns_per_unit,
                             uint64_t& ns);

// Case-insensitive ASCII comparison, for opcodes such as "Read" / "read" / "R".
bool equals_ignore_case(std::string_view a, std::string_view b);

}  // namespace ssd::workload
