#include "workload/fio/fio_job_file.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace ssd::workload {

namespace {

std::string trim(const std::string& text) {
  const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  const auto first = std::find_if_not(text.begin(), text.end(), blank);
  const auto last = std::find_if_not(text.rbegin(), text.rend(), blank).base();
  return first < last ? std::string(first, last) : std::string();
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string where(const std::string& path, uint64_t line) {
  return path + ":" + std::to_string(line) + ": ";
}

}  // namespace

FioJobFile parse_fio_job_file(const std::string& text, const std::string& path) {
  FioJobFile file;
  file.path = path;
  std::istringstream in(text);
  std::string raw;
  uint64_t line = 0;
  bool in_global = false;
  while (std::getline(in, raw)) {
    ++line;
    const std::string content = trim(raw);
    if (content.empty() || content[0] == '#' || content[0] == ';') continue;
    if (content[0] == '[') {
      if (content.back() != ']' || content.size() < 3) {
        throw FioJobError(where(path, line) + "a section header must be [name]: `" + content + "`");
      }
      const std::string name = trim(content.substr(1, content.size() - 2));
      if (name.empty()) throw FioJobError(where(path, line) + "a section needs a name");
      in_global = lower(name) == "global";
      if (!in_global) file.jobs.push_back({name, line, file.globals, {}});
      continue;
    }
    if (content.rfind("include ", 0) == 0) {
      throw FioJobError(where(path, line) + "`include` is not supported: put the options here");
    }
    if (content.find("${") != std::string::npos) {
      throw FioJobError(where(path, line) +
                        "environment variables (${...}) are not expanded: write the value");
    }
    if (!in_global && file.jobs.empty()) {
      throw FioJobError(where(path, line) + "option `" + content + "` before any [section]");
    }
    FioOption option;
    option.line = line;
    const size_t equals = content.find('=');
    option.flag = equals == std::string::npos;
    option.key = lower(trim(content.substr(0, equals)));
    if (!option.flag) option.value = trim(content.substr(equals + 1));
    if (option.key.empty()) throw FioJobError(where(path, line) + "an option needs a name");
    if (!option.flag && option.value.empty()) {
      throw FioJobError(where(path, line) + "option `" + option.key + "` has `=` but no value");
    }
    if (in_global) {
      file.globals.push_back(option);
    } else {
      file.jobs.back().options.push_back(option);
    }
  }
  if (file.jobs.empty()) throw FioJobError(path + ": no job: the file has only [global] options");
  return file;
}

FioJobFile read_fio_job_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw FioJobError(path + ": cannot open the fio job file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_fio_job_file(text.str(), path);
}

}  // namespace ssd::workload
