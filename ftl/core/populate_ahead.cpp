#include "ftl/core/populate_ahead.h"

#include <utility>

#include "ftl/core/prefaulted_allocator.h"

namespace ssd::ftl {

PopulateAhead::PopulateAhead() : m_worker([this] { work(); }) {}

PopulateAhead::~PopulateAhead() {
  settle();
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_worker.join();
}

void PopulateAhead::populate(void* begin, size_t bytes) {
  ask([begin, bytes] { populate_for_writing(begin, bytes); });
}

void PopulateAhead::ask(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_asked.push_back(std::move(task));
  }
  m_changed.notify_all();
}

void PopulateAhead::settle() {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_changed.wait(lock, [&] { return m_asked.empty() && !m_busy; });
}

void PopulateAhead::work() {
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    m_changed.wait(lock, [&] { return m_stop || !m_asked.empty(); });
    if (m_asked.empty()) return;  // stopped, nothing left
    const std::function<void()> task = std::move(m_asked.front());
    m_asked.pop_front();
    m_busy = true;
    lock.unlock();
    task();
    lock.lock();
    m_busy = false;
    m_changed.notify_all();
  }
}

}  // namespace ssd::ftl
