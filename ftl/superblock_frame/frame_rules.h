// What the descriptors of the Superblock and LSB FTLs share (ftl/superblock/,
// ftl/lsb/): the rules on the spare-area fields and the cache both have under their own key
// group, and the report figures the frame counts for both.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/key_def.h"
#include "config/platform_config.h"
#include "ftl/core/scheme_descriptor.h"

namespace ssd::ftl {

struct FrameFieldSettings {
  std::string group;  // the key group: "superblock" or "lsb"
  uint32_t di_bytes;
  uint32_t pbn_bytes;
  uint32_t cache_entries;
};

// groups_per_block x pages_per_group (0: pages per block / groups) is the pages of a block; sets
// `group_pages`. The problem names ftl.<group>.groups_per_block and ftl.<group>.pages_per_group.
std::optional<config::KeyProblem> check_frame_groups(const config::PlatformConfig& platform,
                                                     const std::string& group,
                                                     uint32_t groups_per_block,
                                                     uint32_t pages_per_group,
                                                     uint32_t& group_pages);
// di_bytes leaves room in the spare area; pbn_bytes names every block and an unused value;
// cache_entries >= 2 (a write and a merge each hold one). The problem names ftl.<group>.<key>.
std::optional<config::KeyProblem> check_frame_fields(const config::PlatformConfig& platform,
                                                     const FrameFieldSettings& settings);
// Power cuts: recovery tells the newest copy by a 64-bit sequence in the DI, which takes
// di_bytes >= 12 (data_information.h). The problem names ftl.<group>.di_bytes.
std::optional<config::KeyProblem> check_frame_recovery(const std::string& group, uint32_t di_bytes);
// The frame's figures (SuperblockFrame::frame_figures), in its order; `forced_gcs` says what a
// forced GC is in the scheme.
std::vector<FigureDoc> frame_figure_docs(const std::string& forced_gcs);

}  // namespace ssd::ftl
