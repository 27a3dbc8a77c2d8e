#include "ftl/extent/extent_map_factory.h"

#include <stdexcept>

// TEMPORARY while VET and EMT are being written: build without them.
#if __has_include("ftl/emt/emt_map.h") && __has_include("ftl/vet/vet_map.h") && defined(SSD_EXTENT_READY)
#define SSD_HAVE_EXTENT_MAPS 1
#include "ftl/emt/emt_map.h"
#include "ftl/vet/vet_map.h"
#endif

namespace ssd::ftl {

#ifdef SSD_HAVE_EXTENT_MAPS
namespace {

VetOptions vet_options(const config::FtlConfig& ftl) {
  // Config validation allows only these words (config/platform_keys.cpp).
  VetOptions options;
  options.insertion = ftl.vet_insertion == "lis" ? VetInsertion::kLis : VetInsertion::kBis;
  options.layout = ftl.vet_layout == "pd" ? VetLayout::kPointerDependent : VetLayout::kPointerFree;
  options.hash = ftl.vet_hash == "cuckoo" ? VetHash::kCuckoo : VetHash::kChaining;
  return options;
}

}  // namespace
#endif

std::unique_ptr<ExtentMap> make_extent_map(const std::string& structure,
                                           const config::PlatformConfig& platform,
                                           const Geometry& geometry, CpuWork& cpu) {
#ifdef SSD_HAVE_EXTENT_MAPS
  const ExtentSpace space{geometry.logical_units, geometry.slots()};
  if (structure == "vet") return std::make_unique<VetMap>(space, vet_options(platform.ftl), cpu);
  if (structure == "emt") return std::make_unique<EmtMap>(space, cpu);
#else
  (void)platform; (void)geometry; (void)cpu;
#endif
  throw std::invalid_argument("unknown extent-mapping structure '" + structure + "'");
}

}  // namespace ssd::ftl
