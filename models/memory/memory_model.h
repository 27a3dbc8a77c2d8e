// A controller memory (DRAM or NVRAM, one model with two configurations) as a TLM-2.0 target.
// READ and WRITE transactions of `data length` bytes are timed by MemoryTiming; a FlashOpExtension
// with a memory kind (kDramRead, ...), when present, gives the direction and size instead. The
// model keeps no content (the FTL holds what its memories contain) and never touches the data
// buffer. Loosely timed: the completion comes back as the annotated delay, without wait().
#pragma once

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/memory/memory_timing.h"

namespace ssd::models {

class MemoryModel : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemoryModel> socket;

  MemoryModel(sc_core::sc_module_name name, const MemoryTimingParams& params);

  const MemoryTiming& timing() const { return m_timing; }
  bool persistent() const { return m_timing.params().persistent; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  MemoryTiming m_timing;
};

}  // namespace ssd::models
