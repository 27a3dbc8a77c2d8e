// ssdsim: the command-line front end. `ssdsim run` loads a platform and a scenario (the bundled
// defaults when none is given), applies --set overrides, preconditions the device, runs the
// simulation, writes DIR/report.json and prints a summary.
// Exit status: 0 success, 1 bad input (nothing ran), 2 integrity mismatch, 3 run failed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <systemc>

#include "config/config_loader.h"
#include "ftl/scheme_registry.h"
#include "models/platform/ssd_platform.h"
#include "report/run_report.h"
#include "workload/trace/trace_error.h"

namespace {

namespace fs = std::filesystem;

constexpr int kExitBadInput = 1;
constexpr int kExitMismatch = 2;
constexpr int kExitRunFailed = 3;

struct RunArguments {
  std::string platform;
  std::string scenario;
  std::string ftl;
  std::vector<std::string> sets;
  std::string out;
  bool quiet = false;
  std::string waveform;  // FST of the RTL accelerator's signals
  // Trace replay sugar for --set workload.*.
  std::string trace;
  std::string trace_format;
  std::string device;
  std::string fit;
  bool skip_bad_lines = false;
};

// --trace and friends become --set assignments placed before the user's own, so an explicit
// --set still wins. --trace alone replays the whole trace open loop at trace time.
std::vector<std::string> trace_overrides(const RunArguments& args) {
  std::vector<std::string> sets;
  if (!args.trace.empty()) {
    sets = {"workload.kind=trace", "workload.trace_file=" + args.trace, "workload.requests=0",
            "workload.mode=open"};
  }
  if (!args.trace_format.empty()) sets.push_back("workload.trace_format=" + args.trace_format);
  if (!args.device.empty()) sets.push_back("workload.device=" + args.device);
  if (!args.fit.empty()) sets.push_back("workload.fit=" + args.fit);
  if (args.skip_bad_lines) sets.push_back("workload.skip_bad_lines=true");
  return sets;
}

// A bundled file: as given relative to the working directory, else relative to the source tree.
std::string bundled(const std::string& relative) {
  if (fs::exists(relative)) return relative;
  const fs::path in_source = fs::path(SSD_SOURCE_DIR) / relative;
  return fs::exists(in_source) ? in_source.string() : relative;
}

std::string default_out_dir() {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return std::string("results/") + stamp;
}

// "" when the accelerator settings can run in this build; --waveform needs the RTL in the loop.
std::string accelerator_problem(const ssd::config::LoadedConfig& config, const RunArguments& args) {
  const std::string where =
      (config.platform_path.empty() ? std::string("defaults") : config.platform_path) +
      " / --set: ";
  const bool accelerated = ssd::models::uses_accelerator(config.platform);
  if (accelerated) {
    if (std::string problem = ssd::models::accelerator_problem(config.platform.accelerator);
        !problem.empty()) {
      return where + problem;
    }
  }
  if (!args.waveform.empty() && (!accelerated || config.platform.accelerator.engine != "rtl")) {
    return "--waveform: waveforms come from the RTL accelerator; set --ftl vet, "
           "ftl.vet.hash_backend=accelerator and accelerator.engine=rtl";
  }
  return "";
}

int run_simulation(const RunArguments& args) {
  std::vector<std::string> overrides = trace_overrides(args);
  overrides.insert(overrides.end(), args.sets.begin(), args.sets.end());
  if (!args.ftl.empty()) overrides.push_back("ftl.scheme=" + args.ftl);
  ssd::config::LoadedConfig config;
  try {
    config = ssd::config::load_config(
        args.platform.empty() ? bundled("platforms/default.toml") : args.platform,
        args.scenario.empty() ? bundled("scenarios/default.toml") : args.scenario, overrides,
        ssd::ftl::scheme_catalog());
  } catch (const ssd::config::ConfigError& error) {
    std::cerr << "ssdsim: " << error.what() << '\n';
    return kExitBadInput;
  }
  if (const std::string problem = accelerator_problem(config, args); !problem.empty()) {
    std::cerr << "ssdsim: " << problem << '\n';
    return kExitBadInput;
  }
  const std::string out_dir = args.out.empty() ? default_out_dir() : args.out;
  const fs::path log_path = fs::path(out_dir) / "requests.csv";
  const fs::path log_tmp = fs::path(out_dir) / "requests.csv.tmp";
  std::unique_ptr<std::ofstream> request_log;
  const bool out_existed = fs::exists(out_dir);
  // Undoes what a run that ends in an error wrote: the partial request log, and the output
  // folder when this run created it and it is empty.
  const auto discard_outputs = [&] {
    if (request_log) {
      request_log->close();
      std::error_code ignored;
      fs::remove(log_tmp, ignored);
    }
    std::error_code ignored;
    if (!out_existed && fs::is_empty(out_dir, ignored)) fs::remove(out_dir, ignored);
  };
  try {
    ssd::models::PlatformRunOptions options;
    options.progress = config.scenario.run.progress && !args.quiet;
    options.accelerator_waveform = args.waveform;
    if (config.scenario.run.request_log) {
      fs::create_directories(out_dir);
      request_log = std::make_unique<std::ofstream>(log_tmp);
      if (!*request_log) throw std::runtime_error("cannot write " + log_tmp.string());
      options.request_log = request_log.get();
    }
    ssd::models::SsdPlatform platform("ssd", config, options);
    platform.precondition();
    const ssd::report::RunReport report = platform.run();
    if (request_log) {
      request_log->close();
      fs::rename(log_tmp, log_path);
    }
    ssd::report::write_report_json(report, out_dir);
    if (!args.quiet) std::cout << ssd::report::summary_text(report);
    std::cout << "report: " << (fs::path(out_dir) / "report.json").string() << '\n';
    return report.integrity_mismatches == 0 ? 0 : kExitMismatch;
  } catch (const ssd::workload::TraceError& error) {
    // A bad trace (found by the scan before the run, or during the replay) is bad input.
    discard_outputs();
    std::cerr << "ssdsim: " << error.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& error) {
    discard_outputs();
    std::cerr << "ssdsim: run failed: " << error.what() << '\n';
    return kExitRunFailed;
  }
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // The host model ends the run with sc_stop(); that is the normal end, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  CLI::App app{"ssdsim: SystemC/TLM-2.0 SSD co-simulator"};
  app.require_subcommand(1);
  RunArguments args;
  CLI::App* run = app.add_subcommand("run", "simulate a scenario on a platform");
  run->add_option("--platform", args.platform, "platform TOML (default: platforms/default.toml)");
  run->add_option("--scenario", args.scenario, "scenario TOML (default: scenarios/default.toml)");
  run->add_option("--ftl", args.ftl, "mapping scheme (same as --set ftl.scheme=NAME)");
  run->add_option("--set", args.sets, "override a key: section.key=value (repeatable)");
  run->add_option("--out", args.out, "output folder (default: results/<timestamp>)");
  run->add_flag("--quiet", args.quiet, "print only the report path");
  run->add_option("--waveform", args.waveform,
                  "write the RTL accelerator's signals to this FST file (accelerator.engine=rtl)");
  run->add_option("--trace", args.trace,
                  "replay this trace file, open loop at trace time (docs/traces.md)");
  run->add_option("--trace-format", args.trace_format,
                  "trace format: auto, msr, spc, mqsim, disksim, blkparse, fio");
  run->add_option("--device", args.device, "trace devices to replay: all (default) or N");
  run->add_option("--fit", args.fit, "addresses past the device end: error, wrap, scale");
  run->add_flag("--skip-bad-lines", args.skip_bad_lines,
                "skip malformed trace lines (reported) instead of stopping");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : kExitBadInput;
  }
  return run_simulation(args);
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
