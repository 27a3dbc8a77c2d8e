// The one error a trace can raise: where (file and line, 0 when the problem is the file itself),
// why, and the offending line's text, formatted "FILE:LINE: reason: `text`" so an editor can jump
// to it. Bad input, not a simulator failure: ssdsim exits 1 on it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ssd::workload {

class TraceError : public std::runtime_error {
 public:
  // A message already in the FILE:LINE: form (passed on from an earlier pass).
  explicit TraceError(const std::string& message) : std::runtime_error(message) {}
  TraceError(const std::string& file, uint64_t line, const std::string& reason,
             const std::string& text = "")
      : std::runtime_error(format(file, line, reason, text)) {}

  static std::string format(const std::string& file, uint64_t line, const std::string& reason,
                            const std::string& text) {
    std::string where = file;
    if (line != 0) where += ":" + std::to_string(line);
    std::string message = where + ": " + reason;
    if (!text.empty()) message += ": `" + text + "`";
    return message;
  }
};

}  // namespace ssd::workload
