// Whether two devices served their last command alike: the same flash operations recorded (kind,
// class, die, bytes, dependency, page, source) and the same units delivered (unit and token).
// For tests that run the same commands on two devices built or filled differently. And whether
// their last commands cost the controller the same CPU work (what the mapping's structures did:
// VET's chain walks, EMT's descents, the translation caches' probes).
#pragma once

#include <cstddef>

#include "ftl/core/cpu_work.h"
#include "ftl/core/ftl_device.h"

namespace ssd::testing {

inline bool same_cpu_work(const ftl::CpuWork& a, const ftl::CpuWork& b) {
#define SSD_SAME_FIELD(count, unit, default_cycles, is_mapping, description) \
  if (a.count != b.count) return false;
  SSD_CPU_PRIMITIVES(SSD_SAME_FIELD)
#undef SSD_SAME_FIELD
  return a.accelerator_cycles == b.accelerator_cycles;
}

inline bool served_alike(ftl::FtlDevice& a, ftl::FtlDevice& b) {
  const auto& oa = a.backend().ops().ops();
  const auto& ob = b.backend().ops().ops();
  if (oa.size() != ob.size()) return false;
  for (size_t k = 0; k < oa.size(); ++k) {
    if (oa[k].kind != ob[k].kind || oa[k].op_class != ob[k].op_class || oa[k].die != ob[k].die ||
        oa[k].bytes != ob[k].bytes || oa[k].after != ob[k].after || oa[k].page != ob[k].page ||
        oa[k].source != ob[k].source) {
      return false;
    }
  }
  const auto& da = a.backend().delivered();
  const auto& db = b.backend().delivered();
  if (da.size() != db.size()) return false;
  for (size_t k = 0; k < da.size(); ++k) {
    if (da[k].lun != db[k].lun || da[k].token != db[k].token) return false;
  }
  return true;
}

}  // namespace ssd::testing
