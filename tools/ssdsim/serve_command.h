// `ssdsim serve`: serves a simulated SSD to NBD clients by starting nbdkit with this build's
// plugin (tools/nbdkit/, docs/clients.md), in the foreground until Ctrl-C or SIGTERM, or until
// the command of --run ends; the report is written then.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ssd::tools {

class ServeCommandLine {
 public:
  explicit ServeCommandLine(CLI::App& serve);
  // nbdkit's command line for what was parsed, with `plugin` as the plugin's path.
  std::vector<std::string> nbdkit_words(const std::string& plugin) const;
  // Replaces this process with nbdkit; returns only when it cannot, with the exit status.
  int exec() const;

 private:
  CLI::App& m_serve;
  std::string m_platform, m_scenario, m_out, m_pacing = "as_fast_as_possible";
  std::string m_socket, m_run;
  int m_port = 0;
  int m_threads = 64;
  std::vector<std::string> m_sets;
  std::string m_ftl;
  CLI::Option* m_set_option = nullptr;
  CLI::Option* m_ftl_option = nullptr;
};

}  // namespace ssd::tools
