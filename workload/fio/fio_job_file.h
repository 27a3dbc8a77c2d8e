// An fio job file as fio reads it (fio's HOWTO, "Job file format"): an INI file of sections, each
// `[name]` a job except `[global]`, whose options every later job starts from; `key=value` or a
// bare `key` (a flag) per line; lines starting with `#` or `;` are comments. What the options
// mean is fio_jobs.h's business: this only reads them, each with its line for error messages.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssd::workload {

// A job file that cannot be used: the message names the file, the line and the option.
class FioJobError : public std::runtime_error {
 public:
  explicit FioJobError(const std::string& message) : std::runtime_error(message) {}
};

struct FioOption {
  std::string key;    // lower case, as fio matches option names
  std::string value;  // "" for a bare flag
  bool flag = false;  // written without '='
  uint64_t line = 0;
};

struct FioJobSection {
  std::string name;
  uint64_t line = 0;
  std::vector<FioOption> globals;  // the [global] options in force where the job begins, in order
  std::vector<FioOption> options;  // its own, in order
};

struct FioJobFile {
  std::string path;
  std::vector<FioOption> globals;  // every [global] option, in order (fio's "global options")
  std::vector<FioJobSection> jobs;
};

// Reads `path`. Throws FioJobError for a file that cannot be read, a line outside any section,
// a malformed section header or option, fio's `include` directive and `${VAR}` expansion (not
// supported), and a file with no job.
FioJobFile read_fio_job_file(const std::string& path);
// The same from text (tests); `path` only names it in messages.
FioJobFile parse_fio_job_file(const std::string& text, const std::string& path);

}  // namespace ssd::workload
