#include "workload/fua_marker.h"

#include <sstream>
#include <utility>

namespace ssd::workload {

namespace {
// Mixed into workload.seed so that the FUA draws are not the generator's own sequence (which
// starts from the same seed) replayed.
constexpr uint64_t kFuaStream = 0x4655412d64726177ull;  // "FUA-draw"
}  // namespace

FuaMarker::FuaMarker(std::unique_ptr<WorkloadSource> inner, double ratio, uint64_t seed)
    : m_inner(std::move(inner)), m_ratio(ratio), m_random(seed ^ kFuaStream) {}

bool FuaMarker::next(Request& request) {
  // The caller reuses `request`, and a source may fill only the fields it knows (the synthetic
  // generator): the previous request's mark must not stay on.
  request.fua = false;
  if (!m_inner->next(request)) return false;
  if (request.kind == ftl::CommandKind::kWrite && m_random.unit() < m_ratio) request.fua = true;
  return true;
}

std::string FuaMarker::describe() const {
  std::ostringstream out;
  out << m_inner->describe() << ", " << m_ratio * 100 << "% of writes FUA";
  return out.str();
}

}  // namespace ssd::workload
