#include "models/host/host_interface.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <string>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/timeline/timeline.h"

namespace ssd::models {

namespace {
// PCIe 3.0 and later encode 128 bits in 130 on the wire.
constexpr double kPcieEncoding = 128.0 / 130.0;
// Requests between looks at the wall clock (about 25 ns each) for progress: often enough for a
// slow run to show progress every second, rare enough to cost nothing on a fast one.
constexpr uint64_t kProgressCheckEvery = 64;

std::string time_text(Picoseconds ps) {
  char text[48];
  std::snprintf(text, sizeof text, "%.6g s", double(ps) / 1e12);
  return text;
}
}  // namespace

HostInterface::HostInterface(sc_core::sc_module_name name, const config::HostConfig& host,
                             workload::WorkloadSource& source, const HostInterfaceOptions& options)
    : sc_core::sc_module(name),
      socket("socket"),
      m_source(source),
      m_options(options),
      m_command_overhead(ns_to_ps(host.command_overhead_ns, "host.command_overhead_ns")),
      m_pcie_ps_per_byte(1e3 / (host.pcie_lanes * host.pcie_gt_s * kPcieEncoding / 8.0)) {
  m_payload.set_extension(&m_extension);
  m_payload.set_data_ptr(m_scratch);
  m_payload.set_byte_enable_ptr(nullptr);
  m_payload.set_dmi_allowed(false);
  for (const HostInterfaceOptions::Stream& stream : options.streams) {
    if (stream.source == nullptr || stream.source->open_loop()) {
      throw std::invalid_argument("host: several streams must each be a closed-loop source");
    }
    StreamState state;
    state.options = stream;
    m_streams.push_back(state);
  }
  if (!m_streams.empty() && options.power != nullptr) {
    throw std::invalid_argument("host: power cuts with several streams are not modelled");
  }
  m_stream_stats.resize(m_streams.size());
  SC_THREAD(run);
}

// The payload would delete its extensions on destruction; ours is a member, not heap-allocated.
HostInterface::~HostInterface() { m_payload.clear_extension(&m_extension); }

Picoseconds HostInterface::submit_time(const workload::Request& request) {
  const size_t slots = m_source.open_loop() ? m_options.open_loop_slots : m_options.queue_depth;
  Picoseconds at = m_source.open_loop() ? request.arrival : m_last_submit;
  // A full queue: the command waits for the earliest completion to free an entry.
  if (m_in_flight.size() >= slots) {
    at = std::max(at, m_in_flight.top());
    m_in_flight.pop();
  }
  return std::max(at, m_last_submit);
}

bool HostInterface::next_request(workload::Request& request, Picoseconds& submitted,
                                 size_t& stream) {
  if (!m_streams.empty()) return next_of_streams(request, submitted, stream);
  if (!m_source.next(request)) return false;
  submitted = submit_time(request);
  stream = 0;
  return true;
}

bool HostInterface::next_of_streams(workload::Request& request, Picoseconds& submitted,
                                    size_t& stream) {
  size_t best = m_streams.size();
  Picoseconds best_at = 0;
  for (;;) {
    bool group_running = false;
    for (size_t s = 0; s < m_streams.size(); ++s) {
      StreamState& state = m_streams[s];
      if (state.done || state.options.group != m_group) continue;
      if (!state.drawn && !(state.drawn = state.options.source->next(state.next))) {
        state.done = true;
        continue;
      }
      // Closed loop: after its previous submission, and once a slot of its own is free; no
      // sooner than its rate allows.
      Picoseconds at = std::max({state.last_submit, m_last_submit, m_group_start});
      if (state.in_flight.size() >= state.options.queue_depth) {
        at = std::max(at, state.in_flight.top());
      }
      if (state.submitted && state.options.gap_ps != 0) {
        at = std::max(at, state.last_submit + state.options.gap_ps);
      }
      if (state.options.duration_ps != 0 &&
          at >= m_group_start + m_options.measure_from_ps + state.options.duration_ps) {
        state.done = true;
        continue;
      }
      group_running = true;
      if (best == m_streams.size() || at < best_at ||
          (at == best_at && state.last_pick < m_streams[best].last_pick)) {
        best = s;
        best_at = at;
      }
    }
    if (group_running) break;
    // Every stream of the group is done: the next group starts once their last command ends.
    uint32_t next = ~uint32_t{0};
    for (const StreamState& state : m_streams) {
      m_group_start = std::max(m_group_start, state.last_completion);
      if (!state.done) next = std::min(next, state.options.group);
    }
    if (next == ~uint32_t{0}) return false;
    m_group = next;
  }
  StreamState& chosen = m_streams[best];
  if (chosen.in_flight.size() >= chosen.options.queue_depth) chosen.in_flight.pop();
  request = chosen.next;
  chosen.drawn = false;
  chosen.last_submit = best_at;
  chosen.last_pick = ++m_picks;
  chosen.submitted = true;
  submitted = best_at;
  stream = best;
  return true;
}

void HostInterface::note_completion(size_t stream, Picoseconds completion) {
  if (m_streams.empty()) {
    m_in_flight.push(completion);
    return;
  }
  StreamState& state = m_streams[stream];
  state.in_flight.push(completion + state.options.think_ps);
  state.last_completion = std::max(state.last_completion, completion);
}

Picoseconds HostInterface::submit(ftl::HostCommand& command, Picoseconds submitted) {
  const uint64_t bytes = uint64_t(command.sector_count) * m_options.sector_bytes;
  Picoseconds ready = submitted + m_command_overhead;
  if (command.kind == ftl::CommandKind::kWrite) {  // write data crosses the link first
    const Picoseconds start = std::max(ready, m_to_device_free);
    m_to_device_free =
        start + ftl::checked_ps(double(bytes) * m_pcie_ps_per_byte, "a write's PCIe transfer");
    ready = m_to_device_free;
  }
  m_extension.command = &command;
  m_extension.mismatches = 0;
  m_extension.failure.clear();
  m_extension.time_limit = false;
  m_payload.set_command(command.kind == ftl::CommandKind::kRead ? tlm::TLM_READ_COMMAND
                                                                : tlm::TLM_WRITE_COMMAND);
  m_payload.set_address(command.start_sector);
  m_payload.set_data_length(static_cast<unsigned>(bytes));
  m_payload.set_streaming_width(static_cast<unsigned>(bytes));
  m_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = to_sc_time(ready) - sc_core::sc_time_stamp();
  socket->b_transport(m_payload, delay);
  if (m_payload.is_response_error()) return 0;  // the caller reads the extension's failure
  Picoseconds completion = to_ps(sc_core::sc_time_stamp() + delay);
  if (command.kind == ftl::CommandKind::kRead) {  // read data crosses back
    const Picoseconds start = std::max(completion, m_to_host_free);
    m_to_host_free =
        start + ftl::checked_ps(double(bytes) * m_pcie_ps_per_byte, "a read's PCIe transfer");
    completion = m_to_host_free;
  }
  m_stats.mismatches += m_extension.mismatches;
  return completion;
}

void HostInterface::stop_at(RunStop::Cause cause, const std::string& reason, uint64_t request) {
  m_stop.cause = cause;
  m_stop.message = "request " + std::to_string(request) + " at simulated time " +
                   time_text(m_last_submit) + ": " + reason;
}

namespace {

void count(HostStats& stats, const ftl::HostCommand& command, uint64_t bytes, Picoseconds arrival,
           Picoseconds completion) {
  const auto kind = static_cast<size_t>(command.kind);
  ++stats.completed[kind];
  if (command.kind == ftl::CommandKind::kWrite && command.fua) ++stats.fua_writes;
  stats.latency[kind].record((completion - arrival) / 1000);
  if (command.kind == ftl::CommandKind::kRead) stats.bytes_read += bytes;
  if (command.kind == ftl::CommandKind::kWrite) stats.bytes_written += bytes;
  if (command.kind == ftl::CommandKind::kTrim) stats.bytes_trimmed += bytes;
  stats.last_completion = std::max(stats.last_completion, completion);
}

}  // namespace

void HostInterface::record(const ftl::HostCommand& command, Picoseconds arrival,
                           Picoseconds submitted, Picoseconds completion, size_t stream) {
  if (submitted < m_options.measure_from_ps) return;  // in the ramp: run, not measured
  const uint64_t bytes = uint64_t(command.sector_count) * m_options.sector_bytes;
  count(m_stats, command, bytes, arrival, completion);
  if (!m_stream_stats.empty()) {
    // Several streams record as they submit, so a stream's first record is its first command.
    HostStats& of_stream = m_stream_stats[stream];
    if (of_stream.total_completed() == 0) of_stream.first_issue = arrival;
    count(of_stream, command, bytes, arrival, completion);
  }
  if (m_options.request_log) {
    *m_options.request_log << command.id << ',' << ftl::to_string(command.kind) << ','
                           << command.start_sector << ',' << command.sector_count << ','
                           << arrival / 1000 << ',' << submitted / 1000 << ',' << completion / 1000
                           << ',' << (completion - arrival) / 1000 << '\n';
  }
}

void HostInterface::run() {
  tlm_utils::tlm_quantumkeeper keeper;
  keeper.reset();
  m_wall_start = m_last_progress = std::chrono::steady_clock::now();
  if (m_options.request_log) {
    *m_options.request_log
        << "id,kind,start_sector,sectors,arrival_ns,submit_ns,complete_ns,latency_ns\n";
  }
  workload::Request request;
  ftl::HostCommand command;
  uint64_t issued = 0;
  Picoseconds submitted = 0;
  size_t stream = 0;
  while (next_request(request, submitted, stream)) {
    if (interrupt_requested()) {
      stop_at(RunStop::Cause::kInterrupted, "interrupted", issued + 1);
      break;
    }
    if (m_options.power != nullptr) {
      if (const auto at = m_options.power->cut_before(issued + 1, m_last_submit, submitted)) {
        m_last_submit = cut_power(*at);
        submitted = submit_time(request);
      }
      settle(submitted);
    }
    if (m_options.duration_ps && submitted >= m_options.duration_ps) break;
    if (submitted > ftl::kLatestTime) {
      stop_at(RunStop::Cause::kTimeLimit,
              ftl::past_latest_time("its arrival", double(submitted)) +
                  ": the workload is too long (trace times / workload.speed, or workload.requests "
                  "x workload.interarrival_us)",
              issued + 1);
      break;
    }
    const Picoseconds arrival = m_source.open_loop() ? request.arrival : submitted;
    if (!m_measuring && submitted >= m_options.measure_from_ps) {
      m_measuring = true;
      m_stats.first_issue = arrival;
      if (m_options.measuring_starts) m_options.measuring_starts();
    }
    m_last_submit = submitted;
    // Keep SystemC time near the submission time, synchronising once per quantum.
    keeper.set(to_sc_time(submitted) - sc_core::sc_time_stamp());
    if (keeper.need_sync()) keeper.sync();

    command.kind = request.kind;
    command.start_sector = request.start_sector;
    command.sector_count = request.sector_count;
    command.arrival = arrival;
    command.queue = request.queue;
    command.fua = request.fua;
    command.data = request.data;
    Picoseconds completion = 0;
    try {
      completion = submit(command, submitted);
    } catch (const ftl::TimeLimitError& error) {  // the host's own PCIe transfer
      m_extension.failure = error.what();
      m_extension.time_limit = true;
    }
    if (!m_extension.failure.empty()) {
      source_of(stream).completed(0, false);
      stop_at(m_extension.time_limit ? RunStop::Cause::kTimeLimit : RunStop::Cause::kFailed,
              m_extension.failure, issued + 1);
      break;
    }
    if (completion > ftl::kLatestTime) {
      source_of(stream).completed(0, false);
      stop_at(RunStop::Cause::kTimeLimit,
              ftl::past_latest_time("its completion", double(completion)), issued + 1);
      break;
    }
    source_of(stream).completed(completion, m_extension.mismatches == 0);
    note_completion(stream, completion);
    if (m_options.timeline != nullptr) m_options.timeline->submitted(submitted, completion);
    if (m_options.power == nullptr) {
      record(command, arrival, submitted, completion, stream);
    } else {
      ftl::ChangeSpan durable;
      if (command.kind == ftl::CommandKind::kFlush) {
        durable.end = m_options.power->flush_marker();
      } else if (command.kind == ftl::CommandKind::kWrite && command.fua) {
        durable = m_options.power->fua_changes();
      }
      m_unsettled.push(Unsettled{command, arrival, submitted, completion, durable});
    }
    if (++issued % kProgressCheckEvery == 0) maybe_report_progress();
  }
  if (m_progress_shown) std::fprintf(stderr, "\n");
  if (m_options.power != nullptr && m_stop.cause == RunStop::Cause::kNone && !m_unsettled.empty()) {
    // A cut due before the last command completes still comes (the device is busy until then).
    if (const auto at =
            m_options.power->cut_before(issued + 1, m_last_submit, m_unsettled.top().completion)) {
      cut_power(*at);
    }
    settle(ftl::kLatestTime);
  }
  if (m_stop.cause == RunStop::Cause::kNone) {
    // Let simulated time run to the last completion, so the kernel's clock ends where the run
    // does.
    keeper.sync();
    if (m_stats.last_completion > to_ps(sc_core::sc_time_stamp())) {
      sc_core::wait(to_sc_time(m_stats.last_completion) - sc_core::sc_time_stamp());
    }
    m_finished = true;
  }
  sc_core::sc_stop();
}

void HostInterface::settle(Picoseconds now) {
  while (!m_unsettled.empty() && m_unsettled.top().completion <= now) {
    const Unsettled& done = m_unsettled.top();
    record(done.command, done.arrival, done.submitted, done.completion);
    if (done.command.kind == ftl::CommandKind::kFlush) {
      m_options.power->flush_completed(done.durable.end);
    } else if (done.command.kind == ftl::CommandKind::kWrite && done.command.fua) {
      m_options.power->fua_completed(done.durable);
    }
    m_unsettled.pop();
  }
}

Picoseconds HostInterface::cut_power(Picoseconds at) {
  settle(at);
  m_stats.lost_commands += m_unsettled.size();
  m_unsettled = {};
  m_in_flight = {};
  if (m_options.timeline != nullptr) m_options.timeline->power_cut(at);
  const Picoseconds back = m_options.power->cut(at);
  // The link went down with the device: nothing of the lost commands is still moving.
  m_to_device_free = m_to_host_free = back;
  m_stats.last_completion = std::max(m_stats.last_completion, back);
  return std::max(m_last_submit, back);
}

void HostInterface::maybe_report_progress() {
  if (!m_options.progress) return;
  const auto now = std::chrono::steady_clock::now();
  const double since_start = std::chrono::duration<double>(now - m_wall_start).count();
  if (since_start < 2.0 || std::chrono::duration<double>(now - m_last_progress).count() < 1.0)
    return;
  m_last_progress = now;
  m_progress_shown = true;
  const uint64_t done = m_stats.total_completed();
  if (m_options.expected_requests) {
    std::fprintf(stderr, "\r  %5.1f%%  %llu requests, %.1f ms simulated, %.0f requests/s   ",
                 100.0 * double(done) / double(m_options.expected_requests),
                 static_cast<unsigned long long>(done), double(m_last_submit) / 1e9,
                 double(done) / since_start);
  } else if (m_options.duration_ps) {
    std::fprintf(stderr, "\r  %5.1f%%  %llu requests, %.1f ms simulated, %.0f requests/s   ",
                 100.0 * double(m_last_submit) / double(m_options.duration_ps),
                 static_cast<unsigned long long>(done), double(m_last_submit) / 1e9,
                 double(done) / since_start);
  } else {
    std::fprintf(stderr, "\r  %llu requests, %.1f ms simulated, %.0f requests/s   ",
                 static_cast<unsigned long long>(done), double(m_last_submit) / 1e9,
                 double(done) / since_start);
  }
  std::fflush(stderr);
}

}  // namespace ssd::models
