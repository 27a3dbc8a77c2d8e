// One simulated SSD serving live clients (ssdsim serve, docs/clients.md): the configuration,
// checked before anything is served; the simulation thread, which builds the platform,
// preconditions it and then runs the host model over a LiveSource until the clients are done;
// and the report written at the end, as `ssdsim run` writes it. The NBD plugin
// (ssdsim_plugin.cpp) is its only user, but nothing here knows NBD.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "config/config_loader.h"
#include "tools/ssdsim/output_folder.h"
#include "workload/live/live_source.h"

namespace ssd::tools {

struct ServeSettings {
  std::string platform;  // "" = the bundled default
  std::string scenario;  // "" = the bundled default (its preconditioning; its workload unused)
  std::string out;       // "" = results/<timestamp>
  // Key assignments in order, and the parameter each came from (for messages).
  std::vector<std::string> assignments;
  std::vector<std::string> sources;
  workload::Pacing pacing = workload::Pacing::kAsFastAsPossible;
};

class ServeSession {
 public:
  // Loads and checks the configuration; throws std::runtime_error with the message.
  explicit ServeSession(const ServeSettings& settings);
  ~ServeSession();

  uint64_t size_bytes() const { return m_size_bytes; }
  uint32_t sector_bytes() const { return m_config.platform.nand.sector_bytes; }
  uint32_t unit_bytes() const;

  // Makes the output folder (throws std::runtime_error saying why it cannot).
  void prepare_output();
  // Starts the simulation thread and returns once the device is preconditioned and serving;
  // throws std::runtime_error when it could not get there.
  void start();
  workload::LiveSource& source() { return *m_source; }
  // No more clients: the run ends, the report is written. Returns what to print (the summary
  // and where the report is, or why the run failed); `ok` false when it failed or a read
  // mismatched.
  std::string finish(bool& ok);

 private:
  void simulate();

  config::LoadedConfig m_config;
  uint64_t m_size_bytes = 0;
  std::string m_requested_out;
  OutputFolder m_out;
  std::unique_ptr<workload::LiveSource> m_source;
  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_ready = false;     // serving (or failed before that: m_failure set)
  bool m_finished = false;  // the thread is done
  std::string m_failure;    // why the run failed
  std::string m_result;     // the summary and the report's path
  bool m_clean = false;     // no mismatch
};

}  // namespace ssd::tools
