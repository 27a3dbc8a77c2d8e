// Power cuts through the sector layer: the page or DAC scheme with the layer on, timed by
// PowerCutRig, checked after each recovery by FtlDevice's durability check, which checks by
// sector when content is sector-granular (ftl/power/durability_check.h, "Sector mode"). What
// this adds to the rig is a workload that keeps the layer busy: mostly sub-page writes over a hot
// third of the device, reads, flushes and (on request) FUA writes; no trims (a trimmed page's old
// copy may come back, which the check counts apart: the tests trim only where they mean to).
#pragma once

#include <cstdint>
#include <string>

#include "ftl/core/ftl_device.h"
#include "ftl/core/random.h"
#include "ftl/sector_log/sector_layer.h"
#include "tests/ftl/power/power_cut_rig.h"

namespace ssd::testing {

class SectorCutHarness {
 public:
  // `platform`: ftl.scheme "page" or "dac", with the layer on.
  SectorCutHarness(const config::PlatformConfig& platform, uint64_t seed)
      : m_device(platform, power_options()), m_rig(m_device, seed), m_random(seed * 31 + 7) {}

  ftl::FtlDevice& device() { return m_device; }
  PowerCutRig& rig() { return m_rig; }
  const ftl::Geometry& geometry() const { return m_device.geometry(); }
  const ftl::SectorLayer& layer() const {
    return dynamic_cast<const ftl::SectorLayer&>(m_device.scheme());
  }
  const std::string& first_mismatch() const { return m_device.oracle()->first_mismatch(); }

  // Runs one command (a FUA write when `fua`); returns the units a read got wrong.
  uint64_t run(ftl::CommandKind kind, uint64_t sector, uint32_t count, bool fua = false) {
    return m_rig.run(kind, sector, count, fua);
  }

  // Random reads, writes (mostly sub-page, mostly over a hot third of the device) and flushes.
  uint64_t run_random(uint64_t commands, uint32_t flush_percent = 4) {
    const uint32_t spu = geometry().sectors_per_unit;
    const uint64_t sectors = geometry().logical_sectors();
    uint64_t bad = 0;
    for (uint64_t i = 0; i < commands; ++i) {
      const uint64_t draw = m_random.below(100);
      if (draw < flush_percent) {
        bad += run(ftl::CommandKind::kFlush, 0, 0);
        continue;
      }
      const uint64_t span = m_random.below(100) < 75 ? sectors / 3 : sectors;
      const auto count = static_cast<uint32_t>(
          m_random.below(5) == 0 ? spu * (1 + m_random.below(2)) : 1 + m_random.below(spu));
      const uint64_t start = m_random.below(span - count + 1);
      const bool write = draw < 65;
      const bool fua = write && m_fua_percent > 0 && m_random.below(100) < m_fua_percent;
      bad += run(write ? ftl::CommandKind::kWrite : ftl::CommandKind::kRead, start, count, fua);
    }
    return bad;
  }
  // That share of run_random's writes are FUA.
  void set_fua_percent(uint32_t percent) { m_fua_percent = percent; }

  // Cuts at a random instant among the operations in flight (or at `at`), recovers, and checks
  // every sector.
  ftl::DurabilityCheck::Verdict cut() { return m_rig.cut(); }
  ftl::DurabilityCheck::Verdict cut_at(ftl::Picoseconds at) { return m_rig.cut_at(at); }

 private:
  ftl::FtlDevice m_device;
  PowerCutRig m_rig;
  ftl::Random m_random;
  uint32_t m_fua_percent = 0;
};

}  // namespace ssd::testing
