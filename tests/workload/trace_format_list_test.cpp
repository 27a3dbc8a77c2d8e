// The trace formats a user can name are the formats the replayer can parse, everywhere they are
// listed: the parser table (workload/trace/trace_format.cpp), the choices of the scenario key
// `workload.trace_format` (config/scenario_keys.cpp, written by hand: config cannot take them from
// workload/, which depends on it), the `--trace-format` help texts of ssdsim and ssd-trace-scan,
// and docs/traces.md. A format added in one place and not the others fails here.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "config/key_registry.h"
#include "workload/trace/trace_format.h"
#include "workload/trace/trace_parser.h"

namespace ssd::workload {
namespace {

using Names = std::set<std::string, std::less<>>;

Names parser_table_names() {
  Names names;
  for (std::string_view name : format_names()) names.emplace(name);
  return names;
}

// The choices of workload.trace_format, without "auto" (detection, not a format).
Names scenario_key_choices() {
  config::ScenarioConfig scenario;
  const std::vector<config::KeyDef> keys = config::scenario_keys(scenario);
  const config::KeyDef* key = config::find_key(keys, "workload.trace_format");
  EXPECT_NE(key, nullptr) << "no scenario key workload.trace_format";
  Names names;
  if (key == nullptr) return names;
  EXPECT_TRUE(config::contains(key->choices, "auto")) << "workload.trace_format lost 'auto'";
  for (std::string_view choice : key->choices) {
    if (choice != "auto") names.emplace(choice);
  }
  return names;
}

std::string read_source(const std::string& relative) {
  const std::string path = std::string(SSD_SOURCE_DIR) + "/" + relative;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The words of the help text of a program's --trace-format option: the statement that adds the
// option, `add_option("--trace-format", variable, "help ...");`, from its third argument to ';'.
std::set<std::string> help_words(const std::string& relative) {
  const std::string source = read_source(relative);
  std::set<std::string> words;
  const size_t option = source.find("\"--trace-format\"");
  EXPECT_NE(option, std::string::npos) << relative << " has no --trace-format option";
  if (option == std::string::npos) return words;
  const std::string statement = source.substr(option, source.find(';', option) - option);
  const size_t help = statement.find('"', statement.find(',', statement.find(',') + 1));
  EXPECT_NE(help, std::string::npos) << relative << ": --trace-format has no help text";
  if (help == std::string::npos) return words;
  std::string word;
  for (char c : statement.substr(help)) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
    } else if (!word.empty()) {
      words.insert(word);
      word.clear();
    }
  }
  return words;
}

std::string join(const Names& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

Names minus(const Names& a, const Names& b) {
  Names out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

TEST(TraceFormatList, EveryNameInTheParserTableHasAParser) {
  ASSERT_FALSE(format_names().empty());
  for (std::string_view name : format_names()) {
    SCOPED_TRACE(std::string(name));
    const std::optional<TraceFormat> format = format_from_name(name);
    ASSERT_TRUE(format.has_value());
    EXPECT_EQ(format_name(*format), name);
    EXPECT_NE(make_parser(*format), nullptr);
  }
  EXPECT_FALSE(format_from_name("auto").has_value()) << "'auto' is detection, not a format";
}

TEST(TraceFormatList, ScenarioKeyChoicesAreTheParserTable) {
  const Names parsers = parser_table_names();
  const Names choices = scenario_key_choices();
  EXPECT_TRUE(minus(choices, parsers).empty())
      << "workload.trace_format (config/scenario_keys.cpp) accepts formats with no parser: "
      << join(minus(choices, parsers));
  EXPECT_TRUE(minus(parsers, choices).empty())
      << "formats the parser table knows but workload.trace_format (config/scenario_keys.cpp) "
         "refuses: "
      << join(minus(parsers, choices));
}

TEST(TraceFormatList, HelpTextsNameEveryFormat) {
  for (const char* program : {"tools/ssdsim/run_arguments.cpp", "tools/trace-scan/main.cpp"}) {
    SCOPED_TRACE(program);
    const std::set<std::string> words = help_words(program);
    EXPECT_TRUE(words.count("auto")) << "--trace-format's help does not name auto";
    for (const std::string& name : parser_table_names()) {
      EXPECT_TRUE(words.count(name)) << "--trace-format's help does not name " << name;
    }
  }
}

TEST(TraceFormatList, DocsDescribeEveryFormat) {
  const std::string doc = read_source("docs/traces.md");
  std::istringstream lines(doc);
  std::string line, key_row;
  std::set<std::string> format_rows;  // first cells "| `name` ..." of the formats table
  while (std::getline(lines, line)) {
    if (line.find("`workload.trace_format`") != std::string::npos && line.rfind("|", 0) == 0) {
      key_row = line;
    }
    if (line.rfind("| `", 0) == 0) {
      const size_t end = line.find('`', 3);
      if (end != std::string::npos) format_rows.insert(line.substr(3, end - 3));
    }
  }
  ASSERT_FALSE(key_row.empty()) << "docs/traces.md has no table row for workload.trace_format";
  EXPECT_NE(key_row.find("`auto`"), std::string::npos);
  for (const std::string& name : parser_table_names()) {
    SCOPED_TRACE(name);
    EXPECT_NE(key_row.find("`" + name + "`"), std::string::npos)
        << "docs/traces.md: the workload.trace_format row does not list `" << name << "`";
    EXPECT_TRUE(format_rows.count(name))
        << "docs/traces.md: the formats table has no row starting with `" << name << "`";
  }
}

}  // namespace
}  // namespace ssd::workload
