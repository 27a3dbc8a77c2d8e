#include "ftl/core/sampled_aging.h"

#include <stdexcept>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/scheme_registry.h"

namespace ssd::ftl {

config::PlatformConfig miniature_platform(const config::PlatformConfig& platform, uint32_t dies) {
  // Untimed, the FTL sees dies and their planes only: how they sit on channels and chips
  // does not matter to the aging.
  config::PlatformConfig miniature = platform;
  miniature.nand.channels = 1;
  miniature.nand.chips_per_channel = dies;
  miniature.nand.dies_per_chip = 1;
  const SchemeDescriptor* scheme = find_scheme(platform.ftl.scheme);
  if (scheme != nullptr && scheme->scale_to_miniature) {
    const double share = double(Geometry::from_platform(miniature).logical_units) /
                         double(Geometry::from_platform(platform).logical_units);
    scheme->scale_to_miniature(platform, miniature, share);
  }
  return miniature;
}

AgedPlanes age_miniature(const config::PlatformConfig& platform,
                         const config::PreconditionConfig& config,
                         const std::function<void(double)>& progress, bool power_loss) {
  FtlDeviceOptions options;
  options.oracle = false;  // the device's own oracle learns the units it lays out
  options.power_loss = power_loss;
  const SchemeDescriptor* scheme = find_scheme(platform.ftl.scheme);
  const config::PlatformConfig mini = miniature_platform(platform, config.sample_dies);
  FtlDevice miniature = scheme != nullptr && scheme->create_miniature
                            ? FtlDevice(mini, options, scheme->create_miniature)
                            : FtlDevice(mini, options);
  config::PreconditionConfig simulated = config;
  simulated.aging = "simulated";
  precondition(miniature, simulated, progress);
  AgedPlanes planes;
  if (!miniature.scheme().describe_aged_planes(planes)) {
    throw std::invalid_argument("precondition.aging = sampled: the " + platform.ftl.scheme +
                                " scheme cannot describe its planes");
  }
  return planes;
}

}  // namespace ssd::ftl
