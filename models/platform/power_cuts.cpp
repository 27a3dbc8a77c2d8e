#include "models/platform/power_cuts.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "ftl/core/checked_time.h"
#include "ftl/core/random.h"

namespace ssd::models {

PowerCuts::PowerCuts(const config::PowerConfig& power, uint64_t requests, const Parts& parts,
                     Capacitors capacitors)
    : m_parts(parts), m_capacitors(capacitors) {
  if (power.cut_at_us > 0) m_cut_at = ftl::checked_ps(power.cut_at_us * 1e6, "power.cut_at_us");
  if (power.cuts > 0) {
    // Distinct request numbers in [1, requests], drawn without replacement (validation keeps
    // cuts <= requests), then each an instant in the interval before its request.
    ftl::Random random(power.seed);
    std::set<uint64_t> chosen;
    while (chosen.size() < power.cuts) chosen.insert(1 + random.below(requests));
    m_cut_requests.assign(chosen.begin(), chosen.end());
    for (size_t i = 0; i < m_cut_requests.size(); ++i) m_cut_shares.push_back(random.unit());
  }
}

std::optional<ftl::Picoseconds> PowerCuts::cut_before(uint64_t number, ftl::Picoseconds previous,
                                                      ftl::Picoseconds submit) {
  // Operations completed by the previous submission outlive any cut from here on.
  m_parts.device.flash().journal_retire(previous);
  if (m_cut_at > 0) {
    if (m_cut_at > submit) return std::nullopt;
    const ftl::Picoseconds at = std::max(m_cut_at, previous);
    m_cut_at = 0;
    return at;
  }
  if (m_next >= m_cut_requests.size() || m_cut_requests[m_next] > number) return std::nullopt;
  const double share = m_cut_shares[m_next++];
  const ftl::Picoseconds span = submit - std::min(previous, submit);
  return previous + static_cast<ftl::Picoseconds>(std::floor(share * double(span)));
}

ftl::Picoseconds PowerCuts::cut(ftl::Picoseconds failed) {
  ftl::FtlDevice& device = m_parts.device;
  // With power-loss protection the capacitors hold the device up through a flush: what was
  // acknowledged by then (and what was in flight) becomes durable, and the power goes after. The
  // drive promised that for every acknowledged write, so the durability check holds it to it
  // also when the capacitors run out first: the power then goes with the flush's operations in
  // flight, as at any cut, and what they had not made durable shows as lost.
  ftl::Picoseconds at = failed;
  std::string exhausted;
  if (m_capacitors.backed) {
    at = m_parts.processor.flush_on_capacitors(failed);
    device.flush_acknowledged(device.last_flush_marker());
    if (m_capacitors.hold_up > 0 && at - failed > m_capacitors.hold_up) {
      exhausted = "the capacitors ran out after " + std::to_string(m_capacitors.hold_up / 1000000) +
                  " us of a " + std::to_string((at - failed) / 1000000) + " us flush; ";
      at = failed + m_capacitors.hold_up;
      ++m_report.hold_up_exhausted;
    }
    m_report.hold_up_ns.push_back((at - failed) / 1000);
  }
  const ftl::FlashArray::CutResult cut = device.power_cut(at);
  m_parts.nand.power_off(at);
  m_parts.dram.power_off(at);
  m_parts.nvram.power_off(at);
  m_parts.processor.power_off(at);

  // The recovery's batches are timed from the cut on; each is one block's work on one die. As
  // every die's work moves on, the NAND timing may forget what ended before the slowest die's
  // latest completion (its reservation lists stay short over a scan of the whole device).
  ftl::Picoseconds back = at;
  std::vector<ftl::Picoseconds> die_done(device.geometry().dies(), at);
  device.backend().set_batch_sink([&] {
    uint32_t die = ftl::kNone;
    for (const ftl::FlashOp& op : device.backend().ops().ops()) {
      if (ftl::is_flash_op(op.kind)) {
        die = op.die;
        break;
      }
    }
    const ftl::Picoseconds done = m_parts.processor.time_batch(at);
    back = std::max(back, done);
    if (die == ftl::kNone) return;
    die_done[die] = std::max(die_done[die], done);
    m_parts.nand.advance(*std::min_element(die_done.begin(), die_done.end()));
  });
  const ftl::FtlDevice::RecoveryCounts counts = device.recover();
  device.backend().set_batch_sink(nullptr);
  const ftl::DurabilityCheck::Verdict verdict = device.check_after_recovery();

  report::RunReport::Power& r = m_report;
  ++r.cuts;
  r.undone_operations += cut.undone;
  r.torn_programs += cut.torn_programs;
  r.torn_erases += cut.torn_erases;
  r.recovery_ns.push_back((back - at) / 1000);  // from when the power went
  r.recovery_reads += counts.flash_reads;
  r.recovery_spare_reads += counts.spare_reads;
  r.recovery_programs += counts.programs;
  r.recovery_erases += counts.erases;
  r.recovery_nvram_reads += counts.nvram_reads;
  r.units_checked += verdict.units;
  r.rolled_back_units += verdict.rolled_back;
  r.trimmed_resurrected_units += verdict.trimmed_resurrected;
  if (r.lost_durable_units == 0 && verdict.lost_durable > 0) {
    r.first_loss = "cut " + std::to_string(r.cuts) + " at " + std::to_string(at / 1000) +
                   " ns: " + exhausted + verdict.first_loss;
  }
  r.lost_durable_units += verdict.lost_durable;
  return back;
}

}  // namespace ssd::models
