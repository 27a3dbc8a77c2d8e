#include "ftl/extent/extent_map_factory.h"

#include <stdexcept>

#include "ftl/extent/emt/emt_map.h"
#include "ftl/extent/vet/vet_map.h"
#include "ftl/extent/vet/vet_settings.h"

namespace ssd::ftl {

namespace {

VetOptions vet_options(const VetSettings& settings, HashEngine* engine) {
  // Config validation allows only these words (ftl/extent/vet/vet_settings.h).
  VetOptions options;
  options.insertion = settings.insertion == "lis" ? VetInsertion::kLis : VetInsertion::kBis;
  options.layout = settings.layout == "pd" ? VetLayout::kPointerDependent : VetLayout::kPointerFree;
  options.hash = settings.hash == "cuckoo" ? VetHash::kCuckoo : VetHash::kChaining;
  if (settings.hash_backend == "accelerator") {
    options.backend = VetHashBackend::kAccelerator;
    options.engine = engine;
  }
  return options;
}

}  // namespace

std::unique_ptr<ExtentMap> make_extent_map(const std::string& structure,
                                           const config::PlatformConfig& platform,
                                           const Geometry& geometry, CpuWork& cpu,
                                           HashEngine* hash_engine) {
  const ExtentSpace space{geometry.logical_units, geometry.slots()};
  if (structure == "vet")
    return std::make_unique<VetMap>(
        space, vet_options(platform.ftl.settings.get<VetSettings>(), hash_engine), cpu);
  if (structure == "emt") return std::make_unique<EmtMap>(space, cpu);
  throw std::invalid_argument("unknown extent-mapping structure '" + structure + "'");
}

}  // namespace ssd::ftl
