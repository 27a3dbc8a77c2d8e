// ssdsim: the command-line front end. `ssdsim run` loads a platform and a scenario (the bundled
// defaults when none is given), applies the key-setting options in command-line order, checks
// everything it can before the run (configuration, accelerator, host memory, output folder),
// preconditions the device, runs the simulation, writes DIR/report.json and prints a summary.
// `ssdsim soak --cuts N` is the same run with N power cuts (power.cuts; docs/power-loss.md).
// `ssdsim run --check` stops after the checks. `ssdsim serve` serves the device to NBD clients
// through nbdkit (docs/clients.md). `ssdsim sweep` and `ssdsim plot` are the Python
// exploration tools in tools/python/ (docs/exploration.md), started with this program's path.
// Exit status: 0 success, 1 bad input (nothing ran, or the inputs asked for a time past the
// latest simulated time), 2 integrity mismatch (or durable data lost at a power cut), 3 run
// failed, 130 interrupted (docs/errors.md).
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <systemc>

#include "config/config_loader.h"
#include "ftl/scheme_registry.h"
#include "models/common/run_stop.h"
#include "models/platform/ssd_platform.h"
#include "report/fio_json.h"
#include "report/run_report.h"
#include "tools/ssdsim/bundled_file.h"
#include "tools/ssdsim/fio_run.h"
#include "tools/ssdsim/memory_check.h"
#include "tools/ssdsim/output_folder.h"
#include "tools/ssdsim/run_arguments.h"
#include "tools/ssdsim/serve_command.h"
#include "workload/fio/fio_job_file.h"
#include "workload/trace/trace_error.h"

namespace {

namespace fs = std::filesystem;
using ssd::tools::RunArguments;

constexpr int kExitBadInput = 1;
constexpr int kExitMismatch = 2;
constexpr int kExitRunFailed = 3;
constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

// The first Ctrl-C asks the run to stop at the next request and say so; a second one ends the
// process at once (the handler gives the signal back to its default action).
void on_interrupt(int) {
  ssd::models::request_interrupt();
  std::signal(SIGINT, SIG_DFL);
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

// run.timeline's file: a relative path is inside the run's output folder (so that each point of
// a sweep writes its own).
fs::path timeline_file(const std::string& key, const std::string& out) {
  if (key.empty()) return {};
  const fs::path path(key);
  return path.is_absolute() ? path : fs::path(out) / path;
}

// The scenario file: --scenario; with --trace alone none (the built-in defaults, named after the
// trace); else the bundled default.
std::string scenario_path(RunArguments& args) {
  if (!args.scenario.empty()) return args.scenario;
  if (args.trace.empty()) return ssd::tools::bundled_file("scenarios/default.toml");
  args.assignments.insert(args.assignments.begin(),
                          "scenario.name=" + fs::path(args.trace).filename().string());
  args.sources.insert(args.sources.begin(), "--trace");
  return "";
}

// With --fio the job file is the workload: options that would set it too are refused.
std::string fio_conflict(const RunArguments& args) {
  if (!args.trace.empty()) return "--fio and --trace both name the workload: give one";
  for (size_t i = 0; i < args.assignments.size(); ++i) {
    if (args.assignments[i].rfind("workload.", 0) == 0) {
      return args.sources[i] + " " + args.assignments[i] +
             ": with --fio the job file sets the workload (edit the job file instead)";
    }
  }
  return {};
}

int fail(int status, const std::string& message) {
  std::cerr << "ssdsim: " << message << '\n';
  return status;
}

// A run (or its preconditioning) that ended early, as ssdsim reports it (docs/errors.md).
int stopped(ssd::models::RunStop::Cause cause, const std::string& message) {
  using Cause = ssd::models::RunStop::Cause;
  switch (cause) {
    case Cause::kInterrupted:
      return fail(kExitInterrupted, message + "; nothing was written");
    case Cause::kTimeLimit:
      return fail(kExitBadInput, "the run stopped: " + message);
    default:
      return fail(kExitRunFailed, "run failed: " + message);
  }
}

int run_simulation(RunArguments args) {
  ssd::config::LoadedConfig config;
  try {
    const std::string platform =
        args.platform.empty() ? ssd::tools::bundled_file("platforms/default.toml") : args.platform;
    const std::string scenario = scenario_path(args);
    config = ssd::config::load_config(platform, scenario, args.assignments,
                                      ssd::ftl::scheme_catalog(), args.sources);
  } catch (const ssd::config::ConfigError& error) {
    return fail(kExitBadInput, error.what());
  }
  ssd::report::FioOutputOptions fio_output;
  if (!args.fio.empty()) {
    if (const std::string problem = fio_conflict(args); !problem.empty()) {
      return fail(kExitBadInput, problem);
    }
    std::vector<std::string> notes;
    try {
      fio_output = ssd::tools::apply_fio_job_file(args.fio, config, notes);
    } catch (const ssd::workload::FioJobError& error) {
      return fail(kExitBadInput, error.what());
    } catch (const ssd::config::ConfigError& error) {
      return fail(kExitBadInput, error.what());
    }
    for (const std::string& note : notes) std::cerr << "note: " << note << '\n';
  }
  if (const std::string problem = accelerator_problem(config, args); !problem.empty()) {
    return fail(kExitBadInput, problem);
  }
  if (const std::string problem = ssd::tools::memory_problem(config); !problem.empty()) {
    return fail(kExitBadInput, problem);
  }
  if (args.check) {
    std::cout << "ok: platform " << config.platform.name << ", scenario " << config.scenario.name
              << ", scheme " << config.platform.ftl.scheme << '\n';
    return 0;
  }
  ssd::tools::OutputFolder out;
  try {
    out = ssd::tools::prepare_output_folder(args.out);
  } catch (const std::exception& error) {
    return fail(kExitBadInput, error.what());
  }
  const fs::path timeline_path = timeline_file(config.scenario.run.timeline, out.path);
  if (!timeline_path.empty() && !fs::is_directory(timeline_path.parent_path())) {
    ssd::tools::discard_output_folder(out);
    return fail(kExitBadInput,
                "run.timeline: the folder of " + timeline_path.string() + " does not exist");
  }

  const fs::path log_path = fs::path(out.path) / "requests.csv";
  const fs::path log_tmp = fs::path(out.path) / "requests.csv.tmp";
  std::unique_ptr<std::ofstream> request_log;
  // The timeline (run.timeline) is written beside its final name and renamed once complete.
  const fs::path timeline_tmp = timeline_path.string() + ".tmp";
  std::unique_ptr<std::ofstream> timeline;
  // Undoes what a run that ends in an error wrote: the partial request log and timeline, and
  // the output folder when this run created it and left it empty.
  const auto discard_outputs = [&] {
    std::error_code ignored;
    if (request_log) {
      request_log->close();
      fs::remove(log_tmp, ignored);
    }
    if (timeline) {
      timeline->close();
      fs::remove(timeline_tmp, ignored);
    }
    ssd::tools::discard_output_folder(out);
  };
  std::signal(SIGINT, on_interrupt);
  try {
    ssd::models::PlatformRunOptions options;
    options.progress = config.scenario.run.progress && !args.quiet;
    options.accelerator_waveform = args.waveform;
    if (config.scenario.run.request_log) {
      request_log = std::make_unique<std::ofstream>(log_tmp);
      if (!*request_log) throw std::runtime_error("cannot write " + log_tmp.string());
      options.request_log = request_log.get();
    }
    if (!timeline_path.empty()) {
      timeline = std::make_unique<std::ofstream>(timeline_tmp);
      if (!*timeline) {
        throw std::runtime_error("cannot write " + timeline_tmp.string() + " (run.timeline)");
      }
      options.timeline = timeline.get();
    }
    ssd::models::SsdPlatform platform("ssd", config, options);
    platform.precondition();
    // Ended early: reported here, not thrown (see SsdPlatform::run_to_end()).
    const ssd::models::SsdPlatform::Outcome outcome = platform.run_to_end();
    if (!outcome.trace_failure.empty()) {
      // A bad trace found during the replay is bad input.
      discard_outputs();
      return fail(kExitBadInput, outcome.trace_failure);
    }
    if (outcome.stop.cause != ssd::models::RunStop::Cause::kNone) {
      discard_outputs();
      return stopped(outcome.stop.cause, outcome.stop.message);
    }
    const ssd::report::RunReport& report = *outcome.report;
    if (request_log) {
      request_log->close();
      fs::rename(log_tmp, log_path);
    }
    if (timeline) {
      timeline->close();
      if (!*timeline) throw std::runtime_error("cannot write " + timeline_tmp.string());
      fs::rename(timeline_tmp, timeline_path);
    }
    ssd::report::write_report_json(report, out.path);
    if (args.output_format != "normal") {
      fio_output.plus = args.output_format == "json+";
      ssd::report::write_json_file(ssd::report::fio_json(report, fio_output), out.path, "fio.json");
    }
    if (!args.quiet) std::cout << ssd::report::summary_text(report);
    std::cout << "report: " << (fs::path(out.path) / "report.json").string() << '\n';
    if (args.output_format != "normal") {
      std::cout << "fio output: " << (fs::path(out.path) / "fio.json").string() << '\n';
    }
    if (const ssd::models::Timeline* written = platform.timeline()) {
      std::cout << "timeline: " << timeline_path.string() << " (" << written->events()
                << " events)\n";
      if (written->truncated()) {
        std::cerr << "warning: the timeline stopped at run.timeline_max_events ("
                  << config.scenario.run.timeline_max_events
                  << " events); narrow it with run.timeline_from_us and run.timeline_to_us\n";
      }
    }
    // A unit a power cut lost after a completed flush is an integrity failure too.
    const bool lost = report.power && report.power->lost_durable_units > 0;
    return report.integrity_mismatches == 0 && !lost ? 0 : kExitMismatch;
  } catch (const ssd::workload::TraceError& error) {
    // A bad trace found by the scan before the run is bad input.
    discard_outputs();
    return fail(kExitBadInput, error.what());
  } catch (const ssd::models::RunStopped& stop) {  // interrupted while preconditioning
    discard_outputs();
    return stopped(stop.cause(), stop.what());
  } catch (const std::bad_alloc&) {
    discard_outputs();
    return fail(kExitRunFailed,
                "run failed: out of host memory (sim.memory_limit_bytes bounds what a run may "
                "use; a smaller device or run.oracle=false needs less)");
  } catch (const std::exception& error) {
    discard_outputs();
    return fail(kExitRunFailed, std::string("run failed: ") + error.what());
  }
}

// Replaces this process with `python3 tools/python/ssdsim_TOOL.py --ssdsim THIS_PROGRAM ARGS`.
int run_python_tool(const std::string& tool, const std::vector<std::string>& args) {
  const std::string script = std::string(SSD_SOURCE_DIR) + "/tools/python/ssdsim_" + tool + ".py";
  std::error_code error;
  const std::string self = fs::read_symlink("/proc/self/exe", error).string();
  // Debian's interpreter first: matplotlib and Dask come as Debian packages (tools/setup.sh), which
  // another python3 earlier on PATH (pyenv, a virtualenv) would not see.
  const std::string python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  std::vector<std::string> words{python, script, "--ssdsim", error ? "ssdsim" : self};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execvp(python.c_str(), argv.data());
  return fail(kExitRunFailed, "cannot start python3 for 'ssdsim " + tool +
                                  "': " + std::strerror(errno) + " (tools/setup.sh installs it)");
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // The host model ends the run with sc_stop(); that is the normal end, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  CLI::App app{"ssdsim: SystemC/TLM-2.0 SSD co-simulator"};
  app.require_subcommand(1);
  CLI::App* run = app.add_subcommand("run", "simulate a scenario on a platform");
  ssd::tools::RunCommandLine run_line(*run);
  CLI::App* soak = app.add_subcommand(
      "soak", "simulate a scenario with power cuts: cut, recover, check, go on (--cuts N times)");
  ssd::tools::RunCommandLine soak_line(*soak, /*soak=*/true);
  CLI::App* serve =
      app.add_subcommand("serve", "serve a simulated SSD to NBD clients (nbdkit; docs/clients.md)");
  ssd::tools::ServeCommandLine serve_line(*serve);
  // Exploration is Python (matplotlib, Dask, Slurm's sbatch): these two hand their arguments to
  // tools/python/ (docs/exploration.md), telling it which ssdsim to run.
  CLI::App* sweep = app.add_subcommand("sweep", "run a sweep spec's points and gather results.csv");
  CLI::App* plot = app.add_subcommand("plot", "plot a sweep's results.csv as PNG and SVG");
  for (CLI::App* python : {sweep, plot}) {
    python->allow_extras()->prefix_command();
    python->set_help_flag();  // --help goes to the Python tool
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : kExitBadInput;
  }
  if (sweep->parsed() || plot->parsed()) {
    return run_python_tool(sweep->parsed() ? "sweep" : "plot",
                           (sweep->parsed() ? sweep : plot)->remaining());
  }
  if (serve->parsed()) return serve_line.exec();
  return run_simulation(soak->parsed() ? soak_line.collect() : run_line.collect());
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
