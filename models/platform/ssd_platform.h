// The whole simulated SSD, wired from a platform and a scenario: host interface -> FTL processor
// -> NAND array, DRAM and NVRAM (one memory model, two configurations). Construct it during
// elaboration, call precondition() (untimed) and then run(), which starts the SystemC kernel and
// returns the report. One platform per process: SystemC cannot elaborate twice.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <systemc>

#include "config/config_loader.h"
#include "ftl/core/ftl_device.h"
#include "ftl/core/ftl_stats.h"
#include "models/accelerator/accelerator_port.h"
#include "models/accelerator/hash_accelerator.h"
#include "models/common/run_stop.h"
#include "models/controller/ftl_processor.h"
#include "models/host/host_interface.h"
#include "models/memory/memory_model.h"
#include "models/nand/nand_array.h"
#include "models/platform/power_cuts.h"
#include "models/timeline/timeline.h"
#include "report/run_report.h"
#include "workload/workload_source.h"

namespace ssd::models {

// Whether the platform has the hash-lookup accelerator: its scheme, with its settings, needs one
// (VET with ftl.vet.hash_backend = accelerator).
bool uses_accelerator(const config::PlatformConfig& platform);

struct PlatformRunOptions {
  bool progress = false;
  std::ostream* request_log = nullptr;
  std::string accelerator_waveform;  // FST file of the RTL accelerator's signals ("" = none)
  // Where the run's timeline goes (run.timeline; models/timeline/timeline.h), or none. Written
  // as the run goes and closed when it ends well; a run that ends early leaves it unclosed.
  std::ostream* timeline = nullptr;
  // The workload, when not the scenario's: live clients (ssdsim serve). Open loop, one stream;
  // must outlive the platform. The scenario's workload section is then not used.
  workload::WorkloadSource* source = nullptr;
  // The device keeps the bytes clients write (ftl::FtlDeviceOptions::host_data).
  bool host_data = false;
};

class SsdPlatform : public sc_core::sc_module {
 public:
  SsdPlatform(sc_core::sc_module_name name, const config::LoadedConfig& config,
              const PlatformRunOptions& options);
  ~SsdPlatform() override;

  // Fills and ages the device as the scenario asks, with no timing. Call before run(). Throws
  // RunStopped when interrupted (request_interrupt()).
  void precondition();
  // Runs the workload to its end and gathers the report. Throws RunStopped when the run ended
  // early (interrupted, past the latest simulated time, a command the FTL could not serve) and
  // workload::TraceError when the trace turned bad during the replay.
  report::RunReport run();
  // The same without throwing those: what a program that ran SystemC's threads should use. An
  // exception thrown on the main stack once SystemC has switched stacks is not unwound cleanly
  // under AddressSanitizer (it cannot tell which stack it is on, leaves the unwound frames
  // poisoned and reports the next calls there as stack overflows).
  struct Outcome {
    std::optional<report::RunReport> report;  // absent when the run ended early
    RunStop stop;                             // why it ended early (cause kNone: it did not)
    std::string trace_failure;                // set: the trace turned bad during the replay
  };
  Outcome run_to_end();

  ftl::FtlDevice& device() { return *m_device; }
  const HostInterface& host() const { return *m_host; }
  const NandArray& nand() const { return *m_nand; }
  // The run's timeline, when PlatformRunOptions::timeline asked for one.
  const Timeline* timeline() const { return m_timeline.get(); }

 private:
  report::RunReport gather(double wall_s) const;
  // The report measures from here (the first command, or the end of fio's ramp_time): the
  // counters as they are now are what gather() subtracts.
  void start_measuring();

  config::LoadedConfig m_config;
  // Before the device, which sends VET's commands to the port: destroyed after it.
  std::unique_ptr<HashAccelerator> m_accelerator;  // only for VET with the accelerator backend
  std::unique_ptr<AcceleratorPort> m_accelerator_port;
  std::unique_ptr<ftl::FtlDevice> m_device;
  std::unique_ptr<workload::WorkloadSource> m_own_source;  // the scenario's workload
  workload::WorkloadSource* m_source = nullptr;            // what the host runs
  std::vector<std::unique_ptr<workload::WorkloadSource>> m_stream_sources;  // scenario.streams
  std::unique_ptr<NandArray> m_nand;
  std::unique_ptr<MemoryModel> m_dram;
  std::unique_ptr<MemoryModel> m_nvram;
  std::unique_ptr<FtlProcessor> m_processor;
  std::unique_ptr<PowerCuts> m_power;    // only when the scenario cuts power
  std::unique_ptr<Timeline> m_timeline;  // only when the run writes one
  std::unique_ptr<HostInterface> m_host;
  // The counters when measuring started (start_measuring()).
  ftl::FtlStats m_stats_before_run;
  ftl::WriteCounters m_written_before_run;
  NandCounters m_nand_before;
  FirmwareTotals m_firmware_before;
  MemoryCounters m_dram_before;
  MemoryCounters m_nvram_before;
  Picoseconds m_measure_from = 0;  // the ramp's end (0: the run's start)
  uint64_t m_precondition_units = 0;
  std::string m_precondition_aging = "none";  // RunReport::precondition_aging
  uint64_t m_warmup_requests = 0;
  double m_precondition_wall_s = 0.0;
};

}  // namespace ssd::models
