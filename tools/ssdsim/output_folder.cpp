#include "tools/ssdsim/output_folder.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace ssd::tools {

namespace fs = std::filesystem;

namespace {

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return stamp;
}

// A folder is usable when a file can be made in it: permissions alone do not tell (root writes
// anywhere but on a read-only file system or in /proc).
void check_writable(const fs::path& folder) {
  const fs::path probe = folder / (".ssdsim-write-check-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    throw std::runtime_error("--out " + folder.string() +
                             ": cannot create a file in this folder (" + std::strerror(errno) +
                             ")");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace

OutputFolder prepare_output_folder(const std::string& requested) {
  OutputFolder folder;
  std::error_code error;
  if (requested.empty()) {
    // A fresh folder every run: create_directory() fails on one that exists, so a second run in
    // the same second takes the next suffix instead of writing over the first.
    const std::string base = "results/" + timestamp();
    fs::create_directories("results", error);
    for (int n = 1; n < 1000; ++n) {
      const std::string candidate = n == 1 ? base : base + "-" + std::to_string(n);
      if (fs::create_directory(candidate, error)) {
        folder.path = candidate;
        folder.created = true;
        check_writable(candidate);
        return folder;
      }
      if (error) break;
    }
    throw std::runtime_error("cannot make a results folder under results/" +
                             (error ? ": " + error.message() : std::string()));
  }
  folder.path = requested;
  if (fs::exists(requested, error)) {
    if (!fs::is_directory(requested, error)) {
      throw std::runtime_error("--out " + requested + ": exists and is not a folder");
    }
  } else {
    if (!fs::create_directories(requested, error) || error) {
      throw std::runtime_error("--out " + requested + ": cannot make the folder: " +
                               (error ? error.message() : std::string("unknown error")));
    }
    folder.created = true;
  }
  check_writable(requested);
  return folder;
}

void discard_output_folder(const OutputFolder& folder) {
  if (!folder.created) return;
  std::error_code ignored;
  if (fs::is_empty(folder.path, ignored)) fs::remove(folder.path, ignored);
}

}  // namespace ssd::tools
