#include "tools/ssdsim/bundled_file.h"

#include <filesystem>

namespace ssd::tools {

std::string bundled_file(const std::string& relative) {
  namespace fs = std::filesystem;
  if (fs::exists(relative)) return relative;
  const fs::path in_source = fs::path(SSD_SOURCE_DIR) / relative;
  return fs::exists(in_source) ? in_source.string() : relative;
}

}  // namespace ssd::tools
