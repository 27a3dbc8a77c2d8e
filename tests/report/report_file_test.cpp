// write_report_json: a complete, parsable report.json, no temporary left, errors naming the path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace ssd::report {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class ReportFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_root = fs::temp_directory_path() /
             ("ssd_report_test_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(m_root);
    fs::create_directories(m_root);
  }
  void TearDown() override { fs::remove_all(m_root); }

  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  static RunReport sample() {
    RunReport r;
    r.scheme = "page";
    r.reads = 3;
    r.latency_read.record(1000);
    r.latency_read.record(2000);
    r.latency_read.record(3000);
    r.simulated_ns = 1000000;
    r.wall_s = 0.01;
    return r;
  }

  fs::path m_root;
};

TEST_F(ReportFile, WritesParsablePrettyFileAndNoTemporary) {
  const fs::path dir = m_root / "a" / "b";  // created, parents included
  const RunReport r = sample();
  write_report_json(r, dir.string());

  ASSERT_TRUE(fs::exists(dir / "report.json"));
  EXPECT_FALSE(fs::exists(dir / "report.json.tmp"));
  const std::string text = read(dir / "report.json");
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text, to_json(r).dump(2) + "\n");  // 2-space indent
  EXPECT_EQ(nlohmann::json::parse(text), to_json(r));
}

TEST_F(ReportFile, ReplacesAnExistingReport) {
  RunReport r = sample();
  write_report_json(r, m_root.string());
  r.reads = 99;
  write_report_json(r, m_root.string());
  const auto j = nlohmann::json::parse(read(m_root / "report.json"));
  EXPECT_EQ(j["requests"]["read"], 99u);
  EXPECT_FALSE(fs::exists(m_root / "report.json.tmp"));
}

TEST_F(ReportFile, ImpossibleDirectoryThrowsNamingThePath) {
  const fs::path blocker = m_root / "not_a_dir";
  std::ofstream(blocker) << "x";
  const fs::path dir = blocker / "reports";
  try {
    write_report_json(sample(), dir.string());
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.string()), std::string::npos) << e.what();
  }
}

TEST_F(ReportFile, UnwritableTargetThrowsAndLeavesNoTemporary) {
  // report.json as a non-empty directory: the rename cannot replace it.
  fs::create_directories(m_root / "report.json" / "occupied");
  try {
    write_report_json(sample(), m_root.string());
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find((m_root / "report.json").string()), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(m_root / "report.json.tmp"));
}

TEST_F(ReportFile, NonUtf8TextDoesNotAbortTheWrite) {
  RunReport r = sample();
  r.integrity_first_mismatch = std::string("bad \xff byte");
  write_report_json(r, m_root.string());
  const auto j = nlohmann::json::parse(read(m_root / "report.json"));
  EXPECT_TRUE(j["integrity"]["first_mismatch"].is_string());
}

}  // namespace
}  // namespace ssd::report
