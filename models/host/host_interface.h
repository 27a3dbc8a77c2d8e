// The host side of an NVMe-style link. Takes requests from a workload source and submits them to
// the controller: closed loop keeps a fixed number of commands in flight (the queue depth); open
// loop submits at the arrival times, limited by the submission queues' entries. Each command pays
// a fixed per-command overhead (doorbell, fetch, completion entry), write data crosses PCIe to the
// device before the controller sees the command, read data crosses back after it completes;
// each direction of the link is a busy-until resource. Latency runs from arrival (open loop) or
// submission (closed loop) to the completion of the last byte.
// Runs as one SC_THREAD with temporal decoupling (tlm_quantumkeeper): it synchronises with the
// kernel only when its local time passes the global quantum. It stops the run early, saying why
// (stop()), when asked to (SIGINT), when a time would pass the latest simulated time, or when the
// controller could not serve a command.
// Not modelled: several hosts, interrupt coalescing, arbitration between submission queues,
// PCIe packet overheads beyond the line encoding.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <queue>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "config/platform_config.h"
#include "config/scenario_config.h"
#include "models/common/host_command_extension.h"
#include "models/common/run_stop.h"
#include "models/common/sim_time.h"
#include "models/host/host_stats.h"
#include "models/host/power_loss.h"
#include "workload/workload_source.h"

namespace ssd::models {

class Timeline;

struct HostInterfaceOptions {
  uint32_t queue_depth = 32;  // closed loop: commands in flight
  uint32_t sector_bytes = 512;
  uint32_t open_loop_slots = 1024;      // open loop: submission queue entries in all
  Picoseconds duration_ps = 0;          // stop submitting after this simulated time (0 = no limit)
  uint64_t expected_requests = 0;       // for progress percentages (0 = unknown)
  bool progress = false;                // print progress to stderr on long runs
  std::ostream* request_log = nullptr;  // CSV of every command, or none
  PowerLoss* power = nullptr;           // power cuts (power_loss.h), or none
  Timeline* timeline = nullptr;         // the run's timeline (its queue depth), or none
  // Several closed-loop streams (an fio job file's jobs), each with its own queue depth and time
  // limit (0: none), submitting at once as fio's jobs do: the next command is the stream's whose
  // slot frees first (equal times: the one that submitted least recently). Empty: one stream,
  // the source the host is given, with queue_depth and duration_ps above. Not with power cuts.
  // A stream's slot frees think_ps after its command completes; it submits at most one command
  // per gap_ps; it starts once every stream of an earlier group has ended (its last command
  // completed), and its time limit counts from there.
  struct Stream {
    workload::WorkloadSource* source = nullptr;
    uint32_t queue_depth = 1;
    Picoseconds duration_ps = 0;
    Picoseconds think_ps = 0;
    Picoseconds gap_ps = 0;
    uint32_t group = 0;
  };
  std::vector<Stream> streams;
  // Nothing is measured before this simulated time (fio's ramp_time): commands submitted earlier
  // run but are not counted, and the streams' time limits count from here. When the first
  // command at or after it is submitted, measuring_starts() is called (the platform restarts its
  // device counters there) and that command's arrival is the run's first.
  Picoseconds measure_from_ps = 0;
  std::function<void()> measuring_starts;
};

class HostInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostInterface> socket;

  SC_HAS_PROCESS(HostInterface);
  HostInterface(sc_core::sc_module_name name, const config::HostConfig& host,
                workload::WorkloadSource& source, const HostInterfaceOptions& options);
  ~HostInterface() override;

  const HostStats& stats() const { return m_stats; }
  // Per stream of HostInterfaceOptions::streams, in order (empty with one stream).
  const std::vector<HostStats>& stream_stats() const { return m_stream_stats; }
  bool finished() const { return m_finished; }
  // A command at or after HostInterfaceOptions::measure_from_ps was submitted.
  bool measuring() const { return m_measuring; }
  // Why the run stopped before the workload's end (cause kNone when it did not).
  const RunStop& stop() const { return m_stop; }

 private:
  void run();
  Picoseconds submit_time(const workload::Request& request);
  // The next request to submit, when, and from which stream; false when every stream is done.
  bool next_request(workload::Request& request, Picoseconds& submitted, size_t& stream);
  // The same for several streams (HostInterfaceOptions::streams).
  bool next_of_streams(workload::Request& request, Picoseconds& submitted, size_t& stream);
  // Completion times of the commands in flight of `stream`, earliest on top.
  using CompletionQueue =
      std::priority_queue<Picoseconds, std::vector<Picoseconds>, std::greater<>>;
  // A command of `stream` completes at `completion`: its slot frees then (after the think time).
  void note_completion(size_t stream, Picoseconds completion);
  Picoseconds submit(ftl::HostCommand& command, Picoseconds submitted);
  workload::WorkloadSource& source_of(size_t stream) {
    return m_streams.empty() ? m_source : *m_streams[stream].options.source;
  }
  void record(const ftl::HostCommand& command, Picoseconds arrival, Picoseconds submitted,
              Picoseconds completion, size_t stream = 0);
  void maybe_report_progress();
  // With power cuts a command is recorded only once no cut can come before its completion:
  // settle() records those done by `now`; cut_power() cuts at `at`, drops the rest (never
  // acknowledged) and returns when the device is back.
  struct Unsettled {
    ftl::HostCommand command;
    Picoseconds arrival;
    Picoseconds submitted;
    Picoseconds completion;
    // What it makes durable once complete (PowerLoss): a flush what came before
    // `durable.end`, a FUA write its own changes, `durable`.
    ftl::ChangeSpan durable;
    bool operator>(const Unsettled& other) const { return completion > other.completion; }
  };
  void settle(Picoseconds now);
  Picoseconds cut_power(Picoseconds at);
  // Records why the run stops, naming the request (1-based) it stopped at.
  void stop_at(RunStop::Cause cause, const std::string& reason, uint64_t request);

  workload::WorkloadSource& m_source;
  HostInterfaceOptions m_options;
  Picoseconds m_command_overhead;
  double m_pcie_ps_per_byte;
  Picoseconds m_to_device_free = 0;  // PCIe, host to device
  Picoseconds m_to_host_free = 0;    // PCIe, device to host
  Picoseconds m_last_submit = 0;
  // Completion times of the commands in flight, earliest on top (one stream).
  CompletionQueue m_in_flight;
  // Several streams: each one's state (HostInterfaceOptions::streams).
  struct StreamState {
    HostInterfaceOptions::Stream options;
    CompletionQueue in_flight;
    workload::Request next;  // drawn, not yet submitted (valid when `drawn`)
    bool drawn = false;
    bool done = false;
    Picoseconds last_submit = 0;
    Picoseconds last_completion = 0;
    Picoseconds start = 0;   // its group's start
    bool submitted = false;  // it has submitted a command
    uint64_t last_pick = 0;  // when it last submitted, in submissions
  };
  std::vector<StreamState> m_streams;
  // The group whose streams run now, and when it started (the end of every earlier one).
  uint32_t m_group = 0;
  Picoseconds m_group_start = 0;
  uint64_t m_picks = 0;
  HostStats m_stats;
  std::vector<HostStats> m_stream_stats;
  std::priority_queue<Unsettled, std::vector<Unsettled>, std::greater<>> m_unsettled;
  bool m_finished = false;
  bool m_measuring = false;  // a command at or after measure_from_ps has been submitted
  RunStop m_stop;

  tlm::tlm_generic_payload m_payload;
  HostCommandExtension m_extension;
  unsigned char m_scratch[8] = {};

  std::chrono::steady_clock::time_point m_wall_start;
  std::chrono::steady_clock::time_point m_last_progress;
  bool m_progress_shown = false;
};

}  // namespace ssd::models
