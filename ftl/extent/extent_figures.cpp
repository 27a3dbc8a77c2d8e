#include "ftl/extent/extent_figures.h"

namespace ssd::ftl {

std::vector<FigureDoc> extent_figures() {
  return {
      {"extents", "stored pieces at the end of the run"},
      {"nodes", "everything the mapping structure holds"},
      {"extents_per_write", "extents a host write formed (runs of consecutive slots)"},
      {"pieces_generated_per_write", "pieces those extents were stored as, per host write"},
      {"pieces_overlapped_per_write", "stored pieces a host write overlapped"},
      {"pieces_returned_per_read", "stored pieces a host read's search returned"},
      {"gc_relocation_runs", "runs of moved units GC remapped"},
      {"extents_split_by_gc", "places where a GC run ended inside a stored extent"},
  };
}

}  // namespace ssd::ftl
