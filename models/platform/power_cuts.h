// Power cuts during the timed run (scenario power.*; docs/power-loss.md), the PowerLoss the host
// interface consults. A cut at `at`: the flash keeps the operations that completed by then (one in
// its array operation is torn), the dies, channels, memories and CPU stop, and the scheme with all
// it held in DRAM is gone. The power comes back at once: the scheme rebuilds itself from the flash
// (its reads timed from the cut on, a batch at a time), every logical unit is read back and
// checked against what was durable (ftl::DurabilityCheck), and the host goes on.
//
// Where cuts fall: power.cut_at_us once, or power.cuts times before requests drawn at random
// (power.seed) among workload.requests, each at a random instant between that request's
// submission and the previous one's.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "config/scenario_config.h"
#include "ftl/core/ftl_device.h"
#include "models/controller/ftl_processor.h"
#include "models/host/power_loss.h"
#include "models/memory/memory_model.h"
#include "models/nand/nand_array.h"
#include "report/run_report.h"

namespace ssd::models {

class PowerCuts final : public PowerLoss {
 public:
  struct Parts {
    ftl::FtlDevice& device;
    NandArray& nand;
    MemoryModel& dram;
    MemoryModel& nvram;
    FtlProcessor& processor;
  };
  // Power-loss protection (controller.capacitor_backed, controller.capacitor_hold_up_us): a flush
  // on the capacitors before each cut, for at most `hold_up` (0: as long as it takes).
  struct Capacitors {
    bool backed = false;
    ftl::Picoseconds hold_up = 0;
  };
  PowerCuts(const config::PowerConfig& power, uint64_t requests, const Parts& parts,
            Capacitors capacitors);

  std::optional<ftl::Picoseconds> cut_before(uint64_t number, ftl::Picoseconds previous,
                                             ftl::Picoseconds submit) override;
  ftl::Picoseconds cut(ftl::Picoseconds at) override;
  uint64_t flush_marker() const override { return m_parts.device.last_flush_marker(); }
  void flush_completed(uint64_t marker) override { m_parts.device.flush_acknowledged(marker); }
  ftl::ChangeSpan fua_changes() const override { return m_parts.device.last_fua_changes(); }
  void fua_completed(ftl::ChangeSpan changes) override { m_parts.device.fua_acknowledged(changes); }

  // What the cuts did so far (the host adds the commands it lost).
  const report::RunReport::Power& report() const { return m_report; }

 private:
  Parts m_parts;
  Capacitors m_capacitors;
  ftl::Picoseconds m_cut_at = 0;         // power.cut_at_us (0: none), until it is made
  std::vector<uint64_t> m_cut_requests;  // power.cuts: request numbers, ascending
  std::vector<double> m_cut_shares;      // where in the interval before each the cut falls
  size_t m_next = 0;                     // next of m_cut_requests
  report::RunReport::Power m_report;
};

}  // namespace ssd::models
