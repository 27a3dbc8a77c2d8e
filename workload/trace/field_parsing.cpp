#include "workload/trace/field_parsing.h"

#include <limits>

namespace ssd::workload {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view text) {
  size_t first = 0;
  while (first < text.size() && is_blank(text[first])) ++first;
  size_t last = text.size();
  while (last > first && is_blank(text[last - 1])) --last;
  return text.substr(first, last - first);
}

// Printable excerpt of a bad field for messages; binary bytes would garble the terminal.
std::string shown(std::string_view field) {
  std::string out;
  for (char c : field.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (field.size() > 40) out += "...";
  return out;
}

std::string not_a_number(std::string_view field, std::string_view what) {
  return std::string(what) + " is not a number ('" + shown(field) + "')";
}

}  // namespace

size_t split_fields(std::string_view line, char separator, std::string_view* fields, size_t max) {
  size_t count = 0;
  if (separator == ' ') {
    size_t i = 0;
    while (true) {
      while (i < line.size() && is_blank(line[i])) ++i;
      if (i >= line.size()) return count;
      const size_t start = i;
      while (i < line.size() && !is_blank(line[i])) ++i;
      if (count < max) fields[count] = line.substr(start, i - start);
      ++count;
    }
  }
  size_t start = 0;
  while (true) {
    const size_t end = line.find(separator, start);
    const std::string_view field =
        line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (count < max) fields[count] = trim(field);
    ++count;
    if (end == std::string_view::npos) return count;
    start = end + 1;
  }
}

std::string parse_unsigned(std::string_view field, std::string_view what, uint64_t& value) {
  if (field.empty()) return std::string(what) + " is empty";
  if (field[0] == '-') {
    return field.size() > 1 && field[1] >= '0' && field[1] <= '9'
               ? std::string(what) + " is negative (" + shown(field) + ")"
               : not_a_number(field, what);
  }
  uint64_t result = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (char c : field) {
    if (c < '0' || c > '9') return not_a_number(field, what);
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (result > (kMax - digit) / 10)
      return std::string(what) + " is too large (" + shown(field) + ")";
    result = result * 10 + digit;
  }
  value = result;
  return {};
}

std::string parse_decimal_ns(std::string_view field, std::string_view what, uint64_t ns_per_unit,
                             uint64_t& ns) {
  const size_t dot = field.find('.');
  const std::string_view whole = field.substr(0, dot);
  uint64_t units = 0;
  if (whole.empty() && dot != std::string_view::npos && dot + 1 < field.size()) {
    units = 0;  // ".5"
  } else if (std::string reason = parse_unsigned(whole, what, units); !reason.empty()) {
    return reason;
  }
  if (units > std::numeric_limits<uint64_t>::max() / ns_per_unit) {
    return std::string(what) + " is too large (" + shown(field) + ")";
  }
  uint64_t fraction_ns = 0;
  if (dot != std::string_view::npos) {
    const std::string_view fraction = field.substr(dot + 1);
    uint64_t scale = ns_per_unit;
    for (char c : fraction) {
      if (c < '0' || c > '9') return not_a_number(field, what);
      scale /= 10;  // digits past a nanosecond weigh 0 and are dropped
      fraction_ns += static_cast<uint64_t>(c - '0') * scale;
    }
  }
  ns = units * ns_per_unit + fraction_ns;
  return {};
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace ssd::workload
