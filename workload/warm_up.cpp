#include "workload/warm_up.h"

#include "workload/trace/trace_error.h"

namespace ssd::workload {

namespace {
constexpr uint64_t kTickEvery = 4096;

// Turns the backend's recording off for the pass and back as it was, also when the pass throws.
class NotRecording {
 public:
  explicit NotRecording(ftl::FlashBackend& backend)
      : m_backend(backend), m_was_recording(backend.recording()) {
    backend.set_recording(false);
  }
  ~NotRecording() { m_backend.set_recording(m_was_recording); }
  NotRecording(const NotRecording&) = delete;
  NotRecording& operator=(const NotRecording&) = delete;

 private:
  ftl::FlashBackend& m_backend;
  bool m_was_recording;
};

}  // namespace

uint64_t replay_untimed(ftl::FtlDevice& device, WorkloadSource& source,
                        const std::function<void(uint64_t requests)>& tick) {
  const NotRecording untimed(device.backend());
  Request request;
  ftl::HostCommand command;
  uint64_t requests = 0;
  while (source.next(request)) {
    command.kind = request.kind;
    command.start_sector = request.start_sector;
    command.sector_count = request.sector_count;
    command.queue = request.queue;
    command.fua = request.fua;
    device.run(command);
    if (++requests % kTickEvery == 0 && tick) tick(requests);
  }
  if (!source.failure().empty()) throw TraceError(source.failure());
  return requests;
}

}  // namespace ssd::workload
