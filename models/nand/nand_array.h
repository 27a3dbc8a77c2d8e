// The NAND flash array as a loosely timed TLM-2.0 target (LtTarget): every transaction carries one
// recorded FTL operation (FlashOpExtension) and is timed by NandTiming with busy-until
// reservations; the completion comes back as the annotated delay. No data is stored: the FTL
// keeps the functional content of the flash.
#pragma once

#include <systemc>
#include <tlm>

#include "models/common/lt_target.h"
#include "models/nand/nand_timing.h"

namespace ssd::models {

class NandArray : public LtTarget {
 public:
  NandArray(sc_core::sc_module_name name, const NandTimingParams& params);

  const NandTiming& timing() const { return m_timing; }
  // The power went off at `cut` (NandTiming::power_off).
  void power_off(Picoseconds cut) { m_timing.power_off(cut); }
  // No operation will be ready before `now` any more (NandTiming::advance): what a recovery,
  // which issues its reads with no simulated time passing, says as its dies' work moves on.
  void advance(Picoseconds now) { m_timing.advance(now); }
  // A timeline of the dies and channels (NandTiming::set_span_sink, flush_spans).
  void set_span_sink(NandSpanSink* sink) { m_timing.set_span_sink(sink); }
  void flush_spans() { m_timing.flush_spans(); }
  // The run is over: the GC still queued is placed, so that the counters (die busy time) count
  // every operation where it finally went.
  void place_queued_gc() { m_timing.place_queued_gc(); }

 private:
  Answer transport(tlm::tlm_generic_payload& payload, Picoseconds now, Picoseconds ready) override;

  NandTiming m_timing;
};

}  // namespace ssd::models
