// Writing report.json (and fio.json, report/fio_json.h) to disk.
//
// A document goes to NAME.tmp first and is renamed over report.json only once complete,
// so a crash or a full disk never leaves a truncated report that a sweep script would half-read.
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what, const fs::path& path, const std::string& why) {
  throw std::runtime_error(what + " '" + path.string() + "': " + why);
}

// Writes `text` as `dir`/`name` (made if missing) through NAME.tmp, renamed once complete.
void write_text_file(const std::string& text, const std::string& dir, const std::string& name) {
  const fs::path directory = dir.empty() ? fs::path(".") : fs::path(dir);
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) fail("cannot create report directory", directory, ec.message());

  const fs::path final_path = directory / name;
  const fs::path tmp_path = directory / (name + ".tmp");
  {
    std::ofstream out(tmp_path, std::ios::binary | std::ios::trunc);
    // iostreams keep no error code; on POSIX the failed open() left its reason in errno.
    if (!out) fail("cannot open", tmp_path, std::generic_category().message(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp_path, ec);  // best effort: the write error is the one to report
      fail("cannot write", tmp_path, "write failed");
    }
  }
  fs::rename(tmp_path, final_path, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp_path, ec);
    fail("cannot rename report to", final_path, why);
  }
}

}  // namespace

void write_report_json(const RunReport& report, const std::string& dir) {
  write_json_file(to_json(report), dir, "report.json");
}

void write_json_file(const nlohmann::json& document, const std::string& dir,
                     const std::string& name) {
  write_text_file(document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                  dir, name);
}

void write_json_file(const nlohmann::ordered_json& document, const std::string& dir,
                     const std::string& name) {
  write_text_file(
      document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n", dir,
      name);
}

}  // namespace ssd::report
