// A controller memory (DRAM or NVRAM, one model with two configurations) as a loosely timed
// TLM-2.0 target (LtTarget). READ and WRITE transactions of `data length` bytes are timed by
// MemoryTiming; a FlashOpExtension with a memory kind (kDramRead, ...), when present, gives the
// direction and size instead. The model keeps no content (the FTL holds what its memories
// contain) and never touches the data buffer.
#pragma once

#include <systemc>
#include <tlm>

#include "models/common/lt_target.h"
#include "models/memory/memory_timing.h"

namespace ssd::models {

class MemoryModel : public LtTarget {
 public:
  MemoryModel(sc_core::sc_module_name name, const MemoryTimingParams& params);

  const MemoryTiming& timing() const { return m_timing; }
  // The power went off at `cut`: accesses in progress stopped (MemoryTiming::power_off).
  void power_off(Picoseconds cut) { m_timing.power_off(cut); }
  bool persistent() const { return m_timing.params().persistent; }

 private:
  Answer transport(tlm::tlm_generic_payload& payload, Picoseconds now, Picoseconds ready) override;

  MemoryTiming m_timing;
};

}  // namespace ssd::models
