#include "tools/nbdkit/serve_session.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "config/capacity.h"
#include "ftl/scheme_registry.h"
#include "models/platform/ssd_platform.h"
#include "report/run_report.h"
#include "tools/ssdsim/bundled_file.h"
#include "tools/ssdsim/memory_check.h"

namespace ssd::tools {

namespace fs = std::filesystem;

namespace {

// What a served device cannot do, or "".
std::string serve_problem(const config::LoadedConfig& config) {
  if (!config.scenario.run.oracle) {
    return "run.oracle=false: a served device gives a read its bytes only once the oracle has "
           "checked what the FTL returned, so the oracle must stay on";
  }
  if (config.scenario.power.on()) {
    return "power.cuts: power cuts are not modelled while clients are served";
  }
  if (!config.scenario.streams.empty()) return "the scenario's streams are not used by a server";
  if (!config.scenario.run.timeline.empty()) {
    return "run.timeline: a served run writes no timeline (use ssdsim run)";
  }
  if (models::uses_accelerator(config.platform)) {
    if (std::string problem = models::accelerator_problem(config.platform.accelerator);
        !problem.empty()) {
      return problem;
    }
  }
  return memory_problem(config);
}

}  // namespace

ServeSession::ServeSession(const ServeSettings& settings) : m_requested_out(settings.out) {
  try {
    m_config = config::load_config(
        settings.platform.empty() ? bundled_file("platforms/default.toml") : settings.platform,
        settings.scenario.empty() ? bundled_file("scenarios/default.toml") : settings.scenario,
        settings.assignments, ftl::scheme_catalog(), settings.sources);
  } catch (const config::ConfigError& error) {
    throw std::runtime_error(error.what());
  }
  if (const std::string problem = serve_problem(m_config); !problem.empty()) {
    throw std::runtime_error(problem);
  }
  m_size_bytes = config::logical_capacity_bytes(m_config.platform);
  // As many answers kept for pairing as the host could have commands in flight.
  const config::HostConfig& host = m_config.platform.host;
  m_source = std::make_unique<workload::LiveSource>(
      settings.pacing, size_t{host.submission_queues} * host.max_queue_depth);
}

ServeSession::~ServeSession() {
  if (m_thread.joinable()) {
    m_source->close();
    m_thread.join();
  }
}

uint32_t ServeSession::unit_bytes() const { return config::mapping_unit_bytes(m_config.platform); }

void ServeSession::prepare_output() { m_out = prepare_output_folder(m_requested_out); }

void ServeSession::start() {
  m_thread = std::thread([this] { simulate(); });
  std::unique_lock<std::mutex> lock(m_mutex);
  m_changed.wait(lock, [&] { return m_ready; });
  if (!m_failure.empty()) {
    lock.unlock();
    m_thread.join();
    discard_output_folder(m_out);
    throw std::runtime_error(m_failure);
  }
}

std::string ServeSession::finish(bool& ok) {
  m_source->close();
  if (m_thread.joinable()) m_thread.join();
  ok = m_failure.empty() && m_clean;
  if (!m_failure.empty()) {
    discard_output_folder(m_out);
    return "run failed: " + m_failure + "\n";
  }
  return m_result;
}

void ServeSession::simulate() {
  const auto fail = [&](const std::string& why) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_failure = why;
    m_ready = m_finished = true;
    m_changed.notify_all();
  };
  try {
    models::PlatformRunOptions options;
    options.source = m_source.get();
    options.host_data = true;
    std::unique_ptr<std::ofstream> request_log;
    const fs::path log_path = fs::path(m_out.path) / "requests.csv";
    if (m_config.scenario.run.request_log) {
      request_log = std::make_unique<std::ofstream>(log_path);
      if (!*request_log) throw std::runtime_error("cannot write " + log_path.string());
      options.request_log = request_log.get();
    }
    models::SsdPlatform platform("ssd", m_config, options);
    platform.precondition();
    m_source->start_clock();
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_ready = true;
      m_changed.notify_all();
    }
    // Ended early: reported here, not thrown (SsdPlatform::run_to_end()).
    const models::SsdPlatform::Outcome outcome = platform.run_to_end();
    m_source->end();
    if (outcome.stop.cause != models::RunStop::Cause::kNone) {
      if (request_log) {
        request_log->close();
        fs::remove(log_path);
      }
      return fail(outcome.stop.message);
    }
    const report::RunReport& report = *outcome.report;
    report::write_report_json(report, m_out.path);
    std::lock_guard<std::mutex> lock(m_mutex);
    m_result = report::summary_text(report) +
               "report: " + (fs::path(m_out.path) / "report.json").string() + "\n";
    m_clean = report.integrity_mismatches == 0;
    m_finished = true;
  } catch (const std::exception& error) {
    m_source->end();
    fail(error.what());
  }
}

}  // namespace ssd::tools
