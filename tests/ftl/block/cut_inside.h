// Power cuts at chosen instants inside one operation of a block-granular scheme (a merge, a fold):
// the device is built afresh for every instant and driven the same way up to the operation (the
// rig is seeded), so each cut falls on the same flash work, at a chosen share of its span.
#pragma once

#include <functional>
#include <memory>

#include "ftl/core/ftl_device.h"
#include "tests/ftl/power/power_cut_rig.h"

namespace ssd::testing {

struct CutInside {
  std::unique_ptr<ftl::FtlDevice> device;
  std::unique_ptr<PowerCutRig> rig;
  ftl::Picoseconds at = 0;  // the cut; the recovery runs from there to rig->all_done()
  ftl::DurabilityCheck::Verdict verdict;
};

// `before` brings the device to the operation and ends with a flush; `operation` runs it. The
// cut falls at `share` (0..1) of the way from when everything before it had completed (so the
// flush made it durable) to when the operation's last flash operation completes.
inline CutInside cut_inside(const config::PlatformConfig& platform, uint64_t seed,
                            const std::function<void(PowerCutRig&)>& before,
                            const std::function<void(PowerCutRig&)>& operation, double share) {
  CutInside c;
  c.device = std::make_unique<ftl::FtlDevice>(platform, power_options());
  c.rig = std::make_unique<PowerCutRig>(*c.device, seed);
  before(*c.rig);
  const ftl::Picoseconds start = c.rig->all_done();
  operation(*c.rig);
  const ftl::Picoseconds end = c.rig->all_done();
  c.at = start + static_cast<ftl::Picoseconds>(share * double(end - start));
  c.verdict = c.rig->cut_at(c.at);
  return c;
}

}  // namespace ssd::testing
