// Why a run ended before its workload did, and the request to stop one from outside (SIGINT).
// The host interface checks both at every request; SsdPlatform::run_to_end() returns a stop,
// which ssdsim reports (docs/errors.md), and SsdPlatform::run() throws it as RunStopped.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

namespace ssd::models {

struct RunStop {
  enum class Cause {
    kNone,
    kInterrupted,  // request_interrupt() was called (ssdsim: SIGINT)
    kTimeLimit,    // a time past the latest simulated time: the inputs ask for too long a run
    kFailed,       // the FTL or a model could not serve a command
  };
  Cause cause = Cause::kNone;
  std::string message;
};

class RunStopped : public std::runtime_error {
 public:
  RunStopped(RunStop::Cause cause, const std::string& message)
      : std::runtime_error(message), m_cause(cause) {}
  RunStop::Cause cause() const { return m_cause; }

 private:
  RunStop::Cause m_cause;
};

// Asks the run in progress (preconditioning or simulation) to stop at the next request. Safe to
// call from a signal handler.
void request_interrupt();
bool interrupt_requested();

}  // namespace ssd::models
