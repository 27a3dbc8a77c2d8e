// The FTL processor: the controller's embedded CPU running the mapping scheme. For each host
// command it runs the FTL functionally (ftl::FtlDevice), prices the firmware's primitive work in
// CPU cycles at the platform's clock (one core: commands' firmware work is serialised), then
// issues the recorded flash and memory operations to the NAND, DRAM and NVRAM targets, each no
// earlier than the CPU work and the operation it depends on. The command completes when its last
// operation does, GC it triggered included (foreground GC, at GC priority on the dies, so other
// commands' operations go ahead of it); a flush waits for every operation issued before it.
// Loosely timed: b_transport returns the completion as an annotated delay, no wait() inside.
// Not modelled: multiple FTL cores, firmware pipelining across commands, interrupts.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "config/platform_config.h"
#include "ftl/cache/frame_clock.h"
#include "ftl/core/ftl_device.h"
#include "models/common/flash_op_extension.h"
#include "models/common/sim_time.h"
#include "models/controller/program_buffers.h"

namespace ssd::models {

// Cycles per primitive, from the platform (config/cpu_primitives.h lists the primitives).
struct CpuCosts {
  double ps_per_cycle = 0;
  uint64_t per_command = 0;
  config::ControllerConfig prices;  // controller.cycles_per_<unit>

  static CpuCosts from_config(const config::ControllerConfig& controller);
  // Cycles of `work`: the per-command overhead plus every primitive at its price, rounded once.
  uint64_t cycles(const ftl::CpuWork& work) const;
  // The part of cycles() spent on mapping primitives (table, hash, tree, list, accelerator
  // commands): what a mapping scheme costs the CPU, beside per-command and flash-op overhead.
  uint64_t mapping_cycles(const ftl::CpuWork& work) const;
};

// What the FTL processor did over the host commands it served (not preconditioning).
struct FirmwareTotals {
  uint64_t commands = 0;
  uint64_t cycles = 0;          // CPU cycles
  uint64_t mapping_cycles = 0;  // of which mapping primitives (CpuCosts::mapping_cycles)
  Picoseconds busy_ps = 0;      // CPU time, accelerator waits included
  Picoseconds accelerator_wait_ps = 0;
  uint64_t buffer_reads = 0;  // flash reads served from a page buffer (program_buffers.h)
  ftl::CpuWork work;          // primitive counts
};

class AcceleratorPort;
class Timeline;

class FtlProcessor : public sc_core::sc_module, public ftl::FrameClock {
 public:
  tlm_utils::simple_target_socket<FtlProcessor> host_socket;
  tlm_utils::simple_initiator_socket<FtlProcessor> nand_socket;
  tlm_utils::simple_initiator_socket<FtlProcessor> dram_socket;
  tlm_utils::simple_initiator_socket<FtlProcessor> nvram_socket;

  FtlProcessor(sc_core::sc_module_name name, const config::PlatformConfig& platform,
               ftl::FtlDevice& device);
  ~FtlProcessor() override;

  const FirmwareTotals& totals() const { return m_totals; }
  // When data-cache frame `frame` may take new data (its last write-back done).
  Picoseconds frame_free_at(uint32_t frame) const override {
    return frame < m_frame_free_at.size() ? m_frame_free_at[frame] : 0;
  }
  Picoseconds now() const override { return m_command_ready; }

  // Power loss (models/platform/power_cuts.h). The power went off at `cut`: the CPU and the
  // operations in flight stopped, the program buffers are lost.
  void power_off(Picoseconds cut);
  // Power-loss protection (controller.capacitor_backed): the power failed at `at`; held up by its
  // capacitors the controller runs a flush (after everything issued, as any flush) and returns
  // when it completes, when the power then goes. Not a host command: not in totals().
  Picoseconds flush_on_capacitors(Picoseconds at);
  // Times a batch of a recovery's operations (ftl::FlashBackend::end_batch), its firmware work
  // first, from `ready` on; returns when the last of them completes. Not counted in totals(),
  // which are the host commands'.
  Picoseconds time_batch(Picoseconds ready);
  // VET's accelerator, when the platform has one: the time its commands took is added to the
  // firmware's time of the host command that issued them.
  void attach_accelerator(AcceleratorPort* port) { m_accelerator = port; }
  // A timeline gets the firmware's work per command (and the accelerator's it waited for).
  void attach_timeline(Timeline* timeline) { m_timeline = timeline; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  // Runs the command's firmware and times its operations; returns its completion. `what` names
  // the work on a timeline (default: the command's kind).
  Picoseconds serve(ftl::HostCommand& command, Picoseconds ready, uint64_t& mismatches,
                    const char* what = nullptr);
  // Issues the operations the backend recorded, none before `cpu_end`; returns the completion of
  // the latest (GC's only with controller.write_waits_for_gc or `with_gc`).
  Picoseconds time_ops(Picoseconds cpu_end, bool with_gc = false);
  Picoseconds issue(const ftl::FlashOp& op, Picoseconds ready);
  // The same, to update.
  Picoseconds& frame_free_entry(uint32_t frame);

  ftl::FtlDevice& m_device;
  CpuCosts m_costs;
  bool m_write_waits_for_gc;  // controller.write_waits_for_gc
  Picoseconds m_cpu_free_at = 0;
  Picoseconds m_command_ready = 0;  // when the current command reached the controller
  Picoseconds m_all_done_at = 0;    // latest completion of any operation so far (for flushes)
  // Power-loss safe erases: per block, when the last program of newer copies of its units
  // completes (ftl::FlashBackend::note_supersedes); empty until the FTL notes one.
  std::vector<Picoseconds> m_superseded_until;
  // Per data-cache frame: when the write-back of the data it held last completes.
  std::vector<Picoseconds> m_frame_free_at;
  // Per data-cache frame: when data read ahead into it has landed (what a read hit waits for);
  // empty until the cache reads ahead.
  std::vector<Picoseconds> m_frame_loaded_at;
  FirmwareTotals m_totals;
  AcceleratorPort* m_accelerator = nullptr;
  Timeline* m_timeline = nullptr;
  std::vector<Picoseconds> m_done;  // per operation of the current command, reused
  ProgramBuffers m_program_buffers;
  tlm::tlm_generic_payload m_op_payload;
  FlashOpExtension m_op_extension;
  unsigned char m_scratch[8] = {};
};

}  // namespace ssd::models
