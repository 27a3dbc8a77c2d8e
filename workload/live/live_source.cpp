#include "workload/live/live_source.h"

#include <algorithm>
#include <cerrno>
#include <thread>

#include <sys/prctl.h>

namespace ssd::workload {

bool parse_pacing(const std::string& text, Pacing& pacing) {
  if (text == "as_fast_as_possible") {
    pacing = Pacing::kAsFastAsPossible;
  } else if (text == "real_time") {
    pacing = Pacing::kRealTime;
  } else {
    return false;
  }
  return true;
}

const char* to_string(Pacing pacing) {
  return pacing == Pacing::kRealTime ? "real_time" : "as_fast_as_possible";
}

LiveSource::LiveSource(Pacing pacing, size_t window)
    : m_pacing(pacing), m_start(std::chrono::steady_clock::now()), m_window(window) {}

void LiveSource::start_clock() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_start = std::chrono::steady_clock::now();
  m_last_arrival = 0;
  m_unpaired = {};
}

int LiveSource::execute(Request request) {
  Waiting waiting;
  std::unique_lock<std::mutex> lock(m_mutex);
  if (m_closed || m_ended) return ESHUTDOWN;
  // Never before an earlier arrival, so that the device serves requests in the order they came.
  m_last_arrival = std::max(m_last_arrival, arrival_now());
  request.arrival = m_last_arrival;
  waiting.request = request;
  m_queue.push_back(&waiting);
  if (m_queue.size() == 1) m_arrived.notify_one();
  waiting.answered.wait(lock, [&] { return waiting.done; });
  lock.unlock();
  if (waiting.status == 0 && m_pacing == Pacing::kRealTime) {
    // Linux lets a sleep overrun by the thread's timer slack, 50 us by default: more than many
    // a flash operation. One microsecond keeps the answer on time.
    thread_local const bool tight_slack = prctl(PR_SET_TIMERSLACK, 1000UL) == 0;
    (void)tight_slack;
    std::this_thread::sleep_until(m_start + std::chrono::nanoseconds(waiting.completion / 1000));
  }
  return waiting.status;
}

ftl::Picoseconds LiveSource::arrival_now() {
  if (m_pacing == Pacing::kAsFastAsPossible) {
    if (m_unpaired.empty()) return 0;  // sent beside the others: arrives with the one before
    const ftl::Picoseconds answered = m_unpaired.top();
    m_unpaired.pop();
    return answered;
  }
  const auto since_start = std::chrono::steady_clock::now() - m_start;
  return static_cast<ftl::Picoseconds>(
             std::chrono::duration_cast<std::chrono::nanoseconds>(since_start).count()) *
         1000;
}

void LiveSource::close() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_closed = true;
  m_arrived.notify_all();
}

void LiveSource::end() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_ended = true;
  if (m_running != nullptr) {
    answer(*m_running, EIO, 0);
    m_running = nullptr;
  }
  for (Waiting* waiting : m_queue) answer(*waiting, ESHUTDOWN, 0);
  m_queue.clear();
  m_arrived.notify_all();
}

uint64_t LiveSource::answered() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_answered;
}

size_t LiveSource::queued() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_queue.size();
}

bool LiveSource::next(Request& request) {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_arrived.wait(lock, [&] { return !m_queue.empty() || m_closed || m_ended; });
  if (m_queue.empty() || m_ended) return false;
  m_running = m_queue.front();
  m_queue.pop_front();
  request = m_running->request;
  return true;
}

void LiveSource::completed(ftl::Picoseconds completion, bool ok) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_running == nullptr) return;
  answer(*m_running, ok ? 0 : EIO, completion);
  m_running = nullptr;
}

void LiveSource::answer(Waiting& waiting, int status, ftl::Picoseconds completion) {
  waiting.status = status;
  waiting.completion = completion;
  waiting.done = true;
  ++m_answered;
  if (m_pacing == Pacing::kAsFastAsPossible && completion > 0) {  // 0: the run ended, unserved
    m_unpaired.push(completion);
    if (m_unpaired.size() > m_window) m_unpaired.pop();
  }
  waiting.answered.notify_one();
}

std::string LiveSource::describe() const {
  return std::string("live clients (") + to_string(m_pacing) + ")";
}

}  // namespace ssd::workload
