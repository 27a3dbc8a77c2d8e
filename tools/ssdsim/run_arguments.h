// What `ssdsim run` was asked on its command line, and the key assignments it makes of it. Every
// option that sets a key (--set and its shorthands --ftl, --trace, --trace-format, --device,
// --fit, --skip-bad-lines) is applied in command-line order, so when two of them set the same key
// the later one wins (docs/configuration.md); each assignment remembers its option, so a bad
// value is reported against the option the user typed.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ssd::tools {

struct RunArguments {
  std::string platform;
  std::string scenario;
  std::string out;
  bool quiet = false;
  bool check = false;    // --check: load and check the configuration, run nothing
  std::string waveform;  // FST of the RTL accelerator's signals
  std::string trace;     // the file --trace names ("" without it)
  std::string fio;       // the fio job file --fio names ("" without it; docs/clients.md)
  std::string output_format = "normal";  // --output-format: normal, json or json+ (fio.json)
  // The key assignments of the key-setting options, in command-line order, and the option each
  // came from ("--set", "--fit", ...).
  std::vector<std::string> assignments;
  std::vector<std::string> sources;
};

// Declares the run subcommand's options on `run`; call collect() once it has parsed. `soak`:
// the soak subcommand, which takes the same options and --cuts N (power.cuts: cut the power N
// times, recover and go on, in one process; docs/power-loss.md).
class RunCommandLine {
 public:
  explicit RunCommandLine(CLI::App& run, bool soak = false);
  RunArguments collect() const;

 private:
  CLI::App& m_run;
  RunArguments m_args;
  // Bound to the options so CLI11 parses them; collect() reads every occurrence's value.
  std::vector<std::string> m_sets;
  std::string m_ftl, m_trace_format, m_device, m_fit;
  bool m_skip_bad_lines = false;
  CLI::Option* m_set_option = nullptr;
  CLI::Option* m_ftl_option = nullptr;
  CLI::Option* m_trace_option = nullptr;
  CLI::Option* m_trace_format_option = nullptr;
  CLI::Option* m_device_option = nullptr;
  CLI::Option* m_fit_option = nullptr;
  CLI::Option* m_skip_option = nullptr;
  std::string m_cuts;
  CLI::Option* m_cuts_option = nullptr;
};

}  // namespace ssd::tools
