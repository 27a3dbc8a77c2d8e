// The NAND flash array as a TLM-2.0 target: every transaction carries one recorded FTL operation
// (FlashOpExtension) and is timed by NandTiming with busy-until reservations. Loosely timed: the
// completion comes back as the annotated delay and b_transport never waits. No data is stored:
// the FTL keeps the functional content of the flash.
#pragma once

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/nand/nand_timing.h"

namespace ssd::models {

class NandArray : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NandArray> socket;

  NandArray(sc_core::sc_module_name name, const NandTimingParams& params);

  const NandTiming& timing() const { return m_timing; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  NandTiming m_timing;
};

}  // namespace ssd::models
