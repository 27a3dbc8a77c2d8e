#include "workload/flush_injector.h"

namespace ssd::workload {

bool FlushInjector::next(Request& request) {
  if (m_flush_next) {
    m_flush_next = false;
    request = Request{};
    request.kind = ftl::CommandKind::kFlush;
    request.arrival = m_last.arrival;
    request.queue = m_last.queue;
    return true;
  }
  if (!m_inner->next(request)) return false;
  if (request.kind == ftl::CommandKind::kWrite && ++m_writes % m_every == 0) {
    m_flush_next = true;
    m_last = request;
  }
  return true;
}

std::string FlushInjector::describe() const {
  return m_inner->describe() + ", a flush every " + std::to_string(m_every) + " writes";
}

}  // namespace ssd::workload
