#include "models/controller/ftl_processor.h"

#include <algorithm>
#include <cmath>

#include "models/accelerator/accelerator_port.h"
#include "models/common/host_command_extension.h"
#include "models/timeline/timeline.h"

namespace ssd::models {

CpuCosts CpuCosts::from_config(const config::ControllerConfig& c) {
  CpuCosts costs;
  costs.ps_per_cycle = 1e6 / c.cpu_mhz;
  costs.per_command = c.cycles_per_command;
  costs.prices = c;
  return costs;
}

uint64_t CpuCosts::cycles(const ftl::CpuWork& w) const {
  double primitives = 0.0;
#define SSD_PRICE(count, unit, default_cycles, is_mapping, description) \
  primitives += double(w.count) * prices.cycles_per_##unit;
  SSD_CPU_PRIMITIVES(SSD_PRICE)
#undef SSD_PRICE
  // A count of cycles, not a time, but as large: the same bound keeps the rounding defined.
  return per_command + ftl::checked_ps(primitives, "one command's firmware cycles");
}

uint64_t CpuCosts::mapping_cycles(const ftl::CpuWork& w) const {
  return static_cast<uint64_t>(std::llround(ftl::mapping_cycles(w, prices)));
}

FtlProcessor::FtlProcessor(sc_core::sc_module_name name, const config::PlatformConfig& platform,
                           ftl::FtlDevice& device)
    : sc_core::sc_module(name),
      host_socket("host_socket"),
      nand_socket("nand_socket"),
      dram_socket("dram_socket"),
      nvram_socket("nvram_socket"),
      m_device(device),
      m_costs(CpuCosts::from_config(platform.controller)),
      m_write_waits_for_gc(platform.controller.write_waits_for_gc) {
  host_socket.register_b_transport(this, &FtlProcessor::b_transport);
  m_op_payload.set_extension(&m_op_extension);
  m_op_payload.set_data_ptr(m_scratch);
  m_op_payload.set_streaming_width(0);
  m_op_payload.set_byte_enable_ptr(nullptr);
  m_op_payload.set_dmi_allowed(false);
}

// The payload would delete its extensions on destruction; ours is a member, not heap-allocated.
FtlProcessor::~FtlProcessor() { m_op_payload.clear_extension(&m_op_extension); }

Picoseconds FtlProcessor::issue(const ftl::FlashOp& op, Picoseconds ready) {
  using ftl::OpKind;
  m_op_extension.op = &op;
  m_op_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  m_op_payload.set_address(0);
  m_op_payload.set_data_length(op.bytes);
  m_op_payload.set_streaming_width(op.bytes);
  const bool is_write = op.kind == OpKind::kProgram || op.kind == OpKind::kErase ||
                        op.kind == OpKind::kCopyback || op.kind == OpKind::kDramWrite ||
                        op.kind == OpKind::kNvramWrite;
  m_op_payload.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  const Picoseconds now = to_ps(sc_core::sc_time_stamp());
  sc_core::sc_time delay = to_sc_time(ready - now);
  if (ftl::is_flash_op(op.kind)) {
    nand_socket->b_transport(m_op_payload, delay);
  } else if (op.kind == OpKind::kDramRead || op.kind == OpKind::kDramWrite) {
    dram_socket->b_transport(m_op_payload, delay);
  } else {
    nvram_socket->b_transport(m_op_payload, delay);
  }
  if (m_op_payload.is_response_error()) {
    SC_REPORT_ERROR(name(), m_op_payload.get_response_string().c_str());
  }
  return now + to_ps(delay);
}

void FtlProcessor::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  auto* extension = payload.get_extension<HostCommandExtension>();
  if (!extension || !extension->command) {
    SC_REPORT_ERROR(name(), "host transaction without a HostCommandExtension");
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const Picoseconds ready = to_ps(sc_core::sc_time_stamp() + delay);
  try {
    const Picoseconds completion = serve(*extension->command, ready, extension->mismatches);
    delay = to_sc_time(completion) - sc_core::sc_time_stamp();
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  } catch (const std::exception& error) {
    // The FTL could not serve the command (no free block left, ...) or a time went past the latest
    // simulated time: the host stops the run and says why.
    extension->failure = error.what();
    extension->time_limit = dynamic_cast<const ftl::TimeLimitError*>(&error) != nullptr;
    payload.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  }
}

Picoseconds FtlProcessor::serve(ftl::HostCommand& command, Picoseconds ready, uint64_t& mismatches,
                                const char* what) {
  // Functional first: the firmware runs to completion and leaves its operations behind.
  // Accelerator time from before this command (preconditioning) is not this command's.
  if (m_accelerator != nullptr) m_accelerator->take_wait_ps();
  m_command_ready = ready;
  mismatches = m_device.run(command);
  ftl::FlashBackend& backend = m_device.backend();

  // The firmware's time: its cycles, plus the accelerator answers it waited for (each command
  // depends on the previous answer, so the CPU is held while the engine works).
  const ftl::CpuWork& work = backend.cpu_work();
  const uint64_t cycles = m_costs.cycles(work);
  const Picoseconds accelerator_ps = m_accelerator != nullptr ? m_accelerator->take_wait_ps() : 0;
  const Picoseconds cpu_start = std::max(ready, m_cpu_free_at);
  const Picoseconds cpu_ps =
      ftl::checked_ps(double(cycles) * m_costs.ps_per_cycle, "one command's firmware time");
  const Picoseconds cpu_end = cpu_start + cpu_ps + accelerator_ps;
  m_cpu_free_at = cpu_end;
  m_totals.busy_ps += cpu_ps + accelerator_ps;
  m_totals.cycles += cycles;
  m_totals.mapping_cycles += m_costs.mapping_cycles(work);
  m_totals.accelerator_wait_ps += accelerator_ps;
  m_totals.work += work;
  ++m_totals.commands;
  if (m_timeline != nullptr) {
    m_timeline->firmware(what != nullptr ? what : ftl::to_string(command.kind), cpu_start,
                         cpu_start + cpu_ps, cpu_end, cycles, work.accelerator_commands);
  }

  // GC runs in the foreground of the write that needed the space (GC is incremental: one victim
  // per page at most, so that is bounded), at GC priority on the dies: other commands' reads and
  // writes go ahead of GC operations that have not started. With controller.write_waits_for_gc
  // off, the command completes with its own operations (and what they wait for) and its GC runs
  // behind it. A flush waits for everything; so does an operation marked kAfterAll, and one
  // marked kAfterData waits for everything but the command's other kAfterData operations.
  // A read of a page whose program is still in flight is served from that program's buffer.
  // A FUA write (the write, then the scheme's flush: ftl::FtlDevice::run) completes with every
  // operation it recorded, GC's included whatever write_waits_for_gc says: a merge may program
  // the write's own data as GC work. Unlike a flush it does not wait for earlier commands.
  const bool fua = command.kind == ftl::CommandKind::kWrite && command.fua;
  Picoseconds completion = time_ops(cpu_end, fua);
  if (command.kind == ftl::CommandKind::kFlush) completion = std::max(completion, m_all_done_at);
  return completion;
}

Picoseconds FtlProcessor::time_ops(Picoseconds cpu_end, bool with_gc) {
  ftl::FlashBackend& backend = m_device.backend();
  const ftl::OpList& ops = backend.ops();
  m_done.resize(ops.size());
  m_program_buffers.advance(to_ps(sc_core::sc_time_stamp()));
  Picoseconds completion = cpu_end;
  Picoseconds before_data = m_all_done_at;  // what a kAfterData operation waits for
  const std::vector<ftl::FlashBackend::Supersedes>& supersedes = backend.supersedes();
  size_t next_supersedes = 0;
  const std::vector<ftl::FlashBackend::FrameFill>& fills = backend.frame_fills();
  const std::vector<ftl::FlashBackend::FrameRelease>& releases = backend.frame_releases();
  const std::vector<ftl::FlashBackend::FrameAccess>& accesses = backend.frame_accesses();
  size_t next_fill = 0;
  size_t next_release = 0;
  size_t next_access = 0;
  // What a command (or a cache frame's write-back) waits for: GC only when writes wait for it.
  const auto waited_for = [&](const ftl::FlashOp& op) {
    return with_gc || m_write_waits_for_gc || op.op_class != ftl::OpClass::kGc;
  };
  for (uint32_t i = 0; i < ops.size(); ++i) {
    const ftl::FlashOp& op = ops[i];
    Picoseconds op_ready = op.after == ftl::kNone        ? cpu_end
                           : op.after == ftl::kAfterAll  ? std::max(cpu_end, m_all_done_at)
                           : op.after == ftl::kAfterData ? std::max(cpu_end, before_data)
                                                         : std::max(cpu_end, m_done[op.after]);
    // New data for a data-cache frame waits until the frame's last write-back is done.
    for (; next_fill < fills.size() && fills[next_fill].op == i; ++next_fill) {
      op_ready = std::max(op_ready, frame_free_at(fills[next_fill].frame));
    }
    // A read of a frame's data waits until data read ahead into the frame has landed.
    const size_t first_access = next_access;
    for (; next_access < accesses.size() && accesses[next_access].op == i; ++next_access) {
      const uint32_t frame = accesses[next_access].frame;
      if (!accesses[next_access].load && frame < m_frame_loaded_at.size()) {
        op_ready = std::max(op_ready, m_frame_loaded_at[frame]);
      }
    }
    // A power-loss safe erase waits for the programs of its units' newer copies.
    if (op.kind == ftl::OpKind::kErase && !m_superseded_until.empty()) {
      op_ready = std::max(op_ready, m_superseded_until[m_device.geometry().block_of_page(op.page)]);
    }
    if (ftl::is_flash_read(op.kind) && m_program_buffers.holds(op.page, op_ready)) {
      ftl::FlashOp from_buffer = op;
      from_buffer.kind = ftl::OpKind::kDramRead;
      m_done[i] = issue(from_buffer, op_ready);
      ++m_totals.buffer_reads;
    } else {
      m_done[i] = issue(op, op_ready);
    }
    if (op.kind == ftl::OpKind::kProgram) m_program_buffers.programmed(op.page, m_done[i]);
    for (; next_supersedes < supersedes.size() && supersedes[next_supersedes].op == i;
         ++next_supersedes) {
      if (m_superseded_until.empty()) m_superseded_until.assign(m_device.geometry().blocks(), 0);
      Picoseconds& until = m_superseded_until[supersedes[next_supersedes].block];
      until = std::max(until, m_done[i]);
    }
    for (size_t k = first_access; k < next_access; ++k) {
      if (!accesses[k].load) continue;
      // Data read ahead is in the frame from now on; the frame takes no new data before.
      const uint32_t frame = accesses[k].frame;
      if (frame >= m_frame_loaded_at.size()) m_frame_loaded_at.resize(frame + 1, 0);
      m_frame_loaded_at[frame] = m_done[i];
      Picoseconds& free_at = frame_free_entry(frame);
      free_at = std::max(free_at, m_done[i]);
    }
    backend.op_completed(i, m_done[i], m_op_extension.array_start);
    m_all_done_at = std::max(m_all_done_at, m_done[i]);
    if (op.after != ftl::kAfterData) before_data = std::max(before_data, m_done[i]);
    // A background operation (a data cache's write-back at its watermark) runs behind.
    if (!op.background && waited_for(op)) completion = std::max(completion, m_done[i]);
    for (; next_release < releases.size() && releases[next_release].end <= i + 1; ++next_release) {
      const ftl::FlashBackend::FrameRelease& release = releases[next_release];
      Picoseconds free_at = 0;
      for (uint32_t k = release.first; k < release.end; ++k) {
        if (waited_for(ops[k])) free_at = std::max(free_at, m_done[k]);
      }
      Picoseconds& frame = frame_free_entry(release.frame);
      frame = std::max(frame, free_at);
    }
  }
  return completion;
}

Picoseconds& FtlProcessor::frame_free_entry(uint32_t frame) {
  if (frame >= m_frame_free_at.size()) m_frame_free_at.resize(frame + 1, 0);
  return m_frame_free_at[frame];
}

Picoseconds FtlProcessor::flush_on_capacitors(Picoseconds at) {
  ftl::HostCommand flush;
  flush.kind = ftl::CommandKind::kFlush;
  uint64_t mismatches = 0;
  const FirmwareTotals host_commands = m_totals;
  const Picoseconds done = serve(flush, at, mismatches, "capacitor flush");
  m_totals = host_commands;
  return done;
}

void FtlProcessor::power_off(Picoseconds cut) {
  m_cpu_free_at = cut;
  m_all_done_at = cut;
  std::fill(m_superseded_until.begin(), m_superseded_until.end(), 0);
  m_frame_free_at.clear();  // the data cache is gone with the DRAM
  m_frame_loaded_at.clear();
  m_program_buffers.clear();
}

Picoseconds FtlProcessor::time_batch(Picoseconds ready) {
  const ftl::CpuWork& work = m_device.backend().cpu_work();
  // The recovery's own firmware work: its primitives, with no per-command overhead.
  const uint64_t cycles = m_costs.cycles(work) - m_costs.per_command;
  Picoseconds cpu_start = std::max(ready, m_cpu_free_at);
  // A step with no operation works on what the earlier steps read (rebuilding a map from the
  // scan): it starts once those reads are done.
  if (m_device.backend().ops().size() == 0) cpu_start = std::max(cpu_start, m_all_done_at);
  const Picoseconds cpu_end = cpu_start + ftl::checked_ps(double(cycles) * m_costs.ps_per_cycle,
                                                          "a recovery step's firmware");
  m_cpu_free_at = cpu_end;
  if (m_timeline != nullptr)
    m_timeline->firmware("recovery", cpu_start, cpu_end, cpu_end, cycles, 0);
  return time_ops(cpu_end);
}

}  // namespace ssd::models
