// Sampled aging (precondition.aging = sampled): the random overwrites that age a device towards
// GC steady state are run on a miniature of it, `precondition.sample_dies` dies with the
// device's planes, blocks and pages, the same over-provisioning and FTL settings, and its
// blocks are then laid out on every die of the device (MappingScheme::lay_out_aged): die d takes
// the planes of the miniature's die d mod sample_dies, each plane's blocks in an order of its
// own, the filled units in the valid slots in a seeded random order (or, for the extent schemes,
// each copy's units where the miniature's were relative to each other: aged_unit_interleave.h;
// for the block-granular schemes, each block as it was with its units renumbered:
// ftl/hybrid/block_aged.cpp; for the Superblock and LSB FTLs, each superblock's blocks as they
// were, the maps in their spare areas renumbered: ftl/superblock_frame/frame_aged.cpp),
// and every write stream goes on in the blocks its counterpart in the miniature was writing. GC is
// per plane, so a plane of the miniature ages as a plane of the device does, and the aging costs
// what sample_dies dies' does, not the device's.
//
// An approximation, measured against simulated aging in docs/ftl.md (sampled aging): the
// units' places are random where simulated aging leaves the fill's order in blocks GC has not
// collected, and the device's dies are copies of the miniature's, so whatever state its aging
// ended in is repeated on every die. That costs little at a shallow queue, where a miniature of
// more dies comes no closer, but a deep queue is paced by the planes whose GC costs most, which a
// one-die miniature's two planes cannot stand for: there 16 dies leave 1-8 % (measured there).
// With power cuts the laid-out pages carry sequence numbers and stream bits as any program's.
#pragma once

#include <cstdint>
#include <functional>

#include "config/platform_config.h"
#include "config/scenario_config.h"
#include "ftl/core/aged_planes.h"

namespace ssd::ftl {

// The miniature of `platform` with `dies` dies: one channel of `dies` chips of one die each,
// everything else the same but the scheme's settings that count the device's units
// (SchemeDescriptor::scale_to_miniature).
config::PlatformConfig miniature_platform(const config::PlatformConfig& platform, uint32_t dies);

// Fills and ages the miniature of `platform` as `config` asks (simulated, oracle off) and
// describes its planes. `progress` as precondition()'s. `power_loss`: the miniature may lose
// power (its flash keeps the recovery words and journals), for a device whose layout continues
// its sequence numbers (MappingScheme::lays_out_miniature_sequences). Throws
// std::invalid_argument when the platform's scheme cannot describe its planes.
AgedPlanes age_miniature(const config::PlatformConfig& platform,
                         const config::PreconditionConfig& config,
                         const std::function<void(double)>& progress = {}, bool power_loss = false);

}  // namespace ssd::ftl
