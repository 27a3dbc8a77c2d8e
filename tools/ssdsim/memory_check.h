// Whether the simulator's host memory for a configuration fits before anything is allocated: the
// estimate of ftl::simulator_bytes() against sim.memory_limit_bytes, or the memory the machine
// has available when that is 0. A device too large is refused naming the keys that size it,
// instead of dying in the allocator partway through.
#pragma once

#include <string>

#include "config/config_loader.h"

namespace ssd::tools {

// "" when it fits; else the message.
std::string memory_problem(const config::LoadedConfig& config);

}  // namespace ssd::tools
