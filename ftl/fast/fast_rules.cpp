#include "ftl/fast/fast_rules.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ftl/fast/fast_settings.h"
#include "ftl/hybrid/block_rules.h"

namespace ssd::ftl {

namespace {

uint64_t planes_of(const config::NandConfig& n) {
  return uint64_t{n.channels} * n.chips_per_channel * n.dies_per_chip * n.planes_per_die;
}

}  // namespace

uint32_t fast_log_blocks(const config::PlatformConfig& platform) {
  const uint64_t blocks = planes_of(platform.nand) * platform.nand.blocks_per_plane;
  const double ratio = platform.ftl.settings.get<FastSettings>().log_blocks_ratio;
  const double wanted = std::round(static_cast<double>(blocks) * ratio);
  return static_cast<uint32_t>(std::max(2.0, wanted));
}

std::optional<config::KeyProblem> check_fast(const config::PlatformConfig& p) {
  if (auto problem = check_block_granular(p, "fast")) return problem;
  const uint64_t planes = planes_of(p.nand);
  const uint64_t blocks = planes * p.nand.blocks_per_plane;
  const uint64_t data = logical_blocks(p);
  const uint64_t logs = fast_log_blocks(p);
  if (data + logs + 2 * planes > blocks) {
    return config::KeyProblem{
        "ftl.fast.log_blocks_ratio",
        "gives " + std::to_string(logs) + " log blocks; with " + std::to_string(data) +
            " data blocks and 2 free blocks per plane they need " +
            std::to_string(data + logs + 2 * planes) + " of the " + std::to_string(blocks) +
            " blocks (raise ftl.over_provisioning or lower the ratio)"};
  }
  if ((data + planes - 1) / planes + 3 > p.nand.blocks_per_plane) {
    return config::KeyProblem{"ftl.over_provisioning",
                              "leaves fewer than 3 blocks per plane beyond the data blocks FAST "
                              "homes there"};
  }
  return std::nullopt;
}

}  // namespace ssd::ftl
