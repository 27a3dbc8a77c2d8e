#include "models/common/run_stop.h"

namespace ssd::models {

namespace {
// Lock-free, so setting it from a signal handler is safe.
std::atomic<bool> g_interrupt{false};
static_assert(std::atomic<bool>::is_always_lock_free);
}  // namespace

void request_interrupt() { g_interrupt.store(true, std::memory_order_relaxed); }
bool interrupt_requested() { return g_interrupt.load(std::memory_order_relaxed); }

}  // namespace ssd::models
