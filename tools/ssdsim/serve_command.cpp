#include "tools/ssdsim/serve_command.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

namespace ssd::tools {

namespace fs = std::filesystem;

ServeCommandLine::ServeCommandLine(CLI::App& serve) : m_serve(serve) {
  serve.add_option("--platform", m_platform, "platform TOML (default: platforms/default.toml)");
  serve.add_option("--scenario", m_scenario,
                   "scenario TOML: its preconditioning and run keys (default: "
                   "scenarios/default.toml; its workload is the clients)");
  m_ftl_option = serve.add_option("--ftl", m_ftl, "mapping scheme (same as --set ftl.scheme=NAME)");
  m_set_option =
      serve.add_option("--set", m_sets, "override a key: section.key=value (repeatable)")
          ->expected(1)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  serve.add_option("--out", m_out, "report folder (default: results/<timestamp>)");
  serve
      .add_option("--pacing", m_pacing,
                  "as_fast_as_possible: answer each request once simulated; real_time: once "
                  "wall time reaches its simulated completion")
      ->check(CLI::IsMember({"as_fast_as_possible", "real_time"}));
  auto* socket = serve.add_option("--socket", m_socket, "serve on this Unix socket");
  serve.add_option("--port", m_port, "serve on this TCP port of 127.0.0.1 (default: 10809)")
      ->excludes(socket)
      ->check(CLI::Range(1, 65535));
  serve
      .add_option("--threads", m_threads,
                  "nbdkit threads: the most requests in flight at once (default: 64)")
      ->check(CLI::Range(1, 4096));
  serve.add_option("--run", m_run,
                   "run this shell command once serving ($uri, $unixsocket and $port name the "
                   "server, as nbdkit --run sets them), then stop");
}

std::vector<std::string> ServeCommandLine::nbdkit_words(const std::string& plugin) const {
  std::vector<std::string> words{"nbdkit", "--foreground", "--threads", std::to_string(m_threads)};
  if (!m_socket.empty()) {
    words.insert(words.end(), {"--unix", m_socket});
  } else {
    words.insert(words.end(),
                 {"--ipaddr", "127.0.0.1", "--port", std::to_string(m_port != 0 ? m_port : 10809)});
  }
  if (!m_run.empty()) words.insert(words.end(), {"--run", m_run});
  words.push_back(plugin);
  if (!m_platform.empty()) words.push_back("platform=" + m_platform);
  if (!m_scenario.empty()) words.push_back("scenario=" + m_scenario);
  if (!m_out.empty()) words.push_back("out=" + m_out);
  words.push_back("pacing=" + m_pacing);
  // --set and --ftl in command-line order, so the later of two that set one key wins.
  std::map<const CLI::Option*, size_t> seen;
  for (const CLI::Option* option : m_serve.parse_order()) {
    if (option != m_set_option && option != m_ftl_option) continue;
    const size_t index = seen[option]++;
    const CLI::results_t& results = option->results();
    if (index >= results.size()) continue;
    words.push_back(option == m_set_option ? "set=" + results[index] : "scheme=" + results[index]);
  }
  return words;
}

namespace {

// A Unix socket file a server that has ended left behind (nbdkit leaves it): nothing answers on
// it. One a live server listens on is kept (nbdkit then says it is in use).
void remove_stale_socket(const std::string& path) {
  std::error_code error;
  if (!fs::is_socket(path, error)) return;
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) return;
  address.sun_family = AF_UNIX;
  path.copy(address.sun_path, path.size());
  const int probe = socket(AF_UNIX, SOCK_STREAM, 0);
  if (probe < 0) return;
  const bool refused =
      connect(probe, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 &&
      errno == ECONNREFUSED;
  close(probe);
  if (refused) fs::remove(path, error);
}

}  // namespace

int ServeCommandLine::exec() const {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  const fs::path plugin = self.parent_path() / "nbdkit-ssdsim-plugin.so";
  if (error || !fs::exists(plugin)) {
    std::cerr << "ssdsim: serve: " << plugin.string()
              << " is missing: this build has no NBD plugin (configure it with Debian's "
                 "nbdkit-plugin-dev installed; tools/setup.sh installs it)\n";
    return 1;
  }
  if (!m_socket.empty()) remove_stale_socket(m_socket);
  std::vector<std::string> words = nbdkit_words(plugin.string());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execvp("nbdkit", argv.data());
  std::cerr << "ssdsim: serve: cannot start nbdkit: " << std::strerror(errno)
            << " (tools/setup.sh installs it)\n";
  return 3;
}

}  // namespace ssd::tools
