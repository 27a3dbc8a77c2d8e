// Builds the extent-mapping structure a scheme name asks for, with the platform's settings
// (ftl.vet.*), sized for the device's geometry.
#pragma once

#include <memory>
#include <string>

#include "config/platform_config.h"
#include "ftl/core/flash_op.h"
#include "ftl/core/geometry.h"
#include "ftl/extent/extent_map.h"
#include "ftl/extent/vet/hash_engine.h"

namespace ssd::ftl {

// `structure`: "vet" or "emt"; throws std::invalid_argument otherwise. `hash_engine`: where VET
// sends its commands with ftl.vet.hash_backend = accelerator (then it must not be null).
std::unique_ptr<ExtentMap> make_extent_map(const std::string& structure,
                                           const config::PlatformConfig& platform,
                                           const Geometry& geometry, CpuWork& cpu,
                                           HashEngine* hash_engine = nullptr);

}  // namespace ssd::ftl
