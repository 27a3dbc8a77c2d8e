// Helpers for the trace tests: temporary trace files (plain or gzip), scanning a text as a trace
// of a given format, and the path of a bundled trace.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <zlib.h>

#include "workload/trace/trace_scan.h"

namespace ssd::workload::testing {

inline std::string bundled_trace(const std::string& name) {
  return std::string(SSD_SOURCE_DIR) + "/scenarios/traces/" + name;
}

// A file in a per-test temporary folder, removed with the folder at the end of the process.
inline std::string temp_path(const std::string& name) {
  static const std::filesystem::path folder = [] {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("ssd-trace-tests-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string test = info ? info->name() : "x";
  for (char& c : test) c = c == '/' ? '-' : c;  // parameterised names hold slashes
  return (folder / (test + "-" + name)).string();
}

inline std::string write_file(const std::string& name, const std::string& content) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

inline std::string write_gzip(const std::string& name, const std::string& content) {
  const std::string path = temp_path(name);
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, content.data(), static_cast<unsigned>(content.size()));
  gzclose(file);
  return path;
}

inline TraceSpec spec_for(const std::string& path, TraceFormat format, char action = 'Q') {
  TraceSpec spec;
  spec.path = path;
  spec.format = format;
  spec.blkparse_action = action;
  return spec;
}

// The message scan_trace throws for `content` read as `format`, or "" when it is accepted.
inline std::string scan_error(const std::string& content, TraceFormat format) {
  const std::string path = write_file("trace.txt", content);
  try {
    scan_trace(spec_for(path, format));
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace ssd::workload::testing
