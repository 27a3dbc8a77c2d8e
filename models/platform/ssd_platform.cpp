#include "models/platform/ssd_platform.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <sys/resource.h>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "config/capacity.h"
#include "ftl/core/preconditioner.h"
#include "ftl/scheme_registry.h"
#include "models/platform/energy.h"
#include "workload/make_workload_source.h"
#include "workload/trace/trace_error.h"
#include "workload/warm_up.h"

namespace ssd::models {

namespace {

uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

HostInterfaceOptions host_options(const config::LoadedConfig& config,
                                  const PlatformRunOptions& options) {
  const auto& workload = config.scenario.workload;
  HostInterfaceOptions host;
  host.queue_depth = workload.queue_depth;
  host.open_loop_slots =
      config.platform.host.submission_queues * config.platform.host.max_queue_depth;
  host.duration_ps = ftl::checked_ps(workload.duration_ms * 1e9, "workload.duration_ms");
  host.expected_requests = workload.requests;
  if (!config.scenario.streams.empty()) {  // each stream keeps its own time limit
    host.duration_ps = 0;
    host.expected_requests = 0;
    for (const config::WorkloadStream& stream : config.scenario.streams) {
      host.expected_requests += stream.workload.requests;
    }
  }
  host.progress = options.progress;
  host.request_log = options.request_log;
  host.sector_bytes = config.platform.nand.sector_bytes;
  return host;
}

TimelineOptions timeline_options(const config::LoadedConfig& config, bool accelerator) {
  const config::RunConfig& run = config.scenario.run;
  const config::NandConfig& nand = config.platform.nand;
  TimelineOptions options;
  options.from = ftl::checked_ps(run.timeline_from_us * 1e6, "run.timeline_from_us");
  if (run.timeline_to_us > 0) {
    options.to = ftl::checked_ps(run.timeline_to_us * 1e6, "run.timeline_to_us");
  }
  options.max_events = run.timeline_max_events;
  options.channels = nand.channels;
  options.dies = nand.channels * nand.chips_per_channel * nand.dies_per_chip;
  options.accelerator = accelerator;
  return options;
}

// What was counted between `before` and `now`. Busy times can shrink when a reservation made
// before moves (NandTiming), so they are clamped at zero.
NandCounters counted_since(const NandCounters& now, const NandCounters& before) {
  NandCounters since = now;
  for (size_t k = 0; k < since.ops.size(); ++k) {
    since.ops[k] -= before.ops[k];
    since.bytes[k] -= before.bytes[k];
    since.multiplane_joined[k] -= before.multiplane_joined[k];
  }
  const auto minus = [](Picoseconds a, Picoseconds b) { return a > b ? a - b : 0; };
  for (size_t d = 0; d < since.die_busy_ps.size() && d < before.die_busy_ps.size(); ++d) {
    since.die_busy_ps[d] = minus(now.die_busy_ps[d], before.die_busy_ps[d]);
  }
  for (size_t c = 0; c < since.channel_busy_ps.size() && c < before.channel_busy_ps.size(); ++c) {
    since.channel_busy_ps[c] = minus(now.channel_busy_ps[c], before.channel_busy_ps[c]);
  }
  since.read_array_ps = minus(now.read_array_ps, before.read_array_ps);
  since.program_array_ps = minus(now.program_array_ps, before.program_array_ps);
  since.erase_array_ps = minus(now.erase_array_ps, before.erase_array_ps);
  return since;
}

FirmwareTotals counted_since(const FirmwareTotals& now, const FirmwareTotals& before) {
  FirmwareTotals since;
  since.commands = now.commands - before.commands;
  since.cycles = now.cycles - before.cycles;
  since.mapping_cycles = now.mapping_cycles - before.mapping_cycles;
  since.busy_ps = now.busy_ps - before.busy_ps;
  since.accelerator_wait_ps = now.accelerator_wait_ps - before.accelerator_wait_ps;
  since.buffer_reads = now.buffer_reads - before.buffer_reads;
  since.work = now.work - before.work;
  return since;
}

}  // namespace

bool uses_accelerator(const config::PlatformConfig& platform) {
  return ftl::needs_hash_engine(platform);
}

SsdPlatform::SsdPlatform(sc_core::sc_module_name name, const config::LoadedConfig& config,
                         const PlatformRunOptions& options)
    : sc_core::sc_module(name), m_config(config) {
  const auto& platform = m_config.platform;
  ftl::FtlDeviceOptions device_options;
  device_options.oracle = m_config.scenario.run.oracle;
  device_options.power_loss = m_config.scenario.power.on();
  device_options.host_data = options.host_data;
  if (uses_accelerator(platform)) {
    m_accelerator = std::make_unique<HashAccelerator>("accelerator", platform.accelerator,
                                                      options.accelerator_waveform);
    m_accelerator_port = std::make_unique<AcceleratorPort>("accelerator_port", *m_accelerator);
    m_accelerator_port->socket.bind(m_accelerator->socket);
    device_options.hash_engine = m_accelerator_port.get();
  }
  m_device = std::make_unique<ftl::FtlDevice>(platform, device_options);
  if (options.source != nullptr) {
    m_source = options.source;
  } else {
    m_own_source = workload::make_workload_source(m_config.scenario.workload,
                                                  config::logical_capacity_bytes(platform),
                                                  platform.nand.sector_bytes);
    m_source = m_own_source.get();
  }

  m_nand = std::make_unique<NandArray>("nand", NandTimingParams::from_config(platform));
  // What the controller's per-die queues hold, for placement that follows load.
  m_device->backend().set_die_load(&m_nand->timing());
  m_dram = std::make_unique<MemoryModel>("dram", MemoryTimingParams::from_config(platform.dram));
  m_nvram = std::make_unique<MemoryModel>("nvram", MemoryTimingParams::from_config(platform.nvram));
  m_processor = std::make_unique<FtlProcessor>("ftl_processor", platform, *m_device);
  // When each data-cache frame frees, for the cache to reuse the one that frees first.
  if (ftl::DataCache* cache = m_device->data_cache()) cache->set_frame_clock(m_processor.get());
  HostInterfaceOptions host = host_options(m_config, options);
  if (options.source != nullptr) {  // the clients decide how long it runs
    host.duration_ps = 0;
    host.expected_requests = 0;
  }
  m_measure_from = ftl::checked_ps(m_config.scenario.ramp_us * 1e6, "fio ramp_time");
  host.measure_from_ps = m_measure_from;
  host.measuring_starts = [this] { start_measuring(); };
  if (options.timeline != nullptr) {
    m_timeline = std::make_unique<Timeline>(*options.timeline,
                                            timeline_options(m_config, m_accelerator != nullptr));
    m_nand->set_span_sink(m_timeline.get());
    m_processor->attach_timeline(m_timeline.get());
    host.timeline = m_timeline.get();
  }
  if (m_config.scenario.power.on()) {
    m_power = std::make_unique<PowerCuts>(
        m_config.scenario.power, m_config.scenario.workload.requests,
        PowerCuts::Parts{*m_device, *m_nand, *m_dram, *m_nvram, *m_processor},
        PowerCuts::Capacitors{platform.controller.capacitor_backed,
                              ftl::checked_ps(platform.controller.capacitor_hold_up_us * 1e6,
                                              "controller.capacitor_hold_up_us")});
    host.power = m_power.get();
  }
  for (const config::WorkloadStream& stream : m_config.scenario.streams) {
    m_stream_sources.push_back(workload::make_workload_source(
        stream.workload, config::logical_capacity_bytes(platform), platform.nand.sector_bytes));
    HostInterfaceOptions::Stream options;
    options.source = m_stream_sources.back().get();
    options.queue_depth = stream.workload.queue_depth;
    options.duration_ps = ftl::checked_ps(stream.workload.duration_ms * 1e9, "fio runtime");
    options.think_ps = ftl::checked_ps(stream.think_us * 1e6, "fio thinktime");
    options.gap_ps =
        stream.rate_iops > 0 ? ftl::checked_ps(1e12 / stream.rate_iops, "fio rate_iops") : 0;
    options.group = stream.group;
    host.streams.push_back(options);
  }
  m_host = std::make_unique<HostInterface>("host", platform.host, *m_source, host);

  m_host->socket.bind(m_processor->host_socket);
  m_processor->nand_socket.bind(m_nand->socket);
  m_processor->dram_socket.bind(m_dram->socket);
  m_processor->nvram_socket.bind(m_nvram->socket);
  m_processor->attach_accelerator(m_accelerator_port.get());
  tlm_utils::tlm_quantumkeeper::set_global_quantum(
      sc_core::sc_time::from_value(static_cast<uint64_t>(platform.sim.quantum_ns * 1000)));
}

SsdPlatform::~SsdPlatform() = default;

void SsdPlatform::precondition() {
  const auto start = std::chrono::steady_clock::now();
  const bool show = m_config.scenario.run.progress;
  auto last_shown = start;
  const auto progress = [&](double share) {
    if (interrupt_requested()) {
      throw RunStopped(
          RunStop::Cause::kInterrupted,
          "interrupted while preconditioning (" + std::to_string(int(share * 100)) + "% done)");
    }
    const auto now = std::chrono::steady_clock::now();
    if (show && seconds_since(start) > 2.0 &&
        (share >= 1.0 || now - last_shown > std::chrono::seconds(1))) {
      last_shown = now;
      std::fprintf(stderr, "\r  preconditioning %5.1f%%", share * 100.0);
      std::fflush(stderr);
    }
  };
  const auto result = ftl::precondition(*m_device, m_config.scenario.precondition, progress);
  m_precondition_units = result.units_written;
  m_precondition_aging = result.aged_by_sampling ? "sampled"
                         : result.overwrites > 0 ? "simulated"
                                                 : "none";
  // Warm-up passes: the workload itself, all but its last run, untimed (workload/warm_up.h).
  const config::WorkloadConfig& workload = m_config.scenario.workload;
  for (uint32_t pass = 1; pass < workload.passes; ++pass) {
    const auto source =
        workload::make_workload_source(workload, config::logical_capacity_bytes(m_config.platform),
                                       m_config.platform.nand.sector_bytes);
    m_warmup_requests += workload::replay_untimed(*m_device, *source, [&](uint64_t requests) {
      if (interrupt_requested()) {
        throw RunStopped(RunStop::Cause::kInterrupted,
                         "interrupted in warm-up pass " + std::to_string(pass));
      }
      const auto now = std::chrono::steady_clock::now();
      if (show && seconds_since(start) > 2.0 && now - last_shown > std::chrono::seconds(1)) {
        last_shown = now;
        std::fprintf(stderr, "\r  warm-up pass %u of %u: %llu requests", pass, workload.passes - 1,
                     static_cast<unsigned long long>(requests));
        std::fflush(stderr);
      }
    });
  }
  if (m_power) {
    // The device's earlier life ended with a flush: what preconditioning wrote is durable, and
    // the durability check starts from it.
    ftl::FlashBackend& backend = m_device->backend();
    backend.set_recording(false);
    ftl::HostCommand flush;
    flush.kind = ftl::CommandKind::kFlush;
    m_device->run(flush);
    backend.set_recording(true);
    m_device->flash().journal_retire(0);
    m_device->start_durability_check();
  }
  m_device->scheme().start_measuring();
  if (ftl::DataCache* cache = m_device->data_cache()) cache->start_measuring();
  m_precondition_wall_s = seconds_since(start);
  if (show && m_precondition_wall_s > 2.0) std::fprintf(stderr, "\n");
}

report::RunReport SsdPlatform::run() {
  Outcome outcome = run_to_end();
  if (!outcome.trace_failure.empty()) throw workload::TraceError(outcome.trace_failure);
  if (outcome.stop.cause != RunStop::Cause::kNone) {
    throw RunStopped(outcome.stop.cause, outcome.stop.message);
  }
  return std::move(*outcome.report);
}

void SsdPlatform::start_measuring() {
  m_stats_before_run = m_device->stats();
  m_written_before_run = m_device->backend().written();
  m_nand_before = m_nand->timing().counters();
  m_firmware_before = m_processor->totals();
  m_dram_before = m_dram->timing().counters();
  m_nvram_before = m_nvram->timing().counters();
  if (m_measure_from > 0) {  // after a ramp: the schemes' and the cache's own figures restart
    m_device->scheme().start_measuring();
    if (ftl::DataCache* cache = m_device->data_cache()) cache->start_measuring();
  }
}

SsdPlatform::Outcome SsdPlatform::run_to_end() {
  start_measuring();  // again at the first measured command (HostInterfaceOptions)
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  Outcome outcome;
  // A trace that turned bad during replay ended the workload early: bad input, not a result.
  outcome.trace_failure = m_source->failure();
  outcome.stop = m_host->stop();
  if (outcome.trace_failure.empty() && outcome.stop.cause == RunStop::Cause::kNone) {
    m_nand->place_queued_gc();
    // The jobs ended within fio's ramp_time: nothing was measured, device counters included.
    if (!m_host->measuring()) start_measuring();
    outcome.report = gather(seconds_since(start));
    if (m_timeline) {
      m_nand->flush_spans();
      m_timeline->finish();
    }
  }
  return outcome;
}

report::RunReport SsdPlatform::gather(double wall_s) const {
  const auto& platform = m_config.platform;
  const HostStats& host = m_host->stats();
  report::RunReport r;
  r.platform_name = platform.name;
  r.platform_file = m_config.platform_path;
  r.scenario_name = m_config.scenario.name;
  r.scenario_file = m_config.scenario_path;
  r.scheme = platform.ftl.scheme;
  r.seed = m_config.scenario.workload.seed;
  r.logical_bytes = config::logical_capacity_bytes(platform);
  r.physical_bytes = config::physical_capacity_bytes(platform);

  using ftl::CommandKind;
  const auto kind = [](CommandKind k) { return static_cast<size_t>(k); };
  r.reads = host.completed[kind(CommandKind::kRead)];
  r.writes = host.completed[kind(CommandKind::kWrite)];
  r.flushes = host.completed[kind(CommandKind::kFlush)];
  r.fua_writes = host.fua_writes;
  r.trims = host.completed[kind(CommandKind::kTrim)];
  r.bytes_read = host.bytes_read;
  r.bytes_written = host.bytes_written;
  r.latency_read = host.latency[kind(CommandKind::kRead)];
  r.latency_write = host.latency[kind(CommandKind::kWrite)];
  r.latency_flush = host.latency[kind(CommandKind::kFlush)];
  r.latency_trim = host.latency[kind(CommandKind::kTrim)];
  r.bytes_trimmed = host.bytes_trimmed;
  // Per stream: each fio job's, or the one stream's (the run's totals).
  const auto stream_report = [&](const std::string& name, const HostStats& stats) {
    report::StreamReport s;
    s.name = name;
    s.reads = stats.completed[kind(CommandKind::kRead)];
    s.writes = stats.completed[kind(CommandKind::kWrite)];
    s.flushes = stats.completed[kind(CommandKind::kFlush)];
    s.trims = stats.completed[kind(CommandKind::kTrim)];
    s.bytes_read = stats.bytes_read;
    s.bytes_written = stats.bytes_written;
    s.bytes_trimmed = stats.bytes_trimmed;
    s.latency_read = stats.latency[kind(CommandKind::kRead)];
    s.latency_write = stats.latency[kind(CommandKind::kWrite)];
    s.latency_flush = stats.latency[kind(CommandKind::kFlush)];
    s.latency_trim = stats.latency[kind(CommandKind::kTrim)];
    s.first_issue_ns = stats.first_issue / 1000;
    s.last_completion_ns = stats.last_completion / 1000;
    return s;
  };
  const std::vector<HostStats>& per_stream = m_host->stream_stats();
  if (per_stream.empty()) {
    r.streams.push_back(stream_report(m_config.scenario.name, host));
  }
  for (size_t i = 0; i < per_stream.size(); ++i) {
    r.streams.push_back(stream_report(m_config.scenario.streams[i].name, per_stream[i]));
    r.streams.back().group = m_config.scenario.streams[i].group;
  }

  const ftl::FtlStats now = m_device->stats();
  const ftl::FtlStats& before = m_stats_before_run;
  const ftl::WriteCounters& written = m_device->backend().written();
  const auto written_in_run = [&](ftl::OpClass c) {
    return written.of(c) - m_written_before_run.of(c);
  };
  r.host_units_written = written_in_run(ftl::OpClass::kHostWrite);
  r.gc_units_written = written_in_run(ftl::OpClass::kGc);
  r.mapping_units_written = written_in_run(ftl::OpClass::kMapping);
  r.padded_units = written.padded - m_written_before_run.padded;
  r.gc_invocations = now.gc_invocations - before.gc_invocations;
  r.gc_pages_copied = now.gc_units_copied - before.gc_units_copied;
  r.gc_erases = now.gc_erases - before.gc_erases;
  r.gc_victims_in_commands = now.gc_victims_in_commands - before.gc_victims_in_commands;
  r.gc_victims_squared_by_command =
      now.gc_victims_squared_by_command - before.gc_victims_squared_by_command;

  const ftl::FlashArray& flash = m_device->flash();
  const uint32_t blocks = m_device->geometry().blocks();
  uint64_t erase_sum = 0;
  r.erase_count_min = blocks ? flash.erase_count(0) : 0;
  for (ftl::BlockId b = 0; b < blocks; ++b) {
    const uint64_t count = flash.erase_count(b);
    r.erase_count_min = std::min(r.erase_count_min, count);
    r.erase_count_max = std::max(r.erase_count_max, count);
    erase_sum += count;
  }
  r.erase_count_mean = blocks ? double(erase_sum) / blocks : 0.0;

  const NandCounters nand = counted_since(m_nand->timing().counters(), m_nand_before);
  r.nand_reads = nand.count(ftl::OpKind::kRead);
  r.nand_spare_reads = nand.count(ftl::OpKind::kSpareRead);
  r.nand_programs = nand.count(ftl::OpKind::kProgram);
  r.nand_erases = nand.count(ftl::OpKind::kErase);
  r.nand_copybacks = nand.count(ftl::OpKind::kCopyback);
  r.nand_joined_reads = nand.joined(ftl::OpKind::kRead);
  r.nand_joined_spare_reads = nand.joined(ftl::OpKind::kSpareRead);
  r.nand_joined_programs = nand.joined(ftl::OpKind::kProgram);
  r.nand_joined_erases = nand.joined(ftl::OpKind::kErase);
  for (const Picoseconds busy : nand.die_busy_ps) r.die_busy_ns.push_back(busy / 1000);
  for (const Picoseconds busy : nand.channel_busy_ps) r.channel_busy_ns.push_back(busy / 1000);

  r.mapping_memory_bytes = m_device->scheme().mapping_memory_bytes();
  r.mapping_cache_hit_ratio = m_device->scheme().cache_hit_ratio();
  for (const ftl::MappingFigure& figure : m_device->scheme().mapping_figures()) {
    r.mapping_figures.push_back(
        {figure.name, figure.value, figure.whole, figure.text, figure.counts});
  }

  const FirmwareTotals firmware = counted_since(m_processor->totals(), m_firmware_before);
  r.controller.cpu_cycles = firmware.cycles;
  r.controller.mapping_cycles = firmware.mapping_cycles;
  r.controller.busy_ns = firmware.busy_ps / 1000;
  r.controller.buffer_reads = firmware.buffer_reads;
#define SSD_REPORT_COUNT(count, unit, default_cycles, is_mapping, description) \
  r.controller.count = firmware.work.count;
  SSD_CPU_PRIMITIVES(SSD_REPORT_COUNT)
#undef SSD_REPORT_COUNT
  if (m_accelerator) {
    report::RunReport::Accelerator& a = r.accelerator.emplace();
    a.engine = m_accelerator->runs_rtl() ? "rtl" : "model";
    a.buckets = 1u << m_accelerator->engine_config().bucket_bits;
    a.ways = m_accelerator->engine_config().ways;
    a.clock_mhz = platform.accelerator.clock_mhz;
    a.commands = firmware.work.accelerator_commands;
    a.cycles = firmware.work.accelerator_cycles;
    a.wait_ns = firmware.accelerator_wait_ps / 1000;
    a.entries = m_accelerator->entries();
    a.refused_inserts = m_accelerator->refused_inserts();
  }

  r.dram_read_bytes = m_dram->timing().counters().read_bytes - m_dram_before.read_bytes;
  r.dram_write_bytes = m_dram->timing().counters().write_bytes - m_dram_before.write_bytes;
  r.nvram_read_bytes = m_nvram->timing().counters().read_bytes - m_nvram_before.read_bytes;
  r.nvram_write_bytes = m_nvram->timing().counters().write_bytes - m_nvram_before.write_bytes;

  if (const ftl::DataCache* cache = m_device->data_cache()) {
    report::RunReport::Cache& c = r.cache.emplace();
    const ftl::CacheCounts& n = cache->counts();
    c.mode = platform.cache.mode;
    c.capacity_bytes = platform.cache.capacity_bytes;
    c.line_bytes = cache->line_bytes();
    c.capacity_lines = cache->capacity_lines();
    c.read_caching = platform.cache.read_caching;
    c.read_hit_units = n.read_hit_units;
    c.read_miss_units = n.read_miss_units;
    c.write_hit_units = n.write_hit_units;
    c.write_miss_units = n.write_miss_units;
    c.fill_units = n.fill_units;
    c.evicted_lines = n.evicted_lines;
    c.dirty_evictions = n.dirty_evictions;
    c.write_back_units = n.write_back_units;
    c.background_write_back_units = n.background_write_back_units;
    c.flush_write_back_units = n.flush_write_back_units;
    c.lines_at_end = cache->lines();
    c.dirty_lines_at_end = cache->dirty_lines();
    c.peak_lines = n.peak_lines;
    c.peak_dirty_lines = n.peak_dirty_lines;
    c.read_ahead_bytes = platform.cache.read_ahead_bytes;
    c.read_ahead_units = n.read_ahead_units;
    c.read_ahead_hit_units = n.read_ahead_hit_units;
  }

  const ftl::Oracle* oracle = m_device->oracle();
  r.integrity_enabled = oracle != nullptr;
  if (oracle) {
    r.integrity_checked_reads = oracle->checked_reads();
    r.integrity_mismatches = oracle->mismatches();
    r.integrity_first_mismatch = oracle->first_mismatch();
  }
  if (m_power) {
    r.power = m_power->report();
    r.power->lost_commands = host.lost_commands;
  }
  r.precondition_units_written = m_precondition_units;
  r.precondition_aging = m_precondition_aging;
  r.warmup_passes = m_config.scenario.workload.passes - 1;
  r.warmup_requests = m_warmup_requests;
  r.precondition_wall_s = m_precondition_wall_s;
  // The measured window: from the ramp's end (0 without one) to the last completion.
  r.simulated_ns = (std::max(host.last_completion, m_measure_from) - m_measure_from) / 1000;
  EnergyInputs energy;
  energy.nand = &nand;
  energy.dies = m_device->geometry().dies();
  energy.simulated_ns = r.simulated_ns;
  energy.cpu_cycles = r.controller.cpu_cycles;
  energy.dram_bytes = r.dram_read_bytes + r.dram_write_bytes;
  energy.nvram_bytes = r.nvram_read_bytes + r.nvram_write_bytes;
  r.energy = energy_of(platform.energy, energy);
  r.wall_s = wall_s;
  r.peak_rss_bytes = peak_rss_bytes();
  if (const workload::TraceReplayStats* trace = m_source->trace_stats()) {
    report::TraceWorkloadReport& w = r.trace.emplace();
    w.file = trace->file;
    w.format = trace->format;
    w.blkparse_action = trace->blkparse_action;
    w.lines = trace->lines;
    w.records = trace->records;
    w.skipped_lines = trace->skipped_lines;
    w.first_skipped = trace->first_skipped;
    w.devices = trace->devices;
    w.device_selection = trace->device_selection;
    w.fit = trace->fit;
    w.fit_applied = trace->fit_applied;
    w.scale_factor = trace->scale_factor;
    w.speed = trace->speed;
    w.mode = m_config.scenario.workload.mode;
  }
  return r;
}

}  // namespace ssd::models
