#include "tools/ssdsim/run_arguments.h"

#include <map>

namespace ssd::tools {

RunCommandLine::RunCommandLine(CLI::App& run, bool soak) : m_run(run) {
  if (soak) {
    m_cuts_option = run.add_option("--cuts", m_cuts,
                                   "cut the power this many times over the run, recover and go "
                                   "on (same as --set power.cuts=N)")
                        ->required();
  }
  run.add_option("--platform", m_args.platform, "platform TOML (default: platforms/default.toml)");
  run.add_option("--scenario", m_args.scenario,
                 "scenario TOML (default: scenarios/default.toml; with --trace, the built-in "
                 "scenario defaults)");
  m_ftl_option = run.add_option("--ftl", m_ftl, "mapping scheme (same as --set ftl.scheme=NAME)");
  m_set_option = run.add_option("--set", m_sets, "override a key: section.key=value (repeatable)")
                     ->expected(1)
                     ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run.add_option("--out", m_args.out, "output folder (default: results/<timestamp>)");
  run.add_flag("--quiet", m_args.quiet, "print only the report path");
  run.add_flag("--check", m_args.check,
               "load and check the platform, scenario and keys as a run would, then stop "
               "(nothing simulated, nothing written; exit status as for a run)");
  run.add_option("--waveform", m_args.waveform,
                 "write the RTL accelerator's signals to this FST file (accelerator.engine=rtl)");
  m_trace_option = run.add_option("--trace", m_args.trace,
                                  "replay this trace file, open loop at trace time "
                                  "(docs/traces.md)");
  run.add_option("--fio", m_args.fio,
                 "run the jobs of this fio job file, each a stream of its own (docs/clients.md)");
  run.add_option("--output-format", m_args.output_format,
                 "normal (report.json and the summary), or also fio's JSON as fio.json: json, "
                 "or json+ (with latency bins)")
      ->check(CLI::IsMember({"normal", "json", "json+"}));
  m_trace_format_option = run.add_option(
      "--trace-format", m_trace_format,
      "trace format: auto, msr, spc, mqsim, disksim, blkparse, fio (workload.trace_format)");
  m_device_option =
      run.add_option("--device", m_device, "trace devices to replay: all (default) or N");
  m_fit_option =
      run.add_option("--fit", m_fit, "addresses past the device end: error, wrap, scale");
  m_skip_option = run.add_flag("--skip-bad-lines", m_skip_bad_lines,
                               "skip malformed trace lines (reported) instead of stopping");
}

RunArguments RunCommandLine::collect() const {
  RunArguments args = m_args;
  const auto assign = [&](const std::string& assignment, const std::string& source) {
    args.assignments.push_back(assignment);
    args.sources.push_back(source);
  };
  // CLI11 lists every occurrence of an option in the order it was parsed; each option's results
  // hold the values of its occurrences in the same order.
  std::map<const CLI::Option*, size_t> seen;
  for (const CLI::Option* option : m_run.parse_order()) {
    const size_t index = seen[option]++;
    const auto value = [&] {
      const CLI::results_t& results = option->results();
      return index < results.size() ? results[index] : std::string();
    };
    if (option == m_set_option) {
      assign(value(), "--set");
    } else if (option == m_ftl_option) {
      assign("ftl.scheme=" + value(), "--ftl");
    } else if (option == m_trace_option) {
      // The whole trace, open loop at trace time; later options may change any of it.
      assign("workload.kind=trace", "--trace");
      assign("workload.trace_file=" + value(), "--trace");
      assign("workload.requests=0", "--trace");
      assign("workload.mode=open", "--trace");
    } else if (option == m_trace_format_option) {
      assign("workload.trace_format=" + value(), "--trace-format");
    } else if (option == m_device_option) {
      assign("workload.device=" + value(), "--device");
    } else if (option == m_fit_option) {
      assign("workload.fit=" + value(), "--fit");
    } else if (option == m_skip_option) {
      assign("workload.skip_bad_lines=true", "--skip-bad-lines");
    } else if (option == m_cuts_option) {
      assign("power.cuts=" + value(), "--cuts");
    }
  }
  return args;
}

}  // namespace ssd::tools
