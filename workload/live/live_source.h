// Commands from live clients (ssdsim serve's NBD clients, docs/clients.md) as an open-loop
// workload: each arrives at a simulated time the pacing sets (below), and the client's thread
// waits in execute() until the simulated device has served it.
//
// Thread use: any number of client threads call execute() at once; the simulation thread (the
// host model's, inside SystemC) calls next() and completed(), one request at a time, in the
// order the requests arrived, which is the order the device serves them.
//
// Pacing:
// - as_fast_as_possible answers the client as soon as the device has run the command, so the
//   client sees the simulator's speed and the report has the simulated latencies. Wall time then
//   says nothing of simulated time, so arrivals follow a closed loop: each request the client
//   sends is taken as its answer to one answer it was given, the earliest (in simulated time) not
//   yet answered, and arrives at that answer's completion (never before the request before it);
//   a request sent with no such answer left arrives with the one before it. A client that keeps N
//   requests in flight is so a closed loop of queue depth N with no think time, as `ssdsim run
//   --fio` models it, however its own threads batch their sends. Answers a client never follows
//   up (it stopped, or lowered its depth) are kept, at most `window` of them, the earliest
//   dropped first: a client that later resumes pairs with those, arriving earlier than it could
//   have known.
// - real_time: a request arrives at the wall time it was sent, counted from start_clock(), and
//   is answered once wall time reaches its simulated completion, so that the client's own
//   latency figures are the simulated device's (plus the client's own costs), as with an
//   emulator. A simulator slower than the device it simulates answers late, never early.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <queue>
#include <string>
#include <vector>

#include "workload/workload_source.h"

namespace ssd::workload {

enum class Pacing { kAsFastAsPossible, kRealTime };

// "as_fast_as_possible" or "real_time"; false for anything else.
bool parse_pacing(const std::string& text, Pacing& pacing);
const char* to_string(Pacing pacing);

class LiveSource final : public WorkloadSource {
 public:
  // `window`: the most answers kept for pairing (as_fast_as_possible); the host's submission
  // queue entries are as many as it could have in flight.
  explicit LiveSource(Pacing pacing, size_t window = 1024);

  // Arrival times count from here (the device is ready to serve).
  void start_clock();
  // From a client's thread: runs `request` (its arrival is set here) on the device and returns
  // when it is answered. `data`: a write's bytes or a read's buffer (request.sector_count
  // sectors). Returns 0, EIO when the device could not serve it or a read's data failed the
  // integrity check, or ESHUTDOWN once the run has ended.
  int execute(Request request);
  // No more clients: next() returns false once every queued request has run.
  void close();
  // The run has ended (closed, or stopped early): the request the device was running fails with
  // EIO, those still waiting and any that come with ESHUTDOWN.
  void end();
  uint64_t answered() const;
  // Requests sent and not yet given to the device.
  size_t queued() const;

  // WorkloadSource, from the simulation thread.
  bool next(Request& request) override;
  void completed(ftl::Picoseconds completion, bool ok) override;
  bool open_loop() const override { return true; }
  std::string describe() const override;

 private:
  struct Waiting {
    Request request;
    std::condition_variable answered;
    bool done = false;
    int status = 0;
    ftl::Picoseconds completion = 0;
  };
  void answer(Waiting& waiting, int status, ftl::Picoseconds completion);
  // When a request sent now arrives, by the pacing (lock held).
  ftl::Picoseconds arrival_now();

  const Pacing m_pacing;
  mutable std::mutex m_mutex;
  std::condition_variable m_arrived;  // the simulation thread waits here for work
  std::deque<Waiting*> m_queue;       // arrived, not yet given to the device
  Waiting* m_running = nullptr;       // given by next(), not yet completed()
  std::chrono::steady_clock::time_point m_start;
  ftl::Picoseconds m_last_arrival = 0;
  // as_fast_as_possible: completions of answers given and not yet paired with a request.
  std::priority_queue<ftl::Picoseconds, std::vector<ftl::Picoseconds>, std::greater<>> m_unpaired;
  size_t m_window;
  bool m_closed = false;
  bool m_ended = false;
  uint64_t m_answered = 0;
};

}  // namespace ssd::workload
